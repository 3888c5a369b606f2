"""The locomotive route, route cards, coins and Game End cards (rulebook pages 8-12)."""

from __future__ import annotations

import pytest
from fc_helpers import act, add_card, give, player, started, texts

from rules.errors import IllegalAction


def test_rule_locomotive_points_stations_score_once_immediately() -> None:
    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="P4|P6")
    act(g, 0, "take R1", "end")
    route = g.route(0)
    assert [s.to_text() for s in route][-2:] == [
        "P4",
        "P6",
    ]  # route cards go to the left end, in travel order
    g.s["active"] = 0
    g.s["taken"] = False
    add_card(g, "L1", "locomotive", "loco(4)", col=1)
    act(g, 0, "take L1")
    board = [s for s in route[:3] if s.kind == "P"]
    assert pl is player(g, 0) and pl["loco"] == 4
    assert pl["points"]["route_stations"] == sum(s.points for s in board) + 4
    give(g, 0, "loco(1)")
    assert pl["points"]["route_stations"] == sum(s.points for s in board) + 4 + 6
    events = give(g, 0, "loco(2)")
    assert pl["loco"] == 5 and "end of the route" in events[0]["text"]  # unused movement is lost
    assert pl["points"]["route_stations"] == sum(s.points for s in board) + 10  # never scored twice


def test_rule_route_cards_are_added_to_the_left_in_order_and_hold_one_to_four_stations() -> None:
    g = started(2)
    add_card(g, "R1", "route", stations="P1", col=0)
    add_card(g, "R2", "route", stations="B[coin(1)]|P2", col=1)
    act(g, 0, "take R1", "end")
    g.s["active"] = 0
    g.s["taken"] = False
    act(g, 0, "take R2")
    assert player(g, 0)["route_cards"] == ["R1", "R2"]
    assert [s.to_text() for s in g.route(0)][3:] == ["P1", "B[coin(1)]", "P2"]
    assert "R1" not in player(g, 0)["completed"]  # route cards go on the board, not the face-down pile


def test_rule_bonus_station_becomes_active_when_reached() -> None:
    g = started(2)
    give(g, 0, "loco(2)")
    view = g.view(None)["players"][0]
    assert view["locomotive"] == 2 and view["route"][1]["kind"] == "B"


def test_rule_coins_placed_lowest_leftmost_in_columns_of_5_5_2() -> None:
    g = started(2)
    pl = player(g, 0)
    give(g, 0, "coin(3)")
    assert pl["coins"] == [4, 0, 0]
    give(g, 0, "coin(3)")
    assert pl["coins"] == [5, 2, 0]
    give(g, 0, "coin(4)")
    assert pl["coins"] == [5, 5, 1]
    pl["coins"] = [3, 5, 0]  # a spent coin leaves a gap in column 1, filled first
    give(g, 0, "coin(1)")
    assert pl["coins"] == [4, 5, 0]


def test_rule_coins_must_fit_all_at_once_or_make_room_first() -> None:
    g = started(2)
    pl = player(g, 0)
    pl["coins"] = [5, 5, 1]
    add_card(g, "M1", "money", "coin(3)", set_="O")
    act(g, 0, "take M1")
    assert pl["coins"] == [5, 5, 1]  # 3 coins do not fit into 1 space: nothing placed yet
    options = texts(g, 0)
    assert "skip" in options and "spend point 1" in options and "end" not in options
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "end")
    assert exc.value.code == "coins_do_not_fit" and "How to Place Coins" in exc.value.message
    pl = player(g, 0)
    act(g, 0, "spend point 1", "spend car upper")
    pl = player(g, 0)
    # two coins spent made room, so the 3 coins arrive at once: 2 in column 1, 1 in column 3
    assert pl["coins"] == [5, 5, 2] and pl["points"]["coin_points"] == 1 and pl["trains"]["upper"] == [0, 0]
    assert g.head(0) is None
    act(g, 0, "end")


def test_rule_five_ways_to_spend_coins() -> None:
    g = started(2)
    pl = player(g, 0)
    pl["coins"] = [2, 3, 2]
    pl["trains"]["upper"] = [1, 0]
    act(g, 0, "spend car lower")
    assert pl["trains"]["lower"] == [0, 0] and pl["coins"] == [1, 3, 2]
    act(g, 0, "spend move upper", "spend move loco")
    assert pl["cond"]["upper"] == 1 and pl["loco"] == 1 and pl["coins"] == [1, 1, 2]
    act(g, 0, "spend up upper 2")
    assert pl["trains"]["upper"] == [1, 1] and pl["coins"] == [1, 1, 1]
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "spend up upper 2")
    assert "left" in exc.value.message
    pl = player(g, 0)
    act(g, 0, "spend point 3")
    assert pl["coins"] == [1, 1, 0] and pl["points"]["coin_points"] == 1
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "spend up lower 1")
    assert "column 3" in exc.value.message
    pl = player(g, 0)
    pl["coins"] = [3, 1, 0]
    gid = g.s["ge_display"][0]
    bonus = g.deck.game_end[gid].bonus
    act(g, 0, f"buy {gid} 1 1 1 2")
    assert pl["coins"] == [0, 0, 0] and gid in pl["ge_cards"] and gid not in g.s["ge_display"]
    assert len(g.s["ge_display"]) == 3  # refilled only at the end of the turn
    assert bonus  # one-time bonus queued or carried out
    while g.head(0) is not None:
        act(g, 0, sorted(texts(g, 0))[0])
    add_card(g, "T1", "railcar", "car(1)", col=5)
    act(g, 0, "take T1", "car upper", "end")
    assert len(g.s["ge_display"]) == 4


def test_rule_buying_a_game_end_card_needs_four_coins_from_the_named_columns() -> None:
    g = started(2)
    pl = player(g, 0)
    pl["coins"] = [3, 0, 0]
    gid = g.s["ge_display"][0]
    assert not any(a.startswith("buy") for a in texts(g, 0))
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, f"buy {gid} 1 1 1 1")
    assert "4 coins" in exc.value.message


def test_rule_game_end_symbol_takes_a_face_up_card_with_its_bonus() -> None:
    g = started(2)
    add_card(g, "G", "game_end", "ge(1)", set_="O")
    act(g, 0, "take G")
    assert {a.split()[0] for a in texts(g, 0)} == {"ge", "skip"}
    gid = g.s["ge_display"][2]
    act(g, 0, f"ge {gid}")
    assert gid in player(g, 0)["ge_cards"]


def test_rule_coins_are_spent_only_on_your_turn() -> None:
    g = started(2)
    player(g, 1)["coins"] = [3, 0, 0]
    with pytest.raises(IllegalAction) as exc:
        act(g, 1, "spend point 1")
    assert exc.value.code == "not_your_turn"


def test_rule_coins_not_spent_in_the_middle_of_a_card() -> None:
    g = started(2)
    add_card(g, "T1", "railcar", "car(2)")
    act(g, 0, "take T1")
    assert not any(a.startswith("spend") for a in texts(g, 0))
    with pytest.raises(IllegalAction):
        act(g, 0, "spend point 1")


def test_rule_buying_a_game_end_card_makes_room_for_coins() -> None:
    g = started(2)
    player(g, 0)["coins"] = [5, 5, 2]
    add_card(g, "M1", "money", "coin(4)", set_="O")
    act(g, 0, "take M1")
    gid = g.s["ge_display"][0]
    assert f"buy {gid} 1 1 1 1" in texts(g, 0)
    act(g, 0, f"buy {gid} 1 1 1 1")
    pl = player(g, 0)
    assert gid in pl["ge_cards"] and pl["coins"] == [5, 5, 2]


def test_rule_game_end_card_one_time_bonus_when_bought() -> None:
    g = started(2)
    player(g, 0)["coins"] = [4, 0, 0]
    rail = next(
        k
        for k, c in g.deck.game_end.items()
        if c.type == "railcar" and k not in player(g, 1)["ge_cards"] and k not in player(g, 0)["ge_cards"]
    )
    g.s["ge_display"][0] = rail
    g.s["ge_pile"] = [x for x in g.s["ge_pile"] if x != rail]
    assert g.deck.game_end[rail].bonus == "car(1)"
    act(g, 0, f"buy {rail} 1 1 1 1")
    head = g.head(0)
    assert head is not None and head["op"] == "car" and rail in head["src"]
    act(g, 0, "car lower")
    assert player(g, 0)["trains"]["lower"] == [0, 0] and g.head(0) is None
