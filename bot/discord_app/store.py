"""The Discord adapter's own tables: where each game lives on Discord and what was posted there.

The game service knows players and spaces only as references (``"discord:1234"``,
``"discord:guild:5678"``); the guild, channel and thread of a game and the board messages posted
per turn are Discord's business and live here (``discord_routes``, ``discord_messages``; created
by the storage migrations so that one database file keeps everything).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import ACTIVE, LOBBY, OVER, Storage

PLAYER_PREFIX = "discord:"
SPACE_PREFIX = "discord:guild:"


def player_ref(user_id: int) -> str:
    """The service's reference for a Discord user."""
    return f"{PLAYER_PREFIX}{user_id}"


def space_ref(guild_id: int | None) -> str | None:
    """The service's reference for a Discord server (None: a direct message)."""
    return None if guild_id is None else f"{SPACE_PREFIX}{guild_id}"


def user_id_of(player: str | None) -> int | None:
    """The Discord user id behind a player reference (None for other front ends' players)."""
    if player is None or not player.startswith(PLAYER_PREFIX):
        return None
    rest = player[len(PLAYER_PREFIX) :]
    return int(rest) if rest.isascii() and rest.isdigit() else None


@dataclass(frozen=True, slots=True)
class Route:
    """Where a game is played on Discord."""

    guild_id: int | None
    channel_id: int | None
    thread_id: int | None


class DiscordStore:
    """Reads and writes the adapter's tables through the shared :class:`Storage` connection.

    Routes are kept in memory once read: every board post needs its game's route, and only this
    store changes one (:meth:`set_route`, :meth:`set_thread`)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._routes: dict[int, Route] = {}

    async def set_route(
        self, game_id: int, guild_id: int | None, channel_id: int | None, thread_id: int | None = None
    ) -> None:
        self._routes.pop(game_id, None)
        await self.storage.write(
            lambda db: db.execute(
                "INSERT INTO discord_routes (game_id, guild_id, channel_id, thread_id) VALUES (?,?,?,?)"
                " ON CONFLICT(game_id) DO UPDATE SET guild_id=excluded.guild_id, channel_id=excluded.channel_id,"
                " thread_id=excluded.thread_id",
                (game_id, guild_id, channel_id, thread_id),
            )
        )
        self._routes[game_id] = Route(guild_id, channel_id, thread_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        self._routes.pop(game_id, None)
        await self.storage.write(
            lambda db: db.execute(
                "UPDATE discord_routes SET thread_id=? WHERE game_id=?", (thread_id, game_id)
            )
        )

    async def route(self, game_id: int) -> Route:
        """The game's route (all None for a game created elsewhere, e.g. in the terminal)."""
        known = self._routes.get(game_id)
        if known is not None:
            return known
        rows = list(
            await self.storage.db.execute_fetchall(
                "SELECT guild_id, channel_id, thread_id FROM discord_routes WHERE game_id=?", (game_id,)
            )
        )
        route = Route(None, None, None) if not rows else Route(rows[0][0], rows[0][1], rows[0][2])
        if rows:  # a game without a route may get one later (set_route), so only a stored one is kept
            self._routes[game_id] = route
        return route

    async def games_in_channel(self, channel_id: int) -> list[int]:
        """Games whose thread or channel is ``channel_id``: the game's own thread first, then running
        games before finished ones, newest first (so /view scores still works after the end)."""
        rows = await self.storage.db.execute_fetchall(
            "SELECT g.id FROM games g JOIN discord_routes r ON r.game_id=g.id"
            " WHERE (r.thread_id=? OR r.channel_id=?) AND g.status IN (?,?,?)"
            " ORDER BY (r.thread_id=?) DESC, (g.status=?) ASC, g.id DESC",
            (channel_id, channel_id, LOBBY, ACTIVE, OVER, channel_id, OVER),
        )
        return [int(r[0]) for r in rows]

    async def record_message(
        self, game_id: int, seq: int, channel_id: int, message_id: int, kind: str = "board"
    ) -> None:
        row = (game_id, seq, channel_id, message_id, kind, self.storage.clock())
        await self.storage.write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO discord_messages (game_id, seq, channel_id, message_id, kind, created_at)"
                " VALUES (?,?,?,?,?,?)",
                row,
            )
        )

    async def latest_message(self, game_id: int, kind: str = "board") -> tuple[int, int, int] | None:
        """``(seq, channel_id, message_id)`` of the newest message of ``kind``."""
        rows = list(
            await self.storage.db.execute_fetchall(
                "SELECT seq, channel_id, message_id FROM discord_messages WHERE game_id=? AND kind=?"
                " ORDER BY seq DESC, created_at DESC LIMIT 1",
                (game_id, kind),
            )
        )
        return None if not rows else (int(rows[0][0]), int(rows[0][1]), int(rows[0][2]))
