"""``/view hand|board|scores|log`` and ``/games``: looking at games, never changing them."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.discord_app.choices import GAME_DESC
from bot.discord_app.cogs.base import CogBase
from bot.discord_app.markdown import literal_text
from bot.discord_app.store import player_ref
from bot.discord_app.ui import MAX_CONTENT, who
from bot.names import plain_names
from bot.present import (
    board_text,
    in_language,
    render_board_png,
    scores_text,
)
from bot.service import ServiceError, hours_text
from bot.web.links import page_line
from lang import _
from rules.games import find_game


class ViewCog(CogBase):
    """``/view`` and ``/games``: looking, never changing."""

    view = app_commands.Group(name="view", description="Look at a game")

    @view.command(name="hand", description="Your cards and tickets (only you see this)")
    @app_commands.describe(game=GAME_DESC)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        try:
            gid = await self.ui.game_numbered(interaction, game)
        except ServiceError as exc:
            await self.ui.defer(interaction)
            await self.ui.error(interaction, exc)
            return
        await self.ui.show_hand(interaction, gid)

    @view.command(name="board", description="The current board (only you see this reply)")
    @app_commands.describe(game=GAME_DESC)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.public_view(gid, player=player, where=where)
        )
        if opened is None:
            return
        gid, view = opened
        png = await self.bot.workers.render(render_board_png, in_language(view))
        kwargs: dict[str, Any] = {}
        if png is not None and len(png) < interaction.filesize_limit:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="board.png")
        row = await self.bot.service.game_row(gid)
        link = page_line(await self.bot.app.links.game(gid, row.space))
        await self.ui.reply(interaction, board_text(view) + link, **kwargs)

    @view.command(name="scores", description="Scores so far (final breakdown when over)")
    @app_commands.describe(game=GAME_DESC)
    async def scores(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.public_view(gid, player=player, where=where)
        )
        if opened is None:
            return
        _, view = opened
        await self.ui.reply(interaction, scores_text(view))

    @view.command(name="log", description="The last moves")
    @app_commands.describe(game=GAME_DESC, count="How many moves")
    async def log(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        count: app_commands.Range[int, 1, 40] = 15,
    ) -> None:
        player, where = who(interaction)

        async def plain_log(gid: int) -> list[str]:
            with plain_names():  # lines worded with names as they are, then escaped whole
                return await self.bot.service.log_lines(gid, count, player=player, where=where)

        opened = await self._open(interaction, game, plain_log)
        if opened is None:
            return
        lines = opened[1]
        await self.ui.reply(
            interaction, "\n".join(literal_text(line) for line in lines) or _("No moves yet.")
        )

    @app_commands.command(name="games", description="Your games across servers, and where it is your turn")
    async def games(self, interaction: discord.Interaction) -> None:
        await self.ui.defer(interaction)
        rows = await self.bot.service.my_turns(player_ref(interaction.user.id))
        if not rows:
            await self.ui.reply(interaction, _("You are not in any game. Start one with /ttr new."))
            return
        lines = []
        now = self.bot.service.clock()
        for row, mine in sorted(rows, key=lambda r: (not r[1], r[0].id)):
            route = await self.ui.store.route(row.id)
            where = (
                f"<#{route.thread_id or route.channel_id}>" if (route.thread_id or route.channel_id) else ""
            )
            flag = (
                "**" + _("your turn") + "**"
                if mine
                else {"active": _("active"), "lobby": _("lobby")}.get(row.status, row.status)
            )
            timer = _("timer {hours}", hours=hours_text(row.turn_hours)) if row.turn_hours else _("no timer")
            waited = ""
            if row.status == "active" and row.turn_started_at:
                waited = " · " + _(
                    "waiting {hours}", hours=hours_text(max(0.0, now - row.turn_started_at) / 3600)
                )
            away = max((s.away_until or 0.0 for s in row.seats), default=0.0)
            if row.status == "active" and row.turn_hours and away > now:  # a vacation holds the timer
                timer = "⏸ " + _("timer paused until {when} (vacation)", when=f"<t:{int(away)}:f>")
            what = row.config.get("board") or find_game(row.game_name).title
            lines.append(f"#{row.number} {what} · {flag} · {timer}{waited} {where}")
        shown: list[str] = []  # keep the head (games waiting for you come first) under the length limit
        for i, line in enumerate(lines):
            if sum(len(x) + 1 for x in shown) + len(line) > MAX_CONTENT - 40:
                shown.append("… " + _("and {n} more", n=len(lines) - i))
                break
            shown.append(line)
        await self.ui.reply(interaction, "\n".join(shown))
