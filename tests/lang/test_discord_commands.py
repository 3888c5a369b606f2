"""Every slash command's localisations are valid for Discord, in every language of the catalogs.

Discord refuses a whole command sync for one bad localisation: a name must match
``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and be lowercase, a description and a choice
name hold 1 to 100 characters, and two options (or two subcommands) of one command may not share
a name in any language. The payloads are built by discord.py itself, through the translator the
bot installs.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
import regex
from discord import app_commands

import lang
from bot.discord_app import cogs, tournament_cog
from bot.discord_app.translator import CatalogTranslator

NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
LOCALES = [loc for loc in discord.Locale if lang.normalise(loc) != lang.SOURCE_LANGUAGE]


async def _payloads() -> list[dict[str, Any]]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    translator = CatalogTranslator()
    out = []
    for cog in (cogs.LobbyCog, cogs.PlayCog, cogs.ViewCog, tournament_cog.TournamentCog):
        for command in cog.__cog_app_commands__:
            if command.parent is None:
                out.append(await command.get_translated_payload(tree, translator))
    return out


def _check_name(name: str, where: str, problems: list[str]) -> None:
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: bad name {name!r}")


def _walk(node: dict[str, Any], path: str, problems: list[str], seen: dict[str, set[str]]) -> None:
    for locale, name in (node.get("name_localizations") or {}).items():
        _check_name(name, f"{path} [{locale}]", problems)
    for locale, text in (node.get("description_localizations") or {}).items():
        if not 1 <= len(text) <= 100:
            problems.append(f"{path} [{locale}]: description of {len(text)} characters")
    for choice in node.get("choices") or []:
        for locale, text in (choice.get("name_localizations") or {}).items():
            if not 1 <= len(text) <= 100:
                problems.append(f"{path} choice [{locale}]: {len(text)} characters")
    options = node.get("options") or []
    for locale in {str(loc) for loc in LOCALES}:
        names = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in options]
        if len(names) != len(set(names)):
            problems.append(f"{path} [{locale}]: two options share a name: {sorted(names)}")
    for option in options:
        _walk(option, f"{path} {option['name']}", problems, seen)


@pytest.mark.asyncio
async def test_every_localisation_is_within_discords_limits() -> None:
    payloads = await _payloads()
    assert payloads
    problems: list[str] = []
    seen: dict[str, set[str]] = {}
    for payload in payloads:
        _walk(payload, "/" + payload["name"], problems, seen)
    top = {
        str(loc): [(p.get("name_localizations") or {}).get(str(loc), p["name"]) for p in payloads]
        for loc in LOCALES
    }
    for locale, names in top.items():
        if len(names) != len(set(names)):
            problems.append(f"[{locale}] two top-level commands share a name")
    assert not problems, problems[:10]


@pytest.mark.asyncio
async def test_commands_are_localised_for_italian_french_and_german() -> None:
    """Each language of the catalogs localises the commands (not only descriptions)."""
    payloads = {p["name"]: p for p in await _payloads()}
    new = next(o for o in payloads["ttr"]["options"] if o["name"] == "new")
    assert new["name_localizations"]["it"] == "nuova"
    assert new["name_localizations"]["de"] == "neu"
    assert new["description_localizations"]["fr"] == "Ouvrir une nouvelle partie dans un fil de ce salon"
    language = next(o for o in new["options"] if o["name"] == "language")
    assert {c["value"] for c in language["choices"]} == set(lang.languages())
