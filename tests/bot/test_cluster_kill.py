"""A bot process killed (SIGKILL) while it holds a timer job, on a shared PostgreSQL database
(Done when 5 of the PostgreSQL issue): the timeout is applied once, by another process, after
the dead one's hold lapsed; the reminder the dead process had sent is not sent again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from itertools import count
from pathlib import Path

from bot_helpers import FakeClock

from bot.app import App, AppSettings
from bot.store.pg_cluster import shared_cluster

ALICE, BOB = "terminal:alice", "terminal:bob"
HERE = Path(__file__).resolve().parent
_numbers = count()


async def test_a_process_killed_holding_a_timeout_leaves_it_to_another_once(tmp_path: Path) -> None:
    url = shared_cluster().create_database(f"kill_{next(_numbers)}")
    clock = FakeClock()
    survivor = App(AppSettings(url, clock=clock, process="survivor"))
    await survivor.start()
    reminded: list[str] = []

    async def remind(game_id: int, players: list[str], deadline: float | None) -> None:
        reminded.append(f"survivor {game_id} {' '.join(players)}")

    survivor.scheduler.subscribe_reminders(remind)
    try:
        row = await survivor.service.create_game(
            game_name="ttr",
            config={"board": "usa"},
            creator=ALICE,
            creator_name="alice",
            seat_order="join",
            seed=3,
            turn_hours=1,
            reminder_hours=0.5,
        )
        await survivor.service.join(row.id, BOB, "bob")
        await survivor.service.start(row.id, ALICE)
        started = (await survivor.storage.get_game(row.id)).seq
        clock.advance(2 * 3600)  # both the reminder and the timeout are due

        reminders = tmp_path / "reminders.txt"
        victim = subprocess.Popen(
            [sys.executable, str(HERE / "cluster_victim.py"), url, str(clock()), str(reminders)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        try:
            assert victim.stdout is not None
            line = victim.stdout.readline()  # blocks until the victim holds the timeout
            assert line.split() == ["HOLDING", str(row.id), str(started)], line
        finally:
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=30)
        assert victim.returncode == -signal.SIGKILL
        assert reminders.read_text(encoding="utf-8").splitlines() == [f"victim {row.id} {ALICE} {BOB}"]

        # Within the dead process's hold nobody takes its timers; the game waits.
        clock.advance(60)
        assert await survivor.scheduler.tick() == 0
        assert (await survivor.storage.get_game(row.id)).seq == started
        # Once the hold lapsed, the survivor carries the timeout out, once; no reminder again.
        clock.advance(survivor.scheduler.hold)
        await survivor.scheduler.tick()
        after = await survivor.storage.get_game(row.id)
        moves = await survivor.storage.actions(row.id, since_seq=started)
        assert after.seq > started and [m.seq for m in moves] == list(range(started + 1, after.seq + 1))
        assert all(m.player is None for m in moves), "the moves are the timer's AI moves"
        await survivor.scheduler.tick()
        assert (await survivor.storage.get_game(row.id)).seq == after.seq, "applied once"
        assert reminded == [], "the reminder the dead process sent is not sent twice"
    finally:
        await survivor.close()
