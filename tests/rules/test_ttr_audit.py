"""Audit of edge cases against the seeds and RULES-FACTS that the other rule tests do not stage:
the final round counting non-claim turns, forced passes in the final round, station payments and
borrowing, and face-up refreshes during a second draw."""

from __future__ import annotations

from ttr_helpers import bfs_path, find_track, game, layout

from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, LOCO
from rules.ttr.game import TTRGame

RED = CARD_INDEX["red"]


def _trigger_with_locomotives(g: TTRGame) -> None:
    """Seat 0 claims a plain 2-long route with 2 locomotives and is left with 2 trains."""
    t = find_track(g, length=2, tunnel=False, ferry_locos=0, n_siblings=0)
    g.trains[0] = 4
    events = g.apply(0, A.ClaimRoute(t.id, (("locomotive", 2),)))
    assert any(e["type"] == "final_round" for e in events) and g.final_turns_left == g.players


def test_final_round_counts_a_withdrawn_tunnel_and_a_ticket_draw_as_last_turns() -> None:
    """End rule (seed 004 'Chaque joueur joue encore un tour'; RULES-FACTS end trigger): once the
    final round starts, every turn counts whatever it was: a withdrawn tunnel is seat 1's last
    turn and a ticket draw is the trigger player's last turn."""
    g = game("europe")
    tunnel = find_track(g, tunnel=True, colour_name="red", n_siblings=0)
    layout(g, {0: {"locomotive": 2}, 1: {"red": 3}}, deck_top=["red", "blue", "blue"])
    _trigger_with_locomotives(g)
    assert g.current == 1
    g.apply(1, A.ClaimRoute(tunnel.id, (("red", 3),)))
    assert g.pending == "tunnel" and g.legal_actions(1) == [A.WithdrawTunnel()]
    g.apply(1, A.WithdrawTunnel())
    assert not g.is_over() and g.current == 0 and g.final_turns_left == 1
    assert g.hands[1][RED] == 3 and g.owner[tunnel.index] == -1
    g.apply(0, A.DrawTickets())
    assert not g.is_over(), "the turn is not over until the tickets are chosen"
    offer = g.offers[0] or []
    g.apply(0, A.KeepTickets((offer[0],)))
    assert g.is_over()


def test_final_round_when_nobody_can_act_ends_after_everyone_passes() -> None:
    """Rule 2 reading with the end rule: in the final round, when the deck, discard pile, face-up row
    and ticket deck are exhausted and no claim is affordable, each player must pass; the game
    ends and the passes count as the final turns."""
    g = game("usa", players=3)
    layout(g, {0: {"locomotive": 2}})
    _trigger_with_locomotives(g)
    # Everything left is out of reach: no cards anywhere to draw and no tickets.
    g.deck, g.discard, g.face_up = [], [], [-1] * 5
    g.hands = [[0] * len(h) for h in g.hands]
    for pile in g.ticket_decks.values():
        g.tickets_out += pile
        pile.clear()
    for seat in (1, 2):
        assert g.current == seat and g.legal_actions(seat) == [A.Pass()]
        g.apply(seat, A.Pass())
        assert not g.is_over()
    assert g.current == 0 and g.legal_actions(0) == [A.Pass()]
    g.apply(0, A.Pass())
    assert g.is_over() and g.final_turns_left == 0


def test_europe_station_paid_with_locomotives_only() -> None:
    """Station rule (RULES-FACTS: 1 / 2 / 3 cards of one colour, locomotives replace them): the
    second station may be paid with 2 locomotives alone; it is listed and applies."""
    g = game("europe")
    layout(g, {0: {"locomotive": 3}})
    g.stations_left[0] = 2
    pay = A.BuildStation("Wien", (("locomotive", 2),))
    assert pay in g.legal_actions(0)
    assert A.BuildStation("Wien", (("locomotive", 1),)) not in g.legal_actions(0)
    g.apply(0, pay)
    assert g.station_at == {"Wien": 0} and g.stations_left[0] == 1 and g.hands[0][LOCO] == 1
    assert sorted(g.discard)[-2:] == [LOCO, LOCO]


def _cities_along(start: str, tracks: list) -> list[str]:  # type: ignore[type-arg]
    out = [start]
    for t in tracks:
        out.append(t.b if t.a == out[-1] else t.a)
    return out


def test_two_stations_in_one_network_each_borrow_a_route_for_one_ticket() -> None:
    """Station rule (seed 001; RULES-FACTS: each station borrows exactly one opponent route into
    its city): two stations of one player, at both ends of the player's own track, each borrow a
    different opponent route and together complete one ticket."""
    g = game("europe")
    tid, path = next(
        (t, p)
        for t, c in g.board.tickets.items()
        if c.kind == "short" and len(p := bfs_path(g, c.origin, c.destinations[0][0])) == 3
    )
    card = g.board.tickets[tid]
    cities = _cities_along(card.origin, path)
    g.tickets[0], g.tickets[1] = [tid], []
    g.owner[path[0].index] = 1
    g.owner[path[1].index] = 0
    g.owner[path[2].index] = 1
    g.station_at = {cities[1]: 0}
    g.stations_left[0] = 2
    assert g.final_scores()[0]["tickets"][0]["completed"] is False, "one station borrows only one route"
    g.station_at = {cities[1]: 0, cities[2]: 0}
    g.stations_left[0] = 1
    row = g.final_scores()[0]
    assert row["tickets"][0]["completed"] is True and row["breakdown"]["tickets_won"] == card.points
    assert sorted(row["borrowed_routes"]) == sorted([path[0].id, path[2].id])
    assert row["stations_used"] == 2 and row["breakdown"]["stations"] == 4


def test_refresh_during_the_second_draw_happens_before_the_turn_ends() -> None:
    """Face-up rule (seed 002: 'Se, in qualsiasi momento, tra le carte a terra vi sono 3
    locomotive'): a replacement locomotive for the second card that makes three face-up
    locomotives discards the row and deals five new cards at once."""
    g = game("usa")
    layout(
        g,
        {},
        face_up=["red", "locomotive", "locomotive", "blue", "green"],
        deck_top=["white", "locomotive", "orange", "orange", "orange", "orange", "orange"],
    )
    g.apply(0, A.DrawDeck())
    assert g.pending == "draw_second"
    events = g.apply(0, A.DrawFaceUp(0))
    assert [e["type"] for e in events][:2] == ["draw_face", "refresh"]
    assert g.face_up_names() == ["orange"] * 5
    assert g.hands[0][CARD_INDEX["white"]] == 1 and g.hands[0][RED] == 1
    assert sorted(g.discard) == sorted([LOCO, LOCO, LOCO, CARD_INDEX["blue"], CARD_INDEX["green"]])
    assert g.current == 1
