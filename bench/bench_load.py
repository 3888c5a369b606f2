"""Load benchmark: one bot process under open-loop click rates, through the fake Discord.

Run: ``python bench/bench_load.py [--rates 10,20,30,40,50,60] [--seconds 8] [--workers N]``.

The real bot (with its worker pool, ``--workers``, default one per core; 0 for threads) talks to the
fake Discord from ``tests/e2e`` over 127.0.0.1 with a SQLite file on disk. ``--tables`` games of one
person against the heuristic AI are dealt first. Then, for each rate, clicks are sent on a fixed
schedule (open loop: the n-th click is due at n / rate seconds, whether or not earlier ones were
answered) to whichever table is waiting for its player, for ``--seconds`` seconds. A click that ends
the player's turn is timed from the moment the interaction is injected until the fake Discord
stores the turn's new public board message; a click inside a turn (a first card) until its private
reply. Every wait is bounded (``--timeout``): a click not answered in time is a miss, never a hang,
and a click due while every table is still waiting for an answer is counted as unsent.

Prints, per rate: clicks sent, p50/p95/max from click to board posted, the same for every answer,
misses, the longest event-loop stall (see ``tests/e2e/loop_lag.py``) and the machine's load average;
then the curve (offered rate, achieved rate, p50, p95, loop stall), the CPU per click of everything
on the machine's cores (the bot's event-loop thread and its other threads, its worker processes, the
fake Discord, the driver), the bot's round trips to SQLite's thread per click, and a PASS/FAIL line
against the budget: 50 clicks/s with p95 under 150 ms from click to board posted.

The bot runs in a process of its own, as in production (the driver reads the games from its SQLite
file, as a player would see them); CPU is read from /proc per process and per thread. The fake
Discord and the driver share this process: the driver's CPU is measured on its own tasks (each step
of a click, with the interactions it builds) and its SQLite thread, and the fake's is the rest of
this process. ``--profile FILE`` writes cProfile statistics of the bot's event-loop thread while
clicks are sent. With ``--same-process`` the bot shares this process and event loop with the fake
Discord and the driver (the figures are then pessimistic: every request is paid for twice in one
process; CPU is not split between them).
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

from fakediscord import BotRunner, FakeDiscord, FakeMessage, FakeUser  # noqa: E402
from loop_lag import LoopLagProbe  # noqa: E402
from test_bot_support import make_bot  # noqa: E402

from bot.discord_app.store import player_ref  # noqa: E402
from bot.games.ttr.discord_ui import mid_turn  # noqa: E402
from bot.present import game_view  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.workers import configured_size  # noqa: E402
from rules.ai import make_ai  # noqa: E402
from rules.games import find_game  # noqa: E402
from rules.registry import envelope  # noqa: E402

P95_BUDGET_MS = 150.0
TARGET_RATE = 50


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
class Table:
    """One game (a person against the heuristic AI) in its own thread."""

    gid: int
    user: FakeUser
    thread: Any
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

    def __init__(self, fake: FakeDiscord, storage: Storage, timeout: float) -> None:
        self.fake = fake
        self.storage = storage  # the bot's SQLite file, read as a person would see the game
        self.timeout = timeout
        self.tables: dict[int, Table] = {}  # by thread id
        self.ready: asyncio.Queue[Table] = asyncio.Queue()
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

    async def deal(self, count: int, board: str) -> None:
        """Open ``count`` games through slash commands, a few at a time."""

        async def one(index: int) -> None:
            user = self.fake.add_user(f"player{index}")
            h = await self.fake.slash("ttr new", user=user, board=board, seat_order="join")
            msg = await h.wait_message(timeout=self.timeout * 4)
            m = re.search(r"game #(\d+)", msg.text())
            assert m, msg.text()
            gid = int(m[1])
            thread = next(t for t in self.fake.threads if f"#{gid}" in t.name)
            table = Table(gid, user, thread)
            self.tables[thread.id] = table
            for command in ("ttr addai", "ttr start"):
                data = self.fake.build_command_data(command, {}, channel=thread)
                handle = await self.fake.inject(self.fake._interaction_base(2, data, user, thread, None))
                await handle.wait_message(timeout=self.timeout * 4)
            await self.until_ready(table)

        for start in range(0, count, 8):
            await asyncio.gather(*(one(i) for i in range(start, min(count, start + 8))))

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
                self.ready.put_nowait(table)
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
        custom = {"draw_deck": f"c:{gid}:{seq}:deck", "draw_face": f"c:{gid}:{seq}:face:{getattr(action, 'slot', 0)}"}
        cid = custom.get(action.kind)
        posts_before = len(table.posts)
        started = time.perf_counter()
        if cid is not None:
            target = table.private if table.private is not None and cid in table.private.custom_ids() else table.board
            if target is None or cid not in target.custom_ids():
                cid = None
        if cid is not None and target is not None:
            handle = await self.fake.click(target, cid, user=table.user)
        else:
            data = self.fake.build_command_data("play action", {"text": action.to_text()}, channel=table.thread)
            handle = await self.fake.inject(self.fake._interaction_base(2, data, table.user, table.thread, None))
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

    async def run_level(self, rate: int, seconds: float) -> Level:
        """Clicks due at n / rate seconds for ``seconds`` seconds; then wait (bounded) for stragglers."""
        level = Level(rate)
        tasks: set[asyncio.Task[Any]] = set()
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
                    table = self.ready.get_nowait()
                except asyncio.QueueEmpty:
                    level.unsent += 1
                    continue
                task = asyncio.get_running_loop().create_task(Metered(self.click(table, level), self))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            if tasks:
                await asyncio.wait(tasks, timeout=self.timeout * 3)
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


def report(levels: list[Level], *, same_process: bool) -> None:
    """The curve, the CPU per click of everything on the cores, round trips, and the verdict."""
    print("\ncurve (click -> board posted):")
    print("  offered/s  achieved/s   p50 ms   p95 ms  loop stall ms")
    for level in levels:
        bar = "#" * min(40, int(pct(level.to_board, 95) / 10)) if level.to_board else ""
        print(f"  {level.rate:9d}  {level.sent / level.seconds:10.1f}  {pct(level.to_board, 50):7.0f}  "
              f"{pct(level.to_board, 95):7.0f}  {level.max_stall * 1000:13.0f}  {bar}")
    if not levels:
        return
    sent = max(1, sum(lv.sent for lv in levels))

    def ms(part: str) -> float:
        return sum(getattr(lv, part) for lv in levels) / sent * 1000

    bot, workers = ms("main_cpu"), ms("worker_cpu")
    if same_process:
        print(f"CPU per click over all rates: {bot:.1f} ms in this process (the bot with the fake Discord and the"
              f" driver), {workers:.1f} ms in the workers")
    else:
        loop, probe = ms("loop_cpu"), ms("probe_cpu")
        fake, drive = ms("fake_cpu"), ms("driver_cpu")
        print(f"CPU per click over all rates: bot process {bot:.1f} ms (event-loop thread {loop:.1f} ms, of which"
              f" {probe:.1f} ms the loop-stall probe; other threads {bot - loop:.1f} ms), workers {workers:.1f} ms;"
              f" the bench itself: fake Discord {fake:.1f} ms, driver {drive:.1f} ms")
        total = bot + workers + fake + drive
        print(f"  all on the same {os.cpu_count()} cores: {total:.1f} ms per click, a ceiling of about "
              f"{(os.cpu_count() or 1) * 1000 / total:.0f} clicks/s; the bot alone {bot + workers:.1f} ms "
              f"({(os.cpu_count() or 1) * 1000 / (bot + workers):.0f} clicks/s), its one process "
              f"{1000 / max(0.001, bot - probe):.0f} clicks/s")
        trips = sum(lv.trips for lv in levels)
        print(f"round trips to SQLite's thread per click (the bot process): {trips / sent:.1f}")
    target = next((lv for lv in levels if lv.rate == TARGET_RATE), None)
    if target is None:
        print(f"FAIL: {TARGET_RATE} clicks/s was not offered (add it to --rates)")
        return
    p95 = pct(target.to_board, 95)
    achieved = target.sent / target.seconds
    held = p95 < P95_BUDGET_MS and target.misses == 0 and target.unsent == 0 and achieved >= 0.95 * TARGET_RATE
    print(f"{'PASS' if held else 'FAIL'}: {TARGET_RATE} clicks/s with p95 < {P95_BUDGET_MS:.0f} ms from click to "
          f"board posted (achieved {achieved:.1f}/s, p95 {p95:.0f} ms, {target.misses} misses, {target.unsent} unsent;"
          f" load average {target.load[0]:.2f} on {os.cpu_count()} cores)")


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


def serve_bot(api_base: str, gateway: str, db: str, workers: int, conn: Any, profile: str | None = None) -> None:
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
        bot = make_bot(db, workers=workers, prewarm=True)
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

        profiler = cProfile.Profile(time.thread_time)  # CPU time: waits for other threads and processes left out
    try:
        asyncio.run(run())
    finally:
        if profiler is not None and profile is not None:
            profiler.disable()
            profiler.dump_stats(profile)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="10,20,30,40,50,60", help="clicks per second, comma-separated")
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each rate")
    parser.add_argument("--tables", type=int, default=0, help="games played at once (default: 2.5 × the top rate)")
    parser.add_argument("--board", default="europe", help="board of every game")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: CONDUCTOR_WORKERS, else one per core; 0: threads)")
    parser.add_argument("--timeout", type=float, default=10.0, help="longest wait for any answer (s)")
    parser.add_argument("--profile", default=None,
                        help="write cProfile statistics of the bot's event-loop thread, while clicks are sent, to this file")
    parser.add_argument("--same-process", action="store_true",
                        help="run the bot inside the bench's process and event loop (with the fake and the driver)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    rates = [int(r) for r in args.rates.split(",") if r.strip()]
    workers = configured_size(args.workers)
    tables = args.tables or int(max(rates) * 2.5)
    random.seed(1)
    where = "in the bench's own process" if args.same_process else "in a process of its own"
    print(f"machine: {os.cpu_count()} cores, load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"(1/5/15 min) at start; the bot {where} with {workers or 'no'} worker processes"
          f"{'' if workers else ' (threads)'}; {tables} {args.board} games, one person against the heuristic AI")
    fake = FakeDiscord(response_deadline=30.0)
    await fake.start()
    fake.install()
    runner = BotRunner(fake)
    levels: list[Level] = []
    process: Any = None
    conn: Any = None
    storage: Storage | None = None
    with tempfile.TemporaryDirectory(prefix="conductor-load-") as d:
        db = Path(d) / "load.db"
        try:
            started = time.perf_counter()
            bot: Any = None
            if args.same_process:
                bot = await runner.start(lambda: make_bot(db, workers=workers, prewarm=True), timeout=600.0)
                await fake.sync_commands_done()
            else:
                context = multiprocessing.get_context("spawn")
                conn, child_end = context.Pipe()
                # not a daemon: the bot starts worker processes of its own
                process = context.Process(target=serve_bot, name="conductor-bot", daemon=False,
                                          args=(fake.api_base, str(fake.gateway_url), str(db), workers, child_end,
                                                args.profile))
                process.start()
                await fake.sync_commands_done(timeout=600.0)
                await fake.wait_connected(timeout=600.0)
                await fake.wait_until(lambda: len(children_of(process.pid)) >= workers, timeout=600.0,
                                      what="the bot's worker processes")
            print(f"bot ready in {time.perf_counter() - started:.1f} s")
            storage = await Storage(db).open()
            driver = Driver(fake, storage, args.timeout)
            driver.bot_pid = process.pid if process is not None else None
            driver.conn = conn
            driver.same_process_workers = bot.workers.pids if bot is not None else ()
            started = time.perf_counter()
            await driver.deal(tables, args.board)
            print(f"{len(driver.tables)} games dealt in {time.perf_counter() - started:.1f} s")
            driver.profile()
            for rate in rates:
                level = await Metered(driver.run_level(rate, args.seconds), driver)
                levels.append(level)
                board = level.to_board
                print(f"{rate:3d} clicks/s offered: {level.sent} sent in {level.seconds:.1f} s "
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
                      f"load {level.load[0]:.2f}", flush=True)
                if driver.ready.qsize() == 0 and all(t.over for t in driver.tables.values()):
                    print("every game finished or stuck; stopping")
                    break
            if bot is not None:
                print(f"worker tasks: {dict(bot.workers.done)} in processes, {dict(bot.workers.in_threads)} in threads")
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
    report(levels, same_process=args.same_process)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
