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
then the curve of p95 against clicks/s and whether 50 clicks/s holds p95 under 150 ms. The fake
Discord and this driver share the bot's process and event loop, so figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
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
from bot.workers import configured_size  # noqa: E402
from rules.ai import make_ai  # noqa: E402

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


class Driver:
    """Plays the person's side of every table through the fake Discord, one click at a time per table."""

    def __init__(self, fake: FakeDiscord, bot: Any, timeout: float) -> None:
        self.fake = fake
        self.bot = bot
        self.timeout = timeout
        self.tables: dict[int, Table] = {}  # by thread id
        self.ready: asyncio.Queue[Table] = asyncio.Queue()
        self.policy = make_ai("ttr", "heuristic", 17)
        self._hook()

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

    async def until_ready(self, table: Table) -> None:
        """Wait (bounded) until the person may act and the board for the current move is posted;
        then queue the table for its next click (a finished game leaves the queue)."""
        deadline = time.perf_counter() + self.timeout
        while True:
            loaded = await self.bot.service.load(table.gid)
            if loaded.row.status != "active":
                table.over = True
                return
            seat = loaded.row.seat_of(player_ref(table.user.id))
            mine = loaded.game is not None and seat in loaded.game.seats_to_act()
            mid_turn = self.bot.ui.held_seq.get(table.gid) == loaded.row.seq
            if mine and (mid_turn or table.board_seq == loaded.row.seq):
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
        loaded = await self.bot.service.load(table.gid)
        seat = loaded.row.seat_of(player_ref(table.user.id))
        action = self.policy.choose(loaded.game, seat)
        seq, gid = loaded.row.seq, table.gid
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
        if self.bot.ui.held_seq.get(gid) != (await self.bot.service.load(gid)).row.seq:
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
        pids = self.bot.workers.pids
        cpu_main, cpu_workers = time.process_time(), sum(cpu_seconds(p) for p in pids)
        start = time.perf_counter()
        async with LoopLagProbe() as probe:
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
        level.main_cpu = time.process_time() - cpu_main
        level.worker_cpu = sum(cpu_seconds(p) for p in pids) - cpu_workers
        level.max_stall = probe.max_stall
        level.load = os.getloadavg()
        return level


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="10,20,30,40,50,60", help="clicks per second, comma-separated")
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each rate")
    parser.add_argument("--tables", type=int, default=0, help="games played at once (default: 2.5 × the top rate)")
    parser.add_argument("--board", default="europe", help="board of every game")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: CONDUCTOR_WORKERS, else one per core; 0: threads)")
    parser.add_argument("--timeout", type=float, default=10.0, help="longest wait for any answer (s)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    rates = [int(r) for r in args.rates.split(",") if r.strip()]
    workers = configured_size(args.workers)
    tables = args.tables or int(max(rates) * 2.5)
    random.seed(1)
    print(f"machine: {os.cpu_count()} cores, load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"(1/5/15 min) at start; bot with {workers or 'no'} worker processes"
          f"{'' if workers else ' (threads)'}; {tables} {args.board} games, one person against the heuristic AI")
    fake = FakeDiscord(response_deadline=30.0)
    await fake.start()
    fake.install()
    runner = BotRunner(fake)
    levels: list[Level] = []
    with tempfile.TemporaryDirectory(prefix="conductor-load-") as d:
        try:
            started = time.perf_counter()
            bot = await runner.start(lambda: make_bot(Path(d) / "load.db", workers=workers, prewarm=True),
                                     timeout=600.0)
            await fake.sync_commands_done()
            print(f"bot ready in {time.perf_counter() - started:.1f} s "
                  f"({'pool of ' + str(len(bot.workers.pids)) if bot.workers.pooled else 'threads'})")
            driver = Driver(fake, bot, args.timeout)
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
                      f"load {level.load[0]:.2f}", flush=True)
                if driver.ready.qsize() == 0 and all(t.over for t in driver.tables.values()):
                    print("every game finished or stuck; stopping")
                    break
            print(f"worker tasks: {dict(bot.workers.done)} in processes, {dict(bot.workers.in_threads)} in threads")
        finally:
            await runner.close()
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
        print(f"CPU per click over all rates: {per_click * 1000:.1f} ms ({main * 1000:.1f} ms in the bot's own "
              f"process, with the fake Discord and this driver); on {os.cpu_count()} idle cores that is a ceiling of "
              f"about {(os.cpu_count() or 1) / per_click:.0f} clicks/s, and {1 / main:.0f} clicks/s for the one event loop")
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
