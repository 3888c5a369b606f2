"""Ticket to Ride as one registrable object: its rules, its front end and its Discord UI."""

from __future__ import annotations

from bot.games.plugin import GamePlugin
from bot.games.ttr.discord_ui import DISCORD_UI
from bot.games.ttr.front import FRONT_END
from rules.ttr.registration import SPEC

PLUGIN = GamePlugin(SPEC, FRONT_END, DISCORD_UI)
