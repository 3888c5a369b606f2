"""Forced moves (rules.firstclass.auto.forced_action): a move is played for a player only when it is
the single legal move or when every way of finishing the scoring step ends in the same state."""

from __future__ import annotations

import pytest
from fc_helpers import act, add_card, player, set_board_route, started, texts

from rules.errors import IllegalAction
from rules.firstclass.auto import forced_action
from rules.firstclass.game import FirstClassGame
from rules.firstclass.state import ScoringState


def scoring(g: FirstClassGame, round_: int = 2) -> None:
    g.s["round"] = round_
    g.s["phase"] = "scoring"
    g.s.scoring = ScoringState([(g.s["start_player"] + i) % g.players for i in range(g.players)], 0, [])


def test_rule_coins_that_can_move_a_conductor_are_a_real_choice_12_vs_23() -> None:
    """The reported loss: a train scored 12 instead of 23 because `done` was played for the player
    while two coins in column 2 could still move the conductor over the 7 and the 4."""
    g = started(2)
    pl = player(g, 0)
    pl["trains"]["upper"] = [12, 7, 4]
    pl["cond"]["upper"] = 1
    pl["coins"] = [0, 2, 0]
    scoring(g)
    assert g.train_points(0, "upper") == 12
    assert forced_action(g, 0) is None  # the player is asked
    act(g, 0, "spend move upper", "spend move upper", "done")
    assert player(g, 0)["points"]["trains"] == 23


@pytest.mark.parametrize(
    ("coins", "spend"),
    [
        ([1, 0, 0], "spend car lower"),  # a coin could still add a car
        ([0, 0, 1], "spend up lower 1"),  # or upgrade one
        ([0, 1, 0], "spend move loco"),  # or move the locomotive
    ],
)
def test_rule_any_coin_that_changes_the_outcome_stops_the_autoplay(coins: list[int], spend: str) -> None:
    g = started(2)
    player(g, 0)["coins"] = coins
    scoring(g)
    assert spend in texts(g, 0)
    assert forced_action(g, 0) is None


def test_rule_single_legal_move_is_forced() -> None:
    """No coins, one bonus station reached (the board's 2 coins): receiving it is the only legal move."""
    g = started(2)
    pl = player(g, 0)
    pl["coins"] = [0, 0, 0]
    pl["loco"] = 2
    scoring(g)
    assert texts(g, 0) == {"bonus 2"}
    assert forced_action(g, 0) == g.parse_action("bonus 2")


def test_rule_bonus_order_that_changes_nothing_is_played_then_done() -> None:
    """Two bonus stations giving only points: every order ends in the same state, so both are
    received and the trains are scored without asking."""
    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="B[points(1)]|B[points(2)]")
    pl["route_cards"] = ["R1"]
    pl["loco"] = 5
    pl["coins"] = [0, 0, 0]
    set_board_route(g, "P2|P1|P3")  # no board coins: 2 coins could then be spent
    scoring(g)
    assert {a for a in texts(g, 0) if a.startswith("bonus")} == {"bonus 4", "bonus 5"}
    played = []
    while g.view(None)["scoring"] and g.view(None)["scoring"]["seat"] == 0:
        move = forced_action(g, 0)
        assert move is not None, texts(g, 0)
        played.append(move.to_text())
        g.apply(0, move)
    assert played == ["bonus 4", "bonus 5", "done"]
    assert player(g, 0)["points"]["card_points"] == 3


def test_rule_bonus_order_that_matters_is_the_players_choice() -> None:
    """A car then a conductor move differs from the move then the car (the conductor stands on the
    last car): the order is asked."""
    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="B[car(1)]|B[cond2(1)]")
    pl["route_cards"] = ["R1"]
    pl["coins"] = [0, 0, 0]
    set_board_route(g, "P2|P1|P3")
    pl["loco"] = 5
    pl["cond"] = {"upper": 1, "lower": 1}
    scoring(g)
    assert forced_action(g, 0) is None


def test_rule_done_waits_for_every_reached_bonus_station() -> None:
    """Rulebook, Scoring Phase: "You score points only after every bonus has been received." A bonus
    is declined symbol by symbol (skip), never by scoring first."""
    g = started(2)
    pl = player(g, 0)
    pl["loco"] = 2
    scoring(g)
    assert "done" not in texts(g, 0)
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "done")
    assert exc.value.code == "bonuses_waiting" and "bonus 2" in exc.value.message
    act(g, 0, "bonus 2")
    assert "done" in texts(g, 0)


def test_forced_action_is_none_for_a_seat_not_to_act_and_after_the_game() -> None:
    g = started(2)
    assert forced_action(g, 1) is None


def test_a_step_too_large_to_search_is_asked_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a search budget too small to see every line, the answer is None (ask), even where the full
    search would have found a single outcome."""
    import rules.firstclass.auto as auto

    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="B[points(1)]|B[points(2)]")
    pl["route_cards"] = ["R1"]
    pl["coins"] = [0, 0, 0]
    set_board_route(g, "P2|P1|P3")
    pl["loco"] = 5
    scoring(g)
    assert forced_action(g, 0) is not None
    monkeypatch.setattr(auto, "SEARCH_BUDGET", 2)
    assert forced_action(g, 0) is None
