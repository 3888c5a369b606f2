"""A First Class AI that searches: ISMCTS (:mod:`rules.search`) over re-dealt hidden cards.

Each iteration plays in an observation copy of the seat's view (Action piles, the Game End pile
and other seats' Game End cards dealt again at random), tries the moves the heuristic AI rates
best, plays on for a few moves with the heuristic AI in every seat and scores the position with
the heuristic's estimate of every seat's final score (:func:`rules.firstclass.ai.potential`).

The game it is handed is first reduced to what the seat sees (hidden cards sorted, seed fixed),
so two games that look the same from the seat lead to the same search.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from rules.firstclass.actions import Action
from rules.firstclass.ai import HeuristicAI, _quick_value, potential
from rules.firstclass.determinize import observation_copy
from rules.firstclass.game import FirstClassGame
from rules.search import SearchGame, SearchResult, SearchSettings, search

# Moves searched when buying or placing (best by the heuristic's one-move look-ahead first).
BUY_CANDIDATES = 4
# Answers searched for a pending symbol, and cards searched in the Game End draft.
SMALL_CANDIDATES = 3

# How much better (mean reward in [0, 1]) another move must look than the heuristic's own pick to
# replace it: a few noisy deals otherwise talk the search out of sound claims (measured: it
# delayed a third of the heuristic's claims at a 0.01 margin and lost more games for it).
PRIOR_MARGIN = 0.04


def canonical_view(game: FirstClassGame, seat: int) -> FirstClassGame:
    """A copy of ``game`` whose hidden cards depend only on what ``seat`` sees: every face-down
    pile sorted, the unseen Game End cards sorted and dealt back in the same amounts, seed fixed."""
    copy = game.copy()
    copy.seed = 0
    st = copy.s
    for pile in st.piles.values():
        pile.sort()
    holders: list[list[str]] = [st.ge_pile]
    holders += [p.ge_cards for i, p in enumerate(st.players) if i != seat]
    if st.phase == "draft" and st.draft.order[st.draft.index] != seat:
        holders.append(st.draft.hand)
    unseen = sorted((card for cards in holders for card in cards), reverse=True)
    for cards in holders:
        for i in range(len(cards)):
            cards[i] = unseen.pop()
    return copy


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
            return sorted(legal, key=lambda a: -_quick_value(game, seat, a))[:SMALL_CANDIDATES]
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


class SearchAI:
    """First Class AI seat: information-set MCTS within a time budget and an iteration cap.

    ``budget_seconds=None`` makes the iteration count the only limit (deterministic for a seed)."""

    def __init__(self, seed: int = 0, budget_seconds: float | None = 1.0, iterations: int = 400,
                 rollout_plies: int = 8, paired: bool = True) -> None:
        self.rng = random.Random(f"search-ai:{seed}")
        self.planner = _Planner(seed)
        self.settings = SearchSettings(budget_seconds=budget_seconds, iterations=iterations,
                                       rollout_plies=rollout_plies, paired=paired, margin_scale=6.0,
                                       prior_margin=PRIOR_MARGIN)
        self.spec = SearchGame(candidates=self.planner.candidates, rollout=self.planner.rollout,
                               estimate=self.planner.estimate, key=action_key, reseed=self.planner.reseed)
        self.last: SearchResult | None = None

    def choose(self, game: FirstClassGame, seat: int) -> Any:
        """The move the search rates best for ``seat``, from what ``seat`` can see."""
        base = canonical_view(game, seat)
        self.last = search(lambda rng: observation_copy(base, seat, rng), seat, self.spec, self.settings, self.rng)
        return self.last.action
