"""Cold start benchmark: a freshly started bot process, from its start to its first board posted,
and from a click to its board.

Run: ``python bench/bench_cold.py [--games N] [--runs N] [--tree DIR] [--smoke]``. Issue 30 saw
the first "Choose tickets" after a start take 1.2-1.9 s and a restart 15-33 s before the bot
answered; this bench times what a player meets right after a start, through the fake Discord from
``tests/e2e`` on 127.0.0.1 and a SQLite file on disk.

Before the bot starts, ``--games`` live USA games of one person against the heuristic AI are
prepared in its SQLite file through the game service (seeded, the same positions every run): each
advanced by the heuristic playing the person's seat for some turns, then the person's first card
of a two-card draw taken, so that one click (the second card) ends the turn. Each game gets a thread
and its route in the fake Discord and a note recorded as its board last posted, except game 1,
whose board is recorded one move behind: as after a crash between a commit and its post, the bot
posts that board again when it starts.

Each run copies the prepared file, starts the bot in a process of its own as ``conductor run``
builds it (its worker processes, renderers prewarmed, timers on; the very first start of a file
registers the slash commands, which the fake answers at once), and times from the moment the
process is started: the gateway connected; the first board posted (game 1's); then a click (the
second card, the id its private reply carries) on another game as soon as that board is posted,
to its board posted (the first click of the process); then a click on a third game (the second
click: warm). The process is then stopped (SIGTERM, as an operator stops it).

``--tree DIR`` runs the bot from another checkout's sources (an earlier commit in a git worktree,
to compare; the fake and the driver stay this checkout's). ``--smoke`` (one run, 3 games, the bot
with threads instead of worker processes and no prewarm) prints the same lines, marked as not a
measurement. Any failure ends the run with a non-zero exit (see
``bench/harness.py``): it never hangs.

Figures a docs table shows: median over the runs of start → connected, start → first board posted,
first click → its board, second click → its board, and the CPU time of the bot and its worker
processes over a run (its start, the two clicks and its stop: read after it ended), which tells a
slow start on a busy machine from a start that works more.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))

from fakediscord import FakeDiscord, FakeMessage  # noqa: E402
from harness import add_smoke, run_async, smoke_note  # noqa: E402 - bench/harness.py

from bot.discord_app.store import DiscordStore, player_ref, space_ref  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store.rows import ACTIVE  # noqa: E402
from bot.store.sqlite import SqliteStore  # noqa: E402
from lang import SOURCE_LANGUAGE  # noqa: E402
from rules.ai import make_ai  # noqa: E402

TIMEOUT = 900.0  # the longest wait for any step: a start that takes longer fails the bench

#: The bot's process: ``conductor run``'s client over the prepared file, pointed at the fake.
CHILD = """
import asyncio, logging, sys
tree, api, gateway, db, smoke = sys.argv[1:6]
sys.path.insert(0, tree)
import discord.gateway, discord.http, yarl
discord.http.Route.BASE = api
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
logging.basicConfig(level=logging.ERROR)
from bot.discord_app.client import ConductorBot
from bot.workers import configured_size

async def main() -> None:
    if smoke == "smoke":  # seconds: threads instead of worker processes, renderers not prewarmed
        bot = ConductorBot.for_database(db, workers=0, prewarm=False)
    else:
        bot = ConductorBot.for_database(db, workers=configured_size(None))
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    import signal
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    client = loop.create_task(bot.start("fake-bot-token"))
    await asyncio.wait({client, loop.create_task(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
    await bot.close()
    await asyncio.gather(client, return_exceptions=True)

asyncio.run(main())
"""


async def prepare(fake: FakeDiscord, db: Path, games: int, seed: int) -> list[tuple[int, Any, int]]:
    """``games`` live games (id, thread, seq) whose person has taken the first card of a draw."""
    storage = await SqliteStore(db).open()
    out: list[tuple[int, Any, int]] = []
    try:
        service = GameService(storage, rng=random.Random(seed))
        store = DiscordStore(storage)
        space = space_ref(fake.guild.id)
        for index in range(games):
            user = fake.add_user(f"player{index}")
            player = player_ref(user.id)
            row = await service.create_game(
                game_name="ttr",
                config={"board": "usa", "language": SOURCE_LANGUAGE},
                creator=player,
                creator_name=user.name,
                space=space,
                turn_hours=24.0,
                seat_order="join",
                seed=seed * 1000 + index,
            )
            await service.add_ai(row.id, player, "heuristic", where=space)
            await service.start(row.id, player, where=space)
            person = make_ai("ttr", "heuristic", seed + index)
            for _ in range(12 + index % 7):  # some turns in, then the first card of a draw
                loaded = await service.load(row.id)
                if loaded.game is None:
                    break
                seat = loaded.row.seat_of(player)
                await service.act(row.id, player, person.choose(loaded.game.copy(), seat), where=space)
            loaded = await service.load(row.id)
            if loaded.game is not None and loaded.game.state.pending is None:  # type: ignore[attr-defined]
                await service.act(row.id, player, "draw deck", where=space)
            loaded = await service.load(row.id)
            if (
                loaded.row.status != ACTIVE
                or loaded.game is None
                or loaded.game.state.pending != "draw_second"
            ):  # type: ignore[attr-defined]
                raise RuntimeError(f"game #{row.id} is not waiting for a second card")
            thread = fake.add_channel(fake.guild, f"Ticket to Ride · usa #{row.number}", type=11)
            thread.parent_id, thread.owner_id = fake.general.id, fake.bot_user.id
            thread.members = {fake.bot_user.id, user.id}
            await store.set_route(row.id, fake.guild.id, fake.general.id, thread.id)
            note = fake._new_message(thread, {"content": f"Game #{row.number}: the last board."}, [])
            behind = 1 if index == 0 else 0  # game 1: its board is posted again at the start
            await store.record_message(row.id, loaded.row.seq - behind, thread.id, note.id)
            out.append((row.id, thread, loaded.row.seq))
    finally:
        await storage.close()
    return out


async def click_to_board(fake: FakeDiscord, game: tuple[int, Any, int]) -> float:
    """Seconds from the second card's click to the turn's board posted in the game's thread."""
    gid, thread, seq = game
    note = fake.messages_in(thread)[0]
    user = next(u for u in fake.users.values() if u.id in thread.members and not u.bot)
    started = time.perf_counter()
    handle = await fake.forge_component(note, f"c:{gid}:{seq}:deck", user=user)
    await fake.wait_for_message(lambda m: not m.ephemeral and "drew" in m.text(), TIMEOUT, channel=thread)
    elapsed = time.perf_counter() - started
    reply: FakeMessage = await handle.wait_message(timeout=TIMEOUT)
    if not reply.text().startswith("✓"):
        raise RuntimeError(f"game {gid}: the click was refused: {reply.text()}")
    return elapsed


async def one_run(
    fake: FakeDiscord,
    tree: Path,
    prepared: Path,
    games: list[tuple[int, Any, int]],
    run: int,
    workdir: Path,
    smoke: bool,
) -> dict[str, float]:
    db = workdir / f"run{run}.db"
    shutil.copy(prepared, db)
    first_thread = games[0][1]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        str(tree),
        fake.api_base,
        str(fake.gateway_url),
        str(db),
        "smoke" if smoke else "full",
        cwd=str(workdir),
    )
    figures: dict[str, float] = {}
    try:
        await fake.wait_connected(timeout=TIMEOUT)
        figures["connected"] = time.perf_counter() - started
        await fake.wait_for_message(
            lambda m: not m.ephemeral and "after a restart" in m.text(), TIMEOUT, channel=first_thread
        )
        figures["first board"] = time.perf_counter() - started
        figures["first click"] = await click_to_board(fake, games[1 + 2 * run])
        figures["second click"] = await click_to_board(fake, games[2 + 2 * run])
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 60)
            except TimeoutError:
                process.kill()
                await process.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the bot and its workers, once ended
        figures["cpu"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        for _ in range(500):  # the fake notices the closed gateway before the next start
            if not fake.connected:
                break
            await asyncio.sleep(0.01)
    return figures


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="starts of the bot, each on a fresh copy")
    parser.add_argument(
        "--games", type=int, default=30, help="live games in the file (at least 1 + 2 × runs)"
    )
    parser.add_argument("--tree", default=str(ROOT), help="the checkout whose bot is started")
    parser.add_argument("--seed", type=int, default=1)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.games = 1, 3
    args.games = max(args.games, 1 + 2 * args.runs)
    logging.basicConfig(level=logging.ERROR)
    tree = Path(args.tree).resolve()
    fake = FakeDiscord(response_deadline=30.0)
    await fake.start()
    fake.install()
    print(
        f"machine: {os.cpu_count()} cores, load average {'/'.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"the bot from {tree}; {args.games} live USA games in its file{smoke_note(args.smoke)}",
        flush=True,
    )
    runs: list[dict[str, float]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="conductor-cold-") as d:
            workdir = Path(d)
            prepared = workdir / "prepared.db"
            games = await prepare(fake, prepared, args.games, args.seed)
            for run in range(args.runs):
                figures = await one_run(fake, tree, prepared, games, run, workdir, args.smoke)
                runs.append(figures)
                print(
                    f"run {run + 1}: start -> gateway connected {figures['connected']:.2f} s, -> first board posted "
                    f"{figures['first board']:.2f} s; first click -> its board {figures['first click'] * 1000:.0f} ms, "
                    f"second click -> its board {figures['second click'] * 1000:.0f} ms; "
                    f"CPU of the bot and its workers over the run {figures['cpu']:.1f} s",
                    flush=True,
                )
    finally:
        await fake.stop()
    median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    print(
        f"median of {len(runs)} starts: start -> connected {median['connected']:.2f} s, start -> first board posted "
        f"{median['first board']:.2f} s, first click -> board {median['first click'] * 1000:.0f} ms, "
        f"second click -> board {median['second click'] * 1000:.0f} ms, CPU {median['cpu']:.1f} s{smoke_note(args.smoke)}"
    )
    return 0


if __name__ == "__main__":
    run_async(main)
