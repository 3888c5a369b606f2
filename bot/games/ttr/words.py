"""Ticket to Ride in words: the public board summary, a seat's hand and tickets, public scores.

Pure formatting from the service's views (the registry names this module as the game's
presenter); :func:`hand_text` takes the seat's own view and is shown only privately.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

from bot.names import seat_names
from lang import N_, _, _n, _np, _p
from lang.lists import and_list, semicolon_list

CARD_EMOJI = {
    "red": "🟥",
    "orange": "🟧",
    "yellow": "🟨",
    "green": "🟩",
    "blue": "🟦",
    "pink": "🟪",
    "black": "⬛",
    "white": "⬜",
    "locomotive": "🌈",
    "plus4": "➕",
    "passenger": "🧳",
}


def board_words(name: str) -> str:
    """A board's name in the reader's language (a board without a translation keeps its own)."""
    words = {
        "USA": _p("board", "USA"),
        "Europe": _p("board", "Europe"),
        "Switzerland": _p("board", "Switzerland"),
        "Märklin": _p("board", "Märklin"),
    }
    return words.get(name, name)


def game_title(title: str) -> str:
    """A game's title as its edition in the reader's language calls it."""
    words = {"Ticket to Ride": _p("game", "Ticket to Ride")}
    return words.get(title, title)


def data_words(text: str) -> str:
    """A board's data text (``board.toml``: edition, stand-in deck label, variant description) in
    the reader's language; the catalog takes them from the board files (``lang.extract``), and a
    board added outside the package keeps its own words."""
    return _p("board data", text)


MERCHANDISE_NOTE = re.compile(
    r"Merchandise: Berlin is verified, the six red stacks are inferred, and the "
    r"yellow/white stacks of these cities are provisional \(assignment unknown\): (.+)\."
)
VARIANT_NOTE = re.compile(r"Variant ([^:]+): (.+)", re.S)
CUSTOM_DECK = re.compile(r"Custom ticket deck loaded from (.+)")


def note_words(note: str) -> str:
    """One of the engine's data caveats shown with the board (``rules.ttr.view.board_notes``: the
    stand-in ticket deck, provisional merchandise, the variant in play) in the reader's language."""
    merchandise = MERCHANDISE_NOTE.fullmatch(note)
    if merchandise:
        return _(
            "Merchandise: Berlin is verified, the six red stacks are inferred, and the yellow/white stacks "
            "of these cities are provisional (assignment unknown): {cities}.",
            cities=merchandise[1],
        )
    variant = VARIANT_NOTE.fullmatch(note)
    if variant:
        return _("Variant {variant}: {description}", variant=variant[1], description=data_words(variant[2]))
    custom = CUSTOM_DECK.fullmatch(note)
    if custom:
        return _("Custom ticket deck loaded from {file}", file=custom[1])
    return data_words(note)


def view_words(detail: dict[str, Any]) -> dict[str, Any]:
    """The view a picture is drawn from, with the engine's data caveats in the reader's language."""
    if detail.get("notes"):
        detail = {**detail, "notes": [note_words(str(n)) for n in detail["notes"]]}
    return detail


def rules_words(config: dict[str, Any]) -> list[str]:
    """The board's rules in force in the reader's language (``rules.ttr.summary.rules_summary``
    worded here), the boards' own data texts too (city names stay as printed)."""
    from rules.ttr.summary import _board

    board = _board(config)
    r = board.spec
    lines = [
        _(
            "{board} ({edition}), {low}-{high} players",
            board=board_words(board.name),
            edition=data_words(r.edition) if r.edition else board_words(board.name),
            low=r.min_players,
            high=r.max_players,
        )
    ]
    lines.append(_("Trains per player: {trains}; stations: {stations}", trains=r.trains, stations=r.stations))
    if r.passengers:
        lines.append(_("Passengers per player: {n}", n=r.passengers))
    lines.append(
        _("Route points: {points}", points=", ".join(f"{k}→{v}" for k, v in sorted(r.route_points.items())))
    )
    if r.double_routes_min_players:
        lines.append(_("Double routes usable by two players from {n} players", n=r.double_routes_min_players))
    if r.longest_path_bonus:
        lines.append(_("Longest path bonus: {n}", n=r.longest_path_bonus))
    if r.most_tickets_bonus:
        lines.append(_("Most tickets bonus: {n}", n=r.most_tickets_bonus))
    if r.locomotives_tunnels_only:
        lines.append(_("Locomotives: only on tunnels"))
    if board.variant:
        lines.append(
            _(
                "Variant: {variant}: {description}",
                variant=board.variant,
                description=data_words(r.variant_description),
            )
        )
    elif r.variants:
        lines.append(
            _(
                "Variants: {variants}",
                variants=semicolon_list([f"{k}: {data_words(v)}" for k, v in r.variants.items()]),
            )
        )
    if r.ticket_deck_is_standin:
        lines.append(f"⚠ {note_words(r.ticket_deck_label)}")
    provisional = sorted(c for c, (_x, _y, status) in board.merchandise.items() if status != "verified")
    if provisional:
        lines.append("⚠ " + _("Provisional merchandise values at: {cities}", cities=", ".join(provisional)))
    return lines


def card_name(name: str) -> str:
    """A train card's name in the reader's language (the published editions' words)."""
    words = {
        "red": _p("card", "red"),
        "orange": _p("card", "orange"),
        "yellow": _p("card", "yellow"),
        "green": _p("card", "green"),
        "blue": _p("card", "blue"),
        "pink": _p("card", "pink"),
        "black": _p("card", "black"),
        "white": _p("card", "white"),
        "locomotive": _p("card", "locomotive"),
        "plus4": _p("card", "+4 locomotive"),
        "passenger": _p("card", "passenger"),
        "gray": _p("card", "gray"),
    }
    return words.get(name, name)


def card_count(name: str, n: int) -> str:
    """``n`` cards of one kind as a whole phrase, so each language makes the count, the noun and
    the colour agree ("2 carte rosse", "2 rote Karten", "2 cartes rouges", "3 Lokomotiven")
    instead of gluing a number to a colour's name ("2 rosso")."""
    words = {
        "red": lambda: _np("card count", "{n} red card", "{n} red cards", n),
        "orange": lambda: _np("card count", "{n} orange card", "{n} orange cards", n),
        "yellow": lambda: _np("card count", "{n} yellow card", "{n} yellow cards", n),
        "green": lambda: _np("card count", "{n} green card", "{n} green cards", n),
        "blue": lambda: _np("card count", "{n} blue card", "{n} blue cards", n),
        "pink": lambda: _np("card count", "{n} pink card", "{n} pink cards", n),
        "black": lambda: _np("card count", "{n} black card", "{n} black cards", n),
        "white": lambda: _np("card count", "{n} white card", "{n} white cards", n),
        "locomotive": lambda: _np("card count", "{n} locomotive", "{n} locomotives", n),
        "plus4": lambda: _np("card count", "{n} +4 locomotive", "{n} +4 locomotives", n),
        "passenger": lambda: _np("card count", "{n} passenger card", "{n} passenger cards", n),
    }
    make = words.get(name)
    return make() if make is not None else f"{n} {name}"


def cards_words(cards: dict[str, int] | list[tuple[str, int]], *, emoji: bool = False) -> str:
    """``{"red": 3, "locomotive": 1}`` as "3 red cards, 1 locomotive" in the reader's language
    (``emoji``: each kind's symbol before it)."""
    items = cards.items() if isinstance(cards, dict) else cards
    return ", ".join(
        f"{CARD_EMOJI.get(c, '') + ' ' if emoji and c in CARD_EMOJI else ''}{card_count(c, n)}"
        for c, n in items
        if n
    ) or _("no cards")


def _paid(cards: dict[str, int]) -> str:
    """The cards a claim paid as one list of the language ("3 rote Karten und 1 Lokomotive")."""
    return and_list([card_count(c, n) for c, n in cards.items() if n]) or _("no cards")


def card_label(name: str | None) -> str:
    if name is None:
        return _("(empty)")
    return f"{CARD_EMOJI.get(name, '')} {card_name(name)}".strip()


def map_key(view: dict[str, Any]) -> Hashable:
    """What the map shows that a move can change: claimed routes, stations, passengers. A turn that
    leaves it as it was (cards or tickets drawn) needs no new image: the text says the rest."""
    return (
        tuple(sorted((view.get("claims") or {}).items())),
        tuple(sorted((view.get("stations") or {}).items())),
        tuple(sorted((view.get("passengers") or {}).items())),
        view.get("phase") == "over",
    )


def face_up_text(face: list[str | None]) -> str:
    """The face-up row as coloured symbols with names (public)."""
    return " ".join(f"{CARD_EMOJI.get(c, '▫️')}{card_name(c)}" if c else "▫️" + _("empty") for c in face)


def face_up_taken(card: str) -> str:
    """A face-up card taken, one whole sentence per card so the colour agrees with the card's
    noun in each language ("una carta scoperta gialla", "eine offene weiße Karte")."""
    words = {
        "red": lambda: _("took a face-up red card."),
        "orange": lambda: _("took a face-up orange card."),
        "yellow": lambda: _("took a face-up yellow card."),
        "green": lambda: _("took a face-up green card."),
        "blue": lambda: _("took a face-up blue card."),
        "pink": lambda: _("took a face-up pink card."),
        "black": lambda: _("took a face-up black card."),
        "white": lambda: _("took a face-up white card."),
        "locomotive": lambda: _("took a face-up locomotive."),
        "plus4": lambda: _("took a face-up +4 locomotive."),
        "passenger": lambda: _("took a face-up passenger card."),
    }
    make = words.get(card)
    return make() if make is not None else _("took a face-up {card}.", card=card_name(card))


def _step(pending: str) -> str:
    steps = {
        "draw_second": _("(second card)"),
        "tickets": _("(choosing tickets)"),
        "tunnel": _("(tunnel payment)"),
        "passenger": _("(passenger travelling)"),
    }
    return f" {steps[pending]}" if pending in steps else ""


def _route(event: dict[str, Any]) -> str:
    """The route an event names, as printed on its board (its id when the board is unknown)."""
    track_id = str(event.get("track") or "")
    try:
        from rules.ttr.board import load_board

        track = load_board(str(event.get("board") or "usa")).track_by_id.get(track_id.lower())
    except Exception:  # noqa: BLE001 - a wording must never fail a post: the id is still right
        track = None
    return track.label if track is not None else track_id


def event_words(event: dict[str, Any]) -> str | None:
    """A public event of the engine (its kind and facts) in the reader's language; None for a kind
    this presenter does not know (the caller shows the engine's English)."""
    kind = event.get("type")
    if kind == "refresh_stopped":
        return _(
            "The face-up cards cannot be refreshed: the deck and discard pile cannot supply a different row."
        )
    if kind == "refresh":
        return _("Three face-up cards of a kind: the row was discarded and five new cards dealt.")
    if kind == "final_round":
        return _("is nearly out of trains: every player, this one included, gets one more turn.")
    if kind == "game_over":
        return _("The game is over.")
    if kind == "pass":
        return _("could not act and passed.")
    if kind == "skip":
        return _("ran out of time; the turn passes.")
    if kind == "start":
        return _("Everyone has chosen tickets: the game begins.")
    if kind == "keep_tickets":
        kept, returned = int(event.get("kept", 0)), int(event.get("returned", 0))
        return (
            _n("kept {n} ticket", "kept {n} tickets", kept)
            + " "
            + _n("and returned {n}.", "and returned {n}.", returned)
        )
    if kind == "draw_tickets":
        short, long_ = int(event.get("short", 0)), int(event.get("long", 0))
        if long_:
            return _("drew {short} short and {long} long tickets.", short=short, long=long_)
        return _n("drew {n} ticket.", "drew {n} tickets.", short)
    if kind == "draw_face":
        return face_up_taken(str(event.get("card")))
    if kind == "draw_deck":
        return _("drew a card from the deck.")
    if kind == "no_second_card":
        return _("no second card can be drawn.")
    if kind == "tunnel_reveal":
        revealed = [card_name(str(c)) for c in event.get("revealed") or []]
        n = int(event.get("surcharge", 0))
        return _n(
            "tried the tunnel {route}: revealed {cards}; {n} extra card needed.",
            "tried the tunnel {route}: revealed {cards}; {n} extra cards needed.",
            n,
            route=_route(event),
            cards=", ".join(revealed) or _("nothing (no cards left)"),
        )
    if kind == "claim":
        points = int(event.get("points", 0))
        return _n(
            "claimed {route} for {n} point with {cards}.",
            "claimed {route} for {n} points with {cards}.",
            points,
            route=_route(event),
            cards=_paid(event.get("cards") or {}),
        )
    if kind == "passenger_placed":
        return _("placed a passenger in {city}.", city=event.get("city", ""))
    if kind == "tunnel_withdraw":
        return _("withdrew from the tunnel {route} and took the cards back.", route=_route(event))
    if kind == "station":
        return _("built a station in {city}.", city=event.get("city", ""))
    if kind == "journey_start":
        return _("sets off with the passenger in {city}.", city=event.get("city", ""))
    if kind == "journey_route":
        token = int(event.get("token") or 0)
        words = _(
            "took the passenger to {city} along {route}", city=event.get("city", ""), route=_route(event)
        )
        if token:
            words += ", " + _n(
                "collecting {n} point of merchandise", "collecting {n} points of merchandise", token
            )
        if event.get("fare"):
            words += ", " + _("for 1 passenger card")
        return words + "."
    if kind == "passenger_move":
        points = sum(int(t) for t in event.get("tokens") or [])
        return _n(
            "moved a passenger from {city}, collecting {n} point of merchandise.",
            "moved a passenger from {city}, collecting {n} points of merchandise.",
            points,
            city=event.get("start", ""),
        )
    return None


def board_text(view: dict[str, Any], *, title: str | None = None) -> str:
    """The public board in words, enough without the image: who is to act and by when, every
    seat's score, trains, cards, tickets (and stations/passengers), the face-up cards, final-round
    warnings. No hand, no tickets. Fits in one Discord message."""
    names = seat_names(view)
    lines: list[str] = []
    head = title or _(
        "Game #{game} · {board}",
        game=view.get("game_id", "?"),
        board=board_words(str(view.get("board_name", view.get("board", "")))),
    )
    lines.append(f"**{head}** · " + _("turn {turn}", turn=view.get("turn", 0)))
    deadline = view.get("deadline")
    by = f" · ⏳ <t:{int(deadline)}:R>" if deadline else ""
    to_act = list(view.get("to_act") or [])
    if view.get("phase") == "setup":
        waiting = ", ".join(f"**{names[s]}**" for s in to_act)
        drawing = [
            s["seat"] for s in view.get("seats", []) if s["seat"] in to_act and not s.get("choosing_tickets")
        ]
        if drawing:  # Märklin: the starting tickets are drawn (short/long mix) before they are chosen
            lines.append(
                "▶ "
                + _(
                    "Opening: press **Draw tickets** first, then choose your tickets: {players}",
                    players=waiting,
                )
                + by
            )
        else:
            lines.append(
                "▶ "
                + _("Choosing starting tickets (**Choose tickets** button): {players}", players=waiting)
                + by
            )
    elif view.get("current") is not None and view.get("phase") == "play":
        lines.append(
            "▶ "
            + _("To play: **{player}**", player=names[view["current"]])
            + _step(view.get("pending") or "")
            + by
        )
    if view.get("final_round") and not view.get("final"):  # over: the final scores say the rest
        left = int(view.get("final_turns_left") or 0)
        lines.append(
            "⚠ "
            + _n(
                "**Final round**: {n} turn left, then the game ends.",
                "**Final round**: {n} turns left, then the game ends.",
                left,
            )
        )
    face = view.get("face_up") or []
    if face:
        sizes = view.get("ticket_deck_sizes") or {}
        kinds = {"short": _p("tickets", "short"), "long": _p("tickets", "long"), "normal": ""}
        tickets = " + ".join(f"{v} {kinds.get(k, k)}".strip() for k, v in sizes.items() if v) or "0"
        lines.append(_("Face up: {cards}", cards=face_up_text(face)))
        lines.append(
            _(
                "Deck {deck} · discards {discards} · tickets left {tickets}",
                deck=view.get("deck_size", 0),
                discards=view.get("discard_size", 0),
                tickets=tickets,
            )
        )
    for s in view.get("seats", []):
        i = s["seat"]
        extra = ""
        if s.get("stations"):
            extra += " · 🏠 " + _n("{n} station", "{n} stations", int(s["stations"]))
        if s.get("passengers"):
            extra += " · 🧳 " + _n("{n} passenger", "{n} passengers", int(s["passengers"]))
        claimed = sum(1 for seat in (view.get("claims") or {}).values() if seat == i)
        mark = "▶" if i in to_act else "·"
        lines.append(
            f"{mark} {names[i]}: "
            + " · ".join(
                (
                    _n("**{n}** pt", "**{n}** pts", int(s["score"])),
                    "🚃 " + _n("{n} train", "{n} trains", int(s["trains"])),
                    _n("{n} card", "{n} cards", int(s["cards"])),
                    _n("{n} ticket", "{n} tickets", int(s["tickets"])),
                    _n("{n} route", "{n} routes", claimed),
                )
            )
            + extra
        )
    la = view.get("last_action")
    if la:
        lines.append(
            _(
                "Last: {move}",
                move=f"{names[la['seat']] if la.get('seat') is not None else ''} "
                f"{last_action_words(la, view)}".strip(),
            )
        )
    journey = view.get("journey")
    if journey:
        points = sum(int(t) for t in journey.get("tokens") or [])
        lines.append(
            "🧳 "
            + _(
                "Passenger travelling: {path}",
                path=" → ".join([journey["start"], *journey.get("cities", [])]),
            )
            + " · "
            + _n("{n} pt collected", "{n} pts collected", points)
            + " · "
            + _n("{n} fare paid", "{n} fares paid", int(journey.get("fares") or 0))
        )
    if view.get("tunnel"):
        t = view["tunnel"]
        owed = int(t.get("surcharge") or 0)
        colour = f" ({card_name(str(t['colour']))})" if t.get("colour") else ""
        lines.append(
            _n(
                "Tunnel {route}: revealed {cards}; {n} extra card owed",
                "Tunnel {route}: revealed {cards}; {n} extra cards owed",
                owed,
                route=_route({"track": t["track"], "board": view.get("board")}),
                cards=", ".join(card_name(str(c)) for c in t.get("revealed") or []),
            )
            + colour
        )
    if view.get("phase") == "setup" and view.get("notes"):
        # the opening's boards say once in words what the pictures' small print says: which of the
        # board's data is not the published game's (Märklin's tickets and merchandise)
        lines.append("ℹ " + " ".join(note_words(str(n)) for n in view["notes"]))
    return "\n".join(lines)


def hand_text(view: dict[str, Any]) -> str:
    """The viewer's hand, tickets and pending ticket offer. PRIVATE: ephemeral/terminal only."""
    you = view.get("you") or {}
    lines = []
    hand = you.get("hand") or {}
    lines.append(
        _(
            "Your cards: {cards}",
            cards=cards_words(hand, emoji=True) if any(hand.values()) else _("none"),
        )
    )
    tickets = you.get("tickets") or []
    if tickets:
        lines.append(_("Your tickets:"))
        for t in tickets:
            mark = "✅" if t.get("completed") else "⬜"
            lines.append(f"  {mark} {t['id']}: {t.get('text') or t['origin']}")
    else:
        lines.append(_("Your tickets: none yet"))
    offer = you.get("offer")
    if offer:
        lo, hi = you.get("keep_min"), you.get("keep_max")
        lines.append(_("Tickets offered (keep {low}–{high}):", low=lo, high=hi))
        for t in offer:
            lines.append(f"  {t['id']}: {t.get('text') or t['origin']}")
    return "\n".join(lines)


def last_action_words(last: dict[str, Any], view: dict[str, Any]) -> str:
    """The board's "last move" in the reader's language (its kind and the routes or city it names)."""
    kind = last.get("kind")
    tracks = [_route({"track": t, "board": view.get("board")}) for t in last.get("tracks") or []]
    cities = list(last.get("cities") or [])
    if kind == "claim" and tracks:
        return _("claimed {route}", route=tracks[0])
    if kind == "tunnel_withdraw" and tracks:
        return _("withdrew from {route}", route=tracks[0])
    if kind == "station" and cities:
        return _("station in {city}", city=cities[0])
    if kind == "passenger" and cities:
        return _("passenger from {city}", city=cities[0])
    if kind == "tickets":
        return _("drew tickets")
    if kind == "draw":
        return _("drew cards")
    if kind == "tunnel" and tracks:
        return _("tunnel {route}", route=tracks[0])
    if kind == "pass":
        return _("passed")
    if kind == "skip_turn":
        return _("turn skipped")
    return str(last.get("text", ""))


def score_words(label: str) -> str | None:
    """A final-score label of the registry entry (``"Tickets completed"``) in the reader's language."""
    words = {
        "Routes": _p("score", "Routes"),
        "Tickets completed": _p("score", "Tickets completed"),
        "Tickets failed": _p("score", "Tickets failed"),
        "Unused stations": _p("score", "Unused stations"),
        "Merchandise": _p("score", "Merchandise"),
        "Longest path bonus": _p("score", "Longest path bonus"),
        "Most tickets bonus": _p("score", "Most tickets bonus"),
    }
    return words.get(label)


FORCED_KEEP = re.compile(
    r"the rules make every player keep at least (\d+) of the tickets offered \((\d+) tickets? kept\)"
)
FORCED_DRAW = "the rules make a player who drew one card draw a second (taken from the deck)"


def forced_words(clause: str) -> str | None:
    """A forced-move clause of Ticket to Ride's timeout (``rules.ttr.timeout``) in the reader's
    language; None for a clause that is not one of them."""
    keep = FORCED_KEEP.fullmatch(clause)
    if keep:
        return _n(
            "the rules make every player keep at least {n} of the tickets offered ({n} ticket kept)",
            "the rules make every player keep at least {n} of the tickets offered ({n} tickets kept)",
            int(keep[1]),
        )
    if clause == FORCED_DRAW:
        return _("the rules make a player who drew one card draw a second (taken from the deck)")
    return None


# The text form of Ticket to Ride's moves, the terminal's help.
TERMINAL_HELP = N_(
    "Type an action: draw deck | draw face 0..4 | claim EU034 red=3,locomotive=1 | tickets draw |"
    " tickets keep ID,ID | station Berlin red=2 | tunnel pay red=1 | tunnel withdraw |"
    " passenger start Berlin | passenger travel DE008 | passenger stop | pass"
)


def terminal_help() -> str:
    return _(TERMINAL_HELP)
