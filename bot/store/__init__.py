"""Storage: the port (:mod:`bot.store.api`), its rows (:mod:`bot.store.rows`), each owner's
migrations (:mod:`bot.store.migrations`) and the backends (:mod:`bot.store.sqlite`, the embedded
default). The only package that speaks to a database; see docs/architecture.md, "Storage"."""

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

__all__ = [
    "ABORTED",
    "ACTIVE",
    "BROKEN",
    "LOBBY",
    "OVER",
    "ActionRow",
    "GameRow",
    "SeatRow",
    "SeqConflict",
    "StorageError",
]
