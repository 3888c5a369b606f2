"""SQLite against PostgreSQL: mid-game clicks of many live games through the game service.

Run: ``python bench/bench_pg.py [--games 60] [--warm 30] [--clicks 15] [--rounds 3] [--smoke]``
(``--smoke``: 6 games, 6 warm-up moves, one round of 4 clicks each, the same lines, the verdicts
marked as not a measurement).

The same clicks are played three ways, side by side in one run: one bot process on a SQLite file
(the embedded default); two bot processes on PostgreSQL, each clicking half of the games (real OS
processes sharing one database, as ``conductor run --shards`` runs them); and, to tell the
database's cost from the second process's, one bot process on PostgreSQL. Every game is a
2-player USA game whose two seats are people, with the default 24-hour turn timer (so each click
also rewrites the game's timers, in the same transaction), played ``--warm`` moves in (not
measured) so the boards are mid-game. Then the three ways take turns for ``--rounds`` rounds (a
change in the machine's load over the run weighs on each alike): in a round, each bot process
opens, plays one unmeasured click of each game (so connections, prepared statements and caches
are warm, as in a bot that has been running) and then ``--clicks`` measured clicks of each game,
one ``GameService.act`` each, with up to 8 clicks of different games in flight per process. The moves
are chosen beforehand by the heuristic AI, so only the bot's work is measured: loading, checking,
applying, committing and publishing each click (Discord's presentation, the same on both
backends, is left out, so the database's share is as large as it gets).

Printed per way: clicks per second, p50/p95 latency of a click, and CPU per click of each
component: the bot process(es) (``time.process_time``, every thread) and the PostgreSQL server
(every process of the cluster, from ``/proc``), the total against SQLite's. Each process is kept
busy (8 clicks in flight), so its clicks/s is the most it serves; it counts as *held* when the p95
of a click stays under 150 ms (DESIGN.md's budget) at that rate. Budget: the PostgreSQL path costs
at most 1.5 times the SQLite path's CPU per click. The cluster is a throwaway one
(``bot/store/pg_cluster.py``) with ``synchronous_commit=off``, SQLite runs with
``synchronous=NORMAL``: neither waits for the disk on a commit.

Figures a docs table shows: clicks/s held, p95 ms and CPU ms per click for each way.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import add_smoke, run, smoke_note  # bench/harness.py (a script's folder is on its path)

import bot.games.catalog  # noqa: E402,F401 - registers the application's games
from bot.app import App, AppSettings  # noqa: E402
from bot.store.pg_cluster import LocalCluster  # noqa: E402
from rules.ai import make_ai  # noqa: E402
from rules.protocol import Game  # noqa: E402

BUDGET_RATIO = 1.5
HELD_P95_MS = 150.0
TURN_HOURS = 24.0  # the default turn timer: every move rewrites the game's timers with it
IN_FLIGHT = 8
PLAYERS = ("bench:p0", "bench:p1")


@dataclass
class Result:
    clicks: int
    wall: float
    cpu: float
    latencies: list[float]


def _plan(game: Game, seed: int, moves: int) -> list[str]:
    """The text of the next ``moves`` moves of ``game`` (a copy is played), chosen by the heuristic AI."""
    game = game.copy()
    ais = [make_ai("ttr", "heuristic", seed * 10 + i) for i in range(2)]
    out: list[str] = []
    while len(out) < moves and not game.is_over():
        seat = game.seats_to_act()[0]
        action = ais[seat].choose(game, seat)
        out.append(action.to_text())
        game.apply(seat, action)
    return out


async def _setup(where: str, games: int, warm: int, clicks: int) -> dict[int, list[str]]:
    """Create and start the games, each played ``warm`` moves in; returns each game's next
    ``clicks`` moves."""
    made: list[tuple[int, int]] = []
    plans: dict[int, list[str]] = {}
    async with App.open(AppSettings(where, process="setup")) as app:
        for i in range(games):
            seed = 1000 + i
            row = await app.service.create_game(
                game_name="ttr",
                config={"board": "usa"},
                creator=PLAYERS[0],
                creator_name="p0",
                seat_order="join",
                seed=seed,
                turn_hours=TURN_HOURS,
            )
            await app.service.join(row.id, PLAYERS[1], "p1")
            await app.service.start(row.id, PLAYERS[0])
            made.append((row.id, seed))
        for gid, seed in made:
            live = (await app.service.load(gid)).game
            assert live is not None
            for text in _plan(live, seed, warm):
                await _click(app, gid, text)
            live = (await app.service.load(gid)).game
            assert live is not None
            plans[gid] = _plan(live, seed + 1, clicks + 1)  # the first one warms up (see _play)
    return plans


async def _click(app: App, gid: int, text: str) -> None:
    loaded = await app.service.load(gid)
    assert loaded.game is not None
    seat = loaded.game.seats_to_act()[0]
    player = loaded.row.seats[seat].player
    assert player is not None
    await app.service.act(gid, player, text, expected_seq=loaded.row.seq)


async def _play(
    where: str, plans: dict[int, list[str]], clicks: int, name: str, ready: Callable[[], None] = lambda: None
) -> Result:
    """The clicks of ``plans`` from one process; ``ready()`` is called (and waited for) once its
    App is open and warm, right before the measured clicks.

    Warm as a live bot is: every game loaded (the bot's cache), and one click of every game played
    unmeasured with the same clicks in flight, so that the database's connections are open and
    have seen each statement (PostgreSQL's backends, their prepared statements and caches; SQLite's
    page cache) before anything is counted."""
    latencies: list[float] = []
    async with App.open(AppSettings(where, process=name)) as app:
        for gid in plans:
            await app.service.load(gid)
        gate = asyncio.Semaphore(IN_FLIGHT)
        locks = {gid: asyncio.Lock() for gid in plans}

        async def one(gid: int, text: str, out: list[float]) -> None:
            async with gate, locks[gid]:
                start = time.perf_counter()
                await _click(app, gid, text)
                out.append(time.perf_counter() - start)

        await asyncio.gather(*(one(gid, plan[0], []) for gid, plan in plans.items() if plan))
        queue = [(gid, plan[i]) for i in range(1, clicks + 1) for gid, plan in plans.items() if i < len(plan)]
        await asyncio.to_thread(ready)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one(gid, text, latencies) for gid, text in queue))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return Result(len(queue), wall, cpu, latencies)


def _child(
    where: str, plans: dict[int, list[str]], clicks: int, name: str, out: Any, loaded: Any, go: Any
) -> None:
    def ready() -> None:
        loaded.put(name)
        go.wait()

    out.put(asyncio.run(_play(where, plans, clicks, name, ready)))


def _server_cpu(cluster: LocalCluster) -> float:
    """CPU seconds used so far by every process of the cluster: the postmaster and its live children
    (backends, autovacuum, WAL writer ...) to the nanosecond from ``/proc/<pid>/schedstat``, plus
    the children it already reaped (a backend's time moves to its parent when it exits, counted
    in clock ticks): per-process tick counts would round away most of a short run's server time."""
    root = int((cluster.data / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            ppid = int(fields[1])
            if int(entry) != root and ppid != root:
                continue
            total += int(Path(f"/proc/{entry}/schedstat").read_text().split()[0]) / 1e9
        except (OSError, IndexError, ValueError):
            continue  # it exited meanwhile: its time is in the postmaster's reaped children's
        if int(entry) == root:
            total += (int(fields[13]) + int(fields[14])) / tick
    return total


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class _ServerMark:
    """Called right before the measured clicks: remembers the server's CPU seconds then."""

    def __init__(self, cluster: LocalCluster) -> None:
        self.cluster = cluster
        self.cpu = 0.0

    def __call__(self) -> None:
        self.cpu = _server_cpu(self.cluster)


def _two_processes(
    cluster: LocalCluster, where: str, plans: dict[int, list[str]], clicks: int
) -> tuple[Result, float]:
    """The clicks of ``plans`` from two bot processes, each clicking half of the games; returns
    their merged result and the server's CPU seconds over them."""
    spawn = multiprocessing.get_context("spawn")
    out, loaded, go = spawn.Queue(), spawn.Queue(), spawn.Event()
    ids = sorted(plans)
    halves = [{g: plans[g] for g in ids[0::2]}, {g: plans[g] for g in ids[1::2]}]
    children = [
        spawn.Process(target=_child, args=(where, half, clicks, f"p{i}", out, loaded, go))
        for i, half in enumerate(halves)
    ]
    for child in children:
        child.start()
    for _ in children:  # both Apps open and warm: the clicks start together
        loaded.get(timeout=600)
    before, wall0 = _server_cpu(cluster), time.perf_counter()
    go.set()
    parts = [out.get(timeout=600) for _ in children]
    server = _server_cpu(cluster) - before  # before the Apps' closing reads count
    wall = time.perf_counter() - wall0
    for child in children:
        child.join(timeout=60)
    merged = Result(
        sum(p.clicks for p in parts),
        max(p.wall for p in parts),
        sum(p.cpu for p in parts),
        [x for p in parts for x in p.latencies],
    )
    assert wall >= merged.wall
    return merged, server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--warm", type=int, default=30, help="moves played into each game before measuring")
    parser.add_argument("--clicks", type=int, default=15, help="measured clicks per game and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the three ways, one after the other")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.warm, args.clicks, args.rounds = 6, 6, 4, 1
    note = smoke_note(args.smoke)
    tmp = Path(tempfile.mkdtemp(prefix="bench-pg-"))
    cluster = LocalCluster().start()
    labels = ("1 process, SQLite", "1 process, PostgreSQL", "2 processes, PostgreSQL")
    totals = {label: (Result(0, 0.0, 0.0, []), 0.0) for label in labels}
    per_round = args.clicks + 1  # each round's first click of a game warms up (see _play)
    try:
        sqlite, one_pg, two_pg = (
            str(tmp / "bench.db"),
            cluster.create_database("bench_one"),
            cluster.create_database("bench_two"),
        )
        plans = {
            where: asyncio.run(_setup(where, args.games, args.warm, per_round * args.rounds - 1))
            for where in (sqlite, one_pg, two_pg)
        }
        for r in range(args.rounds):
            # The ways take turns, round after round, so a change in the machine's load over the
            # run weighs on each of them alike.
            part = {
                where: {g: p[r * per_round : (r + 1) * per_round] for g, p in game_plans.items()}
                for where, game_plans in plans.items()
            }
            got = [(asyncio.run(_play(sqlite, part[sqlite], args.clicks, "one")), 0.0)]
            start = _ServerMark(cluster)
            one = asyncio.run(_play(one_pg, part[one_pg], args.clicks, "one", start))
            got.append((one, _server_cpu(cluster) - start.cpu))
            got.append(_two_processes(cluster, two_pg, part[two_pg], args.clicks))
            for label, (result, server) in zip(labels, got, strict=True):
                total, total_server = totals[label]
                totals[label] = (
                    Result(
                        total.clicks + result.clicks,
                        total.wall + result.wall,
                        total.cpu + result.cpu,
                        total.latencies + result.latencies,
                    ),
                    total_server + server,
                )
    finally:
        cluster.destroy()
    rows = [(label, *totals[label]) for label in labels]

    print(
        f"mid-game clicks: {args.games} live USA games, {args.warm} moves in, {args.clicks} clicks each"
        f" in each of {args.rounds} round(s) (the ways take turns), {IN_FLIGHT} clicks in flight per process"
    )
    base = rows[0][1].cpu / rows[0][1].clicks * 1000
    held: list[str] = []
    for label, result, server in rows:
        bot_ms = result.cpu / result.clicks * 1000
        server_ms = server / result.clicks * 1000
        rate, p95 = result.clicks / result.wall, _pct(result.latencies, 0.95)
        print(
            f"  {label:<24} {rate:7.1f} clicks/s  p50 {_pct(result.latencies, 0.5):6.1f} ms"
            f"  p95 {p95:6.1f} ms  CPU per click: bot {bot_ms:5.2f} ms"
            f" + PostgreSQL {server_ms:5.2f} ms = {bot_ms + server_ms:5.2f} ms ({(bot_ms + server_ms) / base:4.2f}x SQLite)"
        )
        held.append(f"{label} {rate:.0f}" if p95 < HELD_P95_MS else f"{label} none (p95 {p95:.0f} ms)")
    print(f"clicks/s held at p95 under {HELD_P95_MS:.0f} ms: " + ", ".join(held) + note)
    worst = max((r.cpu + s) / r.clicks * 1000 for _label, r, s in rows[1:])
    word = "within" if worst <= BUDGET_RATIO * base else "OVER"
    print(f"PostgreSQL CPU per click {worst / base:.2f}x SQLite's: {word} the {BUDGET_RATIO}x budget{note}")
    return 0


if __name__ == "__main__":
    run(main)
