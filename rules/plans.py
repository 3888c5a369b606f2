"""Planned turns: while it is not your turn, you plan what to do when it comes (issue 31).

A plan is an ordered list of conditional steps ("if route X is free and I can pay it, claim it
with these cards; else if a face-up locomotive shows, take it; else draw two from the deck"). When
the seat's turn comes the service evaluates it at once, on one state, under the game's lock: the
first step whose condition holds is played as if the player had pressed its buttons, move by move
(each an ordinary action of the log, so a game stays ``config + seed + actions``). A plan disarms
itself when something it did not foresee happens to its player (a route it names taken, the last
round begun, a tunnel's cards to answer, tickets to choose): it is dropped and the player is told
why, privately, and pinged as usual.

Each game says, in its own package, which steps it supports and what their conditions mean
(:class:`PlanRules`, ``GameSpec.plans``); this module holds what every game shares: the step,
the plan's text and JSON forms and the reason codes of a disarmed plan.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.errors import IllegalAction
from rules.protocol import JSON, Action, Event, Game

MAX_STEPS = 5
"""A plan's steps at most: three or four cover every real turn; more would be a program."""

# Why a plan was dropped before it played (a game's rules return one of these).
ROUTE_TAKEN = "route_taken"
"""Another seat claimed a route a step of the plan claims."""
LAST_ROUND = "last_round"
"""The last round began: the player may want to think again."""
TUNNEL = "tunnel"
"""The planned claim is a tunnel: its extra cards came out and the player answers them."""
TICKETS = "tickets"
"""The player has tickets to choose, which no plan can do for them."""
NOT_READY = "not_ready"
"""The turn began in the middle of something the plan does not cover."""
NO_STEP = "no_step"
"""No step's condition held when the turn came."""
REASONS = (ROUTE_TAKEN, LAST_ROUND, TUNNEL, TICKETS, NOT_READY, NO_STEP)


@dataclass(frozen=True)
class Step:
    """One conditional step: a kind the game declares and its arguments (a route, cards, a colour)."""

    kind: str
    args: tuple[str, ...] = ()

    def to_text(self) -> str:
        return " ".join((self.kind, *self.args))


@dataclass(frozen=True)
class Disarm:
    """Why a plan stopped: a reason code (see :data:`REASONS`) and the facts its sentence names
    (``route``: a route's id, ``seat``: the seat that took it)."""

    code: str
    facts: Mapping[str, str | int] = field(default_factory=dict)


@dataclass(frozen=True)
class PlanRules:
    """What a game supports of planned turns.

    ``kinds`` names the step kinds it offers (front ends word them through the game's words).
    ``parse_step(text)`` reads one step (raises :class:`IllegalAction` with a clear sentence);
    ``check(game, seat, step)`` refuses a step that can never be played in this game (a route
    that does not exist, cards the board has no use for), again with :class:`IllegalAction`.
    ``choices(game, seat)`` lists steps worth offering in a menu now (routes the seat could pay,
    the draws). ``ready(game, seat)`` says the seat stands at the very start of a turn a plan can
    play (not halfway through a draw or a tunnel); ``blocked(game, seat)`` names why a turn
    cannot be planned at all when it comes (tickets to choose), or None. ``holds(game, seat,
    step)`` is the step's condition; ``next_action(game, seat, step, n)`` is the step's ``n``-th
    move (from 0) in the state after the earlier ones, or None when the step is done.
    ``upset(before, after, actor, action, events, owner, plan)`` says whether a move by
    ``actor`` changed something the ``owner``'s plan did not foresee (a :class:`Disarm`), or None;
    ``stopped(game, seat, step)`` why a step played in part left its player a decision (a tunnel).
    """

    kinds: tuple[str, ...]
    parse_step: Callable[[str], Step]
    check: Callable[[Game, int, Step], None]
    choices: Callable[[Game, int], list[Step]]
    ready: Callable[[Game, int], bool]
    blocked: Callable[[Game, int], Disarm | None]
    holds: Callable[[Game, int, Step], bool]
    next_action: Callable[[Game, int, Step, int], Action | None]
    upset: Callable[[Game, Game, int, Action, list[Event], int, Sequence[Step]], Disarm | None]
    stopped: Callable[[Game, int, Step], Disarm | None] = lambda game, seat, step: None
    example: str = ""
    """A whole plan in its text form, for a terminal's help."""


def parse_plan(rules: PlanRules, text: str) -> tuple[Step, ...]:
    """Steps written one after the other, separated by ``;`` or new lines (first tried first)."""
    parts = [p.strip() for chunk in text.split("\n") for p in chunk.split(";")]
    parts = [p for p in parts if p]
    if not parts:
        raise IllegalAction("empty_plan", "A plan needs at least one step.")
    if len(parts) > MAX_STEPS:
        raise IllegalAction("plan_too_long", f"A plan has at most {MAX_STEPS} steps.", steps=MAX_STEPS)
    steps = tuple(rules.parse_step(p) for p in parts)
    for step in steps:
        if step.kind not in rules.kinds:
            raise IllegalAction("unknown_step", f"{step.kind!r} is not a step this game plans.")
    return steps


def plan_text(steps: Sequence[Step]) -> str:
    """The plan as it is stored and typed: its steps' texts separated by ``; ``."""
    return "; ".join(step.to_text() for step in steps)


def to_json(steps: Sequence[Step]) -> JSON:
    return [step.to_text() for step in steps]


def from_json(rules: PlanRules, data: JSON) -> tuple[Step, ...]:
    """A stored plan (a list of step texts)."""
    if not isinstance(data, list):
        raise IllegalAction("malformed_plan", "A stored plan is a list of steps.")
    return tuple(rules.parse_step(str(text)) for text in data)


def first_step(rules: PlanRules, game: Game, seat: int, steps: Sequence[Step]) -> int | None:
    """The index of the first step whose condition holds now (None: none does)."""
    for i, step in enumerate(steps):
        if rules.holds(game, seat, step):
            return i
    return None


def is_legal(game: Game, seat: int, action: Action) -> bool:
    """Whether ``action`` is legal for ``seat`` now, tried on a copy (what a condition "can I
    play it" means; the copy's draws are thrown away with it, so nothing hidden is learnt)."""
    try:
        game.copy().apply(seat, action)
    except IllegalAction:
        return False
    return True
