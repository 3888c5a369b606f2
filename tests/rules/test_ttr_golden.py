"""Behaviour pinned to the engine as it was before the split (fixtures recorded at c26a4c5):
identical views, legal actions, events and JSON for the same seed and actions on every board, and
snapshots stored by that engine load and play on unchanged."""

from __future__ import annotations

import json

import pytest
from ttr_golden import FIXTURES, continue_from, replay

GAMES = json.loads((FIXTURES / "ttr_golden_games.json").read_text(encoding="utf-8"))
SNAPSHOTS = json.loads((FIXTURES / "ttr_snapshots.json").read_text(encoding="utf-8"))


def _name(case: dict) -> str:
    kind = "heuristic" if case.get("heuristic") else "random"
    return f"{case['board']}-{case['variant'] or 'base'}-{case['players']}p-{case['seed']}-{kind}"


@pytest.mark.parametrize("case", GAMES, ids=_name)
def test_seeded_games_replay_byte_identical_views_events_and_json(case: dict) -> None:
    """Same seed and choices -> the same views (every seat and spectator), legal actions, events,
    JSON after each action and final scores as the recorded engine, checked every 25 actions (the
    trails of seats without the longest one, no longer laid out by scoring, laid out again by
    ``ttr_golden.as_recorded`` before comparing)."""
    got = replay(
        case["board"], case["variant"], case["players"], case["seed"], heuristic=bool(case.get("heuristic"))
    )
    assert got["actions"] == case["actions"]
    for i, (mine, recorded) in enumerate(zip(got["every_25"], case["every_25"], strict=True)):
        assert mine == recorded, f"first divergence within actions {i * 25 + 1}..{i * 25 + 25}"
    assert got["final"] == case["final"]
    assert got["scores"] == case["scores"]


@pytest.mark.parametrize(
    "case", SNAPSHOTS, ids=lambda c: f"{c['board']}-{c['variant'] or 'base'}-at{c['at']}"
)
def test_stored_snapshots_load_with_identical_view_and_legal_actions_and_play_on(case: dict) -> None:
    """A game saved by the old engine loads, re-serialises to the same JSON, shows the same views
    and legal actions, and plays on exactly as the old engine did."""
    seed = case["snapshot"]["seed"] * 100 + case["at"]
    got = continue_from(case["snapshot"], seed)
    assert got["roundtrip"], "to_json of a loaded snapshot must equal the stored snapshot"
    assert got["observed"] == case["observed"]
    assert got["continued"] == case["continued"]
