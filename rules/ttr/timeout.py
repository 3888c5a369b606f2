"""What Ticket to Ride does for a seat whose turn timed out under the "skip" policy.

A skipped turn must not give the seat anything (no card, no ticket). The engine's public moves
allow that in some states only; where a rule forces a move, the move is the least eventful one
and the rule is named:

* a tunnel waiting for payment: withdraw (the cards go back to the hand; nothing is drawn);
* no move possible at all: ``pass`` (rule 2);
* tickets waiting to be chosen (the opening offer or a draw): the rules make the seat keep the
  minimum, so the first tickets of the offer are kept;
* one card drawn and a second to draw: the rules make a player who drew one card draw a second,
  so it is taken from the deck;
* the start of an ordinary turn: ``skip turn``, a move only the timer makes, ends the turn with
  no effect (the rules have no pass while a move is possible, so players can never send it);
* a Märklin passenger journey under way (its routes are chosen one at a time): if the passenger
  has travelled at least one route, the journey ends where it is (``passenger stop``): what it
  collected stays collected, and the rules then remove the passenger (rule 27), so nothing more
  is gained; if it has only been chosen and has not moved, ``skip turn`` passes the turn and the
  passenger stays where it stood, as if it had never set off.

An AI that takes over a seat mid-journey simply goes on from where the passenger is: the journey
is public state, and the AI plans the rest of it from there (``TTRGame.passenger_journeys``).
"""

from __future__ import annotations

from typing import Any

from rules.registry import TurnSkip
from rules.ttr import actions as A


def skip_turn(game: Any, seat: int) -> TurnSkip | None:
    """How ``seat``'s timed-out turn passes (see the module docstring); None when no move fits."""
    legal = list(game.legal_actions(seat))
    if not legal:
        return None
    kinds = {a.kind for a in legal}
    if kinds == {"pass"}:
        return TurnSkip(A.Pass())
    if "tunnel_withdraw" in kinds:
        return TurnSkip(A.WithdrawTunnel())
    keeps = [a for a in legal if isinstance(a, A.KeepTickets)]
    if keeps:
        fewest = min(keeps, key=lambda a: (len(a.ids), a.ids))
        n = len(fewest.ids)
        return TurnSkip(
            fewest,
            f"the rules make every player keep at least {n} of the tickets offered"
            f" ({n} ticket{'s' if n != 1 else ''} kept)",
        )
    journey = game.state.journey
    if game.state.pending == "passenger" and journey is not None:
        if journey["tracks"]:
            return TurnSkip(
                A.EndJourney(),
                "the passenger's journey ends where it is, and the passenger leaves the game (rule 27)",
            )
        return TurnSkip(A.SkipTurn())  # chosen but not moved: it stays where it stood
    if game.state.phase == "play" and game.state.pending is None:
        return TurnSkip(A.SkipTurn())  # the start of an ordinary turn: it passes, nothing drawn
    if getattr(game, "pending", None) == "draw_second":
        deck = [a for a in legal if isinstance(a, A.DrawDeck)]
        if deck:
            return TurnSkip(
                deck[0], "the rules make a player who drew one card draw a second (taken from the deck)"
            )
    return None
