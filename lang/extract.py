"""Regenerate the catalog templates from the source with Babel (``python -m lang.extract``).

``conductor.pot`` holds every sentence marked in ``bot/`` and ``lang/``, every slash command's
name, description, option and choice (read from the command tree itself, so a choice built from
data is included) and the boards' data texts (``rules/ttr/maps/*/board.toml``: edition names,
the stand-in ticket deck's label, variant descriptions); ``pictures.pot`` the labels marked ``t(...)`` in ``render/``. The catalog test
builds the same templates in memory and fails on any entry a language lacks.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
NAME_CONTEXT = "slash command name"
TEXT_CONTEXT = "slash command"


def command_strings() -> Iterator[tuple[str, str]]:
    """``(context, text)`` of every name, description, option and choice of the bot's slash
    commands, from the real command tree (the cogs as the bot registers them)."""
    import discord
    from discord import app_commands

    from bot.discord_app import cogs, tournament_cog

    seen: set[tuple[str, str]] = set()

    def emit(context: str, text: str) -> Iterator[tuple[str, str]]:
        if text and (context, text) not in seen:
            seen.add((context, text))
            yield context, text

    def walk(command: Any) -> Iterator[tuple[str, str]]:
        yield from emit(NAME_CONTEXT, command.name)
        yield from emit(TEXT_CONTEXT, command.description)
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                yield from walk(sub)
            return
        for param in command.parameters:
            yield from emit(NAME_CONTEXT, param.name)
            yield from emit(TEXT_CONTEXT, param.description)
            if param.name != "language":  # each language is offered by its own name, never translated
                for choice in param.choices:
                    yield from emit(TEXT_CONTEXT, choice.name)

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    for module in (cogs, tournament_cog):
        for value in vars(module).values():
            if isinstance(value, type) and hasattr(value, "__cog_app_commands__") and value.__module__ == module.__name__:
                for command in value.__cog_app_commands__:
                    if command.parent is None:
                        yield from walk(command)
    del tree


def extract_app_commands(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                         options: Any) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extraction method: the slash command texts, as ``pgettext`` messages."""
    for context, text in command_strings():
        yield 0, "pgettext", (context, text), []


BOARD_CONTEXT = "board data"
"""The context of the boards' data texts (``rules/ttr/maps/*/board.toml``) in the catalog."""


def board_strings(text: str) -> Iterator[str]:
    """The sentences a board's ``board.toml`` shows to people: its edition's name, the stand-in
    ticket deck's label and each variant's description (city and board names stay as printed)."""
    import tomllib

    data = tomllib.loads(text)
    for key in ("edition", "ticket_deck_label"):
        if isinstance(data.get(key), str) and data[key].strip():
            yield data[key]
    for variant in (data.get("variants") or {}).values():
        if isinstance(variant, dict) and isinstance(variant.get("description"), str):
            yield variant["description"]


def extract_board_texts(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                        options: Any) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extraction method: a board's data texts, as ``pgettext`` messages (``board data``)."""
    for text in board_strings(fileobj.read().decode("utf-8")):
        yield 0, "pgettext", (BOARD_CONTEXT, text), []


def template(domain: str) -> Catalog:
    """The ``domain``'s template, extracted now from the source with Babel."""
    cfg = ROOT / "lang" / f"babel-{domain}.cfg"
    with cfg.open() as f:
        method_map, options_map = parse_mapping_cfg(f, filename=str(cfg))  # type: ignore[no-untyped-call]
    catalog = Catalog(domain=domain, project="Conductor", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS, strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context,
                    flags=("python-brace-format",) if "{" in (message if isinstance(message, str) else message[0])
                    else ())
    return catalog


def main() -> int:
    from lang import DOMAINS, LOCALES_DIR

    for domain in DOMAINS:
        catalog = template(domain)
        with (LOCALES_DIR / f"{domain}.pot").open("wb") as f:
            write_po(f, catalog, width=100, sort_output=False)
        print(f"{domain}: {len(catalog)} messages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
