"""``conductor doctor``: is the database sound, and is every game's record consistent?

Runs SQLite's integrity check on the file (:meth:`~bot.store.api.Store.integrity_problems`),
then :func:`bot.integrity.explain_game` on every game (row, action log and saved state must
agree), and prints one line per damaged game with the reason, then a summary. Exit code 0 when
everything is sound, 1 otherwise. Safe while the bot runs: each game is read in one consistent
read.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from dataclasses import dataclass, field

from bot.app import App, AppSettings
from bot.integrity import explain_game
from bot.store.api import Store
from bot.store.pg_conn import is_postgres_url
from bot.store.rows import ABORTED, ACTIVE, BROKEN, LOBBY, OVER, StorageError
from bot.store.sqlite import SqliteDamaged, db_path_from_env
from lang import N_, M, Msg, _, _n, text_of

NAME = "doctor"
HELP = N_("Check the database (SQLite integrity, and every game's moves against its saved state).")

KNOWN_STATUSES = (LOBBY, ACTIVE, OVER, ABORTED, BROKEN)

# integrity_check can list thousands of damaged pages; the first few say enough.
MAX_INTEGRITY_LINES = 10
RESTORE_ADVICE = N_(
    "Restore from a copy made by conductor backup before the damage; sound games can still be "
    "exported (conductor export)."
)


@dataclass
class Diagnosis:
    """What :func:`diagnose` found: SQLite's complaints and every damaged game with its reason."""

    path: str
    integrity: list[str] = field(default_factory=list)
    games_checked: int = 0
    damaged: list[tuple[int, Msg]] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not self.integrity and not self.damaged

    def report(self) -> list[str]:
        """The lines an admin reads, in the current language: SQLite's verdict (its own lines are
        data), one line per damaged game, a summary."""
        lines = [_("database {path}", path=self.path)]
        if self.integrity:
            lines.append(_("SQLite integrity check: the file is damaged:"))
            lines += [f"  {line}" for line in self.integrity[:MAX_INTEGRITY_LINES]]
            if len(self.integrity) > MAX_INTEGRITY_LINES:
                lines.append("  … " + _("and {n} more", n=len(self.integrity) - MAX_INTEGRITY_LINES))
        else:
            lines.append(_("SQLite integrity check: ok"))
        lines += [_("game #{game}: {reason}", game=gid, reason=reason.text()) for gid, reason in self.damaged]
        checked = self.games_checked
        if self.sound:
            lines.append(_n("{n} game(s) checked: all sound.", "{n} game(s) checked: all sound.", checked))
        elif self.damaged and self.integrity:
            lines.append(
                _n(
                    "{n} game(s) checked: {damaged} damaged game(s) and a damaged database file. {advice}",
                    "{n} game(s) checked: {damaged} damaged game(s) and a damaged database file. {advice}",
                    checked,
                    damaged=len(self.damaged),
                    advice=_(RESTORE_ADVICE),
                )
            )
        elif self.damaged:
            lines.append(
                _n(
                    "{n} game(s) checked: {damaged} damaged game(s). {advice}",
                    "{n} game(s) checked: {damaged} damaged game(s). {advice}",
                    checked,
                    damaged=len(self.damaged),
                    advice=_(RESTORE_ADVICE),
                )
            )
        else:
            lines.append(
                _n(
                    "{n} game(s) checked: a damaged database file. {advice}",
                    "{n} game(s) checked: a damaged database file. {advice}",
                    checked,
                    advice=_(RESTORE_ADVICE),
                )
            )
        return lines


async def diagnose(storage: Store) -> Diagnosis:
    """Run SQLite's integrity check and :func:`explain_game` over every game of an open ``storage``."""
    found = Diagnosis(storage.path)
    found.integrity = await storage.integrity_problems()
    for gid, status, broken_reason in await storage.game_statuses():
        found.games_checked += 1
        if status not in KNOWN_STATUSES:
            # nothing resumes, lists or plays such a game: it would sit there unseen
            found.damaged.append(
                (gid, M("its status {status} is not one Conductor knows.", status=repr(status)))
            )
            continue
        reason = await explain_game(storage, gid)
        if reason is None and status == BROKEN:
            # The record reads back, but the bot stopped this game once: say why it did.
            # (the reason it recorded is stored English, shown as it was written)
            reason = M("marked broken by the bot: {reason}", reason=broken_reason or M("no reason recorded"))
        if reason is not None:
            found.damaged.append((gid, reason))
    return found


async def diagnose_path(db: str) -> Diagnosis:
    """:func:`diagnose` on the database file ``db`` (raises StorageError if it cannot be opened)."""
    async with App.open(AppSettings(db)) as app:
        return await diagnose(app.storage)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", default=None, help=_("database to check (default: CONDUCTOR_DB or ./conductor.db)")
    )


def run(args: argparse.Namespace) -> int:
    db = args.db or db_path_from_env()
    if not is_postgres_url(db) and not os.path.isfile(db):
        print(
            "conductor doctor: "
            + _("there is no database at {path} (set CONDUCTOR_DB or pass --db).", path=db),
            file=sys.stderr,
        )
        return 1
    try:
        found = asyncio.run(diagnose_path(db))
    except StorageError as exc:
        print(f"conductor doctor: {text_of(exc.said)}", file=sys.stderr)
        return 1
    except SqliteDamaged as exc:  # pages so damaged that reading the games fails
        print(
            "conductor doctor: "
            + _(
                "reading {path} failed (SQLite: {error}): the file is damaged; restore it from a backup.",
                path=db,
                error=exc,
            ),
            file=sys.stderr,
        )
        return 1
    print("\n".join(found.report()))
    return 0 if found.sound else 1
