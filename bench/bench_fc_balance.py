"""Balance report for First Class with the Conductor open deck, heuristic AI in every seat.

Per player count (2, 3, 4) it prints:
- choice rate per Action card kind: of the turns on which a card of that kind was on display and the
  player took a card (or the Start Player tile), the share on which they took one of that kind; and the
  share of the kind's cards taken before they left the display;
- share of the winner's points per scoring source (the engine's score breakdown), averaged over games;
- seat win rates (seat 1 is the round-1 start player);
and, per player count, the four "forbid one source" runs: one seat (rotating game by game) plays an AI
that never pursues routes / contracts / trains / Game End cards (while it has another legal action),
the other seats the same AI unrestricted.

Bounds (the First Class balance issue), each printed as a line at the end with its 95% interval:
(a) no card kind is chosen more than 80% of the times it is offered (both measures above);
(b) no scoring source exceeds 30% of the winner's points on average;
(c) every forbidden AI wins less than its fair share (1/n), at 2, 3 and 4 players;
(d) every seat's win rate is within 5 points of fair (1/n).
A bound is PASS when its interval lies inside it, FAIL when the interval lies outside it, UNDECIDED when
the games allowed (the cap) did not separate them: a point estimate on the edge decides nothing.

Each run draws a fresh seed and prints it (game i plays seed + i); ``--seed N`` repeats a run exactly.
Games are played in batches (the all-heuristic games of one player count; one forbid run), each
sequentially: after ``--first`` games and then at every doubling up to ``--cap``, the batch stops once
every bound it measures is decided. Its intervals are 95% intervals over all the looks a batch may take
(Bonferroni: each look uses a 1 - 5%/looks interval), so stopping early does not inflate the error.
A winner's shares, choice rates and win rates are intervals over games (the game is the unit: the turns
of one game are not independent).

Run from the repository root: ``python bench/bench_fc_balance.py [--seed N] [--first N] [--cap N]
[--players 2,3,4] [--duel-players 2,3,4] [--workers 1|2] [--quick] [--smoke]``; ``--games N`` plays
exactly N games per batch (one look). A process pool of at most 2 workers (the machine has 2 cores).
``--quick`` (first 50, cap 200) is a rough look; ``--smoke`` (2 games per batch, the forbid runs at 2
players only, one process) prints the same lines, each verdict marked as not a measurement.

Figures a docs table shows: per player count the verdict line of every bound with its figure and interval.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import add_smoke, smoke_note  # bench/harness.py (a script's folder is on its path)
from harness import run as run_bench
from stats import looks_z, mean_interval, ratio_interval, wilson  # bench/stats.py

from rules.firstclass.ai import FORBIDDABLE, HeuristicAI  # noqa: E402
from rules.firstclass.game import CATEGORIES, FirstClassGame  # noqa: E402

CHOICE_LIMIT = 0.80
SOURCE_LIMIT = 0.30
SEAT_TOLERANCE = 0.05
MAX_WORKERS = 2  # the machine has 2 cores, shared
START_TILE = "start tile"
# The engine's score categories, with contract bonus points taken out of card_points.
SOURCES = (*CATEGORIES, "contracts")
PASS, FAIL, UNDECIDED = "PASS", "FAIL", "UNDECIDED"

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class GameRecord:
    """What one all-heuristic game contributes to its batch's figures (picklable: built in workers)."""

    offered: dict[str, int]  # per kind: card choices made while a card of the kind was on display
    chosen: dict[str, int]  # ... on which one of the kind was taken
    displayed: dict[str, int]  # cards of the kind that reached the display
    taken_cards: dict[str, int]  # ... and were taken (not forgone)
    decisions: int
    forgone: int
    source_share: dict[str, float]  # share of the winner's points per source (averaged over tied winners)
    winner_points: float
    seat_wins: tuple[float, ...]  # 1 for the winner, split between tied winners


@dataclass
class Tally:
    """The records of one player count's all-heuristic games."""

    players: int
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    def total(self, name: str) -> Counter[str]:
        out: Counter[str] = Counter()
        for r in self.records:
            out.update(getattr(r, name))
        return out

    @property
    def offered(self) -> Counter[str]:
        return self.total("offered")

    @property
    def chosen(self) -> Counter[str]:
        return self.total("chosen")

    @property
    def source_share(self) -> Counter[str]:
        """Summed over games (divide by ``games`` for the mean share)."""
        out: Counter[str] = Counter()
        for r in self.records:
            for k, v in r.source_share.items():
                out[k] += v
        return out

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.records)

    @property
    def seat_wins(self) -> list[float]:
        return [sum(r.seat_wins[s] for r in self.records) for s in range(self.players)]


@dataclass(frozen=True)
class Bound:
    """One checked bound: which (a-d), for which player count and what, the figure, its interval and the
    verdict (PASS: the interval inside the bound; FAIL: outside; UNDECIDED: it straddles the bound)."""

    bound: str
    players: int
    what: str
    figure: float
    low: float
    high: float
    limit: str
    verdict: str
    games: int

    @property
    def ok(self) -> bool:
        return self.verdict == PASS

    def line(self, smoke: bool = False) -> str:
        return (
            f"{self.verdict} ({self.bound}) {self.players}p {self.what}: {100 * self.figure:.1f}% "
            f"[95% {100 * self.low:.1f}-{100 * self.high:.1f}] (bound {self.limit}; {self.games} games)"
            f"{smoke_note(smoke)}"
        )


def at_most(low: float, high: float, limit: float) -> str:
    """The verdict on "the true figure is at most ``limit``" from its interval."""
    return PASS if high <= limit else FAIL if low > limit else UNDECIDED


def below(low: float, high: float, limit: float) -> str:
    """The verdict on "the true figure is below ``limit``" from its interval."""
    return PASS if high < limit else FAIL if low >= limit else UNDECIDED


def within(low: float, high: float, lo_limit: float, hi_limit: float) -> str:
    """The verdict on "the true figure lies in [lo_limit, hi_limit]" from its interval."""
    if lo_limit <= low and high <= hi_limit:
        return PASS
    return FAIL if high < lo_limit or low > hi_limit else UNDECIDED


def worst_of(verdicts: Iterable[str]) -> str:
    """All of several bounds hold: FAIL if any fails, else UNDECIDED if any is, else PASS."""
    vs = set(verdicts)
    return FAIL if FAIL in vs else UNDECIDED if UNDECIDED in vs else PASS


def _offered_kinds(game: FirstClassGame) -> set[str]:
    kinds = {game.deck.cards[cid].kind for row in game.s.rows for cid in row if cid is not None}
    if game.s.sp_taken_by is None:
        kinds.add(START_TILE)
    return kinds


def play_game(
    players: int, seed: int, ais: Sequence[HeuristicAI]
) -> tuple[list[dict[str, object]], GameRecord]:
    """Play one game; the final scores and what it adds to the figures."""
    game = FirstClassGame.new({}, players, seed)
    seen: set[str] = set()
    contract_points = [0] * players
    offered: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    displayed: Counter[str] = Counter()
    taken_cards: Counter[str] = Counter()
    decisions = forgone = 0
    while not game.is_over():
        seat = game.seats_to_act()[0]
        choosing_card = game.s.phase == "play" and not game.s.taken and game.head(seat) is None
        action = ais[seat].choose(game, seat)
        if choosing_card and action.kind in ("take", "forgo", "start"):
            for row in game.s.rows:
                for cid in row:
                    if cid is not None and cid not in seen:
                        seen.add(cid)
                        displayed[game.deck.cards[cid].kind] += 1
            decisions += 1
            offered.update(_offered_kinds(game))
            if action.kind == "take":
                chosen[game.deck.cards[action.args[0]].kind] += 1
                taken_cards[game.deck.cards[action.args[0]].kind] += 1
            elif action.kind == "start":
                chosen[START_TILE] += 1
            else:
                forgone += 1
        for ev in game.apply(seat, action):
            # contract bonuses score as card points in the engine; the report counts them on their own
            if ev.get("type") == "points" and "(contract " in str(ev.get("text")):
                contract_points[int(ev["seat"])] += int(ev["points"])
    scores = game.final_scores()
    winners = [r for r in scores if r["winner"]]
    seat_wins = [0.0] * players
    share: Counter[str] = Counter()
    winner_points = 0.0
    for r in winners:
        seat = int(str(r["seat"]))
        seat_wins[seat] += 1 / len(winners)
        total = max(int(str(r["total"])), 1)
        breakdown = r["breakdown"]
        assert isinstance(breakdown, dict)
        points = dict(breakdown)
        points["contracts"] = contract_points[seat]
        points["card_points"] = points.get("card_points", 0) - contract_points[seat]
        for cat in SOURCES:
            share[cat] += points.get(cat, 0) / total / len(winners)
        winner_points += total / len(winners)
    record = GameRecord(
        dict(offered),
        dict(chosen),
        dict(displayed),
        dict(taken_cards),
        decisions,
        forgone,
        dict(share),
        winner_points,
        tuple(seat_wins),
    )
    return scores, record


def heuristic_game(job: tuple[int, int]) -> GameRecord:
    """One all-heuristic game (a worker's job: player count, seed)."""
    players, seed = job
    return play_game(players, seed, [HeuristicAI(seed * 10 + k) for k in range(players)])[1]


def duel_game(job: tuple[int, str, int, int]) -> float:
    """One game of a forbid run (a worker's job): the forbidden seat's share of the win (ties split)."""
    players, forbid, seed, restricted = job
    ais = [HeuristicAI(seed * 10 + k, forbid=forbid if k == restricted else None) for k in range(players)]
    scores, _ = play_game(players, seed, ais)
    winners = [int(str(r["seat"])) for r in scores if r["winner"]]
    return 1 / len(winners) if restricted in winners else 0.0


def all_heuristic(players: int, games: int, seed: int) -> Tally:
    """``games`` all-heuristic games in this process (game i plays seed + i)."""
    return Tally(players, [heuristic_game((players, seed + i)) for i in range(games)])


def checkpoints(first: int, cap: int) -> list[int]:
    """The game counts at which a batch looks at its figures: ``first``, doubling, then ``cap``."""
    out = [min(first, cap)]
    while out[-1] < cap:
        out.append(min(out[-1] * 2, cap))
    return out


class Runner:
    """Plays jobs in this process or in a pool of at most two worker processes, in order."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, min(workers, MAX_WORKERS))
        self.pool: Executor | None = ProcessPoolExecutor(self.workers) if self.workers > 1 else None

    def map(self, fn: Callable[[T], R], jobs: list[T]) -> Iterator[R]:
        if self.pool is None:
            return map(fn, jobs)
        return self.pool.map(fn, jobs, chunksize=max(1, len(jobs) // (4 * self.workers)))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def heuristic_bounds(tally: Tally, z: float) -> list[Bound]:
    """Bounds (a), (b) and (d) on one player count's all-heuristic games, with intervals at ``z``."""
    p, n, recs = tally.players, tally.games, tally.records
    bounds: list[Bound] = []
    kinds = sorted({k for r in recs for k in r.offered})
    turn_rates = {
        k: ratio_interval([r.chosen.get(k, 0) for r in recs], [r.offered.get(k, 0) for r in recs], z)
        for k in kinds
    }
    displayed = sorted({k for r in recs for k in r.displayed})
    card_rates = {
        k: ratio_interval([r.taken_cards.get(k, 0) for r in recs], [r.displayed.get(k, 0) for r in recs], z)
        for k in displayed
    }
    for what, rates in (
        ("most-chosen kind per turn offered", turn_rates),
        ("most-taken kind per card displayed", card_rates),
    ):
        worst = max(rates, key=lambda k: (rates[k][2], rates[k][0]))
        rate, lo, hi = rates[worst]
        verdict = worst_of(at_most(v[1], v[2], CHOICE_LIMIT) for v in rates.values())
        bounds.append(Bound("a", p, f"{what} ({worst})", rate, lo, hi, "<= 80%", verdict, n))
    shares = {cat: mean_interval([r.source_share.get(cat, 0.0) for r in recs], z) for cat in SOURCES}
    top = max(shares, key=lambda c: (shares[c][2], shares[c][0]))
    share, lo, hi = shares[top]
    verdict = worst_of(at_most(v[1], v[2], SOURCE_LIMIT) for v in shares.values())
    bounds.append(
        Bound("b", p, f"largest source of the winner's points ({top})", share, lo, hi, "<= 30%", verdict, n)
    )
    fair = 1 / p
    seats = [(w / n, *wilson(w, n, z)) for w in tally.seat_wins]
    far = max(range(p), key=lambda k: max(abs(seats[k][1] - fair), abs(seats[k][2] - fair)))
    verdict = worst_of(within(lo, hi, fair - SEAT_TOLERANCE, fair + SEAT_TOLERANCE) for _, lo, hi in seats)
    rate, lo, hi = seats[far]
    limit = f"{100 * fair - 5:.1f}-{100 * fair + 5:.1f}%"
    bounds.append(Bound("d", p, f"seat furthest from fair (seat {far + 1})", rate, lo, hi, limit, verdict, n))
    return bounds


def report(tally: Tally, z: float) -> list[Bound]:
    """Print one player count's figures with their intervals; the bounds (a), (b) and (d) on them."""
    p, n, recs = tally.players, tally.games, tally.records
    print(f"\n== {p} players: {n} games, {tally.decisions} card choices ==")
    print(
        "choice rate when offered (kind: turns it was taken / turns it was on display);"
        " then the share of its cards taken before they left the display; [95% intervals]:"
    )
    offered, chosen = tally.offered, tally.chosen
    displayed, taken = tally.total("displayed"), tally.total("taken_cards")
    for kind in sorted(offered, key=lambda k: -chosen[k] / max(offered[k], 1)):
        rate, lo, hi = ratio_interval(
            [r.chosen.get(kind, 0) for r in recs], [r.offered.get(kind, 0) for r in recs], z
        )
        cards = ""
        if displayed[kind]:
            c, clo, chi = ratio_interval(
                [r.taken_cards.get(kind, 0) for r in recs], [r.displayed.get(kind, 0) for r in recs], z
            )
            cards = f"; cards taken {100 * c:5.1f}% [{100 * clo:.1f}-{100 * chi:.1f}] ({taken[kind]}/{displayed[kind]})"
        print(
            f"  {kind:<11} {100 * rate:5.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] ({chosen[kind]}/{offered[kind]}){cards}"
        )
    forgone = sum(r.forgone for r in recs)
    print(f"  (forgone for an upgrade: {100 * forgone / max(tally.decisions, 1):.1f}% of choices)")
    winner_points = sum(r.winner_points for r in recs) / max(n, 1)
    print(f"share of the winner's points (winner averages {winner_points:.1f} points) [95% intervals]:")
    shares = {cat: mean_interval([r.source_share.get(cat, 0.0) for r in recs], z) for cat in SOURCES}
    for cat in sorted(SOURCES, key=lambda c: -shares[c][0]):
        share, lo, hi = shares[cat]
        print(f"  {cat:<15} {100 * share:5.1f}% [{100 * lo:.1f}-{100 * hi:.1f}]")
    print(f"seat win rates (fair {100 / p:.1f}%; seat 1 starts round 1):")
    for seat, w in enumerate(tally.seat_wins):
        lo, hi = wilson(w, n, z)
        print(f"  seat {seat + 1}: {100 * w / n:5.1f}%  [95% {100 * lo:.1f}-{100 * hi:.1f}]")
    return heuristic_bounds(tally, z)


def duel_bound(players: int, forbid: str, wins: float, n: int, z: float) -> Bound:
    lo, hi = wilson(wins, n, z)
    fair = 1 / players
    return Bound(
        "c",
        players,
        f"AI forbidden {forbid} wins",
        wins / n,
        lo,
        hi,
        f"< {100 * fair:.1f}%",
        below(lo, hi, fair),
        n,
    )


def sequential_heuristic(runner: Runner, players: int, seed: int, looks: list[int], z: float) -> Tally:
    """All-heuristic games at ``players`` until bounds (a), (b), (d) are decided or the cap is reached."""
    tally = Tally(players)
    for target in looks:
        jobs = [(players, seed + i) for i in range(tally.games, target)]
        tally.records.extend(runner.map(heuristic_game, jobs))
        bounds = heuristic_bounds(tally, z)
        _progress(f"{players}p all-heuristic", tally.games, bounds)
        if all(b.verdict != UNDECIDED for b in bounds):
            break
    return tally


def _progress(batch: str, games: int, bounds: list[Bound]) -> None:
    """One line per look, so a long run shows where it stands."""
    open_ = [f"({b.bound}) {b.what}" for b in bounds if b.verdict == UNDECIDED]
    print(
        f"  [{batch}: {games} games; " + (f"undecided: {'; '.join(open_)}]" if open_ else "all decided]"),
        flush=True,
    )


def sequential_duel(
    runner: Runner, players: int, forbid: str, seed: int, looks: list[int], z: float
) -> tuple[float, int]:
    """A forbid run until its bound (c) is decided or the cap is reached: (wins, games)."""
    wins, n = 0.0, 0
    for target in looks:
        jobs = [(players, forbid, seed + i, i % players) for i in range(n, target)]
        wins += sum(runner.map(duel_game, jobs))
        n = target
        bound = duel_bound(players, forbid, wins, n, z)
        _progress(f"{players}p no {forbid}", n, [bound])
        if bound.verdict != UNDECIDED:
            break
    return wins, n


def run(
    players_list: list[int],
    duel_players: list[int],
    seed: int,
    first: int,
    cap: int,
    *,
    workers: int = 1,
    smoke: bool = False,
) -> list[Bound]:
    """The whole report: figures printed as they come, then one verdict line per bound."""
    started_all = time.perf_counter()
    looks = checkpoints(first, cap)
    z = looks_z(len(looks))
    print(
        f"seed {seed} (repeat this run with --seed {seed}); games per batch {looks[0]} to {cap}, looking at "
        f"{', '.join(map(str, looks))}; intervals are 95% over the {len(looks)} looks "
        f"(each look {100 - 5 / len(looks):.2f}%, z = {z:.2f})",
        flush=True,
    )
    runner = Runner(workers)
    bounds: list[Bound] = []
    try:
        for players in players_list:
            started = time.perf_counter()
            bounds += report(sequential_heuristic(runner, players, seed, looks, z), z)
            print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)
        for players in duel_players:
            print(
                f"\n== forbid-one-source runs, {players} players "
                f"(one forbidden seat, rotating; fair {100 / players:.1f}%) =="
            )
            for forbid in FORBIDDABLE:
                started = time.perf_counter()
                wins, n = sequential_duel(runner, players, forbid, seed, looks, z)
                b = duel_bound(players, forbid, wins, n, z)
                print(
                    f"  no {forbid:<10} wins {100 * b.figure:5.1f}%  [95% {100 * b.low:.1f}-{100 * b.high:.1f}]"
                    f" of {n} games  ({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
                bounds.append(b)
    finally:
        runner.close()
    print(f"\n== bounds (seed {seed}, {time.perf_counter() - started_all:.0f} s) ==")
    for b in sorted(bounds, key=lambda b: (b.bound, b.players)):
        print(b.line(smoke))
    counts = Counter(b.verdict for b in bounds)
    print(
        f"{counts[PASS]} of {len(bounds)} bounds hold by their interval, {counts[FAIL]} fail, "
        f"{counts[UNDECIDED]} undecided" + smoke_note(smoke)
    )
    return bounds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seed", type=int, default=None, help="repeat a run (default: a fresh seed, printed)"
    )
    parser.add_argument(
        "--first", type=int, default=100, help="games before a batch's first look (default 100)"
    )
    parser.add_argument("--cap", type=int, default=1600, help="most games per batch (default 1600)")
    parser.add_argument("--games", type=int, default=None, help="exactly N games per batch (one look)")
    parser.add_argument("--quick", action="store_true", help="first look at 50 games, cap 200 (a rough look)")
    parser.add_argument("--players", default="2,3,4", help="player counts for the all-heuristic report")
    parser.add_argument(
        "--duel-players", default="2,3,4", help="player counts for the forbid runs ('' for none)"
    )
    parser.add_argument("--workers", type=int, default=MAX_WORKERS, help="processes, 1 or 2 (default 2)")
    add_smoke(parser)
    args = parser.parse_args(argv)
    first, cap = args.first, args.cap
    if args.quick:
        first, cap = 50, 200
    if args.games is not None:
        first = cap = args.games
    if args.smoke:
        first, cap, args.duel_players, args.workers = 2, 2, "2", 1
    if first < 1 or cap < first:
        print("--first must be at least 1 and --cap at least --first.", file=sys.stderr)
        return 2
    if not 1 <= args.workers <= MAX_WORKERS:
        print(f"--workers is 1 or {MAX_WORKERS} (the machine has {MAX_WORKERS} cores).", file=sys.stderr)
        return 2
    try:
        players_list = [int(p) for p in args.players.split(",") if p]
        duel_players = [int(p) for p in args.duel_players.split(",") if p]
    except ValueError:
        print(
            "--players and --duel-players are player counts separated by commas, such as 2,3,4.",
            file=sys.stderr,
        )
        return 2
    if any(not 2 <= p <= 4 for p in players_list + duel_players):
        print("First Class is played by 2 to 4 players.", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    run(players_list, duel_players, seed, first, cap, workers=args.workers, smoke=args.smoke)
    return 0


if __name__ == "__main__":
    run_bench(main)
