"""Computer players for First Class.

:class:`RandomAI` picks uniformly among the legal actions. :class:`HeuristicAI` looks one action
ahead with a position estimate (points so far, what the trains will score in the remaining
scoring phases, route bonuses, coins and Game End multipliers); for taking a card it also plays
out the card's symbols with a quick rule so that cards are compared by what they end up giving.
"""

from __future__ import annotations

import random

from rules.firstclass.actions import Action
from rules.firstclass.board import MAIL
from rules.firstclass.effects import NEXT_STEP, TRAINS, Term, parse_effects, parse_requirement
from rules.firstclass.game import FirstClassGame
from rules.protocol import Action as GameAction
from rules.protocol import Game


def _phases_left(game: FirstClassGame) -> int:
    return 3 - (game.s.round - 1) // 2


# Stations a locomotive can expect to travel per round still to play (the heuristic AI averages about
# 0.9 per round over a whole game: 5.2 stations in 2-player games of the tuned open deck).
LOCO_PACE = 1.0


def route_reach(game: FirstClassGame, distance: int) -> float:
    """How likely the locomotive reaches the station ``distance`` stations ahead before the game ends.

    It falls off linearly with the distance against the movement still to come (LOCO_PACE stations per
    round left), so a route card taken early is worth most of its stations and one taken late little.
    """
    expected = LOCO_PACE * (7 - game.s.round)
    return min(0.9, max(0.05, (expected - distance + 2) / (expected + 2)))


# What moving from last to first in the turn order of one round is worth (points, per player count).
# 4 players: 2.0 (bench/bench_fc_balance.py, 200 games, 2026-11-23): at 4.0 the others left the tile for
# the last player of round 1 and the round-1 start player won 30.2%; at 2.0 the seats win 22.5 / 25.5 /
# 27.0 / 25.0%, and an AI weighing 2.0 among three weighing 4.0 wins 24.2% (fair 25%: no weaker).
START_PLAYER_WEIGHT = {2: 4.0, 3: 4.0, 4: 2.0}
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


# Rough worth in points of one symbol of each kind (per unit of n), for valuing contract bonuses.
SYMBOL_WORTH = {
    "points": 1.0,
    "coin": 0.9,
    "car": 1.5,
    "up": 2.0,
    "upany": 2.5,
    "cond1": 2.0,
    "cond2": 3.5,
    "loco": 2.5,
    "ge": 6.0,
}


def effects_worth(terms: tuple[Term, ...]) -> float:
    """A rough point value of an effect sequence (a choice is worth its best option)."""
    total = 0.0
    for t in terms:
        if t.op == "choice":
            total += max(effects_worth(o) for o in t.options)
        elif t.op == "up":
            total += float(t.b - t.a)
        else:
            total += SYMBOL_WORTH.get(t.op, 1.0) * max(t.n, 1)
    return total


def contract_progress(game: FirstClassGame, seat: int, card_id: str) -> float:
    """How far ``seat`` is towards a contract's requirement, 0..1 (1 = met)."""
    if game.requirement_met(seat, card_id):
        return 1.0
    pl = game.s.players[seat]
    cars = {t: [v for v in pl.trains[t] if v != MAIL] for t in TRAINS}
    progress = 1.0
    for r in parse_requirement(game.deck.cards[card_id].requirement):
        per_train: dict[str, float]
        if r.op == "count":
            per_train = {t: float(sum(1 for v in cars[t] if v >= r.v)) for t in TRAINS}
        elif r.op == "cars":
            per_train = {t: float(len(cars[t])) for t in TRAINS}
        elif r.op == "cond":
            per_train = {t: float(pl.cond[t]) for t in TRAINS}
        elif r.op == "seq":
            # the best run of cars already worth at least the first wanted values, as a share of the run
            best = 0
            for t in TRAINS:
                for i in range(len(cars[t])):
                    k = 0
                    while k < len(r.values) and i + k < len(cars[t]) and cars[t][i + k] >= r.values[k]:
                        k += 1
                    best = max(best, k)
            progress *= min(1.0, best / len(r.values))
            continue
        else:
            have = {"loco": pl.loco, "routecards": len(pl.route_cards), "coins": game.coins(seat)}[r.op]
            progress *= min(1.0, have / max(r.n, 1))
            continue
        if r.train in TRAINS:
            have_n = per_train[r.train]
        elif r.train == "both":
            have_n = min(per_train.values())
        elif r.op in ("count", "cars"):
            have_n = sum(per_train.values())
        else:
            have_n = max(per_train.values())
        progress *= min(1.0, have_n / max(r.n, 1))
    return progress


# How much of an open contract's bonus the AI counts on, by how many scoring phases are left (0..3):
# late in the game there is little time to close the gap.
CONTRACT_HOPE = (0.0, 0.7, 0.85, 0.95)
# How steeply an open contract's worth falls with the gap to its requirement (progress ** power).
CONTRACT_PROGRESS_POWER = 2.0


def contract_value(game: FirstClassGame, seat: int, card_id: str) -> float:
    """Expected worth of an open contract: its bonus, discounted by the gap to its requirement."""
    worth = effects_worth(parse_effects(game.deck.cards[card_id].bonus))
    progress = contract_progress(game, seat, card_id)
    if progress >= 1.0:
        return worth
    left = _phases_left(game)
    return worth * CONTRACT_HOPE[left] * float(progress**CONTRACT_PROGRESS_POWER)


# What one coin is worth spent on its own (a car, a move, an upgrade or a point), and the share of a
# Game End card's expected worth a coin counts for when 4 coins can buy one from the display.
COIN_WORTH = 0.9
COIN_GE_SHARE = 0.4


def game_end_card_worth(game: FirstClassGame, seat: int, gid: str) -> float:
    """Expected final points of Game End card ``gid`` for ``seat``: its multiplier times the cards of its
    type completed so far and those still likely to come (as in :func:`potential`), plus its bonus."""
    g = game.deck.game_end[gid]
    pl = game.s.players[seat]
    have = sum(1 for c in pl.completed if game.deck.cards[c].game_end_type == g.type)
    return g.points * (have + 0.8 * _phases_left(game)) + 2.0


def coin_worth(game: FirstClassGame, seat: int) -> float:
    """What one coin is worth to ``seat``: its own uses, or a quarter share of the best Game End card on
    display while coins can still buy one (the coin board is how Game End cards are bought)."""
    if game.is_over() or not game.s.ge_display:
        return COIN_WORTH
    best = max(game_end_card_worth(game, seat, g) for g in game.s.ge_display)
    return max(COIN_WORTH, COIN_GE_SHARE * best / 4)


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
        soon = sum(v for v in pl.trains[t][cond : cond + 2] if v != MAIL)
        value += left * reached + 0.5 * left * soon
        value += 0.15 * left * max(0, sum(cars) - reached - soon)
        value += 0.6 * len(cars) * min(left, 2)
        value += 0.8 * cond * min(left, 2)
    route = game.route(seat)
    active = sum(1 for i, st in enumerate(route, start=1) if st.kind == "B" and i <= pl.loco)
    value += 2.0 * active * left
    if left:
        # stations ahead of the locomotive: worth part of what they give, less the further away they are
        for d, st in enumerate(route[pl.loco :], start=1):
            value += route_reach(game, d) * (st.points if st.kind == "P" else 2.0 * max(left - 1, 0.5))
    value += start_player_value(game, seat, weight)
    value += coin_worth(game, seat) * game.coins(seat)
    if not game.is_over():
        value += game.game_end_points(seat) + 0.8 * left * sum(
            game.deck.game_end[g].points for g in pl.ge_cards
        )
        for cid in pl.contracts:
            value += contract_value(game, seat, cid)
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

    def choose(self, game: Game, seat: int) -> GameAction:
        return self.rng.choice(game.legal_actions(seat))


# Scoring sources an AI can be forbidden to pursue (balance experiments: is each source worth it?).
FORBIDDABLE = ("routes", "contracts", "trains", "game_end")
_TRAIN_KINDS = ("railcar", "conductor")


def pursues(game: FirstClassGame, a: Action, source: str) -> bool:
    """Whether action ``a`` pursues scoring ``source`` (one of :data:`FORBIDDABLE`).

    routes: taking a route card; contracts: taking or fulfilling a contract; trains: taking a railcar or
    conductor card, forgoing a card for an upgrade, or spending coins on cars, upgrades or conductors;
    game_end: taking a Game End Action card, buying a Game End card, or taking one for a symbol.
    """
    kind = game.deck.cards[a.args[0]].kind if a.kind in ("take", "forgo") else None
    if source == "routes":
        return a.kind == "take" and kind == "route"
    if source == "contracts":
        return (a.kind == "take" and kind == "contract") or a.kind == "fulfil"
    if source == "trains":
        return (
            (a.kind == "take" and kind in _TRAIN_KINDS)
            or a.kind in ("forgo", "spend_car", "spend_up")
            or (a.kind == "spend_move" and a.args[0] != "loco")
        )
    if source == "game_end":
        return (a.kind == "take" and kind == "game_end") or a.kind in ("buy", "ge")
    raise ValueError(f"unknown scoring source {source!r}; one of {', '.join(FORBIDDABLE)}")


class HeuristicAI:
    """One-action look-ahead with :func:`potential`; ties are broken by a seeded random choice.

    ``forbid`` names a scoring source (:data:`FORBIDDABLE`) the AI never pursues while it has any other
    legal action: the balance bench plays it against the unrestricted AI.
    """

    def __init__(self, seed: int = 0, start_weight: float | None = None, forbid: str | None = None) -> None:
        if forbid is not None and forbid not in FORBIDDABLE:
            raise ValueError(f"unknown scoring source {forbid!r}; one of {', '.join(FORBIDDABLE)}")
        self.rng = random.Random(f"{seed}:heuristic-ai")
        self.start_weight = start_weight  # None: START_PLAYER_WEIGHT for the player count
        self.forbid = forbid

    def _evaluate(self, game: FirstClassGame, seat: int, a: Action) -> float:
        g = game.scratch_copy()
        g.apply(seat, a)
        if a.kind in ("take", "forgo", "start"):
            _resolve_quickly(g, seat)
        return potential(g, seat, self.start_weight)

    def choose(self, game: Game, seat: int) -> GameAction:
        if not isinstance(game, FirstClassGame):
            raise TypeError(f"a First Class AI cannot play {game.game_name}")
        return self.play(game, seat)

    def play(self, game: FirstClassGame, seat: int) -> Action:
        """The move for ``seat`` (:meth:`choose` for a game known to be First Class)."""
        legal = game.legal_actions(seat)
        if self.forbid is not None:
            allowed = [a for a in legal if not pursues(game, a, self.forbid)]
            legal = allowed or legal
        if len(legal) == 1:
            return legal[0]
        if game.s.phase == "draft":
            hand = game.s.draft.hand
            return max(
                legal, key=lambda a: (game.deck.game_end[hand[a.int_arg(0) - 1]].points, self.rng.random())
            )
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
