"""Real bot processes on a real PostgreSQL, through the fake Discord (issue 29, "Done when" 4):
each process is ``tests/e2e/cluster_proc.py`` running one shard of two; the test drives the
fake Discord and reads the database as an observer, and SIGKILLs the process that owns the
game's server while its post of a committed move is on its way."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections import Counter
from itertools import count
from pathlib import Path

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeMessage
from test_bot_support import PATIENCE

from bot.discord_app.api_base import SETTING
from bot.store.pg import PgStore
from bot.store.pg_cluster import shared_cluster

LAUNCHER = Path(__file__).parent / "cluster_proc.py"
KILLS = int(os.environ.get("CONDUCTOR_CLUSTER_KILLS", "50"))
_numbers = count()


class BotProcess:
    """One bot process running shard ``shard`` of two, started again after each kill: forked by
    a supervisor that imported the bot once (``cluster_proc.serve``), so a restart is cheap."""

    def __init__(self, fake: FakeDiscord, url: str, name: str, shard: int, logs: Path) -> None:
        self.fake, self.url, self.name, self.shard = fake, url, name, shard
        self.log = logs / f"{name}.log"
        self.supervisor: asyncio.subprocess.Process | None = None
        self.pid = 0
        self.starts = 0

    async def _line(self) -> str:
        assert self.supervisor is not None and self.supervisor.stdout is not None
        line = await asyncio.wait_for(self.supervisor.stdout.readline(), PATIENCE)
        assert line, self.log.read_text()[-3000:]
        return line.decode().strip()

    async def start(self) -> None:
        if self.supervisor is None:
            env = {
                **os.environ,
                "CONDUCTOR_DB": self.url,
                "CONDUCTOR_PROCESS": self.name,
                SETTING: self.fake.api_base,
                "LOG_LEVEL": "WARNING",
            }
            with self.log.open("a") as log:
                self.supervisor = await asyncio.create_subprocess_exec(
                    sys.executable,
                    str(LAUNCHER),
                    str(self.fake.gateway_url),
                    str(self.shard),
                    "2",
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=log,
                    env=env,
                )
        assert self.supervisor.stdin is not None
        self.supervisor.stdin.write(b"start\n")
        await self.supervisor.stdin.drain()
        said = await self._line()
        assert said.startswith("pid "), said
        self.pid = int(said.split()[1])
        said = await self._line()
        assert said == "caught-up", (said, self.log.read_text()[-3000:])
        self.starts += 1

    async def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        said = await self._line()
        assert said == f"exited {self.pid}", said

    async def stop(self) -> None:
        if self.supervisor is not None and self.supervisor.returncode is None:
            assert self.supervisor.stdin is not None
            self.supervisor.stdin.close()
            try:
                await asyncio.wait_for(self.supervisor.wait(), PATIENCE)
            except TimeoutError:
                self.supervisor.kill()
                await self.supervisor.wait()


async def until(check: object, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not await check():  # type: ignore[operator]
        if loop.time() > deadline:
            raise AssertionError(f"waited {PATIENCE} s for {what}")
        await asyncio.sleep(0.02)


async def _answer(fake: FakeDiscord, command: str, channel: FakeChannel, **options: object) -> FakeMessage:
    handle = fake._interaction_base(  # noqa: SLF001 - the fake's own way to send a slash command in a thread
        2, fake.build_command_data(command, options, channel=channel), fake.alice, channel, None
    )
    return await (await fake.inject(handle)).wait_message(timeout=PATIENCE)


async def _new_game(fake: FakeDiscord, games: FakeChannel) -> tuple[int, FakeChannel]:
    made = await _answer(fake, "ttr new", games, game="nim", seat_order="join")
    gid = int(re.search(r"game #(\d+)", made.text())[1])  # type: ignore[index]
    thread = next(t for t in fake.threads if f"#{gid}" in t.name)
    await _answer(fake, "ttr addai", thread)
    assert "started" in (await _answer(fake, "ttr start", thread)).text()
    return gid, thread


@pytest.mark.slow
async def test_sigkills_between_commit_and_post_lose_nothing_and_post_nothing_twice(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Done-when 4: ``KILLS`` times, alice's click is committed and acknowledged by process B
    (shard 1, which owns the game's server), and B is SIGKILLed while its board post is on its
    way (held by the fake Discord, then let through or not by the dead connection). Restarted,
    B posts what was pending. In the end every acknowledged move is in the log and in the game's
    thread exactly once, no board was created twice (each nonce once), and nothing is left
    unposted. Process A (shard 0) runs beside it all along."""
    fake = fake_discord
    url = shared_cluster().create_database(f"kills_{next(_numbers)}")
    far = fake.add_guild("Far", owner=fake.alice, shard=(1, 2))
    games = fake.add_channel(far, "games")
    a = BotProcess(fake, url, "A", 0, tmp_path)
    b = BotProcess(fake, url, "B", 1, tmp_path)
    observer = await PgStore(url, process="observer").open()
    acknowledged: Counter[int] = Counter()  # game -> alice's acknowledged moves
    threads: dict[int, FakeChannel] = {}
    try:
        await a.start()
        await b.start()
        gid = 0
        kills = 0
        while kills < KILLS:
            if not gid or (await observer.get_game(gid)).status != "active":
                gid, threads[gid] = await _new_game(fake, games)
            thread = threads[gid]
            seq = (await observer.get_game(gid)).seq
            button = f"c:{gid}:{seq}:nim:1"

            def board(button: str = button, thread: FakeChannel = thread) -> FakeMessage | None:
                return next((m for m in fake.messages_in(thread) if button in m.custom_ids()), None)

            on_board = await fake.wait_until(board, PATIENCE, f"the board of seq {seq}")
            held = fake.hold_next("POST", f"/channels/{thread.id}/messages")
            answer = await (await fake.click(on_board, button, user=fake.alice)).wait_message(
                timeout=PATIENCE
            )
            assert answer.text().startswith("✓"), answer.text()
            acknowledged[gid] += 1
            await asyncio.wait_for(held.reached.wait(), PATIENCE)  # committed; its post on the way
            await b.kill()
            kills += 1
            held.release()
            await b.start()

            async def caught_up(gid: int = gid) -> bool:
                row = await observer.get_game(gid)
                latest = await observer.discord.latest_message(gid)
                return not await observer.outbox.unposted(gid) and latest is not None and latest[0] == row.seq

            await until(caught_up, f"game {gid} posted after restart {kills}")
        assert b.starts == KILLS + 1 and a.starts == 1
        for game, moves in acknowledged.items():
            log = await observer.actions(game)
            assert sum(1 for m in log if m.player is not None) == moves  # nothing acknowledged lost
            said = "\n".join(m.text() for m in fake.messages_in(threads[game], ephemeral=False))
            assert said.count("alice** takes 1 stone") == moves, said  # each posted once
        nonces = Counter(m.nonce for m in fake.messages.values() if m.nonce is not None)
        assert nonces and max(nonces.values()) == 1  # no board created twice
        assert await observer.outbox.unposted() == []
    finally:
        await a.stop()
        await b.stop()
        await observer.close()
