"""Seat names and other words every game's presenter shares, in the reader's language.

Kept apart from :mod:`bot.present` so a game's own words (``bot/games/<game>/``) can use them while
:mod:`bot.present` finds those words through the front-end catalogue without an import cycle.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
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


#: How the current front end writes a name into its text so that it shows as typed (Discord:
#: markdown escaped, so ``__dan__`` is not underlined; None: as it is). Set once by a front end
#: for everything it runs (:func:`names_written`); pictures are drawn with names as they are.
_NAME_MARKUP: ContextVar[Callable[[str], str] | None] = ContextVar("name_markup", default=None)


def names_written(markup: Callable[[str], str] | None) -> None:
    """From here on (this task and the tasks it starts), every name put in text by
    :func:`seat_name_words` is written with ``markup`` (None: as it is)."""
    _NAME_MARKUP.set(markup)


@contextlib.contextmanager
def plain_names() -> Iterator[None]:
    """Names as they are inside the block: for pictures, and for text that is escaped whole later."""
    token = _NAME_MARKUP.set(None)
    try:
        yield
    finally:
        _NAME_MARKUP.reset(token)


def seat_name_words(name: str) -> str:
    """A seat's name as stored, in the reader's language where the bot made it: an AI seat
    (``"AI 1 (heuristic)"``) and a person's seat the AI took over (``"Ann (AI)"``). The stored
    name stays English (the record); a person's own name is never changed, only written the
    current front end's way (:func:`names_written`): the one place a seat's name enters text."""
    markup = _NAME_MARKUP.get()
    found = AI_SEAT.fullmatch(name)
    if found:
        return _("AI {n} ({kind})", n=found[1], kind=ai_kind_words(found[2]))
    if name.endswith(PLAYED_BY_AI) and len(name) > len(PLAYED_BY_AI):
        person = name.removesuffix(PLAYED_BY_AI)
        return _("{name} (AI)", name=markup(person) if markup is not None else person)
    return markup(name) if markup is not None else name


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
