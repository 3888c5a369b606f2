"""A hand that is always there: opt-in per player, a direct message the bot keeps current.

A player who opts in (the button under their private hand) gets one direct message per game with
their hand, tickets, a "your turn" note and the same controls as the private replies; after every
change of the game the bot *edits* that message instead of posting a new one. Ephemeral replies
stay the default. The opt-in and the message ids live in the adapter's own tables
(``discord_dm_optin``, ``discord_dm_hands``). The message is sent only to its player's DM channel:
a hand never reaches a shared channel.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app.interaction import who
from bot.discord_app.items import GameButton
from bot.discord_app.store import player_ref, user_id_of
from bot.present import hand_text, seat_names
from bot.service import ServiceError
from bot.store.api import DiscordDMHands
from bot.stream import Outcome
from lang import M, _

if TYPE_CHECKING:
    from bot.discord_app.ui import GameUI

log = logging.getLogger("conductor.discord.dm")


def toggle_button(gid: int, enabled: bool) -> discord.ui.Item[Any]:
    """The opt-in (or opt-out) button shown under a player's private hand."""
    if enabled:
        return GameButton(f"{gid}:dm:off", label=_("Stop the DM hand"), row=4)
    return GameButton(f"{gid}:dm:on", label=_("Keep my hand in a DM"), emoji="📬", row=4)


class DMHands:
    """The direct-message hands of every player who opted in."""

    def __init__(self, ui: GameUI) -> None:
        self.ui = ui

    @property
    def tables(self) -> DiscordDMHands:
        return self.ui.bot.storage.discord

    async def enabled(self, player: str) -> bool:
        return await self.tables.dm_enabled(player)

    async def set_enabled(self, player: str, on: bool) -> None:
        await self.tables.set_dm_enabled(player, on)

    async def _message(self, gid: int, player: str) -> tuple[int, int] | None:
        return await self.tables.dm_message(gid, player)

    async def _remember(self, gid: int, player: str, channel_id: int, message_id: int) -> None:
        await self.tables.remember_dm(gid, player, channel_id, message_id)

    async def _forget(self, gid: int, player: str) -> None:
        await self.tables.forget_dm(gid, player)

    async def toggle(self, interaction: discord.Interaction, gid: int, on: bool) -> None:
        """The opt-in button: store the choice (for every game of this player) and answer privately."""
        await self.ui.defer(interaction)
        player = player_ref(interaction.user.id)
        try:
            row = await self.ui.service.check_reach(gid, player, self.ui_where(interaction))
            if row.seat_of(player) is None:
                raise ServiceError(
                    "not_your_game", M("You are not playing in game #{game}.", game=await self.ui.number(gid))
                )
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return
        await self.set_enabled(player, on)
        if on:
            try:
                sent = await self.update(await self.ui.service.current_outcome(gid), player)
            except ServiceError:
                sent = False
            text = (
                "📬 " + _("Your hand is now in a direct message from me, kept current after every move.")
                if sent
                else "✗ " + _("I could not send you a direct message: allow DMs from this server's members.")
            )
        else:
            for game_id in await self.tables.dm_games(player):
                await self.close(game_id, player)
            text = _(
                "Your hand is no longer kept in a direct message; the buttons answer privately as before."
            )
        await self.ui.reply(interaction, text)

    @staticmethod
    def ui_where(interaction: discord.Interaction) -> str | None:
        return who(interaction)[1]

    async def refresh(self, outcome: Outcome) -> None:
        """After a change of a game (``outcome``): edit the DM hand of every seated player who
        opted in, from the outcome alone."""
        for seat in outcome.seats:
            if (
                seat.player is not None
                and user_id_of(seat.player) is not None
                and await self.enabled(seat.player)
            ):
                await self.update(outcome, seat.player)

    async def content(self, outcome: Outcome, player: str) -> tuple[str, Any]:
        """The DM's text and controls in ``outcome``'s state: game, turn note, hand and tickets,
        what next."""
        mine = outcome.seat_of(player)
        if mine is None or outcome.private is None:
            raise ServiceError(
                "not_your_game", M("You are not playing in game #{game}.", game=outcome.number)
            )
        view = outcome.private.view(mine)
        names = seat_names(view)
        seat = view.get("viewer")
        to_act = view.get("to_act") or []
        if outcome.status != "active":
            note = _("The game is over.") if outcome.status == "over" else _("The game was aborted.")
        elif seat in to_act:
            deadline = outcome.deadline
            note = "▶ " + (
                _("**Your turn** (ends {when}).", when=f"<t:{int(deadline)}:R>")
                if deadline
                else _("**Your turn**.")
            )
        else:
            note = _("Waiting for {names}.", names=", ".join(names[s] for s in to_act if s < len(names)))
        hint, controls = await self.ui.private_panel(outcome, player)
        text = (
            "**"
            + _("Game #{game}", game=outcome.number)
            + "** · "
            + _("your hand (kept current by the bot)")
            + f"\n{note}\n{hand_text(view)}"
        )
        if hint and outcome.status == "active":
            text += "\n" + hint
        ui = controls if isinstance(controls, discord.ui.View) else discord.ui.View(timeout=None)
        ui.add_item(toggle_button(outcome.game_id, True))
        return text[:1990], ui

    async def update(self, outcome: Outcome, player: str) -> bool:
        """Edit the player's DM hand for ``outcome``'s game (send it the first time). False: not
        delivered."""
        uid = user_id_of(player)
        if uid is None:
            return False
        gid = outcome.game_id
        try:
            text, controls = await self.content(outcome, player)
        except ServiceError:
            return False
        known = await self._message(gid, player)
        if known is not None:
            message = self.ui.bot.get_partial_messageable(known[0]).get_partial_message(known[1])
            try:
                await message.edit(content=text, view=controls)
                return True
            except discord.NotFound:
                await self._forget(gid, player)  # deleted by the player: send a new one
            except discord.HTTPException as exc:
                log.warning("game=%s: DM hand edit failed: %s %s", gid, exc.status, exc.code)
                return False
        try:
            user = self.ui.bot.get_user(uid) or await self.ui.bot.fetch_user(uid)
            sent = await user.send(text, view=controls)
        except discord.HTTPException as exc:
            log.warning("game=%s: DM hand could not be sent: %s %s", gid, exc.status, exc.code)
            return False
        await self._remember(gid, player, sent.channel.id, sent.id)
        return True

    async def close(self, gid: int, player: str) -> None:
        """Opt-out: the DM says it is no longer kept current (its buttons removed) and is forgotten."""
        known = await self._message(gid, player)
        if known is None:
            return
        message = self.ui.bot.get_partial_messageable(known[0]).get_partial_message(known[1])
        with contextlib.suppress(discord.HTTPException):  # deleted already: nothing to say
            await message.edit(
                content=_(
                    "Game #{game}: this hand is no longer kept current.", game=await self.ui.number(gid)
                ),
                view=None,
            )
        await self._forget(gid, player)
