"""Rounds, the display of 18 cards, row clearing, the Start Player tile and the setup draft."""

from __future__ import annotations

import random

import pytest
from fc_helpers import act, add_card, player, started, texts

from rules.errors import IllegalAction
from rules.firstclass.draft import deal_round
from rules.firstclass.game import FirstClassGame


def test_rule_eighteen_cards_in_three_rows_of_six_from_pile_one() -> None:
    g = started(3)
    assert [len(r) for r in g.s["rows"]] == [6, 6, 6]
    assert all(g.deck.cards[c].pile == 1 for r in g.s["rows"] for c in r)
    assert g.s["piles"]["1"] and len(g.s["piles"]["1"]) == 40 - 18


def test_rule_six_rounds_in_three_piles_with_scoring_after_2_4_6() -> None:
    g = started(2, seed=5)
    rng = random.Random(5)
    seen: list[tuple[int, int]] = []
    scorings: list[int] = []
    while not g.is_over():
        if g.s["phase"] == "play" and g.s["turns_done"] == 0 and not g.s["taken"]:
            piles = {g.deck.cards[c].pile for r in g.s["rows"] for c in r if c}
            if (g.s["round"], piles.pop()) not in seen:
                seen.append((g.s["round"], g.deck.cards[g.s["rows"][1][0]].pile))
        if g.s["phase"] == "scoring" and (not scorings or scorings[-1] != g.s["round"]):
            scorings.append(g.s["round"])
        seat = g.seats_to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert seen == [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)]
    assert scorings == [2, 4, 6]


def test_rule_second_round_of_a_pile_leaves_four_cards_out_of_the_game() -> None:
    g = started(2)
    g.s["round"] = 2
    deal_round(g)
    assert g.s["piles"]["1"] == [] and len(g.s["out_of_game"]) == 4


def test_rule_three_players_each_take_three_cards_per_round() -> None:
    g = started(3)
    order = []
    for _ in range(9):
        seat = g.seats_to_act()[0]
        order.append(seat)
        cid = next(c for r in g.s["rows"] for c in r if c is not None)
        act(g, seat, f"forgo {cid}", "skip", "end")
    assert order == [0, 1, 2] * 3
    assert g.s["round"] == 2 and all(c is not None for r in g.s["rows"] for c in r)


def test_rule_rulebook_row_clearing_example_three_players() -> None:
    # 3 players: after the third card is taken from a row, 3 remain and are removed.
    g = started(3)
    row = list(g.s["rows"][0])
    for i, seat in enumerate((0, 1)):
        act(g, seat, f"forgo {row[i]}", "skip", "end")
        assert not g.s["row_cleared"][0]
    events = act(g, 2, f"forgo {row[2]}")
    assert g.s["row_cleared"][0]
    assert any(e["type"] == "row_cleared" for e in events)
    assert set(row[3:]) <= set(g.s["out_of_game"])
    act(g, 2, "skip", "end")
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, f"take {row[4]}")
    assert "Clearing a Row" in exc.value.message


def test_rule_four_players_row_cleared_when_two_cards_remain() -> None:
    g = started(4)
    row = list(g.s["rows"][1])
    for i in range(3):
        act(g, i, f"forgo {row[i]}", "skip", "end")
    assert not g.s["row_cleared"][1]
    act(g, 3, f"forgo {row[3]}")
    assert g.s["row_cleared"][1] and g.view(None)["rows"][1]["slots"][5]["status"] == "cleared"


def test_rule_start_player_tile_compensations_and_top_left_removal_four_players() -> None:
    g = started(4)
    g.s["active"] = 1
    for p in range(4):
        player(g, p)["trains"]["lower"] = [1, 0]
    top_left = g.s["rows"][0][0]
    events = act(g, 1, "start")
    assert player(g, 1)["coins"] == [3, 0, 0]  # 2 coins to the taker
    assert top_left in g.s["out_of_game"] and g.s["slots"][0][0] == "removed"
    assert any(e["type"] == "removed" for e in events)
    assert g.seats_to_act() == [3]  # seat 2 (next) gets nothing; seat 3 a 0-value car
    act(g, 3, "car upper")
    assert g.seats_to_act() == [0]  # the fourth player: a car or a 0>1 upgrade
    assert texts(g, 0) == {"choose 1", "choose 2", "skip"}
    act(g, 0, "choose 2", "up lower 2")
    assert player(g, 0)["trains"]["lower"] == [1, 1]
    assert player(g, 3)["trains"]["upper"] == [0, 0]
    assert player(g, 2)["trains"] == {"upper": [0], "lower": [1, 0]}
    assert g.seats_to_act() == [1] and texts(g, 1) >= {"end"}
    with pytest.raises(IllegalAction):
        act(g, 1, "start")


def test_rule_start_player_tile_not_counted_in_row_and_cannot_be_taken_twice() -> None:
    g = started(2)
    assert "start" in texts(g, 0)
    act(g, 0, "start", "end")
    assert "start" not in texts(g, 1)
    assert g.s["row_removed"][0] == 1  # only the removed card counts, not the tile
    with pytest.raises(IllegalAction) as exc:
        act(g, 1, "start")
    assert exc.value.code == "tile_taken"


def test_rule_start_player_tile_removes_from_next_row_when_top_row_cleared() -> None:
    g = started(2)
    row0 = list(g.s["rows"][0])
    act(g, 0, f"forgo {row0[0]}", "skip", "end")
    act(g, 1, f"forgo {row0[1]}", "skip", "end")
    assert g.s["row_cleared"][0]
    first_of_row1 = g.s["rows"][1][0]
    act(g, 0, "start")
    assert first_of_row1 in g.s["out_of_game"]
    assert g.view(None)["start_tile"]["row"] == 1


def test_rule_new_start_player_from_tile_else_unchanged() -> None:
    g = started(2)
    act(g, 0, "forgo " + g.s["rows"][0][0], "skip", "end")
    act(g, 1, "start", "end")
    for _ in range(4):
        seat = g.seats_to_act()[0]
        cid = next(c for r in g.s["rows"] for c in r if c is not None)
        act(g, seat, f"forgo {cid}", "skip", "end")
    assert g.s["round"] == 2 and g.s["start_player"] == 1 and g.seats_to_act() == [1]
    for _ in range(6):
        seat = g.seats_to_act()[0]
        cid = next(c for r in g.s["rows"] for c in r if c is not None)
        act(g, seat, f"forgo {cid}", "skip", "end")
    assert g.s["phase"] == "scoring" and g.s["start_player"] == 1
    assert g.view(None)["scoring"]["seat"] == 1  # the scoring phase starts with the (new) start player


def test_rule_game_end_card_draft_at_setup() -> None:
    g = FirstClassGame.new({}, 4, 9)
    assert g.s["phase"] == "draft"
    # the player to the right of the start player (counter-clockwise) draws players+1 cards
    assert g.seats_to_act() == [3]
    assert len(g.legal_actions(3)) == 5
    # kept by position: the public action log does not reveal the face-down card
    assert [a.to_text() for a in g.legal_actions(3)] == [f"draft {i}" for i in range(1, 6)]
    second = g.s["draft"]["hand"][1]
    g.copy().apply(3, g.parse_action("draft 2"))
    probe = g.copy()
    probe.apply(3, g.parse_action("draft 2"))
    assert probe.s["players"][3]["ge_cards"] == [second]
    assert g.view(2)["draft"]["hand"] is None and g.view(3)["draft"]["hand"] is not None
    order = []
    while g.s["phase"] == "draft":
        seat = g.seats_to_act()[0]
        order.append(seat)
        g.apply(seat, g.legal_actions(seat)[-1])
    assert order == [3, 2, 1, 0]
    assert all(len(player(g, s)["ge_cards"]) == 1 for s in range(4))
    assert len(g.s["ge_display"]) == 4 and len(g.s["ge_pile"]) == 21 - 4 - 4
    assert g.view(0)["players"][1]["game_end_cards"] is None
    assert g.view(1)["players"][1]["game_end_cards"] is not None


def test_rule_take_an_action_card_only_once_per_turn() -> None:
    g = started(2)
    add_card(g, "T1", "railcar", "car(1)", col=0)
    add_card(g, "T2", "railcar", "car(1)", col=1)
    act(g, 0, "take T1", "car upper")
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "take T2")
    assert exc.value.code in ("already_taken",)
    with pytest.raises(IllegalAction):
        act(g, 1, "take T2")
