"""The one list of built-in games' Discord UIs, registered on import (the Discord client imports
it). A new game with a Discord UI of its own adds its line here; a game without one is offered on
Discord with the generic controls."""

from __future__ import annotations

from bot.discord_app.game_ui import GAME_UIS, DiscordGameUI, register_game_ui
from bot.games.firstclass.discord_ui import DISCORD_UI as FIRST_CLASS
from bot.games.ttr.discord_ui import DISCORD_UI as TTR

BUILTIN_DISCORD_UIS: tuple[DiscordGameUI, ...] = (TTR, FIRST_CLASS)

for _game_ui in BUILTIN_DISCORD_UIS:
    register_game_ui(_game_ui)


def registered_game_uis() -> tuple[DiscordGameUI, ...]:
    """Every registered Discord UI: the built-in ones and any registered since (a test's toy game)."""
    return tuple(GAME_UIS.values())
