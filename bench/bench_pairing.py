"""Swiss pairing benchmark: a large field paired round after round with its full history.

Run: ``python bench/bench_pairing.py [--players 256] [--rounds 8] [--boards usa,europe]
[--big 512] [--cut 64] [--smoke]`` (``--smoke``: 32 players, 3 rounds and a big field of 64 with
a cut of 16, the same lines, its verdict marked as not a measurement). After the rounds, a field
of ``--big`` players (the largest event Conductor accepts) plays 5 Swiss rounds and then a top
cut of ``--cut`` players at tables of 4 (each table's winner going on, down to the final table),
and the CPU time of each pairing is printed: an event's largest rounds, against the same
budget. Each
round is paired from the results of the earlier ones (simulated: a hidden skill per player plus
luck decides each table's ranking, so the leaders keep meeting in the top tables, which is where
repeats are hardest to avoid). Prints per round the CPU time of ``pair_round`` against the budget
(under 1 s per round), the repeat meetings, players who could not get a least-used seat number
and board repeats beyond a player's least-played board.

Figures a docs table shows: worst and mean CPU seconds per round against the 1 s budget; repeat
meetings; seat shortfall.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness import add_smoke, run, smoke_note  # bench/harness.py (a script's folder is on its path)

from bot.tournament.model import EventConfig, Format, GameResult, Registration, SeatResult
from bot.tournament.pairing import History, repeat_count, seat_shortfall
from bot.tournament.pairing import pair_round as pair

BUDGET_SECONDS = 1.0


def simulate(
    seats: tuple[str, ...], skill: dict[str, float], rng: random.Random
) -> list[tuple[str, int, int]]:
    """(player, rank, score) for one table: skill plus luck, ranks 1..n without ties."""
    drawn = sorted(seats, key=lambda p: -(skill[p] + rng.gauss(0, 15)))
    return [(p, drawn.index(p) + 1, 150 - 20 * drawn.index(p) + rng.randint(0, 9)) for p in seats]


def board_excess(tables: list[tuple[str, tuple[str, ...]]], history: History, boards: tuple[str, ...]) -> int:
    return sum(
        history.boards[p][board] - min(history.boards[p][b] for b in boards)
        for board, seats in tables
        for p in seats
    )


def play_rounds(
    config: EventConfig,
    registration: Registration,
    results: list[GameResult],
    rounds: int,
    seed: int,
    skill: dict[str, float],
    rng: random.Random,
    boards: tuple[str, ...],
) -> list[float]:
    """Pair ``rounds`` rounds, each from the simulated results of the earlier ones (appended to
    ``results``), printing one line per round; returns each pairing's CPU seconds."""
    times = []
    for number in range(1, rounds + 1):
        stage = config.stage_of(number).value
        history = History.from_results(results)
        start = time.process_time()
        paired = pair(config, registration, results, number, seed=seed)
        elapsed = time.process_time() - start
        times.append(elapsed)
        seats = [t.seats for t in paired.tables]
        print(
            f"{number:5}  {stage:>5}  {len(seats):6}  {elapsed:5.3f}  {repeat_count(seats, history):7}  "
            f"{seat_shortfall(seats, history):14}  "
            f"{board_excess([(t.board, t.seats) for t in paired.tables], history, boards):13}"
        )
        for table in paired.tables:
            results.append(
                GameResult(
                    game_id=f"r{number}t{table.number}",
                    round=number,
                    table=table.number,
                    board=table.board,
                    stage=table.stage,
                    seats=tuple(
                        SeatResult(p, rank, score) for p, rank, score in simulate(table.seats, skill, rng)
                    ),
                )
            )
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--boards", default="usa,europe")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--big", type=int, default=512, help="players in the big field (0: skip it)")
    parser.add_argument("--cut", type=int, default=64, help="the big field's top cut (a power of 4)")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.players, args.rounds, args.big, args.cut = 32, 3, 64, 16
    boards = tuple(args.boards.split(","))
    config = EventConfig(
        family="ttr", name="Bench", rounds=args.rounds, table_size=args.table_size, boards=boards
    )
    players = tuple(f"discord:{100000 + i}" for i in range(args.players))
    registration = Registration(players)
    rng = random.Random(args.seed)
    skill = {p: rng.gauss(50, 20) for p in players}
    results: list[GameResult] = []
    times = []
    print(
        f"{args.players} players, tables of {args.table_size}, boards {', '.join(boards)}; "
        f"budget {BUDGET_SECONDS:.1f} s per round"
    )
    print("round  stage  tables  cpu s  repeats  seat shortfall  board repeats")
    times += play_rounds(config, registration, results, args.rounds, args.seed, skill, rng, boards)
    if args.big:
        big_config = EventConfig(
            family="ttr",
            name="Big",
            rounds=5,
            table_size=args.table_size,
            boards=boards,
            format=Format.SWISS_CUT,
            final_size=4,
            cut_size=args.cut,
        )
        big_players = tuple(f"discord:{200000 + i}" for i in range(args.big))
        big_skill = {p: rng.gauss(50, 20) for p in big_players}
        print(
            f"\n{args.big} players (the largest field), tables of {args.table_size}, 5 Swiss rounds, "
            f"then a top cut of {args.cut} at tables of 4"
        )
        print("round  stage  tables  cpu s  repeats  seat shortfall  board repeats")
        rounds = big_config.total_rounds
        big = play_rounds(
            big_config, Registration(big_players), [], rounds, args.seed, big_skill, rng, boards
        )
        print(
            f"{args.big} players: worst Swiss round {max(big[:5]):.3f} s, "
            f"worst cut round {max(big[5:]):.3f} s"
        )
        times += big
    worst = max(times)
    word = "within" if worst < BUDGET_SECONDS else "OVER"
    print(
        f"worst round {worst:.3f} s, mean {sum(times) / len(times):.3f} s: {word} the {BUDGET_SECONDS:.1f} s budget"
        f"{smoke_note(args.smoke)}"
    )
    return 0


if __name__ == "__main__":
    run(main)
