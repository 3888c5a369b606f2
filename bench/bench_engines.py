"""Conductor's rules engine (pure Python and, when built, compiled) against the best public
pure-Python engine, side by side in one sitting.

Run from the repository root: ``python bench/bench_engines.py [--games N] [--rounds R] [--smoke]``.
``--smoke`` (one round of 2 games, USA only) prints the same lines, the budget's marked as not a
measurement. The budget (DESIGN.md): USA 4-player games/s at least 2× edwisdom's, printed as a
verdict line when the peer is measured and as "not measured" when it is not.

Every figure is whole uniformly random games: at every decision the engine enumerates all legal
moves and one is picked uniformly at random; each game is played to its end and scored (final
scores, longest trail and tickets included). Figures are CPU time of the process that plays (the
machine is shared, so wall time would measure the neighbours), the median of ``--rounds`` rounds.

Each engine plays in its own worker process (a pure and a compiled build of one package cannot
share a process: they have the same module names); the workers take turns, one round at a time,
so all of them see the same machine. The engines:

- ``pure``: Conductor from ``--root`` (default: this checkout), its modules always loaded from
  the ``.py`` sources even where a compiled build sits next to them (the reference engine).
- ``compiled``: the mypyc build that ``pip install .`` makes by default (see setup.py): the
  installed ``conductor`` package when that one is compiled; ``--compiled DIR`` names another
  directory holding a compiled ``rules`` package (``pip install --no-deps --target DIR .``).
  Left out, with a note, when none exists. The table's header names the modules each build ran
  compiled.
- ``pure-was`` and ``comp-was``: with ``--before DIR``, an earlier Conductor checkout (its pure
  engine; with ``--before-compiled DIR2`` too, a compiled build of it, for example
  ``pip install --no-deps --target DIR2 DIR``), so a change is measured before -> after in one
  sitting.
- ``edwisdom``: edwisdom/ticket_to_ride (USA, its pure-Python reference engine; its Rust core is
  not used), only when the environment variable ``EDWISDOM_TTR`` names a checkout of it::

      git clone https://github.com/edwisdom/ticket_to_ride /tmp/edwisdom
      pip install --target /tmp/edwisdom-deps msgspec     # its only dependency (RuleConfig)
      EDWISDOM_TTR=/tmp/edwisdom:/tmp/edwisdom-deps python bench/bench_engines.py

  (``EDWISDOM_TTR`` is a path list, separated by ``os.pathsep``, put in front of ``sys.path``.)
  It is driven the way its own ``ttr bench`` drives it: ``State.sample_legal`` (enumerates every
  legal action, then picks one uniformly with its seeded PCG stream), ``State.step``, and
  ``scoring.final_scores`` at the end. Nothing of its code is part of this repository.

Figures a docs table shows: per board and engine games/s, µs/decision and × pure; the USA 4-player
ratio to edwisdom with its verdict; which modules ran compiled.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from harness import add_smoke, run, smoke_note  # bench/harness.py (a script's folder is on its path)

BOARDS = (("usa", 4), ("europe", 4), ("switzerland", 3), ("germany", 4))
RATIO_BUDGET = 2.0
HERE = Path(__file__).resolve()


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


# ---------------------------------------------------------------------------------- workers


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


def edwisdom_games(board: str, players: int, seeds: range) -> Run:
    """Uniformly random edwisdom/ticket_to_ride USA games, scored at the end."""
    from ticket_to_ride.engine import Game, RuleConfig, final_scores
    from ticket_to_ride.engine.rng import stream

    game = Game(RuleConfig(map_name=board, n_players=players, track_history=False))
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


def worker(kind: str, path: str) -> None:
    """Play the games asked for on stdin (``board players games`` per line), one JSON answer per line."""
    if kind == "edwisdom":
        sys.path[:0] = [p for p in path.split(os.pathsep) if p]
        play = edwisdom_games
    else:
        sys.path.insert(0, path)
        if kind == "pure":
            from rules.pure_sources import SourceFirst

            sys.meta_path.insert(0, SourceFirst())
        play = conductor_games
    if kind != "edwisdom":
        import rules.ttr.game as engine

        compiled = not (engine.__file__ or "").endswith(".py")
        if compiled != (kind == "compiled"):
            raise SystemExit(f"worker {kind}: rules.ttr.game came from {engine.__file__}")
    play("usa", 4, range(2))  # imports and board caches, outside the timed runs
    print(json.dumps({"ready": True, "compiled": compiled_modules()}), flush=True)
    for line in sys.stdin:
        board, players, games = line.split()
        run = play(board, int(players), range(int(games)))
        print(json.dumps(run._asdict()), flush=True)


def compiled_modules() -> list[str]:
    """The ``rules`` modules this process imported from extension modules rather than sources."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.split(".")[0] == "rules" and (getattr(module, "__file__", None) or "").endswith(suffixes)
    )


class Worker:
    def __init__(self, kind: str, path: str, cwd: str | None = None) -> None:
        self.kind = kind
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE), "--worker", kind, "--path", path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError(f"the {kind} worker did not start (see its error above)")
        self.compiled: list[str] = json.loads(first).get("compiled", [])

    def play(self, board: str, players: int, games: int) -> Run:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{board} {players} {games}\n")
        self.proc.stdin.flush()
        return Run(**json.loads(self.proc.stdout.readline()))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


# ---------------------------------------------------------------------------------- finding builds
def installed_compiled_build() -> str | None:
    """The site directory of an installed, compiled ``conductor``, if there is one."""
    probe = (
        "import sys, rules.ttr.game as g, pathlib; f = g.__file__ or '';"
        "print(pathlib.Path(f).parents[2] if not f.endswith('.py') else '')"
    )
    with tempfile.TemporaryDirectory() as cwd:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True)
    found = done.stdout.strip()
    return found or None


def median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.us_per_decision)[len(runs) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=60, help="games per engine, board and round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is shown")
    parser.add_argument(
        "--root", type=Path, default=HERE.parents[1], help="Conductor checkout to import (default: this one)"
    )
    parser.add_argument(
        "--compiled",
        type=Path,
        default=None,
        help="directory holding a compiled rules package (default: found, see above)",
    )
    parser.add_argument("--boards", default=",".join(b for b, _ in BOARDS), help="comma-separated board ids")
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        help="an earlier Conductor checkout measured in the same run (its pure engine): "
        "before -> after in one sitting",
    )
    parser.add_argument(
        "--before-compiled",
        type=Path,
        default=None,
        help="a directory holding a compiled build of the --before checkout",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.path)
        return 0
    if args.smoke:
        args.games, args.rounds, args.boards = 2, 1, "usa"
    note = smoke_note(args.smoke)
    root = args.root.resolve()
    wanted = [(b, p) for b, p in BOARDS if b in args.boards.split(",")]
    workers = {"pure": Worker("pure", str(root))}
    compiled_at: str | None = str(args.compiled.resolve()) if args.compiled else None
    if compiled_at is None:
        compiled_at = installed_compiled_build()
    if compiled_at:
        workers["compiled"] = Worker("compiled", compiled_at, cwd=tempfile.gettempdir())
    before = args.before.resolve() if args.before else None
    if before:
        workers["pure-was"] = Worker("pure", str(before))
    if args.before_compiled:
        workers["comp-was"] = Worker(
            "compiled", str(args.before_compiled.resolve()), cwd=tempfile.gettempdir()
        )
    peer_path = os.environ.get("EDWISDOM_TTR")
    if peer_path:
        workers["edwisdom"] = Worker("edwisdom", peer_path)
    jobs = [
        (kind, board, players)
        for board, players in wanted
        for kind in workers
        if kind != "edwisdom" or (board, players) == ("usa", 4)
    ]
    results: dict[tuple[str, str, int], list[Run]] = {job: [] for job in jobs}
    for _ in range(args.rounds):
        for kind, board, players in jobs:
            results[kind, board, players].append(workers[kind].play(board, players, args.games))
    for w in workers.values():
        w.close()
    med = {job: median_run(runs) for job, runs in results.items()}

    print(
        f"conductor from {root}"
        + (f"; compiled build from {compiled_at}" if compiled_at else "")
        + f"; median of {args.rounds} rounds of {args.games} games, CPU time"
    )
    for kind, w in workers.items():
        if kind != "edwisdom":
            print(
                f"{kind}: " + (f"compiled modules {', '.join(w.compiled)}" if w.compiled else "pure Python")
            )
    print(
        f"{'board':<12} {'players':>7} {'engine':<9} {'games/s':>9} {'us/decision':>12} {'decisions/game':>15}"
        f" {'x pure':>7}"
    )
    for board, players in wanted:
        pure = med["pure", board, players]
        for kind in workers:
            run = med.get((kind, board, players))
            if run is None:
                continue
            print(
                f"{board:<12} {players:>7} {kind:<9} {run.games_per_second:>9.1f} {run.us_per_decision:>12.2f} "
                f"{run.decisions / run.games:>15.1f} {run.games_per_second / pure.games_per_second:>7.2f}"
            )
    if not compiled_at:
        print(
            "no compiled build found: `pip install .` builds one (unless CONDUCTOR_COMPILE=0; "
            "`pip install -v .` says why it fell back to pure Python), or pass --compiled DIR"
        )
    if peer_path and ("edwisdom", "usa", 4) in med:
        peer = med["edwisdom", "usa", 4]
        for kind in workers:
            if kind == "edwisdom" or (kind, "usa", 4) not in med:
                continue
            ours = med[kind, "usa", 4]
            ratio = ours.games_per_second / peer.games_per_second
            verdict = "within" if ratio >= RATIO_BUDGET else "OVER"
            print(
                f"USA 4p games/s ratio conductor {kind:<8}/edwisdom: {ratio:.2f}x "
                f"(us/decision ratio {peer.us_per_decision / ours.us_per_decision:.2f}x); "
                f"budget >= {RATIO_BUDGET:.1f}x -> {verdict} budget{note}"
            )
    elif not peer_path:
        print(
            f"budget: USA 4p conductor >= {RATIO_BUDGET:.1f}x edwisdom's games/s -> not measured: set EDWISDOM_TTR"
            f" to a checkout of edwisdom/ticket_to_ride (see --help){note}"
        )
    return 0


if __name__ == "__main__":
    run(main)
