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


def board_text(view: dict[str, Any], *, title: str | None = None) -> str:
    """A compact public board summary (no hand, no tickets). Fits in one Discord message."""
    names = seat_names(view)
    lines: list[str] = []
    head = title or f"Game #{view.get('game_id', '?')} · {view.get('board_name', view.get('board', ''))}"
    lines.append(f"**{head}** · turn {view.get('turn', 0)} · phase {view.get('phase')}")
    if view.get("phase") == "setup":
        waiting = ", ".join(names[s] for s in view.get("to_act", []))
        lines.append(f"Choosing starting tickets: {waiting}")
    elif view.get("current") is not None:
        step = {"draw_second": " (second card)", "tickets": " (choosing tickets)", "tunnel": " (tunnel payment)"}
        lines.append(f"To play: **{names[view['current']]}**{step.get(view.get('pending') or '', '')}")
    if view.get("final_round"):
        lines.append(f"Final round: {view.get('final_turns_left')} turn(s) left")
    face = view.get("face_up") or []
    if face:
        lines.append("Face up: " + " | ".join(f"{i}: {card_label(c)}" for i, c in enumerate(face)))
        lines.append(f"Deck {view.get('deck_size', 0)} · discards {view.get('discard_size', 0)} · tickets "
                     + ", ".join(f"{k} {v}" for k, v in (view.get("ticket_deck_sizes") or {}).items()))
    for s in view.get("seats", []):
        i = s["seat"]
        extra = ""
        if s.get("stations"):
            extra += f" · stations {s['stations']}"
        if s.get("passengers"):
            extra += f" · passengers {s['passengers']}"
        claimed = sum(1 for seat in (view.get("claims") or {}).values() if seat == i)
        lines.append(
            f"{'▶ ' if i in view.get('to_act', []) else '  '}{names[i]}: {s['score']} pts · trains {s['trains']}"
            f" · cards {s['cards']} · tickets {s['tickets']} · routes {claimed}{extra}"
        )
    la = view.get("last_action")
    if la:
        lines.append(f"Last: {names[la['seat']] if la.get('seat') is not None else ''} {la.get('text', '')}".strip())
    if view.get("tunnel"):
        t = view["tunnel"]
        lines.append(f"Tunnel {t['track']}: revealed {', '.join(t['revealed'])}; {t['surcharge']} extra card(s)")
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
