"""The Discord adapter's per-server settings: the game manager role is kept per server, survives a
restart, and clearing it leaves the server without one."""

from __future__ import annotations

from bot.discord_app.settings import GuildSettings
from bot.store.sqlite import SqliteStore


async def test_the_manager_role_is_per_server_survives_a_restart_and_can_be_cleared(db_path: str) -> None:
    async with SqliteStore(db_path) as storage:
        settings = GuildSettings(storage)
        assert await settings.manager_role(1) is None and await settings.manager_role(None) is None
        await settings.set_manager_role(1, 111)
        await settings.set_manager_role(2, 222)
        await settings.set_manager_role(1, 112)  # a new choice replaces the old one
    async with SqliteStore(db_path) as storage:
        settings = GuildSettings(storage)
        assert (await settings.manager_role(1), await settings.manager_role(2)) == (112, 222)
        await settings.set_manager_role(1, None)
        assert (await settings.manager_role(1), await settings.manager_role(2)) == (None, 222)
