"""``conductor play``: a game in the terminal against AI seats, through the same GameService.

With ``--seat ai`` (or when stdin is not a terminal) every seat is an AI and the whole game is
played to the end, printing the log and the final scores: this is the README's first command.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from bot.app import App, AppSettings
from bot.commands.rules import add_setting_arguments, settings_config
from bot.games.api import find_front_end as front_end
from bot.present import (
    action_hints,
    board_text,
    final_text,
    game_view,
    hand_text,
    line_plain,
    render_board_png,
)
from bot.present_rules import rules_in_words
from bot.service import GameService, ServiceError
from bot.service.plans import plan_words
from bot.store.rows import StorageError
from bot.stream import Outcome
from bot.web.links import PageLinks, page_line
from bot.web.settings import WebSettingError, WebSettings

if TYPE_CHECKING:
    from bot.web.server import WebServer
from lang import N_, _, _n, environment_language, set_language, text_of, using
from lang.refusals import refusal_of
from rules.errors import IllegalAction
from rules.games import DEFAULT_GAME, find_game
from rules.plans import Step
from rules.registry import GameSpec

NAME = "play"
HELP = N_("Play a game in the terminal against AI seats (all-AI with --seat ai or without a TTY).")

HUMAN = "terminal:you"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--map",
        "--board",
        dest="board",
        default="usa",
        help=_("usa, europe, switzerland or germany (Märklin)"),
    )
    parser.add_argument("--game", default=DEFAULT_GAME, help=_("game name (ttr or first-class)"))
    parser.add_argument("--players", type=int, default=3, help=_("number of seats, including yours"))
    parser.add_argument(
        "--seat", choices=("human", "ai"), default=None, help=_("your seat: human (default on a TTY) or ai")
    )
    parser.add_argument(
        "--ai", choices=("heuristic", "random"), default="heuristic", help=_("kind of AI for the other seats")
    )
    parser.add_argument("--variant", default=None, help=_("board variant (e.g. the Swiss 'digital')"))
    parser.add_argument("--seed", type=int, default=None, help=_("seed for a reproducible game"))
    parser.add_argument(
        "--out",
        default=None,
        help=_("folder for board PNGs after each turn (when the renderer is installed)"),
    )
    parser.add_argument(
        "--db", default=None, help=_("SQLite file to keep the game in (default: a temporary file)")
    )
    parser.add_argument("--quiet", action="store_true", help=_("only print the final scores"))
    parser.add_argument(
        "--web",
        action="store_true",
        help=_(
            "serve the game's web page while it is played (CONDUCTOR_WEB_HOST, CONDUCTOR_WEB_PORT), "
            "print its address, and keep serving it after the end until Ctrl-C"
        ),
    )
    parser.add_argument("--name", default=None, help=_("your name in the game (default: your user name)"))
    add_setting_arguments(parser)


def player_name(args: argparse.Namespace) -> str:
    """The human's name: ``--name``, else the user name of this account, else "Player"."""
    name = (args.name or "").strip()
    if name:
        return name[:32]
    try:
        return getpass.getuser() or "Player"
    except (OSError, KeyError):  # no user name known to this system (e.g. a container's bare uid)
        return "Player"


class _Printer:
    """The terminal's subscriber to the outcome stream: prints every public line and writes the
    board as a PNG whenever a turn ended (or the game did)."""

    every_step = True  # a board per turn, not one per request

    def __init__(self, out_dir: str | None, quiet: bool, language: str = "en") -> None:
        self.out_dir = Path(out_dir) if out_dir else None
        self.quiet = quiet
        self.language = language
        self.written: set[Path] = set()
        self.last_turn: int | None = None
        if self.out_dir:
            self.out_dir.mkdir(parents=True, exist_ok=True)

    async def deliver(self, outcome: Outcome) -> None:
        with using(self.language):
            await self._deliver(outcome)

    async def _deliver(self, outcome: Outcome) -> None:
        if not self.quiet:
            for line in outcome.lines:
                print(line_plain(line, outcome.names))
        for note in outcome.notes:
            if note.player == HUMAN:  # the terminal's player's own notes (a plan played or dropped)
                print("📝 " + note.said.text())
        view = outcome.view
        if self.out_dir is None or view is None or not outcome.board_changed:
            return
        turn = int(str(view["detail"].get("turn", view["seq"])))
        if turn == self.last_turn and not outcome.over:
            return
        self.last_turn = turn
        png = await asyncio.to_thread(render_board_png, view)
        if png is not None:
            # One file per move number: a board posted twice for one move overwrites its file.
            path = self.out_dir / f"game{outcome.game_id}-{view['seq']:04d}.png"
            path.write_bytes(png)
            self.written.add(path)


async def play(args: argparse.Namespace) -> int:
    language = set_language(getattr(args, "lang", None) or environment_language())
    interactive = args.seat == "human" or (args.seat is None and sys.stdin.isatty())
    tmp = None
    if args.db:
        db_path = args.db
    else:
        tmp = tempfile.TemporaryDirectory(prefix="conductor-play-")
        db_path = os.path.join(tmp.name, "play.db")
    try:
        web = WebSettings.from_env(os.environ, force_on=args.web)
    except WebSettingError as exc:
        print(f"conductor play: {text_of(exc.said)}", file=sys.stderr)
        return 2
    # Without --web a game kept in a database (--db) still has an address where another process
    # serves that database's pages (`conductor run --web` behind CONDUCTOR_WEB_URL).
    elsewhere = web.base_url if args.db and web.base_url and not args.web else None
    app = App(AppSettings(db_path, web_url=elsewhere))
    try:
        await app.start()
    except StorageError as exc:
        await app.close()
        print(f"conductor play: {text_of(exc.said)}", file=sys.stderr)
        return 2
    printer = _Printer(args.out, args.quiet, language)
    server: WebServer | None = None
    address: str | None = None
    try:
        if args.web:
            from bot.web.server import WebServer  # aiohttp's server, only when pages are served

            try:
                server = await WebServer(app, web.host, web.port, web.base_url or None).start()
            except OSError as exc:
                print(
                    "conductor play: "
                    + _(
                        "the web pages cannot be served on {host}:{port}: {error}",
                        host=web.host,
                        port=web.port,
                        error=exc.strerror or exc,
                    ),
                    file=sys.stderr,
                )
                return 2
            links = PageLinks(app.storage.web, server.pages.public_url)
        else:
            links = app.links
        service = app.service
        service.stream.subscribe(printer)
        try:
            spec = find_game(args.game)
            config = spec.config_for(
                board=args.board, variant=args.variant, extra=settings_config(spec, args)
            )
            config["language"] = language  # the game's images and texts (no rule reads it)
        except IllegalAction as exc:
            print(f"conductor play: {text_of(refusal_of(exc))}", file=sys.stderr)
            return 2
        try:
            row = await service.create_game(
                game_name=spec.name,
                config=config,
                creator=HUMAN if interactive else None,
                creator_name=player_name(args),
                turn_hours=None,
                seat_order="join",
                seed=args.seed,
                join=interactive,
            )
            for _seat in range(args.players - (1 if interactive else 0)):
                await service.add_ai(row.id, None, args.ai, is_admin=True)
            # before the start: a game of AI seats is played to its end by the start itself
            address = await links.game(row.id, None)
            if address is not None:
                print(page_line(address).lstrip("\n"))
            if (
                not args.quiet
            ):  # the rules in force, before the first move (settings, deck, provisional values)
                print("\n".join(rules_in_words(spec.name, config, spec.rules_summary(config))) + "\n")
            outcome = await service.start(row.id, None, is_admin=True)
        except ServiceError as exc:
            print(f"conductor play: {text_of(exc.said)}", file=sys.stderr)
            return 2
        except IllegalAction as exc:
            print(f"conductor play: {text_of(refusal_of(exc))}", file=sys.stderr)
            return 2
        await service.stream.drain()
        while not outcome.over:
            if not interactive:  # all seats are AI: start() already played to the end
                break
            result = await _human_turn(service, outcome, spec)
            if result is None:
                print(_("Game abandoned."))
                return 1
            outcome = result
        view = outcome.view if outcome.view is not None else await service.public_view(row.id)
        names = view["names"]
        if not interactive and not args.quiet:
            print("\n" + _("Log (last 20 actions):"))
            for line in await service.log_lines(row.id, 20):
                print("  " + line)
        scores = outcome.scores or view.get("final") or []
        print()
        print(final_text(scores, names, spec.name).replace("**", ""))
        if printer.written:
            print(
                "\n"
                + _n(
                    "{n} board image(s) written to {folder}",
                    "{n} board image(s) written to {folder}",
                    len(printer.written),
                    folder=args.out,
                )
            )
        if server is not None and address is not None:
            print(
                "\n" + _("Serving the game's page at {url} until you press Ctrl-C.", url=address), flush=True
            )
            await _until_interrupted()
        return 0
    finally:
        if server is not None:
            await server.stop()
        await app.close()
        if tmp is not None:
            tmp.cleanup()


async def _until_interrupted() -> None:
    """Until Ctrl-C (SIGINT) or SIGTERM: the page stays served meanwhile."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


async def _human_turn(service: GameService, outcome: Outcome, spec: GameSpec) -> Outcome | None:
    """Show the seat what it needs to choose in ``outcome``'s state (read from the outcome), then
    read moves until one is accepted. A game whose front end has a terminal menu gets the table in
    words and a number per choice; the text form of a move is always accepted too."""
    game_id = outcome.game_id
    seat = outcome.seat_of(HUMAN)
    assert seat is not None and outcome.private is not None, "the terminal's player has a seat"
    view = outcome.private.view(seat)
    menu = front_end(spec.name).terminal
    legal = list(outcome.private.legal(seat))
    texts = [a.to_text() for a in legal]
    choices: list[tuple[str, str]] = []
    print()
    if menu is not None:
        detail = game_view(view)
        print(menu.text(detail))
        choices = menu.choices(detail, view.get("viewer"), texts)
        print(menu.prompt(detail, view.get("viewer"), {a.kind for a in legal}))
        print(_("Your choices:"))
        print("\n".join(menu.menu(detail, view.get("viewer"), choices)))
    else:
        print(board_text(view).replace("**", ""))
        print(hand_text(view))
        print(_("Legal moves:") + "\n" + action_hints(legal))
    front = front_end(spec.name)
    # the game's own help: its menu's, else its text forms', else the legal moves by kind
    help_text = (
        menu.help()
        if menu is not None
        else front.terminal_help()
        if front.terminal_help is not None
        else _("Legal moves:") + "\n" + action_hints(legal)
    )
    ask = (
        _("your move (a number or a move; help, legal, take back, plan, quit)> ")
        if choices
        else _("your move (help, legal, take back, plan, quit)> ")
    )
    while True:
        try:
            text = await asyncio.to_thread(input, ask)
        except EOFError:
            return None
        text = text.strip()
        if not text:
            continue
        if text in ("quit", "exit"):
            return None
        if text == "help":
            print(help_text)
            continue
        if text.lower() in ("take back", "undo"):
            try:
                result = await service.take_back(game_id, HUMAN)
            except ServiceError as exc:
                print(f"✗ {text_of(exc.said)}")
                continue
            await service.stream.drain()
            return result
        if text.lower() == "plan" or text.lower().startswith("plan "):
            await _plan(service, game_id, spec, text[4:].strip())
            continue
        if text == "legal":
            for a in texts[:60]:
                print("  " + a)
            if len(texts) > 60:
                print("  … " + _("and {n} more", n=len(texts) - 60))
            continue
        if choices and text.isdigit():
            number = int(text)
            if not 1 <= number <= len(choices):
                print(
                    "✗ "
                    + _(
                        "There is no choice {number}; type a number from 1 to {n}.",
                        number=number,
                        n=len(choices),
                    )
                )
                continue
            text = choices[number - 1][1]
        try:
            result = await service.act(game_id, HUMAN, text)
        except ServiceError as exc:
            print(f"✗ {text_of(exc.said)}")
            continue
        await service.stream.drain()
        return result


async def _plan(service: GameService, game_id: int, spec: GameSpec, text: str) -> None:
    """``plan`` shows the planned next turn, ``plan clear`` drops it, ``plan STEP; STEP…`` sets it
    (the steps the game plans, first tried first)."""
    try:
        if text.lower() == "clear":
            await service.clear_plan(game_id, HUMAN)
            steps: tuple[Step, ...] = ()
        elif text:
            steps = await service.set_plan(game_id, HUMAN, text)
        else:
            steps = await service.plan_of(game_id, HUMAN)
    except ServiceError as exc:
        print(f"✗ {text_of(exc.said)}")
        return
    row = await service.game_row(game_id)
    if steps:
        print(_("Your plan for your next turn (the first step that can be played is played):"))
        print(plan_words(row.game_name, row.config, steps).text())
    else:
        print(
            _(
                "No plan. Type plan and its steps, separated by semicolons, first tried first, "
                "for example: plan {example}",
                example=spec.plans.example if spec.plans is not None else "",
            )
        )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(play(args))
