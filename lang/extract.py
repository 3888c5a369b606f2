"""Regenerate the catalog templates from the source with Babel (``python -m lang.extract``).

``conductor.pot`` holds every sentence marked in ``bot/`` and ``lang/``, every slash command's
name, description, option and choice (read from the command tree itself, so a choice built from
data is included) and the boards' data texts (``rules/ttr/maps/*/board.toml``: edition names,
the stand-in ticket deck's label, variant descriptions); ``pictures.pot`` the labels marked ``t(...)`` in ``render/``.

The committed templates are the reference the catalogs are checked against
(:func:`committed_template`), so what the tests ask of a translation does not change with the
installed Babel. A test extracts them again (:func:`template`) and fails, asking for
``python -m lang.extract``, when the source or the extraction no longer gives the committed file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import read_po, write_po
from babel.util import pathmatch

ROOT = Path(__file__).resolve().parent.parent
NAME_CONTEXT = "slash command name"
TEXT_CONTEXT = "slash command"
GAME_KIND_CONTEXT = "slash command name: the game played"
"""The context of an option named like the others but meaning which game is played (``game``
with a choice of games, on ``/ttr new`` and the tournament commands), where every other ``game``
option is a game's number: Italian "gioco" there, "partita" here."""


def name_context(name: str, has_choices: bool) -> str:
    """The context a slash command option's name is translated in."""
    return GAME_KIND_CONTEXT if name == "game" and has_choices else NAME_CONTEXT


def command_strings() -> Iterator[tuple[str, str]]:
    """``(context, text)`` of every name, description, option and choice of the bot's slash
    commands, from the real command tree (the cogs as the bot registers them)."""
    import discord
    from discord import app_commands
    from discord.ext import commands

    from bot.discord_app import choices, cogs, tournament_cog
    from bot.discord_app.game_ui import registered_game_uis
    from bot.games import catalog

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
            yield from emit(name_context(param.name, bool(param.choices)), param.name)
            yield from emit(TEXT_CONTEXT, param.description)
            if param.name != "language":  # each language is offered by its own name, never translated
                for choice in param.choices:
                    yield from emit(TEXT_CONTEXT, choice.name)

    assert catalog.BUILTIN_GAMES  # importing the list registers the games
    choices.refresh()  # the games registered now, as a bot's setup offers them
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    cog_classes: tuple[type[commands.Cog], ...] = (*cogs.COGS, tournament_cog.TournamentCog)
    for cog in cog_classes:
        for command in cog.__cog_app_commands__:
            if command.parent is None:
                yield from walk(command)
    # each game's own /play subcommands join the /play group when the bot builds it: walk them too
    for game_ui in registered_game_uis():
        for command in game_ui.play_commands(None):  # type: ignore[arg-type]  # no bot: texts only
            yield from walk(command)
    del tree


def extract_app_commands(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
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


def extract_board_texts(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extraction method: a board's data texts, as ``pgettext`` messages (``board data``)."""
    for text in board_strings(fileobj.read().decode("utf-8")):
        yield 0, "pgettext", (BOARD_CONTEXT, text), []


def _mapping(domain: str) -> tuple[list[tuple[str, str]], dict[str, dict[str, Any]]]:
    """The ``domain``'s extraction config (``lang/babel-<domain>.cfg``): Babel's method map (glob
    pattern, method) in the file's order and each pattern's options."""
    cfg = ROOT / "lang" / f"babel-{domain}.cfg"
    with cfg.open() as f:
        method_map, options_map = parse_mapping_cfg(f, filename=str(cfg))  # type: ignore[no-untyped-call]
    return list(method_map), dict(options_map)


def python_sources(domain: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each Python file the ``domain``'s template is extracted from (its path from the repository
    root, ``/``-separated), with the keywords that mark a sentence in it: Babel's default ones,
    which :func:`template` extracts with as ``pybabel extract`` does, and the config's. A file is
    read by the first pattern it matches, in directories Babel walks (not ``.*`` nor ``_*``)."""
    method_map, options_map = _mapping(domain)
    for folder, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for filename in sorted(filenames):
            path = (Path(folder) / filename).relative_to(ROOT).as_posix()
            pattern = next((p for p, _method in method_map if pathmatch(p, path)), None)
            if pattern is None or dict(method_map)[pattern] != "python":
                continue
            extra = options_map.get(pattern, {}).get("keywords") or {}
            if isinstance(extra, str):  # a Babel that leaves the option as written
                extra = parse_keywords(extra.split())
            yield path, {**DEFAULT_KEYWORDS, **extra}


def committed_template(domain: str) -> Catalog:
    """The ``domain``'s template as committed (``lang/locales/<domain>.pot``): the English
    sentences the catalogs must translate, whichever Babel is installed."""
    from lang import LOCALES_DIR

    with (LOCALES_DIR / f"{domain}.pot").open("rb") as f:
        return read_po(f, domain=domain)


def template(domain: str) -> Catalog:
    """The ``domain``'s template, extracted now from the source with Babel."""
    method_map, options_map = _mapping(domain)
    catalog = Catalog(domain=domain, project="Conductor", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS, strip_comment_tags=True
    ):
        catalog.add(
            message,
            None,
            [(filename, lineno)],
            auto_comments=comments,
            context=context,
            flags=("python-brace-format",)
            if "{" in (message if isinstance(message, str) else message[0])
            else (),
        )
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
