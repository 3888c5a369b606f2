"""Load benchmark: one bot process under open-loop click rates on mid- and late-game boards of many
live games, through the fake Discord.

Run: ``python bench/bench_load.py [--rates 10,20,30,40,50,60] [--seconds 8] [--tables N] [--workers N]
[--smoke]``. It takes five minutes or more at its default size (``--tables 500``: 1,000 games
prepared, which alone takes one to three minutes on 2 cores, then six rates of 8 s for each stage);
``--smoke`` (one rate, 50 clicks/s, for 1 s per stage on 8 + 8 games, the workers not prewarmed)
runs in seconds and prints the same lines, its verdicts marked as not a measurement.

What a busy server sees, not a cache hit: before the bot starts, ``--tables`` games per stage of
one person against the heuristic AI are prepared in its SQLite file through the game service
(seeded, the same positions every run), each advanced by the heuristic AI playing the person's seat
(the AI seat answering as in play) until the leading seat has placed a third to a half of its
trains (mid-game) or two thirds to four fifths (late game; the last claim may carry a game a little
past its mark); each gets a thread in the fake Discord
and its route, and a note recorded as the board last posted, as a bot restarted with live games
finds them. The bot then starts on that file (loading every game, as after a restart); each game's
first turn is played untimed (the first move by command, then clicks to the turn's end), so that its
board (with buttons) is posted and the AI seat has answered once after the restart; then the clock
starts. Every board a timed click brings is one of hundreds of different positions full of trains,
so the renderers' caches of recent pictures hold nothing of it: the clicks cost what they cost on a
server with many games under way, not what an early board that differs little from the last one
costs (the earlier version of this bench dealt fresh games and clicked mostly early boards: it
reported about half the bot CPU per click that clicks on 1,000 games in mid- and late game cost).

The real bot (with its worker pool, ``--workers``, default one per core; 0 for threads) talks to the
fake Discord from ``tests/e2e`` over 127.0.0.1 with a SQLite file on disk. For each rate and stage,
clicks are sent on a fixed schedule (open loop: the n-th click is due at n / rate seconds, whether
or not earlier ones were answered) to whichever table of that stage is waiting for its player, for
``--seconds`` seconds (a game's stage is read before each click: a mid-game table whose leader
passes two thirds of its trains joins the late-game tables; a finished game leaves). A click that
ends the player's turn is timed from the moment the interaction is injected until the fake Discord
stores the turn's new public board message; a click inside a turn (a first card) until its private
reply. Every wait is bounded (``--timeout``): a click not answered in time is a miss, never a hang,
and a click due while every table of the stage is still waiting for an answer is counted as unsent.

Prints, per rate and stage: clicks sent, p50/p95/max from click to board posted, the same for every
answer, misses, the longest event-loop stall (see ``tests/e2e/loop_lag.py``) and the machine's load
average; then for each stage the curve (offered rate, achieved rate, p50, p95, loop stall), the CPU
per click of everything on the machine's cores (the bot's event-loop thread and its other threads,
its worker processes, the fake Discord, the driver), the bot's round trips to SQLite's thread per
click; the bot CPU per click (its process and its workers) and p50/p95 at the target rate of mid-
and late-game clicks side by side; and PASS/FAIL lines against the budget (DESIGN.md): 50 clicks/s
with p95 under 150 ms from click to board posted, on mid- and late-game clicks alike, and no
event-loop stall over 50 ms.

The bot runs in a process of its own, as in production (the driver reads the games from its SQLite
file, as a player would see them); CPU is read from /proc per process and per thread. The fake
Discord and the driver share this process: the driver's CPU is measured on its own tasks (each step
of a click, with the interactions it builds) and its SQLite thread, and the fake's is the rest of
this process. ``--profile FILE`` writes cProfile statistics of the bot's event-loop thread while
clicks are sent. With ``--same-process`` the bot shares this process and event loop with the fake
Discord and the driver (the figures are then pessimistic: every request is paid for twice in one
process; CPU is not split between them). Any failure (the bench's or the bot's start) ends the run
with a non-zero exit; it never hangs (see ``bench/harness.py``).

Figures a docs table shows: per stage, the bot CPU per click (process, of which event loop, and
workers) and p50/p95 click → board posted at 50 clicks/s with achieved rate, misses and unsent; the
longest loop stall; SQLite round trips per click; the verdicts.
"""

from __future__ import annotations

import argparse
import asyncio
import collections.abc
import contextlib
import logging
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))

from fakediscord import BotRunner, FakeChannel, FakeDiscord, FakeMessage, FakeUser  # noqa: E402
from harness import add_smoke, run_async, verdict  # noqa: E402 - bench/harness.py
from loop_lag import LoopLagProbe  # noqa: E402
from test_bot_support import make_bot  # noqa: E402

from bot.discord_app.store import DiscordStore, player_ref, space_ref  # noqa: E402
from bot.games.ttr.discord_ui import mid_turn  # noqa: E402
from bot.present import game_view  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store.rows import ACTIVE  # noqa: E402
from bot.store.sqlite import SqliteStore  # noqa: E402
from bot.workers import configured_size  # noqa: E402
from lang import SOURCE_LANGUAGE  # noqa: E402
from rules.ai import make_ai  # noqa: E402
from rules.games import find_game  # noqa: E402
from rules.registry import envelope  # noqa: E402

P95_BUDGET_MS = 150.0
TARGET_RATE = 50
STALL_BUDGET_MS = 50.0  # DESIGN.md: no event-loop stall over 50 ms

#: A game's stage, by the share of its trains the leading seat has placed: mid-game from a third,
#: late game from two thirds (to the end). Clicks are sent and counted per stage.
STAGES = ("mid", "late")
MID_FROM, LATE_FROM = 1 / 3, 2 / 3
#: Where prepared games stop: a share of the leader's trains placed drawn in these bounds (seeded).
PREPARED = {"mid": (MID_FROM, 0.5), "late": (LATE_FROM, 0.8)}
STAGE_WORDS = {
    "mid": "the leader has placed a third to two thirds of its trains",
    "late": "the leader has placed two thirds of its trains or more",
}


def placed_share(game: Any) -> float:
    """The share of its trains the seat that has placed most has placed (0 at the start, 1 at most)."""
    total = int(game.board.spec.trains)
    return max(total - int(left) for left in game.trains) / total


def stage_of(game: Any) -> str | None:
    """``"mid"``, ``"late"``, or None (early game: no clicks are timed there)."""
    share = placed_share(game)
    return "late" if share >= LATE_FROM else "mid" if share >= MID_FROM else None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc), 0 where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def thread_cpu_seconds(pid: int, tid: int) -> float:
    """User + system CPU seconds of thread ``tid`` of process ``pid`` (Linux /proc), 0 where unknown."""
    try:
        fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class Metered(collections.abc.Coroutine[Any, Any, Any]):
    """A coroutine whose every step's CPU time (this thread's) is added to ``meter.cpu``: what the
    driver's own tasks cost, told apart from the fake Discord's tasks in the same event loop."""

    def __init__(self, coro: collections.abc.Coroutine[Any, Any, Any], meter: Any) -> None:
        self.coro = coro
        self.meter = meter

    def send(self, value: Any) -> Any:
        started = time.thread_time()
        try:
            return self.coro.send(value)
        finally:
            self.meter.cpu += time.thread_time() - started

    def throw(self, *exc: Any) -> Any:
        started = time.thread_time()
        try:
            return self.coro.throw(*exc)
        finally:
            self.meter.cpu += time.thread_time() - started

    def close(self) -> None:
        self.coro.close()

    def __await__(self) -> Any:
        return self

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> Any:
        return self.send(None)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


@dataclass
class Prepared:
    """A game advanced to its stage before the bot starts."""

    gid: int
    user: FakeUser
    thread: FakeChannel
    stage: str
    seq: int
    share: float


async def prepare(fake: FakeDiscord, db: Path, per_stage: int, board: str, seed: int) -> list[Prepared]:
    """``per_stage`` games of each stage in the SQLite file ``db``, before the bot starts: each made
    through the game service as ``/ttr new``, ``/ttr addai`` and ``/ttr start`` make it, advanced by
    the heuristic AI playing the person's seat (the AI seat answers inside each move, as in play)
    until the leader has placed a share of its trains drawn in ``PREPARED[stage]``, given a thread
    in the fake Discord and its route, and a note recorded as its last board (so the restarted bot
    has no board to post again). Seeded: the same positions every run. A game that ends before its
    share is reached (none seen) is left out."""
    storage = await SqliteStore(db).open()
    prepared: list[Prepared] = []
    try:
        service = GameService(storage, rng=random.Random(seed))
        store = DiscordStore(storage)
        spec = find_game("ttr")
        space = space_ref(fake.guild.id)
        for index in range(2 * per_stage):
            stage = STAGES[index % 2]
            user = fake.add_user(f"player{index}")
            player = player_ref(user.id)
            config = spec.config_for(board=board)
            config["language"] = SOURCE_LANGUAGE
            row = await service.create_game(
                game_name=spec.name,
                config=config,
                creator=player,
                creator_name=user.name,
                space=space,
                turn_hours=24.0,
                seat_order="join",
                seed=seed * 100_000 + index,
            )
            await service.add_ai(row.id, player, "heuristic", where=space)
            await service.start(row.id, player, where=space)
            rng = random.Random(f"{seed}:{index}")
            target = rng.uniform(*PREPARED[stage])
            person = make_ai("ttr", "heuristic", rng.randrange(2**31))
            while True:
                loaded = await service.load(row.id)
                game = loaded.game
                if loaded.row.status != ACTIVE or game is None or placed_share(game) >= target:
                    break
                seat = loaded.row.seat_of(player)
                if seat is None or seat not in game.seats_to_act():
                    raise RuntimeError(
                        f"game #{row.id}: the AI seat did not answer (to act: {game.seats_to_act()})"
                    )
                await service.act(row.id, player, person.choose(game.copy(), seat), where=space)
            if loaded.row.status != ACTIVE or game is None:
                continue
            thread = fake.add_channel(fake.guild, f"Ticket to Ride · {board} #{row.number}", type=11)
            thread.parent_id, thread.owner_id = fake.general.id, fake.bot_user.id
            thread.members = {fake.bot_user.id, user.id}
            await store.set_route(row.id, fake.guild.id, fake.general.id, thread.id)
            note = fake._new_message(
                thread,
                {
                    "content": f"Game #{row.number}: the board of move {loaded.row.seq} "
                    "(posted before the bot restarted)."
                },
                [],
            )
            await store.record_message(row.id, loaded.row.seq, thread.id, note.id)
            prepared.append(Prepared(row.id, user, thread, stage, loaded.row.seq, placed_share(game)))
    finally:
        await storage.close()
    return prepared


@dataclass
class Table:
    """One game (a person against the heuristic AI) in its own thread."""

    gid: int
    user: FakeUser
    thread: Any
    stage: str | None = None  # as read when the table last became ready
    posted: asyncio.Event = field(default_factory=asyncio.Event)
    posts: list[tuple[float, FakeMessage]] = field(default_factory=list)
    board_seq: int = -1
    board: FakeMessage | None = None
    private: FakeMessage | None = None
    over: bool = False
    known: tuple[Any, Any, int, bool, bool] | None = None  # the state read last, while nothing can change it


@dataclass
class Level:
    rate: int
    stage: str = ""
    due: int = 0
    sent: int = 0
    unsent: int = 0
    to_board: list[float] = field(default_factory=list)
    to_answer: list[float] = field(default_factory=list)
    misses: int = 0
    refused: int = 0
    seconds: float = 0.0
    max_stall: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    main_cpu: float = 0.0  # the bot's whole process
    loop_cpu: float = 0.0  # of which its event-loop thread
    probe_cpu: float = 0.0  # of which the loop-stall probe's own measuring
    worker_cpu: float = 0.0
    fake_cpu: float = 0.0
    driver_cpu: float = 0.0
    trips: int = 0

    def per_click(self, seconds: float) -> float:
        """``seconds`` of CPU per click sent, in ms."""
        return seconds / max(1, self.sent) * 1000


class Driver:
    """Plays the person's side of every table through the fake Discord, one click at a time per table."""

    def __init__(self, fake: FakeDiscord, storage: SqliteStore, timeout: float) -> None:
        self.fake = fake
        self.storage = storage  # the bot's SQLite file, read as a person would see the game
        self.timeout = timeout
        self.tables: dict[int, Table] = {}  # by thread id
        self.ready: dict[str, asyncio.Queue[Table]] = {stage: asyncio.Queue() for stage in STAGES}
        self.holding: list[Table] | None = None  # tables ready while the first turns are played (first_moves)
        self.policy = make_ai("ttr", "heuristic", 17)
        self.bot_pid: int | None = None  # the bot's own process (None: it runs in this one)
        self.conn: Any = None  # to ask that process for its longest loop stall
        self.same_process_workers: tuple[int, ...] = ()
        self.cpu = 0.0  # CPU seconds of the driver's own steps (see Metered)
        self._hook()

    def own_cpu(self) -> float:
        """CPU seconds so far of the driver: its steps, and its SQLite connection's thread."""
        worker = getattr(self.storage.db, "_thread", None)
        tid = getattr(worker, "native_id", None)
        return self.cpu + (thread_cpu_seconds(os.getpid(), tid) if tid is not None else 0.0)

    def loop_thread_cpu(self) -> float:
        """CPU seconds so far of the bot's event-loop thread (its process's main thread)."""
        return 0.0 if self.bot_pid is None else thread_cpu_seconds(self.bot_pid, self.bot_pid)

    def bot_cpu(self) -> tuple[float, float]:
        """CPU seconds so far of the bot's process and of its worker processes."""
        if self.bot_pid is None:
            return time.process_time(), sum(cpu_seconds(p) for p in self.same_process_workers)
        return cpu_seconds(self.bot_pid), sum(cpu_seconds(p) for p in children_of(self.bot_pid))

    def stall_since(self) -> tuple[float, float]:
        """The bot process's longest event-loop stall since the last call, and its probe's own CPU so
        far (seconds; 0 in this process)."""
        if self.conn is None:
            return 0.0, 0.0
        self.conn.send("stall")
        if not self.conn.poll(10.0):
            return float("nan"), 0.0
        stall, probe_cpu = self.conn.recv()
        return float(stall), float(probe_cpu)

    def profile(self) -> None:
        """Ask the bot process to start profiling its event-loop thread (if it was given a file)."""
        if self.conn is not None:
            self.conn.send("profile")

    def round_trips(self) -> int:
        """Round trips to SQLite's thread the bot process has made so far (-1: unknown)."""
        if self.conn is None:
            return -1
        self.conn.send("trips")
        return int(self.conn.recv()) if self.conn.poll(10.0) else -1

    def _hook(self) -> None:
        """Note the moment the fake stores each public message, per game thread (the board posted)."""
        original = self.fake._new_message

        def stored(channel: Any, data: Any, files: Any, **kwargs: Any) -> FakeMessage:
            msg = original(channel, data, files, **kwargs)
            table = self.tables.get(msg.channel_id)
            if table is not None and not msg.ephemeral and kwargs.get("interaction") is None:
                table.posts.append((time.perf_counter(), msg))
                seqs = [int(m[1]) for c in msg.custom_ids() if (m := re.match(rf"c:{table.gid}:(\d+):", c))]
                if seqs:
                    table.board_seq, table.board = max(seqs), msg
                table.posted.set()
            return msg

        self.fake._new_message = stored  # type: ignore[method-assign]

    def adopt(self, games: list[Prepared]) -> None:
        """Follow the prepared games (their boards are not posted yet: see :meth:`first_moves`)."""
        for g in games:
            self.tables[g.thread.id] = Table(g.gid, g.user, g.thread, g.stage)

    async def first_moves(self, at_once: int = 8) -> tuple[int, int]:
        """Each game's first turn after the restart, a few games at a time and untimed: the person's
        first move by command (the board has no buttons yet), then clicks until the turn is over
        (a first card leaves it open), so that the AI seat has answered once since the restart and
        the board the timed clicks start from is posted. Returns (moves made, games left ready to
        click)."""
        scratch = Level(0, "first moves")
        gate = asyncio.Semaphore(at_once)
        self.holding = []

        async def one(table: Table) -> None:
            async with gate:
                for _ in range(3):  # a turn of card draws ends at its second card
                    await self.click(table, scratch)
                    if table.over or table.known is None or not table.known[4]:
                        break

        try:
            await asyncio.gather(*(Metered(one(t), self) for t in list(self.tables.values())))
            held = {id(t): t for t in self.holding}  # the last state queued of each table counts
        finally:
            self.holding = None
        for table in held.values():
            if not table.over and table.stage is not None:
                self.ready[table.stage].put_nowait(table)
        return scratch.sent, sum(q.qsize() for q in self.ready.values())

    async def state(self, table: Table) -> tuple[Any, Any, int, bool, bool]:
        """(row, game, seat, whether the person is to act, whether inside their turn) as stored."""
        row = await self.storage.get_game(table.gid)
        game = find_game(row.game_name).from_json(row.snapshot) if row.snapshot is not None else None
        seat = row.seat_of(player_ref(table.user.id))
        mine = row.status == "active" and game is not None and seat in game.seats_to_act()
        inside = mine and mid_turn(game_view(envelope(game, None)), seat)
        return row, game, seat, mine, inside

    async def until_ready(self, table: Table, known: tuple[Any, Any, int, bool, bool] | None = None) -> None:
        """Wait (bounded) until the person may act and the board for the current move is posted;
        then queue the table for its next click (a finished game leaves the queue). ``known``: the
        state just read. While the person is to act nothing changes the game, so it is read again
        only while they are not."""
        deadline = time.perf_counter() + self.timeout
        while True:
            state = known or await self.state(table)
            row, _, _, mine, inside = state
            known = state if mine else None
            if row.status != "active":
                table.over = True
                return
            if mine and (inside or table.board_seq == row.seq):
                table.known = state
                table.stage = stage_of(state[1])
                if self.holding is not None:
                    self.holding.append(table)  # the first turns are still being played
                elif table.stage is not None:
                    self.ready[table.stage].put_nowait(table)
                return
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                table.over = True  # stuck: counted by the caller as a miss, the table retired
                return
            table.posted.clear()
            if mine and table.board_seq == row.seq:
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.posted.wait(), min(remaining, 0.25))

    async def click(self, table: Table, level: Level) -> None:
        """The person's next move as one interaction: a button for card draws, else a slash command."""
        known, table.known = table.known, None
        row, game, seat, _, _ = known or await self.state(table)
        action = self.policy.choose(game, seat)
        seq, gid = row.seq, table.gid
        custom = {
            "draw_deck": f"c:{gid}:{seq}:deck",
            "draw_face": f"c:{gid}:{seq}:face:{getattr(action, 'slot', 0)}",
        }
        cid = custom.get(action.kind)
        posts_before = len(table.posts)
        started = time.perf_counter()
        if cid is not None:
            target = (
                table.private
                if table.private is not None and cid in table.private.custom_ids()
                else table.board
            )
            if target is None or cid not in target.custom_ids():
                cid = None
        if cid is not None and target is not None:
            handle = await self.fake.click(target, cid, user=table.user)
        else:
            data = self.fake.build_command_data(
                "play action", {"text": action.to_text()}, channel=table.thread
            )
            handle = await self.fake.inject(
                self.fake._interaction_base(2, data, table.user, table.thread, None)
            )
        level.sent += 1
        try:
            reply = await handle.wait_message(timeout=self.timeout)
        except AssertionError:  # the fake's timeout: no answer in time
            level.misses += 1
            table.over = True
            return
        answered = time.perf_counter()
        table.private = reply
        if reply.text().startswith("✗"):
            level.refused += 1
        level.to_answer.append((answered - started) * 1000)
        after = await self.state(table)
        if not after[4]:
            # the turn ended: the click is done when the turn's public message is stored
            deadline = started + self.timeout
            while len(table.posts) <= posts_before and time.perf_counter() < deadline:
                table.posted.clear()
                try:
                    await asyncio.wait_for(table.posted.wait(), deadline - time.perf_counter())
                except TimeoutError:
                    break
            if len(table.posts) > posts_before:
                level.to_board.append((table.posts[posts_before][0] - started) * 1000)
            else:
                level.misses += 1
                table.over = True
                return
        await self.until_ready(table, after)

    async def run_level(self, rate: int, seconds: float, stage: str) -> Level:
        """Clicks due at n / rate seconds for ``seconds`` seconds, each to a table of ``stage``; then
        wait (bounded) for stragglers. A click that fails (an exception, not a miss) fails the run."""
        level = Level(rate, stage)
        ready = self.ready[stage]
        tasks: set[asyncio.Task[Any]] = set()
        launched: list[asyncio.Task[Any]] = []
        cpu_bot, cpu_workers = self.bot_cpu()
        cpu_loop, cpu_here, cpu_driver = self.loop_thread_cpu(), time.process_time(), self.own_cpu()
        trips = self.round_trips()
        start = time.perf_counter()
        # the bench's own probe only where the bot shares this loop (else the bot process has one)
        async with LoopLagProbe(interval=0.005 if self.bot_pid is None else 3600.0) as probe:
            _, probe_cpu = self.stall_since()
            n = 0
            while True:
                due = start + n / rate
                if due - start >= seconds:
                    break
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)  # the open-loop schedule itself
                n += 1
                level.due += 1
                try:
                    table = ready.get_nowait()
                except asyncio.QueueEmpty:
                    level.unsent += 1
                    continue
                task = asyncio.get_running_loop().create_task(Metered(self.click(table, level), self))
                tasks.add(task)
                launched.append(task)
                task.add_done_callback(tasks.discard)
            if tasks:
                await asyncio.wait(tasks, timeout=self.timeout * 3)
        for task in launched:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise RuntimeError(f"a {stage}-game click failed at {rate} clicks/s") from task.exception()
        level.seconds = time.perf_counter() - start
        cpu_bot_now, cpu_workers_now = self.bot_cpu()
        level.main_cpu, level.worker_cpu = cpu_bot_now - cpu_bot, cpu_workers_now - cpu_workers
        level.loop_cpu = self.loop_thread_cpu() - cpu_loop
        level.driver_cpu = self.own_cpu() - cpu_driver
        level.fake_cpu = max(0.0, time.process_time() - cpu_here - level.driver_cpu)
        level.trips = self.round_trips() - trips
        stall, probe_cpu_now = self.stall_since()
        level.max_stall = stall if self.bot_pid else probe.max_stall
        level.probe_cpu = probe_cpu_now - probe_cpu
        level.load = os.getloadavg()
        return level


def ms_per_click(levels: list[Level], part: str) -> float:
    """CPU milliseconds of ``part`` (a :class:`Level` field) per click sent over ``levels``."""
    return sum(getattr(lv, part) for lv in levels) / max(1, sum(lv.sent for lv in levels)) * 1000


def report_stage(stage: str, levels: list[Level], *, same_process: bool) -> None:
    """One stage's curve, the CPU per click of everything on the cores, and round trips."""
    print(f"\n{stage}-game clicks ({STAGE_WORDS[stage]}), curve (click -> board posted):")
    print("  offered/s  achieved/s   p50 ms   p95 ms  loop stall ms")
    for level in levels:
        bar = "#" * min(40, int(pct(level.to_board, 95) / 10)) if level.to_board else ""
        print(
            f"  {level.rate:9d}  {level.sent / level.seconds:10.1f}  {pct(level.to_board, 50):7.0f}  "
            f"{pct(level.to_board, 95):7.0f}  {level.max_stall * 1000:13.0f}  {bar}"
        )
    if not levels:
        return
    bot, workers = ms_per_click(levels, "main_cpu"), ms_per_click(levels, "worker_cpu")
    if same_process:
        print(
            f"{stage}-game CPU per click over all rates: {bot:.1f} ms in this process (the bot with the fake"
            f" Discord and the driver), {workers:.1f} ms in the workers"
        )
        return
    loop, probe = ms_per_click(levels, "loop_cpu"), ms_per_click(levels, "probe_cpu")
    fake, drive = ms_per_click(levels, "fake_cpu"), ms_per_click(levels, "driver_cpu")
    print(
        f"{stage}-game CPU per click over all rates: bot process {bot:.1f} ms (event-loop thread {loop:.1f} ms,"
        f" of which {probe:.1f} ms the loop-stall probe; other threads {bot - loop:.1f} ms), workers"
        f" {workers:.1f} ms; the bench itself: fake Discord {fake:.1f} ms, driver {drive:.1f} ms"
    )
    total = bot + workers + fake + drive
    cores = os.cpu_count() or 1
    print(
        f"  all on the same {cores} cores: {total:.1f} ms per click, a ceiling of about "
        f"{cores * 1000 / max(0.001, total):.0f} clicks/s; the bot alone {bot + workers:.1f} ms "
        f"({cores * 1000 / max(0.001, bot + workers):.0f} clicks/s), its one process "
        f"{1000 / max(0.001, bot - probe):.0f} clicks/s"
    )
    sent = max(1, sum(lv.sent for lv in levels))
    print(
        f"  round trips to SQLite's thread per click (the bot process): {sum(lv.trips for lv in levels) / sent:.1f}"
    )


def report(levels: list[Level], *, same_process: bool, smoke: bool) -> None:
    """Per stage the curve and the CPU per click; mid and late side by side; the verdicts."""
    for stage in STAGES:
        report_stage(stage, [lv for lv in levels if lv.stage == stage], same_process=same_process)
    whose = (
        "this process, the fake Discord and the driver included, and the workers; no event loop apart"
        if same_process
        else "its process and its workers"
    )
    print(f"\nmid- and late-game clicks at {TARGET_RATE} clicks/s offered (bot CPU: {whose}):")
    held_all = True
    for stage in STAGES:
        target = next((lv for lv in levels if lv.rate == TARGET_RATE and lv.stage == stage), None)
        if target is None:
            print(
                f"{verdict('FAIL', smoke)}: {TARGET_RATE} clicks/s was not offered on {stage}-game boards"
                " (add it to --rates)"
            )
            held_all = False
            continue
        bot = target.per_click(target.main_cpu + target.worker_cpu)
        p50, p95 = pct(target.to_board, 50), pct(target.to_board, 95)
        achieved = target.sent / target.seconds
        held = (
            p95 < P95_BUDGET_MS
            and target.misses == 0
            and target.unsent == 0
            and achieved >= 0.95 * TARGET_RATE
        )
        held_all &= held
        print(
            f"  {stage + '-game':<9} bot CPU per click {bot:.1f} ms (process {target.per_click(target.main_cpu):.1f},"
            f" event loop {target.per_click(target.loop_cpu):.1f}, workers {target.per_click(target.worker_cpu):.1f});"
            f" click -> board posted p50 {p50:.0f} ms, p95 {p95:.0f} ms ({len(target.to_board)} boards)"
        )
        print(
            f"{verdict('PASS' if held else 'FAIL', smoke)}: {TARGET_RATE} clicks/s with p95 < {P95_BUDGET_MS:.0f} ms"
            f" from click to board posted on {stage}-game boards (achieved {achieved:.1f}/s, p95 {p95:.0f} ms,"
            f" {target.misses} misses, {target.unsent} unsent; load average {target.load[0]:.2f} on"
            f" {os.cpu_count()} cores)"
        )
    stall = max((lv.max_stall for lv in levels), default=float("nan")) * 1000
    stall_held = stall <= STALL_BUDGET_MS
    print(
        f"{verdict('PASS' if stall_held else 'FAIL', smoke)}: no event-loop stall over {STALL_BUDGET_MS:.0f} ms"
        f" (longest {stall:.0f} ms, every rate and stage)"
    )
    print(
        f"{verdict('PASS' if held_all else 'FAIL', smoke)}: the budget, {TARGET_RATE} clicks/s with p95 <"
        f" {P95_BUDGET_MS:.0f} ms from click to board posted, on mid- and late-game boards alike"
    )


async def while_alive(process: Any, awaitable: collections.abc.Awaitable[Any], what: str) -> Any:
    """Await ``awaitable``, unless the bot's process ends first: then fail at once (a bot that
    crashed at start must not leave the bench waiting out its timeouts)."""
    loop = asyncio.get_running_loop()
    ended: asyncio.Future[None] = loop.create_future()
    loop.add_reader(process.sentinel, lambda: None if ended.done() else ended.set_result(None))
    task = asyncio.ensure_future(awaitable)
    try:
        await asyncio.wait({task, ended}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        loop.remove_reader(process.sentinel)
    if task.done():
        return task.result()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await asyncio.to_thread(process.join, 10)
    raise RuntimeError(f"the bot process exited with {process.exitcode} before {what}")


def children_of(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc; empty elsewhere)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


class RoundTrips:
    """How many calls this process has queued to SQLite connection threads (aiosqlite)."""

    count = 0


def count_round_trips() -> type[RoundTrips]:
    """Count every call this process hands to an aiosqlite connection's thread: each is a round
    trip from the event loop to that thread and back (a statement, a fetch, a cursor closed, a
    batch run on the connection), whatever module makes it."""
    import aiosqlite.core

    original = aiosqlite.core.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        RoundTrips.count += 1
        return await original(self, fn, *args, **kwargs)

    aiosqlite.core.Connection._execute = counted  # type: ignore[method-assign]
    return RoundTrips


def serve_bot(
    api_base: str,
    gateway: str,
    db: str,
    workers: int,
    conn: Any,
    profile: str | None = None,
    prewarm: bool = True,
) -> None:
    """The bot alone in a process of its own, as in production, pointed at the fake Discord. Over
    ``conn`` it answers ``"stall"`` with the longest event-loop stall since the last question, and
    closes on ``"stop"`` (or when the bench goes away). With ``profile``, its event loop's thread
    is profiled (cProfile, in CPU time) from the ``"profile"`` message on, and the statistics written to that
    file at the end."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.ERROR)

    trips = count_round_trips()

    async def run() -> None:
        bot = make_bot(db, workers=workers, prewarm=prewarm)
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        async with LoopLagProbe() as probe:

            def answer() -> None:
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    message = "stop"
                if message == "stall":
                    conn.send((probe.max_stall, probe.cpu))
                    probe.max_stall = 0.0
                elif message == "trips":
                    conn.send(trips.count)
                elif message == "profile" and profiler is not None:
                    profiler.enable()  # on this thread: the event loop's
                elif message == "stop":
                    stop.set()

            loop.add_reader(conn.fileno(), answer)
            client = loop.create_task(bot.start("fake-bot-token"))
            closing = loop.create_task(stop.wait())
            await asyncio.wait({client, closing}, return_when=asyncio.FIRST_COMPLETED)
            loop.remove_reader(conn.fileno())
            await bot.close()
            await asyncio.gather(client, return_exceptions=True)
            closing.cancel()

    profiler = None
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile(
            time.thread_time
        )  # CPU time: waits for other threads and processes left out
    try:
        asyncio.run(run())
    finally:
        if profiler is not None and profile is not None:
            profiler.disable()
            profiler.dump_stats(profile)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="10,20,30,40,50,60", help="clicks per second, comma-separated")
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each rate, per stage")
    parser.add_argument(
        "--tables",
        type=int,
        default=500,
        help="games prepared per stage, mid and late (at least 3 × the top rate)",
    )
    parser.add_argument("--board", default="europe", help="board of every game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the prepared games")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes (default: CONDUCTOR_WORKERS, else one per core; 0: threads)",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="longest wait for any answer (s)")
    parser.add_argument(
        "--profile",
        default=None,
        help="write cProfile statistics of the bot's event-loop thread, while clicks are sent, to this file",
    )
    parser.add_argument(
        "--same-process",
        action="store_true",
        help="run the bot inside the bench's process and event loop (with the fake and the driver)",
    )
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.rates, args.seconds, args.tables = str(TARGET_RATE), 1.0, 8
    logging.basicConfig(level=logging.ERROR)
    rates = [int(r) for r in args.rates.split(",") if r.strip()]
    workers = configured_size(args.workers)
    # enough tables that a stage is not starved at the top rate (a smoke run is not a measurement)
    per_stage = args.tables if args.smoke else max(args.tables, 3 * max(rates))
    prewarm = not args.smoke  # a smoke run's first boards warm the renderers instead (untimed)
    where = "in the bench's own process" if args.same_process else "in a process of its own"
    print(
        f"machine: {os.cpu_count()} cores, load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"(1/5/15 min) at start; the bot {where} with {workers or 'no'} worker processes"
        f"{'' if workers else ' (threads)'}; {per_stage} mid-game and {per_stage} late-game {args.board} games,"
        f" one person against the heuristic AI",
        flush=True,
    )
    fake = FakeDiscord(response_deadline=30.0)
    await fake.start()
    fake.install()
    runner = BotRunner(fake)
    levels: list[Level] = []
    process: Any = None
    conn: Any = None
    storage: SqliteStore | None = None
    with tempfile.TemporaryDirectory(prefix="conductor-load-") as d:
        db = Path(d) / "load.db"
        try:
            started = time.perf_counter()
            games = await prepare(fake, db, per_stage, args.board, args.seed)
            count = {stage: sum(g.stage == stage for g in games) for stage in STAGES}
            print(
                f"{len(games)} games prepared in {time.perf_counter() - started:.1f} s before the bot starts"
                f" (seed {args.seed}): {count['mid']} mid-game (leader's trains placed "
                f"{min((g.share for g in games if g.stage == 'mid'), default=0):.0%}-"
                f"{max((g.share for g in games if g.stage == 'mid'), default=0):.0%}, moves "
                f"{min((g.seq for g in games if g.stage == 'mid'), default=0)}-"
                f"{max((g.seq for g in games if g.stage == 'mid'), default=0)}), {count['late']} late-game "
                f"({min((g.share for g in games if g.stage == 'late'), default=0):.0%}-"
                f"{max((g.share for g in games if g.stage == 'late'), default=0):.0%}, moves "
                f"{min((g.seq for g in games if g.stage == 'late'), default=0)}-"
                f"{max((g.seq for g in games if g.stage == 'late'), default=0)})",
                flush=True,
            )
            started = time.perf_counter()
            bot: Any = None
            if args.same_process:
                bot = await runner.start(
                    lambda: make_bot(db, workers=workers, prewarm=prewarm), timeout=600.0
                )
                await fake.sync_commands_done()
            else:
                context = multiprocessing.get_context("spawn")
                conn, child_end = context.Pipe()
                # not a daemon: the bot starts worker processes of its own
                process = context.Process(
                    target=serve_bot,
                    name="conductor-bot",
                    daemon=False,
                    args=(
                        fake.api_base,
                        str(fake.gateway_url),
                        str(db),
                        workers,
                        child_end,
                        args.profile,
                        prewarm,
                    ),
                )
                process.start()
                await while_alive(process, fake.sync_commands_done(timeout=600.0), "its commands were synced")
                await while_alive(process, fake.wait_connected(timeout=600.0), "it connected")
                await while_alive(
                    process,
                    fake.wait_until(
                        lambda: len(children_of(process.pid)) >= workers,
                        timeout=600.0,
                        what="the bot's worker processes",
                    ),
                    "its worker processes started",
                )
            print(
                f"bot ready in {time.perf_counter() - started:.1f} s{'' if prewarm else ' (renderers not prewarmed)'}",
                flush=True,
            )
            storage = await SqliteStore(db).open()
            driver = Driver(fake, storage, args.timeout)
            driver.bot_pid = process.pid if process is not None else None
            driver.conn = conn
            driver.same_process_workers = bot.workers.pids if bot is not None else ()
            driver.adopt(games)
            started = time.perf_counter()
            moves, ready = await driver.first_moves()
            print(
                f"first turn of each game after the restart (the first move by command), untimed: {moves} moves in "
                f"{time.perf_counter() - started:.1f} s; {ready} games ready "
                f"({', '.join(f'{driver.ready[s].qsize()} {s}-game' for s in STAGES)})",
                flush=True,
            )
            driver.profile()
            for rate in rates:
                for stage in STAGES:
                    level = await Metered(driver.run_level(rate, args.seconds, stage), driver)
                    levels.append(level)
                    board = level.to_board
                    print(
                        f"{rate:3d} clicks/s offered, {stage + '-game':<9}: {level.sent} sent in {level.seconds:.1f} s "
                        f"({level.sent / level.seconds:.1f}/s; {level.unsent} unsent: no table free), "
                        f"{level.misses} misses, {level.refused} refused; click -> board posted "
                        f"p50 {pct(board, 50):.0f} ms, p95 {pct(board, 95):.0f} ms, max {max(board, default=0):.0f} ms "
                        f"({len(board)}); click -> answer p50 {pct(level.to_answer, 50):.0f} ms, "
                        f"p95 {pct(level.to_answer, 95):.0f} ms; longest loop stall {level.max_stall * 1000:.0f} ms; "
                        f"CPU per click: bot process {level.per_click(level.main_cpu):.1f} ms "
                        f"(event loop {level.per_click(level.loop_cpu):.1f}), "
                        f"workers {level.per_click(level.worker_cpu):.1f} ms, fake {level.per_click(level.fake_cpu):.1f} ms, "
                        f"driver {level.per_click(level.driver_cpu):.1f} ms; "
                        f"round trips per click {level.trips / max(1, level.sent):.1f}; "
                        f"load {level.load[0]:.2f}",
                        flush=True,
                    )
                if all(t.over for t in driver.tables.values()):
                    print("every game finished or stuck; stopping")
                    break
            if bot is not None:
                print(
                    f"worker tasks: {dict(bot.workers.done)} in processes, {dict(bot.workers.in_threads)} in threads"
                )
        finally:
            if storage is not None:
                await storage.close()
            await runner.close()
            if process is not None:
                with contextlib.suppress(OSError):
                    conn.send("stop")
                await asyncio.to_thread(process.join, 60)
                if process.is_alive():
                    process.terminate()
                    await asyncio.to_thread(process.join, 10)
            await fake.stop()
    report(levels, same_process=args.same_process, smoke=args.smoke)
    if process is not None and process.exitcode not in (0, None):
        print(f"the bot process exited with {process.exitcode}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    run_async(main)
