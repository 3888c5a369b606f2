"""Numbers as the reader's language writes them, through Babel's CLDR data: a decimal comma in
Italian, French and German ("83,0", "27,6 ± 8,1"), a point in English; digit groups as each
locale groups them. Sentences take the formatted number as a placeholder, so a translation
never has to reformat it."""

from __future__ import annotations

from babel.numbers import format_decimal

from lang import current, normalise


def decimal(value: float, places: int = 1, code: object | None = None) -> str:
    """``value`` with exactly ``places`` decimals in ``code``'s (default: the current) language:
    ``decimal(83.04)`` is "83.0" to an English reader and "83,0" to an Italian one."""
    pattern = "#,##0" + ("." + "0" * places if places > 0 else "")
    locale = normalise(current() if code is None else code)
    return str(format_decimal(value, format=pattern, locale=locale))


def number(value: float, code: object | None = None) -> str:
    """``value`` with as many decimals as it has, up to three ("1,5" place points, "2" for 2.0)."""
    locale = normalise(current() if code is None else code)
    return str(format_decimal(value, format="#,##0.###", locale=locale))
