"""A First Class AI that searches: flat Monte Carlo (:mod:`rules.search`, paired mode) over re-dealt
hidden cards, each move played out with the heuristic AI to the end of the round.

The decision that matters most is the choice of card at the start of a turn, and the heuristic
makes it one move deep, for its own score alone: it never asks which cards the other seats will
take next (with two players, the second card taken from a row clears the row's other four), nor
which cards will be left for its own next turn. The search asks exactly that. Its candidates are
the heuristic's own move and the cards the heuristic rates best after it; each is played out on
the same re-dealt hidden cards (the face-down Action piles, the Game End pile and the other seats'
Game End cards: nothing the seat cannot see) with the heuristic in every seat until the round is
over (and its scoring phase, when one follows), and the position is scored by the heuristic's
estimate of every seat's final score (:func:`rules.firstclass.ai.potential`) as the margin over
the best other seat. Within a round every Action card is face up, so the play-outs of one
candidate differ little between deals and a handful of deals tells candidates apart.

Symbol answers, coin spending after the card and the scoring steps are the heuristic's own: they
follow from the card, and the budget goes to the card.

The game it is handed is first reduced to what the seat sees (hidden cards sorted, seed fixed),
so two games that look the same from the seat lead to the same search.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import replace

from rules.firstclass.actions import Action
from rules.firstclass.ai import HeuristicAI, potential
from rules.firstclass.determinize import canonical_view, observation_copy
from rules.firstclass.game import FirstClassGame
from rules.search import PlannedSearchAI, SearchHooks

# Moves searched at the start of a turn: the heuristic's own and the cards it rates best after it.
TURN_CANDIDATES = 6
# Cards searched in the Game End draft.
DRAFT_CANDIDATES = 3
# Ways of starting a turn: taking a card (or forgoing it for an upgrade) or the Start Player tile.
CARD_KINDS = ("take", "forgo", "start")

# How much better (mean reward in [0, 1]) another move must look than the heuristic's own pick to
# replace it on the same deals.
PRIOR_MARGIN = 0.02


def action_key(action: Action) -> Hashable:
    return str(action.to_text())


def segment(game: FirstClassGame) -> Hashable:
    """The stretch of the game a play-out stays in: the round (its scoring phase included, since
    the round number only moves on when the next round is dealt), or the end of the game."""
    return "over" if game.is_over() else game.s.round


class _Planner:
    """Candidate moves, rollout moves and position estimates from the heuristic AI."""

    def __init__(self, seed: int) -> None:
        self.heuristic = HeuristicAI(seed)

    def reseed(self, seed: int) -> None:
        self.heuristic.rng = random.Random(seed)

    def rollout(self, game: FirstClassGame, seat: int) -> Action:
        return self.heuristic.play(game, seat)

    def candidates(self, game: FirstClassGame, seat: int) -> list[Action]:
        legal = game.legal_actions(seat)
        if len(legal) <= 1:
            return list(legal)
        if game.s.phase == "draft":
            hand = game.s.draft.hand
            return sorted(legal, key=lambda a: -game.deck.game_end[hand[a.int_arg(0) - 1]].points)[
                :DRAFT_CANDIDATES
            ]
        own = self.heuristic.play(game, seat)
        if game.s.phase != "play" or game.s.taken or game.head(seat) is not None:
            # Symbol answers, spending after the card, scoring steps: the heuristic's own move.
            return [own]
        cards = [a for a in legal if a.kind in CARD_KINDS and a != own]
        rated = sorted(cards, key=lambda a: -self.heuristic._evaluate(game, seat, a))
        return [own, *rated[: TURN_CANDIDATES - 1]]

    def estimate(self, game: FirstClassGame) -> list[float]:
        return [potential(game, seat) for seat in range(game.players)]


class SearchAI(PlannedSearchAI):
    """First Class AI seat: paired play-outs to the end of the round within a CPU budget and a cap
    on deals (``iterations``); ``rollout_plies`` caps a play-out's length.

    ``budget_seconds=None`` makes the deal cap the only limit (deterministic for a seed)."""

    # A round is at most 12 turns of a few moves each: the cap never cuts a play-out short.
    ROLLOUT_PLIES = 400
    MARGIN_SCALE = 10.0
    PRIOR_MARGIN = PRIOR_MARGIN
    HOOKS = SearchHooks(_Planner, action_key, canonical_view, observation_copy)
    MAX_CANDIDATES = TURN_CANDIDATES
    # Play-outs of one candidate differ little between deals (the round's cards are face up), so
    # the weaker half of the candidates stops being played after 2 deals.
    HALVE_AFTER = 2

    def __init__(
        self,
        seed: int = 0,
        budget_seconds: float | None = PlannedSearchAI.GAME_BUDGET,
        iterations: int = 400,
        rollout_plies: int | None = None,
        paired: bool = True,
    ) -> None:
        super().__init__(seed, budget_seconds, iterations, rollout_plies, paired)
        self.settings = replace(self.settings, halve_after=self.HALVE_AFTER)
        self.spec.segment = segment
