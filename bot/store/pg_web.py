"""The web pages' tables on PostgreSQL (owner ``web``): public ids and each space's switch. Each
call is one statement on a pooled connection."""

from __future__ import annotations

from collections.abc import Callable

from bot.store.pg_conn import PgConnection
from bot.store.rows import PublicRef

_COLUMNS = "kind, ref, public_id, unlisted"


def _ref(row: tuple[object, ...]) -> PublicRef:
    return PublicRef(str(row[0]), str(row[1]), str(row[2]), bool(row[3]))


class PgWebTables:
    """See :class:`bot.store.api.WebTables`."""

    def __init__(self, conn: PgConnection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.clock = clock

    async def public_id(self, kind: str, ref: str, candidate: str) -> str:
        now = self.clock()
        await self.conn.execute(
            "INSERT INTO web_public (kind, ref, public_id, unlisted, created_at) VALUES (%s,%s,%s,0,%s)"
            " ON CONFLICT(kind, ref) DO NOTHING",
            (kind, ref, candidate, now),
        )
        found = await self.existing_public_id(kind, ref)
        assert found is not None  # just written, or there before
        return found

    async def existing_public_id(self, kind: str, ref: str) -> str | None:
        rows = list(
            await self.conn.fetchall("SELECT public_id FROM web_public WHERE kind=%s AND ref=%s", (kind, ref))
        )
        return None if not rows else str(rows[0][0])

    async def public_ref(self, public_id: str) -> PublicRef | None:
        rows = list(
            await self.conn.fetchall(f"SELECT {_COLUMNS} FROM web_public WHERE public_id=%s", (public_id,))
        )
        return None if not rows else _ref(tuple(rows[0]))

    async def public_refs(self, kind: str) -> list[PublicRef]:
        rows = await self.conn.fetchall(
            f"SELECT {_COLUMNS} FROM web_public WHERE kind=%s ORDER BY created_at, public_id", (kind,)
        )
        return [_ref(tuple(r)) for r in rows]

    async def set_unlisted(self, kind: str, ref: str, unlisted: bool) -> None:
        await self.conn.execute(
            "UPDATE web_public SET unlisted=%s WHERE kind=%s AND ref=%s", (int(unlisted), kind, ref)
        )

    async def forget_public(self, kind: str, ref: str) -> None:
        await self.conn.execute("DELETE FROM web_public WHERE kind=%s AND ref=%s", (kind, ref))

    async def pages_off(self, space: str) -> bool:
        rows = list(await self.conn.fetchall("SELECT pages_off FROM web_spaces WHERE space=%s", (space,)))
        return bool(rows and rows[0][0])

    async def set_pages_off(self, space: str, off: bool) -> None:
        await self.conn.execute(
            "INSERT INTO web_spaces (space, pages_off) VALUES (%s,%s)"
            " ON CONFLICT(space) DO UPDATE SET pages_off=excluded.pages_off",
            (space, int(off)),
        )
