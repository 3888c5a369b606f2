"""Tests that fail rather than hang, and scoring promises a plausible mutation would break."""

from __future__ import annotations

import pytest
from fc_helpers import act, add_card, player, started

from rules.firstclass import game as fc_game
from rules.firstclass import ops as fc_ops
from rules.firstclass import scoring as fc_scoring
from rules.firstclass.ai import RandomAI
from rules.firstclass.board import Position
from rules.firstclass.game import STEP_ACTION_LIMIT, EngineLoopError, FirstClassGame
from rules.firstclass.state import ScoringState


def scoring(g: FirstClassGame) -> None:
    g.s["phase"] = "scoring"
    g.s.scoring = ScoringState([0, 1], 0, [])


def test_rule_game_end_cards_count_cards_not_symbols() -> None:
    """Rulebook, Game End: "Count up all of the matching Action cards ... you chose": a base railroad car
    card with three symbols counts once."""
    g = started(2)
    pl = player(g, 0)
    ids = [
        add_card(g, "S1", "railcar", "car(2);up(0>1);up(1>2)"),
        add_card(g, "S2", "railcar", "upany(3)", col=1),
        add_card(g, "S3", "conductor", "cond2(1);cond1(2)", col=2),
    ]
    pl["completed"] = ids
    rail = next(k for k, c in g.deck.game_end.items() if c.type == "railcar")
    cond = next(k for k, c in g.deck.game_end.items() if c.type == "conductor")
    pl["ge_cards"] = [rail, cond]
    points = g.deck.game_end[rail].points * 2 + g.deck.game_end[cond].points * 1
    assert g.game_end_points(0) == points


def test_bonus_station_paying_twice_ends_in_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """If a bonus station stopped being marked as paid (a plausible bug), `done` would never become legal
    and every playout would loop for ever: the step bound turns that into an EngineLoopError."""
    original = fc_scoring.do_bonus

    def pays_again(g: Position, seat: int, i: int) -> list[dict[str, object]]:
        events = original(g, seat, i)
        g.s["scoring"]["claimed"].remove(i)
        return events

    monkeypatch.setattr(fc_game, "do_bonus", pays_again)
    g = started(2)
    player(g, 0)["loco"] = 2
    scoring(g)
    ai = RandomAI(1)
    with pytest.raises(EngineLoopError) as exc:
        for _ in range(10 * STEP_ACTION_LIMIT):
            seat = g.seats_to_act()[0]
            g.apply(seat, ai.choose(g, seat))
    assert str(STEP_ACTION_LIMIT) in str(exc.value)


def test_symbol_loop_bound_raises_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A settling loop that never shrinks the queue raises EngineLoopError, and the action changes nothing."""
    monkeypatch.setattr(fc_ops, "remove_item", lambda g, seat, item: None)
    g = started(2)
    add_card(g, "P1", "money", "points(1)")
    before = g.to_json()
    with pytest.raises(EngineLoopError):
        act(g, 0, "take P1")
    assert g.to_json() == before
