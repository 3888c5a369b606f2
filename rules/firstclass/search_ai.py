"""A First Class AI that searches: ISMCTS (:mod:`rules.search`) over re-dealt hidden cards.

Each iteration plays in an observation copy of the seat's view (Action piles, the Game End pile
and other seats' Game End cards dealt again at random), tries the moves the heuristic AI rates
best, plays on for a few moves with the heuristic AI in every seat and scores the position with
the heuristic's estimate of every seat's final score (:func:`rules.firstclass.ai.potential`).
It searches the choice of card (and of buy, spend and draft); the answers to the symbols of the
card just taken are the heuristic's own.

The game it is handed is first reduced to what the seat sees (hidden cards sorted, seed fixed),
so two games that look the same from the seat lead to the same search.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from rules.firstclass.actions import Action
from rules.firstclass.ai import HeuristicAI, potential
from rules.firstclass.determinize import canonical_view, observation_copy
from rules.firstclass.game import FirstClassGame
from rules.search import PlannedSearchAI, SearchHooks

# Moves searched when buying or placing (best by the heuristic's one-move look-ahead first).
BUY_CANDIDATES = 4
# Cards searched in the Game End draft.
SMALL_CANDIDATES = 3

# How much better (mean reward in [0, 1]) another move must look than the heuristic's own pick to
# replace it: a few noisy deals otherwise talk the search out of sound claims (measured: it
# delayed a third of the heuristic's claims at a 0.01 margin and lost more games for it).
PRIOR_MARGIN = 0.04


def action_key(action: Action) -> Hashable:
    return str(action.to_text())


class _Planner:
    """Candidate moves, rollout moves and position estimates from the heuristic AI."""

    def __init__(self, seed: int) -> None:
        self.heuristic = HeuristicAI(seed)

    def reseed(self, seed: int) -> None:
        self.heuristic.rng = random.Random(seed)

    def rollout(self, game: FirstClassGame, seat: int) -> Action:
        return self.heuristic.choose(game, seat)

    def candidates(self, game: FirstClassGame, seat: int) -> list[Action]:
        legal = game.legal_actions(seat)
        if len(legal) <= 1:
            return list(legal)
        if game.s.phase == "draft":
            hand = game.s.draft.hand
            return sorted(legal, key=lambda a: -game.deck.game_end[hand[a.int_arg(0) - 1]].points)[:SMALL_CANDIDATES]
        for kind in ("bonus", "fulfil"):
            forced = [a for a in legal if a.kind == kind]
            if forced:
                return forced[:1]
        if game.head(seat) is not None and not any(a.kind.startswith("spend_") for a in legal):
            # Answering a symbol of the card just taken: the heuristic's quick rule, unsearched, so
            # the budget goes to the choice of card (half the decisions, most of the consequence).
            return [self.heuristic.choose(game, seat)]
        seen: set[str] = set()
        options: list[Action] = []
        for a in legal:
            if a.kind == "buy":
                if a.args[0] in seen:
                    continue
                seen.add(a.args[0])
            options.append(a)
        if game.s.phase == "scoring":
            options = [a for a in options if a.kind != "spend_point"] or options
        rated = sorted(options, key=lambda a: -self.heuristic._evaluate(game, seat, a))
        return rated[:BUY_CANDIDATES]

    def estimate(self, game: FirstClassGame) -> list[float]:
        return [potential(game, seat) for seat in range(game.players)]


class SearchAI(PlannedSearchAI):
    """First Class AI seat: information-set MCTS within a time budget and an iteration cap.

    ``budget_seconds=None`` makes the iteration count the only limit (deterministic for a seed)."""

    ROLLOUT_PLIES = 8
    MARGIN_SCALE = 6.0
    PRIOR_MARGIN = PRIOR_MARGIN
    HOOKS = SearchHooks(_Planner, action_key, canonical_view, observation_copy)
