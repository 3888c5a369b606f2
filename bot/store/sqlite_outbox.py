"""The outcome stream's outbox on SQLite (see :class:`bot.store.api.Outbox`): filled by a trigger
on the action log (core migration 3), read and marked here. One process uses the file, so there is
nobody to notify: its outcomes are published in memory, and the outbox is what it posts after a
crash between a commit and its post."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from bot.store.rows import OutboxNotice, OutboxRow
from bot.store.sqlite_conn import SqliteConnection

ORIGIN = "local"
"""The origin the trigger writes (one process: it is always this one)."""


class SqliteOutbox:
    """See :class:`bot.store.api.Outbox`."""

    def __init__(self, conn: SqliteConnection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.clock = clock
        self.origin = ORIGIN

    async def unposted(self, game_id: int | None = None) -> list[OutboxRow]:
        where, params = ("AND game_id=?", (game_id,)) if game_id is not None else ("", ())
        rows = await self.conn.db.execute_fetchall(
            f"SELECT game_id, seq, origin, created_at FROM outbox WHERE posted_at IS NULL {where}"
            " ORDER BY game_id, seq",
            params,
        )
        return [OutboxRow(int(r[0]), int(r[1]), str(r[2]), float(r[3])) for r in rows]

    async def mark_posted(self, game_id: int, up_to_seq: int) -> int:
        now = self.clock()
        return await self.conn.write(
            lambda db: (
                db.execute(
                    "UPDATE outbox SET posted_at=? WHERE game_id=? AND seq<=? AND posted_at IS NULL",
                    (now, game_id, up_to_seq),
                ).rowcount
            )
        )

    async def prune(self, older_than: float) -> int:
        return await self.conn.write(
            lambda db: db.execute("DELETE FROM outbox WHERE posted_at < ?", (older_than,)).rowcount
        )

    async def notices(self) -> AsyncIterator[OutboxNotice | None]:
        yield None
        await asyncio.Event().wait()  # nobody else writes to the file: nothing more to tell
