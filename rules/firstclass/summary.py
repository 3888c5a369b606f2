"""First Class facts for front ends: seat counts and the rules summary (deck label, modules,
provisional values), read from a fresh game's public view so they always match the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def player_range(config: Mapping[str, Any]) -> tuple[int, int]:
    return MIN_PLAYERS, MAX_PLAYERS


def rules_summary(config: Mapping[str, Any]) -> list[str]:
    from rules.firstclass.game import FirstClassGame

    view = FirstClassGame.new(dict(config), MIN_PLAYERS, 0).view(None)
    lines = [f"First Class, {MIN_PLAYERS}-{MAX_PLAYERS} players"]
    if view.get("modules"):
        lines.append("Modules: " + ", ".join(map(str, view["modules"])))
    if view.get("deck_label"):
        lines.append(f"⚠ Deck: {view['deck_label']}")
    if view.get("provisional"):
        lines.append("⚠ Provisional values: " + "; ".join(map(str, view["provisional"])))
    return lines
