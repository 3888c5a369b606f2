"""Scoring: connectivity, ticket values, longest trail, station choices and the final scores.

Pure functions over a board and a list of owned track indexes (or a game state), so they can be
tested on hand-built positions and reused by the AI.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import product
from typing import Any, Protocol

from rules.ttr.board import Board, City, TicketCard, Track
from rules.ttr.state import TTRState

# A component of the network with this many independent cycles (tracks - cities + 1, chains
# merged) or more has its longest trail searched from the top (see _longest_by_removal): the
# memoised search from each start grows with the number of trails, which explodes with cycles.
TOP_DOWN_MIN_CYCLES = 6
# Removal sets the top-down search tries before it gives up for the memoised search: the first
# number at TOP_DOWN_MIN_CYCLES, doubled with each further cycle, never more than the second. On
# the boards' networks (up to about eight cycles) a long trail, which costs the memoised search
# the most, is settled from the top in a few dozen tries; a short one (much of the network left
# out) may take the top-down search thousands, where the memoised search needs a few
# milliseconds: each try costs about 40 microseconds, so it gives up early.
TOP_DOWN_FIRST_STEPS = 40
TOP_DOWN_MAX_STEPS = 20_000
# Longer than any track: a city with no track left to remove.
NO_TRACK = 1 << 30
# What a top-down search's heap entry is (see _longest_by_removal).
SET_WORKS, SET_BOUNDED, SET_ROUGH = 0, 1, 2


class UnionFind:
    """Disjoint sets over node names, enough for "are these two cities connected"."""

    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self.parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:
            parent[x], x = root, parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def connected(self, a: str, b: str) -> bool:
        return self.find(a) == self.find(b)


def track_end(board: Board, node: str, track_index: int) -> str:
    """The graph node a track ends at. A neighbouring country is a destination, not a junction: each
    border route ends at its own point of that country (as the printed boards draw separate border
    arrows), so two routes into one country never connect the cities behind them."""
    return f"{node}#{track_index}" if board.cities[node].is_country else node


class Network(UnionFind):
    """A player's connected components; a country counts as reached through any of its border
    routes (see :func:`track_end`)."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def _ends(self, node: str) -> list[str]:
        if not self.board.cities[node].is_country:
            return [node]
        return [track_end(self.board, node, t.index) for t in self.board.tracks_at(node)]

    def connected(self, a: str, b: str) -> bool:
        roots = {self.find(x) for x in self._ends(a)}
        return any(self.find(y) in roots for y in self._ends(b))


def network(board: Board, tracks: Iterable[int]) -> Network:
    """The components of the network made of ``tracks``."""
    uf = Network(board)
    find = uf.find
    parent = uf.parent
    cities: Mapping[str, City] = board.cities
    all_tracks: Sequence[Track] = board.tracks
    for i in tracks:
        t = all_tracks[i]
        a, b = t.a, t.b
        ra = find(f"{a}#{i}" if cities[a].is_country else a)
        rb = find(f"{b}#{i}" if cities[b].is_country else b)
        if ra != rb:
            parent[ra] = rb
    return uf


def ticket_value(ticket: TicketCard, uf: UnionFind) -> tuple[int, bool]:
    """(points, completed). A card with several destinations scores its highest completed one, or
    loses its lowest when none is completed (Switzerland); a city–city card is simply ±points."""
    done = [pts for dest, pts in ticket.destinations if uf.connected(ticket.origin, dest)]
    if done:
        return max(done), True
    return -min(pts for _, pts in ticket.destinations), False


def tickets_total(board: Board, ticket_ids: Sequence[str], uf: UnionFind) -> tuple[int, int, int]:
    """(points won, points lost (negative), number completed)."""
    won = lost = completed = 0
    for tid in ticket_ids:
        value, ok = ticket_value(board.tickets[tid], uf)
        if ok:
            won += value
            completed += 1
        else:
            lost += value
    return won, lost, completed


class TrackGraph(Protocol):
    """What longest_trail reads of a board: a :class:`Board`, or any graph of tracks and cities
    (the brute-force tests and benchmarks build small ones)."""

    @property
    def tracks(self) -> Sequence[Track]: ...

    @property
    def cities(self) -> Mapping[str, City]: ...


def _track_ends(cities: Mapping[str, City], track: Track) -> tuple[str, str, int]:
    """A track's two ends and length as a trail sees them: a track to a country ends there alone
    (named apart), since a country joins no two tracks into one trail."""
    a, b = track.a, track.b
    if cities[a].is_country:
        a = f"{a}#{track.index}"
    if cities[b].is_country:
        b = f"{b}#{track.index}"
    return a, b, track.length


def longest_trail_length(board: TrackGraph, tracks: Sequence[int]) -> int:
    """Length in train spaces of the longest trail through ``tracks``, as :func:`longest_trail`
    gives it, without laying the trail out when no search is needed (see :func:`_euler_length`)."""
    length = _euler_length(board, tracks)
    return longest_trail(board, tracks)[0] if length is None else length


def _euler_length(board: TrackGraph, tracks: Sequence[int]) -> int | None:
    """The longest trail's length when no search is needed, else None.

    A connected piece of the network with at most two odd-degree cities has a trail through every
    track (Euler), so its length is its total; only when a piece without one could be longer is
    the search of :func:`longest_trail` needed."""
    if not tracks:
        return 0
    cities: Mapping[str, City] = board.cities
    all_tracks: Sequence[Track] = board.tracks
    neighbours: defaultdict[str, list[str]] = defaultdict(list)
    ends: list[tuple[str, int]] = []
    total = 0
    for i in tracks:
        a, b, length = _track_ends(cities, all_tracks[i])
        total += length
        ends.append((a, length))
        neighbours[a].append(b)
        neighbours[b].append(a)
    piece_of: dict[str, int] = {}
    pieces: list[list[str]] = []
    for start in neighbours:
        if start in piece_of:
            continue
        piece_of[start] = len(pieces)
        piece = [start]
        for city in piece:
            for other in neighbours[city]:
                if other not in piece_of:
                    piece_of[other] = len(pieces)
                    piece.append(other)
        pieces.append(piece)
        if len(piece) == len(neighbours):
            break  # all one piece (the usual network)
    if len(pieces) == 1:
        return total if sum(len(at) & 1 for at in neighbours.values()) <= 2 else None
    totals = [0] * len(pieces)
    for city, length in ends:
        totals[piece_of[city]] += length
    euler_best = other_best = 0
    for piece, piece_total in zip(pieces, totals, strict=True):
        if sum(len(neighbours[c]) & 1 for c in piece) <= 2:
            euler_best = max(euler_best, piece_total)
        else:
            other_best = max(other_best, piece_total)
    if other_best <= euler_best:
        return euler_best  # no other piece can beat it: its trail is shorter than its total
    return None


def longest_trail(board: TrackGraph, tracks: Sequence[int]) -> tuple[int, list[int]]:
    """Length in train spaces of the longest trail (no track used twice, cities may repeat) through
    ``tracks``, and the track indexes along it.

    Chains through cities with exactly two of the player's tracks are first merged into single
    edges: a longest trail that enters such a city always leaves it by the other track, so merging
    changes no trail's length and leaves far fewer branches for the exhaustive search."""
    if not tracks:
        return 0, []
    # Edges as [u, v, length, track indexes from u to v]; vertices are city names.
    edges: list[list[Any]] = []
    incident: defaultdict[str, list[int]] = defaultdict(list)
    cities: Mapping[str, City] = board.cities
    all_tracks: Sequence[Track] = board.tracks
    for i in tracks:
        a, b, length = _track_ends(cities, all_tracks[i])
        k = len(edges)
        edges.append([a, b, length, [i]])
        incident[a].append(k)
        incident[b].append(k)
    alive = [True] * len(edges)
    for city in list(incident):
        inc = incident[city]
        if len(inc) != 2 or inc[0] == inc[1]:
            continue
        e1, e2 = edges[inc[0]], edges[inc[1]]
        # Orient both edges so the chain runs far1 -> city -> far2.
        if e1[1] != city:
            e1[0], e1[1], e1[3] = e1[1], e1[0], e1[3][::-1]
        if e2[0] != city:
            e2[0], e2[1], e2[3] = e2[1], e2[0], e2[3][::-1]
        merged = [e1[0], e2[1], e1[2] + e2[2], e1[3] + e2[3]]
        edges.append(merged)
        new_id = len(edges) - 1
        alive[inc[0]] = alive[inc[1]] = False
        alive.append(True)
        for end, old in ((e1[0], inc[0]), (e2[1], inc[1])):
            lst = incident[end]
            lst[lst.index(old)] = new_id
        del incident[city]
    live = [e for k, e in enumerate(edges) if alive[k]]
    names = {name: n for n, name in enumerate(incident)}
    names_list = list(names)
    adj: list[list[tuple[int, int, int]]] = [[] for _ in names]
    degree = [0] * len(names)
    ends: list[int] = []
    edge_nodes: list[tuple[int, int]] = []
    for k, (u, v, length, _) in enumerate(live):
        nu, nv = names[u], names[v]
        adj[nu].append((k, nv, length))
        if nu != nv:
            adj[nv].append((k, nu, length))
        degree[nu] += 1
        degree[nv] += 1
        ends.append(nu)
        edge_nodes.append((nu, nv))
    # Components, each with its start nodes: a maximal trail starts at an odd-degree node when its
    # component has one (anywhere in an all-even component), and its total length (every track).
    seen = [-1] * len(adj)
    components: list[tuple[list[int], list[int], int]] = []
    for start in range(len(adj)):
        if seen[start] >= 0:
            continue
        label = len(components)
        component = [start]
        seen[start] = label
        for node in component:
            for _, other, _ in adj[node]:
                if seen[other] < 0:
                    seen[other] = label
                    component.append(other)
        odd = [n for n in component if degree[n] % 2 == 1]
        components.append((component, odd or [start], 0))
    totals = [0] * len(components)
    edge_counts = [0] * len(components)
    for k, e in enumerate(live):
        totals[seen[ends[k]]] += e[2]
        edge_counts[seen[ends[k]]] += 1
    components = [(c, odd, totals[n]) for n, (c, odd, _) in enumerate(components)]
    # First the length. A component whose trail can use every track (0 or 2 odd nodes: Euler)
    # needs no search at all. One with many independent cycles is searched from the top (the
    # tracks a trail leaves out, fewest train spaces first), the others (and a top-down search
    # that gives up) by a search memoised on (node, tracks used).
    best_len = 0
    # Per component: (length, its memoised search or None, tracks left out (bit mask), first node).
    values: list[tuple[int, _TrailMemo | None, int, int]] = []
    for n, (component, starts, total) in enumerate(components):
        if total <= best_len:
            values.append((-1, None, 0, 0))  # cannot hold the first trail of the best length
            continue
        if len(starts) <= 2 or degree[starts[0]] % 2 == 0:
            values.append((total, None, 0, starts[0]))
        else:
            top_down: tuple[int, int, int] | int = 0
            cycles = edge_counts[n] - len(component) + 1
            if cycles >= TOP_DOWN_MIN_CYCLES:
                # The memoised search's cost grows about twofold with each independent cycle, so
                # the top-down search gets that many more tries before handing over to it: a few
                # dozen on a real board's network, the full allowance on a dense graph.
                steps = min(TOP_DOWN_MAX_STEPS, TOP_DOWN_FIRST_STEPS << min(cycles - TOP_DOWN_MIN_CYCLES, 16))
                top_down = _longest_by_removal(
                    adj, _component_edges(live, edge_nodes, seen, n), degree, total, steps
                )
            if isinstance(top_down, tuple):
                values.append((total - top_down[0], None, top_down[1], top_down[2]))
            else:
                # What the top-down search proved before giving up caps every trail: often the
                # length itself, and then the memoised search stops at the first trail that long.
                search = _TrailMemo(adj, total - top_down)
                values.append((search.longest(starts), search, 0, 0))
        best_len = max(best_len, values[-1][0])
    # Then the trail itself: the first one of that length in a fixed search order (components in
    # order, their start nodes in order, tracks in adjacency order), so the result is the same
    # trail whatever the search above pruned: at each node, the first track after which the
    # length can still be reached (by the memo, or for an Euler trail through the tracks kept
    # by the tracks left still hanging together).
    found: list[int] = []
    for (_, starts, _), (value, memo, left_out, first) in zip(components, values, strict=True):
        if value != best_len or best_len == 0:
            continue
        if memo is None:
            # Every track not left out, in one Euler trail: laid out in linear time (Hierholzer).
            for k, start in _euler_trail(adj, first, left_out):
                found.append(k if live[k][0] == names_list[start] else ~k)
            break
        used = left_out
        node = next(s for s in starts if memo.best_from(s, 0, memo.cap) >= best_len)
        length = 0
        while length < best_len:
            for k, other, ln in adj[node]:
                bit = 1 << k
                if used & bit:
                    continue
                need = best_len - length - ln
                if memo.best_from(other, used | bit, memo.cap - length - ln) >= need:
                    used |= bit
                    length += ln
                    found.append(k if live[k][0] == names_list[node] else ~k)
                    node = other
                    break
        break
    # ~k marks a (merged) edge walked from its far end: its tracks are listed reversed.
    return best_len, [i for k in found for i in (live[k][3] if k >= 0 else live[~k][3][::-1])]


def _component_edges(
    live: list[list[Any]], ends: list[tuple[int, int]], component_of: list[int], component: int
) -> list[tuple[int, int, int]]:
    """(edge, length, the two end nodes' bits xor-ed: how removing it changes which nodes have
    odd degree) of the merged edges of one component."""
    return [
        (k, e[2], (1 << u) ^ (1 << v))
        for k, (e, (u, v)) in enumerate(zip(live, ends, strict=True))
        if component_of[u] == component
    ]


def _longest_by_removal(
    adj: list[list[tuple[int, int, int]]],
    edges: list[tuple[int, int, int]],
    degree: list[int],
    total: int,
    max_steps: int,
) -> tuple[int, int, int] | int:
    """Longest trail of one component from the top: a trail is a connected set of tracks with at
    most two odd-degree cities (Euler), so the longest keeps every track but the cheapest set
    whose removal leaves such a set. Removal sets are searched best first, cheapest first, each
    one's cost bounded below by what its odd cities still need: every odd city but the trail's two
    ends must lose the tracks of a way to another odd city (first bounded by its shortest track,
    and when the set comes up, by its shortest way to the nearest odd city); the first one that
    works is the answer. Returns (train spaces left out, the edges left out as a bit mask, the
    node the trail starts from); after ``max_steps`` removal sets (too many to try), the train
    spaces every trail leaves out at least, as far as the search got."""
    order = sorted(edges, key=lambda e: e[1])
    lengths = [ln for _, ln, _ in order]
    bits = [1 << k for k, _, _ in order]
    flips = [flip for _, _, flip in order]
    prefix = [0]
    for ln in lengths:
        prefix.append(prefix[-1] + ln)
    touched = 0
    for flip in flips:
        touched |= flip
    odd = 0  # of this component's cities only: another piece's odd cities are no concern here
    for node, d in enumerate(degree):
        if d % 2 == 1 and touched >> node & 1:
            odd |= 1 << node
    n = len(order)
    # cheapest[i][node]: the shortest of tracks i, i+1, ... at ``node`` (the tracks are sorted, so
    # the first one found), NO_TRACK when none is; a loop changes no parity and is not counted.
    cheapest = [[NO_TRACK] * len(degree) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row = cheapest[i] = list(cheapest[i + 1])
        for city in _set_bits(flips[i]):
            row[city] = lengths[i]
    # city -> (track, other city, length): the tracks as the ways between odd cities see them.
    incident: list[list[tuple[int, int, int]]] = [[] for _ in degree]
    for j, flip in enumerate(flips):
        ends = list(_set_bits(flip))
        if len(ends) == 2:
            incident[ends[0]].append((j, ends[1], lengths[j]))
            incident[ends[1]].append((j, ends[0], lengths[j]))

    # What the tracks from i on must still cost, by the odd cities left: removal sets that differ
    # only in tracks before i with the same odd cities share it.
    still: dict[tuple[int, int, bool], int] = {}

    def bound(base_sum: int, base_odd: int, i: int, near: bool) -> int:
        """Least cost of a working removal set made of the base and tracks i, i+1, ... (one at
        least; -1: none works). At least (odd cities - 2) / 2 tracks go, and every odd city but
        the trail's two ends needs tracks removed from it to another odd city: one track, each
        serving two cities at most, or (``near``: dearer to compute) the whole way to the nearest
        odd city, each way serving two."""
        key = (base_odd, i, near)
        extra = still.get(key)
        if extra is None:
            extra = still[key] = still_to_remove(base_odd, i, near)
        return -1 if extra < 0 else base_sum + extra

    def still_to_remove(base_odd: int, i: int, near: bool) -> int:
        needed = max(1, (bin(base_odd).count("1") - 1) // 2)
        if i + needed > n:
            return -1
        if near:
            costs = _nearest_odd(incident, base_odd, i)
        else:
            row = cheapest[i]
            costs = [row[city] for city in _set_bits(base_odd)]
        parity = 0
        if len(costs) > 2:
            costs.sort()
            if costs[-3] >= NO_TRACK:
                return -1  # three odd cities with no track left to remove: no trail ends at all three
            parity = sum(costs[-3::-2])  # paired off from the dearest: each pair costs its dearer
        return max(prefix[i + needed] - prefix[i], parity)

    # Heap entries: (cost bound, tie-break, what it is, base cost, base odd cities, base edges,
    # index of the track added to the base). What it is: SET_WORKS, a removal set that works;
    # SET_BOUNDED, a set to expand, its bound the close one; SET_ROUGH, a set to expand whose bound
    # is the quick one (made close when it comes up first, so most sets never need it). Ties go
    # to the set pushed last: depth first along equal bounds, to a working set soonest.
    heap: list[tuple[int, int, int, int, int, int, int]] = []
    counter = 0
    first = bound(0, odd, 0, near=True)
    if first >= 0:
        heap.append((first, 0, SET_BOUNDED, 0, odd, 0, 0))
    steps = 0
    while heap:
        rough, _, kind, base_sum, base_odd, base_mask, i = heapq.heappop(heap)
        if kind == SET_WORKS:
            return base_sum, base_mask, i
        if kind == SET_ROUGH:
            close = bound(base_sum, base_odd, i, near=True)
            if close < 0:
                continue
            if close > rough:
                counter -= 1
                heapq.heappush(heap, (close, counter, SET_BOUNDED, base_sum, base_odd, base_mask, i))
                continue
        steps += 1
        if steps > max_steps:
            return rough  # no set still to try costs less
        cost = base_sum + lengths[i]
        odd_now = base_odd ^ flips[i]
        mask = base_mask | bits[i]
        if bin(odd_now).count("1") <= 2:
            start = _trail_start(adj, odd_now, mask)
            if start >= 0 and _all_reachable(adj, start, mask) == total - cost:
                counter -= 1
                heapq.heappush(heap, (cost, counter, SET_WORKS, cost, 0, mask, start))
        if i + 1 < n:
            for b_sum, b_odd, b_mask in ((cost, odd_now, mask), (base_sum, base_odd, base_mask)):
                quick = bound(b_sum, b_odd, i + 1, near=False)
                if quick >= 0:
                    counter -= 1
                    heapq.heappush(heap, (quick, counter, SET_ROUGH, b_sum, b_odd, b_mask, i + 1))
    return 0  # not reached: leaving out all tracks but one always works


def _nearest_odd(incident: list[list[tuple[int, int, int]]], odd: int, first: int) -> list[int]:
    """For each odd city, the distance to the nearest other odd city over tracks ``first`` on
    (NO_TRACK when there is none)."""
    out = []
    for city in _set_bits(odd):
        # Most odd cities have one next door by their shortest track: then no search is needed.
        shortest = to_odd = NO_TRACK
        for j, other, ln in incident[city]:
            if j >= first:
                if ln < shortest:
                    shortest = ln
                if ln < to_odd and odd >> other & 1:
                    to_odd = ln
        if to_odd > shortest:
            to_odd = _distance_to_odd(incident, odd, first, city, to_odd)
        out.append(to_odd)
    return out


def _set_bits(mask: int) -> Iterator[int]:
    """The positions of a mask's set bits, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def _distance_to_odd(
    incident: list[list[tuple[int, int, int]]], odd: int, first: int, city: int, limit: int
) -> int:
    """Dijkstra from ``city`` to the nearest other odd city over tracks ``first`` on, or ``limit``
    if that is no farther."""
    dist = {city: 0}
    heap = [(0, city)]
    while heap:
        d, node = heapq.heappop(heap)
        if d >= limit:
            return limit
        if node != city and odd >> node & 1:
            return d
        if d > dist[node]:
            continue
        for j, other, ln in incident[node]:
            nd = d + ln
            if j >= first and nd < dist.get(other, limit):
                dist[other] = nd
                heapq.heappush(heap, (nd, other))
    return limit


def _euler_trail(adj: list[list[tuple[int, int, int]]], first: int, removed: int) -> list[tuple[int, int]]:
    """An Euler trail from ``first`` over every track of its component not ``removed`` (a bit
    mask), as ``(track, the node it is walked from)`` in order; the tracks kept must be connected
    with ``first`` odd when two nodes are (Hierholzer's algorithm, linear in the tracks)."""
    used = removed
    next_track = [0] * len(adj)
    stack: list[tuple[int, int, int]] = [(first, -1, -1)]  # (node, track that reached it, from)
    trail: list[tuple[int, int]] = []
    while stack:
        node, arrived_by, came_from = stack[-1]
        tracks = adj[node]
        i = next_track[node]
        while i < len(tracks) and used >> tracks[i][0] & 1:
            i += 1
        next_track[node] = i
        if i == len(tracks):
            stack.pop()
            if arrived_by >= 0:
                trail.append((arrived_by, came_from))
        else:
            k, other, _ = tracks[i]
            used |= 1 << k
            stack.append((other, k, node))
    trail.reverse()
    return trail


def _trail_start(adj: list[list[tuple[int, int, int]]], odd: int, removed: int) -> int:
    """Where an Euler trail over the tracks not ``removed`` starts: the first odd city, else the
    first city with a track left (-1 when none is left)."""
    if odd:
        return (odd & -odd).bit_length() - 1
    for node, tracks in enumerate(adj):
        for k, _, _ in tracks:
            if not removed >> k & 1:
                return node
    return -1


def _all_reachable(adj: list[list[tuple[int, int, int]]], start: int, used: int) -> int:
    """Total length of the unused tracks reachable from ``start`` (``used``: bit mask)."""
    seen = {start}
    stack = [start]
    total = 0
    while stack:
        node = stack.pop()
        for k, other, ln in adj[node]:
            if not used & (1 << k):
                used |= 1 << k
                total += ln
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    return total


class _TrailMemo:
    """Longest trail from a node over the tracks not yet used (a bit mask), memoised on both;
    ``cap``: no trail of the component is longer (its total length, or a closer bound).

    It runs once per state of the search, tens of thousands of times on a hard network, so each
    node's tracks are kept as (bit, other node, length, whether the other node is a dead end) and
    a state's key is one integer: the used tracks shifted past the node number."""

    __slots__ = ("ways", "shift", "cap", "memo")

    def __init__(self, adj: list[list[tuple[int, int, int]]], cap: int) -> None:
        # A way into a dead end (a city with this one track) ends the trail there: no search.
        self.ways = [[(1 << k, other, ln, len(adj[other]) == 1) for k, other, ln in tracks] for tracks in adj]
        self.shift = max(1, len(adj)).bit_length()
        self.cap = cap
        self.memo: dict[int, int] = {}

    def longest(self, starts: list[int]) -> int:
        """The longest trail from any of ``starts``, the component's odd cities."""
        best = 0
        for node in starts:
            best = max(best, self.best_from(node, 0, self.cap))
            if best == self.cap:
                break
        return best

    def best_from(self, node: int, used: int, remaining: int) -> int:
        """The longest trail from ``node`` without the ``used`` tracks; ``remaining`` is the cap
        less the used tracks (no trail from here is longer: the search stops there)."""
        key = used << self.shift | node
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        best = 0
        for bit, other, ln, dead_end in self.ways[node]:
            if not used & bit:
                candidate = ln if dead_end else ln + self.best_from(other, used | bit, remaining - ln)
                if candidate > best:
                    best = candidate
                    if best == remaining:
                        break
        self.memo[key] = best
        return best


def best_station_choices(
    board: Board,
    own_tracks: Sequence[int],
    ticket_ids: Sequence[str],
    station_cities: Sequence[str],
    owner: Sequence[int],
    seat: int,
) -> tuple[dict[str, int | None], tuple[int, int, int]]:
    """Pick, for each of ``seat``'s stations, one opponent track into its city (or none) so that the
    tickets score the most. Returns ({city: borrowed track index or None}, tickets_total(...)).

    The answer is the first best choice in the order of the cities and of ``board.tracks_at``
    (none first). Choices that cannot differ are searched once: two tracks of one station leading
    into the same part of the seat's own network give the same connections, as does a track leading
    into the station's own part, or into a part with no ticket city, no station and no other
    station's track (these equal borrowing nothing, which comes first)."""
    own = network(board, own_tracks)
    best = tickets_total(board, ticket_ids, own)
    best_choice: dict[str, int | None] = {c: None for c in station_cities}
    if not ticket_ids:
        return best_choice, best
    find = own.find
    tickets = [board.tickets[tid] for tid in ticket_ids]
    # The very best a choice could do: every ticket at its highest destination.
    ceiling = (sum(max(p for _, p in t.destinations) for t in tickets), len(tickets))
    if (best[0] + best[1], best[2]) >= ceiling:
        return best_choice, best

    def roots(node: str) -> list[str]:
        return [find(end) for end in own._ends(node)]

    ticket_roots = [(roots(t.origin), [(roots(dest), pts) for dest, pts in t.destinations]) for t in tickets]
    homes = [find(city) for city in station_cities]
    leads: list[list[tuple[int, str]]] = []
    for city in station_cities:
        leads.append(
            [
                (t.index, find(track_end(board, t.b if t.a == city else t.a, t.index)))
                for t in board.tracks_at(city)
                if owner[t.index] not in (-1, seat)
            ]
        )
    relevant = set(homes)
    for origin_roots, dests in ticket_roots:
        relevant.update(origin_roots)
        for dest_roots, _ in dests:
            relevant.update(dest_roots)
    reached_by: dict[str, set[int]] = {}
    for n, city_leads in enumerate(leads):
        for _, root in city_leads:
            reached_by.setdefault(root, set()).add(n)
    relevant.update(root for root, cities in reached_by.items() if len(cities) > 1)
    options: list[list[tuple[int, str] | None]] = []
    for home, city_leads in zip(homes, leads, strict=True):
        distinct: list[tuple[int, str] | None] = [None]
        seen = {home}
        for index, root in city_leads:
            if root in relevant and root not in seen:
                seen.add(root)
                distinct.append((index, root))
        options.append(distinct)
    best_key = (best[0] + best[1], best[2])
    for combo in product(*options):
        parent: dict[str, str] = {}
        top = partial(_top, parent)
        for home, lead in zip(homes, combo, strict=True):
            if lead is not None:
                a, b = top(home), top(lead[1])
                if a != b:
                    parent[a] = b
        if not parent:
            continue  # borrowing nothing new: the seat's own network, already counted
        won = lost = completed = 0
        for origin_roots, dests in ticket_roots:
            here = {top(r) for r in origin_roots}
            done = [pts for dest_roots, pts in dests if any(top(r) in here for r in dest_roots)]
            if done:
                won += max(done)
                completed += 1
            else:
                lost -= min(pts for _, pts in dests)
        key = (won + lost, completed)
        if key > best_key:
            best_key, best = key, (won, lost, completed)
            best_choice = {
                city: None if lead is None else lead[0]
                for city, lead in zip(station_cities, combo, strict=True)
            }
            if key >= ceiling:
                break
    return best_choice, best


def _top(parent: dict[str, str], x: str) -> str:
    """The representative of ``x`` in a small union-find held as a child -> parent dict."""
    while x in parent:
        x = parent[x]
    return x


def own_tracks(state: TTRState, seat: int) -> list[int]:
    """Indexes of the tracks ``seat`` holds."""
    return [i for i, o in enumerate(state.owner) if o == seat]


def ticket_json(board: Board, tid: str) -> dict[str, Any]:
    """A ticket as shown in views and scores."""
    t = board.tickets[tid]
    points, text = t.facts
    return {
        "id": t.id,
        "origin": t.origin,
        "destinations": [list(d) for d in t.destinations],
        "kind": t.kind,
        "points": points,
        "text": text,
    }


def _scored_ticket(t: TicketCard, done: bool, value: int) -> dict[str, Any]:
    """A ticket as listed in scores and ticket status: :func:`ticket_json` with its outcome."""
    points, text = t.facts
    return {
        "id": t.id,
        "origin": t.origin,
        "destinations": [list(d) for d in t.destinations],
        "kind": t.kind,
        "points": points,
        "text": text,
        "completed": done,
        "value": value,
    }


def ticket_status(board: Board, state: TTRState, seat: int) -> list[dict[str, Any]]:
    """The seat's tickets with their current value against its own routes (no stations)."""
    uf = network(board, own_tracks(state, seat))
    out = []
    for tid in state.tickets[seat]:
        card = board.tickets[tid]
        value, done = ticket_value(card, uf)
        out.append(_scored_ticket(card, done, value))
    return out


def public_score(state: TTRState, seat: int) -> int:
    """The score everyone can see during play: routes and merchandise."""
    return state.route_score[seat] + sum(state.merch_taken[seat])


def final_scores(board: Board, state: TTRState, players: int) -> list[dict[str, Any]]:
    """Scores with a breakdown per seat (total == sum of the breakdown), ranks and winners.

    Callable at any time; before the end it shows what the score would be if the game ended now."""
    spec = board.spec
    rows: list[dict[str, Any]] = []
    trails: list[int] = []
    networks: list[list[int]] = []
    searched: list[list[int] | None] = []
    for seat in range(players):
        own = own_tracks(state, seat)
        my_stations = [c for c, s in state.station_at.items() if s == seat]
        tickets = []
        if my_stations:
            choice, (won, lost, completed) = best_station_choices(
                board, own, state.tickets[seat], my_stations, state.owner, seat
            )
            borrowed = [board.tracks[i].id for i in choice.values() if i is not None]
            uf = network(board, own + [i for i in choice.values() if i is not None])
            for tid in state.tickets[seat]:
                card = board.tickets[tid]
                value, done = ticket_value(card, uf)
                tickets.append(_scored_ticket(card, done, value))
        else:
            # The same sums as tickets_total, from the one pass that lists the tickets.
            won = lost = completed = 0
            borrowed = []
            uf = network(board, own)
            for tid in state.tickets[seat]:
                card = board.tickets[tid]
                value, done = ticket_value(card, uf)
                if done:
                    won += value
                    completed += 1
                else:
                    lost += value
                tickets.append(_scored_ticket(card, done, value))
        # Every seat's length; a trail is laid out only where the final board highlights it (the
        # longest), and a network that needed the search keeps the trail that search found.
        length = _euler_length(board, own)
        trail: list[int] | None = None
        if length is None:
            length, trail = longest_trail(board, own)
        trails.append(length)
        networks.append(own)
        searched.append(trail)
        breakdown = {"routes": state.route_score[seat], "tickets_won": won, "tickets_lost": lost}
        if spec.unused_station_points:
            breakdown["stations"] = spec.unused_station_points * state.stations_left[seat]
        if spec.passengers > 0:
            breakdown["merchandise"] = sum(state.merch_taken[seat])
        rows.append(
            {
                "seat": seat,
                "breakdown": breakdown,
                "tickets": tickets,
                "tickets_completed": completed,
                "borrowed_routes": borrowed,
                "stations_used": len(my_stations),
            }
        )
    best_trail = max(trails)
    bonus = spec.longest_path_bonus
    most = spec.most_tickets_bonus
    most_done = max(row["tickets_completed"] for row in rows)
    for seat, row in enumerate(rows):
        row["longest_trail"] = trails[seat]
        laid_out: list[int] = []
        if trails[seat] == best_trail > 0:
            laid_out = searched[seat] or longest_trail(board, networks[seat])[1]
        row["longest_trail_tracks"] = [board.tracks[i].id for i in laid_out]
        if bonus:
            row["breakdown"]["longest_path"] = bonus if trails[seat] == best_trail and best_trail > 0 else 0
        if most:
            row["breakdown"]["most_tickets"] = (
                most if row["tickets_completed"] == most_done and most_done > 0 else 0
            )
        row["total"] = sum(row["breakdown"].values())

    def key(row: dict[str, Any]) -> tuple[int, ...]:
        parts = [row["total"]]
        for tb in spec.tie_breaks:
            if tb == "tickets_completed":
                parts.append(row["tickets_completed"])
            elif tb == "fewest_stations_used":
                parts.append(-row["stations_used"])
            elif tb == "longest_path":
                parts.append(int(row["longest_trail"] == best_trail))
        return tuple(parts)

    keys = [key(row) for row in rows]
    for row, k in zip(rows, keys, strict=True):
        row["rank"] = 1 + sum(1 for other in keys if other > k)
        row["winner"] = row["rank"] == 1
    return rows
