"""A hard kill (SIGKILL) in the middle of play loses nothing acknowledged and leaves every game resumable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.commands.export import replay_export
from bot.service import GameService
from bot.store.rows import ACTIVE, OVER
from bot.store.sqlite import SqliteStore

WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store.sqlite import SqliteStore
    from bot.service import GameService
    from rules.ttr.ai import RandomAI

    async def main(path):
        storage = await SqliteStore(path).open()
        service = GameService(storage)
        ids = []
        for i in range(4):
            row = await service.create_game(game_name="ttr", config={"board": ("usa", "europe")[i % 2]}, creator=f"p:{100 + i}",
                                            creator_name="p", seat_order="join", seed=i + 1, turn_hours=24)
            await service.add_ai(row.id, f"p:{100 + i}", "random")
            await service.start(row.id, f"p:{100 + i}")
            ids.append(row.id)
        print("started", flush=True)
        ai = RandomAI(5)
        live = True
        while live:  # play until killed; each acknowledged action is printed after its commit
            live = False
            for n, gid in enumerate(ids):
                loaded = await service.load(gid)
                if loaded.row.status != "active":
                    continue
                live = True
                out = await service.act(gid, f"p:{100 + n}", ai.choose(loaded.game, loaded.row.seat_of(f"p:{100 + n}")))
                print(f"ack {gid} {out.seq}", flush=True)
                await asyncio.sleep(0.003)
        print("done", flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_sigkill_mid_game(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "started"
    acked: dict[int, int] = {}
    deadline = time.monotonic() + 0.6
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line or line.startswith("done"):
            break
        if line.startswith("ack"):
            _, gid, seq = line.split()
            acked[int(gid)] = int(seq)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert acked, "the writer acknowledged nothing"

    async with SqliteStore(db) as storage:
        service = GameService(storage)
        ok, broken = await service.resume_all()
        assert broken == []
        for gid in range(1, 5):
            row = await storage.get_game(gid)
            assert row.status in (ACTIVE, OVER)
            assert row.seq >= acked.get(gid, 0)  # nothing acknowledged was lost
            actions = await storage.actions(gid)
            assert [a.seq for a in actions] == list(range(1, row.seq + 1))  # log and snapshot agree
            assert replay_export(await storage.export_game(gid)).to_json() == row.snapshot
        # and play goes on
        active = [g for g in range(1, 5) if (await storage.get_game(g)).status == ACTIVE]
        assert active, "the kill came after every game had ended"
        gid = active[0]
        loaded = await service.load(gid)
        user = f"p:{100 + gid - 1}"
        before = loaded.row.seq
        out = await service.act(gid, user, loaded.game.legal_actions(loaded.row.seat_of(user))[0])
        assert out.seq > before
