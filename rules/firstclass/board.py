"""What a First Class position says about one seat: its trains, coins, route, contracts and the
queue of symbols it still has to answer. Queries only, but for the queue's own bookkeeping.

The engine's modules read a game through :class:`Position` (the card data, the config and the
live :class:`~rules.firstclass.state.GameState`), which :class:`~rules.firstclass.game.FirstClassGame`
satisfies; they never import the facade.
"""

from __future__ import annotations

from typing import Any, Protocol

from rules.firstclass.deck import Deck
from rules.firstclass.effects import NEXT_STEP, TRAINS, Station, parse_requirement
from rules.firstclass.state import GameState, PlayerState, ScoringState, Symbol

MAIL = -1  # a mail car in a train's car list: no value, never upgraded
COIN_COLUMNS = (5, 5, 2)
SUPPLY_PAIRS = {0: 0, 1: 0, 2: 1, 4: 1, 7: 2, 12: 2}  # double-sided cards 0/1, 2/4, 7/12
SUPPLY_CAPS = (50, 24, 20)
CATEGORIES = (
    "route_stations",
    "trains",
    "constantinople",
    "card_points",
    "coin_points",
    "game_end_cards",
    "coins_left",
)


class EngineLoopError(RuntimeError):
    """An engine loop went past its bound: a bug in the rules code or its data, reported, not hung on."""


class Position(Protocol):
    """A game as the engine's modules read and change it: the fixed frame and the live state."""

    players: int
    seed: int
    config: dict[str, Any]
    deck: Deck
    s: GameState


def player(g: Position, seat: int) -> PlayerState:
    return g.s.players[seat]


def scoring_state(g: Position) -> ScoringState:
    """The scoring phase in progress (only called when the phase is "scoring")."""
    if g.s.scoring is None:
        raise RuntimeError("no scoring phase is in progress")
    return g.s.scoring


def add_points(g: Position, seat: int, n: int, category: str) -> None:
    player(g, seat).points[category] += n


def score(g: Position, seat: int) -> int:
    return int(sum(player(g, seat).points.values()))


def route(g: Position, seat: int) -> tuple[Station, ...]:
    return g.deck.route(player(g, seat).route_cards)


def positions(g: Position, seat: int, train: str) -> int:
    pl = player(g, seat)
    return len(pl.trains[train]) + (1 if pl.tiles[train] is not None else 0)


def tile_value(g: Position, order: int) -> int:
    return next(t.value for t in g.deck.tiles if t.order == order)


def free_time(g: Position, seat: int) -> bool:
    """Whether ``seat`` may spend coins / fulfil contracts now (own turn or own scoring)."""
    s = g.s
    if s.phase == "play":
        return bool(s.active == seat)
    if s.phase == "scoring":
        return bool(scoring_state(g).order[scoring_state(g).index] == seat)
    return False


# --- cars -------------------------------------------------------------------------------------


def supply_ok(g: Position, value: int, replacing: int | None) -> bool:
    """Whether the supply has a card for ``value`` (only limited with car_supply=limited)."""
    if g.config["car_supply"] == "unlimited":
        return True
    pair = SUPPLY_PAIRS[value]
    if replacing is not None and SUPPLY_PAIRS[replacing] == pair:
        return True  # the same double-sided card is flipped
    in_use = sum(
        1 for pl in g.s.players for t in TRAINS for v in pl.trains[t] if v != MAIL and SUPPLY_PAIRS[v] == pair
    )
    return in_use < SUPPLY_CAPS[pair]


def can_lengthen(g: Position, seat: int, train: str) -> bool:
    pl = player(g, seat)
    return pl.tiles[train] is None and len(pl.trains[train]) < 9 and supply_ok(g, 0, None)


def upgrade_error(g: Position, seat: int, train: str, pos: int) -> str | None:
    """Why the car at ``pos`` (1-based) cannot be upgraded one step, or None if it can."""
    cars = player(g, seat).trains[train]
    if not 1 <= pos <= len(cars):
        return f"the {train} train has no railroad car at position {pos}"
    v = cars[pos - 1]
    if v == MAIL:
        return "mail cars can never be upgraded (rule: Special Cards)"
    if v == 12:
        return "a 12-value car is already at the top step (rule: upgrade a railroad car)"
    left = next((x for x in reversed(cars[: pos - 1]) if x != MAIL), None)
    if left is not None and left <= v:
        return (
            f"car {pos} is worth {v} like the car to its left: a car can never be worth more than the car to "
            "its left, so among equal cars the leftmost is upgraded first (rule: upgrade a railroad car)"
        )
    if not supply_ok(g, NEXT_STEP[v], v):
        return f"the supply has no {NEXT_STEP[v]}-value railroad car left (setting car_supply=limited)"
    return None


def legal_upgrades(g: Position, seat: int, value: int | None = None) -> list[tuple[str, int]]:
    """The (train, pos) pairs :func:`upgrade_error` allows, optionally only cars worth ``value``.

    Same test as upgrade_error, in one pass per train (this runs for every legal-action list)."""
    out: list[tuple[str, int]] = []
    limited = g.config["car_supply"] != "unlimited"
    for t in TRAINS:
        left: int | None = None  # the nearest non-mail car to the left
        for pos, v in enumerate(player(g, seat).trains[t], start=1):
            if v == MAIL:
                continue
            if (
                (value is None or v == value)
                and v != 12
                and (left is None or left > v)
                and (not limited or supply_ok(g, NEXT_STEP[v], v))
            ):
                out.append((t, pos))
            left = v
    return out


# --- coins and contracts ----------------------------------------------------------------------


def coins(g: Position, seat: int) -> int:
    return int(sum(player(g, seat).coins))


def coin_room(g: Position, seat: int) -> int:
    return sum(COIN_COLUMNS) - coins(g, seat)


def requirement_met(g: Position, seat: int, card_id: str) -> bool:
    pl = player(g, seat)
    for r in parse_requirement(g.deck.cards[card_id].requirement):
        cars = {t: [v for v in pl.trains[t] if v != MAIL] for t in TRAINS}
        if r.op == "count":
            counts = {t: sum(1 for v in cars[t] if v >= r.v) for t in TRAINS}
            ok = _by_train(counts, r.train, combine=True) >= r.n
        elif r.op == "cars":
            counts = {t: len(cars[t]) for t in TRAINS}
            ok = _by_train(counts, r.train, combine=True) >= r.n
        elif r.op == "cond":
            ok = _by_train(dict(pl.cond), r.train, combine=False) >= r.n
        elif r.op == "seq":
            has = {t: int(_has_seq(cars[t], r.values)) for t in TRAINS}
            ok = _by_train(has, r.train, combine=False) >= 1
        elif r.op == "loco":
            ok = pl.loco >= r.n
        elif r.op == "routecards":
            ok = len(pl.route_cards) >= r.n
        else:
            ok = coins(g, seat) >= r.n
        if not ok:
            return False
    return True


def _by_train(values: dict[str, int], train: str, combine: bool) -> int:
    """Requirement helper: one train's value, or both trains (summed for counts, best for 'any')."""
    if train in TRAINS:
        return values[train]
    if train == "both":
        return min(values.values())
    return sum(values.values()) if combine else max(values.values())


def _has_seq(cars: list[int], wanted: tuple[int, ...]) -> bool:
    """Consecutive cars worth at least the wanted values (a higher car counts as every lower value)."""
    for i in range(len(cars) - len(wanted) + 1):
        if all(cars[i + j] >= w for j, w in enumerate(wanted)):
            return True
    return False


# --- the queue of symbols ---------------------------------------------------------------------


def head(g: Position, seat: int) -> Symbol | None:
    pl = player(g, seat)
    if pl.pending:
        item: Symbol = pl.pending[0]
        return item
    if pl.bonus:
        item = pl.bonus[0]
        return item
    return None


def push_front(g: Position, seat: int, item: Symbol) -> None:
    pl = player(g, seat)
    (pl.pending if pl.pending else pl.bonus).insert(0, item)


def queue(g: Position, seat: int) -> list[Symbol]:
    """The queue being answered: the card's own symbols first, then the bonuses they triggered."""
    pl = player(g, seat)
    answered: list[Symbol] = pl.pending if pl.pending else pl.bonus
    return answered


def group(g: Position, seat: int) -> list[Symbol]:
    """The symbols answered now, in any order the player likes: the leading queue items from one
    source (one card, one bonus station, one mail car, one Game End card, one Locomotive tile...).

    Rulebook: "you can choose the order in which you receive an individual space's bonus", "You
    can also upgrade the same railroad car multiple times, provided you have the right upgrade
    actions to do so"; a card's actions are all decided before any bonus is received, and each
    bonus space in full before the next."""
    items = queue(g, seat)
    if not items:
        return []
    src = items[0].src
    n = 0
    while n < len(items) and items[n].src == src:
        n += 1
    return items[:n]


def remove_item(g: Position, seat: int, item: Symbol) -> None:
    items = queue(g, seat)
    for i, x in enumerate(items):
        if x is item:
            del items[i]
            return
    raise EngineLoopError(f"symbol {item!r} is not in the queue of seat {seat}")
