"""Crash-and-fault campaign: hard kills and failing writes lose nothing that was acknowledged.

Run: ``python bench/bench_faults.py [--quick] [--seed N] [--smoke]``. A child process plays many games
(Europe, USA, Märklin and First Class; people's seats driven by a seeded player, AI seats by the
bot) through :class:`~bot.service.GameService` against a real SQLite file, printing one line per
acknowledged move. This parent reads those lines and SIGKILLs the child after a random number of
them (so the kill lands anywhere: mid-transaction, mid-AI, mid-start), audits the file, and starts
the child again, which resumes every game (``resume_all``) and plays on. Meanwhile the child
makes ``commit_action`` fail like a full disk or a locked database for a while (at the call, or
inside the transaction after the game row was updated, so the rollback is exercised), then
clears the fault and lets the scheduler retry the games that stalled.

After every kill and at the end it checks:

* every game's snapshot equals a replay of its logged moves, and the log has no gap;
* every acknowledged move is in the log with its text, and the game's seq is at least the
  acknowledged one;
* once a fault clears and the stall backoff has passed, no game is stalled or waiting for an AI;
* no game was marked broken by a restart.

It prints the figures and exits 1 if any of those must-be-0 figures is not 0. The campaign is
bounded (a fixed number of games, moves and kills) and seeded; where exactly a kill lands depends
on the machine, so the counts vary a little from run to run, the verdict must not.

``--smoke`` (4 games, one of each kind, at most 3 kills and 100 people's moves, a write fault
starting at 10% of steps instead of 3%) prints the same lines; its must-be-0
figures are promises, not budgets, so a smoke run fails on them as a full run does.

Figures a docs table shows: moves acknowledged, SIGKILLs, injected write failures, and the five
must-be-0 figures.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import selectors
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness import add_smoke, run  # noqa: E402 - bench/harness.py

from bot.commands.export import replay_export  # noqa: E402
from bot.scheduler import Scheduler  # noqa: E402
from bot.service import STALL_BACKOFF, STALL_BACKOFF_MAX, GameService, ServiceError  # noqa: E402
from bot.store.rows import ABORTED, ACTIVE, BROKEN, LOBBY, OVER  # noqa: E402
from bot.store.sqlite import SqliteStore  # noqa: E402
from rules.games import find_game  # noqa: E402

ALL_STATUSES = (LOBBY, ACTIVE, OVER, ABORTED, BROKEN)
# The four kinds of game the campaign rotates through: (game, config, label).
KINDS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("ttr", {"board": "europe"}, "Europe"),
    ("ttr", {"board": "usa"}, "USA"),
    ("ttr", {"board": "germany"}, "Märklin"),
    ("first-class", {}, "First Class"),
)
FAULTS = ("database or disk is full", "database is locked")
SILENCE_LIMIT = 300.0  # seconds without a line from the child: it hangs, which is a failure too


@dataclass(frozen=True)
class PlannedGame:
    """One game of the campaign; game ``index`` gets id ``index + 1`` (nothing else creates games)."""

    index: int
    game_name: str
    config: dict[str, Any]
    label: str
    humans: int
    ais: tuple[str, ...]

    def player(self, k: int) -> str:
        return f"bench:{self.index}:{k}"


def plan(seed: int, games: int) -> list[PlannedGame]:
    """The campaign's games, the same for the same seed: every kind in turn, 2–4 seats, at least
    one person (the child drives people's seats), the other seats random or heuristic AIs."""
    rng = random.Random(seed)
    out = []
    for i in range(games):
        name, config, label = KINDS[i % len(KINDS)]
        lo, hi = find_game(name).player_range(config)
        seats = rng.randint(max(lo, 2), min(hi, 4))
        humans = rng.randint(1, seats)
        ais = tuple(rng.choice(("random", "heuristic")) for _ in range(seats - humans))
        out.append(PlannedGame(i, name, dict(config), label, humans, ais))
    return out


# ------------------------------------------------------------------------------------ the child


def emit(*parts: object) -> None:
    """One line to the parent, flushed at once: a line printed is a fact the parent may rely on."""
    print(*parts, flush=True)


class VirtualClock:
    """The service's and scheduler's clock: the child moves it on to pass stall backoffs without waiting."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FaultyDisk:
    """Makes ``commit_action`` raise :class:`sqlite3.OperationalError` while a fault is on, either
    at the call (``mode="call"``) or inside its transaction when the action row is inserted, after
    the game row was already updated (``mode="insert"``: SQLite must roll the update back)."""

    def __init__(self, storage: SqliteStore) -> None:
        self.message: str | None = None
        self.mode = "call"
        self.steps_left = 0
        self.arm_in = 0
        self._commit = storage.commit_action
        self._storage = storage
        storage.commit_action = self._commit_action  # type: ignore[method-assign]

    def start(self, message: str, mode: str, steps: int, after_commits: int) -> None:
        """Fail every write for ``steps`` steps of the campaign, from the ``after_commits``-th next
        successful commit on (1: a person's move is saved and the AI's answer to it is not)."""
        self.message, self.mode, self.steps_left, self.arm_in = message, mode, steps, after_commits
        if mode == "insert":
            storage = self._storage
            real = storage._insert_action

            def insert(db: sqlite3.Connection, row: tuple[Any, ...]) -> None:
                if self.failing:
                    emit("inject", self.mode)
                    raise sqlite3.OperationalError(self.message)
                real(db, row)

            storage._insert_action = insert  # type: ignore[method-assign]

    @property
    def failing(self) -> bool:
        return self.message is not None and self.arm_in <= 0

    def clear(self) -> None:
        self.message = None
        if "_insert_action" in vars(self._storage):
            del self._storage._insert_action

    async def _fail(self) -> Any:
        assert self.message is not None
        emit("inject", self.mode)
        raise sqlite3.OperationalError(self.message)

    async def _commit_action(self, *args: Any, **kwargs: Any) -> int:
        if self.failing and self.mode == "call":
            await self._fail()
        seq = await self._commit(*args, **kwargs)
        self.arm_in -= 1
        return seq


def stuck_games(service: GameService, ids: list[int]) -> list[int]:
    """Active games that wait for an AI seat (nobody will move them but the bot), or stalled ones."""
    out = set(service.stalled)
    for gid in ids:
        cached = service._cache.get(gid)  # noqa: SLF001 - the live games, without reloading
        if cached is None or cached.game is None or cached.row.status != ACTIVE:
            continue
        to_act = cached.game.seats_to_act()
        if to_act and all(cached.row.seats[s].is_ai for s in to_act):
            out.add(gid)
    return sorted(out)


async def set_up(service: GameService, games: list[PlannedGame]) -> None:
    """Create, fill and start every planned game not yet started (a kill may have stopped any step)."""
    existing = set(await service.storage.game_ids(ALL_STATUSES))
    for g in games:
        gid = g.index + 1
        if gid not in existing:
            row = await service.create_game(
                game_name=g.game_name,
                config=g.config,
                creator=g.player(0),
                creator_name="p0",
                space="bench",
                turn_hours=24.0,
                seed=1000 + g.index,
                join=False,
            )
            if row.id != gid:
                raise RuntimeError(f"game {g.index} got id {row.id}: the database holds other games")
            emit("created", gid)
        row = await service.game_row(gid)
        if row.status != LOBBY:
            continue
        for k in range(g.humans):
            if row.seat_of(g.player(k)) is None:
                row = await service.join(gid, g.player(k), f"p{k}", where="bench")
        have = sum(s.is_ai for s in row.seats)
        for kind in g.ais[have:]:
            row = await service.add_ai(gid, g.player(0), kind, where="bench")
        await service.start(gid, g.player(0), where="bench")
        emit("started", gid)


async def child(
    db: str, seed: int, n_games: int, incarnation: int, max_moves: int, fault_rate: float
) -> None:
    """Resume, set up what is missing, then play people's moves under injected faults until every
    game is over or ``max_moves`` people's moves were acknowledged (across incarnations)."""
    logging.disable(logging.CRITICAL)  # the service logs every injected failure; the lines say enough
    rng = random.Random(f"{seed}:{incarnation}")
    clock = VirtualClock(1_800_000_000.0 + incarnation * 60.0)
    storage = await SqliteStore(db, clock=clock).open()
    service = GameService(storage, clock=clock, rng=random.Random(seed))
    scheduler = Scheduler(service, clock=clock)
    disk = FaultyDisk(storage)
    ok, broken = await service.resume_all()
    emit("resumed", len(ok), len(broken))
    games = plan(seed, n_games)
    await set_up(service, games)
    ids = [g.index + 1 for g in games]
    people = {
        g.index + 1: find_game(g.game_name).make_ai("random", seed * 7919 + g.index + incarnation)
        for g in games
    }
    acked = int(await storage.get_meta("bench_acked") or 0)

    async def settle_after_fault() -> None:
        disk.clear()
        stalled = sorted(service.stalled)
        clock.advance(STALL_BACKOFF_MAX + 1)
        await scheduler.tick()
        emit("cleared", len(stalled), len(stuck_games(service, ids)))

    while acked < max_moves:
        if disk.message is not None:
            disk.steps_left -= 1
            if disk.steps_left <= 0:
                await settle_after_fault()
            else:
                clock.advance(STALL_BACKOFF)
                await scheduler.tick()  # retries fail while the fault is on: the backoff grows
        elif rng.random() < fault_rate:
            disk.start(
                rng.choice(FAULTS),
                rng.choice(("call", "insert")),
                rng.randint(1, 12),
                rng.choice((0, 1, 1, 2)),
            )
            emit("fault", disk.mode)
        playable: list[tuple[int, int, str]] = []
        active = 0
        for gid in ids:
            loaded = await service.load(gid)
            if loaded.row.status != ACTIVE or loaded.game is None:
                continue
            active += 1
            for seat in loaded.game.seats_to_act():
                player = loaded.row.seats[seat].player
                if player is not None:
                    playable.append((gid, seat, player))
        if not active:
            break
        if not playable:
            if disk.message is None:
                emit("stuck", *stuck_games(service, ids))
                break
            continue  # every game waits for an AI that cannot save: the fault must clear first
        gid, seat, player = rng.choice(playable)
        loaded = await service.load(gid)
        assert loaded.game is not None
        action = people[gid].choose(loaded.game.copy(), seat)
        seq = loaded.row.seq + 1
        try:
            outcome = await service.act(gid, player, action)
        except ServiceError as exc:
            emit("refused" if exc.code == "write_failed" else f"error {exc.code}", gid)
            continue
        acked += 1
        emit("ack", gid, seq, outcome.seq, action.to_text())
        if acked % 25 == 0:
            await storage.set_meta("bench_acked", str(acked))
    if disk.message is not None:
        await settle_after_fault()
    clock.advance(STALL_BACKOFF_MAX + 1)
    await scheduler.tick()
    await storage.set_meta("bench_acked", str(acked))
    emit("done", len(stuck_games(service, ids)))
    await storage.close()


# ----------------------------------------------------------------------------------- the parent


@dataclass
class Tally:
    acked: dict[tuple[int, int], tuple[int, str]] = field(
        default_factory=dict
    )  # (gid, seq) -> (final seq, text)
    kills: int = 0
    kills_in_fault: int = 0
    injected: Counter[str] = field(default_factory=Counter)
    fault_windows: int = 0
    refused: int = 0
    stalls_seen: int = 0
    stalled_after_clear: int = 0
    unexpected: list[str] = field(default_factory=list)
    mismatched: set[int] = field(default_factory=set)
    lost: set[tuple[int, int]] = field(default_factory=set)
    broken: set[int] = field(default_factory=set)
    audits: int = 0


async def audit(db: str, tally: Tally, *, final: bool = False) -> dict[str, int]:
    """Check the file as a restart would find it; returns the games per status."""
    statuses: Counter[str] = Counter()
    async with SqliteStore(db) as storage:
        for gid in await storage.game_ids(ALL_STATUSES):
            row = await storage.get_game(gid)
            statuses[row.status] += 1
            if row.status == BROKEN:
                tally.broken.add(gid)
            if row.status not in (ACTIVE, OVER):
                continue
            actions = {a.seq: a for a in await storage.actions(gid)}
            gapless = sorted(actions) == list(range(1, row.seq + 1))
            if not gapless or replay_export(await storage.export_game(gid)).to_json() != row.snapshot:
                tally.mismatched.add(gid)
            for (agid, seq), (final_seq, text) in tally.acked.items():
                if agid == gid and (row.seq < final_seq or seq not in actions or actions[seq].action != text):
                    tally.lost.add((agid, seq))
            if final and row.status == ACTIVE and row.snapshot is not None:
                game = find_game(row.game_name).from_json(row.snapshot)
                to_act = game.seats_to_act()
                if to_act and all(row.seats[s].is_ai for s in to_act):
                    tally.stalled_after_clear += 1
        known = set(await storage.game_ids(ALL_STATUSES))
        tally.lost.update(k for k in tally.acked if k[0] not in known)
    tally.audits += 1
    return dict(statuses)


def run_child(
    args: argparse.Namespace,
    db: str,
    incarnation: int,
    kill_after: int | None,
    tally: Tally,
    stderr_path: Path,
) -> bool:
    """One incarnation of the child; SIGKILLed after ``kill_after`` lines. True when it finished."""
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        db,
        "--seed",
        str(args.seed),
        "--games",
        str(args.games),
        "--incarnation",
        str(incarnation),
        "--max-moves",
        str(args.max_moves),
        "--fault-rate",
        str(args.fault_rate),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(stderr_path, "a", encoding="utf-8") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env, bufsize=1)
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    lines = 0
    in_fault = False
    finished = False
    try:
        while True:
            if not sel.select(timeout=SILENCE_LIMIT):
                tally.unexpected.append(f"incarnation {incarnation}: no output for {SILENCE_LIMIT:.0f} s")
                break
            line = proc.stdout.readline()
            if not line:
                break
            lines += 1
            word, *rest = line.rstrip("\n").split(" ", 4)
            if word == "ack":
                gid, seq, final_seq, text = int(rest[0]), int(rest[1]), int(rest[2]), rest[3]
                if (gid, seq) in tally.acked:
                    tally.lost.add((gid, seq))  # the move acknowledged first at this seq is gone
                tally.acked[(gid, seq)] = (final_seq, text)
            elif word == "inject":
                tally.injected[rest[0]] += 1
            elif word == "fault":
                tally.fault_windows += 1
                in_fault = True
            elif word == "cleared":
                tally.stalls_seen += int(rest[0])
                tally.stalled_after_clear += int(rest[1])
                in_fault = False
            elif word == "refused":
                tally.refused += 1
            elif word == "resumed" and int(rest[1]):
                tally.unexpected.append(f"incarnation {incarnation}: {rest[1]} games did not resume")
            elif word in ("error", "stuck"):
                tally.unexpected.append(f"incarnation {incarnation}: {line.strip()}")
            elif word == "done":
                tally.stalled_after_clear += int(rest[0])
                finished = True
            if kill_after is not None and lines >= kill_after and not finished:
                os.kill(proc.pid, signal.SIGKILL)
                tally.kills += 1
                tally.kills_in_fault += in_fault
                break
    finally:
        sel.close()
        if proc.poll() is None and not finished:
            proc.kill()
        proc.wait()
        proc.stdout.close()
    if (not finished and kill_after is None) or proc.returncode not in (0, -signal.SIGKILL):
        tally.unexpected.append(
            f"incarnation {incarnation}: the child exited with {proc.returncode} (see {stderr_path})"
        )
    return finished


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smaller campaign (4 games, 8 kills)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=None, help="games (default 12, quick 4)")
    parser.add_argument("--kills", type=int, default=None, help="SIGKILLs at most (default 30, quick 8)")
    parser.add_argument(
        "--max-moves", type=int, default=None, help="people's moves at most (default 2500, quick 600)"
    )
    parser.add_argument(
        "--fault-rate", type=float, default=0.03, help="chance per step that a write fault starts"
    )
    parser.add_argument("--db", help="keep the database here (default: a temporary directory)")
    parser.add_argument("--child", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--incarnation", type=int, default=0, help=argparse.SUPPRESS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:  # every kind of game, a few kills, and faults often enough to be met in 100 moves
        args.games, args.kills, args.max_moves, args.fault_rate = 4, 3, 100, 0.1
    args.games = args.games or (4 if args.quick else 12)
    args.kills = args.kills if args.kills is not None else (8 if args.quick else 30)
    args.max_moves = args.max_moves or (600 if args.quick else 2500)
    if args.child:
        asyncio.run(
            child(args.child, args.seed, args.games, args.incarnation, args.max_moves, args.fault_rate)
        )
        return 0

    rng = random.Random(args.seed)
    tally = Tally()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        db = args.db or str(Path(tmp) / "faults.db")
        if os.path.exists(db):
            print(f"bench_faults: {db} exists; the campaign needs a new file", file=sys.stderr)
            return 2
        stderr_path = Path(tmp) / "child-stderr.log"
        incarnation = 0
        while True:
            kill_after = rng.randint(3, 160) if tally.kills < args.kills else None
            finished = run_child(args, db, incarnation, kill_after, tally, stderr_path)
            incarnation += 1
            if finished or tally.unexpected:
                break
            asyncio.run(audit(db, tally))
        statuses = asyncio.run(audit(db, tally, final=True))
        if tally.unexpected and stderr_path.exists():
            print(stderr_path.read_text(encoding="utf-8")[-3000:], file=sys.stderr)
    elapsed = time.monotonic() - started

    games = plan(args.seed, args.games)
    kinds = Counter(g.label for g in games)
    seats = sum(g.humans + len(g.ais) for g in games)
    must_be_zero = {
        "games whose stored state differs from a replay of their log": len(tally.mismatched),
        "acknowledged moves lost": len(tally.lost),
        "games stalled after faults clear": tally.stalled_after_clear,
        "games broken by a restart": len(tally.broken),
        "unexpected events (child crash, hang, refusal other than a failed write)": len(tally.unexpected),
    }
    size = " (smoke size)" if args.smoke else " (quick)" if args.quick else ""
    print(
        f"bench_faults: seed {args.seed}{size}, {len(games)} games"
        f" ({', '.join(f'{n} {k}' for k, n in kinds.items())}), {seats} seats"
        f" ({sum(g.humans for g in games)} people, {sum(len(g.ais) for g in games)} AI)"
    )
    print(f"  moves acknowledged                 {len(tally.acked)}")
    print(
        f"  SIGKILLs                           {tally.kills} ({tally.kills_in_fault} during a write fault),"
        f" {tally.audits} audits of the file"
    )
    print(
        f"  write faults                       {tally.fault_windows} windows,"
        f" {sum(tally.injected.values())} injected write failures"
        f" ({tally.injected['call']} at the call, {tally.injected['insert']} inside the transaction)"
    )
    print(f"  people's moves refused (not saved) {tally.refused}")
    print(f"  games stalled by a fault, resumed  {tally.stalls_seen}")
    print(
        f"  games at the end                   {', '.join(f'{n} {s}' for s, n in sorted(statuses.items()))}"
    )
    for name, value in must_be_zero.items():
        print(f"  {name}: {value}{'' if value == 0 else '   <-- must be 0'}")
    for event in tally.unexpected:
        print(f"    {event}")
    print(f"  wall time {elapsed:.1f} s on {os.cpu_count()} cores (load {os.getloadavg()[0]:.1f})")
    return 0 if not any(must_be_zero.values()) else 1


if __name__ == "__main__":
    run(main)
