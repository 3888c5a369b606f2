"""Multiplayer Swiss pairing: tables by standing, few repeat meetings, balanced seats and boards.

A round is paired in four steps, all deterministic for a given seed:

1. :func:`table_sizes` splits the field into tables of the chosen size, using the other allowed
   sizes only as far as the numbers need them.
2. Players are folded by standing into consecutive tables (round one: drawn at random, or
   spread by rating so the favourites start at different tables).
3. A local search swaps players between tables to minimise, in this order of weight: repeat
   meetings (every pair who already shared a table counts once per earlier meeting), tables
   where not everyone can get a seat they have had least often, and distance from the table
   their standing puts them at. It restarts from random kicks while repeats remain, keeping the
   best round found.
4. Boards are given to tables (each board used equally often in the round, within one) to avoid
   players meeting a board again, then each table's seat order gives every player a seat number
   they have had least often, drawn at random among the balanced orders.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from bot.tournament.model import (
    EventConfig,
    Format,
    GameResult,
    Registration,
    Round,
    Stage,
    Table,
    TournamentError,
)
from bot.tournament.standings import check_results, standings
from lang import M

REPEAT_WEIGHT = 100_000_000
SEAT_WEIGHT = 10_000
BOARD_WEIGHT = 1_000
MAX_SIZE = 6
ROTATION_LIMIT = 64
SEAT_RADIUS = 1_000
BOARD_RADIUS = 8
"""Fields up to this size also try three-way rotations (cubic in the field, so not for large ones)."""
KICKS_SMALL_FIELD = 300
"""Random restarts tried while repeats remain (scaled down for large fields, see _kick_budget)."""


def table_sizes(players: int, allowed: Sequence[int], preferred: int) -> list[int]:
    """Table sizes seating exactly ``players`` players, largest first.

    Chooses, in order: the fewest tables not of the ``preferred`` size, the smallest total
    difference from it, then more (smaller) tables. Raises if no combination of ``allowed`` sizes
    adds up to the field.
    """
    # best[n] = (off-size tables, total deviation, -tables) and the sizes reaching it.
    best: list[tuple[tuple[int, int, int], tuple[int, ...]] | None] = [None] * (players + 1)
    best[0] = ((0, 0, 0), ())
    for n in range(1, players + 1):
        for size in allowed:
            prev = best[n - size] if n >= size else None
            if prev is None:
                continue
            (off, dev, neg), sizes = prev
            candidate = (
                (off + (size != preferred), dev + abs(size - preferred), neg - 1),
                tuple(sorted(sizes + (size,), reverse=True)),
            )
            current = best[n]
            if current is None or candidate < current:
                best[n] = candidate
    found = best[players]
    if players < 1 or found is None:
        raise TournamentError(
            "cannot_seat",
            M(
                "{players} players cannot be seated at tables of {choices}.",
                players=players,
                choices=", ".join(map(str, sorted(allowed))),
            ),
        )
    return list(found[1])


@dataclass
class History:
    """What earlier rounds tell the pairing: meetings, seat numbers and boards per player."""

    meetings: Counter[tuple[str, str]] = field(default_factory=Counter)
    seats: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    boards: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    @classmethod
    def from_tables(cls, tables: Sequence[tuple[str, Sequence[str]]]) -> History:
        """History from ``(board, seats in seat order)`` of earlier tables."""
        history = cls()
        for board, seats in tables:
            for position, player in enumerate(seats):
                history.seats[player][position] += 1
                history.boards[player][board] += 1
            for a, b in itertools.combinations(sorted(seats), 2):
                history.meetings[(a, b)] += 1
        return history

    @classmethod
    def from_results(cls, results: Sequence[GameResult]) -> History:
        return cls.from_tables([(r.board, r.players) for r in results])

    def met(self, a: str, b: str) -> int:
        return self.meetings[(a, b) if a < b else (b, a)]


def repeat_count(tables: Sequence[Sequence[str]], history: History) -> int:
    """Repeat meetings in ``tables``: every pair at a table counts once per earlier meeting."""
    return sum(history.met(a, b) for t in tables for a, b in itertools.combinations(t, 2))


def seat_shortfall(tables: Sequence[Sequence[str]], history: History) -> int:
    """Players in ``tables`` who cannot be given a seat number they have had least often."""
    return sum(
        _seat_shortfall(tuple(sorted(_balanced_seats(history.seats[p], len(t)) for p in t))) for t in tables
    )


def _balanced_seats(counts: Counter[int], size: int) -> int:
    """Bit mask of the seat numbers below ``size`` this player has had least often."""
    least = min(counts[i] for i in range(size))
    return sum(1 << i for i in range(size) if counts[i] == least)


@lru_cache(maxsize=65536)
def _seat_shortfall(masks: tuple[int, ...]) -> int:
    """Players at a table who cannot all get one of their least-used seats (size - max matching)."""
    reach: dict[int, int] = {0: 0}
    for mask in masks:
        grown = dict(reach)
        for used, matched in reach.items():
            free = mask & ~used
            while free:
                bit = free & -free
                free ^= bit
                if grown.get(used | bit, -1) < matched + 1:
                    grown[used | bit] = matched + 1
        reach = grown
    return len(masks) - max(reach.values())


class _Search:
    """Local search over an assignment of players (indexes, best standing first) to tables.

    Keeps, per player, the meetings with their current table mates (``current``) and, per
    table, how many players cannot get a least-used seat (``short``), so a swap is priced in
    time proportional to the table sizes.
    """

    def __init__(
        self,
        players: Sequence[str],
        sizes: Sequence[int],
        nominal: Sequence[int],
        history: History,
        rng: random.Random,
        boards: Sequence[str] | None = None,
    ) -> None:
        self.n = len(players)
        self.sizes = list(sizes)
        self.nominal = list(nominal)
        self.rng = rng
        # Cost of seating a player at a table: distance from their standing's table, and a board
        # they have already played there.
        # Only boards played more often than the player's least-played board count: with more
        # rounds than boards some repeat is unavoidable and spreading them evenly is the best.
        names = sorted(set(boards or ()))
        least = [min(history.boards[p][b] for b in names) if names else 0 for p in players]
        self.board_repeat = [
            [history.boards[p][boards[t]] - least[i] if boards else 0 for t in range(len(sizes))]
            for i, p in enumerate(players)
        ]
        self.place = [
            [(t - nominal[i]) ** 2 + BOARD_WEIGHT * self.board_repeat[i][t] for t in range(len(sizes))]
            for i in range(self.n)
        ]
        self.meet = [[history.met(a, b) for b in players] for a in players]
        self.masks = [
            [_balanced_seats(history.seats[p], s) if s in sizes else 0 for s in range(MAX_SIZE + 1)]
            for p in players
        ]
        self.tables: list[list[int]] = [[] for _ in sizes]
        for player, table in enumerate(nominal):
            self.tables[table].append(player)
        self.table_of = list(nominal)
        self.current = [0] * self.n
        self.short = [0] * len(sizes)
        for t in range(len(sizes)):
            self._refresh(t)

    def _refresh(self, table: int) -> None:
        members = self.tables[table]
        for p in members:
            row = self.meet[p]
            self.current[p] = sum(row[q] for q in members) - row[p]
        size = self.sizes[table]
        self.short[table] = _seat_shortfall(tuple(sorted(self.masks[p][size] for p in members)))

    def _misfit(self, player: int, table: int) -> int:
        """How badly ``table`` suits ``player``: distance from their standing's table, and a
        board they have played more than their least-played one."""
        return self.place[player][table]

    def cost(self) -> int:
        stand = sum(self._misfit(p, t) for t, members in enumerate(self.tables) for p in members)
        return self.repeats() * REPEAT_WEIGHT + sum(self.short) * SEAT_WEIGHT + stand

    def repeats(self) -> int:
        return sum(self.current) // 2

    def board_repeats(self) -> int:
        return sum(self.board_repeat[p][t] for t, members in enumerate(self.tables) for p in members)

    def unsettled(self) -> bool:
        """Whether a repeat, a seat shortfall or a board repeat is left for a restart to fix."""
        return bool(self.repeats() or sum(self.short) or self.board_repeats())

    def _in_trouble(self, player: int) -> bool:
        table = self.table_of[player]
        return bool(self.current[player] or self.short[table] or self.board_repeat[player][table])

    def _troubled(self) -> list[int]:
        return [p for p in range(self.n) if self._in_trouble(p)]

    def _seat_delta(self, a: int, b: int) -> int:
        ta, tb = self.table_of[a], self.table_of[b]
        sa, sb = self.sizes[ta], self.sizes[tb]
        masks = self.masks
        new_a = _seat_shortfall(
            tuple(sorted([masks[p][sa] for p in self.tables[ta] if p != a] + [masks[b][sa]]))
        )
        new_b = _seat_shortfall(
            tuple(sorted([masks[p][sb] for p in self.tables[tb] if p != b] + [masks[a][sb]]))
        )
        return new_a + new_b - self.short[ta] - self.short[tb]

    def _best_partner(self, a: int, tables: Sequence[int]) -> tuple[int, int]:
        """The swap partner for ``a`` among ``tables`` that lowers the cost most (delta, partner)."""
        ta = self.table_of[a]
        members_a = self.tables[ta]
        meet_a = self.meet[a]
        base = self.current[a]
        stand_a = self._misfit(a, ta)
        best, partner = 0, -1
        lower = (self.short[ta] + max(self.short[t] for t in tables)) * SEAT_WEIGHT
        for tb in sorted(tables, key=lambda t: abs(t - ta)):
            if tb == ta:
                continue
            if partner >= 0 and abs(tb - ta) > abs(self.table_of[partner] - ta):
                break  # an improving swap exists at a nearer table: prefer it, it keeps standings
            members_b = self.tables[tb]
            a_in_b = sum(meet_a[y] for y in members_b)
            stand_a_b = self._misfit(a, tb)
            for b in members_b:
                meet_b = self.meet[b]
                repeats = (
                    (a_in_b - meet_a[b])
                    + (sum(meet_b[x] for x in members_a) - meet_b[a])
                    - base
                    - self.current[b]
                )
                if repeats > 0:
                    continue
                delta = (
                    repeats * REPEAT_WEIGHT
                    + (stand_a_b + self._misfit(b, ta))
                    - (stand_a + self._misfit(b, tb))
                )
                if delta - lower >= best:
                    continue  # even the best seat change could not make this swap the best one
                delta += self._seat_delta(a, b) * SEAT_WEIGHT
                if delta < best:
                    best, partner = delta, b
        return best, partner

    def _swap(self, a: int, b: int) -> None:
        ta, tb = self.table_of[a], self.table_of[b]
        self.tables[ta][self.tables[ta].index(a)] = b
        self.tables[tb][self.tables[tb].index(b)] = a
        self.table_of[a], self.table_of[b] = tb, ta
        self._refresh(ta)
        self._refresh(tb)

    def _window(self, player: int) -> list[int]:
        """Tables worth trying for ``player``: all of them for a repeat meeting, nearby ones for a
        seat or board problem (a far move would cost more standing than it saves)."""
        table = self.table_of[player]
        radius = (
            len(self.tables) if self.current[player] else SEAT_RADIUS if self.short[table] else BOARD_RADIUS
        )
        return [t for t in range(max(0, table - radius), min(len(self.tables), table + radius + 1))]

    def descend(self) -> None:
        """Best-improvement swaps for players in trouble until none improves the round, then
        swaps that bring players back towards the table their standing gives them.

        A player for whom no swap helped is tried again only once a table in their window has
        changed, and then, while their own table is unchanged, only against the tables that
        changed: a swap's price depends on the two tables alone, so a swap with an unchanged
        table still does not help. Players with an unavoidable problem (a seat number nobody
        nearby can give up, on a large field) thus cost no full scan every pass."""
        stuck: dict[int, list[int]] = {}
        changed: set[int] = set(range(len(self.tables)))
        while changed:
            touched: set[int] = set()
            for a in self._troubled():
                if not self._in_trouble(a):
                    continue
                window = self._window(a)
                tried = window
                if a in stuck and stuck[a] == window:
                    moved = changed | touched
                    if self.table_of[a] not in moved:
                        tried = [t for t in window if t in moved]
                        if not tried:
                            continue
                delta, partner = self._best_partner(a, tried)
                if partner >= 0:
                    touched.update((self.table_of[a], self.table_of[partner]))
                    self._swap(a, partner)
                    stuck.pop(a, None)
                else:
                    stuck[a] = window
            changed = touched
        improved = True
        while improved:
            improved = False
            for a in range(self.n):
                home = self.nominal[a]
                if self.table_of[a] == home:
                    continue
                near = [t for t in (home - 1, home, home + 1) if 0 <= t < len(self.tables)]
                delta, partner = self._best_partner(a, near)
                if partner >= 0:
                    self._swap(a, partner)
                    improved = True

    def _replace_delta(self, table: int, leaving: int, joining: int) -> int:
        """Cost change of ``table`` when ``joining`` takes the chair of ``leaving``."""
        members = self.tables[table]
        meet_in = self.meet[joining]
        repeats = sum(meet_in[x] for x in members if x != leaving) - self.current[leaving]
        size = self.sizes[table]
        short = _seat_shortfall(
            tuple(
                sorted([self.masks[p][size] for p in members if p != leaving] + [self.masks[joining][size]])
            )
        )
        return (
            repeats * REPEAT_WEIGHT
            + (short - self.short[table]) * SEAT_WEIGHT
            + self._misfit(joining, table)
            - self._misfit(leaving, table)
        )

    def rotate(self) -> bool:
        """One improving three-way rotation (a to b's table, b to c's, c to a's) for a player in
        trouble; swaps alone cannot reach some splits, e.g. when three tables each hold a player
        who needs another's seat number."""
        for a in self._troubled():
            ta = self.table_of[a]
            if not (self.current[a] or self.short[ta]):
                continue
            for b in range(self.n):
                tb = self.table_of[b]
                if tb == ta:
                    continue
                into_b = self._replace_delta(tb, b, a)
                if into_b >= REPEAT_WEIGHT:
                    continue  # a would meet someone again at b's table
                for c in range(self.n):
                    tc = self.table_of[c]
                    if tc in (ta, tb):
                        continue
                    if into_b + self._replace_delta(ta, a, c) + self._replace_delta(tc, c, b) < 0:
                        for player, table in ((a, tb), (b, tc), (c, ta)):
                            self.tables[self.table_of[player]].remove(player)
                            self.tables[table].append(player)
                            self.table_of[player] = table
                        for table in (ta, tb, tc):
                            self._refresh(table)
                        return True
        return False

    def kick(self, swaps: int) -> None:
        """Swap a few players in trouble with random players elsewhere (a local restart)."""
        troubled = self._troubled() or list(range(self.n))
        for _ in range(swaps):
            a, b = self.rng.choice(troubled), self.rng.randrange(self.n)
            if self.table_of[a] != self.table_of[b]:
                self._swap(a, b)

    def snapshot(self) -> list[list[int]]:
        return [list(m) for m in self.tables]

    def restore(self, tables: Sequence[Sequence[int]]) -> None:
        self.tables = [list(m) for m in tables]
        for t, members in enumerate(self.tables):
            for p in members:
                self.table_of[p] = t
        for t in range(len(self.tables)):
            self._refresh(t)


def _kick_budget(players: int) -> int:
    return max(4, KICKS_SMALL_FIELD * 16 // max(players, 16))


def group_into_tables(
    players: Sequence[str],
    sizes: Sequence[int],
    history: History,
    rng: random.Random,
    spread: bool = False,
    boards: Sequence[str] | None = None,
) -> list[list[str]]:
    """Players (best standing first) grouped into tables of ``sizes`` (in table order).

    ``spread`` deals the order out in a snake (table 1, 2, …, k, k, …, 1) instead of folding it
    into consecutive tables, which keeps the first players apart. ``boards`` (one per table)
    makes a player who has already played a table's board a worse fit there.
    """
    if sum(sizes) != len(players):
        raise TournamentError(
            "cannot_seat",
            M(
                "Tables for {places} players cannot seat {players_count}.",
                places=sum(sizes),
                players_count=len(players),
            ),
        )
    nominal = _snake(sizes) if spread else [t for t, s in enumerate(sizes) for _ in range(s)]
    search = _Search(players, sizes, nominal, history, rng, boards)
    search.descend()
    if len(players) <= ROTATION_LIMIT:
        while (search.repeats() or sum(search.short)) and search.rotate():
            search.descend()
    best_cost, best = search.cost(), search.snapshot()
    # On large fields restarts are for repeats and seat shortfalls only: restarting for board
    # repeats there costs most of the round's time budget for a few boards fewer.
    small = len(players) <= ROTATION_LIMIT
    kicks = (
        _kick_budget(len(players))
        if search.repeats() or sum(search.short) or (small and search.board_repeats())
        else 0
    )
    for kick in range(kicks):
        search.kick(2 + kick % 3)
        search.descend()
        cost = search.cost()
        if cost < best_cost:
            best_cost, best = cost, search.snapshot()
            if not (search.unsettled() if small else search.repeats() or sum(search.short)):
                break  # nothing left that a restart is for (on a large field, board repeats are not)
        else:
            search.restore(best)
    return [[players[p] for p in members] for members in best]


def nominal_tables(players: Sequence[str], sizes: Sequence[int], spread: bool = False) -> list[list[str]]:
    """The tables the order alone gives: folded into consecutive tables, or dealt in a snake."""
    tables: list[list[str]] = [[] for _ in sizes]
    nominal = _snake(sizes) if spread else [t for t, s in enumerate(sizes) for _ in range(s)]
    for player, table in zip(players, nominal, strict=True):
        tables[table].append(player)
    return tables


def _snake(sizes: Sequence[int]) -> list[int]:
    out: list[int] = []
    left = list(sizes)
    forward = True
    while len(out) < sum(sizes):
        order = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for t in order:
            if left[t]:
                out.append(t)
                left[t] -= 1
        forward = not forward
    return out


def balanced_boards(tables: int, boards: Sequence[str], rng: random.Random) -> list[str]:
    """A board per table, each used equally often within one, the extra ones drawn at random."""
    order = list(boards)
    rng.shuffle(order)
    return [order[t % len(order)] for t in range(tables)]


def assign_boards(
    tables: Sequence[Sequence[str]],
    boards: Sequence[str],
    history: History,
    rng: random.Random,
    start: Sequence[str] | None = None,
) -> list[str]:
    """A board per table: each board used equally often in the round (within one), preferring
    boards the table's players have played least. Starts from ``start`` if given."""
    if len(boards) == 1:
        return [boards[0]] * len(tables)
    order = list(boards)
    chosen = list(start) if start is not None else balanced_boards(len(tables), boards, rng)

    def cost(t: int, board: str) -> int:
        return sum(history.boards[p][board] for p in tables[t])

    usage = Counter(chosen)
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            if chosen[i] != chosen[j] and cost(i, chosen[j]) + cost(j, chosen[i]) < cost(i, chosen[i]) + cost(
                j, chosen[j]
            ):
                chosen[i], chosen[j] = chosen[j], chosen[i]
                improved = True
        # A table may also move to another board if every board stays used equally often, within one.
        for t in range(len(tables)):
            for board in order:
                old = chosen[t]
                if board == old or cost(t, board) >= cost(t, old):
                    continue
                usage[old] -= 1
                usage[board] += 1
                if max(usage[b] for b in order) - min(usage[b] for b in order) <= 1:
                    chosen[t] = board
                    improved = True
                else:
                    usage[old] += 1
                    usage[board] -= 1
    return chosen


def seat_order(players: Sequence[str], history: History, rng: random.Random) -> tuple[str, ...]:
    """Seat order for one table: each player gets a seat number they have had least often where
    possible (fewest seats above a player's least-used count), drawn at random among the best."""
    size = len(players)
    best: list[tuple[str, ...]] = []
    best_cost = -1
    for order in itertools.permutations(players):
        cost = 0
        for position, player in enumerate(order):
            counts = history.seats[player]
            cost += counts[position] - min(counts[i] for i in range(size))
        if best_cost < 0 or cost < best_cost:
            best, best_cost = [order], cost
        elif cost == best_cost:
            best.append(order)
    return rng.choice(best)


def assign_groups(
    config: EventConfig, registration: Registration, seed: int, ratings: Mapping[str, float] | None = None
) -> dict[str, int]:
    """Groups (numbered from 1) for a groups-then-final event: dealt in a snake by rating when the
    event seeds by rating, else from a seeded draw."""
    players = list(registration.active)
    if config.groups < 2:
        raise TournamentError("no_groups", M("This event is not played in groups."))
    if len(players) < config.groups * min(config.table_sizes):
        raise TournamentError(
            "cannot_seat",
            M(
                "{players_count} players are too few for {groups} groups.",
                players_count=len(players),
                groups=config.groups,
            ),
        )
    rng = random.Random(f"groups:{seed}")
    rng.shuffle(players)
    if config.seed_round_one_by_rating and ratings:
        players.sort(key=lambda p: -ratings.get(p, float("-inf")))
    snake = _snake(
        [len(players) // config.groups + (g < len(players) % config.groups) for g in range(config.groups)]
    )
    return {p: g + 1 for p, g in zip(players, snake, strict=True)}


def pair_round(
    config: EventConfig,
    registration: Registration,
    results: Sequence[GameResult],
    round_number: int,
    seed: int,
    ratings: Mapping[str, float] | None = None,
    groups: Mapping[str, int] | None = None,
) -> Round:
    """The tables of ``round_number`` from the event's finished games; dropped players sit out.

    ``ratings`` (e.g. rating ordinals) seed round one when the event says so; ``groups`` is the
    :func:`assign_groups` draw for a groups-then-final event. Deterministic for ``seed``.
    Pair a round only once every game of the round before has its result: a round counts as
    played as soon as one of its results is in.
    """
    check_results(config, results)
    stage = config.stage_of(round_number)
    earlier = [r for r in results if r.round < round_number]
    if any(r.round >= round_number for r in results):
        raise TournamentError(
            "round_played", M("Round {round_number} already has results.", round_number=round_number)
        )
    missing = [r for r in range(1, round_number) if not any(res.round == r for res in earlier)]
    if missing:
        raise TournamentError(
            "round_missing",
            M("Round {missing} has no results yet; pair rounds in order.", missing=missing[0]),
        )
    history = History.from_results(earlier)
    rng = random.Random(f"{config.name}:{seed}:{round_number}")
    active = registration.active
    if config.format is Format.SWISS_CUT and stage.elimination:
        return Round(
            round_number, stage, _cut_tables(config, registration, earlier, round_number, history, rng)
        )
    if stage is Stage.FINAL:
        return Round(
            round_number, stage, (_final_table(config, registration, earlier, round_number, history, rng),)
        )
    if stage is Stage.GROUP:
        if groups is None:
            raise TournamentError("no_groups", M("Give the group draw (assign_groups) for a group round."))
        undrawn = [p for p in active if p not in groups]
        if undrawn:
            raise TournamentError(
                "no_groups",
                M(
                    "{undrawn} is not in any group; groups are drawn before the first round.",
                    undrawn=undrawn[0],
                ),
            )
        pools = [[p for p in active if groups.get(p) == g] for g in range(1, config.groups + 1)]
    else:
        pools = [list(active)]
    tables: list[Table] = []
    for index, pool in enumerate(pools):
        group = index + 1 if stage is Stage.GROUP else None
        order, spread = _pairing_order(config, registration, earlier, pool, rng, ratings)
        sizes = table_sizes(len(order), config.table_sizes, config.table_size)
        # Boards planned for the tables the standings alone would give, so the search starts
        # where most players already have a board they need.
        planned = assign_boards(nominal_tables(order, sizes, spread), config.boards, history, rng)
        grouped = group_into_tables(
            order, sizes, history, rng, spread=spread, boards=planned if len(config.boards) > 1 else None
        )
        boards = assign_boards(grouped, config.boards, history, rng, planned)
        for members, board in zip(grouped, boards, strict=True):
            tables.append(
                Table(
                    round=round_number,
                    number=len(tables) + 1,
                    board=board,
                    seats=seat_order(members, history, rng),
                    stage=stage,
                    group=group,
                )
            )
    return Round(round_number, stage, tuple(tables))


def _pairing_order(
    config: EventConfig,
    registration: Registration,
    earlier: Sequence[GameResult],
    pool: Sequence[str],
    rng: random.Random,
    ratings: Mapping[str, float] | None,
) -> tuple[list[str], bool]:
    """The pool by standing (best first) and whether to spread it rather than fold it."""
    if not earlier:
        order = list(pool)
        rng.shuffle(order)
        if config.seed_round_one_by_rating and ratings:
            order.sort(key=lambda p: -ratings.get(p, float("-inf")))
            return order, True
        return order, False
    rows = standings(config, earlier, registration)
    members = set(pool)
    order = [row.player for row in rows if row.player in members]
    return order, False


def _final_table(
    config: EventConfig,
    registration: Registration,
    earlier: Sequence[GameResult],
    round_number: int,
    history: History,
    rng: random.Random,
) -> Table:
    rows = [r for r in standings(config, earlier, registration) if not r.dropped]
    if config.groups:
        per_group = config.final_size // config.groups
        finalists = [
            r.player
            for g in range(1, config.groups + 1)
            for r in [row for row in rows if row.group == g][:per_group]
        ]
    else:
        finalists = [r.player for r in rows[: config.final_size]]
    if len(finalists) != config.final_size:
        raise TournamentError(
            "cannot_seat",
            M(
                "The final needs {final_size} players still in the event; only {finalists_count} qualify.",
                final_size=config.final_size,
                finalists_count=len(finalists),
            ),
        )
    board = min(
        config.boards, key=lambda b: (sum(history.boards[p][b] for p in finalists), config.boards.index(b))
    )
    return Table(
        round=round_number,
        number=1,
        board=board,
        seats=seat_order(finalists, history, rng),
        stage=Stage.FINAL,
    )


def _cut_tables(
    config: EventConfig,
    registration: Registration,
    earlier: Sequence[GameResult],
    round_number: int,
    history: History,
    rng: random.Random,
) -> tuple[Table, ...]:
    """A knockout round of a top cut. Its first round takes the ``cut_size`` best players still in
    the event by the Swiss standings (ties there broken by the event's own chain); each later
    round takes each table's winner of the round before: the best rank at the table, a tie there
    going to the better Swiss standing, a dropped player never going on (a voided table sends on
    its best player by the Swiss standing). The players are dealt to tables in a snake by Swiss
    standing, so the best seeds meet as late as they can."""
    swiss = [r for r in earlier if not r.stage.elimination]
    rows = standings(config, swiss, registration)
    position = {r.player: i for i, r in enumerate(rows)}
    dropped = registration.dropped
    if round_number == config.rounds + 1:
        going_on = [r.player for r in rows if not r.dropped][: config.cut_size]
        needed = config.cut_size
    else:
        going_on = []
        previous = sorted((r for r in earlier if r.round == round_number - 1), key=lambda r: r.table)
        for result in previous:
            seats = [s for s in result.seats if s.player not in dropped]
            if not seats:
                continue
            best = min(seats, key=lambda s: (0 if result.void else s.rank, position.get(s.player, len(rows))))
            going_on.append(best.player)
        needed = config.cut_size // config.final_size ** (round_number - config.rounds - 1)
    if len(going_on) != needed:
        raise TournamentError(
            "cannot_seat",
            M(
                "Round {round} of the top cut needs {needed} players still in the event; only {count} go on.",
                round=round_number,
                needed=needed,
                count=len(going_on),
            ),
        )
    going_on.sort(key=lambda p: position.get(p, len(rows)))
    stage = config.stage_of(round_number)
    sizes = [config.final_size] * (len(going_on) // config.final_size)
    grouped = nominal_tables(going_on, sizes, spread=True)
    boards = assign_boards(grouped, config.boards, history, rng)
    return tuple(
        Table(
            round=round_number,
            number=number,
            board=board,
            seats=seat_order(members, history, rng),
            stage=stage,
        )
        for number, (members, board) in enumerate(zip(grouped, boards, strict=True), 1)
    )
