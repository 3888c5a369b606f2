"""Rules-engine benchmark: random playouts per board, worst-case move generation and longest trail.

Playouts are whole games: every decision enumerates the legal moves (a uniformly random one is
played) and every game is scored at the end, as in ``bench_engines.py`` (which also sets the
figures beside the compiled build and a peer engine).

Run: ``python bench/bench_rules.py [--games N] [--smoke]``. Prints figures against the budgets in
DESIGN.md: at least 240 four-player USA random games per second on a 2-core machine (aim: twice
that), ``legal_actions`` and longest trail under 1 ms / 5 ms in the worst board state. ``--smoke``
(4 games a board, the dense position sought over 3 games instead of 30) prints the same lines, its
verdict marked as not a measurement.

The engine measured is the installed ``rules`` package (``pip install .`` compiles it): unlike the
other benches, this script does not put the checkout on its path, so without an install it cannot
import ``rules`` at all. ``bench_engines.py`` sets the pure and compiled engines side by side.

Figures a docs table shows: games/s and µs/decision per board; worst legal_actions and longest
trail ms; the USA 4-player verdict.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import add_smoke, run, smoke_note  # bench/harness.py (a script's folder is on its path)

from rules.games import new_game
from rules.ttr.ai import RandomAI
from rules.ttr.board import PLUS4
from rules.ttr.game import TTRGame
from rules.ttr.scoring import longest_trail

BOARDS = (("usa", 4), ("europe", 4), ("switzerland", 3), ("germany", 4))
GAMES_PER_SEC_BUDGET = 240.0


def random_playouts(board: str, players: int, games: int) -> tuple[float, float, int]:
    decisions = 0
    # CPU time of this process, so other work on the machine does not distort the figure.
    start = time.process_time()
    for seed in range(games):
        game = new_game("ttr", {"board": board}, players, seed)
        ai = RandomAI(seed)
        while not game.is_over():
            seat = game.seats_to_act()[0]
            game.apply(seat, ai.choose(game, seat))
            decisions += 1
        game.final_scores()  # whole games, scored, as a player sees them (bench_engines.py plays the same)
    elapsed = time.process_time() - start
    return games / elapsed, elapsed / decisions * 1e6, decisions // games


def dense_late_game(board: str, players: int, seeds: int = 30) -> TTRGame:
    """A late-game position with the most claimed track and the fullest hand seen over seeds."""
    worst: TTRGame | None = None
    for seed in range(seeds):
        game = new_game("ttr", {"board": board}, players, seed)
        ai = RandomAI(seed)
        while not game.is_over():
            seat = game.seats_to_act()[0]
            game.apply(seat, ai.choose(game, seat))
        if worst is None or sum(o >= 0 for o in game.owner) > sum(o >= 0 for o in worst.owner):
            worst = game
    assert worst is not None
    return worst


def worst_case_timings(board: str, players: int, seeds: int = 30) -> tuple[float, float]:
    game = dense_late_game(board, players, seeds)
    # Give the seat a huge hand so move generation enumerates the most payments.
    game.phase, game.pending, game.current = "play", None, 0
    game.hands[0] = [6] * 8 + [8, 3 if game.board.spec.deck[PLUS4] else 0, 0]
    game.trains[0] = 45
    game.owner = [o if i % 3 else -1 for i, o in enumerate(game.owner)]
    legal_times, trail_times = [], []
    # CPU time per call, like the playouts: on a shared machine wall time measures the neighbours.
    for _ in range(30):
        t = time.process_time()
        game.legal_actions(game.current)
        legal_times.append(time.process_time() - t)
    dense = new_game("ttr", {"board": board}, players, 0)
    # Worst longest-trail input: one player spending all its trains on the shortest tracks, which
    # gives the most tracks and cycles.
    budget, own = dense.board.spec.trains, []
    for track in sorted(dense.board.tracks, key=lambda t: t.length):
        if track.length <= budget and not any(s in own for s in track.siblings):
            own.append(track.index)
            budget -= track.length
    for _ in range(5):
        t = time.process_time()
        longest_trail(dense.board, own)
        trail_times.append(time.process_time() - t)
    return max(legal_times) * 1e3, max(trail_times) * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    add_smoke(parser)
    args = parser.parse_args()
    seeds = 30
    if args.smoke:
        args.games, seeds = 4, 3
    print(
        f"{'board':<12} {'players':>7} {'games/s':>9} {'us/decision':>12} {'decisions/game':>15}"
        f" {'legal_actions worst ms':>23} {'longest trail worst ms':>23}"
    )
    results = {}
    for board, players in BOARDS:
        rates = [random_playouts(board, players, args.games // 2) for _ in range(2)]
        gps = statistics.median(r[0] for r in rates)
        us = statistics.median(r[1] for r in rates)
        legal_ms, trail_ms = worst_case_timings(board, players, seeds)
        results[board] = gps
        print(
            f"{board:<12} {players:>7} {gps:>9.0f} {us:>12.1f} {rates[0][2]:>15} {legal_ms:>23.2f} {trail_ms:>23.2f}"
        )
    verdict = "within" if results["usa"] >= GAMES_PER_SEC_BUDGET else "OVER"
    print(
        f"budget: USA 4-player >= {GAMES_PER_SEC_BUDGET:.0f} games/s -> {results['usa']:.0f} ({verdict} budget)"
        f"{smoke_note(args.smoke)}"
    )
    return 0


if __name__ == "__main__":
    run(main)
