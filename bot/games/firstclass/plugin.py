"""First Class as one registrable object: its rules, its front end and its Discord UI."""

from __future__ import annotations

from bot.games.firstclass.discord_ui import DISCORD_UI
from bot.games.firstclass.front import FRONT_END
from bot.games.plugin import GamePlugin
from rules.firstclass.registration import SPEC

PLUGIN = GamePlugin(SPEC, FRONT_END, DISCORD_UI)
