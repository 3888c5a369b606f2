"""Ticket to Ride's view has exactly the shape its TypedDicts declare (rules/ttr/view.py), on
every board (a journey only on boards with passengers), so code that reads a view by key is
checked against what the engine really returns."""

from __future__ import annotations

import random

import pytest

from rules.games import find_game
from rules.ttr import view as V
from rules.ttr.board import load_board


@pytest.mark.parametrize("board", ["usa", "europe", "switzerland", "germany"])
def test_every_view_of_a_played_game_has_the_declared_keys(board: str) -> None:
    spec = find_game("ttr")
    game = spec.new(spec.config_for(board=board), 3, 11)
    ai = spec.make_ai("random", 11)
    rng = random.Random(11)
    passengers = load_board(board).spec.passengers > 0
    seen_offer = False
    for _ in range(3000):
        seat = rng.choice(game.seats_to_act())
        game.apply(seat, ai.choose(game, seat))
        for viewer in (None, seat):
            view = game.view(viewer)
            # journey is the one NotRequired key (the runtime class cannot tell under postponed
            # annotations): on boards with passengers only.
            expected = set(V.TTRView.__annotations__) - (set() if passengers else {"journey"})
            assert set(view) == expected
            for row in view["seats"]:
                assert row.keys() == V.SeatView.__required_keys__
            you = view["you"]
            assert (you is None) == (viewer is None)
            if you is not None:
                assert you.keys() == V.YouView.__required_keys__
                seen_offer = seen_offer or you["offer"] is not None
            if view["tunnel"] is not None:
                assert view["tunnel"].keys() == V.TunnelView.__required_keys__
            journey = view.get("journey")
            if journey is not None:
                assert journey.keys() == V.JourneyView.__required_keys__
        if game.is_over():
            break
    assert game.is_over() and seen_offer
