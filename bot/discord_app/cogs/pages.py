"""``/ttr pages|listed``: whether a server's games and events have web pages (server admins),
and whether one game's page is listed (its creator, a game manager or a server admin)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_app.choices import GAME_DESC
from bot.discord_app.cogs.base import TTR, CogBase
from bot.discord_app.store import SPACE_PREFIX
from bot.discord_app.ui import who
from bot.service import ServiceError
from bot.web.links import page_line, public_id
from lang import M, _


class PagesCommands(CogBase):
    """``/ttr`` commands about the web pages (see docs/web.md)."""

    @TTR.command(
        name="pages", description="Whether this server's games and events have web pages (server admins)"
    )
    @app_commands.describe(shown="On: pages by their links; off: no page of this server")
    async def pages(self, interaction: discord.Interaction, shown: bool) -> None:
        await self.ui.defer(interaction)
        perms = interaction.permissions
        if interaction.guild_id is None:
            await self.ui.error(
                interaction, M("Web pages are turned on or off in a server, not in a direct message.")
            )
            return
        if not (perms.manage_guild or perms.administrator):
            await self.ui.error(
                interaction,
                M("Only a server admin (Manage Server) can turn this server's web pages on or off."),
            )
            return
        await self.bot.storage.web.set_pages_off(f"{SPACE_PREFIX}{interaction.guild_id}", not shown)
        await self.ui.reply(
            interaction,
            "✓ "
            + (
                _("This server's games and events have web pages, reached by their links.")
                if shown
                else _("This server's games and events have no web pages now; their links find nothing.")
            ),
        )

    @TTR.command(name="listed", description="Whether a game's web page is listed (its creator or an admin)")
    @app_commands.describe(listed="Off: only people with its link see the page", game=GAME_DESC)
    async def listed(self, interaction: discord.Interaction, listed: bool, game: int | None = None) -> None:
        player, where = who(interaction)

        async def change(gid: int) -> str | None:
            row = await self.bot.service.check_reach(gid, player, where)
            if row.creator != player and not await self.ui.admin_of(interaction, gid):
                raise ServiceError(
                    "not_creator", M("Only the game's creator or a server admin can change its web page.")
                )
            await public_id(self.bot.storage.web, "game", gid)
            await self.bot.storage.web.set_unlisted("game", str(gid), not listed)
            return await self.bot.app.links.game(gid, row.space)

        opened = await self._open(interaction, game, change, lobby=True)
        if opened is None:
            return
        gid, url = opened
        number = await self.ui.number(gid)
        await self.ui.reply(
            interaction,
            "✓ "
            + (
                _("The web page of game #{game} is listed.", game=number)
                if listed
                else _(
                    "The web page of game #{game} is unlisted: only people with its link see it.", game=number
                )
            )
            + page_line(url),
        )
