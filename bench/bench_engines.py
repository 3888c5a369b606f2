"""Conductor's rules engine against the best public pure-Python engine, side by side in one process.

Run from the repository root: ``python bench/bench_engines.py [--games N] [--rounds R]``.

Every figure is whole uniformly random games: at every decision the engine enumerates all legal
moves and one is picked uniformly at random; each game is played to its end and scored (final
scores, longest trail and tickets included). Figures are CPU time of this process (the machine is
shared, so wall time would measure the neighbours), the median of ``--rounds`` rounds, the engines
interleaved round by round so both see the same machine.

The peer, edwisdom/ticket_to_ride (USA, pure-Python reference engine; its Rust core is not used)
is measured only when the environment variable ``EDWISDOM_TTR`` names a checkout of it::

    git clone https://github.com/edwisdom/ticket_to_ride /tmp/edwisdom
    pip install --target /tmp/edwisdom-deps msgspec     # its only dependency (RuleConfig)
    EDWISDOM_TTR=/tmp/edwisdom:/tmp/edwisdom-deps python bench/bench_engines.py

(``EDWISDOM_TTR`` is a path list, separated by ``os.pathsep``, put in front of ``sys.path``.) It is
driven the way its own ``ttr bench`` drives it: ``State.sample_legal`` (enumerates every legal
action, then picks one uniformly with its seeded PCG stream), ``State.step``, and
``scoring.final_scores`` at the end. Nothing of its code is part of this repository.

``--root PATH`` imports Conductor from another checkout (for example the previous commit in a
``git worktree``), so a before/after comparison can be run in one sitting.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

BOARDS = (("usa", 4), ("europe", 4), ("switzerland", 3), ("germany", 4))
RATIO_BUDGET = 2.0


class Run(NamedTuple):
    games: int
    decisions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def us_per_decision(self) -> float:
        return self.seconds / self.decisions * 1e6


def conductor_games(board: str, players: int, seeds: range) -> Run:
    """Uniformly random Conductor games on ``board``, scored at the end."""
    from rules.games import new_game

    decisions = 0
    start = time.process_time()
    for seed in seeds:
        game = new_game("ttr", {"board": board}, players, seed)
        rng = random.Random(seed)
        while not game.is_over():
            seat = game.seats_to_act()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            decisions += 1
        game.final_scores()
    return Run(len(seeds), decisions, time.process_time() - start)


def edwisdom_games(players: int, seeds: range) -> Run:
    """Uniformly random edwisdom/ticket_to_ride USA games, scored at the end."""
    from ticket_to_ride.engine import Game, RuleConfig, final_scores
    from ticket_to_ride.engine.rng import stream

    game = Game(RuleConfig(map_name="usa", n_players=players, track_history=False))
    decisions = 0
    start = time.process_time()
    for seed in seeds:
        state = game.new_initial_state(seed)
        rng = stream(seed, "bench")
        while not state.is_terminal():
            state.step(state.sample_legal(rng))
            decisions += 1
        final_scores(state)
    return Run(len(seeds), decisions, time.process_time() - start)


def median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.us_per_decision)[len(runs) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="games per engine, board and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is shown")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="Conductor checkout to import (default: this one)")
    parser.add_argument("--boards", default=",".join(b for b, _ in BOARDS), help="comma-separated board ids")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    peer_path = os.environ.get("EDWISDOM_TTR")
    if peer_path:
        sys.path[:0] = [p for p in peer_path.split(os.pathsep) if p]
    wanted = args.boards.split(",")
    seeds = range(args.games)
    # Warm the board caches and imports outside the timed runs.
    conductor_games("usa", 4, range(2))
    jobs: list[tuple[str, Callable[[], Run]]] = []
    for board, players in BOARDS:
        if board in wanted:
            jobs.append((f"conductor {board} {players}p",
                         lambda b=board, p=players: conductor_games(b, p, seeds)))  # type: ignore[misc]
    if peer_path:
        edwisdom_games(4, range(2))
        jobs.insert(1, ("edwisdom usa 4p", lambda: edwisdom_games(4, seeds)))
    results: dict[str, list[Run]] = {name: [] for name, _ in jobs}
    for _ in range(args.rounds):
        for name, job in jobs:
            results[name].append(job())
    print(f"conductor from {args.root.resolve()}; median of {args.rounds} rounds of {args.games} games, CPU time")
    print(f"{'engine board players':<28} {'games/s':>9} {'us/decision':>12} {'decisions/game':>15}")
    medians: dict[str, Any] = {}
    for name, runs in results.items():
        med = medians[name] = median_run(runs)
        print(f"{name:<28} {med.games_per_second:>9.1f} {med.us_per_decision:>12.2f} "
              f"{med.decisions / med.games:>15.1f}")
    if peer_path and "conductor usa 4p" in medians:
        ours, peer = medians["conductor usa 4p"], medians["edwisdom usa 4p"]
        ratio = ours.games_per_second / peer.games_per_second
        verdict = "within" if ratio >= RATIO_BUDGET else "OVER"
        print(f"USA 4p games/s ratio conductor/edwisdom: {ratio:.2f}x "
              f"(us/decision ratio {peer.us_per_decision / ours.us_per_decision:.2f}x); "
              f"budget >= {RATIO_BUDGET:.1f}x -> {verdict} budget")
    elif not peer_path:
        print("edwisdom not measured: set EDWISDOM_TTR to a checkout of edwisdom/ticket_to_ride (see --help)")


if __name__ == "__main__":
    main()
