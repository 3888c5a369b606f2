"""``/play``: the moves. Each game's own subcommands come from its Discord UI; ``action`` (any
move in its text form) and ``resign`` answer every game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord_app.choices import GAME_DESC
from bot.discord_app.cogs.base import CogBase
from bot.discord_app.game_ui import registered_game_uis
from bot.discord_app.ui import match, who
from bot.service import Loaded, ServiceError
from lang import _

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot


class PlayCog(CogBase):
    """``/play``: the moves."""

    play = app_commands.Group(name="play", description="Play your turn")

    def __init__(self, bot: ConductorBot) -> None:
        super().__init__(bot)
        # Each game's own subcommands come first, then the generic ones every game answers.
        generic = [c for c in self.play.commands if isinstance(c, app_commands.Command)]
        for command in generic:
            self.play.remove_command(command.name)
        for game_ui in registered_game_uis():
            for command in game_ui.play_commands(self):
                self.play.add_command(command)
        for command in generic:
            self.play.add_command(command)

    async def act(self, interaction: discord.Interaction, game: int | None, text: str) -> None:
        await self._act(interaction, game, text)

    async def on_my_game(
        self,
        interaction: discord.Interaction,
        game: int | None,
        then: Callable[[discord.Interaction, int | None], Awaitable[None]],
    ) -> None:
        await self._on_my_game(interaction, game, then)

    async def open_loaded(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[int, Loaded] | None:
        return await self._open(interaction, game, self.bot.service.load, by_number=False)

    async def _act(self, interaction: discord.Interaction, game: int | None, text: str) -> None:
        """Play ``text`` on the game the player means (see :meth:`_on_my_game`)."""

        async def run(target: discord.Interaction, gid: int | None) -> None:
            await self.ui.act(target, gid, text)

        await self._on_my_game(interaction, game, run)

    @play.command(name="action", description="Any move in its text form, e.g. 'claim EU034 red=3'")
    @app_commands.describe(text="The move", game=GAME_DESC)
    async def action(self, interaction: discord.Interaction, text: str, game: int | None = None) -> None:
        await self._act(interaction, game, text[:200])

    @action.autocomplete("text")
    async def action_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Your legal moves in text form (any game), filtered by what you typed."""
        loaded = await self.ui.game_for_autocomplete(interaction)
        if loaded is None:
            return []
        out: list[app_commands.Choice[str]] = []
        player, where = who(interaction)
        for a in await self.bot.service.legal_actions(loaded.row.id, player, where=where):
            text = a.to_text()
            if len(text) <= 100 and match(current, text):
                out.append(app_commands.Choice(name=text, value=text))
                if len(out) >= 25:
                    break
        return out

    @play.command(
        name="plan",
        description="Plan your next turn: steps separated by ';', the first that can be played is played",
    )
    @app_commands.describe(
        steps="e.g. 'claim US002 blue=5; locomotive; deck'; 'clear' drops the plan; empty shows it",
        game=GAME_DESC,
    )
    async def plan(
        self, interaction: discord.Interaction, steps: str | None = None, game: int | None = None
    ) -> None:
        try:
            gid = await self.ui.game_numbered(interaction, game)
        except ServiceError as exc:
            await self.ui.defer(interaction)
            await self.ui.error(interaction, exc)
            return
        await self.ui.plans.typed(interaction, gid, (steps or "")[:500])

    @play.command(name="resign", description="Resign: an AI plays your seat from now on")
    @app_commands.describe(game=GAME_DESC)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.resign(gid, player, where=where)
        )
        if opened is None:
            return
        gid, _resigned = opened
        await self.ui.reply(interaction, _("You resigned from game #{game}.", game=await self.ui.number(gid)))
