"""Scoring phases, contracts, Game End scoring and the winner (rulebook pages 9, 13-16)."""

from __future__ import annotations

import pytest
from fc_helpers import act, add_card, assert_legal_train, player, started, texts

from rules.errors import IllegalAction
from rules.firstclass.cards import GameEndCard
from rules.firstclass.game import MAIL, FirstClassGame
from rules.firstclass.state import ScoringState


def scoring(g: FirstClassGame, round_: int = 2) -> None:
    g.s["round"] = round_
    g.s["phase"] = "scoring"
    g.s.scoring = ScoringState([(g.s["start_player"] + i) % g.players for i in range(g.players)], 0, [])


def test_rule_rulebook_scoring_example_upper_train_worth_18() -> None:
    g = started(2)
    pl = player(g, 0)
    # cars 5 and 7 are worth 0, the 6th is the mail car, the 8th (right of the conductor) scores nothing
    pl["trains"]["upper"] = [12, 4, 1, 1, 0, MAIL, 0, 0]
    assert_legal_train(pl["trains"]["upper"])
    pl["cond"]["upper"] = 7
    assert g.train_points(0, "upper") == 12 + 4 + 1 + 1 == 18
    scoring(g)
    act(g, 0, "done")
    assert player(g, 0)["points"]["trains"] == 18  # lower train: a 0-value car, 0 points


def test_rule_locomotive_tile_scores_only_with_a_conductor_on_it() -> None:
    g = started(2)
    pl = player(g, 0)
    pl["trains"]["lower"] = [12, 12, 7, 7, 4, MAIL, 4, 2, 1]
    pl["tiles"]["lower"] = 1
    pl["cond"]["lower"] = 9
    assert g.train_points(0, "lower") == 49
    pl["cond"]["lower"] = 10
    assert g.train_points(0, "lower") == 49 + 5


def test_rule_scoring_phase_bonuses_in_chosen_order_once_per_phase() -> None:
    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="B[car(1)]|P3|B[cond2(2)]")
    pl["route_cards"] = ["R1"]
    pl["loco"] = 4  # stations 2 (board 2 coins) and 4 (a car) are reached, 6 is not
    scoring(g)
    assert {a for a in texts(g, 0) if a.startswith("bonus")} == {"bonus 2", "bonus 4"}
    act(g, 0, "bonus 4", "car upper")
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "bonus 4")
    assert "once per scoring phase" in exc.value.message
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "bonus 6")
    assert exc.value.code == "not_reached"
    # moving the locomotive during the phase activates stations for this phase (rulebook example d)
    player(g, 0)["coins"] = [0, 2, 0]
    act(g, 0, "spend move loco", "spend move loco")
    assert player(g, 0)["points"]["route_stations"] == 3
    assert "bonus 6" in texts(g, 0)
    act(g, 0, "bonus 6", "bonus 2")
    assert player(g, 0)["cond"] == {"upper": 2, "lower": 1}
    assert player(g, 0)["coins"] == [2, 0, 0]
    act(g, 0, "done")
    assert g.view(None)["scoring"]["seat"] == 1
    act(g, 1, "done")
    assert g.s["phase"] == "play" and g.s["round"] == 3
    # the next scoring phase pays the same stations again
    scoring(g, 4)
    assert {a for a in texts(g, 0) if a.startswith("bonus")} == {"bonus 2", "bonus 4", "bonus 6"}


def test_rule_bonus_station_not_reached_by_the_locomotive_is_refused() -> None:
    """Rulebook, Scoring Phase: you receive the bonus of every bonus station your locomotive has
    reached or passed; a station ahead of it gives nothing. Asking for one is refused, changes
    nothing, is never offered, and does not hold up scoring."""
    g = started(2)
    pl = player(g, 0)
    add_card(g, "R1", "route", stations="P1|B[coin(3)]")
    pl["route_cards"] = ["R1"]
    pl["loco"] = 4  # board stations 1-3 and the route card's P1 are reached; its bonus, station 5, is not
    scoring(g)
    before = g.to_json()
    assert "bonus 5" not in texts(g, 0) and "bonus 2" in texts(g, 0)
    assert g.unclaimed_bonus_stations(0) == [2]
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "bonus 5")
    assert exc.value.code == "not_reached"
    assert "has not reached station 5" in exc.value.message
    assert g.to_json() == before
    # the reached bonus pays and scoring may end without the unreached one
    coins = sum(player(g, 0)["coins"])
    act(g, 0, "bonus 2")
    assert "done" in texts(g, 0) and sum(player(g, 0)["coins"]) == coins + 2
    # one station further (a coin from column 2 moves the locomotive) and the bonus is due
    player(g, 0)["coins"] = [0, 1, 0]
    act(g, 0, "spend move loco")
    assert "bonus 5" in texts(g, 0) and "done" not in texts(g, 0)
    act(g, 0, "bonus 5")
    assert player(g, 0)["coins"] == [3, 0, 0]


def test_rule_game_end_after_third_scoring_phase_with_coins_worth_one_point() -> None:
    g = started(2)
    player(g, 0)["coins"] = [5, 2, 0]
    player(g, 1)["ge_cards"] = []
    player(g, 0)["ge_cards"] = []
    scoring(g, 6)
    act(g, 0, "done")
    act(g, 1, "done")
    assert g.is_over() and g.seats_to_act() == [] and g.legal_actions(0) == []
    res = g.final_scores()
    assert res[0]["breakdown"]["coins_left"] == 7 and res[0]["total"] == sum(res[0]["breakdown"].values())
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "done")
    assert exc.value.code == "game_over"


def test_rule_rulebook_game_end_example_worth_15() -> None:
    g = started(2)
    pl = player(g, 0)
    ids = []
    for i, kind in enumerate(["railcar", "railcar", "railcar", "locomotive", "conductor", "route"]):
        ids.append(
            add_card(
                g,
                f"E{i}",
                kind,
                "car(1)" if kind != "route" else "",
                stations="P1" if kind == "route" else "",
            )
        )
    add_card(g, "MOD", "money", "coin(1)", set_="O")  # module cards never count
    pl["completed"] = ids + ["MOD"]
    # the rulebook's own Game End cards (two railcar x2, one locomotive x3), whatever the packaged deck holds
    ge = g.deck.game_end
    ge["EX-R1"] = GameEndCard("EX-R1", "railcar", 2, "car(1)", "rulebook example")
    ge["EX-R2"] = GameEndCard("EX-R2", "railcar", 2, "car(1)", "rulebook example")
    ge["EX-L"] = GameEndCard("EX-L", "locomotive", 3, "loco(1)", "rulebook example")
    pl["ge_cards"] = ["EX-R1", "EX-R2", "EX-L"]
    assert g.game_end_points(0) == 3 * 4 + 1 * 3 == 15


def test_rule_game_end_typing_setting_kind() -> None:
    g = started(2, game_end_typing="kind")
    pl = player(g, 0)
    add_card(g, "E1", "railcar", "car(1)", game_end_type="conductor")
    pl["completed"] = ["E1"]
    pl["ge_cards"] = [next(k for k, c in g.deck.game_end.items() if c.type == "railcar")]
    assert g.game_end_points(0) == g.deck.game_end[pl["ge_cards"][0]].points


def test_rule_ties_share_the_win() -> None:
    g = started(3)
    for seat, pts in enumerate((10, 10, 4)):
        player(g, seat)["points"]["card_points"] = pts
    res = g.final_scores()
    assert [r["winner"] for r in res] == [True, True, False]
    assert [r["rank"] for r in res] == [1, 1, 3]


def test_rule_contract_taken_face_up_and_fulfilled_when_requirement_met() -> None:
    g = started(2)
    add_card(g, "C1", "contract", set_="A", requirement="count(value>=2,any)>=3", bonus="points(7)")
    act(g, 0, "take C1")
    pl = player(g, 0)
    assert pl["contracts"] == ["C1"] and "fulfil C1" not in texts(g, 0)
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "fulfil C1")
    assert "The Contracts" in exc.value.message and exc.value.code == "contract_not_met"
    pl = player(g, 0)
    pl["trains"] = {"upper": [4, 2], "lower": [2]}  # exceeding counts: a 4 is also worth "2 or more"
    act(g, 0, "fulfil C1")
    assert pl["points"]["card_points"] == 7 and pl["contracts"] == [] and "C1" in pl["completed"]


def test_rule_contract_fulfilled_during_scoring_phase_and_unfulfilled_worth_nothing() -> None:
    g = started(2)
    pl = player(g, 0)
    add_card(g, "C1", "contract", set_="A", requirement="loco>=1", bonus="points(5)")
    add_card(g, "C2", "contract", set_="A", requirement="loco>=9", bonus="points(50)", col=1)
    pl["contracts"] = ["C1", "C2"]
    pl["loco"] = 1
    scoring(g, 6)
    assert "fulfil C1" in texts(g, 0) and "fulfil C2" not in texts(g, 0)
    act(g, 0, "fulfil C1", "done")
    act(g, 1, "done")
    res = g.final_scores()
    assert res[0]["breakdown"]["card_points"] == 5
    assert player(g, 0)["contracts"] == []


@pytest.mark.parametrize(
    ("req", "trains", "cond", "ok"),
    [
        ("count(value>=2,any)>=6", {"upper": [4, 2, 2], "lower": [7, 2, 2]}, {}, True),
        ("count(value>=2,both)>=3", {"upper": [4, 2, 2], "lower": [7, 2, 1]}, {}, False),
        ("seq(upper,[12,7,4])", {"upper": [12, 12, 7, 4], "lower": [0]}, {}, True),
        ("seq(upper,[12,7,4])", {"upper": [12, 7, 2, 2], "lower": [12, 7, 4]}, {}, False),
        ("seq(any,[7,7])", {"upper": [7, 4], "lower": [12, 7]}, {}, True),
        ("cars(both)>=3", {"upper": [1, 1, 1, 0, 0, MAIL], "lower": [0, 0]}, {}, False),
        ("cars(any)>=7", {"upper": [1, 1, 1, 0, 0, MAIL], "lower": [0, 0]}, {}, True),
        ("cond(any)>=2", {"upper": [1, 1], "lower": [0]}, {"upper": 2}, True),
        ("cond(both)>=2", {"upper": [1, 1], "lower": [0]}, {"upper": 2}, False),
    ],
)
def test_rule_contract_requirement_language(
    req: str, trains: dict[str, list[int]], cond: dict[str, int], ok: bool
) -> None:
    g = started(2)
    add_card(g, "C1", "contract", set_="A", requirement=req, bonus="points(1)")
    pl = player(g, 0)
    pl["trains"] = trains
    pl["cond"].update(cond)
    assert g.requirement_met(0, "C1") is ok


def test_rule_game_end_card_bought_in_scoring_phase_by_default() -> None:
    """Rulebook, "How do you spend coins": "You can also pay 4 coins to take a Game End card from those
    lying face up on the table" is one of the ways to spend coins, and "You may also spend coins during
    a scoring phase". Default buy_game_end_in_scoring=True; False keeps the own-turn-only reading."""
    g = started(2)
    player(g, 0)["coins"] = [4, 0, 0]
    scoring(g)
    gid = g.s["ge_display"][0]
    assert f"buy {gid} 1 1 1 1" in texts(g, 0)
    act(g, 0, f"buy {gid} 1 1 1 1")
    assert gid in player(g, 0)["ge_cards"] and player(g, 0)["coins"] == [0, 0, 0]

    narrow = started(2, buy_game_end_in_scoring=False)
    player(narrow, 0)["coins"] = [4, 0, 0]
    scoring(narrow)
    gid = narrow.s["ge_display"][0]
    assert not any(t.startswith("buy") for t in texts(narrow, 0))
    with pytest.raises(IllegalAction) as exc:
        act(narrow, 0, f"buy {gid} 1 1 1 1")
    assert exc.value.code == "wrong_phase" and "buy_game_end_in_scoring" in exc.value.message
    assert narrow.s["ge_display"][0] == gid and player(narrow, 0)["coins"] == [4, 0, 0]
