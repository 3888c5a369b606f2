"""Ticket to Ride on Discord, move by move from buttons and menus (no typed ids).

The public board's *Claim a route*, *Build a station* and *Move a passenger* buttons open a private
menu built from the player's legal actions: routes they can afford now (best first: those on their
tickets' cheapest paths, then by points; a city filter first when there are more than 25), then the
payment when there is more than one, then a confirm button. Private answers end with what the
player can do next (:func:`private_panel`), with the controls for it: the second card, tickets to
keep, a tunnel payment that says which colour is owed and which cards are already committed.

A Märklin passenger moves step by step: *Move a passenger* asks which passenger sets off (a menu
of the cities where the player's passengers stand, then a confirm button); from then on the
private answer is the journey so far in words with a menu of the routes it may take next (each
one says where it leads, the merchandise there and whether it costs a passenger card) and an
*End the journey here* button, until the journey ends.

Custom ids (answered by :mod:`bot.games.ttr.discord_ui` through the generic items of
:mod:`bot.discord_app.items`): buttons ``c:{game}:{seq}:claim|station|pas``
open a menu; private selects ``s:{game}:m{moves}:rcity|route|pay|sgrp|scity|pas|pstep``; private buttons
``c:{game}:m{moves}:do:{action text}`` (confirm) and ``c:{game}:m{moves}:cancel``. ``moves`` counts
the seat's own actions, so a private menu goes stale only when its owner has moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.discord_app.items import GameButton, GameSelect
from bot.discord_app.store import player_ref
from bot.discord_app.ui import GameUI, who
from bot.games.ttr.words import CARD_EMOJI, card_count, card_name, face_up_text
from bot.present import game_view, seat_names
from bot.service import ServiceError
from bot.stream import GameView, Outcome
from lang import M, _, _n
from rules.ttr import actions as A
from rules.ttr.ai import plan_graph_of, shortest_path_on
from rules.ttr.board import CARD_NAMES, Board, Track, load_board
from rules.ttr.view import TTRView

if TYPE_CHECKING:
    from rules.ttr.game import TTRGame

CHOICES = ("rcity", "route", "pay", "sgrp", "scity", "pas", "pstep")
MAX_OPTIONS = 25  # Discord's limit of options in one select menu
MAX_ID = 100  # Discord's limit of a custom id
STALE = M("This menu is from an earlier turn; open it again from the latest board.")


def cards_label(cards: Sequence[tuple[str, int]]) -> str:
    """``🟥 3 red cards + 🌈 1 locomotive`` from an action's ``(card, count)`` pairs (whole
    phrases, so each language makes the count and the colour agree)."""
    return " + ".join(f"{CARD_EMOJI.get(c, '')} {card_count(c, n)}".strip() for c, n in cards if n) or _(
        "nothing"
    )


def _counts_label(counts: Mapping[str, int]) -> str:
    """:func:`cards_label` of ``card name -> count``, in the cards' order."""
    return cards_label([(name, int(counts.get(name, 0))) for name in CARD_NAMES if counts.get(name)])


class Table:
    """What one seat sees of a Ticket to Ride game, as the menus read it: the seat's view (its
    envelope) and the board's static data, never the engine. ``moves`` counts the seat's own
    actions (a private menu goes stale when its owner moved)."""

    def __init__(self, view: Mapping[str, Any], tunnel_payment: Mapping[str, int] | None = None) -> None:
        detail: dict[str, Any] = view["detail"]
        self.detail = detail
        self.seat = int(view["viewer"])
        self.moves = int(view.get("moves") or 0)
        self.seq = int(view.get("seq") or 0)
        self.players = int(detail["players"])
        self.board: Board = load_board(str(detail["board"]), detail.get("variant"))
        owner = [-1] * len(self.board.tracks)
        for tid, seat in (detail.get("claims") or {}).items():
            owner[self.board.track_by_id[str(tid).lower()].index] = int(seat)
        self.owner = owner
        self.merchandise: dict[str, list[int]] = detail.get("merchandise") or {}
        self.passenger_at: dict[str, int] = detail.get("passengers") or {}
        self.journey: dict[str, Any] | None = detail.get("journey")
        self.tunnel: dict[str, Any] | None = detail.get("tunnel")
        you = detail.get("you") or {}
        self.hand: dict[str, int] = you.get("hand") or {}
        self.tickets: list[dict[str, Any]] = you.get("tickets") or []
        self.tunnel_payment: Mapping[str, int] = tunnel_payment or {}

    def seats_to_act(self) -> list[int]:
        return [int(s) for s in self.detail.get("to_act") or []]


def ttr_view(view: GameView) -> TTRView:
    """The Ticket to Ride part of a view this game's front end is handed (the envelope's ``detail``
    is each game's own view; this one's shape is :class:`rules.ttr.view.TTRView`)."""
    return cast(TTRView, view["detail"])


def table_of(outcome: Outcome, seat: int) -> Table:
    """The seat's :class:`Table` in ``outcome``'s state (raises ServiceError before the start)."""
    if outcome.private is None:
        raise ServiceError("not_started", M("Game #{game} has not started yet.", game=outcome.number))
    payment: dict[str, int] | None = None
    view = outcome.private.view(seat)
    tunnel = ttr_view(view)["tunnel"]
    if tunnel and tunnel.get("seat") == seat:
        # The cards committed to a pending tunnel are the one fact TTR's view (pinned byte for byte
        # by the golden replays) leaves out: read from what the seat knows, not the live game.
        known = cast("TTRGame", outcome.private.observation(seat)).state.tunnel
        if known is not None:
            payment = {CARD_NAMES[i]: n for i, n in enumerate(known["payment"]) if n}
    return Table(view, payment)


async def _table(ui: GameUI, gid: int, player: str) -> tuple[Table, Outcome]:
    """The player's table as the game stands (read only: moves go through the service)."""
    outcome = await ui.service.current_outcome(gid)
    seat = outcome.seat_of(player)
    if outcome.private is None or seat is None:
        raise ServiceError("not_your_game", M("You are not playing in game #{game}.", game=outcome.number))
    return table_of(outcome, seat), outcome


def ticket_path_tracks(table: Table) -> set[str]:
    """Ids of the unclaimed tracks on the cheapest paths of the seat's unfinished tickets."""
    out: set[str] = set()
    graph = None
    for info in table.tickets:
        if info.get("completed"):
            continue
        if graph is None:
            graph = plan_graph_of(table.board, table.owner, table.players, table.seat)
        best: tuple[float, list[Track]] | None = None
        for dest, _pts in info["destinations"]:
            found = shortest_path_on(table.board, str(info["origin"]), {dest}, graph)
            if found is not None and (best is None or found[0] < best[0]):
                best = found
        if best is not None:
            out.update(t.id for t in best[1] if table.owner[t.index] == -1)
    return out


def _track_label(table: Table, track: Track, on_path: bool) -> str:
    kind = " ⛰ " + _("tunnel") if track.tunnel else ""
    if track.ferry_locos:
        kind += " ⛴ " + _("ferry") + f" ({track.ferry_locos} 🌈)"
    colour = (
        _("any colour")
        if track.colour_name == "gray"
        else f"{CARD_EMOJI.get(track.colour_name, '')}{card_name(track.colour_name)}"
    )
    star = "⭐ " if on_path else ""
    points = _n("{n} pt", "{n} pts", table.board.route_points(track.length))
    return f"{star}{track.label} · {track.length} {colour} · {points}{kind}"


def ranked_routes(table: Table, legal: Sequence[Any]) -> list[tuple[Track, bool, list[A.ClaimRoute]]]:
    """Affordable routes, best first (on a ticket path, then points), each with its payments."""
    by_track: dict[str, list[A.ClaimRoute]] = {}
    for action in legal:
        if action.kind == "claim":
            by_track.setdefault(action.track, []).append(action)
    path = ticket_path_tracks(table) if by_track else set()
    index = table.board.track_by_id
    rows = [(index[tid.lower()], tid in path, claims) for tid, claims in by_track.items()]
    rows.sort(key=lambda r: (not r[1], -table.board.route_points(r[0].length), r[0].label))
    return rows


def _select(
    gid: int, moves: int, what: str, placeholder: str, options: list[discord.SelectOption]
) -> discord.ui.Item[Any]:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"s:{gid}:m{moves}:{what}", placeholder=placeholder[:150], options=options[:MAX_OPTIONS]
    )
    return GameSelect(f"{gid}:m{moves}:{what}", select)


def _button(
    rest: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.Item[Any]:
    return GameButton(rest, label=label[:80], style=style, emoji=emoji, disabled=disabled, row=row)


def confirm_view(gid: int, moves: int, action: Any) -> discord.ui.View | None:
    """Confirm and Cancel buttons for ``action`` (None when its text does not fit a custom id)."""
    rest = f"{gid}:m{moves}:do:{action.to_text()}"
    if len(rest) + 2 > MAX_ID:
        return None
    ui = discord.ui.View(timeout=None)
    ui.add_item(_button(rest, _("Confirm"), discord.ButtonStyle.success))
    ui.add_item(_button(f"{gid}:m{moves}:cancel", _("Cancel")))
    return ui


def describe(table: Table, action: Any) -> str:
    """A move in the player's words (no ids)."""
    if action.kind == "claim":
        track = table.board.track_by_id[action.track.lower()]
        text = _n(
            "claim **{route}** ({length}, {colour}) for {n} point, paying {cards}",
            "claim **{route}** ({length}, {colour}) for {n} points, paying {cards}",
            table.board.route_points(track.length),
            route=track.label,
            length=track.length,
            colour=card_name(track.colour_name),
            cards=cards_label(action.cards),
        )
        if track.tunnel:
            text += " " + _("(a tunnel: 3 cards are revealed and may cost more)")
        if action.passenger:
            text += ", " + _("placing a passenger in {city}", city=action.passenger)
        return text
    if action.kind == "station":
        return _(
            "build a station in **{city}**, paying {cards}", city=action.city, cards=cards_label(action.cards)
        )
    if action.kind == "passenger":
        return _("move your passenger: {journey}", journey=journey_text(table, action)[0])
    if action.kind == "journey_start":
        return _(
            "set off with your passenger in **{city}** (you then choose its routes one at a time; it "
            "travels at least one)",
            city=action.city,
        )
    if action.kind == "journey_route":
        return route_step_label(table, action)
    if action.kind == "journey_end":
        return _("end the passenger's journey here")
    return str(action.to_text())


def journey_text(table: Table, action: A.MovePassenger) -> tuple[str, int, int]:
    """``(words, fares, points)`` of a passenger journey: the cities it visits, never track ids."""
    seat = table.passenger_at.get(action.start)
    here = action.start
    cities: list[str] = []
    fares = 0
    for tid in action.tracks:
        track = table.board.track_by_id[tid.lower()]
        if table.owner[track.index] != seat:
            fares += 1
        here = track.b if here == track.a else track.a
        cities.append(here)
    points = 0
    seen: set[str] = set()
    for city in cities:
        if city == action.start or city in seen:
            continue
        seen.add(city)
        stack = table.merchandise.get(city)
        if stack:
            points += stack[0]
    words = f"{action.start} → " + " → ".join(cities)
    return words, fares, points


# ---- opening a menu ---------------------------------------------------------------------------
async def open_menu(interaction: discord.Interaction, gid: int, what: str) -> None:
    """A public board's Claim / Station / Passenger button: the private menu of affordable moves."""
    ui: GameUI = interaction.client.ui  # type: ignore[attr-defined]
    await ui.defer(interaction)
    player = player_ref(interaction.user.id)
    try:
        await ui.service.check_reach(gid, player, ui_where(interaction))
        table, outcome = await _table(ui, gid, player)
    except ServiceError as exc:
        await ui.error(interaction, exc)
        return
    seat, moves = table.seat, table.moves
    legal: list[Any] = list(outcome.private.legal(seat)) if outcome.private is not None else []
    if seat not in table.seats_to_act():
        waiting = ", ".join(outcome.seats[s].name for s in table.seats_to_act())
        await ui.error(
            interaction,
            _("It is not your turn; waiting for {names}.", names=waiting)
            if waiting
            else _("It is not your turn."),
        )
        return
    if what == "claim":
        text, view = route_menu(gid, moves, table, legal, None)
    elif what == "station":
        text, view = station_menu(gid, moves, table, legal, None)
    else:
        text, view = passenger_menu(gid, moves, table, legal)
    if view is None:
        hint, controls = await private_panel(ui, outcome, player)
        await ui.reply(interaction, f"{text}\n{hint}".strip(), view=controls or discord.utils.MISSING)
        return
    await ui.reply(interaction, text, view=view)


def ui_where(interaction: discord.Interaction) -> str | None:
    return who(interaction)[1]


def route_menu(
    gid: int, moves: int, table: Table, legal: Sequence[Any], city: str | None
) -> tuple[str, discord.ui.View | None]:
    """The routes menu (or, past 25 routes, the city filter first)."""
    rows = ranked_routes(table, legal)
    if not rows:
        return _("You cannot afford any route now: draw cards first."), None
    if city is not None:
        rows = [r for r in rows if city in (r[0].a, r[0].b)]
        if not rows:
            return _("No route from {city} is affordable now.", city=city), None
    ui = discord.ui.View(timeout=None)
    if len(rows) > MAX_OPTIONS:
        cities: list[str] = []
        for track, _on, _c in rows:
            for name in (track.a, track.b):
                if name not in cities:
                    cities.append(name)
        counts = {c: sum(1 for r in rows if c in (r[0].a, r[0].b)) for c in cities}
        options = [
            discord.SelectOption(
                label=c[:100], value=c[:100], description=_n("{n} route", "{n} routes", counts[c])
            )
            for c in cities[:MAX_OPTIONS]
        ]
        ui.add_item(_select(gid, moves, "rcity", _("Routes from which city?"), options))
        return _(
            "You can afford {n} routes; pick a city first (cities on your tickets' paths come first;"
            " ⭐ marks a route on a ticket's path).",
            n=len(rows),
        ), ui
    options = [
        discord.SelectOption(
            label=_track_label(table, track, on)[:100],
            value=track.id,
            description=_n("{n} way to pay", "{n} ways to pay", len(claims))[:100],
        )
        for track, on, claims in rows[:MAX_OPTIONS]
    ]
    ui.add_item(_select(gid, moves, "route", _("Which route?"), options))
    if city:
        return _(
            "Routes you can claim now from {city} (⭐ on your tickets' shortest paths, then by points):",
            city=city,
        ), ui
    return _("Routes you can claim now (⭐ on your tickets' shortest paths, then by points):"), ui


def payment_menu(
    gid: int, moves: int, table: Table, actions: Sequence[Any], question: str
) -> tuple[str, discord.ui.View | None]:
    """One move: confirm it; several ways to pay: the payments first."""
    if len(actions) == 1:
        view = confirm_view(gid, moves, actions[0])
        return _("Confirm: {move}?", move=describe(table, actions[0])), view
    ranked = sorted(actions, key=lambda a: (dict(a.cards).get("locomotive", 0), a.to_text()))
    options = []
    for a in ranked[:MAX_OPTIONS]:
        label = cards_label(a.cards) + (
            " · " + _("passenger in {city}", city=a.passenger) if getattr(a, "passenger", None) else ""
        )
        if len(a.to_text()) <= 100:
            options.append(discord.SelectOption(label=label[:100], value=a.to_text()))
    ui = discord.ui.View(timeout=None)
    ui.add_item(_select(gid, moves, "pay", _("How to pay?"), options))
    return question, ui


def station_menu(
    gid: int, moves: int, table: Table, legal: Sequence[Any], group: int | None
) -> tuple[str, discord.ui.View | None]:
    """Cities where a station can be built now (past 25, first a menu of alphabetical groups)."""
    cities = sorted({a.city for a in legal if a.kind == "station"})
    if not cities:
        return _("You cannot build a station now."), None
    ui = discord.ui.View(timeout=None)
    if len(cities) > MAX_OPTIONS and group is None:
        chunks = [cities[i : i + MAX_OPTIONS] for i in range(0, len(cities), MAX_OPTIONS)]
        options = [
            discord.SelectOption(label=f"{c[0]} … {c[-1]}"[:100], value=str(i)) for i, c in enumerate(chunks)
        ]
        ui.add_item(_select(gid, moves, "sgrp", _("Which cities?"), options))
        return _("You can build a station in {n} cities; pick a group:", n=len(cities)), ui
    if group is not None:
        cities = cities[group * MAX_OPTIONS : (group + 1) * MAX_OPTIONS]
    options = [discord.SelectOption(label=c[:100], value=c[:100]) for c in cities]
    ui.add_item(_select(gid, moves, "scity", _("Station in which city?"), options))
    cost = {a.city: sum(n for _c, n in a.cards) for a in legal if a.kind == "station"}
    some = next(iter(cost.values()))
    return _n(
        "Build a station (costs {n} card of one colour; it lends you one opponent's route at the end):",
        "Build a station (costs {n} cards of one colour; it lends you one opponent's route at the end):",
        some,
    ), ui


def passenger_menu(
    gid: int, moves: int, table: Table, legal: Sequence[Any]
) -> tuple[str, discord.ui.View | None]:
    """Which passenger sets off: the cities where the player's passengers stand and can travel."""
    starts = [a for a in legal if a.kind == "journey_start"]
    if not starts:
        return _("None of your passengers can travel now."), None
    open_routes = {
        a.city: sum(1 for t in table.board.tracks_at(a.city) if table.owner[t.index] != -1) for a in starts
    }
    options = [
        discord.SelectOption(
            label=a.city[:100],
            value=a.to_text()[:100],
            description=_n(
                "{n} claimed route from here", "{n} claimed routes from here", open_routes[a.city]
            )[:100],
        )
        for a in starts[:MAX_OPTIONS]
        if len(a.to_text()) <= 100
    ]
    ui = discord.ui.View(timeout=None)
    ui.add_item(_select(gid, moves, "pas", _("Which passenger?"), options))
    return _(
        "Which passenger sets off? You then choose its routes one at a time: your own routes are free, "
        "an opponent's costs a passenger card, and each city gives its top merchandise token once."
    ), ui


def route_step_label(table: Table, action: A.TravelRoute) -> str:
    """One next route of the travelling passenger in words: where it leads, the token waiting
    there (none at the start or a city already collected from), and its fare."""
    journey = table.journey or {}
    here = str(journey.get("at", ""))
    track = table.board.track_by_id[action.track.lower()]
    there = track.b if here == track.a else track.a
    # every city the journey reached (its start aside) was collected from, once
    if there == journey.get("start") or there in (journey.get("cities") or []):
        gain = _("no token (already collected)")
    else:
        stack = table.merchandise.get(there)
        gain = _n("{n} pt", "{n} pts", stack[0]) if stack else _("no token left")
    seat = journey.get("seat")
    fare = _("your route") if table.owner[track.index] == seat else _("1 passenger card")
    return f"→ {there} · {gain} · {fare}"


def journey_panel(gid: int, moves: int, table: Table, legal: Sequence[Any]) -> tuple[str, discord.ui.View]:
    """The journey under way in words, a menu of the routes it may take next, and the end button."""
    journey = table.journey or {}
    cities = [str(journey.get("start", "")), *journey.get("cities", [])]
    tokens = [int(t) for t in journey.get("tokens", [])]
    fares = int(journey.get("fares", 0))
    text = (
        _("**Your passenger's journey**: {path}", path=" → ".join(cities))
        + "\n"
        + _n("Collected {n} point of merchandise", "Collected {n} points of merchandise", sum(tokens))
        + " · "
        + _n("{n} passenger card paid", "{n} passenger cards paid", fares)
    )
    ui = discord.ui.View(timeout=None)
    steps = [a for a in legal if a.kind == "journey_route"]
    if steps:
        options = [
            discord.SelectOption(
                label=route_step_label(table, a)[:100],
                value=a.to_text()[:100],
                description=table.board.track_by_id[a.track.lower()].label[:100],
            )
            for a in steps[:MAX_OPTIONS]
        ]
        ui.add_item(_select(gid, moves, "pstep", _("Where next?"), options))
    if any(a.kind == "journey_end" for a in legal):
        ui.add_item(
            _button(
                f"{gid}:m{moves}:do:passenger stop",
                _("End the journey here"),
                discord.ButtonStyle.danger,
                row=1,
            )
        )
        hint = (
            _(
                "Next: choose the passenger's next route, or end its journey here (the passenger then leaves"
                " the game)."
            )
            if steps
            else _("No route goes on from here: end the journey.")
        )
    else:
        hint = _("Next: choose the passenger's first route.")
    return text + "\n" + hint, ui


# ---- a choice in a private menu ---------------------------------------------------------------
async def choose(interaction: discord.Interaction, gid: int, moves: int, what: str, value: str) -> None:
    """A value picked in one of this module's private menus: the next step of the move."""
    ui: GameUI = interaction.client.ui  # type: ignore[attr-defined]
    await ui.defer(interaction)
    player = player_ref(interaction.user.id)
    try:
        table, outcome = await _table(ui, gid, player)
        if table.moves != moves:
            raise ServiceError("stale", STALE)
    except ServiceError as exc:
        await ui.error(interaction, exc)
        return
    legal: list[Any] = list(outcome.private.legal(table.seat)) if outcome.private is not None else []
    view: discord.ui.View | None
    if what == "rcity":
        text, view = route_menu(gid, moves, table, legal, value)
    elif what == "route":
        claims = [a for a in legal if a.kind == "claim" and a.track == value]
        if not claims:
            await ui.error(interaction, _("You cannot claim that route now; open the menu again."))
            return
        track = table.board.track_by_id[value.lower()]
        text, view = payment_menu(
            gid, moves, table, claims, _("How do you pay for **{route}**?", route=track.label)
        )
    elif what == "sgrp":
        text, view = station_menu(gid, moves, table, legal, int(value) if value.isdigit() else 0)
    elif what == "scity":
        builds = [a for a in legal if a.kind == "station" and a.city == value]
        if not builds:
            await ui.error(interaction, _("You cannot build a station there now; open the menu again."))
            return
        text, view = payment_menu(
            gid, moves, table, builds, _("How do you pay for the station in **{city}**?", city=value)
        )
    elif what == "pstep":
        chosen = [a for a in legal if a.kind == "journey_route" and a.to_text() == value]
        if not chosen:
            await ui.error(interaction, _("That choice is no longer available; open the menu again."))
            return
        await ui.act(interaction, gid, chosen[0], expected_moves=moves)  # one step: no confirmation
        return
    elif what in ("pay", "pas"):
        chosen = [a for a in legal if a.to_text() == value]
        if not chosen:
            await ui.error(interaction, _("That choice is no longer available; open the menu again."))
            return
        view = confirm_view(gid, moves, chosen[0])
        if view is None:  # too long for a confirm button's id: the choice itself was the confirmation
            await ui.act(interaction, gid, chosen[0], expected_moves=moves)
            return
        text = _("Confirm: {move}?", move=describe(table, chosen[0]))
    else:
        await ui.error(interaction, _("That menu is garbled; open it again from the latest board."))
        return
    await ui.reply(interaction, text, view=view or discord.utils.MISSING)


async def cancel(interaction: discord.Interaction, gid: int) -> None:
    """Cancel in a confirm prompt: nothing is played; say what the player can do instead."""
    ui: GameUI = interaction.client.ui  # type: ignore[attr-defined]
    await ui.defer(interaction)
    try:
        outcome = await ui.service.current_outcome(gid)
    except ServiceError:
        hint, controls = "", None
    else:
        hint, controls = await private_panel(ui, outcome, player_ref(interaction.user.id))
    await ui.reply(
        interaction,
        (_("Cancelled: nothing was played.") + f"\n{hint}").strip(),
        view=controls or discord.utils.MISSING,
    )


# ---- what next, privately ---------------------------------------------------------------------
def tunnel_text(table: Table) -> str:
    """The pending tunnel: what was revealed, how many more cards of which colour are owed, the
    cards already committed and what is still free in the hand."""
    tun = table.tunnel
    if tun is None or tun["seat"] != table.seat:
        return ""
    track = table.board.track_by_id[str(tun["track"]).lower()]
    revealed = " ".join(f"{CARD_EMOJI.get(c, '')}{card_name(c)}" for c in tun["revealed"])
    colour = tun["colour"]
    loco = "🌈" + card_name("locomotive")
    owed = (
        _(
            "{colour} or {locomotive}",
            colour=f"{CARD_EMOJI.get(colour, '')}{card_name(colour)}",
            locomotive=loco,
        )
        if colour is not None
        else loco
    )
    payment = table.tunnel_payment
    committed = _counts_label(payment)
    free = {name: table.hand.get(name, 0) - payment.get(name, 0) for name in CARD_NAMES}
    return (
        _n(
            "**Tunnel {route}**: revealed {revealed} → **{n} more card** owed, in {owed}.",
            "**Tunnel {route}**: revealed {revealed} → **{n} more cards** owed, in {owed}.",
            tun["surcharge"],
            route=track.label,
            revealed=revealed,
            owed=owed,
        )
        + "\n"
        + _("Already committed: {cards}.", cards=committed)
        + "\n"
        + _("Still free in your hand: {cards}.", cards=_counts_label(free))
    )


async def private_panel(ui: GameUI, outcome: Outcome, player: str) -> tuple[str, discord.ui.View | None]:
    """What the player can do next, in words, and the private controls for it, in ``outcome``'s
    state (read from the outcome alone: nothing is asked of the service)."""
    seat = outcome.seat_of(player)
    if seat is None or outcome.private is None:
        return "", None
    table = table_of(outcome, seat)
    view = outcome.private.view(seat)
    legal: list[Any] = list(outcome.private.legal(seat))
    gid = outcome.game_id
    detail = game_view(view)
    moves = int(view.get("moves") or 0)
    seq = int(view.get("seq") or 0)
    kinds = {a.kind for a in legal}
    controls = discord.ui.View(timeout=None)
    you = ttr_view(view)["you"]
    names = seat_names(detail)
    if not legal:
        waiting = ", ".join(names[s] for s in view.get("to_act") or [] if s < len(names))
        return (
            _("Next: wait for {names}; you will be pinged on your turn.", names=waiting)
            if waiting
            else _("Nothing to do now.")
        ), None
    offer = you["offer"] if you is not None else None
    if "keep_tickets" in kinds and you is not None and offer:
        lo, hi = you["keep_min"] or 1, you["keep_max"] or len(offer)
        controls.add_item(keep_select(gid, moves, offer, lo, hi))
        return _(
            "Next: choose the tickets to keep ({low}–{high}) with the menu below.", low=lo, high=hi
        ), controls
    if kinds & {"tunnel_pay", "tunnel_withdraw"}:
        options = []
        for a in legal:
            if a.kind == "tunnel_pay":
                options.append(
                    discord.SelectOption(
                        label=_("Pay {cards}", cards=cards_label(a.cards))[:100], value=a.to_text()[:100]
                    )
                )
            elif a.kind == "tunnel_withdraw":
                options.append(
                    discord.SelectOption(
                        label=_("Withdraw: take the committed cards back"), value=a.to_text()
                    )
                )
        controls.add_item(_select(gid, moves, "tun", _("Pay for the tunnel or withdraw"), options))
        return tunnel_text(table) + "\n" + _("Next: pay or withdraw with the menu below."), controls
    if detail.get("pending") == "draw_second":
        slots = {a.slot for a in legal if a.kind == "draw_face"}
        face = detail.get("face_up") or []
        for slot, card in enumerate(face[:5]):
            controls.add_item(
                _button(
                    f"{gid}:{seq}:face:{slot}",
                    card_name(card) if card else _("empty"),
                    emoji=CARD_EMOJI.get(card or ""),
                    disabled=slot not in slots,
                    row=0,
                )
            )
        controls.add_item(
            _button(
                f"{gid}:{seq}:deck",
                _("Deck ({n})", n=detail.get("deck_size", 0)),
                discord.ButtonStyle.primary,
                disabled="draw_deck" not in kinds,
                row=1,
            )
        )
        locos = " " + _("(a face-up locomotive cannot be your second card)") if "locomotive" in face else ""
        return (
            _("Face up: {cards}", cards=face_up_text(face))
            + "\n"
            + _("Next: take your second card with the buttons below{note}.", note=locos)
        ), controls
    if "draw_tickets" in kinds and detail.get("phase") == "setup":
        mixes = [a.to_text() for a in legal if a.kind == "draw_tickets"]
        if len(mixes) > 1:
            controls.add_item(ticket_mix_select(gid, moves, mixes))
        else:
            controls.add_item(_button(f"{gid}:{seq}:tix", _("Draw tickets"), discord.ButtonStyle.success))
        return _("Next: draw your starting tickets first, then choose which to keep."), controls
    if kinds & {"journey_route", "journey_end"}:
        return journey_panel(gid, moves, table, legal)
    if kinds == {"pass"}:
        controls.add_item(_button(f"{gid}:m{moves}:do:pass", _("Pass"), discord.ButtonStyle.danger))
        return _("You cannot draw, claim or build anything: pass."), controls
    # the start of a turn: every way to play it
    face = detail.get("face_up") or []
    slots = {a.slot for a in legal if a.kind == "draw_face"}
    for slot, card in enumerate(face[:5]):
        controls.add_item(
            _button(
                f"{gid}:{seq}:face:{slot}",
                card_name(card) if card else _("empty"),
                emoji=CARD_EMOJI.get(card or ""),
                disabled=slot not in slots,
                row=0,
            )
        )
    controls.add_item(
        _button(
            f"{gid}:{seq}:deck",
            _("Deck"),
            discord.ButtonStyle.primary,
            disabled="draw_deck" not in kinds,
            row=1,
        )
    )
    controls.add_item(
        _button(f"{gid}:{seq}:tix", _("Draw tickets"), disabled="draw_tickets" not in kinds, row=1)
    )
    routes = len({a.track for a in legal if a.kind == "claim"})
    controls.add_item(
        _button(
            f"{gid}:{seq}:claim",
            _("Claim a route ({n})", n=routes),
            discord.ButtonStyle.success,
            disabled=not routes,
            row=1,
        )
    )
    if "station" in kinds:
        controls.add_item(_button(f"{gid}:{seq}:station", _("Build a station"), row=2))
    if "journey_start" in kinds:
        controls.add_item(_button(f"{gid}:{seq}:pas", _("Move a passenger"), row=2))
    if "pass" in kinds:
        controls.add_item(_button(f"{gid}:m{moves}:do:pass", _("Pass"), discord.ButtonStyle.danger, row=2))
    parts = [
        _("draw two cards"),
        _n("claim the {n} route you can afford", "claim one of {n} routes you can afford", routes)
        if routes
        else "",
        _("draw tickets") if "draw_tickets" in kinds else "",
        _("build a station") if "station" in kinds else "",
        _("move a passenger") if "journey_start" in kinds else "",
    ]
    return _("Next (your turn): {moves}.", moves=", ".join(p for p in parts if p)), controls


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
