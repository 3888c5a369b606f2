"""Lists as the reader's language writes them, through Babel's CLDR list patterns: "3 red cards
and 1 locomotive", "3 carte rosse e 1 locomotiva", "3 rote Karten und 1 Lokomotive" (a comma
before the last item would read as an unfinished list in Italian, French and German)."""

from __future__ import annotations

from collections.abc import Sequence

from babel.lists import format_list

from lang import _p, current, normalise


def and_list(items: Sequence[str], code: object | None = None) -> str:
    """``items`` joined with the language's "and" before the last one, in ``code``'s (default: the
    current) language."""
    if not items:
        return ""
    return str(
        format_list(list(items), style="standard", locale=normalise(current() if code is None else code))
    )


def semicolon_list(items: Sequence[str]) -> str:
    """``items`` joined by the current language's semicolon: French sets a space before it
    ("a ; b"), Italian, German and English do not (CLDR has no pattern for it: the separator is a
    catalog entry)."""
    return _p("list separator", "; ").join(items)
