"""``/ttr rules|vacation``: a rules summary of any board or game, and a player's own time away."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.commands.rules import settings_lines
from bot.discord_app.choices import BOARD_CHOICES, GAME_DESC
from bot.discord_app.cogs.base import TTR, CogBase
from bot.discord_app.store import player_ref
from bot.discord_app.ui import MAX_CONTENT, messages_of, who
from bot.present_rules import rules_in_words
from bot.service import ServiceError
from lang import _, _n
from rules.games import DEFAULT_GAME, GAMES, find_game
from rules.registry import GameSpec


def board_owner(board: str | None) -> tuple[GameSpec, dict[str, Any]]:
    """The game a board belongs to and the config that picks it; no board (or one no game has):
    the default game, on its first board when none is named."""
    if board is not None:
        for spec in GAMES.values():
            if any(b.id == board for b in spec.boards()):
                return spec, spec.config_for(board=board)
    spec = find_game(DEFAULT_GAME)
    boards = spec.boards()
    return spec, spec.config_for(board=board or (boards[0].id if boards else None))


class PlayerCommands(CogBase):
    """``/ttr`` commands about a player's own games and time."""

    @TTR.command(name="rules", description="Rules summary of a board: flags and provisional data")
    @app_commands.describe(board="Which map (default: this game's)", game=GAME_DESC)
    @app_commands.choices(board=BOARD_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, board: str | None = None, game: int | None = None
    ) -> None:
        await self.ui.defer(interaction)
        player, where = who(interaction)
        try:
            owner, board_config = board_owner(board)
            config_seen: dict[str, Any] | None = board_config
            game_seen = owner.name
            if board is None:
                gid = await self.ui.resolve_game(interaction, await self.ui.game_numbered(interaction, game))
                lines = await self.bot.service.rules_summary(gid, player=player, where=where)
                row = await self.bot.service.game_row(gid)
                config_seen, game_seen = row.config, row.game_name
            else:
                lines = await self.bot.service.rules_summary(game_name=owner.name, config=board_config)
        except ServiceError as exc:
            if board is None and game is None and exc.code in ("no_game", "ambiguous"):
                lines = await self.bot.service.rules_summary(game_name=owner.name, config=board_config)
            else:
                await self.ui.error(interaction, exc)
                return
        lines = rules_in_words(game_seen, config_seen, lines)
        await self.ui.reply(interaction, "\n".join([f"**{lines[0]}**", *lines[1:]]))
        spec = find_game(game_seen)
        if spec.settings:
            # The settings a table chooses at /ttr new, with the values in force for this game.
            listed = [
                _(
                    "Settings (choose them at /ttr new as settings: key=value, separated by commas; card "
                    "files are attached as cards1 …):"
                ),
                *settings_lines(spec, config_seen or {}),
            ]
            for message in messages_of(listed, MAX_CONTENT):
                await self.ui.reply(interaction, message)

    @TTR.command(name="vacation", description="Pause your turn timers for some days (0 ends the pause)")
    @app_commands.describe(days="Days away")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]
    ) -> None:
        await self.ui.defer(interaction)
        until = self.bot.service.clock() + days * 86400 if days > 0 else None
        touched = await self.bot.service.set_vacation(player_ref(interaction.user.id), until)
        if until:
            await self.ui.reply(
                interaction,
                _n(
                    "Your timers are paused until {when} in {n} game.",
                    "Your timers are paused until {when} in {n} games.",
                    len(touched),
                    when=f"<t:{int(until)}:f>",
                ),
            )
        else:
            await self.ui.reply(
                interaction,
                _n(
                    "Welcome back: timers resume in {n} game.",
                    "Welcome back: timers resume in {n} games.",
                    len(touched),
                ),
            )
