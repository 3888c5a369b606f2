"""Create, restore and parse actions for any game by name: shortcuts over :mod:`rules.registry`.

Game names: ``"ttr"`` (every Ticket to Ride board; ``config["board"]`` picks it) and
``"first-class"``; :data:`GAME_NAMES` lists every registered game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.protocol import Action, Game
from rules.registry import GAMES, find_game

GAME_NAMES = tuple(GAMES)


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
