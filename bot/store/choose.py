"""Which backend a setting names: ``CONDUCTOR_DB`` (or ``--db``) is a SQLite file, the embedded
default, or a ``postgresql://`` address (see docs/operations.md)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.store.api import Store
from bot.store.pg_conn import is_postgres_url


def make_store(where: str, clock: Callable[[], float] = time.time, *, process: str | None = None) -> Store:
    """The store for ``where``, not opened yet. ``process`` names this process in a shared
    database (default: ``CONDUCTOR_PROCESS``, else host and pid)."""
    if is_postgres_url(where):
        from bot.store.pg import PgStore

        return PgStore(where, clock, process=process)
    from bot.store.sqlite import SqliteStore

    return SqliteStore(where, clock=clock)
