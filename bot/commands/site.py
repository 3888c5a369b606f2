"""``conductor site --out DIR``: the web pages of every listed game and event as a static site."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from lang import N_, _, _n, error_text

NAME = "site"
HELP = N_("Write the web pages of every listed game and event as a static site (no server needed).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, help=_("folder to write the pages in"))
    parser.add_argument(
        "--db", default=None, help=_("database to read (default: CONDUCTOR_DB or ./conductor.db)")
    )
    parser.add_argument(
        "--space", default=None, help=_("only this server's pages (for example discord:guild:1234)")
    )
    parser.add_argument(
        "--boards",
        choices=("every-move", "latest"),
        default="every-move",
        help=_(
            "every-move (default): a game's board after each move, for its replay stepper; "
            "latest: only its latest board (quicker for many long games)"
        ),
    )


def run(args: argparse.Namespace) -> int:
    from bot.app import App, AppSettings
    from bot.store.rows import StorageError
    from bot.store.sqlite import db_path_from_env
    from bot.web.export import export_site

    db = args.db or db_path_from_env()
    if not os.path.isfile(db):
        print(
            "conductor site: " + _("no database at {path} (set CONDUCTOR_DB or pass --db)", path=db),
            file=sys.stderr,
        )
        return 1

    async def main() -> int:
        async with App.open(AppSettings(db)) as app:
            written = await export_site(app, Path(args.out), space=args.space, boards=args.boards)
        print(
            _(
                "wrote {games} and {events} to {path}",
                games=_n("{n} game page", "{n} game pages", written.games),
                events=_n("{n} event page", "{n} event pages", written.events),
                path=args.out,
            )
        )
        return 0

    try:
        return asyncio.run(main())
    except StorageError as exc:
        print(f"conductor site: {error_text(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"conductor site: {exc}", file=sys.stderr)
        return 1
