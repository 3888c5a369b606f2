"""The settings every game shares, named and explained in the reader's language; keys and values
stay as typed. (Each game's own settings are worded by its front end's words.)"""

from __future__ import annotations

from lang import N_, _

# The settings every game shares (rules/ai_settings.py, rules/takeback.py), beside each game's own.
_SHARED_WORDS: dict[str, tuple[str, str]] = {
    "ai_think_ms": (N_("AI thinking time"), N_("CPU milliseconds a search AI thinks about each move")),
    "takeover_ai": (
        N_("AI that takes seats over"),
        N_("the AI that plays a person's seat after a timeout, a forfeit or a resignation"),
    ),
    "take_backs": (
        N_("Take-backs"),
        N_("whether a player may take back their own last move while it revealed nothing hidden"),
    ),
}


def shared_setting_words(key: str) -> tuple[str, str] | None:
    """A shared setting's label and meaning in the reader's language; None for a game's own."""
    words = _SHARED_WORDS.get(key)
    return None if words is None else (_(words[0]), _(words[1]))
