"""Per-server settings of the Discord adapter (``discord_guild_settings``).

Two settings: the server's default language for new games (``/ttr language``; migration 9) and
the optional *game manager* role. Server admins (Manage Server) choose it with
``/ttr manager``; its holders may abort, kick, replace and start games of that server like the
admins (see :func:`bot.discord_app.ui.is_admin`). A role belongs to one server, and the setting
is read for the server the *game* belongs to, so a role never reaches another server's games.
"""

from __future__ import annotations

from bot.storage import Storage


class GuildSettings:
    """Reads and writes ``discord_guild_settings`` through the shared :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def manager_role(self, guild_id: int | None) -> int | None:
        """The game manager role of server ``guild_id`` (None: no such role, or no server)."""
        if guild_id is None:
            return None
        async with self.storage.db.execute(
            "SELECT manager_role_id FROM discord_guild_settings WHERE guild_id=?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None or row[0] is None else int(row[0])

    async def set_manager_role(self, guild_id: int, role_id: int | None) -> None:
        """Make ``role_id`` server ``guild_id``'s game manager role (None: no manager role)."""
        async with self.storage.transaction() as db:
            await db.execute(
                "INSERT INTO discord_guild_settings (guild_id, manager_role_id) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET manager_role_id=excluded.manager_role_id",
                (guild_id, role_id),
            )

    async def language(self, guild_id: int | None) -> str | None:
        """The language server ``guild_id`` chose for its new games (None: not chosen)."""
        if guild_id is None:
            return None
        async with self.storage.db.execute(
            "SELECT language FROM discord_guild_settings WHERE guild_id=?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None or row[0] is None else str(row[0])

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Make ``language`` (a code of ``lang.languages()``) the default of server ``guild_id``'s new games."""
        async with self.storage.transaction() as db:
            await db.execute(
                "INSERT INTO discord_guild_settings (guild_id, language) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET language=excluded.language",
                (guild_id, language),
            )
