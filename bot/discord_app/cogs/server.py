"""``/ttr manager|language|sync``: a server's own settings (server admins) and the command sync
(the bot's owner)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_app.cogs.base import TTR, CogBase
from bot.discord_app.cogs.lobby import LANGUAGE_CHOICES
from bot.discord_app.settings import GuildSettings
from lang import M, Msg, _, language_name, languages


class ServerCommands(CogBase):
    """``/ttr`` commands that change a server, not a game."""

    async def _server_admin(self, interaction: discord.Interaction, in_dm: Msg, not_admin: Msg) -> int | None:
        """The server's id if the user may change its settings (Manage Server); else says why, None."""
        perms = interaction.permissions
        if interaction.guild_id is None:
            await self.ui.error(interaction, in_dm)
            return None
        if not (perms.manage_guild or perms.administrator):
            await self.ui.error(interaction, not_admin)
            return None
        return interaction.guild_id

    @TTR.command(
        name="manager",
        description="Let a role abort, kick, replace and start this server's games"
        " (server admins; no role: clear)",
    )
    @app_commands.describe(role="The game manager role (leave empty to have none)")
    async def manager(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        await self.ui.defer(interaction)
        guild_id = await self._server_admin(
            interaction,
            M("The game manager role is chosen in a server, not in a direct message."),
            M("Only a server admin (Manage Server) can choose the game manager role."),
        )
        if guild_id is None:
            return
        if role is not None and role.is_default():
            await self.ui.error(
                interaction,
                M(
                    "@everyone cannot be the game manager role: every member would manage"
                    " every game. Pick or create a narrower role."
                ),
            )
            return
        await GuildSettings(self.bot.storage).set_manager_role(guild_id, None if role is None else role.id)
        if role is None:
            await self.ui.reply(
                interaction,
                "✓ "
                + _(
                    "This server has no game manager role now: a game's creator and"
                    " the server admins manage games."
                ),
            )
        else:
            await self.ui.reply(
                interaction,
                "✓ "
                + _(
                    "Members with {role} may now abort, kick, replace and start any game of this server.",
                    role=role.mention,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @TTR.command(name="language", description="The language of this server's new games (server admins)")
    @app_commands.describe(language="Language of new games' public messages and pictures")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await self.ui.defer(interaction)
        guild_id = await self._server_admin(
            interaction,
            M("A server's language is chosen in the server, not in a direct message."),
            M("Only a server admin (Manage Server) can choose the server's language."),
        )
        if guild_id is None:
            return
        if language not in languages():
            await self.ui.error(interaction, M("Conductor does not speak that language."))
            return
        await GuildSettings(self.bot.storage).set_language(guild_id, language)
        await self.ui.reply(
            interaction,
            "✓ "
            + _(
                "New games of this server speak {language} (each game can choose"
                " another with /ttr new language).",
                language=language_name(language),
            ),
        )

    @TTR.command(name="sync", description="Re-register the slash commands with Discord (bot owner)")
    async def sync(self, interaction: discord.Interaction) -> None:
        await self.ui.defer(interaction)
        try:
            owner = await self.bot.is_owner(interaction.user)
        except Exception:  # noqa: BLE001
            owner = False
        if not owner:
            await self.ui.error(interaction, M("Only the bot's owner can sync commands."))
            return
        count = await self.bot.sync_commands(force=True)
        await self.ui.reply(interaction, _("Synced {n} commands.", n=count))

    # -- helpers
