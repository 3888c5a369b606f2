"""The one list of built-in games, registered on import, and shortcuts to create, restore and parse
any game by name.

Game names: ``"ttr"`` (every Ticket to Ride board; ``config["board"]`` picks it) and
``"first-class"``. A new game is a package under ``rules/`` with its own ``registration.py`` and
one line in :data:`BUILTIN_GAMES`. Generic code looks games up here (importing this module is what
registers them); :data:`GAMES` also holds any game registered later (a test's toy game).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.firstclass import registration as first_class
from rules.protocol import Action, Game
from rules.registry import GAMES, GameSpec, find_game, register
from rules.ttr import registration as ttr

BUILTIN_GAMES: tuple[GameSpec, ...] = (ttr.SPEC, first_class.SPEC)

for _spec in BUILTIN_GAMES:
    register(_spec)

GAME_NAMES = tuple(spec.name for spec in BUILTIN_GAMES)
DEFAULT_GAME = GAME_NAMES[0]
"""The game a front end offers when nobody names one: the first of the list."""

__all__ = [
    "BUILTIN_GAMES",
    "DEFAULT_GAME",
    "GAMES",
    "GAME_NAMES",
    "action_from_json",
    "find_game",
    "game_from_json",
    "new_game",
    "parse_action",
]


def new_game(name: str, config: Mapping[str, Any], players: int, seed: int) -> Game:
    """A new game of ``name`` with ``players`` seats, fully determined by ``config`` and ``seed``."""
    return find_game(name).new(config, players, seed)


def game_from_json(obj: dict[str, Any]) -> Game:
    """Restore a game from :meth:`to_json` output (its ``game_name`` field says which game)."""
    return find_game(str(obj.get("game_name", ""))).from_json(obj)


def parse_action(name: str, text: str) -> Action:
    """Parse an action's text form; raises IllegalAction(``"malformed_action"``) on garbage."""
    return find_game(name).parse_action(text)


def action_from_json(name: str, obj: dict[str, Any]) -> Action:
    return find_game(name).action_from_json(obj)
