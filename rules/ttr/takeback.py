"""Which Ticket to Ride moves can be taken back (``GameSpec.take_back``), and why the others cannot.

A move is final when it showed someone a card that was hidden: a blind draw, a face-up card whose
replacement came off the deck, a tunnel's revealed cards, tickets drawn or chosen from a draw. A
claim paid from a known hand, a station, a passenger's journey over public tokens, a face-up card
taken when nothing replaced it reveal nothing, so they can be taken back.
"""

from __future__ import annotations

from rules import takeback
from rules.protocol import Action, Event, Game
from rules.ttr.game import TTRGame


def take_back(before: Game, after: Game, seat: int, action: Action, events: list[Event]) -> str | None:
    """The reason ``action`` is final, or None when it can be taken back."""
    if not isinstance(before, TTRGame) or not isinstance(after, TTRGame):
        raise TypeError("not a Ticket to Ride game")
    kind = action.kind
    if kind == "draw_deck":
        return takeback.BLIND_DRAW
    if kind in ("draw_tickets", "keep_tickets"):
        return takeback.TICKETS
    if kind in ("tunnel_pay", "tunnel_withdraw") or any(e.get("type") == "tunnel_reveal" for e in events):
        return takeback.TUNNEL
    b, a = before.state, after.state
    # Anything that took a card off the face-down deck (a replacement, a refill after three
    # locomotives) showed it; a reshuffle alone shows nothing but is followed by such a draw.
    if len(a.deck) < len(b.deck) or a.shuffles != b.shuffles:
        return takeback.FACE_UP_REPLACED if kind == "draw_face" else takeback.BLIND_DRAW
    if any(len(a.ticket_decks.get(k, ())) < len(v) for k, v in b.ticket_decks.items()):
        return takeback.TICKETS
    return None
