"""``conductor simulate``: AI against AI, many games, with a summary of the results."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from bot.commands.rules import add_setting_arguments, settings_config
from lang import N_, _, _n, text_of
from lang.numbers import decimal
from lang.refusals import refusal_of
from rules.ai import make_ai, play_out
from rules.errors import IllegalAction
from rules.games import DEFAULT_GAME, GAMES, find_game, new_game
from rules.search import PlannedSearchAI
from rules.ttr.board import available_boards

NAME = "simulate"
HELP = N_("Play many AI-vs-AI games and print score statistics (same seed, same output).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", default=DEFAULT_GAME, choices=tuple(GAMES), help=_("which game (default: ttr)")
    )
    parser.add_argument(
        "--map",
        default="usa",
        help=_("Ticket to Ride board: {boards} (also 'marklin')", boards=", ".join(available_boards())),
    )
    parser.add_argument("--variant", default=None, help=_("board variant, e.g. 'digital' for Switzerland"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help=_("first game's seed; game i uses seed+i"))
    parser.add_argument(
        "--ai",
        default="heuristic",
        help=_(
            "AI for every seat, or one per seat comma-separated (e.g. heuristic,random); the kinds each game offers: "
            "{kinds}",
            kinds="; ".join(f"{spec.name}: {', '.join(spec.ai_kinds)}" for spec in GAMES.values()),
        ),
    )
    parser.add_argument(
        "--think-ms",
        type=int,
        default=None,
        help=_(
            "CPU milliseconds a search AI thinks per move (default: the game's ai_think_ms, else "
            "1000); a search AI thinks against the clock, so its games vary from run to run"
        ),
    )
    parser.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    add_setting_arguments(parser)


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    counted = _n("{done}/{n} games", "{done}/{n} games", total, done=done)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {counted}  {rate:.0f}/s")
    sys.stderr.flush()


def simulate(
    game_name: str,
    config: dict[str, Any],
    players: int,
    games: int,
    seed: int,
    kinds: list[str],
    progress: bool = False,
    think_ms: int | None = None,
) -> dict[str, Any]:
    """Run the games and return the statistics printed by the command (deterministic unless a
    search AI plays: it thinks ``think_ms`` CPU milliseconds a move, or the game's setting)."""
    totals: list[list[int]] = [[] for _ in range(players)]
    tickets: list[int] = []
    turns: list[int] = []
    wins = [0.0] * players
    started = time.perf_counter()
    counts_turns = False
    for i in range(games):
        game = new_game(game_name, config, players, seed + i)
        ais = [make_ai(game_name, kinds[s], (seed + i) * 10 + s) for s in range(players)]
        if think_ms is not None:
            for ai in ais:
                if isinstance(ai, PlannedSearchAI):
                    ai.budget_seconds = think_ms / 1000
        steps = play_out(game, ais)
        scores = game.final_scores()
        winners = [row["seat"] for row in scores if row["rank"] == 1]
        for row in scores:
            totals[row["seat"]].append(row["total"])
            completed = dict(row).get("tickets_completed")  # Ticket to Ride's own key
            if isinstance(completed, int):
                tickets.append(completed)
        for w in winners:
            wins[w] += 1 / len(winners)
        # A game that counts turns reports them; otherwise the count is of engine actions (a
        # First Class turn is many small actions), and the output says so.
        turn = getattr(game, "turn", None)
        counts_turns = isinstance(turn, int)
        turns.append(turn if isinstance(turn, int) else steps)
        if progress and ((i + 1) * 100 // games != i * 100 // games or i + 1 == games):
            _progress(i + 1, games, started)
    elapsed = time.perf_counter() - started
    if progress:
        sys.stderr.write("\n")
    return {
        "totals": totals,
        "tickets": tickets,
        "turns": turns,
        "wins": wins,
        "elapsed": elapsed,
        "length_unit": "turns" if counts_turns else "actions",
    }


def run(args: argparse.Namespace) -> int:
    kinds = [k.strip() for k in args.ai.split(",")]
    if len(kinds) == 1:
        kinds = kinds * args.players
    try:
        offered = find_game(args.game).ai_kinds
    except IllegalAction as exc:
        print(text_of(refusal_of(exc)), file=sys.stderr)
        return 2
    if len(kinds) != args.players or any(k not in offered for k in kinds):
        print(
            _(
                "--ai needs one kind ({kinds}) or one per seat ({players}).",
                kinds=", ".join(offered),
                players=args.players,
            ),
            file=sys.stderr,
        )
        return 2
    if args.think_ms is not None and args.think_ms < 1:
        print(_("--think-ms must be at least 1."), file=sys.stderr)
        return 2
    if args.games < 1:
        print(_("--games must be at least 1."), file=sys.stderr)
        return 2
    try:
        spec = find_game(args.game)
        board = spec.board_key and args.map
        config = spec.config_for(board=board or None, variant=args.variant, extra=settings_config(spec, args))
        label = " ".join(filter(None, [spec.title, board or "", f"({args.variant})" if args.variant else ""]))
        stats = simulate(
            spec.name,
            config,
            args.players,
            args.games,
            args.seed,
            kinds,
            progress=not args.quiet,
            think_ms=args.think_ms,
        )
    except IllegalAction as exc:
        print(text_of(refusal_of(exc)), file=sys.stderr)
        return 2
    # Numbers are written with a point in every language: the lines are read by scripts too.
    print(
        _(
            "{label}: {games} games, {players} players, seeds {first}..{last}",
            label=label,
            games=args.games,
            players=args.players,
            first=args.seed,
            last=args.seed + args.games - 1,
        )
    )
    all_scores = [s for seat in stats["totals"] for s in seat]
    print(_("score: {spread}", spread=_spread(all_scores)))
    for seat, scores in enumerate(stats["totals"]):
        print(
            "  "
            + _(
                "seat {seat} ({ai}): mean {mean}, sd {sd}, wins {wins} ({share}%)",
                seat=seat + 1,
                ai=kinds[seat],
                mean=decimal(statistics.mean(scores)),
                sd=decimal(statistics.pstdev(scores)),
                wins=decimal(stats["wins"][seat]),
                share=decimal(100 * stats["wins"][seat] / args.games),
            )
        )
    if stats["tickets"]:
        print(
            _(
                "tickets completed per player: mean {mean}, sd {sd}",
                mean=decimal(statistics.mean(stats["tickets"]), 2),
                sd=decimal(statistics.pstdev(stats["tickets"]), 2),
            )
        )
    if stats["length_unit"] == "turns":
        print(_("game length in turns: {spread}", spread=_spread(stats["turns"])))
    else:
        print(_("game length in actions: {spread}", spread=_spread(stats["turns"])))
    print(_("first-seat win rate: {share}%", share=decimal(100 * stats["wins"][0] / args.games)))
    # Timing varies from run to run, so it goes to stderr and stdout stays identical for a seed.
    print(_("speed: {rate} games/s", rate=decimal(args.games / stats["elapsed"])), file=sys.stderr)
    return 0


def _spread(values: list[int]) -> str:
    """Mean, standard deviation, least and most of ``values``, worded for the reader."""
    return _(
        "mean {mean}, sd {sd}, min {least}, max {most}",
        mean=decimal(statistics.mean(values)),
        sd=decimal(statistics.pstdev(values)),
        least=min(values),
        most=max(values),
    )
