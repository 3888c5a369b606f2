"""Render benchmark: board snapshot time (p50/p95) and PNG size per board, late game.

Budget (DESIGN.md): a late-game 5-player Europe snapshot in under 100 ms p50 and under 1.5 MB.
The static layer is built once per (board, size) and cached, so the first call is reported
separately ("cold") and excluded from the percentiles.

    python bench/bench_render.py [--runs 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.commands.render import play_ai_game  # noqa: E402
from render.ttr import render_board, render_hand, render_summary  # noqa: E402

CASES = (("usa", 5, 150), ("europe", 5, 150), ("switzerland", 3, 90), ("germany", 5, 140))
BUDGET_MS = 100.0
BUDGET_BYTES = 1_500_000


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    ok = True
    print(f"{'board':<12} {'players':>7} {'turn':>5} {'cold ms':>8} {'p50 ms':>7} {'p95 ms':>7} {'PNG KB':>7}  extra")
    for board, players, turns in CASES:
        game, _ = play_ai_game(board, players, args.seed, turns)
        view = game.view(None)
        t0 = time.perf_counter()
        data = render_board(view)
        cold = (time.perf_counter() - t0) * 1000
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            data = render_board(view)
            times.append((time.perf_counter() - t0) * 1000)
        render_hand(game.view(0))  # warm the mini-map layer
        t0 = time.perf_counter()
        hand = render_hand(game.view(0))
        hand_ms = (time.perf_counter() - t0) * 1000
        final, _ = play_ai_game(board, players, args.seed, None)
        render_summary(final.view(None))  # warm the summary's map layer
        t0 = time.perf_counter()
        summary = render_summary(final.view(None))
        sum_ms = (time.perf_counter() - t0) * 1000
        p50, p95 = statistics.median(times), pct(times, 0.95)
        print(
            f"{board:<12} {players:>7} {view['turn']:>5} {cold:>8.0f} {p50:>7.1f} {p95:>7.1f} {len(data) / 1024:>7.0f}"
            f"  hand {hand_ms:.0f} ms {len(hand) // 1024} KB, summary {sum_ms:.0f} ms {len(summary) // 1024} KB"
        )
        if board == "europe":
            ok = p50 < BUDGET_MS and len(data) < BUDGET_BYTES
            print(f"  budget: Europe p50 {p50:.1f} ms < {BUDGET_MS:.0f} ms and {len(data)} B < {BUDGET_BYTES} B: {'OK' if ok else 'OVER'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
