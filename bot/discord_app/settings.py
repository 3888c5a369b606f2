"""Per-server settings of the Discord adapter (its ``discord_guild_settings`` table).

Three settings: the server's default language for new games (``/ttr language``), the optional
*game manager* role, and who may create events (``/tournament creators``: anyone, a role, or
only admins and game managers). Server admins (Manage Server) choose it with ``/ttr manager``; its holders
may abort, kick, replace and start games of that server like the admins (see
:func:`bot.discord_app.ui.is_admin`). A role belongs to one server, and the setting is read for
the server the *game* belongs to, so a role never reaches another server's games.
"""

from __future__ import annotations

from bot.store.api import Store


class GuildSettings:
    """Reads and writes the settings through the storage port (:class:`bot.store.api.DiscordGuildSettings`)."""

    def __init__(self, storage: Store) -> None:
        self.tables = storage.discord

    async def manager_role(self, guild_id: int | None) -> int | None:
        """The game manager role of server ``guild_id`` (None: no such role, or no server)."""
        return None if guild_id is None else await self.tables.manager_role(guild_id)

    async def set_manager_role(self, guild_id: int, role_id: int | None) -> None:
        """Make ``role_id`` server ``guild_id``'s game manager role (None: no manager role)."""
        await self.tables.set_manager_role(guild_id, role_id)

    async def language(self, guild_id: int | None) -> str | None:
        """The language server ``guild_id`` chose for its new games (None: not chosen)."""
        return None if guild_id is None else await self.tables.guild_language(guild_id)

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Make ``language`` (a code of ``lang.languages()``) the default of server ``guild_id``'s new games."""
        await self.tables.set_guild_language(guild_id, language)

    async def event_creators(self, guild_id: int | None) -> str:
        """Who may create events in server ``guild_id``: ``anyone`` (the default), ``admins`` or
        ``role:<id>``."""
        chosen = None if guild_id is None else await self.tables.event_creators(guild_id)
        return chosen or "anyone"

    async def set_event_creators(self, guild_id: int, who: str) -> None:
        await self.tables.set_event_creators(guild_id, who)
