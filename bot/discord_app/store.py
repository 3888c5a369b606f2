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
    rest = player[len(PLAYER_PREFIX):]
    return int(rest) if rest.isascii() and rest.isdigit() else None


@dataclass(frozen=True, slots=True)
class Route:
    """Where a game is played on Discord."""

    guild_id: int | None
    channel_id: int | None
    thread_id: int | None


class DiscordStore:
    """Reads and writes the adapter's tables through the shared :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def set_route(self, game_id: int, guild_id: int | None, channel_id: int | None,
                        thread_id: int | None = None) -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "INSERT INTO discord_routes (game_id, guild_id, channel_id, thread_id) VALUES (?,?,?,?)"
                " ON CONFLICT(game_id) DO UPDATE SET guild_id=excluded.guild_id, channel_id=excluded.channel_id,"
                " thread_id=excluded.thread_id",
                (game_id, guild_id, channel_id, thread_id),
            )

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        async with self.storage.transaction() as db:
            await db.execute("UPDATE discord_routes SET thread_id=? WHERE game_id=?", (thread_id, game_id))

    async def route(self, game_id: int) -> Route:
        """The game's route (all None for a game created elsewhere, e.g. in the terminal)."""
        async with self.storage.db.execute(
            "SELECT guild_id, channel_id, thread_id FROM discord_routes WHERE game_id=?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return Route(None, None, None) if row is None else Route(row[0], row[1], row[2])

    async def games_in_channel(self, channel_id: int) -> list[int]:
        """Games whose thread or channel is ``channel_id``: the game's own thread first, then running
        games before finished ones, newest first (so /view scores still works after the end)."""
        async with self.storage.db.execute(
            "SELECT g.id FROM games g JOIN discord_routes r ON r.game_id=g.id"
            " WHERE (r.thread_id=? OR r.channel_id=?) AND g.status IN (?,?,?)"
            " ORDER BY (r.thread_id=?) DESC, (g.status=?) ASC, g.id DESC",
            (channel_id, channel_id, LOBBY, ACTIVE, OVER, channel_id, OVER),
        ) as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def record_message(self, game_id: int, seq: int, channel_id: int, message_id: int,
                             kind: str = "board") -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO discord_messages (game_id, seq, channel_id, message_id, kind, created_at)"
                " VALUES (?,?,?,?,?,?)",
                (game_id, seq, channel_id, message_id, kind, self.storage.clock()),
            )

    async def latest_message(self, game_id: int, kind: str = "board") -> tuple[int, int, int] | None:
        """``(seq, channel_id, message_id)`` of the newest message of ``kind``."""
        async with self.storage.db.execute(
            "SELECT seq, channel_id, message_id FROM discord_messages WHERE game_id=? AND kind=?"
            " ORDER BY seq DESC, created_at DESC LIMIT 1",
            (game_id, kind),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))
