"""Bring an SQLite database's tables up to date, owner by owner, keeping every row.

Two records of how far a database has come:

- ``schema_version``: the global list's versions (1 to 10, :mod:`bot.store.migrations.legacy`),
  then :data:`SCHEMA_VERSION` (11), the mark that the owners' own lists took over. A release from
  before the port reads its highest row, finds it newer than its own and refuses the file instead
  of damaging it.
- ``schema_owners``: one row per owner, how many entries of its own list have been applied.

A database below 10 first goes through the frozen global list to 10; at 10 each owner's tables are
exactly its own list's first entry, so each is recorded at 1 and continues from there. A new
database is made by the owners' lists alone.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping, Sequence

import aiosqlite

from bot.store.migrations import LEGACY_OWNERS, OWNERS, legacy
from bot.store.rows import StorageError
from bot.store.sqlite_conn import SqliteConnection
from lang import M

log = logging.getLogger("conductor.storage")

SCHEMA_VERSION = legacy.LAST + 1
"""The ``schema_version`` mark of a database whose tables are migrated per owner."""


async def _apply(db: aiosqlite.Connection, script: str) -> None:
    # Statement by statement; a trigger's body holds semicolons of its own, so a piece is run only
    # once it completes a statement.
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                await db.execute(pending)
            pending = ""
    if pending.strip(" \n;"):
        await db.execute(pending)


async def legacy_version(conn: SqliteConnection) -> int:
    """The highest ``schema_version`` row (0: a new database)."""
    await conn.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    async with conn.db.execute("SELECT MAX(version) FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def owner_versions(conn: SqliteConnection) -> dict[str, int]:
    """How many of each owner's migrations the database has (owners never migrated are absent)."""
    rows = await conn.db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type='table' AND name='schema_owners'"
    )
    if not list(rows):
        return {}
    return {
        str(r[0]): int(r[1])
        for r in await conn.db.execute_fetchall("SELECT owner, version FROM schema_owners")
    }


def _newer(path: str, version: object, supported: object) -> StorageError:
    return StorageError(
        "newer_schema",
        M(
            "The database {path} has schema version {version}, newer than this Conductor ({supported}):"
            " run a newer Conductor on it.",
            path=path,
            version=version,
            supported=supported,
        ),
    )


async def migrate(conn: SqliteConnection, lists: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Apply every pending migration; returns each owner's resulting version. Each step is one
    transaction with its version record, so a crash leaves the database at a known step."""
    current = await legacy_version(conn)
    if current > SCHEMA_VERSION:
        raise _newer(conn.path, current, SCHEMA_VERSION)
    if 0 < current < legacy.LAST:
        for version in range(current, legacy.LAST):
            async with conn.transaction() as db:
                await _apply(db, legacy.SQLITE[version])
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (version + 1,))
            log.info("migrated %s to schema version %d", conn.path, version + 1)
        current = legacy.LAST
    if current < SCHEMA_VERSION:
        async with conn.transaction() as db:
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_owners (owner TEXT PRIMARY KEY, version INTEGER NOT NULL)"
            )
            if current == legacy.LAST:
                # The legacy owners' tables are their first entry already (see the module docstring).
                await db.executemany(
                    "INSERT INTO schema_owners (owner, version) VALUES (?, 1)", [(o,) for o in LEGACY_OWNERS]
                )
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            else:
                # A new database: its schema will be the global list's last, made by the owners' lists.
                await db.executemany(
                    "INSERT INTO schema_version (version) VALUES (?)",
                    [(v,) for v in range(1, SCHEMA_VERSION + 1)],
                )
    versions = await owner_versions(conn)
    for owner in OWNERS:
        steps = lists[owner]
        have = versions.get(owner, 0)
        if have > len(steps):
            raise _newer(conn.path, f"{owner} {have}", f"{owner} {len(steps)}")
        for version in range(have, len(steps)):
            async with conn.transaction() as db:
                await _apply(db, steps[version])
                await db.execute(
                    "INSERT INTO schema_owners (owner, version) VALUES (?, ?)"
                    " ON CONFLICT(owner) DO UPDATE SET version=excluded.version",
                    (owner, version + 1),
                )
            log.info("migrated %s: %s tables to version %d", conn.path, owner, version + 1)
        versions[owner] = len(steps)
    return {owner: versions[owner] for owner in OWNERS}
