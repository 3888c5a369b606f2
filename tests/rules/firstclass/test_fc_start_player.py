"""The Start Player tile and turn order, checked rule by rule (seed 003, "The Start Player Tile",
"Playing a round", "New Start Player", "Scoring Phase", setup step 9), plus seat symmetry: nothing in
the engine may depend on a seat's number rather than its place in the turn order."""

from __future__ import annotations

import random

import pytest
from fc_helpers import act, add_card, player, started, texts

from rules.firstclass.game import FirstClassGame


def _forgo_first(g: FirstClassGame) -> int:
    """The seat to act forgoes the first available card (skipping its upgrade) and ends its turn."""
    seat = g.seats_to_act()[0]
    cid = next(c for r in g.s["rows"] for c in r if c is not None)
    act(g, seat, f"forgo {cid}", "skip", "end")
    return seat


def _turn_order_of_round(g: FirstClassGame, start_at: int | None = None) -> list[int]:
    order = []
    rnd = g.s["round"]
    i = 0
    while g.s["phase"] == "play" and g.s["round"] == rnd:
        if start_at is not None and i == start_at:
            seat = g.seats_to_act()[0]
            act(g, seat, "start")
            while g.seats_to_act() != [seat]:  # compensations owed to other seats
                other = g.seats_to_act()[0]
                act(g, other, "skip")
            act(g, seat, "end")
            order.append(seat)
        else:
            order.append(_forgo_first(g))
        i += 1
    return order


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_playing_a_round_clockwise_from_start_player_three_turns_each(players: int) -> None:
    g = started(players, start_player=players - 1)
    order = _turn_order_of_round(g)
    sp = players - 1
    assert order == [(sp + i) % players for i in range(players)] * 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_new_start_player_unchanged_when_nobody_takes_the_tile(players: int) -> None:
    g = started(players)
    coins = [player(g, p)["coins"] for p in range(players)]
    _turn_order_of_round(g)
    assert g.s["round"] == 2 and g.s["start_player"] == 0 and g.seats_to_act() == [0]
    # "If nobody took the Start Player tile, then no compensations are distributed"
    assert [player(g, p)["coins"] for p in range(players)] == coins
    assert _turn_order_of_round(g)[:players] == list(range(players))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_start_player_tile_changes_order_only_from_the_next_round(players: int) -> None:
    g = started(players)
    taker = 1
    order = _turn_order_of_round(g, start_at=1)  # the second seat takes the tile on its first turn
    assert order == list(range(players)) * 3  # the current round keeps its order
    assert g.s["round"] == 2 and g.s["start_player"] == taker and g.seats_to_act() == [taker]
    assert _turn_order_of_round(g)[:players] == [(taker + i) % players for i in range(players)]


def test_rule_current_start_player_may_take_the_tile_to_keep_the_order() -> None:
    g = started(3)
    assert "start" in texts(g, 0)
    _turn_order_of_round(g, start_at=0)
    assert g.s["start_player"] == 0 and g.seats_to_act() == [0]
    assert player(g, 0)["coins"][0] == 3  # 1 + the taker's 2 coins


@pytest.mark.parametrize(
    ("players", "taker", "expected"),
    [
        (2, 0, {0: "coins", 1: None}),
        (2, 1, {1: "coins", 0: None}),
        (3, 2, {2: "coins", 0: None, 1: "car"}),
        (3, 1, {1: "coins", 2: None, 0: "car"}),
        (4, 3, {3: "coins", 0: None, 1: "car", 2: "choice"}),
    ],
)
def test_rule_start_player_tile_compensations_relative_to_taker(
    players: int, taker: int, expected: dict[int, str | None]
) -> None:
    """start_player_compensation.csv: taker 2 coins, next clockwise nothing, then a 0-value car, then a car
    or a 0>1 upgrade - counted from the taker and cut off at the player count (open question Q3)."""
    g = started(players)
    g.s["active"] = taker
    act(g, taker, "start")
    got: dict[int, str | None] = {p: None for p in range(players)}
    got[taker] = "coins" if player(g, taker)["coins"] == [3, 0, 0] else None
    for p in range(players):
        for item in player(g, p)["pending"]:
            got[p] = {"car": "car", "choice": "choice"}[item["op"]]
    assert got == expected
    for p in range(players):  # nobody but the taker got coins
        if p != taker:
            assert player(g, p)["coins"] == [1, 0, 0]


def test_rule_start_player_tile_removal_can_clear_a_row() -> None:
    """'Note: This can trigger the clearing of a row' - the removed card counts like a taken one."""
    g = started(4)
    row0 = list(g.s["rows"][0])
    for seat in range(3):
        act(g, seat, f"forgo {row0[5 - seat]}", "skip", "end")
    assert g.s["row_removed"][0] == 3 and not g.s["row_cleared"][0]
    act(g, 3, "start")
    assert row0[0] in g.s["out_of_game"] and g.s["row_cleared"][0]
    assert all(c is None for c in g.s["rows"][0])
    assert g.view(None)["start_tile"]["row"] == 1


def test_rule_start_player_tile_stays_until_chosen_even_when_rows_clear() -> None:
    g = started(2)
    for _ in range(5):
        _forgo_first(g)
    assert g.s["row_cleared"][0] and g.s["row_cleared"][1]
    assert "start" in texts(g, g.seats_to_act()[0])  # the last turn of the round may still take it
    seat = g.seats_to_act()[0]
    events = act(g, seat, "start")
    assert all(g.s["row_cleared"])  # the removed card clears the last row: no Action card is left
    events += act(g, seat, "end")
    assert [e["row"] for e in events if e["type"] == "row_cleared"] == [3]
    assert g.s["round"] == 2 and g.s["start_player"] == seat and g.seats_to_act() == [seat]


def test_rule_scoring_phase_starts_with_the_new_start_player_in_clockwise_order() -> None:
    g = started(3)
    _turn_order_of_round(g)
    _turn_order_of_round(g, start_at=2)  # seat 2 takes the tile in round 2
    assert g.s["phase"] == "scoring" and g.s["start_player"] == 2
    order = []
    while g.s["phase"] == "scoring":
        seat = g.seats_to_act()[0]
        order.append(seat)
        while g.seats_to_act() == [seat] and g.s["phase"] == "scoring":
            legal = texts(g, seat)
            act(g, seat, "skip" if "skip" in legal else "done")
            if "skip" not in legal:
                break
    assert order == [2, 0, 1]
    assert g.s["round"] == 3 and g.seats_to_act() == [2]  # and it starts the next round


@pytest.mark.parametrize("sp", [0, 1, 2])
def test_rule_setup_game_end_draft_starts_right_of_start_player(sp: int) -> None:
    g = FirstClassGame.new({"start_player": sp}, 3, 4)
    order = []
    while g.s["phase"] == "draft":
        seat = g.seats_to_act()[0]
        order.append(seat)
        g.apply(seat, g.legal_actions(seat)[0])
    assert order == [(sp - 1) % 3, (sp - 2) % 3, sp]
    assert g.seats_to_act() == [sp]


def test_deal_does_not_depend_on_who_starts() -> None:
    """The first player gets no systematically different cards: the display and piles come from the seed."""
    a = FirstClassGame.new({"start_player": 0}, 4, 11)
    b = FirstClassGame.new({"start_player": 3}, 4, 11)
    assert a.s["rows"] == b.s["rows"] and a.s["piles"] == b.s["piles"]
    assert a.s["ge_pile"] == b.s["ge_pile"] and a.s["draft"]["hand"] == b.s["draft"]["hand"]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 5), (4, 8)])
def test_seat_symmetry_rotating_the_start_player_rotates_the_game(players: int, seed: int) -> None:
    """Same seed and the same choices by place in the turn order: starting at seat k gives the game of
    seat 0 with every seat shifted by k (no rule depends on the seat number)."""
    results = []
    for sp in range(players):
        g = FirstClassGame.new({"start_player": sp}, players, seed)
        rng = random.Random(seed)
        while not g.is_over():
            seat = g.seats_to_act()[0]
            legal = g.legal_actions(seat)
            g.apply(seat, legal[rng.randrange(len(legal))])
        scores = {r["seat"]: r["total"] for r in g.final_scores()}
        relabelled = [((seat - sp) % players, text) for seat, text in g.s["history"]]
        results.append(([scores[(sp + i) % players] for i in range(players)], relabelled))
    assert all(r == results[0] for r in results)
    assert len(set(results[0][0])) > 1  # a real game, not all-equal scores


def test_tile_compensation_card_is_added_not_taken_from_display() -> None:
    g = started(3)
    add_card(g, "T1", "railcar", "car(1)", row=1, col=0)
    act(g, 0, "start")
    assert g.s["rows"][1][0] == "T1"
    assert g.seats_to_act() == [2]  # the third player's 0-value car comes from the supply
    act(g, 2, "car lower")
    assert player(g, 2)["trains"]["lower"] == [0, 0]
