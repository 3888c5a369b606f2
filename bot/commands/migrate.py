"""``conductor migrate``: copy a SQLite database into an empty PostgreSQL database and verify it.

Both are opened (and brought to this release's schema), every table is copied in one PostgreSQL
transaction (:mod:`bot.store.copy`), every game's row and log is compared between the two, and
then ``conductor doctor``'s check runs on the copy: every game replayed from its log must give its
saved state. Exit 0 only when the copy is whole and sound. Stop the bot first: a move made during
the copy would not be in it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from bot.commands.doctor import diagnose
from bot.store.copy import compare_records, copy_into, source_and_target
from bot.store.pg_conn import is_postgres_url
from bot.store.rows import StorageError
from bot.store.sqlite import db_path_from_env
from lang import N_, _, _n, text_of

NAME = "migrate"
HELP = N_("Copy a SQLite database into an empty PostgreSQL database and check every game on the copy.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        help=_("the SQLite database to copy (default: CONDUCTOR_DB or ./conductor.db)"),
    )
    parser.add_argument(
        "--to", dest="target", required=True, help=_("the empty PostgreSQL database: postgresql://…")
    )


async def _migrate(source_path: str, target_url: str) -> tuple[list[str], bool]:
    """The report's lines and whether the copy is whole and sound; StorageError if it cannot be made."""
    async with source_and_target(source_path, target_url) as (source, target):
        counts = await copy_into(source, target)
        lines = [
            _n("{table}: {n} row copied", "{table}: {n} rows copied", n, table=table)
            for table, n in counts.items()
        ]
        differ = await compare_records(source, target)
        lines += [_("game #{game}: the copy differs from the original", game=gid) for gid in differ]
        found = await diagnose(target)
        lines += found.report()[2:]  # the games' lines and the summary (the file check is SQLite's)
        sound = not differ and found.sound
        if not sound:
            lines.append(_("The copy is not sound: keep running on {path}.", path=source_path))
        return lines, sound


def run(args: argparse.Namespace) -> int:
    source = args.source or db_path_from_env()
    if is_postgres_url(source) or not os.path.isfile(source):
        print(
            "conductor migrate: " + _("there is no SQLite database at {path} (pass --from).", path=source),
            file=sys.stderr,
        )
        return 1
    if not is_postgres_url(args.target):
        print(
            "conductor migrate: "
            + _("--to must be a postgresql:// address, not {where}.", where=args.target),
            file=sys.stderr,
        )
        return 1
    try:
        lines, sound = asyncio.run(_migrate(source, args.target))
    except StorageError as exc:
        print(f"conductor migrate: {text_of(exc.said)}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0 if sound else 1
