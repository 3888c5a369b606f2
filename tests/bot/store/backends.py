"""The storage backends the conformance suite runs against.

Each :class:`Backend` opens (and reopens) one database of its kind; a new backend (PostgreSQL)
appends its entry to :data:`BACKENDS` and the whole suite runs against it unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.store.api import Store
from bot.store.migrations import SQLITE
from bot.store.sqlite import SqliteStore

Opener = Callable[[Callable[[], float], Mapping[str, Sequence[str]]], Awaitable[Store]]


@dataclass(frozen=True)
class Backend:
    """``connect(where)`` gives an opener of one database at ``where`` (opened again with the
    same ``where``: the same data); ``migrations`` are the backend's own per-owner lists, and
    ``probe(owner)`` one more step of that owner in the backend's dialect (it changes nothing
    the port reads)."""

    name: str
    connect: Callable[[Path], Opener]
    migrations: Mapping[str, Sequence[str]]
    probe: Callable[[str], str]


def _sqlite(where: Path) -> Opener:
    async def open_(clock: Callable[[], float], migrations: Mapping[str, Sequence[str]]) -> Store:
        return await SqliteStore(where / "conformance.db", clock, migrations=migrations).open()

    return open_


BACKENDS: list[Backend] = [
    Backend(
        name="sqlite",
        connect=_sqlite,
        migrations=SQLITE,
        probe=lambda owner: f"CREATE TABLE probe_{owner} (x INTEGER)",
    ),
]
