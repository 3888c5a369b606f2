"""The AI settings every game shares (rules/ai_settings.py): how long a search AI thinks per move
and which AI takes a person's seat over, chosen like any game setting and kept in the config."""

from __future__ import annotations

import json

import pytest

from rules.errors import IllegalAction
from rules.games import GAMES, find_game, game_from_json, new_game
from rules.search import PlannedSearchAI


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_game_offers_the_ai_settings_with_its_own_ai_kinds(game_name: str) -> None:
    """Registry promise: each game declares ai_think_ms (100-10000, default 1000) and
    takeover_ai (one of the game's AI kinds, default its takeover AI)."""
    spec = find_game(game_name)
    think = spec.setting("ai_think_ms")
    assert (think.kind, think.default, think.minimum, think.maximum) == ("int", 1000, 100, 10_000)
    takeover = spec.setting("takeover_ai")
    assert set(takeover.choices) == set(spec.ai_kinds) and takeover.default == spec.takeover_ai


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_thinking_time_is_bounded_and_refused_with_its_bounds(game_name: str) -> None:
    """Bad input gets a sentence naming the bounds (and the facts for other languages)."""
    spec = find_game(game_name)
    assert spec.parse_settings(["ai_think_ms=100", "takeover_ai=Search"]) == {
        "ai_think_ms": 100,
        "takeover_ai": "search",
    }
    assert spec.parse_settings(["ai_think_ms=10000"]) == {"ai_think_ms": 10_000}
    for too_far in ("99", "10001", "-5"):
        with pytest.raises(IllegalAction) as refused:
            spec.parse_settings([f"ai_think_ms={too_far}"])
        assert refused.value.code == "setting_out_of_range"
        assert refused.value.params == {"setting": "ai_think_ms", "minimum": 100, "maximum": 10_000}
        assert "from 100 to 10000" in refused.value.message
    with pytest.raises(IllegalAction) as refused:
        spec.parse_settings(["takeover_ai=grandmaster"])
    assert refused.value.code == "bad_setting"


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_search_ai_thinks_for_the_games_setting_across_a_restart(game_name: str) -> None:
    """Issue 15: the thinking budget per move is the one the game's settings choose; the game's
    saved state keeps it (a restarted bot's AI thinks as long as before)."""
    spec = find_game(game_name)
    game = new_game(
        game_name, spec.parse_settings(["ai_think_ms=250", "takeover_ai=search"]), players=2, seed=3
    )
    restored = game_from_json(json.loads(json.dumps(game.to_json())))
    ai = spec.make_ai("search", seed=1)
    assert isinstance(ai, PlannedSearchAI)
    assert ai.budget_for(game) == ai.budget_for(restored) == 0.25
    assert restored.config["takeover_ai"] == "search"
    assert ai.budget_for(new_game(game_name, {}, players=2, seed=3)) == 1.0
