"""``conductor export NUMBER [--server GUILD_ID]``: a game, named by its number in its server as
its players know it (``--server``: the Discord server's id; without it, the games played outside
any server, e.g. in the terminal), as ``{"game","config","players","seed","actions"}`` JSON.

The export re-simulates exactly: ``new_game(game, config, players, seed)`` followed by applying
each ``[seat, action_text]`` reproduces the stored state (see ``replay_export``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from bot.app import App, AppSettings
from bot.discord_app.store import space_ref
from bot.integrity import explain_game
from bot.store.rows import GameExport, StorageError
from bot.store.sqlite import db_path_from_env
from lang import N_, M, Msg, _, _n, error_text
from rules import games as rules_games
from rules import takeback

NAME = "export"
HELP = N_("Write one game (config, seed and every action) as JSON that replays exactly.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game_id", type=int, help=_("the game's number in its server (as its players see it)")
    )
    parser.add_argument(
        "--server",
        type=int,
        default=None,
        help=_("the Discord server's id (default: a game played outside any server)"),
    )
    parser.add_argument("--out", default=None, help=_("file to write (default: standard output)"))
    parser.add_argument("--db", default=None, help=_("database (default: CONDUCTOR_DB or ./conductor.db)"))


def replay_export(data: dict[str, Any]) -> Any:
    """Re-simulate an export; returns the final game object."""
    game = rules_games.new_game(data["game"], data["config"], int(data["players"]), int(data["seed"]))
    # a take-back entry cancels the move before it (rules/takeback.py): the remaining moves replay
    for seat, text in takeback.effective(data["actions"], lambda entry: takeback.is_take_back(entry[1])):
        game.apply(int(seat), rules_games.parse_action(data["game"], text))
    return game


class ExportRefused(Exception):
    """The game cannot be exported faithfully; ``said`` says why, for the admin (``str()``: English)."""

    def __init__(self, said: Msg) -> None:
        super().__init__(str(said))
        self.said = said


async def _export(db: str, number: int, server: int | None = None) -> GameExport:
    async with App.open(AppSettings(db)) as app:
        storage = app.storage
        found = await storage.game_numbered(None if server is None else space_ref(server), number)
        if found is None:
            raise ExportRefused(
                M(
                    "there is no game #{game} in server {server} in {path}.",
                    game=number,
                    server=server,
                    path=db,
                )
                if server is not None
                else M("there is no game #{game} in {path}.", game=number, path=db)
            )
        game_id = found
        # An export must replay to the stored game: a record that disagrees with itself would
        # export a different game (or crash half-way on a corrupted row), so it is refused whole.
        reason = await explain_game(storage, game_id)
        if reason is not None:
            raise ExportRefused(
                M(
                    "game #{game} cannot be exported: {reason} Nothing was written; conductor doctor "
                    "lists every damaged game.",
                    game=number,
                    reason=reason,
                )
            )
        return await storage.export_game(game_id)


def run(args: argparse.Namespace) -> int:
    db = args.db or db_path_from_env()
    if not os.path.isfile(db):
        print(
            "conductor export: " + _("no database at {path} (set CONDUCTOR_DB or pass --db)", path=db),
            file=sys.stderr,
        )
        return 1
    try:
        data = asyncio.run(_export(db, args.game_id, args.server))
    except (StorageError, ExportRefused) as exc:
        print(f"conductor export: {error_text(exc)}", file=sys.stderr)
        return 1
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            print(
                "conductor export: "
                + _(
                    "cannot write {path} ({error}); choose another --out.",
                    path=args.out,
                    error=exc.strerror or exc,
                ),
                file=sys.stderr,
            )
            return 1
        print(
            _n(
                "wrote game #{game} ({n} actions) to {path}",
                "wrote game #{game} ({n} actions) to {path}",
                len(data["actions"]),
                game=args.game_id,
                path=args.out,
            )
        )
    else:
        print(text)
    return 0
