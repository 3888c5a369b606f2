"""Create, restore and parse actions for any game by name.

Game names: ``"ttr"`` (every Ticket to Ride board; ``config["board"]`` picks it) and
``"first-class"``. This is the single entry point the bot and the CLI use, so a new game is one
more entry here.
"""

from __future__ import annotations

import importlib
from typing import Any

from rules.errors import IllegalAction

_MODULES = {"ttr": "rules.ttr.game", "first-class": "rules.firstclass.game"}
GAME_NAMES = tuple(_MODULES)


def _game_class(name: str) -> Any:
    try:
        module = importlib.import_module(_MODULES[name])
    except KeyError:
        raise IllegalAction("unknown_game", f"There is no game called {name!r}; choose one of {', '.join(GAME_NAMES)}.") from None
    return module.GAME_CLASS


def new_game(name: str, config: dict[str, Any], players: int, seed: int) -> Any:
    """A new game of ``name`` with ``players`` seats, fully determined by ``config`` and ``seed``."""
    return _game_class(name).new(config, players, seed)


def game_from_json(obj: dict[str, Any]) -> Any:
    """Restore a game from :meth:`to_json` output (its ``game_name`` field says which class)."""
    return _game_class(obj["game_name"]).from_json(obj)


def parse_action(name: str, text: str) -> Any:
    """Parse an action's text form; raises IllegalAction(``"malformed_action"``) on garbage."""
    return _game_class(name).parse_action(text)


def action_from_json(name: str, obj: dict[str, Any]) -> Any:
    return _game_class(name).action_from_json(obj)
