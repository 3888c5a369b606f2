"""The Discord adapter's tables on SQLite (owner ``discord``): routes and posted messages of
games, DM hands, per-server settings and where each tournament event lives. Each call is one
round trip to the connection's thread."""

from __future__ import annotations

from collections.abc import Callable

from bot.store.rows import ACTIVE, LOBBY, OVER
from bot.store.sqlite_conn import SqliteConnection


class SqliteDiscordTables:
    """See :class:`bot.store.api.DiscordTables`."""

    def __init__(self, conn: SqliteConnection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.clock = clock

    # ---- game routes and posted messages ---------------------------------------------------
    async def set_route(
        self, game_id: int, guild_id: int | None, channel_id: int | None, thread_id: int | None = None
    ) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_routes (game_id, guild_id, channel_id, thread_id) VALUES (?,?,?,?)"
                " ON CONFLICT(game_id) DO UPDATE SET guild_id=excluded.guild_id, channel_id=excluded.channel_id,"
                " thread_id=excluded.thread_id",
                (game_id, guild_id, channel_id, thread_id),
            )
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "UPDATE discord_routes SET thread_id=? WHERE game_id=?", (thread_id, game_id)
            )
        )

    async def route(self, game_id: int) -> tuple[int | None, int | None, int | None] | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT guild_id, channel_id, thread_id FROM discord_routes WHERE game_id=?", (game_id,)
            )
        )
        return None if not rows else (rows[0][0], rows[0][1], rows[0][2])

    async def games_in_channel(self, channel_id: int) -> list[int]:
        rows = await self.conn.db.execute_fetchall(
            "SELECT g.id FROM games g JOIN discord_routes r ON r.game_id=g.id"
            " WHERE (r.thread_id=? OR r.channel_id=?) AND g.status IN (?,?,?)"
            " ORDER BY (r.thread_id=?) DESC, (g.status=?) ASC, g.id DESC",
            (channel_id, channel_id, LOBBY, ACTIVE, OVER, channel_id, OVER),
        )
        return [int(r[0]) for r in rows]

    async def record_message(
        self, game_id: int, seq: int, channel_id: int, message_id: int, kind: str = "board"
    ) -> None:
        row = (game_id, seq, channel_id, message_id, kind, self.clock())
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_messages (game_id, seq, channel_id, message_id, kind, created_at)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT(game_id, message_id) DO UPDATE SET seq=excluded.seq,"
                " channel_id=excluded.channel_id, kind=excluded.kind, created_at=excluded.created_at",
                row,
            )
        )

    async def latest_message(self, game_id: int, kind: str = "board") -> tuple[int, int, int] | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT seq, channel_id, message_id FROM discord_messages WHERE game_id=? AND kind=?"
                " ORDER BY seq DESC, created_at DESC LIMIT 1",
                (game_id, kind),
            )
        )
        return None if not rows else (int(rows[0][0]), int(rows[0][1]), int(rows[0][2]))

    # ---- hands kept in direct messages -----------------------------------------------------
    async def dm_enabled(self, player: str) -> bool:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT enabled FROM discord_dm_optin WHERE player=?", (player,)
            )
        )
        return bool(rows and rows[0][0])

    async def set_dm_enabled(self, player: str, on: bool) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_dm_optin (player, enabled) VALUES (?,?)"
                " ON CONFLICT(player) DO UPDATE SET enabled=excluded.enabled",
                (player, int(on)),
            )
        )

    async def dm_message(self, game_id: int, player: str) -> tuple[int, int] | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT channel_id, message_id FROM discord_dm_hands WHERE game_id=? AND player=?",
                (game_id, player),
            )
        )
        return None if not rows else (int(rows[0][0]), int(rows[0][1]))

    async def remember_dm(self, game_id: int, player: str, channel_id: int, message_id: int) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_dm_hands (game_id, player, channel_id, message_id) VALUES (?,?,?,?)"
                " ON CONFLICT(game_id, player) DO UPDATE SET channel_id=excluded.channel_id,"
                " message_id=excluded.message_id",
                (game_id, player, channel_id, message_id),
            )
        )

    async def forget_dm(self, game_id: int, player: str) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "DELETE FROM discord_dm_hands WHERE game_id=? AND player=?", (game_id, player)
            )
        )

    async def dm_games(self, player: str) -> list[int]:
        rows = await self.conn.db.execute_fetchall(
            "SELECT game_id FROM discord_dm_hands WHERE player=?", (player,)
        )
        return [int(r[0]) for r in rows]

    # ---- per-server settings ---------------------------------------------------------------
    async def manager_role(self, guild_id: int) -> int | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT manager_role_id FROM discord_guild_settings WHERE guild_id=?", (guild_id,)
            )
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def set_manager_role(self, guild_id: int, role_id: int | None) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_guild_settings (guild_id, manager_role_id) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET manager_role_id=excluded.manager_role_id",
                (guild_id, role_id),
            )
        )

    async def guild_language(self, guild_id: int) -> str | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT language FROM discord_guild_settings WHERE guild_id=?", (guild_id,)
            )
        )
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_guild_settings (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET language=excluded.language",
                (guild_id, language),
            )
        )

    async def event_creators(self, guild_id: int) -> str | None:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT event_creators FROM discord_guild_settings WHERE guild_id=?", (guild_id,)
            )
        )
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def set_event_creators(self, guild_id: int, who: str | None) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO discord_guild_settings (guild_id, event_creators) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET event_creators=excluded.event_creators",
                (guild_id, who),
            )
        )

    # ---- where tournament events live ------------------------------------------------------
    async def set_event_route(
        self, event_id: int, guild_id: int | None, channel_id: int | None, status_message_id: int | None
    ) -> None:
        await self.conn.write(
            lambda db: db.execute(
                "INSERT INTO tournament_discord (event_id, guild_id, channel_id, status_message_id) VALUES (?,?,?,?)"
                " ON CONFLICT(event_id) DO UPDATE SET guild_id=excluded.guild_id, channel_id=excluded.channel_id,"
                " status_message_id=excluded.status_message_id",
                (event_id, guild_id, channel_id, status_message_id),
            )
        )

    async def event_route(self, event_id: int) -> tuple[int | None, int | None, int | None]:
        rows = list(
            await self.conn.db.execute_fetchall(
                "SELECT guild_id, channel_id, status_message_id FROM tournament_discord WHERE event_id=?",
                (event_id,),
            )
        )
        return (None, None, None) if not rows else (rows[0][0], rows[0][1], rows[0][2])
