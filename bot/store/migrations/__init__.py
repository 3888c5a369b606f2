"""Each owner's tables, in its own migration list, per backend dialect.

An owner is a part of the application that keeps tables: ``core`` (games, seats, actions,
schedule, meta), ``tournament`` (events and ratings) and each front end (``discord``, ``web``). Its
module holds its lists, one per backend (``SQLITE`` and ``POSTGRES``); entry ``i`` takes that
owner's tables from version ``i`` to ``i + 1``. Never edit a released
entry: append. A backend records how far each owner has come and applies the rest, owner by
owner in :data:`OWNERS` order (an owner's tables may refer to those of an owner before it: the
Discord routes and tournament tables name core games).
"""

from __future__ import annotations

from bot.store.migrations import core, discord, tournament, web

OWNERS: tuple[str, ...] = ("core", "tournament", "discord", "web")

LEGACY_OWNERS: tuple[str, ...] = ("core", "tournament", "discord")
"""The owners whose tables the global list (:mod:`bot.store.migrations.legacy`) made: a database
upgraded from it has their first entries; an owner added since starts from 0."""

SQLITE: dict[str, list[str]] = {
    "core": core.SQLITE,
    "tournament": tournament.SQLITE,
    "discord": discord.SQLITE,
    "web": web.SQLITE,
}

POSTGRES: dict[str, list[str]] = {
    "core": core.POSTGRES,
    "tournament": tournament.POSTGRES,
    "discord": discord.POSTGRES,
    "web": web.POSTGRES,
}
