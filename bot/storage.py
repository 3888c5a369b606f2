"""Compatibility names for code written before the storage port (:mod:`bot.store`); new code
imports from :mod:`bot.store.rows`, :mod:`bot.store.api` and :mod:`bot.store.sqlite`."""

from __future__ import annotations

from bot.store.rows import (
    ABORTED,
    ACTIVE,
    BROKEN,
    LOBBY,
    OVER,
    ActionRow,
    GameRow,
    SeatRow,
    SeqConflict,
    StorageError,
)
from bot.store.sqlite import DEFAULT_DB, SqliteStore, backup_file, db_path_from_env
from bot.store.sqlite_migrate import SCHEMA_VERSION

Storage = SqliteStore
backup_sync = backup_file

__all__ = [
    "ABORTED",
    "ACTIVE",
    "BROKEN",
    "DEFAULT_DB",
    "LOBBY",
    "OVER",
    "SCHEMA_VERSION",
    "ActionRow",
    "GameRow",
    "SeatRow",
    "SeqConflict",
    "Storage",
    "StorageError",
    "backup_sync",
    "db_path_from_env",
]
