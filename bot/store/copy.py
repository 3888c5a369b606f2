"""Copy a SQLite database into an empty PostgreSQL one (``conductor migrate``), row for row.

Both are first brought to this release's schema by opening them, so every owner's tables have the
same columns on both sides (PostgreSQL's own additions, such as the timers' claims and the game
leases, start empty). Every table is copied with ``COPY`` in one PostgreSQL transaction: a copy
that fails leaves the target as empty as it was. The ids are kept (a game is still #id in every
route, table and rating that names it) and each id sequence continues after the highest copied id.
:func:`compare_records` then reads every game back from both and compares them field by field.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.store.pg import PgStore
from bot.store.rows import StorageError
from bot.store.sqlite import SqliteStore
from lang import M

_BOOKKEEPING = ("schema_version", "schema_owners")
"""Tables that record how far the schema came: each side keeps its own."""


def _tables_in_order(db: sqlite3.Connection) -> list[str]:
    """Every data table of the SQLite database, each after the tables its rows refer to (every
    owner's, whatever owners this release has)."""
    names = [
        str(r[0])
        for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        if not str(r[0]).startswith("sqlite_") and str(r[0]) not in _BOOKKEEPING
    ]
    refers = {
        name: {str(fk[2]) for fk in db.execute(f"PRAGMA foreign_key_list({name})")} - {name} for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and refers[n] <= set(ordered)]
        if not ready:
            raise ValueError(f"circular references between {sorted(set(names) - set(ordered))}")
        ordered += ready
    return ordered


# Tables whose id PostgreSQL generates: the next id must follow the copied ones.
_IDENTITIES = ("games", "tournament_events", "tournament_results", "tournament_ratings")


def _read(db: sqlite3.Connection, table: str) -> tuple[list[str], list[tuple[object, ...]]]:
    columns = [str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")]
    rows = [tuple(r) for r in db.execute(f"SELECT {', '.join(columns)} FROM {table}")]
    return columns, rows


async def copy_into(source: SqliteStore, target: PgStore) -> dict[str, int]:
    """Copy every owner's rows from ``source`` into ``target`` (both open); returns the rows
    copied per table. StorageError ``target_not_empty`` if ``target`` already holds games or events."""
    if await target.game_ids(()) or await target.conn.fetchone("SELECT 1 FROM tournament_events LIMIT 1"):
        raise StorageError(
            "target_not_empty",
            M(
                "The PostgreSQL database {path} already holds games or events: migrate into an empty one.",
                path=target.path,
            ),
        )
    tables = await source.run(_tables_in_order)
    counts: dict[str, int] = {}
    async with target.conn.transaction() as db:
        for table in tables:
            columns, rows = await source.run(lambda conn, t=table: _read(conn, t))  # type: ignore[misc]
            await db.execute(f"DELETE FROM {table}")  # what opening wrote (nothing but meta, today)
            async with (
                db.cursor() as cur,
                cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy,
            ):
                for row in rows:
                    await copy.write_row(row)
            counts[table] = len(rows)
        for table in _IDENTITIES:
            await db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                f" FROM {table}"
            )
    return counts


async def compare_records(source: SqliteStore, target: PgStore) -> list[int]:
    """The games whose row or log reads back differently from ``target`` than from ``source``."""
    differ: list[int] = []
    for status in await source.game_statuses():
        a, b = await source.game_record(status.id), await target.game_record(status.id)
        if a != b or await source.player_names(status.id) != await target.player_names(status.id):
            differ.append(status.id)
    return differ


@asynccontextmanager
async def source_and_target(source_path: str, target_url: str) -> AsyncIterator[tuple[SqliteStore, PgStore]]:
    """The SQLite file and the PostgreSQL database of a migration, both open (and migrated)."""
    async with SqliteStore(source_path) as source, PgStore(target_url) as target:
        yield source, target
