"""Reading what players type: the pieces every game's action parser shares.

Only the ASCII digits 0-9 make a number (``str.isdigit`` also accepts "²" or "①", which ``int``
refuses or misreads), numbers are short, and control, format, surrogate, private-use or unassigned
characters make a text no action can be. Refusals quote the text shortened, so they stay readable.
"""

from __future__ import annotations

import unicodedata

MAX_NUMBER_DIGITS = 4
_ASCII_DIGITS = frozenset("0123456789")
_INVISIBLE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))


def shown(text: str, limit: int = 60) -> str:
    """``text`` quoted for an error message, shortened so a refusal stays readable."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else f"{quoted[:limit]}… ({len(text)} characters)"


def is_number(word: str) -> bool:
    """Whether ``word`` is written with the ASCII digits 0-9 only (and is not empty)."""
    return bool(word) and set(word) <= _ASCII_DIGITS


def invisible_character(text: str) -> str | None:
    """The first character of ``text`` that no action may hold (a control or format character …)."""
    return next((ch for ch in text if not ch.isspace() and unicodedata.category(ch) in _INVISIBLE), None)
