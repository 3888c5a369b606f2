"""Which First Class moves can be taken back (``GameSpec.take_back``), within a turn as between
turns, and why the others cannot.

A move is final when a card came off a face-down pile (a row dealt or refilled from an Action
pile, a Game End card turned up to replace one taken or bought) or when it kept a card from a hand
passed in secret (the opening draft). Every other move (the start tile, a car, an upgrade, a
conductor, a choice, mail, a coin spent, a symbol skipped, a contract fulfilled, the end of a turn
that deals nothing) works on what everyone already sees, so it can be taken back.
"""

from __future__ import annotations

from rules import takeback
from rules.firstclass.game import FirstClassGame
from rules.protocol import Action, Event, Game


def take_back(before: Game, after: Game, seat: int, action: Action, events: list[Event]) -> str | None:
    """The reason ``action`` is final, or None when it can be taken back."""
    if not isinstance(before, FirstClassGame) or not isinstance(after, FirstClassGame):
        raise TypeError("not a First Class game")
    b, a = before.s, after.s
    if b.phase == "draft" or action.kind == "draft":
        return takeback.DRAFT
    if len(a.ge_pile) < len(b.ge_pile) or any(len(a.piles.get(k, ())) < len(v) for k, v in b.piles.items()):
        return takeback.HIDDEN_CARD
    return None
