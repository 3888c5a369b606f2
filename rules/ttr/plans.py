"""Which turns a Ticket to Ride player can plan (``GameSpec.plans``), and what upsets a plan.

Steps (text forms, as typed and stored)::

    claim EU034 red=3,locomotive=1   if the route is free and I can pay it with these cards, claim it
    locomotive                       if a face-up locomotive shows, take it
    colour red                       if a face-up red shows, take it; then another face-up red if
                                     one shows, else a card from the deck
    deck                             draw two cards from the deck

A plan is played only from the very start of its seat's turn. It is dropped, and its player told
why, when another seat takes a route a claim step names (or closes its double), when the last
round begins, when a planned claim turns out a tunnel whose extra cards the player must answer,
or when the turn begins with tickets to choose.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules import plans
from rules.errors import IllegalAction
from rules.plans import Disarm, PlanRules, Step
from rules.protocol import Action, Event, Game
from rules.text import shown
from rules.ttr import actions as A
from rules.ttr.board import Track
from rules.ttr.colours import CARD_INDEX, COLOURS, LOCO
from rules.ttr.game import TTRGame

CLAIM, LOCOMOTIVE, COLOUR, DECK = "claim", "locomotive", "colour", "deck"
KINDS = (CLAIM, LOCOMOTIVE, COLOUR, DECK)
# A menu offers at most this many claims (Discord menus hold 25 choices, the draws take the rest).
MENU_CLAIMS = 12


def _game(game: Game) -> TTRGame:
    if not isinstance(game, TTRGame):
        raise TypeError("not a Ticket to Ride game")
    return game


def parse_step(text: str) -> Step:
    words = text.strip().split()
    if not words:
        raise IllegalAction("malformed_step", "A step cannot be empty.")
    kind = words[0].lower()
    if kind == CLAIM:
        claim = A.parse_action(" ".join(words))
        if not isinstance(claim, A.ClaimRoute):
            raise IllegalAction(
                "malformed_step", "A claim step is written like: claim EU034 red=3,locomotive=1."
            )
        args = (claim.track, A.cards_text(claim.cards))
        return Step(CLAIM, args + ((f"passenger={claim.passenger}",) if claim.passenger else ()))
    if kind in ("locomotive", "loco") and len(words) == 1:
        return Step(LOCOMOTIVE)
    if kind in ("colour", "color") and len(words) == 2:
        colour = words[1].lower()
        colour = "pink" if colour == "purple" else colour
        if colour not in COLOURS:
            raise IllegalAction(
                "malformed_step", f"{shown(words[1])} is not a card colour; colours are {', '.join(COLOURS)}."
            )
        return Step(COLOUR, (colour,))
    if kind == DECK and len(words) == 1:
        return Step(DECK)
    raise IllegalAction(
        "malformed_step",
        f"Could not read the step {shown(text.strip())}: steps are claim ROUTE CARDS, locomotive, "
        "colour COLOUR and deck.",
    )


def _claim(step: Step) -> A.ClaimRoute:
    action = A.parse_action(CLAIM + " " + " ".join(step.args))
    assert isinstance(action, A.ClaimRoute)
    return action


def _track(game: TTRGame, step: Step) -> Track:
    return game._track(step.args[0])


def check(game: Game, seat: int, step: Step) -> None:
    g = _game(game)
    if step.kind == CLAIM:
        track = _track(g, step)  # an unknown route is refused with the engine's own sentence
        claim = _claim(step)
        if sum(n for _, n in claim.cards) != track.length:
            raise IllegalAction(
                "plan_payment",
                f"{track.label} needs {track.length} cards; the plan pays {A.describe_cards(claim.cards)}.",
                route=track.label,
                length=track.length,
            )


def choices(game: Game, seat: int) -> list[Step]:
    """Claims the seat could pay now from its hand (longest first, one payment each, the one
    spending fewest locomotives), then the draws."""
    g = _game(game)
    out: list[Step] = []
    tracks = sorted(g.board.tracks, key=lambda t: (-t.length, t.id))
    for track in tracks:
        if len(out) >= MENU_CLAIMS:
            break
        if g._claim_blocker(seat, track) is not None:
            continue
        payments = g.claim_payments(seat, track)
        if not payments:
            continue
        best = min(payments, key=lambda cards: (dict(cards).get("locomotive", 0), A.cards_text(cards)))
        out.append(Step(CLAIM, (track.id, A.cards_text(best))))
    out.append(Step(LOCOMOTIVE))
    out.extend(Step(COLOUR, (c,)) for c in COLOURS)
    out.append(Step(DECK))
    return out


def ready(game: Game, seat: int) -> bool:
    st = _game(game).state
    return st.phase == "play" and st.current == seat and st.pending is None


def blocked(game: Game, seat: int) -> Disarm | None:
    st = _game(game).state
    if st.phase == "setup" or st.pending == "tickets":
        return Disarm(plans.TICKETS)
    if st.pending is not None:
        return Disarm(plans.NOT_READY)
    return None


def _slot(game: TTRGame, card: int) -> int | None:
    return next((i for i, c in enumerate(game.state.face_up) if c == card), None)


def _deck_has_cards(game: TTRGame) -> bool:
    return bool(game.state.deck or game.state.discard)


def holds(game: Game, seat: int, step: Step) -> bool:
    g = _game(game)
    action = next_action(g, seat, step, 0)
    return action is not None and plans.is_legal(g, seat, action)


def next_action(game: Game, seat: int, step: Step, n: int) -> Action | None:
    g = _game(game)
    second = n > 0
    if second and (g.state.current != seat or g.state.pending != "draw_second"):
        return None  # the step's turn is over (or waits on something it did not plan)
    if step.kind == CLAIM:
        return _claim(step) if not second else None
    if step.kind == LOCOMOTIVE:
        slot = _slot(g, LOCO)
        return A.DrawFaceUp(slot) if slot is not None and not second else None
    if step.kind == COLOUR:
        slot = _slot(g, CARD_INDEX[step.args[0]])
        if slot is not None:
            return A.DrawFaceUp(slot)
        if second and _deck_has_cards(g):
            return A.DrawDeck()
        return None
    if step.kind == DECK:
        return A.DrawDeck() if _deck_has_cards(g) else None
    return None


def upset(
    before: Game,
    after: Game,
    actor: int,
    action: Action,
    events: list[Event],
    owner: int,
    steps: Sequence[Step],
) -> Disarm | None:
    b, a = _game(before), _game(after)
    if actor != owner:
        for step in steps:
            if step.kind != CLAIM:
                continue
            try:
                track = _track(a, step)
            except IllegalAction:
                continue
            if b._claim_blocker(owner, track) is None and a._claim_blocker(owner, track) is not None:
                return Disarm(plans.ROUTE_TAKEN, {"route": track.label, "seat": actor})
    if actor != owner and b.state.final_turns_left is None and a.state.final_turns_left is not None:
        return Disarm(plans.LAST_ROUND, {"seat": actor})
    return None


def stopped(game: Game, seat: int, step: Step) -> Disarm | None:
    st = _game(game).state
    if st.current == seat and st.pending == "tunnel":
        return Disarm(plans.TUNNEL, {"route": _track(_game(game), step).label})
    return None


RULES = PlanRules(
    kinds=KINDS,
    parse_step=parse_step,
    check=check,
    choices=choices,
    ready=ready,
    blocked=blocked,
    holds=holds,
    next_action=next_action,
    upset=upset,
    stopped=stopped,
    example="claim US002 blue=5; locomotive; colour red; deck",
)
