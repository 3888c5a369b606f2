"""HeuristicAI choices about the Start Player tile and route cards; the view's last_action; the fast
legal-upgrade scan agrees with the rule check it replaces."""

from __future__ import annotations

import json

import pytest
from fc_helpers import act, add_card, player, started

from rules.errors import IllegalAction
from rules.firstclass.ai import (
    START_PLAYER_WEIGHT,
    TILE_TAKE_CHANCE,
    HeuristicAI,
    RandomAI,
    potential,
    start_player_value,
)
from rules.firstclass.game import FirstClassGame


def _fill_display(g: FirstClassGame, effects: str = "coin(1)") -> None:
    n = 0
    for r in range(3):
        for c in range(6):
            if g.s["rows"][r][c] is not None:
                n += 1
                add_card(g, f"W{n:02d}", "other", effects, row=r, col=c, set_="O")


def test_start_player_value_follows_next_rounds_turn_order() -> None:
    g = started(4)
    w = START_PLAYER_WEIGHT[4]
    q = TILE_TAKE_CHANCE
    g.s["turns_done"] = 11  # the last turn of the round: the tile stays free unless seat 3 takes it now
    assert [start_player_value(g, s) for s in range(4)] == pytest.approx([w, 2 * w / 3, w / 3, 0.0])
    g.s["turns_done"] = 0  # earlier, the others expect seat 3 (last turn of the round) may take it
    assert [start_player_value(g, s) for s in range(4)] == pytest.approx(
        [q * 2 * w / 3 + (1 - q) * w, q * w / 3 + (1 - q) * 2 * w / 3, (1 - q) * w / 3, 0.0]
    )
    g.s["sp_taken_by"] = 2  # seat 2 will start next round
    assert [start_player_value(g, s) for s in range(4)] == pytest.approx([w / 3, 0.0, w, 2 * w / 3])
    g.s["round"] = 6  # no next round: the order is worth nothing
    assert all(start_player_value(g, s) == 0.0 for s in range(4))


def test_heuristic_takes_the_start_player_tile_when_last_in_order_and_cards_are_weak() -> None:
    g = started(4)
    _fill_display(g)
    for seat in range(3):
        act(g, seat, f"take {next(c for r in g.s['rows'] for c in r if c is not None)}", "end")
    assert g.seats_to_act() == [3]
    assert HeuristicAI(1).choose(g, 3).to_text() == "start"


def test_heuristic_leaves_the_tile_when_it_starts_anyway_and_a_good_card_is_there() -> None:
    g = started(4)
    _fill_display(g)
    add_card(g, "GOOD", "railcar", "upany(3)", row=1, col=2)
    assert HeuristicAI(1).choose(g, 0).to_text() == "take GOOD"


def test_heuristic_values_route_cards_when_its_locomotive_is_at_the_end_of_its_route() -> None:
    g = started(2)
    _fill_display(g)
    add_card(g, "R8", "route", stations="P8", row=2, col=3)
    player(g, 0)["loco"] = len(g.route(0))  # the 3 pre-printed stations are behind it
    g.s["sp_taken_by"] = 1  # (the tile is gone: compare cards only)
    before = potential(g, 0)
    choice = HeuristicAI(3).choose(g, 0)
    assert choice.to_text() == "take R8"
    act(g, 0, "take R8")
    assert potential(g, 0) > before + 3


def test_heuristic_still_plays_legal_complete_games_for_every_player_count() -> None:
    for players in (2, 3, 4):
        g = FirstClassGame.new({}, players, 77)
        ais = [HeuristicAI(i) for i in range(players)]
        while not g.is_over():
            seat = g.seats_to_act()[0]
            a = ais[seat].choose(g, seat)
            assert a in g.legal_actions(seat)
            g.apply(seat, a)
        assert any(h[1] == "start" for h in g.s["history"])  # the tile gets taken


# --- view: last_action -------------------------------------------------------------------


def test_last_action_none_at_start_and_draft_position_hidden() -> None:
    g = FirstClassGame.new({}, 3, 5)
    assert g.view(None)["last_action"] is None
    g.apply(2, g.parse_action("draft 2"))
    for viewer in (None, 0, 1, 2):
        assert g.view(viewer)["last_action"] == {"seat": 2, "kind": "draft", "text": "draft", "card": None}


def test_last_action_names_the_card_of_the_turn_and_skips_end() -> None:
    g = started(2)
    add_card(g, "T1", "railcar", "car(1)", col=0)
    act(g, 0, "take T1")
    assert g.view(1)["last_action"] == {"seat": 0, "kind": "take", "text": "take T1", "card": "T1"}
    act(g, 0, "car upper")
    assert g.view(1)["last_action"] == {"seat": 0, "kind": "car", "text": "car upper", "card": "T1"}
    act(g, 0, "end")  # 'end' only closes the turn: the move shown stays
    assert g.view(None)["last_action"] == {"seat": 0, "kind": "car", "text": "car upper", "card": "T1"}
    act(g, 1, "start")
    assert g.view(0)["last_action"] == {"seat": 1, "kind": "start", "text": "start", "card": None}


def test_last_action_hides_game_end_card_from_other_viewers() -> None:
    g = started(2)
    add_card(g, "GE1", "game_end", "ge(1)", col=0, set_="O")
    act(g, 0, "take GE1")
    gid = g.s["ge_display"][0]
    act(g, 0, f"ge {gid}")
    assert g.view(0)["last_action"]["text"] == f"ge {gid}"
    for viewer in (None, 1):
        la = g.view(viewer)["last_action"]
        assert la["text"] == "ge" and gid not in json.dumps(la)


def test_last_action_survives_json_round_trip() -> None:
    g = started(3)
    ai = RandomAI(4)
    for _ in range(40):
        seat = g.seats_to_act()[0]
        g.apply(seat, ai.choose(g, seat))
    back = FirstClassGame.from_json(json.loads(json.dumps(g.to_json())))
    for viewer in (None, 0, 1, 2):
        assert back.view(viewer)["last_action"] == g.view(viewer)["last_action"]


# --- speed-ups keep behaviour ------------------------------------------------------------


@pytest.mark.parametrize("supply", ["unlimited", "limited"])
def test_legal_upgrades_matches_upgrade_error(supply: str) -> None:
    for seed in range(6):
        g = FirstClassGame.new({"car_supply": supply}, 2 + seed % 3, seed)
        ai = RandomAI(seed)
        while not g.is_over():
            for seat in range(g.players):
                slow = [
                    (t, pos)
                    for t in ("upper", "lower")
                    for pos in range(1, len(g.s["players"][seat]["trains"][t]) + 1)
                    if g.upgrade_error(seat, t, pos) is None
                ]
                assert g.legal_upgrades(seat) == slow
                for v in (0, 1, 2, 4, 7, 12):
                    assert g.legal_upgrades(seat, v) == [
                        (t, p) for t, p in slow if g.s["players"][seat]["trains"][t][p - 1] == v
                    ]
            seat = g.seats_to_act()[0]
            g.apply(seat, ai.choose(g, seat))


def test_copy_and_failed_action_keep_history_intact() -> None:
    g = started(2)
    n = len(g.s["history"])
    c = g.copy()
    c.s["history"].append([0, "end"])
    c.s["history"][0][1] = "changed"
    assert len(g.s["history"]) == n and g.s["history"][0][1] != "changed"
    with pytest.raises(IllegalAction):
        g.apply(0, g.parse_action("end"))  # must take a card first
    assert len(g.s["history"]) == n and "history" in g.s
    assert list(g.s)[-1] == "history"


def test_scratch_copy_is_independent_and_plays_the_same() -> None:
    g = started(3)
    ai = RandomAI(9)
    for _ in range(25):
        seat = g.seats_to_act()[0]
        g.apply(seat, ai.choose(g, seat))
    scratch, full = g.scratch_copy(), g.copy()
    before = json.dumps(g.to_json(), sort_keys=True)
    seat = g.seats_to_act()[0]
    a = g.legal_actions(seat)[0]
    assert scratch.apply(seat, a) == full.apply(seat, a)
    assert scratch.s == full.s
    assert json.dumps(g.to_json(), sort_keys=True) == before
