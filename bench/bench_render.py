"""Render benchmark: CPU time (p50/p95) and PNG size per image, late game, against the budget.

Budget (DESIGN.md, issue 15): a late 5-player board (any map) at most 15 ms of CPU at p50 and under
1.5 MB. The design names no separate budget for the other images, so the same figures are printed
beside them for comparison (marked "ref").

Each board is measured after ``prewarm`` (as the bot calls it at start), three ways in the same run, on the same positions and pictures:

- ``board``: ``render_board`` as a process serving the game runs it, its caches holding the
  game's previous positions (the composed map and the compressed rows of recent boards: only what
  changed is redrawn, mapped to the palette and compressed);
- ``board cold``: the same with those caches emptied before every call (a process that never saw
  the game: everything drawn, mapped and compressed; static layers, stamps and palette stay built,
  as ``prewarm`` leaves them);
- ``board old pipeline``: the encoder as it was before the caches (the whole picture drawn, mapped
  to the palette and saved by Pillow at zlib level 1 with the run-length strategy).

Image bytes per board (mean and largest) are printed beside each; the Europe 3-player line adds
the bytes of a whole game with one board per turn (issue 10).

CPU time is ``time.process_time`` around each call: on a shared machine it is steadier than wall
time (another process's load does not count), and it is what the process pool will pay per image.
Boards and hands are the last ``--runs`` positions of a heuristic-AI game, each drawn once, as a
game posts them (so per-process caches are measured in the state real play leaves them, never on
one view drawn over and over); the summary is drawn repeatedly from the one final view. The
static layer is built once per (board, size) and cached, so the first call of each kind, on the
position before those measured, is reported separately ("cold") and excluded from the
percentiles.

    python bench/bench_render.py [--runs 30] [--seed 7] [--board usa ...] [--smoke]

It exits 1 when a budgeted board is over budget. ``--smoke`` (3 positions, the USA 5-player board
only, the Europe whole game cut to its first 20 boards) prints the same lines, its verdicts marked
as not a measurement, and exits 0 whatever they say (it fails only if the bench itself fails).

Figures a docs table shows: per board p50/p95 CPU ms and KB (cached, cold, old pipeline), with
the verdict; hand and summary p50; the Europe 3-player whole game's KB; First Class p50s.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import add_smoke, run, smoke_note  # noqa: E402 - bench/harness.py

from render.firstclass import render_player_board, render_table  # noqa: E402
from render.ttr import (  # noqa: E402
    clear_board_caches,
    default_map_width,
    image_palette,
    prewarm,
    render_board,
    render_hand,
    render_summary,
    snapshot_image,
)
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


Figures = tuple[float, float, float, float, int]


def measure(fn: Callable[[Any], bytes], views: list[Any], warm: Any) -> Figures:
    """(first call CPU ms, p50 CPU ms, p95 CPU ms, mean PNG bytes, largest PNG bytes): ``fn`` once
    on ``warm`` (its caches cold), then once on each of ``views``."""
    t0 = time.process_time()
    fn(warm)
    cold = (time.process_time() - t0) * 1000
    times: list[float] = []
    sizes: list[int] = []
    for view in views:
        t0 = time.process_time()
        data = fn(view)
        times.append((time.process_time() - t0) * 1000)
        sizes.append(len(data))
    return cold, statistics.median(times), pct(times, 0.95), statistics.mean(sizes), max(sizes)


def row(label: str, figures: Figures, budgeted: bool, note: str = "") -> bool:
    cold, p50, p95, mean_size, size = figures
    ok = p50 <= BUDGET_CPU_MS and size < BUDGET_BYTES
    tag = ("OK" if ok else "OVER") if budgeted else ("within" if ok else "above") + " (ref)"
    print(
        f"{label:<30} {cold:>7.0f} {p50:>7.1f} {p95:>7.1f} {mean_size / 1024:>7.0f} {size / 1024:>7.0f}"
        f"   <= {BUDGET_CPU_MS:.0f} ms, < {BUDGET_BYTES / 1e6:.1f} MB: {tag}{note}"
    )
    return ok or not budgeted


def board_cold(view: View) -> bytes:
    """``render_board`` in a process that has not drawn this game's previous positions."""
    clear_board_caches()
    return render_board(view)


def board_old_pipeline(view: View) -> bytes:
    """The same picture through the encoder used before the caches: the whole snapshot drawn,
    mapped to the board's palette and saved by Pillow (zlib level 1, run-length strategy)."""
    board = str(view["board"])
    mw = default_map_width(board)
    pal = image_palette("board", board, mw).apply(snapshot_image(view, None, mw))
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=False, compress_level=1, compress_type=zlib.Z_RLE)
    return buf.getvalue()


def game_bytes(board: str, players: int, seed: int, limit: int | None = None) -> tuple[int, int]:
    """(boards, total PNG bytes) of a whole game posting one board per turn (the position at the
    end of each turn), rendered in order as the bot would; only the first ``limit`` boards if given."""
    public, _, final = ttr_game(board, players, seed)
    ends = [v for v, nxt in zip(public, public[1:], strict=False) if nxt["turn"] != v["turn"]] + [final]
    ends = ends[:limit]
    clear_board_caches()
    return len(ends), sum(len(render_board(v)) for v in ends)


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
    parser.add_argument("--board", action="append", help="only these boards (repeatable); default every case")
    add_smoke(parser)
    args = parser.parse_args()
    limit = None
    if args.smoke:
        args.runs, args.board, limit = 3, args.board or ["usa"], 20
    note = smoke_note(args.smoke)
    small = args.runs if args.smoke else max(5, args.runs // 3)
    ok = True
    print(
        f"{'image (CPU ms, process_time)':<30} {'first':>7} {'p50':>7} {'p95':>7} {'KB avg':>7} {'KB max':>7}   budget"
    )
    for board, players in CASES:
        if args.board and board not in args.board:
            continue
        public, own, final = ttr_game(board, players, args.seed)
        # The last ``runs`` positions before the end, each drawn once, as a game posts them; the
        # position before those warms the caches (the "cold" figure).
        late, warm = public[-args.runs :], public[-args.runs - 1]
        label = f"{board} {players}p turns {late[0]['turn']}-{late[-1]['turn']}"
        t0 = time.process_time()
        prewarm([board])  # as the bot does at start
        warmed = (time.process_time() - t0) * 1000
        clear_board_caches()
        ok &= row(f"{board} {players}p board", measure(render_board, late, warm), True, note)
        print(
            f"{'':<4}({label}, {len(late[-1].get('claims') or {})} claims, {len(late[-1].get('notes') or [])} notes; prewarm {warmed:.0f} ms)"
        )
        # The same positions, for a fair comparison.
        row(f"{board} {players}p board cold", measure(board_cold, late, warm), False)
        row(f"{board} {players}p board old pipeline", measure(board_old_pipeline, late, warm), False)
        row(f"{board} {players}p hand", measure(render_hand, own[-small:], own[-small - 1]), False)
        row(f"{board} {players}p summary", measure(render_summary, [final] * small, final), False)
    boards, total = game_bytes("europe", 3, args.seed, limit)
    whole = "whole game" if limit is None else f"first {boards} boards of the game"
    print(
        f"europe 3p {whole}: {boards} boards (one per turn), {total / 1024:.0f} KB in all, {total / boards / 1024:.0f} KB per board"
    )
    fc = firstclass_game(args.seed)
    row("First Class 4p table", measure(render_table, fc[-args.runs :], fc[-args.runs - 1]), False)
    row(
        "First Class 4p player board", measure(partial(_fc_board, seat=0), fc[-small:], fc[-small - 1]), False
    )
    print("boards:", ("all within budget" if ok else "OVER BUDGET") + note)
    return 0 if ok or args.smoke else 1


if __name__ == "__main__":
    run(main)
