"""``conductor backup PATH``: a consistent copy of the database (SQLite online backup API).

After copying, the copy is checked like ``conductor doctor`` does: a copy holding a damaged game
is still written (it is the best copy there is), but the command says which games are damaged and
exits 1, so a scheduled backup does not silently rotate good copies away for damaged ones.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from bot.commands.doctor import diagnose_path
from bot.store.rows import StorageError
from bot.store.sqlite import SqliteError, backup_file, db_path_from_env
from lang import N_, _, _n, error_text

NAME = "backup"
HELP = N_(
    "Copy the live database to PATH with SQLite's online backup (safe while the bot runs), then check the copy."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help=_("where to write the copy"))
    parser.add_argument(
        "--db", default=None, help=_("database to copy (default: CONDUCTOR_DB or ./conductor.db)")
    )


def run(args: argparse.Namespace) -> int:
    src = args.db or db_path_from_env()
    if not os.path.isfile(src):
        print(
            "conductor backup: " + _("no database at {path} (set CONDUCTOR_DB or pass --db)", path=src),
            file=sys.stderr,
        )
        return 1
    if os.path.abspath(args.path) == os.path.abspath(src):
        print(
            "conductor backup: "
            + _("{path} is the database itself; choose another path for the copy.", path=args.path),
            file=sys.stderr,
        )
        return 1
    try:
        backup_file(src, args.path)
    except (OSError, SqliteError) as exc:
        print(
            "conductor backup: "
            + _(
                "could not copy {source} to {path} ({error}). Check that {source} is a Conductor database and that "
                "the folder of {path} exists and is writable by this user.",
                source=src,
                path=args.path,
                error=exc,
            ),
            file=sys.stderr,
        )
        return 1
    print(_("backed up {source} to {path}", source=src, path=args.path))
    try:
        found = asyncio.run(diagnose_path(args.path))
    except (StorageError, SqliteError) as exc:
        print(
            "conductor backup: "
            + _(
                "the copy {path} was written but cannot be checked: {error}",
                path=args.path,
                error=error_text(exc),
            ),
            file=sys.stderr,
        )
        return 1
    if found.sound:
        print(
            _n(
                "checked the copy: {n} game(s), all sound.",
                "checked the copy: {n} game(s), all sound.",
                found.games_checked,
            )
        )
        return 0
    print(
        "conductor backup: "
        + _("the copy {path} was written, but it holds damage from {source}:", path=args.path, source=src),
        file=sys.stderr,
    )
    for line in found.report()[1:]:
        print(f"  {line}", file=sys.stderr)
    return 1
