"""Render benchmark: CPU time (p50/p95) and PNG size per image, late game, against the budget.

Budget (DESIGN.md): a late 5-player board (any map) at most 15 ms of CPU at p50 and under 1.5 MB.
The design names no separate budget for the other images, so the same figures are printed beside
them for comparison (marked "ref").

CPU time is ``time.process_time`` around each call: on a shared machine it is steadier than wall
time (another process's load does not count), and it is what the process pool will pay per image.
Boards and hands are the last ``--runs`` positions of a heuristic-AI game, each drawn once, as a
game posts them (so per-process caches are measured in the state real play leaves them, never on
one view drawn over and over); the summary is drawn repeatedly from the one final view. The
static layer is built once per (board, size) and cached, so the first call of each kind, on the
position before those measured, is reported separately ("cold") and excluded from the
percentiles.

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

from render.firstclass import render_player_board, render_table  # noqa: E402
from render.ttr import render_board, render_hand, render_summary  # noqa: E402
from rules.firstclass.ai import RandomAI  # noqa: E402
from rules.firstclass.game import FirstClassGame  # noqa: E402
from rules.games import new_game  # noqa: E402
from rules.ttr.ai import HeuristicAI  # noqa: E402

View = dict[str, Any]

#: (board, players): every map, late game; Märklin at 4 and 5 players.
CASES = (("usa", 5), ("europe", 5), ("switzerland", 3), ("germany", 4), ("germany", 5))
BUDGET_CPU_MS = 15.0
BUDGET_BYTES = 1_500_000


def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(fn: Callable[[Any], bytes], views: list[Any], warm: Any) -> tuple[float, float, float, int]:
    """(cold CPU ms, p50 CPU ms, p95 CPU ms, largest PNG bytes): ``fn`` once on ``warm`` (cold
    caches), then once on each of ``views``."""
    t0 = time.process_time()
    fn(warm)
    cold = (time.process_time() - t0) * 1000
    times: list[float] = []
    size = 0
    for view in views:
        t0 = time.process_time()
        data = fn(view)
        times.append((time.process_time() - t0) * 1000)
        size = max(size, len(data))
    return cold, statistics.median(times), pct(times, 0.95), size


def row(label: str, figures: tuple[float, float, float, int], budgeted: bool) -> bool:
    cold, p50, p95, size = figures
    ok = p50 <= BUDGET_CPU_MS and size < BUDGET_BYTES
    tag = ("OK" if ok else "OVER") if budgeted else ("within" if ok else "above") + " (ref)"
    print(
        f"{label:<28} {cold:>8.0f} {p50:>7.1f} {p95:>7.1f} {size / 1024:>8.0f}"
        f"   <= {BUDGET_CPU_MS:.0f} ms, < {BUDGET_BYTES / 1e6:.1f} MB: {tag}"
    )
    return ok or not budgeted


def ttr_game(board: str, players: int, seed: int) -> tuple[list[View], list[View], View]:
    """A heuristic AI game: (public view after each action while in play, seat 0's view after each
    action while in play, the final public view)."""
    game = new_game("ttr", {"board": board}, players, seed)
    bots = [HeuristicAI(seed * 31 + s) for s in range(players)]
    public: list[View] = []
    own: list[View] = []
    while not game.is_over():
        seat = game.seats_to_act()[0]
        game.apply(seat, bots[seat].choose(game, seat))
        if not game.is_over():
            public.append(game.view(None))
            own.append(game.view(0))
    return public, own, game.view(None)


def firstclass_game(seed: int) -> list[View]:
    """Seat 0's view after each action of a 4-player random First Class game, while in play."""
    g = FirstClassGame.new({}, 4, seed)
    ais = [RandomAI(seed * 4 + i) for i in range(4)]
    views: list[View] = []
    while not g.is_over():
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
        if not g.is_over():
            views.append(g.view(0))
    return views


def _fc_board(view: View, seat: int) -> bytes:
    return render_player_board(view, seat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    small = max(5, args.runs // 3)
    ok = True
    print(f"{'image (CPU ms, process_time)':<28} {'cold':>8} {'p50':>7} {'p95':>7} {'PNG KB':>8}   budget")
    for board, players in CASES:
        public, own, final = ttr_game(board, players, args.seed)
        # The last ``runs`` positions before the end, each drawn once, as a game posts them; the
        # position before those warms the caches (the "cold" figure).
        late, warm = public[-args.runs :], public[-args.runs - 1]
        label = f"{board} {players}p turns {late[0]['turn']}-{late[-1]['turn']}"
        ok &= row(f"{board} {players}p board", measure(render_board, late, warm), True)
        print(f"{'':<4}({label}, {len(late[-1].get('claims') or {})} claims, {len(late[-1].get('notes') or [])} notes)")
        row(f"{board} {players}p hand", measure(render_hand, own[-small:], own[-small - 1]), False)
        row(f"{board} {players}p summary", measure(render_summary, [final] * small, final), False)
    fc = firstclass_game(args.seed)
    row("First Class 4p table", measure(render_table, fc[-args.runs :], fc[-args.runs - 1]), False)
    row("First Class 4p player board", measure(partial(_fc_board, seat=0), fc[-small:], fc[-small - 1]), False)
    print("boards:", "all within budget" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
