"""The PostgreSQL connection pool (psycopg 3, psycopg_pool) and each owner's migrations on it.

Every statement runs in autocommit on a pooled connection unless a caller asks for a transaction
(:meth:`PgConnection.transaction`): the frequent writes are written as one statement each (see
:meth:`bot.store.pg.PgStore.commit_action`), so a move is one round trip and one implicit
transaction. A connection that broke (the server restarted) is dropped by the pool when it comes
back and a new one is made for the next caller.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TypeVar

import psycopg
from psycopg.rows import DictRow, TupleRow, dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from bot.store.migrations import OWNERS
from bot.store.rows import StorageError
from lang import M

log = logging.getLogger("conductor.storage")

Params = Sequence[object] | Mapping[str, object]
AsyncConn = psycopg.AsyncConnection[TupleRow]
T = TypeVar("T")

# One number for the migration lock: two processes starting on one new database migrate it once.
_MIGRATION_LOCK = 0x434F4E44  # "COND"


def is_postgres_url(where: str) -> bool:
    """Whether ``where`` (``CONDUCTOR_DB`` or ``--db``) names a PostgreSQL database."""
    return where.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


class PgConnection:
    """A pool of connections to one PostgreSQL database."""

    def __init__(self, url: str, *, max_size: int = 8, application_name: str = "") -> None:
        """``application_name`` names the process on every connection: the outbox's trigger
        records it as the origin of each committed move (see :mod:`bot.store.pg_outbox`)."""
        self.url = url
        self.application_name = application_name[:63]  # PostgreSQL keeps 63 bytes of it
        self.path = redacted(url)
        self._max = max_size
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[TupleRow]] | None = None

    async def open(self, timeout: float = 15.0) -> None:
        """Connect (waiting up to ``timeout`` seconds for a first connection). A server that cannot
        be reached raises StorageError naming the address and what the server said."""
        try:  # one direct attempt first: a wrong address is refused at once, with the server's words
            first = await psycopg.AsyncConnection.connect(self.url, connect_timeout=max(2, int(timeout)))
        except psycopg.Error as exc:
            raise self._cannot_open(_first_line(exc)) from exc
        await first.close()
        pool: AsyncConnectionPool[psycopg.AsyncConnection[TupleRow]] = AsyncConnectionPool(
            self.url,
            min_size=1,
            max_size=self._max,
            kwargs={"autocommit": True, "application_name": self.application_name},
            open=False,
            reconnect_timeout=60.0,
        )
        try:
            await pool.open(wait=True, timeout=timeout)
        except PoolTimeout as exc:
            await pool.close()
            raise self._cannot_open("no connection within the time allowed") from exc
        self._pool = pool

    def _cannot_open(self, why: str) -> StorageError:
        return StorageError(
            "cannot_open",
            M(
                "Cannot connect to the PostgreSQL database {path} ({error}). Check that the server runs and"
                " CONDUCTOR_DB (or --db) names it.",
                path=self.path,
                error=why,
            ),
        )

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> AsyncConnectionPool[psycopg.AsyncConnection[TupleRow]]:
        if self._pool is None:
            raise StorageError("not_open", M("The database is not open."))
        return self._pool

    # ---- statements ----------------------------------------------------------------------------
    async def _once_more_after_restart(self, work: Callable[[AsyncConn], Awaitable[T]]) -> T:
        """``work`` on a pooled connection; again on a fresh one if the server had terminated the
        first (``AdminShutdown``: a connection from before a restart of the server, which never ran
        the statement). The pool then drops every idle connection the restart left dead, so one
        restart costs no caller an error."""
        try:
            async with self.pool.connection() as conn:
                return await work(conn)
        except psycopg.errors.AdminShutdown:
            log.warning("%s: the server restarted; reconnecting", self.path)
            await self.pool.check()
        async with self.pool.connection() as conn:
            return await work(conn)

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns how many rows it touched."""

        async def work(conn: AsyncConn) -> int:
            return (await conn.execute(sql, params)).rowcount

        return await self._once_more_after_restart(work)

    async def fetchall(self, sql: str, params: Params = ()) -> list[TupleRow]:
        async def work(conn: AsyncConn) -> list[TupleRow]:
            return await (await conn.execute(sql, params)).fetchall()

        return await self._once_more_after_restart(work)

    async def fetchone(self, sql: str, params: Params = ()) -> TupleRow | None:
        async def work(conn: AsyncConn) -> TupleRow | None:
            return await (await conn.execute(sql, params)).fetchone()

        return await self._once_more_after_restart(work)

    async def fetchdicts(self, sql: str, params: Params = ()) -> list[DictRow]:
        async def work(conn: AsyncConn) -> list[DictRow]:
            async with conn.cursor(row_factory=dict_row) as cur:
                await cur.execute(sql, params)
                return await cur.fetchall()

        return await self._once_more_after_restart(work)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[psycopg.AsyncConnection[TupleRow]]:
        """One connection inside ``BEGIN`` … ``COMMIT`` (``ROLLBACK`` on any error)."""
        async with self.pool.connection() as conn, conn.transaction():
            yield conn


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


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


async def owner_versions(conn: PgConnection) -> dict[str, int]:
    """How many of each owner's migrations the database has (owners never migrated are absent)."""
    if await conn.fetchone("SELECT to_regclass('schema_owners')") == (None,):
        return {}
    return {str(r[0]): int(r[1]) for r in await conn.fetchall("SELECT owner, version FROM schema_owners")}


async def migrate(conn: PgConnection, lists: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Apply every owner's pending migrations, each step one transaction with its version record,
    all under one advisory lock so processes starting together migrate once."""
    async with conn.transaction() as db:
        await db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_owners (owner TEXT PRIMARY KEY, version BIGINT NOT NULL)"
        )
        cur = await db.execute("SELECT owner, version FROM schema_owners")
        versions = {str(r[0]): int(r[1]) for r in await cur.fetchall()}
        for owner in OWNERS:
            steps = lists[owner]
            have = versions.get(owner, 0)
            if have > len(steps):
                raise _newer(conn.path, f"{owner} {have}", f"{owner} {len(steps)}")
            for version in range(have, len(steps)):
                async with db.transaction():  # a savepoint: each step whole or not at all
                    await db.execute(steps[version].encode())
                    await db.execute(
                        "INSERT INTO schema_owners (owner, version) VALUES (%s, %s)"
                        " ON CONFLICT (owner) DO UPDATE SET version=excluded.version",
                        (owner, version + 1),
                    )
                log.info("migrated %s: %s tables to version %d", conn.path, owner, version + 1)
            versions[owner] = len(steps)
    return {owner: versions[owner] for owner in OWNERS}
