"""The web pages' tables on SQLite (owner ``web``): public ids and each space's switch. Each call
is one round trip to the connection's thread."""

from __future__ import annotations

from collections.abc import Callable

from bot.store.rows import PublicRef
from bot.store.sqlite_conn import SqliteConnection

_COLUMNS = "kind, ref, public_id, unlisted"


def _ref(row: tuple[object, ...]) -> PublicRef:
    return PublicRef(str(row[0]), str(row[1]), str(row[2]), bool(row[3]))


class SqliteWebTables:
    """See :class:`bot.store.api.WebTables`."""

    def __init__(self, conn: SqliteConnection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.clock = clock

    async def public_id(self, kind: str, ref: str, candidate: str) -> str:
        now = self.clock()
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO web_public (kind, ref, public_id, unlisted, created_at) VALUES (?,?,?,0,?)"
                " ON CONFLICT(kind, ref) DO NOTHING",
                (kind, ref, candidate, now),
            )
        )
        found = await self.existing_public_id(kind, ref)
        assert found is not None  # just written, or there before
        return found

    async def existing_public_id(self, kind: str, ref: str) -> str | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT public_id FROM web_public WHERE kind=? AND ref=?", (kind, ref)
            )
        )
        return None if not rows else str(rows[0][0])

    async def public_ref(self, public_id: str) -> PublicRef | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                f"SELECT {_COLUMNS} FROM web_public WHERE public_id=?", (public_id,)
            )
        )
        return None if not rows else _ref(tuple(rows[0]))

    async def public_refs(self, kind: str) -> list[PublicRef]:
        rows = await self.conn.db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM web_public WHERE kind=? ORDER BY created_at, public_id", (kind,)
        )
        return [_ref(tuple(r)) for r in rows]

    async def set_unlisted(self, kind: str, ref: str, unlisted: bool) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "UPDATE web_public SET unlisted=? WHERE kind=? AND ref=?", (int(unlisted), kind, ref)
            )
        )

    async def forget_public(self, kind: str, ref: str) -> None:
        await self.conn.write(
            lambda db: db.execute("DELETE FROM web_public WHERE kind=? AND ref=?", (kind, ref))
        )

    async def pages_off(self, space: str) -> bool:
        rows = list(
            await self.conn.db.execute_fetchall("SELECT pages_off FROM web_spaces WHERE space=?", (space,))
        )
        return bool(rows and rows[0][0])

    async def set_pages_off(self, space: str, off: bool) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO web_spaces (space, pages_off) VALUES (?,?)"
                " ON CONFLICT(space) DO UPDATE SET pages_off=excluded.pages_off",
                (space, int(off)),
            )
        )
