"""The registered games and their boards as slash-command choices.

The lists are built on import and refreshed in place when the cogs are set up (:func:`refresh`),
so a game registered after this module was imported is offered too: a command's option keeps the
very list it was declared with.
"""

from __future__ import annotations

from discord import app_commands

from rules.games import GAMES


def _games() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=spec.title, value=spec.name) for spec in GAMES.values()][:25]


def _boards() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=b.name, value=b.id) for spec in GAMES.values() for b in spec.boards()][
        :25
    ]


GAME_DESC = "Game number (default: the game in this thread)"
GAME_CHOICES = _games()
BOARD_CHOICES = _boards()


def refresh() -> None:
    """Offer every game registered now (and its boards)."""
    GAME_CHOICES[:] = _games()
    BOARD_CHOICES[:] = _boards()
