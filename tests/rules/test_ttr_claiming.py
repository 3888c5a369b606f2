"""Claiming routes on the USA and Europe boards (seed 002: matching colour, gray routes, locomotives
wild, double routes; RULES-FACTS 'double routes, fewer players')."""

from __future__ import annotations

import pytest
from ttr_helpers import assert_illegal, find_track, game, give_route, layout

from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, LOCO

BOARDS = ("usa", "europe")


def coloured(g, length=3):  # type: ignore[no-untyped-def]
    return find_track(
        g,
        length=length,
        tunnel=False,
        ferry_locos=0,
        n_siblings=0,
        colour=next(
            t.colour
            for t in g.board.tracks
            if t.colour >= 0 and t.length == length and not t.tunnel and not t.ferry_locos and not t.siblings
        ),
    )


def gray(g, length=2):  # type: ignore[no-untyped-def]
    return find_track(g, length=length, colour_name="gray", tunnel=False, ferry_locos=0, n_siblings=0)


@pytest.mark.parametrize("board", BOARDS)
def test_claim_with_matching_colour_scores_and_spends_trains(board: str) -> None:
    """Rule: pay as many cards of the route's colour as it has spaces; place trains; score."""
    g = game(board)
    t = coloured(g)
    layout(g, {0: {t.colour_name: 3, "blue" if t.colour_name != "blue" else "red": 2}})
    trains, score = g.trains[0], g.route_score[0]
    events = g.apply(0, A.ClaimRoute(t.id, ((t.colour_name, 3),)))
    assert g.owner[t.index] == 0
    assert g.trains[0] == trains - 3 and g.route_score[0] == score + 4
    assert g.hands[0][t.colour] == 0 and g.discard.count(t.colour) == 3
    assert g.current == 1
    assert any(e["type"] == "claim" for e in events)


@pytest.mark.parametrize("board", BOARDS)
def test_claim_wrong_colour_is_refused(board: str) -> None:
    """Rule: a coloured route needs cards of its own colour."""
    g = game(board)
    t = coloured(g)
    other = "red" if t.colour_name != "red" else "blue"
    layout(g, {0: {other: 3}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, ((other, 3),)), "wrong_colour", (t.colour_name,))


@pytest.mark.parametrize("board", BOARDS)
def test_gray_route_any_one_colour_not_mixed(board: str) -> None:
    """Rule: a gray route takes any one colour, never two colours mixed."""
    g = game(board)
    t = gray(g)
    layout(g, {0: {"pink": 1, "green": 1, "white": 2}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("pink", 1), ("green", 1))), "mixed_colours")
    legal = [a for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.track == t.id]
    assert legal == [A.ClaimRoute(t.id, (("white", 2),))]
    g.apply(0, A.ClaimRoute(t.id, (("white", 2),)))
    assert g.owner[t.index] == 0


@pytest.mark.parametrize("board", BOARDS)
def test_locomotives_are_wild(board: str) -> None:
    """Rule: locomotives replace any card, alone or mixed with one colour."""
    g = game(board)
    t = coloured(g)
    layout(g, {0: {t.colour_name: 1, "locomotive": 5}})
    pays = {a.cards for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.track == t.id}
    assert pays == {((t.colour_name, 1), ("locomotive", 2)), (("locomotive", 3),)}
    g.apply(0, A.ClaimRoute(t.id, ((t.colour_name, 1), ("locomotive", 2))))
    assert g.hands[0][LOCO] == 3 and g.owner[t.index] == 0


@pytest.mark.parametrize("board", BOARDS)
def test_claim_needs_exact_length_and_the_cards_in_hand(board: str) -> None:
    """Rule: one card per space, from the player's own hand."""
    g = game(board)
    t = coloured(g)
    layout(g, {0: {t.colour_name: 2}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, ((t.colour_name, 2),)), "wrong_card_count", ("3",))
    assert_illegal(g, 0, A.ClaimRoute(t.id, ((t.colour_name, 3),)), "not_enough_cards", (t.colour_name,))
    assert_illegal(g, 0, A.ClaimRoute(t.id, ((t.colour_name, 4),)), "wrong_card_count")


@pytest.mark.parametrize("board", BOARDS)
def test_claim_needs_enough_trains(board: str) -> None:
    """Rule: a route can only be claimed with enough train cars left to fill it."""
    g = game(board)
    t = coloured(g)
    layout(g, {0: {t.colour_name: 3}})
    g.trains[0] = 2
    assert not any(isinstance(a, A.ClaimRoute) and a.track == t.id for a in g.legal_actions(0))
    assert_illegal(g, 0, A.ClaimRoute(t.id, ((t.colour_name, 3),)), "not_enough_trains", ("2",))


@pytest.mark.parametrize("board", BOARDS)
def test_a_route_is_claimed_only_once(board: str) -> None:
    """Rule: a route holds the trains of one player only."""
    g = game(board, players=3)
    t = coloured(g)
    layout(g, {0: {t.colour_name: 3}, 1: {t.colour_name: 3}})
    g.apply(0, A.ClaimRoute(t.id, ((t.colour_name, 3),)))
    assert_illegal(g, 1, A.ClaimRoute(t.id, ((t.colour_name, 3),)), "route_taken", ("already",))


def _double(g):  # type: ignore[no-untyped-def]
    return next(
        t
        for t in g.board.tracks
        if len(t.siblings) == 1
        and not t.tunnel
        and not t.ferry_locos
        and t.colour >= 0
        and g.board.tracks[t.siblings[0]].colour >= 0
        and g.board.tracks[t.siblings[0]].colour != t.colour
    )


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("players", [2, 3])
def test_double_route_with_2_or_3_players_only_one_track(board: str, players: int) -> None:
    """Rule: with 2 or 3 players only one track of a double route may be used."""
    g = game(board, players=players)
    t = _double(g)
    s = g.board.tracks[t.siblings[0]]
    layout(g, {0: {t.colour_name: t.length}, 1: {s.colour_name: s.length}})
    g.apply(0, A.ClaimRoute(t.id, ((t.colour_name, t.length),)))
    assert not any(isinstance(a, A.ClaimRoute) and a.track == s.id for a in g.legal_actions(1))
    assert_illegal(
        g, 1, A.ClaimRoute(s.id, ((s.colour_name, s.length),)), "double_route_closed", (str(players),)
    )


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("players", [4, 5])
def test_double_route_with_4_or_more_both_tracks_but_never_one_player_on_both(
    board: str, players: int
) -> None:
    """Rule: with 4-5 players both tracks are open, but one player never holds both."""
    g = game(board, players=players)
    t = _double(g)
    s = g.board.tracks[t.siblings[0]]
    layout(g, {0: {t.colour_name: t.length, s.colour_name: s.length}, 1: {s.colour_name: s.length}})
    g.apply(0, A.ClaimRoute(t.id, ((t.colour_name, t.length),)))
    g.current = 0
    assert not any(isinstance(a, A.ClaimRoute) and a.track == s.id for a in g.legal_actions(0))
    assert_illegal(g, 0, A.ClaimRoute(s.id, ((s.colour_name, s.length),)), "double_route_own")
    g.current = 1
    g.apply(1, A.ClaimRoute(s.id, ((s.colour_name, s.length),)))
    assert g.owner[s.index] == 1 and g.owner[t.index] == 0


@pytest.mark.parametrize("board", BOARDS)
def test_double_route_needs_a_track_letter(board: str) -> None:
    """Rule reading: on a double route the player says which track; the bare pair id is ambiguous."""
    g = game(board)
    t = _double(g)
    layout(g, {0: {t.colour_name: t.length}})
    assert_illegal(g, 0, A.ClaimRoute(t.pair_id, ((t.colour_name, t.length),)), "ambiguous_route", (t.id,))


@pytest.mark.parametrize("board", BOARDS)
def test_claim_scoring_table(board: str) -> None:
    """Rule: route points by length (USA 1,2,4,7,10,15; Europe 1,2,4,7,15 for 6 and 21 for 8)."""
    g = game(board)
    table = (
        {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15} if board == "usa" else {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    )
    lengths = sorted({t.length for t in g.board.tracks})
    assert lengths == sorted(table)
    for length, pts in table.items():
        assert g.board.route_points(length) == pts
        t = min(
            (t for t in g.board.tracks if t.length == length and not t.ferry_locos), key=lambda t: t.tunnel
        )
        # A tunnel paid with locomotives only pays extra for revealed locomotives: reveal none.
        layout(g, {0: {"locomotive": length}}, deck_top=["red", "red", "red"])
        g.current, g.pending = 0, None
        before = g.route_score[0]
        g.apply(0, A.ClaimRoute(t.id, (("locomotive", length),)))
        assert g.route_score[0] - before == pts
        assert g.view(0)["seats"][0]["score"] == g.route_score[0]


def test_europe_ferry_needs_one_locomotive_per_symbol() -> None:
    """Europe rule: a ferry needs a locomotive for each locomotive symbol on it."""
    g = game("europe")
    t = find_track(g, ferry_locos=2, tunnel=False)
    rest = t.length - 2
    layout(g, {0: {"red": t.length, "locomotive": 2}})
    if rest:
        assert_illegal(
            g,
            0,
            A.ClaimRoute(t.id, (("red", rest + 1), ("locomotive", 1))),
            "ferry_needs_locomotives",
            ("2",),
        )
    cards = (("red", rest), ("locomotive", 2)) if rest else (("locomotive", 2),)
    assert A.ClaimRoute(t.id, cards) in g.legal_actions(0)
    g.apply(0, A.ClaimRoute(t.id, cards))
    assert g.owner[t.index] == 0 and g.hands[0][LOCO] == 0
    assert g.hands[0][CARD_INDEX["red"]] == t.length - rest


def test_europe_ferry_legal_payments_always_include_the_locomotives() -> None:
    """Europe rule: every enumerated ferry payment holds at least its locomotive symbols."""
    g = game("europe")
    layout(g, {0: {"red": 6, "blue": 6, "locomotive": 4}})
    for a in g.legal_actions(0):
        if isinstance(a, A.ClaimRoute):
            t = g.board.track_by_id[a.track.lower()]
            assert dict(a.cards).get("locomotive", 0) >= t.ferry_locos
            give = dict(a.cards)
            assert sum(give.values()) == t.length


def test_claimed_route_appears_in_views() -> None:
    """The claim is public: every view shows the owner of the track."""
    g = game("usa", players=3)
    t = coloured(g)
    give_route(g, 2, t.id)
    for s in (0, 1, 2, None):
        assert g.view(s)["claims"][t.id] == 2
