"""Ticket to Ride in words: the public board summary, a seat's hand and tickets, public scores.

Pure formatting from the service's views (the registry names this module as the game's
presenter); :func:`hand_text` takes the seat's own view and is shown only privately.
"""

from __future__ import annotations

from typing import Any

from bot.present import seat_names

CARD_EMOJI = {
    "red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "blue": "🟦", "pink": "🟪",
    "black": "⬛", "white": "⬜", "locomotive": "🌈", "plus4": "➕", "passenger": "🧳",
}


def card_label(name: str | None) -> str:
    if name is None:
        return "(empty)"
    return f"{CARD_EMOJI.get(name, '')} {name}".strip()


def map_key(view: dict[str, Any]) -> Any:
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
    return " ".join(f"{CARD_EMOJI.get(c, '▫️')}{c}" if c else "▫️empty" for c in face)


STEP = {"draw_second": " (second card)", "tickets": " (choosing tickets)", "tunnel": " (tunnel payment)"}


def board_text(view: dict[str, Any], *, title: str | None = None) -> str:
    """The public board in words, enough without the image: who is to act and by when, every
    seat's score, trains, cards, tickets (and stations/passengers), the face-up cards, final-round
    warnings. No hand, no tickets. Fits in one Discord message."""
    names = seat_names(view)
    lines: list[str] = []
    head = title or f"Game #{view.get('game_id', '?')} · {view.get('board_name', view.get('board', ''))}"
    lines.append(f"**{head}** · turn {view.get('turn', 0)}")
    deadline = view.get("deadline")
    by = f" · ⏳ <t:{int(deadline)}:R>" if deadline else ""
    to_act = list(view.get("to_act") or [])
    if view.get("phase") == "setup":
        waiting = ", ".join(f"**{names[s]}**" for s in to_act)
        drawing = [s["seat"] for s in view.get("seats", []) if s["seat"] in to_act and not s.get("choosing_tickets")]
        if drawing:  # Märklin: the starting tickets are drawn (short/long mix) before they are chosen
            lines.append(f"▶ Opening: press **Draw tickets** first, then choose your tickets: {waiting}{by}")
        else:
            lines.append(f"▶ Choosing starting tickets (**Choose tickets** button): {waiting}{by}")
    elif view.get("current") is not None and view.get("phase") == "play":
        lines.append(f"▶ To play: **{names[view['current']]}**{STEP.get(view.get('pending') or '', '')}{by}")
    if view.get("final_round"):
        lines.append(f"⚠ **Final round**: {view.get('final_turns_left')} turn(s) left, then the game ends.")
    face = view.get("face_up") or []
    if face:
        sizes = view.get("ticket_deck_sizes") or {}
        tickets = " + ".join(f"{v} {k}" for k, v in sizes.items() if v) or "0"
        lines.append(f"Face up: {face_up_text(face)}")
        lines.append(f"Deck {view.get('deck_size', 0)} · discards {view.get('discard_size', 0)} · tickets left {tickets}")
    for s in view.get("seats", []):
        i = s["seat"]
        extra = ""
        if s.get("stations"):
            extra += f" · 🏠 {s['stations']} stations"
        if s.get("passengers"):
            extra += f" · 🧳 {s['passengers']} passengers"
        claimed = sum(1 for seat in (view.get("claims") or {}).values() if seat == i)
        mark = "▶" if i in to_act else "·"
        lines.append(
            f"{mark} {names[i]}: **{s['score']}** pts · 🚃 {s['trains']} trains · {s['cards']} cards"
            f" · {s['tickets']} tickets · {claimed} routes{extra}"
        )
    la = view.get("last_action")
    if la:
        lines.append(f"Last: {names[la['seat']] if la.get('seat') is not None else ''} {la.get('text', '')}".strip())
    if view.get("tunnel"):
        t = view["tunnel"]
        owed = f" {t['colour']}" if t.get("colour") else ""
        lines.append(f"Tunnel {t['track']}: revealed {', '.join(t['revealed'])}; {t['surcharge']} extra{owed} card(s) owed")
    return "\n".join(lines)


def hand_text(view: dict[str, Any]) -> str:
    """The viewer's hand, tickets and pending ticket offer. PRIVATE: ephemeral/terminal only."""
    you = view.get("you") or {}
    lines = []
    hand = you.get("hand") or {}
    lines.append("Your cards: " + (", ".join(f"{n} {card_label(c)}" for c, n in hand.items() if n) or "none"))
    tickets = you.get("tickets") or []
    if tickets:
        lines.append("Your tickets:")
        for t in tickets:
            mark = "✅" if t.get("completed") else "⬜"
            lines.append(f"  {mark} {t['id']}: {t.get('text') or t['origin']}")
    else:
        lines.append("Your tickets: none yet")
    offer = you.get("offer")
    if offer:
        lo, hi = you.get("keep_min"), you.get("keep_max")
        lines.append(f"Tickets offered (keep {lo}–{hi}):")
        for t in offer:
            lines.append(f"  {t['id']}: {t.get('text') or t['origin']}")
    return "\n".join(lines)
