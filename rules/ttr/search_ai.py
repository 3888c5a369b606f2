"""A Ticket to Ride AI that searches its plans: which tickets to keep, and when to draw more.

The heuristic AI (:mod:`rules.ttr.ai`) plays routes and cards well enough; what decides most games
is the plan it commits to: which tickets it keeps, and whether it takes on more once its tickets are
done. At exactly those decisions this AI searches (:func:`rules.search.search`, paired mode): every
candidate (each way of keeping the offered tickets; drawing tickets or the heuristic's own move) is
played on the same re-dealt hidden cards (observation copies of the seat's view) to the end of the
game, with the heuristic playing every seat, and the candidate with the best mean reward (winning
and the final score margin) is chosen. Sequential halving spends the deals on the close contenders.
Every other move is the heuristic's own, so the thinking budget goes where it changes the result.

Rollouts call the heuristic hundreds of times; its ticket plans are shortest paths that depend only
on who owns which track, so :class:`PlanCache` remembers them across rollouts and moves (the same
moves, several times faster).

Before searching, the game it is handed is first reduced to what the seat sees: the hidden cards
and tickets are put in a fixed order and the game's seed (which orders later reshuffles) is
replaced, so two games that look the same from the seat lead to the same search.
"""

from __future__ import annotations

import itertools
import random
from array import array
from collections.abc import Hashable
from typing import Any

from rules.protocol import Action, Game
from rules.search import PlannedSearchAI, SearchHooks
from rules.ttr import actions as A
from rules.ttr.ai import HeuristicAI, PlanGraph, cheapest_paths, ticket_route
from rules.ttr.board import Track
from rules.ttr.determinize import canonical_view, observation_copy
from rules.ttr.game import TTRGame

# Average points a placed train earns on routes (1-6 trains score 1-15 points).
POINTS_PER_TRAIN = 1.3

# How much better (mean reward in [0, 1]) another plan must look than the heuristic's own to
# replace it, so that deal noise alone does not overturn it.
PRIOR_MARGIN = 0.02

# Drawing more tickets is searched once every ticket is done and the seat has this many trains.
MIN_TRAINS_TO_DRAW = 6

# An opponent down to this many trains may end the game on the next turn: claim, don't draw.
ENDGAME_TRAINS = 4

# Ways of keeping offered tickets that are searched besides the heuristic's own: a second buys
# only a few deals of whole-game rollouts, which can compare a handful of plans, not eleven.
KEEPS_SEARCHED = 3

# What an unreachable ticket adds to the cost of the plans (more than any route network's detour).
UNREACHABLE_COST = 30.0

# Ticket plans and plan graphs remembered before each cache starts afresh (a few MB at most).
PLAN_CACHE_SIZE = 100_000
GRAPH_CACHE_SIZE = 2_000

# Where a plan is made: board id, variant, players, seat and the owner of every track.
_Position = tuple[str, str | None, int, int, bytes]


def action_key(action: Any) -> Hashable:
    """Kept tickets are a set; every other move is its text."""
    if isinstance(action, A.KeepTickets):
        return ("keep", frozenset(action.ids))
    return str(action.to_text())


_TUNNELS: dict[tuple[str, str | None], frozenset[str]] = {}


def _tunnel_ids(game: TTRGame) -> frozenset[str]:
    """The ids of the board's tunnels (lower case, as ``track_by_id`` keys them)."""
    key = (game.board.id, game.board.variant)
    ids = _TUNNELS.get(key)
    if ids is None:
        ids = _TUNNELS[key] = frozenset(tid for tid, t in game.board.track_by_id.items() if t.tunnel)
    return ids


class PlanCache(HeuristicAI):
    """The heuristic AI, move for move, with its ticket plans and plan graphs remembered.

    A plan (cheapest path over free and own tracks) and the graph it is searched on depend only on
    the board (and variant), the number of players, the seat, the ticket and who owns each track,
    which is exactly the cache key."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._plans: dict[tuple[_Position, str], tuple[float, list[Track]] | None] = {}
        self._graphs: dict[_Position, PlanGraph] = {}
        self._target_lists: dict[tuple[_Position, tuple[str, ...]], list[Track]] = {}
        self._open: dict[tuple[_Position, tuple[str, ...]], list[str]] = {}

    @staticmethod
    def _position(game: TTRGame, seat: int) -> _Position:
        # array packs the owners (-1 for free, else a seat) in C: the key is built on every move.
        return (game.board.id, game.board.variant, game.players, seat, array("b", game.state.owner).tobytes())

    @staticmethod
    def _tunnel_affordable(game: TTRGame, seat: int, claim: A.ClaimRoute) -> bool:
        """The heuristic's rule, asked only for tunnels (it is asked about every payment of every
        claimable route on every move of a rollout, and most routes are not tunnels)."""
        if claim.track.lower() not in _tunnel_ids(game):
            return True
        return HeuristicAI._tunnel_affordable(game, seat, claim)

    def forget(self) -> None:
        """Drop every remembered plan and graph."""
        self._plans.clear()
        self._graphs.clear()
        self._target_lists.clear()
        self._open.clear()

    def _open_tickets(self, game: TTRGame, seat: int) -> list[str]:
        # Completion depends only on the seat's own tracks: a function of the position and tickets.
        key = (self._position(game, seat), tuple(game.state.tickets[seat]))
        tickets = self._open.get(key)
        if tickets is None:
            if len(self._open) >= PLAN_CACHE_SIZE:
                self._open.clear()
            tickets = self._open[key] = super()._open_tickets(game, seat)
        return tickets

    def _plan_graph(self, game: TTRGame, seat: int) -> PlanGraph:
        key = self._position(game, seat)
        graph = self._graphs.get(key)
        if graph is None:
            if len(self._graphs) >= GRAPH_CACHE_SIZE:
                self._graphs.clear()
            graph = self._graphs[key] = super()._plan_graph(game, seat)
        return graph

    def _targets(self, game: TTRGame, seat: int) -> list[Track]:
        # The free tracks on the plans of the seat's open tickets: a function of the position and
        # of which tickets the seat holds (a ticket is done by the seat's own tracks alone).
        key = (self._position(game, seat), tuple(game.state.tickets[seat]))
        targets = self._target_lists.get(key)
        if targets is None:
            if len(self._target_lists) >= PLAN_CACHE_SIZE:
                self._target_lists.clear()
            targets = self._target_lists[key] = super()._targets(game, seat)
        return list(targets)

    def _ticket_plan(self, game: TTRGame, seat: int, tid: str) -> tuple[float, list[Track]] | None:
        key = (self._position(game, seat), tid)
        if key in self._plans:
            return self._plans[key]
        if len(self._plans) >= PLAN_CACHE_SIZE:
            self._plans.clear()
        plan = super()._ticket_plan(game, seat, tid)
        self._plans[key] = plan
        return plan


class CarefulClaims(PlanCache):
    """The heuristic with a few more thoughts, for the search AI's own moves only (the play-outs
    keep the plain heuristic, which is also the opponent the search expects). Which claim to make:

    - of several routes on its plans, first the one whose loss would cost the plans most (a route
      with no cheap way round, taken by another seat, costs a detour or the ticket);
    - of routes off its plans, one that extends its own network if that one is as long as the
      longest (a longer trail for the longest-path bonus, at no cost in points).

    Measured as the search AI's own moves without any search, 400 seat-balanced 2-player games a
    board against the plain heuristic: mean margin +1.3 (Switzerland), +5.1 (USA), +2.9 (Europe),
    +2.1 (Märklin) points, against +0.9 to +1.9 for the plain heuristic's moves.

    And on Märklin its passengers wait for a journey worth ``PASSENGER_MIN_VALUE`` merchandise
    points (the heuristic sets off at 8; each seat has three passengers, and on a network grown
    longer each collects more;
    same measure, plain claims, 400 games a threshold: 8: 51%, +1 point; 11: 61%, +8; 14: 58%, +11;
    17: 60%, +13; 20: 64%, +14; 25: 62%, +12).

    With ``HAND_LIMIT`` cards in hand it stops drawing and claims: its plans may wait on a colour
    that is not coming (another seat holds it, or the deck has run dry), and on Switzerland, where
    locomotives pay only for tunnels, these moves were seen drawing 28 cards in a row with
    25 trains left. Same measure, Switzerland, 400 games on each of three seed sets: 63.7/64.0/63.0%
    without, 70.8/69.0/70.8% with a limit of 25 (20: 72.2/68.8/67.5%, but a little worse on
    Märklin; 16 or less: worse everywhere, claims off the plans cost the tickets); USA, Europe and
    Märklin unchanged."""

    PASSENGER_MIN_VALUE = 20
    # A hand this big means the plans wait on colours that are not coming (on Switzerland, where
    # locomotives pay only for tunnels, a seat could draw to the end of the game): claim instead.
    HAND_LIMIT = 25
    # Keeping tickets: what a train of the kept plans costs against the tickets' points, and the
    # trains kept spare beyond all plans (see _choose_tickets).
    KEEP_TRAIN_COST = 1.2
    KEEP_SPARE_TRAINS = 12

    def _choose_tickets(self, game: TTRGame, seat: int, offer: list[str], lo: int, hi: int) -> A.KeepTickets:
        """Of every way of keeping the offer, the one whose tickets score most points less
        ``KEEP_TRAIN_COST`` a train of their plans, among those whose plans fit the trains left
        with ``KEEP_SPARE_TRAINS`` to spare (else the cheapest way of keeping the fewest).

        The plans are laid one after another on the same network, each ticket's tracks free for
        the next and those of the seat's open tickets free from the start: tickets that share a
        way cost little more than one (the heuristic judges each ticket alone)."""
        targets = self._targets(game, seat)
        graph = _with_free_tracks(self._plan_graph(game, seat), {t.index for t in targets})
        spare = game.state.trains[seat] - sum(t.length for t in targets) - self.KEEP_SPARE_TRAINS
        best: tuple[float, tuple[str, ...]] | None = None
        cheapest: tuple[float, tuple[str, ...]] | None = None
        for size in range(lo, min(hi, len(offer)) + 1):
            for kept in itertools.combinations(offer, size):
                plans = _plans_trains(game, graph, kept)
                if plans is None:
                    continue
                trains, points = plans
                value = points - self.KEEP_TRAIN_COST * trains
                if trains <= spare and (best is None or value > best[0]):
                    best = (value, kept)
                if size == lo and (cheapest is None or trains < cheapest[0]):
                    cheapest = (trains, kept)
        chosen = best or cheapest
        if chosen is None:
            return super()._choose_tickets(game, seat, offer, lo, hi)
        return A.KeepTickets(chosen[1])

    def choose(self, game: Game, seat: int) -> Action:
        """The heuristic's move, except that with ``HAND_LIMIT`` cards in hand it claims the best
        route it can rather than draw more."""
        move = super().choose(game, seat)
        if not isinstance(game, TTRGame):
            raise TypeError(f"a Ticket to Ride AI cannot play {game.game_name}")
        st = game.state
        if (
            isinstance(move, A.DrawDeck | A.DrawFaceUp)
            and st.pending is None
            and sum(st.hands[seat]) >= self.HAND_LIMIT
        ):
            claims = [
                a
                for a in game.legal_actions(seat)
                if isinstance(a, A.ClaimRoute) and self._tunnel_affordable(game, seat, a)
            ]
            if claims:
                return self._best_claim(game, seat, claims)
        return move

    def _best_claim(self, game: TTRGame, seat: int, claims: list[A.ClaimRoute]) -> A.ClaimRoute:
        tracks = {a.track for a in claims}
        targets = {t.id for t in self._targets(game, seat)}
        if tracks <= targets:
            if len(tracks) > 1:
                claims = self._most_critical(game, seat, claims, tracks)
        else:
            claims = self._extending(game, seat, claims)
        return super()._best_claim(game, seat, claims)

    def _most_critical(
        self, game: TTRGame, seat: int, claims: list[A.ClaimRoute], tracks: set[str]
    ) -> list[A.ClaimRoute]:
        graph = self._plan_graph(game, seat)
        tickets = [game.board.tickets[tid] for tid in self._open_tickets(game, seat)]

        def plans_cost(g: PlanGraph) -> float:
            total = 0.0
            for card in tickets:
                found = cheapest_paths(game, card.origin, {dest for dest, _ in card.destinations}, g)
                total += min((cost for cost, _ in found.values()), default=UNREACHABLE_COST)
            return total

        base = plans_cost(graph)
        loss: dict[str, float] = {}
        # Taken by another seat: the track is gone, and so is its twin where only one may be used.
        twins_close = game.players < game.spec.double_routes_min_players
        for tid in tracks:
            track = game.board.track_by_id[tid.lower()]
            closed = {track.index, *(track.siblings if twins_close else ())}
            without = {city: [e for e in edges if e[0].index not in closed] for city, edges in graph.items()}
            loss[tid] = plans_cost(without) - base
        worst = max(loss.values())
        return [a for a in claims if loss[a.track] >= worst]

    @staticmethod
    def _extending(game: TTRGame, seat: int, claims: list[A.ClaimRoute]) -> list[A.ClaimRoute]:
        owner = game.state.owner
        reached = {city for t in game.board.tracks if owner[t.index] == seat for city in (t.a, t.b)}
        by_id = game.board.track_by_id
        length = {a.track: by_id[a.track.lower()].length for a in claims}
        longest = max(length.values())
        touching = [
            a for a in claims if by_id[a.track.lower()].a in reached or by_id[a.track.lower()].b in reached
        ]
        return touching if any(length[a.track] == longest for a in touching) else claims


def _with_free_tracks(graph: PlanGraph, free: set[int]) -> PlanGraph:
    """``graph`` with the tracks ``free`` costing nothing (a plan already counts them)."""
    if not free:
        return graph
    return {
        city: [(t, 0.0 if t.index in free else cost) for t, cost in edges] for city, edges in graph.items()
    }


def _plans_trains(game: TTRGame, graph: PlanGraph, tickets: tuple[str, ...]) -> tuple[float, int] | None:
    """The trains the tickets' plans need laid one after another (each plan's tracks free for the
    next; a tunnel or ferry counted a little dearer, as the plan graph costs it), and the points of
    the destinations they reach; None when one cannot be reached."""
    trains = 0.0
    points = 0
    for tid in tickets:
        plan = ticket_route(game, game.board.tickets[tid], graph)
        if plan is None:
            return None
        trains += plan[0]
        points += plan[2]
        graph = _with_free_tracks(graph, {t.index for t in plan[1]})
    return trains, points


class _Planner:
    """The plan decisions worth searching, the rollout policy and a fallback position estimate."""

    def __init__(self, seed: int) -> None:
        self.heuristic = PlanCache(seed)
        self.own = CarefulClaims(seed)

    def forget(self) -> None:
        """Drop the remembered plans (called before each search)."""
        self.heuristic.forget()
        self.own.forget()

    def reseed(self, seed: int) -> None:
        self.heuristic.rng = random.Random(seed)

    def rollout(self, game: TTRGame, seat: int) -> Any:
        return self.heuristic.choose(game, seat)

    def candidates(self, game: TTRGame, seat: int) -> list[Any]:
        """The heuristic's move first; at a ticket choice the most promising ways of keeping (or
        announcing); at the start of a turn with every ticket done and trains left, drawing more."""
        legal = game.legal_actions(seat)
        if len(legal) <= 1:
            return list(legal)
        out: list[Any] = [self.own_move(game, seat, legal)]
        st = game.state
        if st.phase == "setup" or st.pending == "tickets":
            # Märklin opens by announcing a mix of short and long tickets: those are plans too.
            out += [a for a in legal if isinstance(a, A.DrawTickets)]
            out += self._promising_keeps(game, seat, [a for a in legal if isinstance(a, A.KeepTickets)])
        elif st.pending is None and st.final_turns_left is None and st.trains[seat] >= MIN_TRAINS_TO_DRAW:
            draws = [a for a in legal if isinstance(a, A.DrawTickets)]
            if draws and self.heuristic._all_tickets_done(game, seat):
                out.append(self.heuristic._announce(game, draws))
        unique: dict[Hashable, Any] = {}
        for a in out:
            unique.setdefault(action_key(a), a)
        return list(unique.values())

    def own_move(self, game: TTRGame, seat: int, legal: list[Any]) -> Any:
        """The heuristic's move, except at the end: once the final round has begun or another seat
        is down to ``ENDGAME_TRAINS`` trains, cards in hand will score nothing, so claim the best
        route (on a ticket's plan if any) rather than draw (measured over 800 heuristic games:
        1-2 points a game better on every board)."""
        st = game.state
        if st.phase != "setup" and st.pending is None:
            others = min(t for s, t in enumerate(st.trains) if s != seat)
            if others <= ENDGAME_TRAINS or st.final_turns_left is not None:
                h = self.own
                claims = [
                    a for a in legal if isinstance(a, A.ClaimRoute) and h._tunnel_affordable(game, seat, a)
                ]
                if claims:
                    targets = {t.id for t in h._targets(game, seat)}
                    return h._best_claim(game, seat, [a for a in claims if a.track in targets] or claims)
        return self.own.choose(game, seat)

    def _promising_keeps(self, game: TTRGame, seat: int, keeps: list[A.KeepTickets]) -> list[A.KeepTickets]:
        """At most ``KEEPS_SEARCHED`` ways of keeping, best first by points against the trains their
        cheapest paths need (Switzerland offers 26 ways; a second can score only a few)."""
        merit: dict[str, tuple[float, float]] = {}
        for keep in keeps:
            for tid in keep.ids:
                if tid not in merit:
                    plan = self.heuristic._ticket_plan(game, seat, tid)
                    cost = plan[0] if plan is not None else 99.0
                    merit[tid] = (game.board.tickets[tid].points - cost, cost)
        spare = game.state.trains[seat] - sum(t.length for t in self.heuristic._targets(game, seat))

        def value(keep: A.KeepTickets) -> float:
            gain = sum(merit[tid][0] for tid in keep.ids)
            cost = sum(merit[tid][1] for tid in keep.ids)
            return gain - 2.0 * max(0.0, cost - spare)

        return sorted(keeps, key=value, reverse=True)[:KEEPS_SEARCHED]

    def estimate(self, game: TTRGame) -> list[float]:
        """Expected final score per seat: points so far, the trains it can still place, and each
        open ticket counted as won or lost by how well its remaining cost fits what is left."""
        st = game.state
        station_points = game.spec.unused_station_points
        # The game ends when someone is down to two trains; a seat places about 1.2 trains a turn.
        turns_left = (
            max(0.0, (min(st.trains) - 2) / 1.2)
            if st.final_turns_left is None
            else float(st.final_turns_left > 0)
        )
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
    """Ticket to Ride AI seat: the heuristic's moves, with its ticket plans searched by rollouts to
    the end of the game within a CPU-time budget and an iteration cap.

    ``budget_seconds=None`` makes the iteration count the only limit (deterministic for a seed)."""

    ROLLOUT_PLIES = 2000  # to the end of the game: a whole game is a few hundred moves
    MARGIN_SCALE = 12.0
    PRIOR_MARGIN = PRIOR_MARGIN
    # The heuristic's move, up to KEEPS_SEARCHED other keeps and the announcements of Märklin.
    MAX_CANDIDATES = 10
    HOOKS = SearchHooks(_Planner, action_key, canonical_view, observation_copy)
