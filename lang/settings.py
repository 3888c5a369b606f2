"""Game settings' names and meanings in the reader's language; keys and values stay as typed."""

from __future__ import annotations

from lang import N_, _
from lang.firstclass import setting_words as first_class_setting_words

# The settings every game shares (rules/ai_settings.py), beside each game's own.
_SHARED_WORDS: dict[str, tuple[str, str]] = {
    "ai_think_ms": (N_("AI thinking time"), N_("CPU milliseconds a search AI thinks about each move")),
    "takeover_ai": (
        N_("AI that takes seats over"),
        N_("the AI that plays a person's seat after a timeout, a forfeit or a resignation"),
    ),
}


def setting_words(game_name: str, key: str, label: str, help_text: str) -> tuple[str, str]:
    """A setting's label and meaning in the reader's language (``label`` and ``help_text``, the
    registry's English, for a setting no table here knows)."""
    words = _SHARED_WORDS.get(key)
    if words is not None:
        return _(words[0]), _(words[1])
    if game_name == "first-class":
        return first_class_setting_words(key, label, help_text)
    return label, help_text
