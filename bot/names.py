"""Seat names and other words every game's presenter shares, in the reader's language.

Kept apart from :mod:`bot.present` so a game's own words (``bot/games/<game>/``) can use them while
:mod:`bot.present` finds those words through the front-end catalogue without an import cycle.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from lang import _, _p


def fold(text: str) -> str:
    """Accent- and case-insensitive key: ``"Zürich"`` and ``"zurich"`` fold alike."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().replace("ß", "ss")
    return plain.replace("–", "-").replace("—", "-").replace(" - ", "-")


AI_SEAT = re.compile(r"AI (\d+) \((\w+)\)")
PLAYED_BY_AI = " (AI)"


def ai_kind_words(kind: str) -> str:
    """An AI kind of the registry (``heuristic``…) as the reader's language names it."""
    words = {
        "heuristic": _p("ai kind", "heuristic"),
        "random": _p("ai kind", "random"),
        "search": _p("ai kind", "search"),
    }
    return words.get(kind, kind)


def seat_name_words(name: str) -> str:
    """A seat's name as stored, in the reader's language where the bot made it: an AI seat
    (``"AI 1 (heuristic)"``) and a person's seat the AI took over (``"Ann (AI)"``). The stored
    name stays English (the record); a person's own name is never changed."""
    found = AI_SEAT.fullmatch(name)
    if found:
        return _("AI {n} ({kind})", n=found[1], kind=ai_kind_words(found[2]))
    if name.endswith(PLAYED_BY_AI) and len(name) > len(PLAYED_BY_AI):
        return _("{name} (AI)", name=name.removesuffix(PLAYED_BY_AI))
    return name


def names_words(names: Sequence[str]) -> list[str]:
    """:func:`seat_name_words` of every seat."""
    return [seat_name_words(str(n)) for n in names]


def seat_count(view: Mapping[str, Any]) -> int:
    n = view.get("players_count", view.get("players"))
    if isinstance(n, list):
        return len(n)
    return int(n) if n is not None else len(view.get("names") or [])


def seat_names(view: Mapping[str, Any]) -> list[str]:
    names = view.get("names") or []
    return [
        seat_name_words(str(names[i])) if i < len(names) else _("Seat {seat}", seat=i + 1)
        for i in range(seat_count(view))
    ]
