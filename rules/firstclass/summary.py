"""First Class facts for front ends: seat counts and the rules summary (deck label, modules,
provisional values), read from a fresh game's public view so they always match the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def player_range(config: Mapping[str, Any]) -> tuple[int, int]:
    return MIN_PLAYERS, MAX_PLAYERS


# No rule takes a point away (every amount added to a seat's points is a count or a printed value
# of at least 0). The rules give no tight highest score; this cap is about six times the best
# score heuristic AIs reach (100-170 at two and four seats), so a scoring bug that runs away
# trips it while no real game comes near it.
LOWEST_SCORE, HIGHEST_SCORE = 0, 1000


def score_bounds(config: Mapping[str, Any], players: int) -> tuple[int, int]:
    """The lowest and highest final score a seat can have (the same for every config)."""
    return LOWEST_SCORE, HIGHEST_SCORE


def rules_summary(config: Mapping[str, Any]) -> list[str]:
    from rules.firstclass.game import FirstClassGame

    view = FirstClassGame.new(dict(config), MIN_PLAYERS, 0).view(None)
    lines = [f"First Class, {MIN_PLAYERS}-{MAX_PLAYERS} players"]
    if view.get("modules"):
        lines.append("Modules: " + ", ".join(map(str, view["modules"])))
    if view.get("deck_label"):
        lines.append(f"⚠ Deck: {view['deck_label']}")
    lines.append("Settings in force: " + ", ".join(_in_force(config)))
    if view.get("provisional"):
        lines.append("⚠ Provisional values: " + "; ".join(map(str, view["provisional"])))
    return lines


def _in_force(config: Mapping[str, Any]) -> list[str]:
    """``key=value`` for every rules setting, marked where it differs from the documented default."""
    from rules.firstclass.settings import SETTINGS, resolve_config
    from rules.settings import show_setting_value

    cfg = resolve_config(dict(config))
    return [
        f"{s.key}={show_setting_value(cfg[s.key])}" + ("" if cfg[s.key] == s.default else " (changed)")
        for s in SETTINGS
    ]


def public_scores(detail: Mapping[str, Any]) -> list[int]:
    """Every seat's score so far."""
    return [int(p["score"]) for p in detail["players"]]


def private_part(detail: Mapping[str, Any]) -> Any:
    """The viewer's Game End cards and, while drafting, the draft hand."""
    viewer = detail.get("viewer")
    if not isinstance(viewer, int):
        return None
    draft = detail.get("draft") or {}
    return {
        "game_end_cards": detail["players"][viewer].get("game_end_cards"),
        "draft_hand": draft.get("hand") if draft.get("seat") == viewer else None,
    }


def secret_tokens(detail: Mapping[str, Any]) -> set[str]:
    """The ids of the viewer's Game End cards (face down until the end)."""
    part = private_part(detail) or {}
    return {str(c["id"]) for c in part.get("game_end_cards") or [] if isinstance(c, dict) and "id" in c}
