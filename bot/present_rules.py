"""The rules in force of any game, and its settings, in the reader's language, for the terminal and
for Discord: the game's own words (its front end) where it has them, the engine's English else."""

from __future__ import annotations

from typing import Any

from bot.games.api import find_front_end as front_end
from lang.settings import shared_setting_words
from rules.errors import IllegalAction


def rules_in_words(game_name: str | None, config: dict[str, Any] | None, lines: list[str]) -> list[str]:
    """A game's rules in force in the reader's language; ``lines`` (the engine's own summary) for
    a game that has no words for its rules or a config its words cannot read."""
    if config is None or not game_name:
        return lines
    try:
        words = front_end(game_name).words.rules_words(config)
    except IllegalAction:
        return lines
    return lines if words is None else words


def setting_words(game_name: str, key: str, label: str, help_text: str) -> tuple[str, str]:
    """A setting's label and meaning in the reader's language (``label`` and ``help_text``, the
    registry's English, for a setting neither the shared words nor the game's words know)."""
    shared = shared_setting_words(key)
    if shared is not None:
        return shared
    words = front_end(game_name).words.setting_words(key, label, help_text)
    return words if words is not None else (label, help_text)
