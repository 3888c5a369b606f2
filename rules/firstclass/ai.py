"""Computer players for First Class.

:class:`RandomAI` picks uniformly among the legal actions. :class:`HeuristicAI` looks one action
ahead with a position estimate (points so far, what the trains will score in the remaining
scoring phases, route bonuses, coins and Game End multipliers); for taking a card it also plays
out the card's symbols with a quick rule so that cards are compared by what they end up giving.
"""

from __future__ import annotations

import random

from rules.firstclass.actions import Action
from rules.firstclass.effects import NEXT_STEP, TRAINS
from rules.firstclass.game import MAIL, FirstClassGame


def _phases_left(game: FirstClassGame) -> int:
    return 3 - (game.s.round - 1) // 2


# How likely the locomotive reaches the 1st, 2nd, ... station ahead of it before the game ends.
ROUTE_REACH = (0.6, 0.45, 0.3, 0.2, 0.1)
# What moving from last to first in the turn order of one round is worth (points, per player count).
START_PLAYER_WEIGHT = {2: 6.0, 3: 6.0, 4: 6.0}
# How likely the player with the last turn of a round takes a still-free Start Player tile.
TILE_TAKE_CHANCE = 1.0


def start_player_value(game: FirstClassGame, seat: int, weight: float | None = None) -> float:
    """The worth of ``seat``'s place in the turn order of the next round (and its scoring phase).

    The start player picks first from 18 cards every round until someone takes the Start Player tile,
    so the place in the next round's order is worth something; the tile is how to buy it. While the
    tile is still free, the player with the last turn of the round is likely to take it (its cards are
    the weakest then), so the others count on that with chance TILE_TAKE_CHANCE.
    """
    s = game.s
    if s.phase != "play" or s.round >= 6:
        return 0.0
    n = game.players
    w = float(START_PLAYER_WEIGHT.get(n, 6.0) if weight is None else weight)

    def worth(first: int) -> float:
        return w * (n - 1 - (seat - first) % n) / (n - 1)

    if s.sp_taken_by is not None:
        return worth(s.sp_taken_by)
    sp = s.start_player
    last = (sp - 1) % n  # the seat with the last turn of this round
    if seat != last and s.turns_done < 3 * n - 1:
        return TILE_TAKE_CHANCE * worth(last) + (1 - TILE_TAKE_CHANCE) * worth(sp)
    return worth(sp)


def potential(game: FirstClassGame, seat: int, weight: float | None = None) -> float:
    """A rough estimate of the final score of ``seat`` from the current position."""
    pl = game.s.players[seat]
    left = _phases_left(game) if not game.is_over() else 0
    value = float(game.score(seat))
    for t in TRAINS:
        cars = [v for v in pl.trains[t] if v != MAIL]
        reached = game.train_points(seat, t)
        # conductors usually advance a couple of cars per pile: value the next two cars at half
        cond = pl.cond[t]
        soon = sum(v for v in pl.trains[t][cond:cond + 2] if v != MAIL)
        value += left * reached + 0.5 * left * soon
        value += 0.15 * left * max(0, sum(cars) - reached - soon)
        value += 0.6 * len(cars) * min(left, 2)
        value += 0.8 * cond * min(left, 2)
    route = game.route(seat)
    active = sum(1 for i, st in enumerate(route, start=1) if st.kind == "B" and i <= pl.loco)
    value += 2.0 * active * left
    if left:
        # stations ahead of the locomotive: worth part of what they give, less the further away they are
        for d, st in enumerate(route[pl.loco:], start=1):
            reach = ROUTE_REACH[min(d, len(ROUTE_REACH)) - 1]
            value += reach * (st.points if st.kind == "P" else 2.0 * max(left - 1, 0.5))
    value += start_player_value(game, seat, weight)
    value += 0.9 * game.coins(seat)
    if not game.is_over():
        value += game.game_end_points(seat) + 0.8 * left * sum(
            game.deck.game_end[g].points for g in pl.ge_cards)
        for cid in pl.contracts:
            if game.requirement_met(seat, cid):
                value += 4.0
    return value


def _quick_value(game: FirstClassGame, seat: int, a: Action) -> float:
    """A cheap preference among answers to a pending symbol (no copying)."""
    pl = game.s.players[seat]
    if a.kind == "skip":
        return -1.0
    if a.kind == "up":
        t, pos = a.args[0], a.int_arg(1)
        old = pl.trains[t][pos - 1]
        gain = NEXT_STEP[old] - old
        return float(gain) * (1.0 if pos <= pl.cond[t] else 0.6) + 0.1
    if a.kind == "car":
        t = a.args[0]
        return 1.0 - 0.05 * len(pl.trains[t])
    if a.kind == "cond":
        t = a.args[0]
        nxt = pl.cond[t]
        cars = pl.trains[t]
        return float(cars[nxt]) + 0.5 if nxt < len(cars) and cars[nxt] != MAIL else 0.3
    if a.kind == "ge":
        g = game.deck.game_end[a.args[0]]
        base = pl.completed
        n = sum(1 for c in base if game.deck.cards[c].game_end_type == g.type)
        return float(g.points * (n + 2))
    if a.kind == "mail":
        return -float(a.int_arg(0))
    if a.kind == "choose":
        return -float(a.int_arg(0))
    return 0.0


def _resolve_quickly(game: FirstClassGame, seat: int, limit: int = 40) -> None:
    """Answer every pending symbol of ``seat`` with the quick rule (used in look-ahead copies)."""
    for _ in range(limit):
        if game.is_over() or game.head(seat) is None or seat not in game.seats_to_act():
            return
        options = [a for a in game.legal_actions(seat) if not a.kind.startswith("spend_")]
        if not options:
            return
        game.apply(seat, max(options, key=lambda a: _quick_value(game, seat, a)))


class RandomAI:
    """Chooses uniformly at random among the legal actions (seeded)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"{seed}:random-ai")

    def choose(self, game: FirstClassGame, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(seat))


class HeuristicAI:
    """One-action look-ahead with :func:`potential`; ties are broken by a seeded random choice."""

    def __init__(self, seed: int = 0, start_weight: float | None = None) -> None:
        self.rng = random.Random(f"{seed}:heuristic-ai")
        self.start_weight = start_weight  # None: START_PLAYER_WEIGHT for the player count

    def _evaluate(self, game: FirstClassGame, seat: int, a: Action) -> float:
        g = game.scratch_copy()
        g.apply(seat, a)
        if a.kind in ("take", "forgo", "start"):
            _resolve_quickly(g, seat)
        return potential(g, seat, self.start_weight)

    def choose(self, game: FirstClassGame, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if game.s.phase == "draft":
            hand = game.s.draft.hand
            return max(legal, key=lambda a: (game.deck.game_end[hand[a.int_arg(0) - 1]].points, self.rng.random()))
        # Bonuses and contracts are never worth refusing; take them before finishing.
        for kind in ("bonus", "fulfil"):
            for a in legal:
                if a.kind == kind:
                    return a
        if game.head(seat) is not None and not any(a.kind.startswith("spend_") for a in legal):
            return max(legal, key=lambda a: (_quick_value(game, seat, a), self.rng.random()))
        # Buying: only one column mix per card is worth comparing (spend the fullest columns first).
        seen: set[str] = set()
        candidates: list[Action] = []
        for a in legal:
            if a.kind == "buy":
                if a.args[0] in seen:
                    continue
                seen.add(a.args[0])
            candidates.append(a)
        if game.s.phase == "scoring":
            candidates = [a for a in candidates if a.kind != "spend_point"]
        best = max(candidates, key=lambda a: (self._evaluate(game, seat, a), self.rng.random()))
        return best
