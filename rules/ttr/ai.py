"""AI seats for Ticket to Ride: a uniform-random player and a ticket-planning heuristic player.

Both only read what their seat may know (the game's public state plus their own hand and tickets)
and choose among ``game.legal_actions(seat)``, so they can never make an illegal move.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator, Sequence

from rules.protocol import Action, Game
from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, COLOURS, GRAY, LOCO, Board, TicketCard, Track
from rules.ttr.game import TTRGame


class RandomAI:
    """Chooses uniformly among the legal actions; deterministic for a given seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"random-ai:{seed}")

    def choose(self, game: Game, seat: int) -> Action:
        return self.rng.choice(game.legal_actions(seat))


PlanGraph = dict[str, list[tuple[Track, float]]]


def plan_graph(game: TTRGame, seat: int, borrow: bool = False) -> PlanGraph:
    """City -> (track, cost) over the tracks ``seat`` could use in a plan: free if ours, its length
    if still claimable (a tunnel or ferry a little dearer), else unusable (with ``borrow``, an
    opponent's track costs a station: 4 points' worth). It depends only on who owns which track,
    so a caller may keep it while ownership is unchanged."""
    return plan_graph_of(game.board, game.state.owner, game.players, seat, borrow)


def plan_graph_of(
    board: Board, owner: Sequence[int], players: int, seat: int, borrow: bool = False
) -> PlanGraph:
    """:func:`plan_graph` from the position's public parts (who owns each track, how many seats),
    for a front end that reads a view rather than a game."""
    adj: PlanGraph = {}
    # A free track with a taken sibling is closed to us if we hold the sibling, or if the other
    # track of a double route is closed at this table size.
    siblings_closed = players < board.spec.double_routes_min_players
    for t in board.tracks:
        held = owner[t.index]
        if held == seat:
            cost = 0.0
        elif held != -1:
            if not borrow:
                continue
            cost = 4.0
        else:
            if any(owner[sib] == seat or (owner[sib] != -1 and siblings_closed) for sib in t.siblings):
                continue
            cost = t.length + (0.5 if t.tunnel else 0.0) + t.ferry_locos * 0.5
        edge = (t, cost)
        adj.setdefault(t.a, []).append(edge)
        adj.setdefault(t.b, []).append(edge)
    return adj


def _settled(
    game: TTRGame, origin: str, graph: PlanGraph
) -> Iterator[tuple[str, float, dict[str, tuple[str, Track]]]]:
    """Dijkstra from ``origin`` over ``graph``: each node as it is settled, cheapest first, with
    the predecessors found so far (enough to trace that node's path back)."""
    return _settled_on(game.board, origin, graph)


def _settled_on(
    board: Board, origin: str, graph: PlanGraph
) -> Iterator[tuple[str, float, dict[str, tuple[str, Track]]]]:
    cities = board.cities
    dist = {origin: 0.0}
    prev: dict[str, tuple[str, Track]] = {}
    heap: list[tuple[float, str]] = [(0.0, origin)]
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist.get(node, float("inf")):
            continue
        yield node, d, prev
        # Countries are destinations, not junctions: a route never runs through one.
        if cities[node].is_country and node != origin:
            continue
        for t, c in graph.get(node, ()):
            other = t.b if node == t.a else t.a
            nd = d + c
            if nd < dist.get(other, float("inf")):
                dist[other] = nd
                prev[other] = (node, t)
                heapq.heappush(heap, (nd, other))


def _path_to(node: str, origin: str, prev: dict[str, tuple[str, Track]]) -> list[Track]:
    path: list[Track] = []
    while node != origin:
        node, track = prev[node]
        path.append(track)
    return path


def cheapest_paths(
    game: TTRGame, origin: str, goals: set[str], graph: PlanGraph
) -> dict[str, tuple[float, list[Track]]]:
    """For each node of ``goals`` reachable on ``graph``, the plan :func:`shortest_path` would give
    for that goal alone: one Dijkstra run settles them all (a country ticket has up to four)."""
    found: dict[str, tuple[float, list[Track]]] = {}
    if not goals:
        return found
    for node, d, prev in _settled(game, origin, graph):
        if node in goals:
            found[node] = (d, _path_to(node, origin, prev))
            if len(found) == len(goals):
                break
    return found


def shortest_path(
    game: TTRGame,
    seat: int,
    origin: str,
    goals: set[str],
    borrow: bool = False,
    graph: PlanGraph | None = None,
) -> tuple[float, list[Track]] | None:
    """Cheapest plan (cost, tracks) from ``origin`` to any node of ``goals`` over own and free tracks
    (and, with ``borrow``, opponents' tracks that a station could lend); ``graph`` is the
    :func:`plan_graph` of the same position, if the caller already has it."""
    adj = plan_graph(game, seat, borrow) if graph is None else graph
    return shortest_path_on(game.board, origin, goals, adj)


def shortest_path_on(
    board: Board, origin: str, goals: set[str], graph: PlanGraph
) -> tuple[float, list[Track]] | None:
    """:func:`shortest_path` over a :func:`plan_graph_of` of ``board``."""
    for node, d, prev in _settled_on(board, origin, graph):
        if node in goals:
            return d, _path_to(node, origin, prev)
    return None


def ticket_route(game: TTRGame, card: TicketCard, graph: PlanGraph) -> tuple[float, list[Track], int] | None:
    """The plan for a ticket over ``graph``: (its cost on the graph, its tracks, the points of the
    destination it reaches), or None when no destination can be reached. On a card with several
    destinations (a country ticket) the one with the best points for its cost."""
    paths = cheapest_paths(game, card.origin, {dest for dest, _ in card.destinations}, graph)
    best: tuple[float, float, list[Track], int] | None = None
    for dest, pts in card.destinations:
        found = paths.get(dest)
        if found is None:
            continue
        score = found[0] - (pts * 0.3 if card.is_multi else 0)
        if best is None or score < best[0]:
            best = (score, found[0], found[1], pts)
    return None if best is None else (best[1], best[2], best[3])


class HeuristicAI:
    """Plans its tickets: keeps achievable ones, claims along the cheapest paths over free and own
    routes, draws the colours those routes need, and draws more tickets when it has spare trains."""

    # Every ticket done and more trains than this: draw more tickets.
    DRAW_TICKETS_ABOVE = 14
    # Märklin: a passenger sets off once its best journey collects this many merchandise points.
    PASSENGER_MIN_VALUE = 8

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"heuristic-ai:{seed}")

    # -- planning
    def _plan_graph(self, game: TTRGame, seat: int) -> PlanGraph:
        """The graph a ticket plan is searched on (a subclass may remember it)."""
        return plan_graph(game, seat)

    def _ticket_plan(self, game: TTRGame, seat: int, tid: str) -> tuple[float, list[Track]] | None:
        plan = ticket_route(game, game.board.tickets[tid], self._plan_graph(game, seat))
        if plan is None:
            return None
        return sum(t.length for t in plan[1] if game.state.owner[t.index] == -1), plan[1]

    def _open_tickets(self, game: TTRGame, seat: int) -> list[str]:
        """The seat's tickets not yet completed by its own tracks (a subclass may remember them)."""
        return [info["id"] for info in game.ticket_status(seat) if not info["completed"]]

    def _all_tickets_done(self, game: TTRGame, seat: int) -> bool:
        return not self._open_tickets(game, seat)

    def _targets(self, game: TTRGame, seat: int) -> list[Track]:
        targets: dict[int, Track] = {}
        for tid in self._open_tickets(game, seat):
            plan = self._ticket_plan(game, seat, tid)
            if plan is None:
                continue
            for t in plan[1]:
                if game.state.owner[t.index] == -1:
                    targets[t.index] = t
        return list(targets.values())

    def _choose_tickets(self, game: TTRGame, seat: int, offer: list[str], lo: int, hi: int) -> A.KeepTickets:
        scored = []
        for tid in offer:
            plan = self._ticket_plan(game, seat, tid)
            cost = plan[0] if plan else 99.0
            pts = game.board.tickets[tid].points
            scored.append((cost - pts * 0.6, cost, tid))
        scored.sort()
        budget = game.state.trains[seat] - sum(t.length for t in self._targets(game, seat)) - 4
        kept = [tid for _, _, tid in scored[:lo]]
        for _, cost, tid in scored[lo:]:
            if len(kept) >= hi:
                break
            if cost <= budget * 0.5 and cost < 12:
                kept.append(tid)
                budget -= int(cost)
        return A.KeepTickets(tuple(kept))

    # -- acting
    def choose(self, game: Game, seat: int) -> Action:
        if not isinstance(game, TTRGame):
            raise TypeError(f"a Ticket to Ride AI cannot play {game.game_name}")
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        view_pending = game.state.pending
        if game.state.phase == "setup" or view_pending == "tickets":
            if game.state.offers[seat] is None:
                return self._announce(game, legal)
            lo, hi = game._ticket_keep_bounds(seat)
            return self._choose_tickets(game, seat, game.state.offers[seat] or [], lo, hi)
        if view_pending == "passenger":
            return self._journey_step(game, seat, legal)
        if view_pending == "tunnel":
            pays = [a for a in legal if isinstance(a, A.PayTunnel)]
            return min(pays, key=lambda a: dict(a.cards).get("locomotive", 0)) if pays else A.WithdrawTunnel()
        targets = self._targets(game, seat)
        needed = self._needed_colours(game, seat, targets)
        if view_pending == "draw_second":
            return self._draw(game, legal, needed, second=True)
        claims = [a for a in legal if isinstance(a, A.ClaimRoute)]
        move = self._passenger_move(game, seat, legal) or self._station(game, seat, legal)
        if move is not None:
            return move
        # The tunnel rule is asked only of the claims each step considers (a hand offers every
        # payment of every route: over a hundred claims, of which a plan needs a few).
        target_ids = {t.id for t in targets}
        on_plan = [a for a in claims if a.track in target_ids and self._tunnel_affordable(game, seat, a)]
        if on_plan:
            return self._best_claim(game, seat, on_plan)
        if game.state.trains[seat] > self.DRAW_TICKETS_ABOVE and self._all_tickets_done(game, seat):
            draws = [a for a in legal if isinstance(a, A.DrawTickets)]
            if draws:
                return self._announce(game, draws)
        # Late in the game (or with no plan) any claim beats drawing; otherwise only if no draw is left.
        late = not targets or game.state.trains[seat] <= 6 or game.state.final_turns_left is not None
        draw_actions = [a for a in legal if isinstance(a, A.DrawFaceUp | A.DrawDeck)]
        if late or not draw_actions:
            claims = [a for a in claims if self._tunnel_affordable(game, seat, a)]
            if claims:
                return self._best_claim(game, seat, claims)
        if draw_actions:
            return self._draw(game, legal, needed, second=False)
        others = [a for a in legal if not isinstance(a, A.BuildStation)]
        return self.rng.choice(others or legal)

    @staticmethod
    def _tunnel_affordable(game: TTRGame, seat: int, claim: A.ClaimRoute) -> bool:
        """Try a tunnel only with at least two spare matching cards for the surcharge: otherwise a
        reveal usually forces a withdrawal and the turn is lost."""
        track = game.board.track_by_id[claim.track.lower()]
        if not track.tunnel:
            return True
        hand = game.state.hands[seat]
        paid = dict(claim.cards)
        spare = hand[LOCO] - paid.get("locomotive", 0)
        for name, count in paid.items():
            if name in COLOURS:
                spare += hand[CARD_INDEX[name]] - count
        return spare >= 2

    def _announce(self, game: TTRGame, legal: Sequence[A.Action]) -> A.Action:
        draws = [a for a in legal if isinstance(a, A.DrawTickets)]
        # Märklin: mostly short tickets early, they are easier to complete.
        prefer = [a for a in draws if a.short >= 3] or draws
        return prefer[-1] if prefer else legal[0]

    def _needed_colours(self, game: TTRGame, seat: int, targets: list[Track]) -> dict[int, int]:
        need: dict[int, int] = {}
        hand = game.state.hands[seat]
        for t in targets:
            if t.colour != GRAY:
                need[t.colour] = need.get(t.colour, 0) + t.length
        for c in list(need):
            need[c] = max(0, need[c] - hand[c])
        gray = sum(t.length for t in targets if t.colour == GRAY)
        if gray:
            best = max(range(len(COLOURS)), key=lambda c: hand[c])
            need[best] = need.get(best, 0) + max(0, gray - hand[best])
        return need

    def _draw(self, game: TTRGame, legal: list[A.Action], needed: dict[int, int], second: bool) -> A.Action:
        faces = [a for a in legal if isinstance(a, A.DrawFaceUp)]
        best_face = None
        best_gain = 0
        for a in faces:
            card = game.state.face_up[a.slot]
            gain = needed.get(card, 0) if card < len(COLOURS) else 0
            if gain > best_gain:
                best_face, best_gain = a, gain
        if best_face is not None:
            return best_face
        if not second:
            for a in faces:
                if game.state.face_up[a.slot] == LOCO:
                    return a
        if any(isinstance(a, A.DrawDeck) for a in legal):
            return A.DrawDeck()
        return faces[0] if faces else legal[0]

    def _best_claim(self, game: TTRGame, seat: int, claims: list[A.ClaimRoute]) -> A.ClaimRoute:
        hand = game.state.hands[seat]

        def key(a: A.ClaimRoute) -> tuple[float, ...]:
            track = game.board.track_by_id[a.track.lower()]
            cards = dict(a.cards)
            wild = cards.get("locomotive", 0) + cards.get("plus4", 0)
            colour = next((CARD_INDEX[n] for n in cards if n in COLOURS), None)
            spare = hand[colour] - cards.get(COLOURS[colour], 0) if colour is not None else 0
            merch = 0
            if a.passenger:
                stack = game.state.merchandise.get(a.passenger) or [0]
                merch = stack[0]
            return (track.length, -wild, -spare if track.colour == GRAY else 0, merch)

        return max(claims, key=key)

    def _station(self, game: TTRGame, seat: int, legal: list[A.Action]) -> A.Action | None:
        """Build a station when an open ticket can no longer be completed on free track but one
        opponent route would close the gap (Europe)."""
        stations = [a for a in legal if isinstance(a, A.BuildStation)]
        if not stations:
            return None
        mine = {c for c, s in game.state.station_at.items() if s == seat}
        for info in game.ticket_status(seat):
            if info["completed"] or self._ticket_plan(game, seat, info["id"]) is not None:
                continue
            card = game.board.tickets[info["id"]]
            found = shortest_path(game, seat, card.origin, {d for d, _ in card.destinations}, borrow=True)
            if found is None:
                continue
            borrowed = [t for t in found[1] if game.state.owner[t.index] not in (-1, seat)]
            if len(borrowed) != 1 or borrowed[0].a in mine or borrowed[0].b in mine:
                continue
            cities = {borrowed[0].a, borrowed[0].b}
            options = [a for a in stations if a.city in cities]
            if options:
                # Prefer paying with the colour we hold most of, sparing locomotives.
                return min(
                    options,
                    key=lambda a: (
                        dict(a.cards).get("locomotive", 0),
                        -max(game.state.hands[seat][CARD_INDEX[n]] for n, _ in a.cards),
                    ),
                )
        return None

    @staticmethod
    def _journey_value(
        game: TTRGame, seat: int, tracks: tuple[str, ...], start: str, here: str, seen: set[str]
    ) -> int:
        """Merchandise points a journey's (remaining) ``tracks`` collect from ``here``: the top token
        of each city entered that is not the start and gave nothing yet on this journey."""
        total, seen = 0, set(seen)
        for tid in tracks:
            t = game.board.track_by_id[tid.lower()]
            here = t.b if here == t.a else t.a
            if here != start and here not in seen:
                seen.add(here)
                stack = game.state.merchandise.get(here)
                total += stack[0] if stack else 0
        return total

    def _passenger_move(self, game: TTRGame, seat: int, legal: list[A.Action]) -> A.Action | None:
        """Set off with the passenger whose best journey (searched whole, then played route by
        route) collects enough merchandise: ``PASSENGER_MIN_VALUE`` points, or any once the game
        nears its end."""
        starts = [a for a in legal if isinstance(a, A.StartJourney)]
        if not starts:
            return None
        best_start, best_value = None, -1
        for a in starts:
            for journey in game.passenger_journeys(seat, a.city):
                value = self._journey_value(game, seat, journey, a.city, a.city, set())
                if value > best_value:
                    best_start, best_value = a, value
        late = game.state.final_turns_left is not None or game.state.trains[seat] <= 8
        threshold = self.PASSENGER_MIN_VALUE if not late else 1
        if best_start is not None and best_value >= threshold:
            return best_start
        return None

    def _journey_step(self, game: TTRGame, seat: int, legal: list[A.Action]) -> A.Action:
        """The next route of the best way on for the travelling passenger (most merchandise, then
        fewest fares, then fewest routes); the end of the journey once nothing more is gained."""
        journey = game.state.journey
        stop = next((a for a in legal if isinstance(a, A.EndJourney)), None)
        if journey is None:
            return stop or legal[0]
        start, here, seen = journey["start"], journey["at"], set(journey["collected"])
        best: tuple[int, int, int] | None = None
        first = None
        for rest in game.passenger_journeys(seat):
            value = self._journey_value(game, seat, rest, start, here, seen)
            fares = sum(
                1 for tid in rest if game.state.owner[game.board.track_by_id[tid.lower()].index] != seat
            )
            key = (value, -fares, -len(rest))
            if best is None or key > best:
                best, first = key, rest[0]
        if best is not None and first is not None and (best[0] > 0 or stop is None):
            step = next((a for a in legal if isinstance(a, A.TravelRoute) and a.track == first), None)
            if step is not None:
                return step
        return stop or legal[0]
