"""A Ticket to Ride AI that searches: ISMCTS (:mod:`rules.search`) over re-dealt hidden cards.

Each iteration plays in an observation copy of the seat's view (hidden cards and tickets dealt
again at random), tries moves from a short list the heuristic AI rates best (its own choice first,
then the other draws, the longest claims and the ticket choices), plays the game on for a few
moves with the heuristic AI in every seat and scores the position by an estimate of every seat's
final score.

Before searching, the game it is handed is first reduced to what the seat sees: the hidden cards
and tickets are put in a fixed order and the game's seed (which orders later reshuffles) is
replaced, so two games that look the same from the seat lead to the same search.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from rules.search import PlannedSearchAI
from rules.ttr import actions as A
from rules.ttr.ai import HeuristicAI
from rules.ttr.determinize import canonical_view, observation_copy
from rules.ttr.game import TTRGame

# Claims kept as candidates at the start of a turn: the heuristic's pick plus the best few others.
CLAIMS_KEPT = 4
# Average points a placed train earns on routes (1-6 trains score 1-15 points).
POINTS_PER_TRAIN = 1.3

# How much better (mean reward in [0, 1]) another move must look than the heuristic's own pick to
# replace it: a few noisy deals otherwise talk the search out of sound claims (measured: it
# delayed a third of the heuristic's claims at a 0.01 margin and lost more games for it).
PRIOR_MARGIN = 0.04


def action_key(action: Any) -> Hashable:
    """Kept tickets are a set; every other move is its text."""
    if isinstance(action, A.KeepTickets):
        return ("keep", frozenset(action.ids))
    return str(action.to_text())


class _Planner:
    """Candidate moves, rollout moves and position estimates, all from the heuristic's planning."""

    def __init__(self, seed: int) -> None:
        self.heuristic = HeuristicAI(seed)

    def reseed(self, seed: int) -> None:
        self.heuristic.rng = random.Random(seed)

    def rollout(self, game: TTRGame, seat: int) -> Any:
        return self.heuristic.choose(game, seat)

    def candidates(self, game: TTRGame, seat: int) -> list[Any]:
        legal = game.legal_actions(seat)
        if len(legal) <= 1:
            return list(legal)
        pick = self.heuristic.choose(game, seat)
        out: list[Any] = [pick]
        st = game.state
        if st.phase == "setup" or st.pending in ("tickets", "tunnel"):
            keeps = sorted(legal, key=lambda a: len(a.ids) if isinstance(a, A.KeepTickets) else 0)
            out += keeps
        else:
            seen_colours: set[int] = set()
            for a in legal:
                if isinstance(a, A.DrawDeck):
                    out.append(a)
                elif isinstance(a, A.DrawFaceUp) and st.face_up[a.slot] not in seen_colours:
                    seen_colours.add(st.face_up[a.slot])
                    out.append(a)
            claims = [a for a in legal if isinstance(a, A.ClaimRoute)]
            if claims:
                targets = {t.id for t in self.heuristic._targets(game, seat)}
                by_track: dict[str, list[A.ClaimRoute]] = {}
                for a in claims:
                    by_track.setdefault(a.track, []).append(a)
                best = [self.heuristic._best_claim(game, seat, options) for options in by_track.values()]
                best.sort(key=lambda a: (a.track in targets, game.board.track_by_id[a.track.lower()].length),
                          reverse=True)
                out += best[:CLAIMS_KEPT]
            out += [a for a in legal if isinstance(a, A.DrawTickets)][-1:]
        unique: dict[Hashable, Any] = {}
        for a in out:
            unique.setdefault(action_key(a), a)
        return list(unique.values())

    def estimate(self, game: TTRGame) -> list[float]:
        """Expected final score per seat: points so far, the trains it can still place, and each
        open ticket counted as won or lost by how well its remaining cost fits what is left."""
        st = game.state
        station_points = game.spec.unused_station_points
        # The game ends when someone is down to two trains; a seat places about 1.2 trains a turn.
        turns_left = max(0.0, (min(st.trains) - 2) / 1.2) if st.final_turns_left is None else float(st.final_turns_left > 0)
        values: list[float] = []
        for seat in range(game.players):
            value = float(st.route_score[seat] + sum(st.merch_taken[seat]))
            value += station_points * st.stations_left[seat]
            trains = st.trains[seat]
            # Each turn either draws two cards or claims about three trains' worth, so with H cards
            # and T turns left a seat places at most about 0.6 H + 1.2 T trains (draw d turns and
            # claim T - d with H + 2d = 3(T - d)); a card in hand is worth less than a placed train.
            capacity = min(float(trains), 0.6 * sum(st.hands[seat]) + 1.2 * turns_left)
            value += POINTS_PER_TRAIN * capacity
            costs: list[tuple[float, int]] = []
            for info in game.ticket_status(seat):
                points = int(game.board.tickets[info["id"]].points)
                if info["completed"]:
                    value += info["value"]
                    continue
                plan = self.heuristic._ticket_plan(game, seat, info["id"])
                if plan is None:
                    value -= points
                else:
                    costs.append((plan[0], points))
            used = 0.0
            for cost, points in sorted(costs):
                used += cost
                chance = 0.85 if used <= capacity else (0.35 if cost <= capacity else 0.05)
                value += (2 * chance - 1) * points
            values.append(value)
        return values


class SearchAI(PlannedSearchAI):
    """Ticket to Ride AI seat: information-set MCTS within a time budget and an iteration cap.

    ``budget_seconds=None`` makes the iteration count the only limit (deterministic for a seed)."""

    ROLLOUT_PLIES = 12
    MARGIN_SCALE = 12.0
    PRIOR_MARGIN = PRIOR_MARGIN

    def make_planner(self, seed: int) -> _Planner:
        return _Planner(seed)

    @staticmethod
    def action_key(action: Any) -> Hashable:
        return action_key(action)

    @staticmethod
    def canonical_view(game: Any, seat: int) -> Any:
        return canonical_view(game, seat)

    @staticmethod
    def observation_copy(game: Any, seat: int, rng: random.Random) -> Any:
        return observation_copy(game, seat, rng)
