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
then the curve of p95 against clicks/s and whether 50 clicks/s holds p95 under 150 ms. The bot runs
in a process of its own, as in production (the driver reads the games from its SQLite file, as a
player would see them); CPU per click is read from /proc for the bot and its workers. With
``--same-process`` the bot shares this process and event loop with the fake Discord and the driver
(the figures are then pessimistic: every request is paid for twice in one process).
"""

from __future__ import annotations

import argparse
import asyncio
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

from bot.discord_app.components import mid_turn  # noqa: E402
from bot.discord_app.store import player_ref  # noqa: E402
from bot.present import game_view  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.workers import configured_size  # noqa: E402
from rules.ai import make_ai  # noqa: E402
from rules.registry import envelope, find_game  # noqa: E402

P95_BUDGET_MS = 150.0
TARGET_RATE = 50


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc), 0 where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


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
    main_cpu: float = 0.0
    worker_cpu: float = 0.0
    trips: int = 0


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
        self._hook()

    def bot_cpu(self) -> tuple[float, float]:
        """CPU seconds so far of the bot's process and of its worker processes."""
        if self.bot_pid is None:
            return time.process_time(), sum(cpu_seconds(p) for p in self.same_process_workers)
        return cpu_seconds(self.bot_pid), sum(cpu_seconds(p) for p in children_of(self.bot_pid))

    def stall_since(self) -> float:
        """The bot process's longest event-loop stall since the last call (seconds; 0 in this process)."""
        if self.conn is None:
            return 0.0
        self.conn.send("stall")
        return float(self.conn.recv()) if self.conn.poll(10.0) else float("nan")

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

    async def until_ready(self, table: Table) -> None:
        """Wait (bounded) until the person may act and the board for the current move is posted;
        then queue the table for its next click (a finished game leaves the queue)."""
        deadline = time.perf_counter() + self.timeout
        while True:
            row, _, _, mine, inside = await self.state(table)
            if row.status != "active":
                table.over = True
                return
            if mine and (inside or table.board_seq == row.seq):
                self.ready.put_nowait(table)
                return
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                table.over = True  # stuck: counted by the caller as a miss, the table retired
                return
            table.posted.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.posted.wait(), min(remaining, 0.25))

    async def click(self, table: Table, level: Level) -> None:
        """The person's next move as one interaction: a button for card draws, else a slash command."""
        row, game, seat, _, _ = await self.state(table)
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
        if not (await self.state(table))[4]:
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
        await self.until_ready(table)

    async def run_level(self, rate: int, seconds: float) -> Level:
        """Clicks due at n / rate seconds for ``seconds`` seconds; then wait (bounded) for stragglers."""
        level = Level(rate)
        tasks: set[asyncio.Task[None]] = set()
        cpu_bot, cpu_workers = self.bot_cpu()
        trips = self.round_trips()
        start = time.perf_counter()
        async with LoopLagProbe() as probe:
            self.stall_since()
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
                task = asyncio.get_running_loop().create_task(self.click(table, level))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            if tasks:
                await asyncio.wait(tasks, timeout=self.timeout * 3)
        level.seconds = time.perf_counter() - start
        cpu_bot_now, cpu_workers_now = self.bot_cpu()
        level.main_cpu, level.worker_cpu = cpu_bot_now - cpu_bot, cpu_workers_now - cpu_workers
        level.trips = self.round_trips() - trips
        level.max_stall = self.stall_since() if self.bot_pid else probe.max_stall
        level.load = os.getloadavg()
        return level


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
    is profiled (cProfile) and the statistics written to that file."""
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
                    conn.send(probe.max_stall)
                    probe.max_stall = 0.0
                elif message == "trips":
                    conn.send(trips.count)
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

    if profile is None:
        asyncio.run(run())
        return
    import cProfile

    profiler = cProfile.Profile()
    try:
        profiler.runcall(asyncio.run, run())
    finally:
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
                        help="write cProfile statistics of the bot's event-loop thread to this file")
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
            for rate in rates:
                level = await driver.run_level(rate, args.seconds)
                levels.append(level)
                board = level.to_board
                print(f"{rate:3d} clicks/s offered: {level.sent} sent in {level.seconds:.1f} s "
                      f"({level.sent / level.seconds:.1f}/s; {level.unsent} unsent: no table free), "
                      f"{level.misses} misses, {level.refused} refused; click -> board posted "
                      f"p50 {pct(board, 50):.0f} ms, p95 {pct(board, 95):.0f} ms, max {max(board, default=0):.0f} ms "
                      f"({len(board)}); click -> answer p50 {pct(level.to_answer, 50):.0f} ms, "
                      f"p95 {pct(level.to_answer, 95):.0f} ms; longest loop stall {level.max_stall * 1000:.0f} ms; "
                      f"CPU per click: bot process {level.main_cpu / max(1, level.sent) * 1000:.1f} ms, "
                      f"workers {level.worker_cpu / max(1, level.sent) * 1000:.1f} ms; "
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
    print("\ncurve (clicks/s offered -> sent/s, p50 / p95 click -> board posted, ms):")
    for level in levels:
        bar = "#" * min(60, int(pct(level.to_board, 95) / 10)) if level.to_board else ""
        print(f"  {level.rate:3d} -> {level.sent / level.seconds:5.1f}/s  {pct(level.to_board, 50):6.0f} / "
              f"{pct(level.to_board, 95):6.0f}  {bar}")
    if levels:
        sent = sum(lv.sent for lv in levels)
        per_click = sum(lv.main_cpu + lv.worker_cpu for lv in levels) / max(1, sent)
        main = sum(lv.main_cpu for lv in levels) / max(1, sent)
        what = "with the fake Discord and this driver" if args.same_process else "the bot alone"
        print(f"CPU per click over all rates: {per_click * 1000:.1f} ms ({main * 1000:.1f} ms in the bot's own "
              f"process, {what}); on {os.cpu_count()} idle cores that is a ceiling of about "
              f"{(os.cpu_count() or 1) / per_click:.0f} clicks/s, and {1 / main:.0f} clicks/s for the one event loop")
    target = next((lv for lv in levels if lv.rate == TARGET_RATE), None)
    if target is not None:
        p95 = pct(target.to_board, 95)
        held = p95 < P95_BUDGET_MS and target.misses == 0 and target.unsent == 0
        print(f"{TARGET_RATE} clicks/s with p95 < {P95_BUDGET_MS:.0f} ms from click to board posted: "
              f"{'HELD' if held else 'NOT HELD'} (p95 {p95:.0f} ms, {target.misses} misses, {target.unsent} unsent, "
              f"load average {target.load[0]:.2f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
