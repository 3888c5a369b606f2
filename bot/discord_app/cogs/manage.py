"""``/ttr abort|kick|replace|reclaim|approve``: a game's creator, a game manager or a server admin
changing who plays a game (and a player asking for their seat back)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.discord_app.choices import GAME_DESC
from bot.discord_app.cogs.base import TTR, CogBase
from bot.discord_app.store import player_ref
from bot.discord_app.ui import line_text, who
from bot.stream import Outcome
from lang import M, _


class ManageCommands(CogBase):
    """``/ttr`` commands that change who plays a game."""

    @TTR.command(name="abort", description="Abort a game (its creator or a server admin)")
    @app_commands.describe(game=GAME_DESC)
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.abort(gid, player, is_admin=admin, where=where),
        )

    @TTR.command(
        name="kick", description="Remove a player (lobby) or hand their seat to an AI (creator/admin)"
    )
    @app_commands.describe(user="The player", game=GAME_DESC)
    async def kick(
        self, interaction: discord.Interaction, user: discord.User, game: int | None = None
    ) -> None:
        player, where = who(interaction)
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.kick(
                gid, player, player_ref(user.id), is_admin=admin, where=where
            ),
        )

    @TTR.command(name="replace", description="Hand a seat to a member, or to an AI (creator/admin)")
    @app_commands.describe(
        seat="Seat number (1 is the first player)",
        user="Who plays the seat now (none: an AI)",
        game=GAME_DESC,
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 10],
        user: discord.User | None = None,
        game: int | None = None,
    ) -> None:
        player, where = who(interaction)
        if user is not None and user.bot:
            await self.ui.defer(interaction)
            await self.ui.error(
                interaction, M("A bot cannot take a seat; leave user empty to hand the seat to an AI.")
            )
            return
        if user is None:
            await self._manage(
                interaction,
                game,
                lambda gid, admin: self.bot.service.replace_with_ai(
                    gid, player, seat, is_admin=admin, where=where
                ),
            )
            return
        member = user
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.hand_over(
                gid, player, seat, player_ref(member.id), member.display_name, is_admin=admin, where=where
            ),
        )

    @TTR.command(name="reclaim", description="Ask to play your seat again after a forfeit or resignation")
    @app_commands.describe(game=GAME_DESC)
    async def reclaim(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.request_seat(gid, player, where=where), lobby=True
        )
        if opened is None:
            return
        gid, _asked = opened
        await self.ui.reply(
            interaction,
            _(
                "Asked to play your seat of game #{game} again; the creator or an admin"
                " approves with `/ttr approve`.",
                game=await self.ui.number(gid),
            ),
        )

    @TTR.command(
        name="approve", description="Give a seat back to the player who asked for it (creator/admin)"
    )
    @app_commands.describe(seat="Seat number (1 is the first player)", game=GAME_DESC)
    async def approve(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 10], game: int | None = None
    ) -> None:
        player, where = who(interaction)
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.approve_seat(gid, player, seat, is_admin=admin, where=where),
        )

    async def _manage(
        self,
        interaction: discord.Interaction,
        game: int | None,
        op: Callable[[int, bool], Awaitable[Outcome]],
    ) -> None:
        async def run(gid: int) -> Outcome:
            return await op(gid, await self.ui.admin_of(interaction, gid))

        opened = await self._open(interaction, game, run, lobby=True)
        if opened is None:
            return
        _gid, outcome = opened
        await self.ui.reply(
            interaction, "✓ " + " ".join(line_text(line, outcome.names) for line in outcome.lines)
        )
