"""The settings every game shares about its AI seats, declared once for every game's registry entry.

``ai_think_ms`` is how long a search AI thinks per move (CPU milliseconds; the search reads it
from the game's config, :data:`rules.search.THINK_SETTING`) and ``takeover_ai`` which AI plays a
person's seat when the bot takes it over (the service reads it, ahead of the server's choice).
They live in the game's config like the game's own settings, so a table chooses them at creation
and a restart or a replay keeps them; no rule reads them.
"""

from __future__ import annotations

from rules.search import DEFAULT_THINK_SECONDS, THINK_SETTING
from rules.settings import SettingSpec

TAKEOVER_SETTING = "takeover_ai"
# From a tenth of a second (below it the search barely plays a deal) to ten seconds: past that a
# table of several search AIs keeps its players waiting minutes a round on a shared machine.
THINK_MS_MIN = 100
THINK_MS_MAX = 10_000
AI_SETTING_KEYS = frozenset({THINK_SETTING, TAKEOVER_SETTING})


def ai_setting_specs(
    ai_kinds: tuple[str, ...], takeover_default: str = "heuristic"
) -> tuple[SettingSpec, ...]:
    """The two AI settings of a game whose AIs are ``ai_kinds``."""
    return (
        SettingSpec(
            THINK_SETTING,
            "AI thinking time",
            "int",
            int(DEFAULT_THINK_SECONDS * 1000),
            (),
            "CPU milliseconds a search AI thinks about each move",
            minimum=THINK_MS_MIN,
            maximum=THINK_MS_MAX,
        ),
        SettingSpec(
            TAKEOVER_SETTING,
            "AI that takes seats over",
            "choice",
            takeover_default,
            ai_kinds,
            "the AI that plays a person's seat after a timeout, a forfeit or a resignation",
        ),
    )
