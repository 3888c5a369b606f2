"""What every command of the cogs shares: finding the game a command means (a number, this
thread, this channel's lobby, or a private "which game?" menu) and answering a refusal privately."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.markdown import literal
from bot.discord_app.ui import GameUI, match, who
from bot.service import ServiceError
from lang import _, _n
from rules.games import find_game

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot


T = TypeVar("T")
PICK_TIMEOUT = 300.0  # seconds a "which game?" menu stays usable


def esc(name: str) -> str:
    """A person's name as Discord shows it literally (``__dan__`` is not underlined)."""
    return literal(name)


class GamePicker(discord.ui.View):
    """A private "which game?" menu: the player's games where it is their turn; picking one runs
    the command on it."""

    def __init__(
        self, choices: list[tuple[int, str]], then: Callable[[discord.Interaction, int], Awaitable[None]]
    ) -> None:
        super().__init__(timeout=PICK_TIMEOUT)
        select: discord.ui.Select[GamePicker] = discord.ui.Select(
            placeholder=_("Which game?"),
            options=[discord.SelectOption(label=label[:100], value=str(gid)) for gid, label in choices[:25]],
        )

        async def chosen(interaction: discord.Interaction) -> None:
            self.stop()
            await then(interaction, int(select.values[0]))

        select.callback = chosen  # type: ignore[method-assign]
        self.add_item(select)


class CogBase(commands.Cog):
    def __init__(self, bot: ConductorBot) -> None:
        self.bot = bot

    @property
    def ui(self) -> GameUI:
        return self.bot.ui

    async def _open(
        self,
        interaction: discord.Interaction,
        game: int | None,
        fetch: Callable[[int], Awaitable[T]],
        *,
        lobby: bool = False,
        by_number: bool = True,
    ) -> tuple[int, T] | None:
        """Defer privately, find the game (``lobby``: this channel's newest game first) and ``fetch(gid)``.
        ``game`` is the number the user typed (counted per server), or with ``by_number=False`` a
        game id the bot itself chose. A refusal (ServiceError) is answered privately and gives None:
        the command stops there."""
        await self.ui.defer(interaction)
        try:
            if by_number:
                game = await self.ui.game_numbered(interaction, game)
            gid = await (
                self._lobby_game(interaction, game) if lobby else self.ui.resolve_game(interaction, game)
            )
            return gid, await fetch(gid)
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return None

    async def _lobby_game(self, interaction: discord.Interaction, game: int | None) -> int:
        if game is not None:
            return game
        if interaction.channel_id is not None:
            ids = await self.ui.store.games_in_channel(interaction.channel_id)
            if ids:
                return ids[0]
        return await self.ui.resolve_game(interaction, None)

    async def _in_game_thread(self, interaction: discord.Interaction) -> bool:
        """Whether the interaction comes from a game's own thread."""
        cid = interaction.channel_id
        if cid is None:
            return False
        for gid in await self.ui.store.games_in_channel(cid):
            if (await self.ui.store.route(gid)).thread_id == cid:
                return True
        return False

    async def _on_my_game(
        self,
        interaction: discord.Interaction,
        game: int | None,
        then: Callable[[discord.Interaction, int | None], Awaitable[None]],
    ) -> None:
        """Run a move on the game the player means. A number or a game's thread says it; elsewhere
        (a parent channel, a direct message) the game where it is their turn, or, when several
        are, a private menu asks which. ``then`` receives a game id (or None: the usual answer)."""
        if game is not None:
            try:
                gid = await self.ui.game_numbered(interaction, game)
            except ServiceError as exc:
                await self.ui.defer(interaction)
                await self.ui.error(interaction, exc)
                return
            await then(interaction, gid)
            return
        if await self._in_game_thread(interaction):
            await then(interaction, None)
            return
        player, where = who(interaction)
        waiting = [
            row
            for row, mine in await self.bot.service.my_turns(player, where=where, everywhere=where is None)
            if mine
        ]
        if len(waiting) == 1:
            await then(interaction, waiting[0].id)
            return
        if not waiting:
            await then(interaction, None)  # the usual answer: the only game, or which to name
            return
        await self.ui.defer(interaction)
        choices = [
            (
                row.id,
                f"#{row.number} {find_game(row.game_name).title}"
                f"{' · ' + str(row.config.get('board')) if row.config.get('board') else ''}"
                f"{await self._server_of(row.id) if where is None else ''}",
            )
            for row in waiting
        ]
        await self.ui.reply(
            interaction,
            _n(
                "It is your turn in {n} game; which one is this for?",
                "It is your turn in {n} games; which one is this for?",
                len(waiting),
            ),
            view=GamePicker(choices, then),
        )

    async def _server_of(self, gid: int) -> str:
        """`` · <server name>`` for a game listed in a direct message, where numbers of different
        servers meet (empty when the server is not known)."""
        guild = self.bot.get_guild((await self.ui.store.route(gid)).guild_id or 0)
        return f" · {guild.name}" if guild is not None else ""

    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The user's games (number, board, whose turn), valued by their number in this server."""
        out = []
        player, where = who(interaction)
        for row, mine in await self.bot.service.my_turns(player, where=where, everywhere=where is None):
            label = (
                f"#{row.number} {row.config.get('board', row.game_name)} · {row.status}"
                + (" · " + _("your turn") if mine else "")
                + (await self._server_of(row.id) if where is None else "")
            )
            if match(current, label):
                out.append(app_commands.Choice(name=label[:100], value=row.number))
        return out[:25]


TTR = app_commands.Group(name="ttr", description="Ticket to Ride games: create, join, start, manage")
"""``/ttr``: one Discord group whose subcommands live in several modules (lobby, manage, server,
player), gathered into one cog (:class:`bot.discord_app.cogs.LobbyCog`)."""
