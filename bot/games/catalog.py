"""The one list of the application's games, registered on import: each line is a game's
:class:`~bot.games.plugin.GamePlugin` (its rules, front end and Discord UI, from its own package).

A new game is its package plus its line here: it is then offered in the terminal, on Discord and
in tournaments with no other edit. Every front end imports this list through the App (and the
``conductor`` commands through the CLI); the generic code below them looks games up in the
registries (:func:`rules.registry.find_game`, :func:`bot.games.api.find_front_end`,
:func:`bot.discord_app.game_ui.game_ui_of`), never in this list, so no game's import loops back.
"""

from __future__ import annotations

from bot.games.firstclass.plugin import PLUGIN as FIRST_CLASS
from bot.games.plugin import GamePlugin, register_game
from bot.games.ttr.plugin import PLUGIN as TTR

BUILTIN_GAMES: tuple[GamePlugin, ...] = (TTR, FIRST_CLASS)

for _plugin in BUILTIN_GAMES:
    register_game(_plugin)
