"""Slash commands in each person's Discord language: discord.py's translator, backed by the catalog.

Names (commands, groups, options) and texts (descriptions, choices) are looked up with their own
message contexts, so a word like "start" may be a command name in one place and a sentence in
another. Languages come from the catalog folders; a locale Conductor does not speak, or a text a
catalog lacks, is left to Discord's default (the English source).
"""

from __future__ import annotations

import hashlib

import discord
from discord import app_commands

from lang import LOCALES_DIR, SOURCE_LANGUAGE, languages, normalise, translator
from lang.extract import NAME_CONTEXT, TEXT_CONTEXT, name_context

_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class CatalogTranslator(app_commands.Translator):
    """Translates every command text for the locales whose language has a catalog."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = normalise(locale)
        if code == SOURCE_LANGUAGE:
            return None
        where = NAME_CONTEXT if context.location in _NAMES else TEXT_CONTEXT
        if context.location is app_commands.TranslationContextLocation.parameter_name:
            where = name_context(string.message, bool(getattr(context.data, "choices", None)))
        words = translator(code)
        if not words.has(string.message, where):
            return None
        return words.pgettext(where, string.message)


def catalog_fingerprint() -> str:
    """A digest of the catalogs the command localisations come from (part of the command hash,
    so a new or changed translation makes the bot sync its commands again)."""
    digest = hashlib.sha256()
    for code in languages():
        path = LOCALES_DIR / code / "LC_MESSAGES" / "conductor.po"
        if path.is_file():
            digest.update(code.encode() + path.read_bytes())
    return digest.hexdigest()
