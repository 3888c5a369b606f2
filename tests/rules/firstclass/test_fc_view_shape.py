"""First Class's view has exactly the shape its TypedDicts declare (rules/firstclass/view.py), so
code that reads a view by key is checked against what the engine really returns."""

from __future__ import annotations

import random

from rules.firstclass import view as V
from rules.games import find_game


def test_every_view_of_a_played_game_has_the_declared_keys() -> None:
    spec = find_game("first-class")
    game = spec.new(spec.config_for(), 3, 7)
    ai = spec.make_ai("random", 7)
    rng = random.Random(7)
    seen_draft = seen_scoring = False
    for _ in range(400):
        if game.is_over():
            break
        seat = rng.choice(game.seats_to_act())
        game.apply(seat, ai.choose(game, seat))
        for viewer in (None, 0, seat):
            view = game.view(viewer)
            assert set(view) == V.FirstClassView.__required_keys__
            assert view["start_tile"].keys() == V.StartTileView.__required_keys__
            for player in view["players"]:
                assert player.keys() == V.PlayerView.__required_keys__
                for train in player["trains"].values():
                    assert train.keys() == V.TrainView.__required_keys__
                for station in player["route"]:
                    assert station.keys() == V.StationView.__required_keys__
                for card in player["contracts"]:
                    assert card.keys() == V.CardView.__required_keys__
            for row in view["rows"]:
                assert row.keys() == V.RowView.__required_keys__
                for slot in row["slots"]:
                    assert slot.keys() == V.SlotView.__required_keys__
            if view["last_action"] is not None:
                assert view["last_action"].keys() == V.LastActionView.__required_keys__
            if view["draft"] is not None:
                seen_draft = True
                assert view["draft"].keys() == V.DraftView.__required_keys__
            if view["scoring"] is not None:
                seen_scoring = True
                assert view["scoring"].keys() == V.ScoringView.__required_keys__
    assert seen_draft and seen_scoring, "the playout reached a draft and a scoring phase"
