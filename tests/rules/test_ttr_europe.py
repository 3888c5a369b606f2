"""Ticket to Ride Europe: tunnels, ferries, stations, European Express and tie-breaks (seed 001,
seed 002's note on tunnels, RULES-FACTS 'extras')."""

from __future__ import annotations

from collections import deque

import pytest
from ttr_helpers import assert_illegal, find_track, game, give_route, layout, state, track

from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, LOCO
from rules.ttr.game import TTRGame

RED = CARD_INDEX["red"]


def red_tunnel(g: TTRGame):  # type: ignore[no-untyped-def]
    return find_track(g, tunnel=True, colour_name="red", n_siblings=0)  # Erzurum–Sochi, 3


def gray_tunnel(g: TTRGame, length: int = 2):  # type: ignore[no-untyped-def]
    return find_track(g, tunnel=True, colour_name="gray", length=length, n_siblings=0)


# ----------------------------------------------------------------------------------- tunnels
def test_tunnel_reveals_three_and_surcharges_matching_colour_and_locomotives() -> None:
    """Tunnel rule: reveal the top 3 deck cards; each card of the colour played or locomotive
    costs one more card of that colour (or a locomotive)."""
    g = game("europe")
    t = red_tunnel(g)
    layout(g, {0: {"red": 5, "locomotive": 1, "blue": 2}}, deck_top=["red", "locomotive", "blue", "green"])
    events = g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    reveal = next(e for e in events if e["type"] == "tunnel_reveal")
    assert reveal["revealed"] == ["red", "locomotive", "blue"] and reveal["surcharge"] == 2
    assert g.pending == "tunnel" and g.current == 0 and g.owner[t.index] == -1
    assert g.hands[0][RED] == 5, "cards are only paid once the tunnel is settled"
    v = g.view(1)["tunnel"]
    assert v == {
        "seat": 0,
        "track": t.id,
        "revealed": ["red", "locomotive", "blue"],
        "surcharge": 2,
        "colour": "red",
    }
    legal = g.legal_actions(0)
    assert set(legal) == {
        A.PayTunnel((("red", 2),)),
        A.PayTunnel((("red", 1), ("locomotive", 1))),
        A.WithdrawTunnel(),
    }
    assert_illegal(g, 0, A.DrawDeck(), "tunnel_pending")
    assert_illegal(g, 0, A.PayTunnel((("red", 1),)), "wrong_card_count", ("2",))
    assert_illegal(g, 0, A.PayTunnel((("blue", 2),)), "wrong_colour")
    discard = len(g.discard)
    g.apply(0, A.PayTunnel((("red", 1), ("locomotive", 1))))
    assert g.owner[t.index] == 0 and g.hands[0][RED] == 1 and g.hands[0][LOCO] == 0
    assert len(g.discard) == discard + 3 + 5, "the revealed cards and the paid cards are discarded"
    assert g.current == 1 and g.tunnel is None


def test_tunnel_withdraw_takes_the_cards_back() -> None:
    """Tunnel rule: a player who cannot or will not pay takes the cards back; the turn ends."""
    g = game("europe")
    t = red_tunnel(g)
    layout(g, {0: {"red": 3}}, deck_top=["red", "red", "locomotive"])
    hand = list(g.hands[0])
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    assert g.tunnel is not None and g.tunnel["surcharge"] == 3
    assert g.legal_actions(0) == [A.WithdrawTunnel()], "no way to pay 3 more"
    assert_illegal(g, 0, A.PayTunnel((("red", 3),)), "not_enough_cards")
    g.apply(0, A.WithdrawTunnel())
    assert g.hands[0] == hand and g.owner[t.index] == -1 and g.trains[0] == 45
    assert g.current == 1 and g.pending is None
    assert sorted(g.discard) == sorted([RED, RED, LOCO])


def test_tunnel_without_matching_reveal_is_claimed_at_once() -> None:
    """Tunnel rule: no matching revealed card, no surcharge: the route is claimed immediately."""
    g = game("europe")
    t = red_tunnel(g)
    layout(g, {0: {"red": 3}}, deck_top=["blue", "green", "white"])
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    assert g.owner[t.index] == 0 and g.pending is None and g.current == 1


def test_tunnel_all_locomotive_payment_only_revealed_locomotives_count() -> None:
    """Tunnel rule: a tunnel paid with locomotives only costs extra only for revealed locomotives,
    and the extra must be locomotives."""
    g = game("europe")
    t = gray_tunnel(g)
    layout(g, {0: {"locomotive": 3, "red": 2}}, deck_top=["red", "locomotive", "red"])
    g.apply(0, A.ClaimRoute(t.id, (("locomotive", 2),)))
    assert g.tunnel is not None and g.tunnel["surcharge"] == 1 and g.tunnel["colour"] is None
    assert_illegal(g, 0, A.PayTunnel((("red", 1),)), "wrong_colour", ("locomotive",))
    assert set(g.legal_actions(0)) == {A.PayTunnel((("locomotive", 1),)), A.WithdrawTunnel()}
    g.apply(0, A.PayTunnel((("locomotive", 1),)))
    assert g.owner[t.index] == 0 and g.hands[0][LOCO] == 0 and g.hands[0][RED] == 2


def test_tunnel_gray_paid_with_a_colour_counts_that_colour() -> None:
    """Tunnel rule: on a gray tunnel the colour chosen is the one that costs extra."""
    g = game("europe")
    t = gray_tunnel(g)
    layout(g, {0: {"green": 4}}, deck_top=["green", "red", "red"])
    g.apply(0, A.ClaimRoute(t.id, (("green", 2),)))
    assert g.tunnel is not None and g.tunnel["surcharge"] == 1
    g.apply(0, A.PayTunnel((("green", 1),)))
    assert g.owner[t.index] == 0


def test_tunnel_with_fewer_than_three_cards_left_reveals_what_there_is() -> None:
    """Tunnel rule: with fewer than 3 cards in deck and discard, only those are revealed."""
    g = game("europe")
    t = red_tunnel(g)
    everything = {c: 12 for c in ("orange", "yellow", "green", "blue", "pink", "black", "white")}
    layout(
        g,
        {0: {"red": 5}, 1: {**everything, "red": 5, "locomotive": 14}},
        face_up=[None] * 5,
        deck_top=["red", "red"],
    )
    assert len(g.deck) == 2
    events = g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    reveal = next(e for e in events if e["type"] == "tunnel_reveal")
    assert reveal["revealed"] == ["red", "red"] and reveal["surcharge"] == 2
    g.apply(0, A.PayTunnel((("red", 2),)))
    assert g.owner[t.index] == 0 and g.hands[0][RED] == 0


def test_tunnel_with_no_cards_left_costs_nothing_extra() -> None:
    """Tunnel rule: with no card left to reveal there is no surcharge."""
    g = game("europe")
    t = red_tunnel(g)
    everything = {c: 12 for c in ("orange", "yellow", "green", "blue", "pink", "black", "white")}
    layout(g, {0: {"red": 3}, 1: {**everything, "red": 9, "locomotive": 14}}, face_up=[None] * 5)
    assert g.deck == [] and g.discard == []
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    assert g.owner[t.index] == 0


def test_pay_tunnel_without_a_tunnel_is_refused() -> None:
    """Bad input: paying or withdrawing with no tunnel pending changes nothing."""
    g = game("europe")
    assert_illegal(g, 0, A.PayTunnel((("red", 1),)), "no_tunnel")
    assert_illegal(g, 0, A.WithdrawTunnel(), "no_tunnel")


def test_tunnel_pending_survives_json_round_trip() -> None:
    """A pending tunnel is part of the saved state."""
    g = game("europe")
    t = red_tunnel(g)
    layout(g, {0: {"red": 5}}, deck_top=["red", "blue", "blue"])
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    again = TTRGame.from_json(g.to_json())
    assert state(again) == state(g)
    again.apply(0, A.PayTunnel((("red", 1),)))
    assert again.owner[t.index] == 0


# ----------------------------------------------------------------------------------- stations
def test_station_costs_one_two_three_cards_of_one_colour() -> None:
    """Station rule: the 1st station costs 1 card, the 2nd 2 and the 3rd 3 (one colour; locomotives
    may stand in); each player has 3."""
    g = game("europe")
    layout(g, {0: {"red": 6, "blue": 1, "locomotive": 2}})
    assert_illegal(g, 0, A.BuildStation("Berlin", (("red", 2),)), "wrong_card_count", ("1",))
    g.apply(0, A.BuildStation("Berlin", (("red", 1),)))
    assert g.station_at == {"Berlin": 0} and g.stations_left[0] == 2 and g.hands[0][RED] == 5
    g.current = 0
    assert_illegal(g, 0, A.BuildStation("Wien", (("red", 1), ("blue", 1))), "mixed_colours")
    g.apply(0, A.BuildStation("Wien", (("red", 1), ("locomotive", 1))))
    g.current = 0
    assert_illegal(g, 0, A.BuildStation("Roma", (("red", 2),)), "wrong_card_count", ("3",))
    g.apply(0, A.BuildStation("Roma", (("red", 3),)))
    g.current = 0
    assert g.stations_left[0] == 0
    assert not any(isinstance(a, A.BuildStation) for a in g.legal_actions(0))
    assert_illegal(g, 0, A.BuildStation("Paris", (("red", 1),)), "no_stations_left")


def test_one_station_per_city() -> None:
    """Station rule: a city holds at most one station (of any player)."""
    g = game("europe")
    layout(g, {0: {"red": 1}, 1: {"blue": 1}})
    g.apply(0, A.BuildStation("Berlin", (("red", 1),)))
    assert not any(isinstance(a, A.BuildStation) and a.city == "Berlin" for a in g.legal_actions(1))
    assert_illegal(g, 1, A.BuildStation("Berlin", (("blue", 1),)), "station_taken", ("Berlin",))


def test_unused_stations_score_four_each() -> None:
    """Station rule: each station not built scores 4 at the end."""
    g = game("europe")
    g.tickets[0] = []
    g.tickets[1] = []
    g.stations_left = [3, 1]
    g.station_at = {"Berlin": 1, "Wien": 1}
    rows = g.final_scores()
    assert rows[0]["breakdown"]["stations"] == 12 and rows[1]["breakdown"]["stations"] == 4
    assert rows[1]["stations_used"] == 2


def _path(g: TTRGame, a: str, b: str) -> list[int]:
    """Fewest-tracks path (track indexes) between two cities over the whole board."""
    prev: dict[str, tuple[str, int] | None] = {a: None}
    queue = deque([a])
    while queue:
        city = queue.popleft()
        if city == b:
            break
        for t in g.board.tracks_at(city):
            other = t.b if t.a == city else t.a
            if other not in prev:
                prev[other] = (city, t.index)
                queue.append(other)
    out = []
    node = b
    while prev[node] is not None:
        node, idx = prev[node]  # type: ignore[misc]
        out.append(idx)
    return out[::-1]


def test_station_borrows_one_opponent_route_to_complete_a_ticket() -> None:
    """Station rule: a station lets its owner use one opponent route into its city at the end."""
    g = game("europe")
    tid = next(
        t
        for t, c in g.board.tickets.items()
        if c.kind == "short" and len(_path(g, c.origin, c.destinations[0][0])) >= 3
    )
    card = g.board.tickets[tid]
    path = _path(g, card.origin, card.destinations[0][0])
    g.tickets[0], g.tickets[1] = [tid], []
    for i in path[:-1]:
        g.owner[i] = 0
    g.owner[path[-1]] = 1
    last = g.board.tracks[path[-1]]
    before = g.final_scores()[0]
    assert before["tickets"][0]["completed"] is False
    # A station in the end city of the opponent route that the player's own network reaches.
    own_end = next(
        c for c in (last.a, last.b) if c in (g.board.tracks[path[-2]].a, g.board.tracks[path[-2]].b)
    )
    g.station_at = {own_end: 0}
    g.stations_left[0] = 2
    row = g.final_scores()[0]
    assert row["tickets"][0]["completed"] is True
    assert row["breakdown"]["tickets_won"] == card.points
    assert row["borrowed_routes"] == [last.id]
    assert row["longest_trail"] == before["longest_trail"], "borrowed routes do not count for the Express"


def test_station_borrowed_route_chosen_to_maximise_score() -> None:
    """Station rule: with several opponent routes at the station, the one that completes the most
    valuable tickets is chosen at scoring (exactly one per station)."""
    g = game("europe", players=3)
    hub = "Wien"
    around = [t for t in g.board.tracks_at(hub)]
    assert len(around) >= 3
    t1, t2 = around[0], around[1]
    c1 = t1.b if t1.a == hub else t1.a
    c2 = t2.b if t2.a == hub else t2.a
    g.owner[t1.index] = 1
    g.owner[t2.index] = 2
    # Tickets hub-c1 (low) and hub-c2 (high), made up for this test by replacing seat 0's tickets
    # with real ticket ids whose cards we patch into a copy of the board's ticket table.
    from rules.ttr.board import TicketCard

    low = TicketCard("X-T01", hub, ((c1, 3),), "short")
    high = TicketCard("X-T02", hub, ((c2, 9),), "short")
    tickets = dict(g.board.tickets)
    tickets.update({low.id: low, high.id: high})
    object.__setattr__(g, "board", type(g.board)(**{**g.board.__dict__, "tickets": tickets}))
    g.tickets[0] = [low.id, high.id]
    g.station_at = {hub: 0}
    g.stations_left[0] = 2
    row = g.final_scores()[0]
    assert row["borrowed_routes"] == [t2.id]
    assert row["breakdown"]["tickets_won"] == 9 and row["breakdown"]["tickets_lost"] == -3


def test_station_on_an_unknown_city_is_refused() -> None:
    """Bad input: stations go in cities of the board."""
    g = game("europe")
    layout(g, {0: {"red": 1}})
    assert_illegal(g, 0, A.BuildStation("Atlantis", (("red", 1),)), "unknown_city", ("Atlantis",))


def test_no_stations_on_usa() -> None:
    """USA has no stations."""
    g = game("usa")
    layout(g, {0: {"red": 1}})
    assert_illegal(g, 0, A.BuildStation("Denver", (("red", 1),)), "no_stations")


# ----------------------------------------------------------------------------------- express / ties
def test_european_express_ten_points_ties_all_score() -> None:
    """Europe rule: the European Express (+10) goes to the longest continuous path; ties all score."""
    g = game("europe", players=3)
    g.tickets = [[], [], []]
    a = track(g, "EU001")  # Amsterdam–Bruxelles 1
    give_route(g, 0, a.id)
    give_route(g, 1, next(t for t in g.board.tracks if t.length == 1 and t.index != a.index).id)
    rows = g.final_scores()
    assert [r["breakdown"]["longest_path"] for r in rows] == [10, 10, 0]
    assert g.board.spec.longest_path_name == "European Express"


def test_europe_tie_break_tickets_then_fewest_stations_then_express() -> None:
    """Europe tie-break: most completed tickets, then fewest stations used, then European Express."""
    g = game("europe")
    g.tickets = [[], []]
    g.stations_left = [3, 3]
    g.route_score = [20, 20]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"] and rows[0]["rank"] == rows[1]["rank"] == 1
    # Fewer stations used wins (station points kept equal by adjusting route points).
    g.station_at = {"Berlin": 1}
    g.stations_left = [3, 2]
    g.route_score = [20, 24]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"]
    assert rows[0]["rank"] == 1 and rows[1]["rank"] == 2
    # With equal stations, the Express holder wins.
    g.station_at = {}
    g.stations_left = [3, 3]
    give_route(g, 1, "EU001")
    g.route_score = [31, 21]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"] == 43
    assert rows[1]["rank"] == 1 and rows[0]["rank"] == 2


@pytest.mark.parametrize("players", [2, 5])
def test_europe_double_routes_follow_player_count(players: int) -> None:
    """Europe rule: double routes are both usable only with 4 or more players."""
    g = game("europe", players=players)
    t = next(t for t in g.board.tracks if t.siblings and not t.tunnel and not t.ferry_locos)
    s = g.board.tracks[t.siblings[0]]
    give_route(g, 1, t.id)
    layout(g, {0: {"locomotive": s.length}})
    open_ = any(isinstance(a, A.ClaimRoute) and a.track == s.id for a in g.legal_actions(0))
    assert open_ == (players >= 4)


def test_europe_tie_break_tickets_come_before_stations() -> None:
    """Europe tie-break: more completed tickets beats fewer stations used."""
    g = game("europe")
    card = next(c for c in g.board.tickets.values() if c.kind == "short")
    from ttr_helpers import bfs_path

    g.tickets = [[card.id], []]
    for t in bfs_path(g, card.origin, card.destinations[0][0]):
        give_route(g, 0, t.id)
    g.station_at = {"Lisboa": 0}
    g.stations_left = [2, 3]
    for t in bfs_path(g, "Edinburgh", "London"):
        give_route(g, 1, t.id)
    rows = g.final_scores()
    g.route_score[1] += rows[0]["total"] - rows[1]["total"]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"]
    assert rows[0]["tickets_completed"] == 1 and rows[1]["tickets_completed"] == 0
    assert rows[0]["stations_used"] == 1 and rows[1]["stations_used"] == 0
    assert rows[0]["rank"] == 1 and rows[1]["rank"] == 2
