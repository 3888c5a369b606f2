"""``conductor backup PATH``: a consistent copy of the database (SQLite online backup API)."""

from __future__ import annotations

import argparse
import os
import sys

from bot.storage import backup_sync, db_path_from_env

NAME = "backup"
HELP = "Copy the live database to PATH with SQLite's online backup (safe while the bot runs)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="where to write the copy")
    parser.add_argument("--db", default=None, help="database to copy (default: CONDUCTOR_DB or ./conductor.db)")


def run(args: argparse.Namespace) -> int:
    src = args.db or db_path_from_env()
    if not os.path.exists(src):
        print(f"conductor backup: no database at {src} (set CONDUCTOR_DB or pass --db)", file=sys.stderr)
        return 1
    backup_sync(src, args.path)
    print(f"backed up {src} to {args.path}")
    return 0
