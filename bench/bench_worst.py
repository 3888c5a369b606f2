"""Worst cases of the rules engine, searched for rather than assumed: longest trail, station choice
and legal_actions, each timed in the worst legal position a random search over each board finds.

Run from the repository root: ``python bench/bench_worst.py [--trials N] [--networks N] [--smoke]``.
Budgets (DESIGN.md): longest trail and station choice under 5 ms, legal_actions under 1 ms (with its
caches emptied first), each printed as a verdict line at the end. Times are CPU time of this process,
the worst of a few repeats of each candidate (the machine is shared). The engine is this checkout's
(its ``rules`` sources, put first on the path: pure Python unless compiled modules sit beside them),
named in the verdict lines. ``--smoke`` (3 trials, 20 networks a board) prints the same lines, its
verdicts marked as not a measurement.

Positions searched:
- longest trail: one seat's network grown at random along adjacent tracks until its trains run out
  (one track per double route), short tracks preferred, plus the "all the shortest tracks" network;
  3,000 a board by default (a few hundred miss the worst: the hard ones are about one in a
  hundred); the candidate whose trail takes longest is reported, then also dense synthetic graphs.
- station choice: five seats, the scored seat's three stations in the cities with most tracks, every
  other track held by opponents, and tickets it cannot all complete (so the search cannot stop early).
- legal_actions: searched over positions taken from random games at every stage (and the opening
  with all tracks open), the seat to play given a random large hand (up to every card of the
  deck), on Märklin its passengers placed where the claimed network is densest and many passenger
  cards, and each passenger's journey under way (set off, then after one route); each timed with
  the move-generation caches emptied first (a hand never met before), the slowest reported.
- dense synthetic graphs: longest trail next to edwisdom/ticket_to_ride's memoised search on the
  same graph when ``EDWISDOM_TTR`` names a checkout of it (see bench_engines.py).

Figures a docs table shows: per board the worst longest trail (ms, tracks) and legal_actions cold
and warm; Europe 5-player station choice and whole final scoring; the verdicts and the engine.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import add_smoke, run, smoke_note  # noqa: E402 - bench/harness.py

from rules.games import new_game  # noqa: E402
from rules.ttr.board import Board  # noqa: E402
from rules.ttr.game import TTRGame  # noqa: E402
from rules.ttr.scoring import best_station_choices, longest_trail, longest_trail_length  # noqa: E402

BOARDS = ("usa", "europe", "switzerland", "germany")
TRAIL_BUDGET_MS = 5.0
STATION_BUDGET_MS = 5.0
LEGAL_BUDGET_MS = 1.0


def cpu_ms(fn: Callable[[], Any], repeats: int = 3, calls: int = 1) -> float:
    """The fastest of ``repeats`` runs (the least disturbed by other work) of ``calls`` calls, in
    CPU milliseconds per call (several calls for what takes microseconds: the clock's grain)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1e3


def grown_network(board: Board, rng: random.Random) -> list[int]:
    """A legal network for one seat: grown from a random track along adjacent ones, short first."""
    budget = board.spec.trains
    tracks = list(board.tracks)
    own: list[int] = []
    taken: set[int] = set()
    frontier = {rng.choice(tracks).a}
    while True:
        candidates = [
            t
            for t in tracks
            if t.index not in taken
            and t.length <= budget
            and (t.a in frontier or t.b in frontier)
            and not any(s in taken for s in t.siblings)
        ]
        if not candidates:
            break
        weights = [1.0 / t.length**2 for t in candidates]
        t = rng.choices(candidates, weights)[0]
        own.append(t.index)
        taken.add(t.index)
        budget -= t.length
        frontier.update((t.a, t.b))
    return own


def shortest_network(board: Board) -> list[int]:
    budget, own = board.spec.trains, []
    for track in sorted(board.tracks, key=lambda t: t.length):
        if track.length <= budget and not any(s in own for s in track.siblings):
            own.append(track.index)
            budget -= track.length
    return own


def worst_trail(board: Board, networks: int, rng: random.Random) -> tuple[float, int]:
    """The slowest longest trail of ``networks`` grown networks (and the shortest-tracks one): each
    timed once, the slowest 20 again, best of 5 (a single time is easily inflated by other work)."""
    candidates = [shortest_network(board)] + [grown_network(board, rng) for _ in range(networks)]
    first = sorted(
        (
            (cpu_ms(lambda own=own: longest_trail(board, own), repeats=1), own)  # type: ignore[misc]
            for own in candidates
        ),
        key=lambda timed: -timed[0],
    )
    worst, size = 0.0, 0
    for _, own in first[:20]:
        ms = cpu_ms(lambda own=own: longest_trail(board, own), repeats=5)  # type: ignore[misc]
        if ms > worst:
            worst, size = ms, len(own)
    return worst, size


def worst_station_choice(trials: int, rng: random.Random) -> tuple[float, float]:
    """(station choice ms, whole final scoring ms) in the worst 5-player Europe position found."""
    g = new_game("ttr", {"board": "europe"}, 5, 0)
    board = g.board
    by_degree = sorted(board.city_names, key=lambda c: -len(board.tracks_at(c)))
    worst_choice = worst_final = 0.0
    for _ in range(trials):
        owner = [rng.randrange(5) for _ in board.tracks]
        for seat in range(5):
            stations = rng.sample(by_degree[:12], 3)
            for city in stations:
                for t in board.tracks_at(city):
                    if owner[t.index] == seat:
                        owner[t.index] = (seat + 1) % 5
        tickets = rng.sample(list(board.tickets), 12)
        own = [i for i, o in enumerate(owner) if o == 0]
        stations = rng.sample(by_degree[:8], 3)
        ms = cpu_ms(lambda: best_station_choices(board, own, tickets, stations, owner, 0))  # noqa: B023
        worst_choice = max(worst_choice, ms)
        game = TTRGame(board, g.config, 5, 0, g.state.copy())
        st = game.state
        st.owner = owner
        st.tickets = [rng.sample(list(board.tickets), 12) for _ in range(5)]
        taken = rng.sample(board.city_names, 15)
        st.station_at = {c: i // 3 for i, c in enumerate(taken)}
        st.stations_left = [0] * 5
        worst_final = max(worst_final, cpu_ms(game.final_scores, repeats=1))
    return worst_choice, worst_final


def empty_move_caches(board: Board) -> None:
    """Forget every cached move list of ``board``, as if no hand had been met yet: every cache
    filled per hand met, in this engine and in earlier ones (a ``--before`` style comparison runs
    this file against an older checkout). What the board builds once when it loads (every claim
    and station action it allows) is not a cache of hands and stays."""
    from rules.ttr import tables

    t = board.tables
    for name in ("claim_cache", "group_cache", "passenger_claim_cache", "station_actions"):
        cache = getattr(t, name, None)
        if cache is not None:
            cache.clear()
    for fn in (getattr(t, "shape_claims", None), tables.colour_payments, tables.wild_payments):
        if fn is not None:
            fn.cache_clear()


def legal_positions(board_id: str, trials: int, rng: random.Random) -> list[TTRGame]:
    """Positions to time legal_actions in: random games stopped at random points (the opening
    included), the seat to play given a large random hand and, on Märklin, passengers."""
    players = 3 if board_id == "switzerland" else 4
    out: list[TTRGame] = []
    for trial in range(trials):
        g = new_game("ttr", {"board": board_id}, players, trial)
        play = random.Random(trial)
        stop = rng.randrange(0, 400) if trial else 0
        while not g.is_over() and g.state.turn < stop:
            seat = g.seats_to_act()[0]
            g.apply(seat, play.choice(g.legal_actions(seat)))
        st, spec = g.state, g.board.spec
        st.phase, st.pending, st.current, st.tunnel = "play", None, 0, None
        st.final_turns_left = None
        st.hands[0] = [rng.randint(n // 2, n) if n else 0 for n in spec.deck]
        st.trains[0] = max(st.trains[0], rng.randint(6, spec.trains))
        if spec.passengers:
            claimed: dict[str, int] = {}
            for t in g.board.tracks:
                if st.owner[t.index] != -1:
                    for c in (t.a, t.b):
                        claimed[c] = claimed.get(c, 0) + 1
            busiest = [
                c for c in sorted(claimed, key=lambda c: -claimed[c]) if not g.board.cities[c].is_country
            ][: spec.passengers]
            st.passenger_at = {c: 0 for c in busiest}
            st.passengers_left[0] = spec.passengers - len(busiest)
        out.append(g)
    return out


def journey_positions(g: TTRGame) -> list[TTRGame]:
    """Märklin: each passenger of seat 0 that can set off, just set off and after its first route."""
    from rules.ttr import actions as A

    out: list[TTRGame] = []
    for action in g.legal_actions(0):
        if isinstance(action, A.StartJourney):
            c = g.copy()
            c.apply(0, action)
            out.append(c)
            steps = [a for a in c.legal_actions(0) if isinstance(a, A.TravelRoute)]
            if steps:
                d = c.copy()
                d.apply(0, steps[0])
                out.append(d)
    return out


def forget_claim_memo(game: TTRGame) -> None:
    """Forget the game's own memo of each seat's claims per colour group (an engine that keeps one),
    so a cold call meets the hand as if for the first time."""
    open_tracks = getattr(game, "_open", None)
    if open_tracks is not None and hasattr(open_tracks, "claim_memo"):
        open_tracks.claim_memo = []


def worst_legal(board_id: str, trials: int, rng: random.Random) -> tuple[float, float, int]:
    """(worst ms with empty caches, worst ms with warm caches, most legal actions) over the positions
    (on Märklin also with a passenger's journey under way)."""
    cold = warm = 0.0
    most = 0
    positions = legal_positions(board_id, trials, rng)
    if hasattr(positions[0].state, "journey"):  # an engine that plays journeys route by route
        positions += [j for g in positions for j in journey_positions(g)]
    for g in positions:
        board = g.board

        def first_call(g: TTRGame = g, board: Board = board) -> None:
            empty_move_caches(board)
            forget_claim_memo(g)
            g.legal_actions(0)

        cold = max(cold, cpu_ms(first_call, repeats=2))
        warm = max(warm, cpu_ms(lambda g=g: g.legal_actions(0), repeats=2))  # type: ignore[misc]
        most = max(most, len(g.legal_actions(0)))
    return cold, warm, most


def dense_graph(n_cities: int, n_edges: int, rng: random.Random) -> tuple[Any, list[int]]:
    from types import SimpleNamespace

    from rules.ttr.board import City, Track

    names = [f"C{i}" for i in range(n_cities)]
    tracks = []
    for i in range(n_edges):
        a, b = rng.sample(names, 2)
        tracks.append(Track(i, f"T{i}", f"T{i}", a, b, rng.randint(1, 6), 0, False, 0, (), ()))
    board = SimpleNamespace(tracks=tracks, cities={n: City(n, 0.0, 0.0, False) for n in names})
    return board, list(range(n_edges))


def euler_graph(n_cities: int, n_edges: int, rng: random.Random) -> tuple[Any, list[int]]:
    """A dense graph with at most two odd-degree cities, connected: a trail uses every track."""
    while True:
        board, own = dense_graph(n_cities, n_edges, rng)
        degree: dict[str, int] = {}
        for t in board.tracks:
            degree[t.a] = degree.get(t.a, 0) + 1
            degree[t.b] = degree.get(t.b, 0) + 1
        if sum(d % 2 for d in degree.values()) <= 2 and longest_trail_length(board, own) == sum(
            t.length for t in board.tracks
        ):
            return board, own


def edwisdom_trail(board: Any) -> Callable[[], int] | None:
    """edwisdom/ticket_to_ride's longest trail on the same graph, if a checkout is given: its public
    ``longest_trail(board, seg_owner, player)``, which like ours starts from the tracks a seat owns
    (its board given as the segment arrays it reads, every segment the seat's)."""
    peer = os.environ.get("EDWISDOM_TTR")
    if not peer:
        return None
    sys.path[:0] = [p for p in peer.split(os.pathsep) if p if p not in sys.path]
    from types import SimpleNamespace

    from ticket_to_ride.engine import graph

    names = {name: n for n, name in enumerate(board.cities)}
    segments = SimpleNamespace(
        seg_a=[names[t.a] for t in board.tracks],
        seg_b=[names[t.b] for t in board.tracks],
        seg_len=[t.length for t in board.tracks],
    )
    owner = bytearray([1] * len(board.tracks))
    return lambda: int(graph.longest_trail(segments, owner, 1))


def engine_words() -> str:
    """Which build of the engine this process measures: compiled modules, or pure Python."""
    import importlib.machinery

    import rules.ttr.scoring as scoring

    compiled = (scoring.__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    return f"{'compiled' if compiled else 'pure Python'} engine ({Path(scoring.__file__ or '').parent})"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=150)
    parser.add_argument(
        "--networks",
        type=int,
        default=3000,
        help="networks grown per board for the longest trail's worst case",
    )
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.trials, args.networks = 3, 20
    rng = random.Random(2026)
    trails: dict[str, float] = {}
    legal: dict[str, float] = {}
    print(
        f"{'board':<12} {'trail worst ms':>15} {'tracks':>7} {'legal_actions worst ms':>23} "
        f"{'(warm caches)':>14} {'most actions':>13}"
    )
    for board_id in BOARDS:
        board = new_game("ttr", {"board": board_id}, 3 if board_id == "switzerland" else 4, 0).board
        trail_ms, size = worst_trail(board, args.networks, rng)
        cold, warm, most = worst_legal(
            board_id, args.trials if args.smoke else max(10, args.trials // 3), rng
        )
        trails[board_id], legal[board_id] = trail_ms, cold
        print(f"{board_id:<12} {trail_ms:>15.2f} {size:>7} {cold:>23.3f} {warm:>14.3f} {most:>13}")
    choice_ms, final_ms = worst_station_choice(args.trials if args.smoke else max(10, args.trials // 5), rng)
    print(
        f"europe 5p station choice (3 stations, 12 tickets) worst ms: {choice_ms:.2f}; "
        f"whole final scoring with 15 stations worst ms: {final_ms:.2f} (computed once per finished game)"
    )
    # Graphs with a search, then all-Euler ones (0 or 2 odd cities: no search at all, the answer is
    # every track). The length is what both engines score with; ours also lays out the trail that
    # the final board highlights, timed apart.
    # Their own random numbers: the same graphs whatever was searched before them.
    synthetic = random.Random(2026)
    graphs = [
        (dense_graph(cities, edges, synthetic), cities, edges)
        for cities, edges in ((8, 16), (8, 18), (8, 20), (10, 24), (12, 28))
    ]
    graphs += [
        (euler_graph(cities, edges, synthetic), cities, edges)
        for cities, edges in ((8, 20), (10, 24), (12, 28))
    ]
    for (board, own), cities, edges in graphs:
        length = cpu_ms(lambda b=board, o=own: longest_trail_length(b, o), repeats=5, calls=200)  # type: ignore[misc]
        trail = cpu_ms(lambda b=board, o=own: longest_trail(b, o), repeats=5, calls=200)  # type: ignore[misc]
        kind = (
            "all-Euler"
            if longest_trail_length(board, own) == sum(t.length for t in board.tracks)
            else "dense"
        )
        line = (
            f"{kind} synthetic graph {cities} cities {edges} tracks: longest trail length {length:.3f} ms "
            f"(with the trail laid out {trail:.3f} ms)"
        )
        peer = edwisdom_trail(board)
        if peer is not None:
            theirs = cpu_ms(peer, repeats=5, calls=200) if kind == "all-Euler" else cpu_ms(peer, repeats=1)
            line += f"; edwisdom {theirs:.3f} ms ({theirs / max(length, 1e-3):.1f}x our length)"
        print(line)
    note, engine = smoke_note(args.smoke), engine_words()

    def judged(figures: dict[str, float], budget: float) -> str:
        over = [f"{b} {ms:.2f} ms" for b, ms in figures.items() if ms >= budget]
        return f"OVER on {', '.join(over)}" if over else "within on every board"

    print(
        f"budget: longest trail < {TRAIL_BUDGET_MS:.0f} ms: {judged(trails, TRAIL_BUDGET_MS)} (worst "
        f"{max(trails.values()):.2f} ms; {engine}){note}"
    )
    print(
        f"budget: legal_actions < {LEGAL_BUDGET_MS:.0f} ms, caches emptied: {judged(legal, LEGAL_BUDGET_MS)} (worst "
        f"{max(legal.values()):.3f} ms; {engine}){note}"
    )
    print(
        f"budget: station choice < {STATION_BUDGET_MS:.0f} ms: "
        f"{'within' if choice_ms < STATION_BUDGET_MS else 'OVER'} ({choice_ms:.2f} ms; {engine}){note}"
    )
    return 0


if __name__ == "__main__":
    run(main)
