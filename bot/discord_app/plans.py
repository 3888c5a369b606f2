"""*Plan my next turn* on Discord (issue 31): the private panel that shows a player's planned turn,
a menu adding a step at its end and a button dropping it, and the private notes (a plan played or
dropped) sent to their player alone by direct message.

No game logic here: the steps offered, their conditions and their words come from the service
(:mod:`bot.service.plans`) and the game's words; this module only shows them and passes the
player's choice on."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app.interaction import who
from bot.discord_app.items import GameButton, GameSelect
from bot.discord_app.store import user_id_of
from bot.service import ServiceError
from bot.service.plans import plan_words, step_words
from bot.stream import Outcome
from lang import _, text_of, using
from rules.games import find_game
from rules.plans import Step

if TYPE_CHECKING:
    from bot.discord_app.ui import GameUI

log = logging.getLogger("conductor.discord")

MAX_OPTIONS = 25  # Discord's limit for one select menu
MAX_LABEL = 100


def plan_button(gid: int) -> GameButton:
    """*Plan my next turn*, on the private panel of a game that offers planned turns."""
    return GameButton(f"{gid}:plan", label=_("Plan my next turn"), emoji="📝")


def offers_plans(game_name: str) -> bool:
    try:
        return find_game(game_name).plans is not None
    except KeyError:
        return False


class PlanPanel:
    """The private plan panel of one player (every answer ephemeral)."""

    def __init__(self, ui: GameUI) -> None:
        self.ui = ui

    async def show(self, interaction: discord.Interaction, gid: int) -> None:
        await self._run(interaction, gid, None)

    async def add(self, interaction: discord.Interaction, gid: int, values: list[str]) -> None:
        await self._run(interaction, gid, values[0] if values else None)

    async def typed(self, interaction: discord.Interaction, game: int | None, text: str) -> None:
        """``/play plan``: the steps typed in their text form replace the plan (``clear`` drops
        it; nothing typed shows it)."""
        await self.ui.defer(interaction)
        player, where = who(interaction)
        try:
            gid = await self.ui.resolve_game(interaction, game)
            if text.strip().lower() == "clear":
                await self.ui.service.clear_plan(gid, player, where=where)
                steps: tuple[Step, ...] = ()
            elif text.strip():
                steps = await self.ui.service.set_plan(gid, player, text, where=where)
            else:
                steps = await self.ui.service.plan_of(gid, player, where=where)
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return
        await self._answer(interaction, gid, player, where, steps)

    async def clear(self, interaction: discord.Interaction, gid: int) -> None:
        await self.ui.defer(interaction)
        player, where = who(interaction)
        try:
            await self.ui.service.clear_plan(gid, player, where=where)
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return
        await self._answer(interaction, gid, player, where, ())

    async def _run(self, interaction: discord.Interaction, gid: int, step: str | None) -> None:
        await self.ui.defer(interaction)
        player, where = who(interaction)
        try:
            if step is not None:
                steps = await self.ui.service.add_plan_step(gid, player, step, where=where)
            else:
                steps = await self.ui.service.plan_of(gid, player, where=where)
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return
        await self._answer(interaction, gid, player, where, steps)

    async def _answer(
        self,
        interaction: discord.Interaction,
        gid: int,
        player: str,
        where: str | None,
        steps: tuple[Step, ...],
    ) -> None:
        row = await self.ui.service.game_row(gid)
        number = await self.ui.number(gid)
        if steps:
            text = (
                _("Your plan for game #{game} (only you see it):", game=number)
                + "\n"
                + plan_words(row.game_name, row.config, steps).text()
                + "\n"
                + _("When your turn comes, the first step that can be played is played for you.")
            )
        else:
            text = _(
                "No plan for game #{game} yet. Add steps in order: when your turn comes, the first "
                "that can be played is played for you, and only you are told.",
                game=number,
            )
        try:
            choices = await self.ui.service.plan_choices(gid, player, where=where)
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return
        controls = discord.ui.View(timeout=None)
        options = [
            discord.SelectOption(
                label=text_of(step_words(row.game_name, row.config, step))[:MAX_LABEL],
                value=step.to_text()[:MAX_LABEL],
            )
            for step in choices[:MAX_OPTIONS]
        ]
        if options:
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=f"s:{gid}:0:plan", placeholder=_("Add a step…"), options=options
            )
            controls.add_item(GameSelect(f"{gid}:0:plan", select))
        if steps:
            controls.add_item(
                GameButton(f"{gid}:plan:clear", label=_("Drop the plan"), style=discord.ButtonStyle.danger)
            )
        await self.ui.reply(interaction, "📝 " + text, view=controls)

    async def notify(self, outcome: Outcome) -> None:
        """Each private note of ``outcome`` to its player alone, by direct message (never in the
        thread: a plan's existence is nobody else's business). A closed inbox loses the note; the
        player still sees the move in the thread and is pinged when it is their turn."""
        for note in outcome.notes:
            uid = user_id_of(note.player)
            if uid is None:
                continue
            try:
                user = self.ui.bot.get_user(uid) or await self.ui.bot.fetch_user(uid)
                with using(outcome.language):
                    await user.send("📝 " + note.said.text())
            except discord.HTTPException:
                log.warning("game=%s a private note could not be sent by direct message", outcome.game_id)
