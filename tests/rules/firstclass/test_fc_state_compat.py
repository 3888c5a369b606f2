"""Saved games survive the typed-state refactor: snapshots stored by earlier code load, and seeded
games replay to the same views and events (fixtures recorded from the dict-state engine)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_fixture import GAMES, ais, digest

from rules.firstclass.game import FirstClassGame

DATA = Path(__file__).parent / "data"
REPLAY = json.loads((DATA / "replay_digests.json").read_text())["games"]
LEGACY = json.loads((DATA / "legacy_snapshots.json").read_text())["snapshots"]


def _recorded(view: dict[str, Any]) -> dict[str, Any]:
    """A view as the fixtures recorded it: ``taken_card`` (the face of the last card taken, for the
    table to mark it) and ``turn_taken`` (the turn under way has its card) were added after."""
    return {k: v for k, v in view.items() if k not in ("taken_card", "turn_taken")}


def _without_item_text(view: dict[str, Any]) -> dict[str, Any]:
    """Views from before queued symbols carried a plain-English ``text`` and the deck its sources as
    facts (``deck_sources``, for wording them in any language): added keys."""
    view = json.loads(json.dumps(_recorded(view)))
    view.pop("deck_sources", None)
    for p in view["players"]:
        for item in p["pending"]:
            item.pop("text", None)
    return view


@pytest.mark.parametrize("game", REPLAY, ids=[f"seed{g['seed']}-{g['players']}p-{g['ai']}" for g in REPLAY])
def test_seeded_games_replay_to_the_recorded_views_and_events(game: dict[str, Any]) -> None:
    assert (game["seed"], game["players"], game["ai"]) in GAMES
    g = FirstClassGame.new({"open_deck": 1}, game["players"], game["seed"])
    players_ai = ais(game["seed"], game["players"], game["ai"])
    for i, step in enumerate(game["steps"]):
        seat = g.seats_to_act()[0]
        action = players_ai[seat].choose(g, seat)
        assert (seat, action.to_text()) == (step["seat"], step["action"]), f"step {i}"
        events = g.apply(seat, action)
        assert digest([_recorded(g.view(None)), _recorded(g.view(0)), events]) == step["digest"], (
            f"step {i}: {step['action']}"
        )
    assert g.is_over()


@pytest.mark.parametrize("game", REPLAY, ids=[f"seed{g['seed']}" for g in REPLAY])
def test_recorded_snapshots_load_show_the_same_views_and_save_the_same_json(game: dict[str, Any]) -> None:
    for snap in game["snapshots"]:
        g = FirstClassGame.from_json(snap["snapshot"])
        assert digest([_recorded(g.view(None)), _recorded(g.view(0))]) == snap["view"]
        assert json.loads(json.dumps(g.to_json())) == snap["snapshot"]


@pytest.mark.parametrize("snap", LEGACY, ids=[f"seed{s['seed']}-step{s['step']}" for s in LEGACY])
def test_snapshots_stored_by_the_original_engine_load(snap: dict[str, Any]) -> None:
    """Recorded from the engine before these changes (commit in the fixture): same views, same JSON."""
    g = FirstClassGame.from_json(snap["snapshot"])
    assert _without_item_text(g.view(0)) == snap["view0"]
    assert _without_item_text(g.view(None)) == snap["view_public"]
    assert json.loads(json.dumps(g.to_json())) == snap["snapshot"]
    if not g.is_over():  # and play on
        seat = g.seats_to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
