"""The Discord adapter's own tables: where each game lives on Discord and what was posted there.

The game service knows players and spaces only as references (``"discord:1234"``,
``"discord:guild:5678"``); the guild, channel and thread of a game and the board messages posted
per turn are Discord's business and live in the adapter's own tables, behind the storage port
(:class:`bot.store.api.DiscordRoutes`; owner ``discord`` of :mod:`bot.store.migrations`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.api import Store

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
    """The adapter's routes and posted messages, through the storage port.

    Routes are kept in memory once read: every board post needs its game's route, and only this
    store changes one (:meth:`set_route`, :meth:`set_thread`)."""

    def __init__(self, storage: Store) -> None:
        self.tables = storage.discord
        self._routes: dict[int, Route] = {}

    async def set_route(
        self, game_id: int, guild_id: int | None, channel_id: int | None, thread_id: int | None = None
    ) -> None:
        self._routes.pop(game_id, None)
        await self.tables.set_route(game_id, guild_id, channel_id, thread_id)
        self._routes[game_id] = Route(guild_id, channel_id, thread_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        self._routes.pop(game_id, None)
        await self.tables.set_thread(game_id, thread_id)

    async def route(self, game_id: int) -> Route:
        """The game's route (all None for a game created elsewhere, e.g. in the terminal)."""
        known = self._routes.get(game_id)
        if known is not None:
            return known
        stored = await self.tables.route(game_id)
        if stored is None:  # a game without a route may get one later (set_route), so it is not kept
            return Route(None, None, None)
        route = self._routes[game_id] = Route(*stored)
        return route

    async def games_in_channel(self, channel_id: int) -> list[int]:
        """Games whose thread or channel is ``channel_id``: the game's own thread first, then running
        games before finished ones, newest first (so /view scores still works after the end)."""
        return await self.tables.games_in_channel(channel_id)

    async def record_message(
        self, game_id: int, seq: int, channel_id: int, message_id: int, kind: str = "board"
    ) -> None:
        await self.tables.record_message(game_id, seq, channel_id, message_id, kind)

    async def latest_message(self, game_id: int, kind: str = "board") -> tuple[int, int, int] | None:
        """``(seq, channel_id, message_id)`` of the newest message of ``kind``."""
        return await self.tables.latest_message(game_id, kind)
