"""Persistent buttons and select menus (``discord.ui.DynamicItem``), restart-safe.

Custom ids carry everything needed (game id and the turn's ``seq``) so they work after a restart
and a click from an earlier turn is recognised (``seq`` mismatch → "from an earlier turn").
Templates are deliberately permissive (``c:…`` / ``s:…``) so that a garbled id still reaches us
and gets a clear answer instead of an "interaction failed". No game logic lives here: callbacks
hand over to :class:`~bot.discord_app.ui.GameUI`.

Button ids: ``c:{game}:{seq}:face:{slot}``, ``c:{game}:{seq}:deck``, ``c:{game}:{seq}:tix``,
``c:{game}:hand``, ``c:{game}:dm:on|off`` (the hand kept in a direct message, see
:mod:`bot.discord_app.dm_hands`), and the menus of :mod:`bot.discord_app.ttr_menus`
(``c:{game}:{seq}:claim|station|pas``, ``c:{game}:m{moves}:do:{action}``, ``…:cancel``;
selects ``s:{game}:m{moves}:rcity|route|pay|sgrp|scity|pas``). Select ids (private menus): ``s:{game}:m{moves}:keep`` (values: ticket ids),
``s:{game}:m{moves}:tun`` and ``s:{game}:m{moves}:tix`` (values: the action's text form, checked
against the legal actions), where ``moves`` counts the seat's own actions: a private menu is
stale only when its owner has moved since (another player's move never invalidates it).
Selects with a plain ``{seq}`` (posted before this rule) are still read as public-turn ids.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app import ttr_menus
from bot.discord_app.store import player_ref
from bot.present_ttr import CARD_EMOJI, card_name
from bot.service import ServiceError
from lang import M, _
from rules.protocol import Action
from rules.ttr.actions import DrawDeck, DrawFaceUp, KeepTickets

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot

FACE_STYLE = {
    "red": discord.ButtonStyle.danger,
    "green": discord.ButtonStyle.success,
    "blue": discord.ButtonStyle.primary,
}


def _ui(interaction: discord.Interaction) -> Any:
    bot: ConductorBot = interaction.client  # type: ignore[assignment]
    return bot.ui


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"c:(?P<rest>.{0,98})"):
    """Every board button. ``rest`` is parsed in the callback so garbage gets an answer."""

    def __init__(
        self,
        rest: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"c:{rest}", emoji=emoji, row=row, disabled=disabled
            )
        )
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        ui = _ui(interaction)
        parts = self.rest.split(":")
        try:
            gid = int(parts[0])
            if parts[1:] == ["hand"]:
                await ui.show_hand(interaction, gid)
                return
            if parts[1] == "dm" and len(parts) == 3 and parts[2] in ("on", "off"):
                await ui.dm.toggle(interaction, gid, parts[2] == "on")
                return
            if parts[1].startswith("m"):  # a private prompt's button: confirm a move, or cancel
                moves = int(parts[1][1:])
                if parts[2] == "do" and len(parts) >= 4:
                    await ui.act(interaction, gid, ":".join(parts[3:]), expected_moves=moves)
                    return
                if parts[2:] == ["cancel"]:
                    await ttr_menus.cancel(interaction, gid)
                    return
                raise ValueError(parts[2])
            seq = int(parts[1])
            what = parts[2]
            action: Action
            if what == "face" and len(parts) == 4:
                action = DrawFaceUp(int(parts[3]))
            elif what == "deck" and len(parts) == 3:
                action = DrawDeck()
            elif what == "tix" and len(parts) == 3:
                await ui.draw_tickets(interaction, gid, seq)
                return
            elif what in MENUS and len(parts) == 3:
                # menus are built from the game as it is now: a button of an earlier board still works
                await ttr_menus.open_menu(interaction, gid, what)
                return
            else:
                raise ValueError(what)
        except (ValueError, IndexError):
            await ui.error(interaction, M("That button is garbled; use the buttons on the latest board."))
            return
        await ui.act(interaction, gid, action, expected_seq=seq)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"s:(?P<rest>.{0,98})"):
    """Private choices: tickets to keep, tunnel payment."""

    def __init__(self, rest: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select or discord.ui.Select(custom_id=f"s:{rest}", options=[discord.SelectOption(label="?")])
        )
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameSelect:
        return cls(match["rest"], item if isinstance(item, discord.ui.Select) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        ui = _ui(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        parts = self.rest.split(":")
        try:
            gid, token, what = int(parts[0]), parts[1], parts[2]
            moves = int(token[1:]) if token.startswith("m") else None
            seq = None if moves is not None else int(token)
            if what in ttr_menus.CHOICES and len(values) == 1 and moves is not None:
                await ttr_menus.choose(interaction, gid, moves, what, values[0])
                return
            action: Action
            if what == "keep" and values and all(re.fullmatch(r"[\w\-]{1,20}", v) for v in values):
                action = KeepTickets(tuple(values))
            elif what in ("tun", "tix") and len(values) == 1:
                await ui.defer(interaction)
                kinds = ("tunnel_pay", "tunnel_withdraw") if what == "tun" else ("draw_tickets",)
                legal = [
                    a
                    for a in await ui.service.legal_actions(gid, player_ref(interaction.user.id))
                    if a.kind in kinds
                ]
                chosen = next((a for a in legal if a.to_text() == values[0]), None)
                if chosen is None:
                    raise ServiceError(
                        "stale", M("That choice is no longer available; use the latest board.")
                    )
                action = chosen
            else:
                raise ValueError(what)
        except (ValueError, IndexError):
            await ui.error(interaction, M("That menu is garbled; open your hand again with /view hand."))
            return
        except ServiceError as exc:
            await ui.error(interaction, exc)
            return
        await ui.act(interaction, gid, action, expected_seq=seq, expected_moves=moves)


START_HINT = M(
    "Choose your starting tickets with the button under the board (on the Märklin board, press"
    " Draw tickets first)."
)
MENUS = ("claim", "station", "pas")
private_panel = ttr_menus.private_panel


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


def generic_turn_view(gid: int) -> discord.ui.View:
    """For a game with no Discord UI module of its own: moves through /play action; private state here."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(GameButton(f"{gid}:hand", label=_("My board and moves"), style=discord.ButtonStyle.success))
    return ui


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


def keep_select(gid: int, moves: int, offer: list[dict[str, Any]], lo: int, hi: int) -> discord.ui.Item[Any]:
    options = [
        discord.SelectOption(label=(t.get("text") or t["id"])[:100], value=t["id"], description=t["id"])
        for t in offer[:25]
    ]
    hi = max(1, min(hi, len(options)))
    lo = max(0, min(lo, hi))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"s:{gid}:m{moves}:keep",
        placeholder=_("Keep {low}–{high} tickets", low=lo, high=hi),
        min_values=lo or 1,
        max_values=hi,
        options=options,
    )
    return GameSelect(f"{gid}:m{moves}:keep", select)


def ticket_mix_select(gid: int, moves: int, texts: list[str]) -> discord.ui.Item[Any]:
    """Märklin: how many short and long tickets to draw."""

    def mix(text: str) -> str:
        counts = dict(part.split("=", 1) for part in text.replace("tickets draw ", "").split() if "=" in part)
        return _("{short} short, {long} long", short=counts.get("short", "0"), long=counts.get("long", "0"))

    options = [discord.SelectOption(label=mix(t)[:100], value=t[:100]) for t in texts[:25]]
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"s:{gid}:m{moves}:tix", placeholder=_("Which tickets to draw"), options=options
    )
    return GameSelect(f"{gid}:m{moves}:tix", select)
