"""``conductor render``: play a seeded AI game of Ticket to Ride for N turns and draw it as a PNG.

Same arguments give the same picture: the game is fully determined by board, players and seed,
and the AI seats are seeded from the game seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from lang import N_, _, current, text_of
from lang.refusals import refusal_of
from rules.errors import IllegalAction

NAME = "render"
HELP = N_(
    "Play a seeded AI Ticket to Ride game for some turns and draw the board (or a hand, or the summary) as PNG."
)

#: Safety cap on actions, so a stuck game can never loop forever.
MAX_ACTIONS = 20000


def play_ai_game(
    board: str,
    players: int,
    seed: int,
    turns: int | None = None,
    *,
    ai: str = "heuristic",
    collect: bool = False,
    variant: str | None = None,
) -> tuple[Any, list[dict[str, Any]]]:
    """Play AI seats until ``turns`` turns are complete (or the game ends when ``turns`` is None).

    Returns the game and, when ``collect`` is set, the spectator view after every action.
    """
    from rules.games import find_game

    spec = find_game("ttr")
    game = spec.new(spec.config_for(board=board, variant=variant), players, seed)
    bots = [spec.make_ai(ai, seed * 31 + s) for s in range(players)]
    views: list[dict[str, Any]] = [dict(game.view(None))] if collect else []
    for _action in range(MAX_ACTIONS):
        if game.is_over():
            break
        turn = game.view(None)["turn"]  # Ticket to Ride's view counts turns in an int
        if turns is not None and isinstance(turn, int) and turn >= turns:
            break
        seats = game.seats_to_act()
        if not seats:
            break
        seat = seats[0]
        game.apply(seat, bots[seat].choose(game, seat))
        if collect:
            views.append(dict(game.view(None)))
    return game, views


def in_reader_language(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` drawn with the labels of the command's language (``--lang``, else the locale), its
    data caveats (stand-in ticket deck, provisional merchandise) worded in it as the bot words them."""
    from bot.games.api import find_front_end

    return {**find_front_end("ttr").words.view_words(view), "language": current()}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", default="europe", help=_("usa, europe, switzerland or germany (Märklin)"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=None, help=_("turns to play (default: the whole game)"))
    parser.add_argument("--ai", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument(
        "--seat", type=int, default=None, help=_("draw this seat's private hand instead of the board")
    )
    parser.add_argument(
        "--summary", action="store_true", help=_("draw the end-of-game summary (plays to the end)")
    )
    parser.add_argument("--names", default=None, help=_("comma-separated player names"))
    parser.add_argument("--out", default="board.png")


def run(args: argparse.Namespace) -> int:
    from render.ttr import render_board, render_hand, render_summary

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    turns = None if args.summary else args.turns
    try:
        game, _views = play_ai_game(args.map, args.players, args.seed, turns, ai=args.ai)
    except IllegalAction as exc:  # a bad board name or player count: say so, don't dump a traceback
        print(f"conductor render: {text_of(refusal_of(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - anything else the same way, its text as data
        print(f"conductor render: {exc}", file=sys.stderr)
        return 2
    if args.summary:
        data = render_summary(in_reader_language(game.view(None)), names)
    elif args.seat is not None:
        if not 0 <= args.seat < args.players:
            print(
                "conductor render: " + _("--seat must be 0..{last}", last=args.players - 1), file=sys.stderr
            )
            return 2
        data = render_hand(in_reader_language(game.view(args.seat)), names)
    else:
        data = render_board(in_reader_language(game.view(None)), names)
    Path(args.out).write_bytes(data)
    print(
        _(
            "wrote {path} ({size} KB, turn {turn})",
            path=args.out,
            size=len(data) // 1024,
            turn=game.view(None)["turn"],
        )
    )
    return 0
