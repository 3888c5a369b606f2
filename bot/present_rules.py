"""The rules in force of any game, in the reader's language, for the terminal and for Discord."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.present_firstclass import rules_words as firstclass_rules_words
from bot.present_ttr import rules_words as ttr_rules_words
from rules.errors import IllegalAction

_RULES_WORDS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "ttr": ttr_rules_words,
    "first-class": firstclass_rules_words,
}


def rules_in_words(game_name: str | None, config: dict[str, Any] | None, lines: list[str]) -> list[str]:
    """A game's rules in force in the reader's language; ``lines`` (the engine's own summary) for
    a game that has no presenter of its rules or a config its presenter cannot read."""
    words = _RULES_WORDS.get(game_name or "")
    if config is None or words is None:
        return lines
    try:
        return words(config)
    except IllegalAction:
        return lines
