"""``conductor play``: a game in the terminal against AI seats, through the same GameService.

With ``--seat ai`` (or when stdin is not a terminal) every seat is an AI and the whole game is
played to the end, printing the log and the final scores: this is the README's first command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.present import action_hints, board_text, final_text, hand_text, render_board_png
from bot.service import GameService, Outcome, ServiceError
from bot.storage import Storage

NAME = "play"
HELP = "Play a game in the terminal against AI seats (all-AI with --seat ai or without a TTY)."

HUMAN_ID = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", "--board", dest="board", default="usa", help="usa, europe, switzerland or germany (Märklin)")
    parser.add_argument("--game", default="ttr", help="game name (ttr or first-class)")
    parser.add_argument("--players", type=int, default=3, help="number of seats, including yours")
    parser.add_argument("--seat", choices=("human", "ai"), default=None, help="your seat: human (default on a TTY) or ai")
    parser.add_argument("--ai", choices=("heuristic", "random"), default="heuristic", help="kind of AI for the other seats")
    parser.add_argument("--variant", default=None, help="board variant (e.g. the Swiss 'digital')")
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    parser.add_argument("--out", default=None, help="folder for board PNGs after each turn (when the renderer is installed)")
    parser.add_argument("--db", default=None, help="SQLite file to keep the game in (default: a temporary file)")
    parser.add_argument("--quiet", action="store_true", help="only print the final scores")


class _Printer:
    def __init__(self, out_dir: str | None, quiet: bool) -> None:
        self.out_dir = Path(out_dir) if out_dir else None
        self.quiet = quiet
        self.written: set[Path] = set()
        self.last_turn: int | None = None
        self.service: GameService | None = None
        if self.out_dir:
            self.out_dir.mkdir(parents=True, exist_ok=True)

    def lines(self, outcome: Outcome) -> None:
        if not self.quiet:
            for line in outcome.lines:
                print(line.replace("**", ""))

    async def board(self, service: GameService, game_id: int) -> None:
        """Write the board as a PNG when a turn ended (or the game did)."""
        if self.out_dir is None:
            return
        view = await service.public_view(game_id)
        turn = int(view.get("turn", view["seq"]))
        if turn == self.last_turn and view.get("phase") != "over":
            return
        self.last_turn = turn
        png = await asyncio.to_thread(render_board_png, view)
        if png is not None:
            # One file per move number: a board posted twice for one move overwrites its file.
            path = self.out_dir / f"game{game_id}-{view['seq']:04d}.png"
            path.write_bytes(png)
            self.written.add(path)

    async def observe(self, game_id: int, seq: int) -> None:
        """GameService observer: a board image after each turn."""
        if self.service is not None:
            await self.board(self.service, game_id)


async def play(args: argparse.Namespace) -> int:
    interactive = args.seat == "human" or (args.seat is None and sys.stdin.isatty())
    tmp = None
    if args.db:
        db_path = args.db
    else:
        tmp = tempfile.TemporaryDirectory(prefix="conductor-play-")
        db_path = os.path.join(tmp.name, "play.db")
    storage = await Storage(db_path).open()
    printer = _Printer(args.out, args.quiet)
    try:
        service = GameService(storage, observer=printer.observe if args.out else None)
        printer.service = service
        config: dict[str, Any] = {"board": args.board} if args.game == "ttr" else {}
        if args.variant:
            config["variant"] = args.variant
        try:
            row = await service.create_game(
                game_name=args.game, config=config, creator_id=HUMAN_ID if interactive else None,
                creator_name="You", turn_hours=None, seat_order="join", seed=args.seed, join=interactive,
            )
            for _ in range(args.players - (1 if interactive else 0)):
                await service.add_ai(row.id, HUMAN_ID, args.ai, is_admin=True)
            outcome = await service.start(row.id, None, is_admin=True)
        except ServiceError as exc:
            print(f"conductor play: {exc.message}", file=sys.stderr)
            return 2
        printer.lines(outcome)
        await printer.board(service, row.id)
        while not outcome.over:
            if not interactive:  # all seats are AI: start() already played to the end
                break
            result = await _human_turn(service, row.id, outcome, printer)
            if result is None:
                print("Game abandoned.")
                return 1
            outcome = result
        view = await service.public_view(row.id)
        names = view["names"]
        if not interactive and not args.quiet:
            print("\nLog (last 20 actions):")
            for line in await service.log_lines(row.id, 20):
                print("  " + line)
        scores = outcome.scores or view.get("final") or []
        print()
        print(final_text(scores, names).replace("**", ""))
        if printer.written:
            print(f"\n{len(printer.written)} board image(s) written to {args.out}")
        return 0
    finally:
        await storage.close()
        if tmp is not None:
            tmp.cleanup()


async def _human_turn(service: GameService, game_id: int, outcome: Outcome, printer: _Printer) -> Outcome | None:
    view = await service.private_view(game_id, HUMAN_ID)
    print()
    print(board_text(view).replace("**", ""))
    print(hand_text(view))
    legal = await service.legal_actions(game_id, HUMAN_ID)
    print("Legal moves:\n" + action_hints(legal))
    while True:
        try:
            text = await asyncio.to_thread(input, "your move (help, legal, quit)> ")
        except EOFError:
            return None
        text = text.strip()
        if not text:
            continue
        if text in ("quit", "exit"):
            return None
        if text == "help":
            print("Type an action: draw deck | draw face 0..4 | claim EU034 red=3,locomotive=1 | tickets draw |"
                  " tickets keep ID,ID | station Berlin red=2 | tunnel pay red=1 | tunnel withdraw | pass")
            continue
        if text == "legal":
            for a in legal[:60]:
                print("  " + a.to_text())
            if len(legal) > 60:
                print(f"  … {len(legal) - 60} more")
            continue
        try:
            result = await service.act(game_id, HUMAN_ID, text)
        except ServiceError as exc:
            print(f"✗ {exc.message}")
            continue
        printer.lines(result)
        await printer.board(service, game_id)
        return result


def run(args: argparse.Namespace) -> int:
    return asyncio.run(play(args))
