"""One bot process of a multi-process test (tests/e2e/test_cluster_processes.py): a real
``ShardedConductorBot`` in a process of its own, on the test's PostgreSQL database, talking to the
test's fake Discord (its REST address through ``CONDUCTOR_DISCORD_API``, as a rate-limit proxy
would be named; its gateway by the one attribute discord.py reads it from).

    python tests/e2e/cluster_proc.py GATEWAY_URL SHARD SHARD_COUNT

with ``CONDUCTOR_DB``, ``CONDUCTOR_PROCESS``, ``CONDUCTOR_DISCORD_API`` in the environment. It
imports the bot once and forks a bot process for each ``start`` line on stdin (see :func:`serve`);
each prints ``caught-up`` once connected and its outbox's first catch-up is read, and stops
cleanly on SIGTERM. The toy game (:mod:`toy_nim`: every move ends a turn, no pictures) is
registered.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import discord.gateway  # noqa: E402
import toy_nim  # noqa: E402
import yarl  # noqa: E402

from bot.app import App, AppSettings  # noqa: E402
from bot.discord_app.api_base import SETTING, use_api_base  # noqa: E402
from bot.discord_app.client import ShardedConductorBot  # noqa: E402


async def run(gateway: str, shard: int, count: int) -> None:
    use_api_base(os.environ[SETTING])
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    app = App(AppSettings(os.environ["CONDUCTOR_DB"], workers=0, prewarm=False, timers=False))
    bot = ShardedConductorBot(app, shard_ids=[shard], shard_count=count, guild_ready_timeout=0.05)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))

    async def announce() -> None:
        await bot.wait_until_ready()
        await bot.outbox.caught_up()
        print("caught-up", flush=True)

    told = asyncio.create_task(announce())
    try:
        async with bot:
            await bot.start("fake-bot-token")
    finally:
        told.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await told
        await app.close()


def serve(gateway: str, shard: int, count: int) -> None:
    """Start a bot process (forked from this one, which has imported everything already, so a
    restart takes a fraction of a second) for each ``start`` line read on stdin, printing
    ``pid N`` for it and ``exited N`` once it is gone (killed or stopped); on the end of stdin,
    stop the one running and return."""
    running: set[int] = set()

    def reap(*_: object) -> None:
        while running:
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            running.discard(pid)
            print(f"exited {pid}", flush=True)

    signal.signal(signal.SIGCHLD, reap)
    for line in sys.stdin:
        if line.strip() != "start":
            continue
        pid = os.fork()
        if pid == 0:  # the bot process
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                asyncio.run(run(gateway, shard, count))
            finally:
                os._exit(0)
        running.add(pid)
        print(f"pid {pid}", flush=True)
    for pid in list(running):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    while running:
        signal.pause()


if __name__ == "__main__":
    with toy_nim.registered():
        serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
