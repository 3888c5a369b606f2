"""Golden games: seeded whole games under several configs replay byte for byte as recorded.

Pins what the engine shows at every step (legal actions of every seat, every seat's and a
spectator's view, the events, the refusals of actions that are not legal) and the exact saved JSON
and final scores at the end. Recorded by ``record_golden.py`` from the engine before its split
into modules; a refactor of the engine must not change a byte of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from record_golden import GAMES, digest, make_ais, refusals, step_record, text

from rules.firstclass.game import FirstClassGame

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden_games.json").read_text())["games"]


@pytest.mark.parametrize("game", GOLDEN, ids=[f"seed{g['seed']}-{g['players']}p-{g['ai']}" for g in GOLDEN])
def test_golden_game_replays_byte_for_byte(game: dict[str, Any]) -> None:
    spec = (game["seed"], game["players"], game["config"], game["ai"])
    assert spec in GAMES, "the fixture and the recorder's list of games differ: re-record"
    g = FirstClassGame.new(game["config"], game["players"], game["seed"])
    players = game["players"]
    start = game["start"]
    assert digest(g.to_json()) == start["json"], "the new game's saved JSON"
    assert digest([g.view(None)] + [g.view(i) for i in range(players)]) == start["views"], "the first views"
    assert digest(refusals(g)) == start["refusals"], "the refusals before the first move"
    ais = make_ais(game["seed"], players, game["ai"])
    for i, recorded in enumerate(game["steps"]):
        seat = g.seats_to_act()[0]
        action = ais[seat].choose(g, seat)
        assert (seat, action.to_text()) == (recorded["seat"], recorded["action"]), f"step {i}: the move"
        events = g.apply(seat, action)
        got = step_record(g, seat, action, events)
        for key in ("events", "views", "legal", "refusals"):
            assert got[key] == recorded[key], f"step {i} ({recorded['action']}): {key} differ"
    assert g.is_over()
    assert text(g.to_json()) == game["final_json"], "the finished game's saved JSON"
    assert text(g.final_scores()) == game["final_scores"], "the final scores"
    assert text(FirstClassGame.from_json(json.loads(game["final_json"])).to_json()) == game["final_json"]
