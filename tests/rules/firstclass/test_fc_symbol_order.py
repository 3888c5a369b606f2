"""The player chooses the order of a card's symbols and of a bonus space's symbols.

Rulebook (seed 003), "Upgrade a railroad car": "You can also upgrade the same railroad car multiple
times, provided you have the right upgrade actions to do so." Scoring Phase: "You must always take
the full bonus (everything on the space) you are entitled to before moving on to receiving the next
bonus (next bonus space), although you can choose the order in which you receive an individual
space's bonus." Every symbol of the card (or space) being answered is a legal action at once.
"""

from __future__ import annotations

from fc_helpers import act, add_card, give, player, set_board_route, started, texts

from rules.firstclass.game import FirstClassGame
from rules.firstclass.state import ScoringState


def scoring(g: FirstClassGame) -> None:
    g.s["phase"] = "scoring"
    g.s.scoring = ScoringState([0, 1], 0, [])


def test_rule_same_car_upgraded_twice_when_the_card_lists_the_higher_step_first() -> None:
    """`[12,4]` with `up(7>12); up(4>7)`: the rulebook allows `[12,12]` ("You can also upgrade the same
    railroad car multiple times, provided you have the right upgrade actions to do so")."""
    g = started(2)
    pl = player(g, 0)
    pl["trains"]["upper"] = [12, 4]
    add_card(g, "U1", "railcar", "up(7>12);up(4>7)")
    events = act(g, 0, "take U1")
    assert not [e for e in events if e["type"] == "lost"]  # the 7>12 waits for the 4>7
    assert "up upper 2" in texts(g, 0)
    act(g, 0, "up upper 2")
    assert pl["trains"]["upper"] == [12, 7]
    act(g, 0, "up upper 2")
    assert pl["trains"]["upper"] == [12, 12]
    assert g.head(0) is None and "end" in texts(g, 0)


def test_rule_card_symbols_answered_in_the_players_order() -> None:
    """`up(0>1); car(1)` with a train `[1]`: the car is added first, then the new 0 is upgraded."""
    g = started(2)
    pl = player(g, 0)
    pl["trains"] = {"upper": [1], "lower": [1]}
    add_card(g, "U2", "railcar", "up(0>1);car(1)")
    act(g, 0, "take U2")
    assert {"car upper", "car lower"} <= texts(g, 0)
    act(g, 0, "car upper", "up upper 2")
    assert pl["trains"]["upper"] == [1, 1]


def test_rule_an_answer_uses_the_least_flexible_symbol_that_allows_it() -> None:
    """`upany(1); up(4>7)` on `[4]`: upgrading the 4 uses the fixed symbol, so the upgrade of choice can
    still add a car (in the other order the player would have had the same choice)."""
    g = started(2)
    pl = player(g, 0)
    pl["trains"]["upper"] = [4]
    add_card(g, "U3", "railcar", "upany(1);up(4>7)")
    act(g, 0, "take U3", "up upper 1")
    assert pl["trains"]["upper"] == [7]
    assert "car upper" in texts(g, 0)  # the upgrade of choice is left


def test_rule_symbol_without_any_possible_target_is_lost() -> None:
    g = started(2)
    events = give(g, 0, "up(7>12)")
    assert [e["type"] for e in events] == ["lost"] and g.head(0) is None


def test_rule_bonus_space_order_free_conductors_move_after_the_new_car() -> None:
    """A bonus space `cond2(1); car(1)` with both conductors on their last car: taking the car first
    lets the upper conductor move onto it (the order within a space is the player's)."""
    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="B[cond2(1);car(1)]")
    pl["route_cards"] = ["R1"]
    set_board_route(g, "P2|P1|P3")
    pl["loco"] = 4
    pl["cond"] = {"upper": 1, "lower": 1}
    scoring(g)
    act(g, 0, "bonus 4")
    assert pl["cond"] == {"upper": 1, "lower": 1}  # held: moving now would lose the movement
    act(g, 0, "car upper")
    assert pl["cond"] == {"upper": 2, "lower": 1}
    assert g.head(0) is None


def test_rule_both_conductors_move_at_once_when_nothing_can_lengthen_a_train() -> None:
    g = started(2)
    pl = player(g, 0)
    pl["cond"] = {"upper": 1, "lower": 1}
    give(g, 0, "cond2(1);up(0>1)")
    assert pl["cond"] == {"upper": 1, "lower": 1}  # nothing left in the group adds a car: moved (lost)
    assert texts(g, 0) >= {"up upper 1", "up lower 1"}
