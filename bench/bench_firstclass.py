"""Benchmark: First Class random 4-player playouts (games/s and actions/s), the cost of a state copy
(apply keeps one as its undo), and render time (p50).

Run as ``python bench/bench_firstclass.py [--games N] [--smoke]`` from the repository root
(``--smoke``: 4 games, 2 renders of each image, the same lines, marked as not a measurement).

DESIGN.md names no budget of its own for First Class: the render figures are set beside the board
render budget (a late board at most 15 ms CPU p50) for reference, as ``bench_render.py`` does for
the images the design leaves without one ("ref": never a failure).

Figures a docs table shows: games/s and actions/s of random playouts; copy() p50; the two render
p50s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import add_smoke, run, smoke_note  # noqa: E402 - bench/harness.py

from render.firstclass import render_player_board, render_table  # noqa: E402
from rules.firstclass.ai import RandomAI  # noqa: E402
from rules.firstclass.game import FirstClassGame  # noqa: E402

#: The board render budget (DESIGN.md), a reference here: First Class has none of its own.
REFERENCE_RENDER_MS = 15.0


def playout(seed: int) -> FirstClassGame:
    g = FirstClassGame.new({}, 4, seed)
    ais = [RandomAI(seed * 4 + i) for i in range(4)]
    while not g.is_over():
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
    return g


def copy_cost(game: FirstClassGame, rounds: int = 200) -> float:
    """Median seconds for one full copy of a game's state (late game: the longest history)."""
    times: list[float] = []
    for _ in range(rounds):
        t = time.perf_counter()
        game.copy()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="random 4-player playouts")
    parser.add_argument("--renders", type=int, default=20, help="finished games whose images are drawn")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.games, args.renders = 4, 2
    games = args.games
    start = time.perf_counter()
    ended = [playout(seed) for seed in range(games)]
    elapsed = time.perf_counter() - start
    actions = sum(len(g.to_json()["state"]["history"]) for g in ended)
    print(
        f"random 4-player playouts: {games / elapsed:.1f} games/s ({games} games in {elapsed:.2f} s), "
        f"{actions / elapsed:.0f} actions/s ({actions} actions)"
    )
    print(f"copy() of a finished game p50: {copy_cost(ended[0]) * 1e6:.0f} us")
    boards: list[float] = []
    tables: list[float] = []
    for g in ended[: args.renders]:
        view = g.view(0)
        t = time.perf_counter()
        render_player_board(view, 0)
        boards.append(time.perf_counter() - t)
        t = time.perf_counter()
        render_table(view)
        tables.append(time.perf_counter() - t)
    note = smoke_note(args.smoke)
    for label, times in (("render_player_board", boards), ("render_table", tables)):
        p50 = statistics.median(times) * 1000
        word = "within" if p50 <= REFERENCE_RENDER_MS else "above"
        print(
            f"{label} p50: {p50:.1f} ms  [no First Class budget; beside the board budget "
            f"{REFERENCE_RENDER_MS:.0f} ms p50: {word} (ref)]{note}"
        )
    return 0


if __name__ == "__main__":
    run(main)
