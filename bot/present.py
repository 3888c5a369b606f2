"""Presentation shared by the Discord cogs and the terminal: text boards, hands, scores, hints,
and the optional board image from :mod:`render` (used when the renderer is installed).

Everything here is pure formatting from a game *view*; public functions take the spectator view
and private ones (``hand_text``) the seat's own view, so a caller cannot leak a hand by mistake
as long as it sends ``hand_text`` only ephemerally.
"""

from __future__ import annotations

import importlib
import logging
import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("conductor.present")

CARD_EMOJI = {
    "red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "blue": "🟦", "pink": "🟪",
    "black": "⬛", "white": "⬜", "locomotive": "🌈", "plus4": "➕", "passenger": "🧳",
}


def fold(text: str) -> str:
    """Accent- and case-insensitive key: ``"Zürich"`` and ``"zurich"`` fold alike."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().replace("ß", "ss")
    return plain.replace("–", "-").replace("—", "-").replace(" - ", "-")


def card_label(name: str | None) -> str:
    if name is None:
        return "(empty)"
    return f"{CARD_EMOJI.get(name, '')} {name}".strip()


def is_ttr(view: dict[str, Any]) -> bool:
    return view.get("game") == "ttr"


def seat_count(view: dict[str, Any]) -> int:
    n = view.get("players_count", view.get("players"))
    if isinstance(n, list):
        return len(n)
    return int(n) if n is not None else len(view.get("names") or [])


def seat_names(view: dict[str, Any]) -> list[str]:
    names = view.get("names") or []
    return [names[i] if i < len(names) else f"Seat {i}" for i in range(seat_count(view))]


def generic_board_text(view: dict[str, Any]) -> str:
    """A public summary for games other than Ticket to Ride (First Class …)."""
    names = seat_names(view)
    title = str(view.get("game_name", view.get("game", "game"))).replace("-", " ").title()
    lines = [f"**Game #{view.get('game_id', '?')} · {title}** · phase {view.get('phase')}"
             + (f" · round {view['round']}" if "round" in view else "")]
    to_act = view.get("seats_to_act", view.get("to_act")) or []
    if to_act:
        lines.append("To play: " + ", ".join(f"**{names[s]}**" for s in to_act if s < len(names)))
    players = view.get("players")
    if isinstance(players, list):
        for p in players:
            if isinstance(p, dict) and "seat" in p:
                lines.append(f"  {names[p['seat']]}: {p.get('score', 0)} pts")
    return "\n".join(lines)


def board_text(view: dict[str, Any], *, title: str | None = None) -> str:
    """A compact public board summary (no hand, no tickets). Fits in one Discord message."""
    if not is_ttr(view):
        return generic_board_text(view)
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
    if not is_ttr(view):
        viewer = view.get("viewer")
        names = seat_names(view)
        who = names[viewer] if isinstance(viewer, int) and viewer < len(names) else "you"
        return f"Your seat: {who}. Your legal moves are listed below and in /play action."
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


def scores_text(view: dict[str, Any]) -> str:
    """Current scores, or the final breakdown once the game is over."""
    names = seat_names(view)
    final = view.get("final")
    if final:
        lines = ["**Final scores**"]
        for f in sorted(final, key=lambda f: f.get("rank", 0)):
            parts = ", ".join(f"{k} {v}" for k, v in (f.get("breakdown") or {}).items())
            lines.append(f"{f.get('rank', '?')}. {names[f['seat']]}: **{f['total']}** ({parts})")
        return "\n".join(lines)
    seats = view.get("seats") if is_ttr(view) else view.get("players")
    return "\n".join(f"{names[s['seat']]}: {s.get('score', 0)}" for s in (seats or []) if isinstance(s, dict))


def final_text(scores: list[dict[str, Any]], names: list[str]) -> str:
    lines = ["**Final scores**"]
    for f in sorted(scores, key=lambda f: f.get("rank", 0)):
        parts = ", ".join(f"{k} {v}" for k, v in (f.get("breakdown") or {}).items())
        lines.append(f"{f.get('rank', '?')}. {names[f['seat']]}: **{f['total']}** ({parts})")
    return "\n".join(lines)


def action_hints(legal: Iterable[Any], limit: int = 12) -> str:
    """A short summary of legal actions by kind, with a few examples."""
    by_kind: dict[str, list[str]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a.to_text())
    counts = Counter({k: len(v) for k, v in by_kind.items()})
    lines = []
    for kind, _ in counts.most_common():
        examples = by_kind[kind][: 3 if len(by_kind) > 1 else limit]
        more = f" (+{len(by_kind[kind]) - len(examples)} more)" if len(by_kind[kind]) > len(examples) else ""
        lines.append(f"{kind}: " + " | ".join(examples) + more)
    return "\n".join(lines)


def _renderer(view: dict[str, Any]) -> Any | None:
    name = "render.ttr" if is_ttr(view) else "render.firstclass" if view.get("game_name") == "first-class" else ""
    if not name:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _call(view: dict[str, Any], what: str, ttr_fn: str, other_fn: str, *args: Any, **kwargs: Any) -> bytes | None:
    module = _renderer(view)
    fn = getattr(module, ttr_fn if is_ttr(view) else other_fn, None) if module is not None else None
    if fn is None:
        return None
    try:
        return bytes(fn(view, *args, **kwargs))
    except Exception:  # noqa: BLE001 - a broken image must never stop a game; text is posted instead
        log.exception("%s render failed", what)
        return None


def render_board_png(view: dict[str, Any]) -> bytes | None:
    """The board image for a public view, or None when no renderer is installed or it fails."""
    if is_ttr(view):
        return _call(view, "board", "render_board", "", names=seat_names(view))
    return _call(view, "board", "", "render_table")


def render_hand_png(view: dict[str, Any]) -> bytes | None:
    """The private image for one seat's view (ephemeral only), or None."""
    if is_ttr(view):
        return _call(view, "hand", "render_hand", "", names=seat_names(view))
    viewer = view.get("viewer")
    return _call(view, "hand", "", "render_player_board", viewer) if isinstance(viewer, int) else None


def render_summary_png(view: dict[str, Any]) -> bytes | None:
    """The end-of-game summary image (Ticket to Ride), or None."""
    return _call(view, "summary", "render_summary", "", names=seat_names(view)) if is_ttr(view) else None
