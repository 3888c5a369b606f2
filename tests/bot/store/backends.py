"""The storage backends the conformance suite runs against.

Each :class:`Backend` opens (and reopens) one database of its kind; the whole suite runs against
each unchanged. PostgreSQL runs on this test process's throwaway cluster
(:func:`bot.store.pg_cluster.shared_cluster`), one new database per test: if the cluster cannot
start, every PostgreSQL test fails with the reason (never a skip).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.store.api import Store
from bot.store.migrations import POSTGRES, SQLITE
from bot.store.pg import PgStore
from bot.store.pg_cluster import shared_cluster
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


_databases: dict[Path, str] = {}


def _postgres(where: Path) -> Opener:
    async def open_(clock: Callable[[], float], migrations: Mapping[str, Sequence[str]]) -> Store:
        if where not in _databases:
            _databases[where] = shared_cluster().create_database(f"conformance_{len(_databases)}")
        return await PgStore(_databases[where], clock, migrations=migrations, process="conformance").open()

    return open_


BACKENDS: list[Backend] = [
    Backend(
        name="sqlite",
        connect=_sqlite,
        migrations=SQLITE,
        probe=lambda owner: f"CREATE TABLE probe_{owner} (x INTEGER)",
    ),
    Backend(
        name="postgresql",
        connect=_postgres,
        migrations=POSTGRES,
        probe=lambda owner: f"CREATE TABLE probe_{owner} (x BIGINT)",
    ),
]
