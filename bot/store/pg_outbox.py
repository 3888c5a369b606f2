"""The outcome stream's outbox on PostgreSQL (see :class:`bot.store.api.Outbox`).

A trigger on the action log (core migration 4) writes each committed move into ``outbox`` and
sends ``NOTIFY conductor_outbox`` in the same transaction, naming the committing process by its
connections' ``application_name`` (:class:`bot.store.pg_conn.PgConnection`). :meth:`notices`
keeps one connection of its own (not a pooled one: it listens for as long as the process runs)
and reconnects after a failure, with a growing pause, telling the reader each time so it reads
what it may have missed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable

import psycopg

from bot.store.pg_conn import PgConnection
from bot.store.rows import OutboxNotice, OutboxRow

log = logging.getLogger("conductor.storage")

CHANNEL = "conductor_outbox"


def _notice(payload: str) -> OutboxNotice | None:
    game, seq, origin = (payload.split(" ", 2) + ["", ""])[:3]
    try:
        return OutboxNotice(int(game), int(seq), origin)
    except ValueError:
        log.warning("outbox: an unreadable notice %r was ignored", payload)
        return None


class PgOutbox:
    """See :class:`bot.store.api.Outbox`."""

    def __init__(self, conn: PgConnection, clock: Callable[[], float], origin: str) -> None:
        self.conn = conn
        self.clock = clock
        self.origin = origin
        self.reconnects = 0  # how many times the listening connection was made again (tests)

    async def unposted(self, game_id: int | None = None) -> list[OutboxRow]:
        where, params = ("AND game_id=%s", (game_id,)) if game_id is not None else ("", ())
        rows = await self.conn.fetchall(
            f"SELECT game_id, seq, origin, created_at FROM outbox WHERE posted_at IS NULL {where}"
            " ORDER BY game_id, seq",
            params,
        )
        return [OutboxRow(int(r[0]), int(r[1]), str(r[2]), float(r[3])) for r in rows]

    async def mark_posted(self, game_id: int, up_to_seq: int) -> int:
        return await self.conn.execute(
            "UPDATE outbox SET posted_at=%s WHERE game_id=%s AND seq<=%s AND posted_at IS NULL",
            (self.clock(), game_id, up_to_seq),
        )

    async def prune(self, older_than: float) -> int:
        return await self.conn.execute("DELETE FROM outbox WHERE posted_at < %s", (older_than,))

    async def notices(self) -> AsyncIterator[OutboxNotice | None]:
        pause = 0.2
        first = True
        while True:
            try:
                listener = await psycopg.AsyncConnection.connect(
                    self.conn.url, autocommit=True, connect_timeout=5
                )
            except psycopg.Error as exc:
                log.warning("outbox: cannot listen on %s (%s); trying again", self.conn.path, exc)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                continue
            try:
                async with listener:
                    await listener.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        # the server came back: drop the pool's connections it left dead, so no
                        # caller meets one (each would fail once)
                        await self.conn.pool.check()
                        self.reconnects += 1
                        log.info("outbox: listening again on %s", self.conn.path)
                    first, pause = False, 0.2
                    yield None  # (re)connected: the reader catches up on what it may have missed
                    async for note in listener.notifies():
                        notice = _notice(note.payload)
                        if notice is not None:
                            yield notice
            except psycopg.Error as exc:
                log.warning(
                    "outbox: the listening connection to %s broke (%s); reconnecting", self.conn.path, exc
                )
            await asyncio.sleep(pause)
