"""Who an interaction comes from, as the service's references (kept below :mod:`bot.discord_app.ui`
so the private-hand and game UI modules it uses can read it without an import cycle)."""

from __future__ import annotations

import discord

from bot.discord_app.store import player_ref, space_ref


def who(interaction: discord.Interaction) -> tuple[str, str | None]:
    """``(player, where)``: the service's references for the user and the server they write from."""
    return player_ref(interaction.user.id), space_ref(interaction.guild_id)
