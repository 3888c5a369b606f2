"""Render benchmark: CPU time (p50/p95) and PNG size per image, late game, against the budget.

Budget (DESIGN.md): a late 5-player board (any map) at most 15 ms of CPU at p50 and under 1.5 MB.
The design names no separate budget for the other images, so the same figures are printed beside
them for comparison (marked "ref").

CPU time is ``time.process_time`` around each call: on a shared machine it is steadier than wall
time (another process's load does not count), and it is what the process pool will pay per image.
The static layer and the palette are built once per (board, size) and cached, so the first call of
each board is reported separately ("cold") and excluded from the percentiles. Each board is the
last view before the game ends (the most claims, tokens and notes of that game).

    python bench/bench_render.py [--runs 30] [--seed 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.commands.render import play_ai_game  # noqa: E402
from render.firstclass import render_player_board, render_table  # noqa: E402
from render.ttr import render_board, render_hand, render_summary  # noqa: E402
from rules.firstclass.ai import RandomAI  # noqa: E402
from rules.firstclass.game import FirstClassGame  # noqa: E402

#: (board, players): every map, late game; Märklin at 4 and 5 players.
CASES = (("usa", 5), ("europe", 5), ("switzerland", 3), ("germany", 4), ("germany", 5))
BUDGET_CPU_MS = 15.0
BUDGET_BYTES = 1_500_000


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(fn: Callable[[], bytes], runs: int) -> tuple[float, float, float, int]:
    """(cold CPU ms, p50 CPU ms, p95 CPU ms, PNG bytes) of ``fn`` after one cold call."""
    t0 = time.process_time()
    data = fn()
    cold = (time.process_time() - t0) * 1000
    times: list[float] = []
    for _ in range(runs):
        t0 = time.process_time()
        data = fn()
        times.append((time.process_time() - t0) * 1000)
    return cold, statistics.median(times), pct(times, 0.95), len(data)


def row(label: str, figures: tuple[float, float, float, int], budgeted: bool) -> bool:
    cold, p50, p95, size = figures
    ok = p50 <= BUDGET_CPU_MS and size < BUDGET_BYTES
    tag = ("OK" if ok else "OVER") if budgeted else ("within" if ok else "above") + " (ref)"
    print(
        f"{label:<28} {cold:>8.0f} {p50:>7.1f} {p95:>7.1f} {size / 1024:>8.0f}"
        f"   <= {BUDGET_CPU_MS:.0f} ms, < {BUDGET_BYTES / 1e6:.1f} MB: {tag}"
    )
    return ok or not budgeted


def late_views(board: str, players: int, seed: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(last public view before the end, that moment's view for seat 0, the final view)."""
    game, views = play_ai_game(board, players, seed, None, collect=True)
    last = max((i for i, v in enumerate(views) if v.get("phase") != "over"), default=0)
    # Replay to that action for the seat-0 view (views are public; the hand needs seat 0's view).
    turn = int(views[last]["turn"])
    mid, _ = play_ai_game(board, players, seed, turn)
    return views[last], mid.view(0), game.view(None)


def firstclass_late(seed: int) -> dict[str, Any]:
    """Seat 0's view of a 4-player random First Class game in its last round."""
    g = FirstClassGame.new({}, 4, seed)
    ais = [RandomAI(seed * 4 + i) for i in range(4)]
    view = g.view(0)
    while not g.is_over():
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
        if not g.is_over():
            view = g.view(0)
    return view


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    small = max(5, args.runs // 3)
    ok = True
    print(f"{'image (CPU ms, process_time)':<28} {'cold':>8} {'p50':>7} {'p95':>7} {'PNG KB':>8}   budget")
    for board, players in CASES:
        public, own, final = late_views(board, players, args.seed)
        label = f"{board} {players}p turn {public['turn']}"
        ok &= row(f"{label} board", measure(partial(render_board, public), args.runs), True)
        print(f"{'':<4}({len(public.get('claims') or {})} claims, {len(public.get('notes') or [])} notes)")
        row(f"{board} {players}p hand", measure(partial(render_hand, own), small), False)
        row(f"{board} {players}p summary", measure(partial(render_summary, final), small), False)
    fc = firstclass_late(args.seed)
    row("First Class 4p table", measure(partial(render_table, fc), args.runs), False)
    row("First Class 4p player board", measure(partial(render_player_board, fc, 0), small), False)
    print("boards:", "all within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
