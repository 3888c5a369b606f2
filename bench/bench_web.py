"""Web pages benchmark: a page served, cold and cached, wall time and CPU per page.

Run: ``python bench/bench_web.py [--games 12] [--players 32] [--smoke]`` (``--smoke``: 2 games, an
8-player event, the same lines, its verdict marked as not a measurement). Builds finished
Europe 3-player games of AI seats and a Swiss event of ``--players`` (round 1 paired), serves the
pages from one process (the App with its workers as threads, as ``conductor run --web`` serves them
with ``CONDUCTOR_WORKERS=0``) and fetches over HTTP on 127.0.0.1:

- *cold*: the first request of each page, with the pages' caches emptied (the game replayed to the
  move, its log worded, its board drawn);
- *cached*: the same requests again (a game page's HTML is cached by game, move number, language).

CPU per page is the process's CPU time (the server, its threads and the HTTP client, which is a
small part) divided by the pages fetched. Budget: a cached page p95 under 50 ms.

Figures a docs table shows: p50/p95 ms and CPU ms a page, cold and cached, per kind of page.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import add_smoke, run_async, smoke_note  # bench/harness.py (a script's folder is on its path)

BUDGET_MS = 50.0


def percentile(sorted_values: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile of sorted values."""
    index = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


SPACE = "discord:guild:1"


async def main() -> int:
    import aiohttp

    from bot.app import App, AppSettings
    from bot.web.pages import EVENT, GAME
    from bot.web.server import WebServer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=5, help="cached requests of each page")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.players, args.repeat = 2, 8, 2
    with tempfile.TemporaryDirectory() as tmp:
        async with App.open(AppSettings(str(Path(tmp) / "bench.db"), prewarm=True)) as app:
            service = app.service
            games = []
            for _ in range(args.games):
                row = await service.create_game(
                    game_name="ttr",
                    creator=None,
                    creator_name="-",
                    join=False,
                    space=SPACE,
                    config={"board": "europe"},
                )
                for _seat in range(3):
                    await service.add_ai(row.id, None, "heuristic", is_admin=True, where=SPACE)
                await service.start(row.id, None, is_admin=True, where=SPACE)
                games.append(await service.game_row(row.id))
            event = await app.tournaments.create_event(
                game_name="ttr", space=SPACE, creator="discord:1", name="Bench Cup", seed=1
            )
            for i in range(args.players):
                await app.tournaments.join(event.id, SPACE, f"discord:{100 + i}", f"Player {i}")
            await app.tournaments.start(event.id, SPACE, "discord:1")
            server = await WebServer(app, "127.0.0.1", 0).start()
            pages = server.pages.pages
            paths: dict[str, list[str]] = {"game page": [], "game page at a move": [], "board picture": []}
            for row in games:
                pid = await pages.public_id(GAME, row.id)
                paths["game page"].append(f"/g/{pid}/")
                paths["game page at a move"].append(f"/g/{pid}/?move={row.seq // 2}")
                paths["board picture"].append(f"/g/{pid}/board/{row.seq // 2}.png")
            paths["event page"] = [f"/e/{await pages.public_id(EVENT, event.id)}/"]
            moves = sum(row.seq for row in games) / len(games)
            print(
                f"web pages: {len(games)} finished Europe 3-player games ({moves:.0f} moves on average), "
                f"a Swiss event of {args.players} players; pages served on 127.0.0.1 by one process"
            )
            worst_cached = 0.0
            async with aiohttp.ClientSession() as session:

                async def fetch(path: str) -> tuple[float, float]:
                    cpu, wall = time.process_time(), time.perf_counter()
                    async with session.get(server.url + path) as response:
                        await response.read()
                        assert response.status == 200, (path, response.status)
                    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000

                for kind, kind_paths in paths.items():
                    for cache in (pages.views, pages.boards, pages.logs, pages.html):
                        cache.clear()
                    cold = [await fetch(p) for p in kind_paths]
                    cached = [await fetch(p) for _ in range(args.repeat) for p in kind_paths]
                    line = f"{kind:<20}"
                    for label, sample in (("cold", cold), ("cached", cached)):
                        walls = sorted(w for w, _c in sample)
                        cpu = sum(c for _w, c in sample) / len(sample)
                        line += (
                            f"  {label}: p50 {percentile(walls, 50):.1f} ms, p95 {percentile(walls, 95):.1f} ms,"
                            f" CPU {cpu:.1f} ms a page ({len(sample)})"
                        )
                    print(line)
                    worst_cached = max(worst_cached, percentile(sorted(w for w, _c in cached), 95))
            await server.stop()
    verdict = "within" if worst_cached < BUDGET_MS else "OVER"
    print(
        f"budget: a cached page p95 under {BUDGET_MS:.0f} ms: worst {worst_cached:.1f} ms,"
        f" {verdict} budget{smoke_note(args.smoke)}"
    )
    return 0


if __name__ == "__main__":
    run_async(main)
