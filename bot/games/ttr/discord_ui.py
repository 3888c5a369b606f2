"""Ticket to Ride on Discord: the buttons under its board, the clicks on them and on its private
menus, the steps of a turn answered privately, and its own slash commands, as the
:class:`~bot.discord_app.game_ui.DiscordGameUI` that :mod:`bot.discord_app.game_uis` lists.

Button ids: ``c:{game}:{seq}:face:{slot}``, ``c:{game}:{seq}:deck``, ``c:{game}:{seq}:tix``, the
menus of :mod:`bot.games.ttr.discord_menus` (``c:{game}:{seq}:claim|station|pas``,
``c:{game}:m{moves}:cancel``); select ids (private menus): ``s:{game}:m{moves}:keep`` (values:
ticket ids), ``s:{game}:m{moves}:tun`` and ``s:{game}:m{moves}:tix`` (values: the action's text
form, checked against the legal actions) and the menus' ``rcity|route|pay|sgrp|scity|pas|pstep``.
Selects with a plain ``{seq}`` (posted before private ids counted moves) are still read as
public-turn ids.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot.discord_app.game_ui import DynamicItemType, PlayContext, SlashCommand
from bot.discord_app.items import GameButton
from bot.discord_app.ui import GameUI, who
from bot.games.api import View
from bot.games.ttr import discord_commands
from bot.games.ttr import discord_menus as menus
from bot.games.ttr.discord_menus import ticket_mix_select
from bot.games.ttr.words import CARD_EMOJI, card_name
from bot.service import ServiceError
from bot.stream import Outcome
from lang import M, Msg, _
from rules.protocol import Action
from rules.ttr.actions import DrawDeck, DrawFaceUp, KeepTickets

FACE_STYLE = {
    "red": discord.ButtonStyle.danger,
    "green": discord.ButtonStyle.success,
    "blue": discord.ButtonStyle.primary,
}
START_HINT = M(
    "Choose your starting tickets with the button under the board (on the Märklin board, press"
    " Draw tickets first)."
)
MENUS = ("claim", "station", "pas")


def mid_turn(view: dict[str, Any], seat: int) -> bool:
    """Whether ``seat``'s turn goes on (second card, tickets to keep, tunnel payment, a Märklin
    opening draw, a Märklin passenger's journey under way): answered privately, the public board waits for the end of the turn."""
    if view.get("phase") == "setup":
        return seat in (view.get("to_act") or [])
    return view.get("current") == seat and view.get("pending") in (
        "draw_second",
        "tickets",
        "tunnel",
        "passenger",
    )


def turn_view(gid: int, seq: int, view: dict[str, Any]) -> discord.ui.View:
    """Buttons under a Ticket to Ride board: five face-up cards, deck, tickets, claim a route
    (stations, passengers where the board has them), my hand. A button that could only be refused
    for everyone now is disabled (cards and claims during the opening, an empty deck)."""
    ui = discord.ui.View(timeout=None)
    setup = view.get("phase") == "setup"
    seats = view.get("seats") or []
    to_act = set(view.get("to_act") or [])
    # Märklin's opening: players draw their starting tickets (choosing the mix) before choosing
    must_draw = setup and any(s["seat"] in to_act and not s.get("choosing_tickets") for s in seats)
    tickets_left = sum((view.get("ticket_deck_sizes") or {}).values())
    face = view.get("face_up") or []
    for slot, card in enumerate(face[:5]):
        label = card_name(card) if card else _("empty")
        ui.add_item(
            GameButton(
                f"{gid}:{seq}:face:{slot}",
                label=label,
                style=FACE_STYLE.get(card or "", discord.ButtonStyle.secondary),
                emoji=CARD_EMOJI.get(card or ""),
                row=0,
                disabled=setup or card is None,
            )
        )
    deck = int(view.get("deck_size", 0) or 0)
    # an empty deck is reshuffled from the discards: the button is dead only when both are empty
    empty = deck == 0 and not view.get("discard_size")
    ui.add_item(
        GameButton(
            f"{gid}:{seq}:deck",
            label=_("Deck ({n})", n=deck),
            row=1,
            disabled=setup or empty,
            style=discord.ButtonStyle.primary,
        )
    )
    ui.add_item(
        GameButton(
            f"{gid}:{seq}:tix",
            label=_("Draw tickets"),
            row=1,
            style=discord.ButtonStyle.success if must_draw else discord.ButtonStyle.secondary,
            disabled=(setup and not must_draw) or tickets_left == 0,
        )
    )
    ui.add_item(
        GameButton(
            f"{gid}:{seq}:claim",
            label=_("Claim a route"),
            row=1,
            disabled=setup,
            style=discord.ButtonStyle.success,
        )
    )
    hand_label = _("Choose tickets") if setup and not must_draw else _("My hand")
    ui.add_item(
        GameButton(
            f"{gid}:hand",
            label=hand_label,
            row=1,
            style=discord.ButtonStyle.secondary if must_draw else discord.ButtonStyle.success,
        )
    )
    if any(s.get("stations") for s in seats):
        ui.add_item(GameButton(f"{gid}:{seq}:station", label=_("Build a station"), row=2, disabled=setup))
    if any(s.get("passengers") for s in seats) or view.get("passengers"):
        ui.add_item(GameButton(f"{gid}:{seq}:pas", label=_("Move a passenger"), row=2, disabled=setup))
    return ui


async def draw_tickets(ui: GameUI, interaction: discord.Interaction, gid: int, seq: int) -> None:
    """The Tickets button: draw at once, or (Märklin) ask privately for the short/long mix."""
    await ui.defer(interaction)
    player, where = who(interaction)
    try:
        row = await ui.service.check_reach(gid, player, where)
        if row.seat_of(player) is None:
            raise ServiceError("not_your_game", M("You are not playing in game #{game}.", game=row.number))
        legal = [
            a for a in await ui.service.legal_actions(gid, player, where=where) if a.kind == "draw_tickets"
        ]
        # Drawing tickets is guarded by its legality, not by the board's seq: in a simultaneous
        # opening (Märklin) another player's draw must not make this button stale.
        if row.seq != seq and not legal:
            raise ServiceError("stale", M("This button is from an earlier turn; use the latest board."))
    except ServiceError as exc:
        await ui.error(interaction, exc)
        return
    if len(legal) <= 1:
        await ui.act(interaction, gid, legal[0] if legal else "tickets draw")
        return
    view = discord.ui.View(timeout=None)
    moves = int((await ui.service.private_view(gid, player))["moves"])
    view.add_item(ticket_mix_select(gid, moves, [a.to_text() for a in legal]))
    await ui.reply(interaction, _("How many short and long tickets do you want to draw?"), view=view)


class TTRDiscordUI:
    """Ticket to Ride's :class:`~bot.discord_app.game_ui.DiscordGameUI`."""

    game = "ttr"
    start_hint: Msg = START_HINT
    button_kinds = frozenset({"face", "deck", "tix", *MENUS, "cancel"})
    select_kinds = frozenset({"keep", "tun", "tix", *menus.CHOICES})
    dynamic_items: Sequence[DynamicItemType] = ()

    def turn_view(self, gid: int, seq: int, view: View) -> discord.ui.View:
        return turn_view(gid, seq, view)

    def mid_turn(self, view: View, seat: int) -> bool:
        return mid_turn(view, seat)

    async def private_panel(
        self, ui: GameUI, outcome: Outcome, player: str
    ) -> tuple[str, discord.ui.View | None]:
        return await menus.private_panel(ui, outcome, player)

    async def show_private(self, ui: GameUI, interaction: discord.Interaction, gid: int) -> bool:
        return False

    async def on_button(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str]
    ) -> None:
        if parts[0].startswith("m"):  # a private prompt's button
            int(parts[0][1:])
            if list(parts[1:]) == ["cancel"]:
                await menus.cancel(interaction, gid)
                return
            raise ValueError(parts[1])
        seq = int(parts[0])
        what = parts[1]
        action: Action
        if what == "face" and len(parts) == 3:
            action = DrawFaceUp(int(parts[2]))
        elif what == "deck" and len(parts) == 2:
            action = DrawDeck()
        elif what == "tix" and len(parts) == 2:
            await draw_tickets(ui, interaction, gid, seq)
            return
        elif what in MENUS and len(parts) == 2:
            # menus are built from the game as it is now: a button of an earlier board still works
            await menus.open_menu(interaction, gid, what)
            return
        else:
            raise ValueError(what)
        await ui.act(interaction, gid, action, expected_seq=seq)

    async def on_select(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str], values: list[str]
    ) -> None:
        token, what = parts[0], parts[1]
        moves = int(token[1:]) if token.startswith("m") else None
        seq = None if moves is not None else int(token)
        if what in menus.CHOICES and len(values) == 1 and moves is not None:
            await menus.choose(interaction, gid, moves, what, values[0])
            return
        action: Action
        try:
            if what == "keep" and values and all(re.fullmatch(r"[\w\-]{1,20}", v) for v in values):
                action = KeepTickets(tuple(values))
            elif what in ("tun", "tix") and len(values) == 1:
                await ui.defer(interaction)
                kinds = ("tunnel_pay", "tunnel_withdraw") if what == "tun" else ("draw_tickets",)
                player, where = who(interaction)
                legal = [
                    a for a in await ui.service.legal_actions(gid, player, where=where) if a.kind in kinds
                ]
                chosen = next((a for a in legal if a.to_text() == values[0]), None)
                if chosen is None:
                    raise ServiceError(
                        "stale", M("That choice is no longer available; use the latest board.")
                    )
                action = chosen
            else:
                raise ValueError(what)
        except ServiceError as exc:
            await ui.error(interaction, exc)
            return
        await ui.act(interaction, gid, action, expected_seq=seq, expected_moves=moves)

    def play_commands(self, ctx: PlayContext) -> Sequence[SlashCommand]:
        return discord_commands.play_commands(ctx)

    def cogs(self, bot: commands.Bot) -> Sequence[commands.Cog]:
        return ()


DISCORD_UI = TTRDiscordUI()
