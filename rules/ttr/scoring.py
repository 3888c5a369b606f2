"""End-of-game scoring helpers: connectivity, ticket values, longest trail, station choices.

Pure functions over a board and a list of owned track indexes, so they can be tested on
hand-built positions and reused by the AI.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from rules.ttr.board import Board, TicketCard


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


def network(board: Board, tracks: Iterable[int]) -> UnionFind:
    uf = UnionFind()
    for i in tracks:
        t = board.tracks[i]
        uf.union(t.a, t.b)
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


def longest_trail(board: Board, tracks: Sequence[int]) -> tuple[int, list[int]]:
    """Length in train spaces of the longest trail (no track used twice, cities may repeat) through
    ``tracks``, and the track indexes along it."""
    if not tracks:
        return 0, []
    adj: dict[str, list[tuple[int, str, int]]] = {}
    for i in tracks:
        t = board.tracks[i]
        adj.setdefault(t.a, []).append((i, t.b, t.length))
        adj.setdefault(t.b, []).append((i, t.a, t.length))
    best_len = 0
    best_path: list[int] = []
    used: set[int] = set()
    path: list[int] = []

    def dfs(node: str, length: int) -> None:
        nonlocal best_len, best_path
        if length > best_len:
            best_len = length
            best_path = path.copy()
        for idx, other, ln in adj[node]:
            if idx not in used:
                used.add(idx)
                path.append(idx)
                dfs(other, length + ln)
                path.pop()
                used.discard(idx)

    # A maximal trail starts at an odd-degree node when the component has one; starting only there
    # (or anywhere in an all-even component) finds the same maximum with far fewer searches.
    starts: list[str] = []
    seen: set[str] = set()
    for node in adj:
        if node in seen:
            continue
        component = _component(adj, node)
        seen |= component
        odd = [n for n in component if len(adj[n]) % 2 == 1]
        starts.extend(odd if odd else [node])
    for node in starts:
        dfs(node, 0)
    return best_len, best_path


def _component(adj: dict[str, list[tuple[int, str, int]]], start: str) -> set[str]:
    stack, comp = [start], {start}
    while stack:
        n = stack.pop()
        for _, other, _ in adj[n]:
            if other not in comp:
                comp.add(other)
                stack.append(other)
    return comp


def best_station_choices(
    board: Board,
    own_tracks: Sequence[int],
    ticket_ids: Sequence[str],
    station_cities: Sequence[str],
    owner: Sequence[int],
    seat: int,
) -> tuple[dict[str, int | None], tuple[int, int, int]]:
    """Pick, for each of ``seat``'s stations, one opponent track into its city (or none) so that the
    tickets score the most. Returns ({city: borrowed track index or None}, tickets_total(...))."""
    options: list[list[int | None]] = []
    for city in station_cities:
        opts: list[int | None] = [None]
        opts += [t.index for t in board.tracks_at(city) if owner[t.index] not in (-1, seat)]
        options.append(opts)
    best_choice: dict[str, int | None] = {c: None for c in station_cities}
    best = tickets_total(board, ticket_ids, network(board, own_tracks))
    if not ticket_ids:
        return best_choice, best
    for combo in product(*options):
        borrowed = [i for i in combo if i is not None]
        if not borrowed:
            continue
        result = tickets_total(board, ticket_ids, network(board, [*own_tracks, *borrowed]))
        if (result[0] + result[1], result[2]) > (best[0] + best[1], best[2]):
            best = result
            best_choice = dict(zip(station_cities, combo, strict=True))
    return best_choice, best
