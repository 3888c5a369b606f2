"""Slash commands, grouped so the command list stays short, one module per concern.

``/ttr new|join|leave|addai|start`` (:mod:`.lobby`), ``/ttr abort|kick|replace|reclaim|approve``
(:mod:`.manage`), ``/ttr manager|language|sync`` (:mod:`.server`), ``/ttr pages|listed``
(:mod:`.pages`), ``/ttr rules|vacation``
(:mod:`.player`), ``/play action|resign`` and each game's own ``/play`` subcommands (:mod:`.play`;
Ticket to Ride's ``draw|claim|tickets|keep|station|tunnel|passenger`` live in its package), and
``/view hand|board|scores|log`` and ``/games`` (:mod:`.view`). Commands only parse options and
call :class:`~bot.discord_app.ui.GameUI` / :class:`~bot.service.GameService`; autocomplete is
served from memory and every final value is validated again by the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord_app import choices
from bot.discord_app.cogs.base import TTR, CogBase
from bot.discord_app.cogs.lobby import LobbyCommands
from bot.discord_app.cogs.manage import ManageCommands
from bot.discord_app.cogs.pages import PagesCommands
from bot.discord_app.cogs.play import PlayCog
from bot.discord_app.cogs.player import PlayerCommands
from bot.discord_app.cogs.server import ServerCommands
from bot.discord_app.cogs.view import ViewCog

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot


class LobbyCog(LobbyCommands, ManageCommands, ServerCommands, PlayerCommands, PagesCommands):
    """``/ttr``: creating, joining and managing games (Discord allows one cog per group)."""

    ttr = TTR


COGS: tuple[type[CogBase], ...] = (LobbyCog, PlayCog, ViewCog)
"""The generic cogs, in the order the bot adds them."""


async def setup(bot: ConductorBot) -> None:
    choices.refresh()
    for cog in COGS:
        await bot.add_cog(cog(bot))
