"""One SQLite connection (aiosqlite, WAL mode) and the two ways work reaches it.

Every call into aiosqlite is a round trip from the event loop to the connection's own thread and
back. The frequent reads and writes therefore run as one plain function on that thread
(:meth:`SqliteConnection.run`, and :meth:`SqliteConnection.write` for a whole ``BEGIN IMMEDIATE``
transaction): a move is one round trip, not one per statement, fetch and cursor.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.store.rows import StorageError
from lang import M

T = TypeVar("T")


def open_failure(path: str, exc: OSError | sqlite3.Error) -> StorageError:
    """Why ``path`` cannot be used as the database and what to do about it (SQLite only says
    "unable to open database file")."""
    where, message = Path(path), str(exc)
    folder = str(where.parent)
    if where.parent.exists() and not where.parent.is_dir():
        return StorageError(
            "folder_is_a_file",
            M(
                "Cannot open the database {path}: {folder} is a file, not a folder; move it, or set CONDUCTOR_DB"
                " (or pass --db) to a file in a folder this user can write.",
                path=path,
                folder=folder,
            ),
        )
    if isinstance(exc, OSError):
        return StorageError(
            "cannot_create_folder",
            M(
                "Cannot create the folder {folder} for the database {path} ({error}): create it, or set CONDUCTOR_DB"
                " (or pass --db) to a file in a folder this user can write.",
                folder=folder,
                path=path,
                error=exc.strerror or message,
            ),
        )
    if where.is_dir():
        return StorageError(
            "database_is_a_folder",
            M(
                "Cannot open the database {path}: it is a folder, not a file; set CONDUCTOR_DB (or pass --db) to a"
                " file in a folder this user can write.",
                path=path,
            ),
        )
    if "readonly" in message or "unable to open" in message:
        return StorageError(
            "cannot_write",
            M(
                "Cannot write the database {path}: SQLite must write it and, in {folder}, its -wal and -shm files"
                " next to it ({error}). Make them writable by this user, or set CONDUCTOR_DB (or pass --db) to a"
                " file in a folder this user can write.",
                path=path,
                folder=folder,
                error=message,
            ),
        )
    if "not a database" in message:
        return StorageError(
            "not_a_database",
            M(
                "Cannot open the database {path} (SQLite: {error}). If that file is not Conductor's database, set"
                " CONDUCTOR_DB (or pass --db) to the right one.",
                path=path,
                error=message,
            ),
        )
    return StorageError(
        "cannot_open", M("Cannot open the database {path} (SQLite: {error}).", path=path, error=message)
    )


class SqliteConnection:
    """One aiosqlite connection; writes are serialised by an asyncio lock and explicit transactions."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    async def open(self) -> None:
        """Connect and switch to WAL. A location that cannot be opened or written raises
        StorageError naming the path and the fix."""
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise open_failure(self.path, exc) from exc
        connection = aiosqlite.connect(self.path, isolation_level=None)
        try:
            self._db = await connection
        except sqlite3.Error as exc:
            # aiosqlite stops its worker thread without waiting for it (omnilib/aiosqlite#387); unless
            # it is joined here, it prints "Event loop is closed" after a CLI command's loop ends.
            worker = getattr(connection, "_thread", None)
            if worker is not None:
                await asyncio.to_thread(worker.join, 5.0)
            raise open_failure(self.path, exc) from exc
        try:
            self._db.row_factory = sqlite3.Row
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.Error as exc:
            await self.close()
            raise open_failure(self.path, exc) from exc

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("not_open", M("The database is not open."))
        return self._db

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the connection's own thread: one round trip however many
        statements it runs (reads; a write goes through :meth:`write`)."""
        db = self.db
        return await db._execute(work, db._conn)  # type: ignore[no-any-return,no-untyped-call]  # noqa: SLF001

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` inside ``BEGIN IMMEDIATE`` … ``COMMIT`` on the connection's thread, in
        one round trip; ``ROLLBACK`` if it (or the commit) raises. Serialised with every other write."""

        def transact(db: sqlite3.Connection) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return result

        async with self._write_lock:
            return await self.run(transact)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any error), one at a time."""
        async with self._write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            else:
                await self.db.execute("COMMIT")
