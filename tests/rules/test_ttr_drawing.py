"""Drawing train cards on the USA and Europe boards (seed 002, seed 001, RULES-FACTS 'drawing')."""

from __future__ import annotations

import pytest
from ttr_helpers import (
    ALL_COLOURS,
    all_cards,
    assert_illegal,
    check_invariants,
    deck_makeup,
    game,
    layout,
    set_row,
    state,
)

from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, LOCO

BOARDS = ("usa", "europe")
ROW = ["red", "blue", "green", "yellow", "black"]


@pytest.mark.parametrize("board", BOARDS)
def test_draw_two_cards_from_deck_and_face_up(board: str) -> None:
    """Rule: a draw is two cards, face-up (replaced at once from the deck) and/or blind."""
    g = game(board)
    set_row(g, ROW, deck_top=["white", "orange", "pink"])
    before = list(g.hands[0])
    g.apply(0, A.DrawFaceUp(1))
    assert g.current == 0 and g.pending == "draw_second"
    assert g.face_up[1] == CARD_INDEX["white"], "the face-up slot is refilled from the deck at once"
    assert g.view(0)["face_up"][1] == "white", "the new face-up card is visible before the second pick"
    g.apply(0, A.DrawDeck())
    assert g.current == 1 and g.pending is None
    after = g.hands[0]
    assert after[CARD_INDEX["blue"]] == before[CARD_INDEX["blue"]] + 1
    assert after[CARD_INDEX["orange"]] == before[CARD_INDEX["orange"]] + 1
    assert sum(after) == sum(before) + 2


@pytest.mark.parametrize("board", BOARDS)
def test_face_up_locomotive_is_the_whole_draw(board: str) -> None:
    """Rule: taking a face-up locomotive ends the draw (it counts as two cards)."""
    g = game(board)
    set_row(g, ["locomotive", *ROW[:4]], deck_top=["white"])
    locos = g.hands[0][LOCO]
    events = g.apply(0, A.DrawFaceUp(0))
    assert g.hands[0][LOCO] == locos + 1
    assert g.current == 1 and g.pending is None
    assert any(e["type"] == "draw_face" for e in events)


@pytest.mark.parametrize("board", BOARDS)
def test_face_up_locomotive_cannot_be_the_second_card(board: str) -> None:
    """Rule: after one card, a face-up locomotive may not be taken as the second card."""
    g = game(board)
    set_row(g, ["red", "locomotive", "blue", "green", "yellow"], deck_top=["white"])
    g.apply(0, A.DrawFaceUp(0))
    assert A.DrawFaceUp(1) not in g.legal_actions(0)
    assert_illegal(g, 0, A.DrawFaceUp(1), "locomotive_second", ("locomotive",))


@pytest.mark.parametrize("board", BOARDS)
def test_replacement_locomotive_cannot_be_the_second_card(board: str) -> None:
    """Rule: a locomotive revealed as the replacement of the first card cannot be taken second."""
    g = game(board)
    set_row(g, ROW, deck_top=["locomotive", "white"])
    g.apply(0, A.DrawFaceUp(2))
    assert g.face_up[2] == LOCO
    assert A.DrawFaceUp(2) not in g.legal_actions(0)
    assert_illegal(g, 0, A.DrawFaceUp(2), "locomotive_second")
    g.apply(0, A.DrawFaceUp(0))
    assert g.current == 1


@pytest.mark.parametrize("board", BOARDS)
def test_blind_locomotive_counts_one_card(board: str) -> None:
    """Rule: a locomotive drawn blind from the deck is one card; a second card follows."""
    g = game(board)
    set_row(g, ROW, deck_top=["locomotive", "locomotive"])
    locos = g.hands[0][LOCO]
    g.apply(0, A.DrawDeck())
    assert g.hands[0][LOCO] == locos + 1
    assert g.current == 0 and g.pending == "draw_second"
    g.apply(0, A.DrawDeck())
    assert g.hands[0][LOCO] == locos + 2 and g.current == 1


@pytest.mark.parametrize("board", BOARDS)
def test_three_face_up_locomotives_refresh_the_row(board: str) -> None:
    """Rule: as soon as 3 of the 5 face-up cards are locomotives, all 5 are discarded and 5 dealt."""
    g = game(board)
    set_row(
        g,
        ["red", "locomotive", "locomotive", "blue", "green"],
        deck_top=["locomotive", "white", "orange", "pink", "black", "yellow"],
    )
    events = g.apply(0, A.DrawFaceUp(0))
    assert [e["type"] for e in events].count("refresh") == 1
    assert g.face_up == [CARD_INDEX[c] for c in ("white", "orange", "pink", "black", "yellow")]
    assert sorted(g.discard) == sorted([LOCO, LOCO, LOCO, CARD_INDEX["blue"], CARD_INDEX["green"]])
    assert all_cards(g) == deck_makeup(g)


@pytest.mark.parametrize("board", BOARDS)
def test_refresh_again_when_three_locomotives_come_again(board: str) -> None:
    """Rule: if the new row again shows 3 locomotives, it is refreshed again."""
    g = game(board)
    set_row(
        g,
        ["red", "locomotive", "locomotive", "blue", "green"],
        deck_top=[
            "locomotive",
            "locomotive",
            "locomotive",
            "locomotive",
            "white",
            "orange",
            "pink",
            "black",
            "yellow",
            "red",
            "blue",
        ],
    )
    events = g.apply(0, A.DrawFaceUp(0))
    assert [e["type"] for e in events].count("refresh") == 2
    assert g.face_up == [CARD_INDEX[c] for c in ("pink", "black", "yellow", "red", "blue")]
    assert not g._face_up_needs_refresh()
    assert all_cards(g) == deck_makeup(g)


@pytest.mark.parametrize("board", BOARDS)
def test_refresh_does_not_loop_when_only_locomotives_are_left(board: str) -> None:
    """Rule: the refresh stops (no endless loop) when deck and discard cannot give another row."""
    g = game(board)
    # Both players hold every coloured card; only the 14 locomotives are in deck/row.
    layout(
        g,
        {0: dict(red=12, orange=12, yellow=12, green=12), 1: dict(blue=12, pink=12, black=12, white=12)},
        face_up=["locomotive"] * 5,
    )
    assert g.deck == [LOCO] * 9
    start = g.trains[0]
    events = g.apply(0, A.DrawDeck())
    assert any(e["type"] == "refresh_stopped" for e in events) or not g._refresh_could_help()
    check_invariants(g, start)
    g.apply(0, A.DrawDeck())
    assert g.current == 1
    check_invariants(g, start)


@pytest.mark.parametrize("board", BOARDS)
def test_discard_is_reshuffled_when_the_deck_runs_out(board: str) -> None:
    """Rule: when the deck is exhausted the discard pile is shuffled into a new deck."""
    g = game(board)
    layout(g, {0: {"red": 2}}, face_up=ROW, rest_to="discard")
    n = len(g.discard)
    assert g.deck == [] and n == 110 - 7
    shuffles = g.shuffles
    cards = sum(g.hands[0])
    g.apply(0, A.DrawDeck())
    assert sum(g.hands[0]) == cards + 1
    assert g.shuffles == shuffles + 1 and g.discard == [] and len(g.deck) == n - 1
    assert all_cards(g) == deck_makeup(g)


@pytest.mark.parametrize("board", BOARDS)
def test_empty_face_up_slots_are_refilled_when_cards_come_back(board: str) -> None:
    """Rule: the face-up row is kept at five cards whenever the deck or discard can supply them
    (an emptied slot is refilled once discarded cards are reshuffled into a new deck)."""
    g = game(board)
    layout(g, {0: ALL_COLOURS, 1: {"locomotive": 12}}, face_up=["locomotive"] * 2 + [None] * 3)
    assert g.deck == [] and g.discard == []
    # Seat 0 claims a red route: the red cards go to the discard pile.
    red = next(
        t
        for t in g.board.tracks
        if t.colour_name == "red" and not t.tunnel and not t.ferry_locos and t.length == 2
    )
    g.apply(0, A.ClaimRoute(red.id, (("red", 2),)))
    assert sum(1 for c in g.face_up if c >= 0) == 4, "the two discarded cards refill two empty slots"
    assert all_cards(g) == deck_makeup(g)


@pytest.mark.parametrize("board", BOARDS)
def test_no_cards_to_draw_requires_another_action(board: str) -> None:
    """Rule: with no train cards to draw the player must take another action; passing is only
    allowed when nothing at all is possible."""
    g = game(board)
    layout(g, {0: ALL_COLOURS, 1: {"locomotive": 14}}, face_up=[None] * 5)
    assert g.deck == [] and g.discard == []
    legal = g.legal_actions(0)
    assert not any(isinstance(a, A.DrawDeck | A.DrawFaceUp) for a in legal)
    assert any(isinstance(a, A.ClaimRoute) for a in legal)
    assert_illegal(g, 0, A.DrawDeck(), "deck_empty")
    assert_illegal(g, 0, A.DrawFaceUp(0), "empty_slot")
    assert_illegal(g, 0, A.Pass(), "must_act", ("must",))


@pytest.mark.parametrize("board", BOARDS)
def test_pass_only_when_nothing_is_possible(board: str) -> None:
    """Rule 2 reading: when no card, route, ticket or station action exists, the turn is passed."""
    g = game(board)
    layout(g, {1: {**ALL_COLOURS, "locomotive": 14}}, face_up=[None] * 5)
    for pile in g.ticket_decks.values():
        g.tickets_out += pile
        pile.clear()
    assert g.legal_actions(0) == [A.Pass()]
    g.apply(0, A.Pass())
    assert g.current == 1


@pytest.mark.parametrize("board", BOARDS)
def test_second_card_impossible_ends_the_turn(board: str) -> None:
    """Rule: if after the first card no second card can be drawn, the draw ends with one card."""
    g = game(board)
    layout(g, {1: {**ALL_COLOURS, "red": 11, "locomotive": 14}}, face_up=["red", None, None, None, None])
    assert g.deck == [] and g.discard == []
    g.apply(0, A.DrawFaceUp(0))
    assert g.current == 1 and g.pending is None


@pytest.mark.parametrize("board", BOARDS)
def test_out_of_turn_draw_is_refused(board: str) -> None:
    """Rule: only the current player acts."""
    g = game(board)
    before = state(g)
    assert_illegal(g, 1, A.DrawDeck(), "not_your_turn")
    assert state(g) == before


@pytest.mark.parametrize("board", BOARDS)
def test_stalled_locomotive_row_is_refreshed_once_discards_allow_it(board: str) -> None:
    """Rule: 'as soon as' 3 face-up locomotives show, the row is refreshed. When deck and discard
    could not supply another row (only locomotives left), the refresh waits; once a claim puts
    other cards on the discard pile, the row is refreshed at the end of that turn."""
    g = game(board)
    t = next(
        t
        for t in g.board.tracks
        if t.colour_name == "red" and t.length >= 4 and not t.tunnel and not t.ferry_locos
    )
    colours = {**ALL_COLOURS, "red": 12 - 1, "blue": 12 - 1}
    layout(g, {0: colours}, face_up=["locomotive", "locomotive", "locomotive", "red", "blue"])
    assert g.deck == [LOCO] * 11 and g._face_up_needs_refresh() and not g._refresh_could_help()
    g.apply(0, A.ClaimRoute(t.id, (("red", t.length),)))
    assert g._refresh_could_help()
    assert not g._face_up_needs_refresh(), "the row should have been refreshed"
    assert all_cards(g) == deck_makeup(g)
