"""SQLite against PostgreSQL: mid-game clicks of many live games through the game service.

Run: ``python bench/bench_pg.py [--games 60] [--warm 30] [--clicks 20] [--smoke]`` (``--smoke``:
6 games, 6 warm-up moves, 4 clicks each, the same lines, the verdict marked as not a measurement).

The same clicks are played three ways, side by side in one run: one bot process on a SQLite file;
one bot process on PostgreSQL; two bot processes on PostgreSQL, each clicking half of the games
(real OS processes sharing one database). Every game is a 2-player USA game whose two seats are
people, played ``--warm`` moves in (not measured) so the boards are mid-game; then each game gets
``--clicks`` clicks, one ``GameService.act`` each, with up to 8 clicks of different games in
flight per process. The moves are chosen beforehand by the heuristic AI, so only the bot's work
is measured: loading, checking, applying, committing and publishing each click.

Printed per way: clicks per second held, p50/p95 latency of a click, and CPU per click of each
component: the bot process(es) and the PostgreSQL server (every backend process of the cluster,
read from /proc), the total against SQLite's. Budget: the PostgreSQL path costs at most 1.5 times
the SQLite path's CPU per click. The cluster is a throwaway one (``bot/store/pg_cluster.py``)
with ``synchronous_commit=off``, SQLite runs with ``synchronous=NORMAL``: neither waits for the
disk on a commit.

Figures a docs table shows: clicks/s, p95 ms and CPU ms per click for each way.
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
                turn_hours=None,
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
            plans[gid] = _plan(live, seed + 1, clicks)
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
    App is open and its games loaded, right before the measured clicks."""
    latencies: list[float] = []
    async with App.open(AppSettings(where, process=name)) as app:
        for gid in plans:  # the bot's cache is warm, as it is for a live game
            await app.service.load(gid)
        queue = [(gid, plan[i]) for i in range(clicks) for gid, plan in plans.items() if i < len(plan)]
        gate = asyncio.Semaphore(IN_FLIGHT)
        locks = {gid: asyncio.Lock() for gid in plans}

        async def one(gid: int, text: str) -> None:
            async with gate, locks[gid]:
                start = time.perf_counter()
                await _click(app, gid, text)
                latencies.append(time.perf_counter() - start)

        await asyncio.to_thread(ready)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(one(gid, text) for gid, text in queue))
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
    """CPU seconds used so far by every process of the cluster: the postmaster, its live children,
    and the children it already reaped (a backend's time moves to its parent when it exits)."""
    pid_file = (cluster.data / "postmaster.pid").read_text().split()
    root = int(pid_file[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == root:  # its own time and that of every backend it reaped (closed connections)
            total += sum(int(f) for f in fields[11:15]) / tick
        elif ppid == root:  # a live backend or helper
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--warm", type=int, default=30, help="moves played into each game before measuring")
    parser.add_argument("--clicks", type=int, default=20, help="measured clicks per game")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.warm, args.clicks = 6, 6, 4
    note = smoke_note(args.smoke)
    tmp = Path(tempfile.mkdtemp(prefix="bench-pg-"))
    cluster = LocalCluster().start()
    rows: list[tuple[str, Result, float]] = []
    try:
        sqlite = str(tmp / "bench.db")
        plans = asyncio.run(_setup(sqlite, args.games, args.warm, args.clicks))
        rows.append(("1 process, SQLite", asyncio.run(_play(sqlite, plans, args.clicks, "one")), 0.0))

        one_pg = cluster.create_database("bench_one")
        plans = asyncio.run(_setup(one_pg, args.games, args.warm, args.clicks))
        marks: list[float] = []
        result = asyncio.run(
            _play(one_pg, plans, args.clicks, "one", lambda: marks.append(_server_cpu(cluster)))
        )
        rows.append(("1 process, PostgreSQL", result, _server_cpu(cluster) - marks[0]))

        two_pg = cluster.create_database("bench_two")
        plans = asyncio.run(_setup(two_pg, args.games, args.warm, args.clicks))
        spawn = multiprocessing.get_context("spawn")
        out, loaded, go = spawn.Queue(), spawn.Queue(), spawn.Event()
        ids = sorted(plans)
        halves = [{g: plans[g] for g in ids[0::2]}, {g: plans[g] for g in ids[1::2]}]
        children = [
            spawn.Process(target=_child, args=(two_pg, half, args.clicks, f"p{i}", out, loaded, go))
            for i, half in enumerate(halves)
        ]
        for child in children:
            child.start()
        for _ in children:  # both Apps open and their games loaded: the clicks start together
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
        rows.append(("2 processes, PostgreSQL", merged, server))
    finally:
        cluster.destroy()

    print(
        f"mid-game clicks: {args.games} live USA games, {args.warm} moves in, {args.clicks} clicks each,"
        f" {IN_FLIGHT} clicks in flight per process"
    )
    base = rows[0][1].cpu / rows[0][1].clicks * 1000
    for label, result, server in rows:
        bot_ms = result.cpu / result.clicks * 1000
        server_ms = server / result.clicks * 1000
        print(
            f"  {label:<24} {result.clicks / result.wall:7.1f} clicks/s  p50 {_pct(result.latencies, 0.5):6.1f} ms"
            f"  p95 {_pct(result.latencies, 0.95):6.1f} ms  CPU per click: bot {bot_ms:5.2f} ms"
            f" + PostgreSQL {server_ms:5.2f} ms = {bot_ms + server_ms:5.2f} ms ({(bot_ms + server_ms) / base:4.2f}x SQLite)"
        )
    worst = max((r.cpu + s) / r.clicks * 1000 for _label, r, s in rows[1:])
    word = "within" if worst <= BUDGET_RATIO * base else "OVER"
    print(f"PostgreSQL CPU per click {worst / base:.2f}x SQLite's: {word} the {BUDGET_RATIO}x budget{note}")
    return 0


if __name__ == "__main__":
    run(main)
