"""Trains: adding cars, upgrades, mail cars, Locomotive tiles, conductors (rulebook pages 5-10)."""

from __future__ import annotations

import pytest
from fc_helpers import act, add_card, give, player, started, texts

from rules.errors import IllegalAction
from rules.firstclass.game import MAIL


def test_rule_two_trains_start_with_a_zero_value_car() -> None:
    g = started(3)
    for seat in range(3):
        pl = player(g, seat)
        assert pl["trains"] == {"upper": [0], "lower": [0]}
        assert pl["cond"] == {"upper": 0, "lower": 0}
        assert pl["coins"] == [1, 0, 0]
        assert pl["loco"] == 0


def test_rule_new_cars_are_added_at_the_right_end_split_between_trains() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    player(g, seat)["trains"]["upper"] = [2, 1]
    add_card(g, "T1", "railcar", "car(2)")
    act(g, seat, "take T1", "car upper", "car lower")
    assert player(g, seat)["trains"] == {"upper": [2, 1, 0], "lower": [0, 0]}


def test_rule_upgrade_one_step_at_a_time_on_the_ladder() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    pl = player(g, seat)
    pl["trains"]["upper"] = [12, 7, 4, 2, 1, 0]
    for pos, want in [(2, 12), (3, 7), (4, 4), (5, 2), (6, 1)]:
        give(g, seat, "upany(1)")
        act(g, seat, f"up upper {pos}")
        assert pl["trains"]["upper"][pos - 1] == want
    with pytest.raises(IllegalAction) as exc:
        give(g, seat, "upany(1)")
        act(g, seat, "up upper 1")
    assert "top step" in exc.value.message


def test_rule_fixed_upgrade_symbol_only_matches_its_value() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    player(g, seat)["trains"]["upper"] = [1, 0]
    add_card(g, "T1", "railcar", "up(0>1)")
    act(g, seat, "take T1")
    assert texts(g, seat) >= {"up upper 2", "up lower 1", "skip"}
    assert "up upper 1" not in texts(g, seat)
    with pytest.raises(IllegalAction) as exc:
        act(g, seat, "up upper 1")
    assert "one step" in exc.value.message


def test_rule_rulebook_upgrade_example_leftmost_zero_in_upper_train() -> None:
    # Rulebook: "You can only upgrade the leftmost one (circled)."
    g = started(2)
    seat = g.seats_to_act()[0]
    player(g, seat)["trains"]["upper"] = [2, 0, 0, 0]
    add_card(g, "T1", "railcar", "up(0>1)")
    act(g, seat, "take T1")
    with pytest.raises(IllegalAction) as exc:
        act(g, seat, "up upper 3")
    assert "leftmost" in exc.value.message and "upgrade a railroad car" in exc.value.message
    act(g, seat, "up upper 2")
    assert player(g, seat)["trains"]["upper"] == [2, 1, 0, 0]


def test_rule_never_above_the_car_to_the_left_state_unchanged() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    player(g, seat)["trains"]["lower"] = [4, 4, 2]
    give(g, seat, "upany(1)")
    before = g.to_json()
    with pytest.raises(IllegalAction) as exc:
        act(g, seat, "up lower 2")
    assert "never be worth more than the car to its left" in exc.value.message
    assert g.to_json() == before


def test_rule_rulebook_upgrade_of_choice_example_four_to_seven_in_lower_train() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    player(g, seat)["trains"]["lower"] = [7, 4, 4, 2]
    give(g, seat, "upany(1)")
    act(g, seat, "up lower 2")
    assert player(g, seat)["trains"]["lower"] == [7, 7, 4, 2]


def test_rule_upgrade_of_choice_may_instead_add_a_zero_car_and_repeat_on_same_car() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    give(g, seat, "upany(3)")
    assert "car upper" in texts(g, seat)
    act(g, seat, "up upper 1", "up upper 1", "car lower")
    assert player(g, seat)["trains"] == {"upper": [2], "lower": [0, 0]}


def test_rule_forgo_a_card_for_one_upgrade() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    add_card(g, "T1", "railcar", "car(3)")
    act(g, seat, "forgo T1")
    assert "car upper" not in texts(g, seat)  # forgoing gives an upgrade, not a car
    act(g, seat, "up lower 1")
    pl = player(g, seat)
    assert pl["trains"] == {"upper": [0], "lower": [1]}
    assert "T1" in pl["completed"]


def test_rule_partial_action_skip_a_symbol() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    add_card(g, "T1", "railcar", "car(2)")
    act(g, seat, "take T1", "car upper", "skip", "end")
    assert player(g, seat)["trains"]["upper"] == [0, 0]


def test_rule_mail_car_forced_as_sixth_car_with_its_bonus() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    pl = player(g, seat)
    pl["trains"]["lower"] = [2, 1, 1, 0]
    add_card(g, "T1", "railcar", "car(2)")
    act(g, seat, "take T1", "car lower")
    assert texts(g, seat) == {"mail 1", "mail 2", "mail 3", "mail 4"}  # no skip, no other car first
    with pytest.raises(IllegalAction):
        act(g, seat, "skip")
    pl = player(g, seat)  # a refused action restores the saved state object
    act(g, seat, "mail 1")
    assert pl["trains"]["lower"] == [2, 1, 1, 0, 0, MAIL]
    # the card's own second car is decided before the mail bonus (choose before bonuses)
    act(g, seat, "car lower")
    assert pl["trains"]["lower"][-1] == 0 and pl["loco"] == 2  # mail car 1: locomotive 2 stations
    assert pl["mails_left"] == [2, 3, 4]


def test_rule_mail_car_two_upgrades_zero_to_one_may_be_split() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    pl = player(g, seat)
    pl["trains"]["upper"] = [1, 1, 1, 0]
    give(g, seat, "car(1)")
    act(g, seat, "car upper", "mail 2", "up upper 4", "up lower 1")
    assert pl["trains"]["upper"] == [1, 1, 1, 1, 0, MAIL]
    assert pl["trains"]["lower"] == [1]
    with pytest.raises(IllegalAction) as exc:
        act(g, seat, "up upper 5")  # mail cars can never be upgraded, and nothing is pending
    assert exc.value.code == "nothing_pending"
    assert "can never be upgraded" in (g.upgrade_error(seat, "upper", 6) or "")


def test_rule_car_right_of_mail_car_compares_with_car_left_of_mail() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    player(g, seat)["trains"]["upper"] = [4, 2, 2, 1, 1, MAIL, 1]
    assert g.upgrade_error(seat, "upper", 7) is not None
    player(g, seat)["trains"]["upper"] = [4, 2, 2, 1, 2, MAIL, 1]
    assert g.upgrade_error(seat, "upper", 7) is None


def test_rule_locomotive_tile_forced_as_tenth_with_upgrades_and_no_lengthening() -> None:
    g = started(4)
    seat = g.seats_to_act()[0]
    pl = player(g, seat)
    pl["trains"]["upper"] = [7, 4, 4, 2, 1, MAIL, 1, 0]
    pl["mails_used"]["upper"] = 1
    give(g, seat, "car(1)")
    events = act(g, seat, "car upper")
    assert pl["tiles"]["upper"] == 1 and g.positions(seat, "upper") == 10
    assert any(e["type"] == "locomotive_tile" for e in events)
    # Rulebook example: the tile's 2 upgrades of choice may go to any train.
    act(g, seat, "up upper 2")
    assert g.head(seat) is not None
    player(g, seat)["trains"]["lower"] = [7, 7]
    act(g, seat, "up lower 1")
    assert pl["trains"]["upper"][1] == 7 and pl["trains"]["lower"] == [12, 7]
    assert not g.can_lengthen(seat, "upper")
    give(g, seat, "car(1)")
    assert texts(g, seat) == {"car lower", "skip"}
    with pytest.raises(IllegalAction) as exc:
        act(g, seat, "car upper")
    assert "no lengthening after the Locomotive tile" in exc.value.message


@pytest.mark.parametrize(
    ("players", "ups"), [(2, [2, 2, 2, 2]), (3, [2, 2, 2, 2, 1, 1]), (4, [2, 2, 2, 2, 1, 1, 1, 1])]
)
def test_rule_locomotive_tiles_used_by_player_count(players: int, ups: list[int]) -> None:
    g = started(players)
    used = [t.upgrades[players - 2] for t in g.deck.tiles if t.upgrades[players - 2]]
    assert used == ups
    assert [t["value"] for t in g.view(None)["tiles_left"]][0] == 5


def test_rule_conductors_both_move_k() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    pl = player(g, seat)
    pl["trains"] = {"upper": [1, 1, 0], "lower": [0]}
    add_card(g, "T1", "conductor", "cond2(2)")
    act(g, seat, "take T1")
    assert pl["cond"] == {"upper": 2, "lower": 1}  # lower stops at its last car: movement lost


def test_rule_conductor_single_symbol_splits_k() -> None:
    g = started(2)
    seat = g.seats_to_act()[0]
    pl = player(g, seat)
    pl["trains"] = {"upper": [1, 1, 0], "lower": [2, 1]}
    add_card(g, "T1", "conductor", "cond1(3)")
    act(g, seat, "take T1", "cond upper", "cond lower")
    assert texts(g, seat) >= {"cond upper", "cond lower"}
    act(g, seat, "cond lower")
    assert pl["cond"] == {"upper": 1, "lower": 2}
    give(g, seat, "cond1(1)")
    assert texts(g, seat) == {"cond upper", "skip"}


def test_rule_constantinople_20_10_5() -> None:
    g = started(4)
    got = []
    for seat in (0, 1, 2, 3):
        pl = player(g, seat)
        pl["trains"]["upper"] = [4, 4, 2, 2, 1, MAIL, 1, 1, 0]
        pl["tiles"]["upper"] = seat + 1
        pl["cond"]["upper"] = 9
        g.s["active"] = seat
        give(g, seat, "cond2(1)")
        got.append(pl["points"]["constantinople"])
        pl["pending"].clear()
    assert got == [20, 10, 5, 0]
    # a second conductor of the same player can score too, if among the first three
    g2 = started(2)
    pl = player(g2, 0)
    for t, tile in (("upper", 1), ("lower", 2)):
        pl["trains"][t] = [4, 4, 2, 2, 1, MAIL, 1, 1, 0]
        pl["tiles"][t] = tile
        pl["cond"][t] = 9
    g2.s["active"] = 0
    give(g2, 0, "cond2(1)")
    assert pl["points"]["constantinople"] == 30
