"""Copy a SQLite database into an empty PostgreSQL one (``conductor migrate``), row for row.

Both are first brought to this release's schema by opening them, so each owner's tables have the
same columns on both sides (PostgreSQL's own additions, such as the timers' claims and the game
leases, start empty). Every table is copied with ``COPY`` in one PostgreSQL transaction: a copy
that fails leaves the target as empty as it was. The ids are kept (a game is still #id in every
route, table and rating that names it) and each id sequence continues after the highest copied id.
:func:`compare_records` then reads every game back from both and compares them field by field.
"""

from __future__ import annotations

import sqlite3

from bot.store.migrations import OWNERS
from bot.store.pg import PgStore
from bot.store.rows import StorageError
from bot.store.sqlite import SqliteStore
from lang import M

# Each owner's tables in an order that copies a row after the rows it refers to.
TABLES: dict[str, tuple[str, ...]] = {
    "core": ("games", "seats", "actions", "game_players", "schedule", "meta"),
    "tournament": (
        "tournament_events",
        "tournament_registrations",
        "tournament_rounds",
        "tournament_tables",
        "tournament_results",
        "tournament_ratings",
        "rating_sharing",
    ),
    "discord": (
        "discord_routes",
        "discord_messages",
        "discord_dm_optin",
        "discord_dm_hands",
        "discord_guild_settings",
        "tournament_discord",
    ),
}

# Tables whose id PostgreSQL generates: the next id must follow the copied ones.
_IDENTITIES = ("games", "tournament_events", "tournament_results", "tournament_ratings")


def _read(db: sqlite3.Connection, table: str) -> tuple[list[str], list[tuple[object, ...]]]:
    columns = [str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")]
    rows = [tuple(r) for r in db.execute(f"SELECT {', '.join(columns)} FROM {table}")]
    return columns, rows


async def copy_into(source: SqliteStore, target: PgStore) -> dict[str, int]:
    """Copy every owner's rows from ``source`` into ``target`` (both open); returns the rows
    copied per table. StorageError ``target_not_empty`` if ``target`` already holds games or events."""
    missing = [owner for owner in OWNERS if owner not in TABLES]
    assert not missing, f"no copy order for {missing}"
    if await target.game_ids(()) or await target.conn.fetchone("SELECT 1 FROM tournament_events LIMIT 1"):
        raise StorageError(
            "target_not_empty",
            M(
                "The PostgreSQL database {path} already holds games or events: migrate into an empty one.",
                path=target.path,
            ),
        )
    tables = [table for owner in OWNERS for table in TABLES[owner]]
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
