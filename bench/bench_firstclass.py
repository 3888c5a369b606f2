"""Benchmark: First Class random 4-player playouts (games/s and actions/s), the cost of a state copy
(apply keeps one as its undo), and render time (p50).

Run as ``python bench/bench_firstclass.py`` from the repository root.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render.firstclass import render_player_board, render_table  # noqa: E402
from rules.firstclass.ai import RandomAI  # noqa: E402
from rules.firstclass.game import FirstClassGame  # noqa: E402


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


def main() -> None:
    games = 50
    start = time.perf_counter()
    ended = [playout(seed) for seed in range(games)]
    elapsed = time.perf_counter() - start
    actions = sum(len(g.to_json()["state"]["history"]) for g in ended)
    print(f"random 4-player playouts: {games / elapsed:.1f} games/s ({games} games in {elapsed:.2f} s), "
          f"{actions / elapsed:.0f} actions/s ({actions} actions)")
    print(f"copy() of a finished game p50: {copy_cost(ended[0]) * 1e6:.0f} us")
    boards: list[float] = []
    tables: list[float] = []
    for g in ended[:20]:
        view = g.view(0)
        t = time.perf_counter()
        render_player_board(view, 0)
        boards.append(time.perf_counter() - t)
        t = time.perf_counter()
        render_table(view)
        tables.append(time.perf_counter() - t)
    print(f"render_player_board p50: {statistics.median(boards) * 1000:.1f} ms")
    print(f"render_table p50: {statistics.median(tables) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
