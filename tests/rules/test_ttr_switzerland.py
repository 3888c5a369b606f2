"""Ticket to Ride Switzerland: published rules (RULES-FACTS) and seed 004's digital edition."""

from __future__ import annotations

import pytest
from ttr_helpers import assert_illegal, bfs_path, find_track, game, give_route, layout

from rules.errors import IllegalAction
from rules.games import new_game
from rules.ttr import actions as A
from rules.ttr.board import LOCO, load_board


def test_switzerland_board_data_counts() -> None:
    """Data: 34 cities + 4 countries, 88 tracks, 205 spaces, 46 tickets (34 city-city, 4
    city-country, 8 country-country); seed 004's 12 cards per colour and 14 locomotives."""
    b = load_board("switzerland")
    assert len(b.city_names) == 34 and sorted(b.country_names) == [
        "Deutschland",
        "France",
        "Italia",
        "Österreich",
    ]
    assert len(b.tracks) == 88 and sum(t.length for t in b.tracks) == 205
    kinds = [t.kind for t in b.tickets.values()]
    assert len(kinds) == 46
    assert (kinds.count("city-city"), kinds.count("city-country"), kinds.count("country-country")) == (
        34,
        4,
        8,
    )
    assert b.spec.deck == (12,) * 8 + (14, 0, 0)
    assert (b.spec.min_players, b.spec.max_players) == (2, 3)


def test_switzerland_forty_trains_and_two_or_three_players() -> None:
    """Rule: 40 trains each; 2-3 players."""
    g = game("switzerland", players=3)
    assert g.trains == [40, 40, 40]
    for n in (1, 4):
        with pytest.raises(IllegalAction) as info:
            new_game("ttr", {"board": "switzerland"}, n, 1)
        assert info.value.code == "bad_config"


def test_locomotive_on_a_non_tunnel_is_refused_with_the_rule() -> None:
    """Rule: locomotives may only be played on tunnels (seed 004); the refusal names the rule."""
    g = game("switzerland")
    t = find_track(g, tunnel=False, colour_name="white", country=False)
    layout(g, {0: {"white": t.length - 1, "locomotive": 3}})
    msg = assert_illegal(
        g,
        0,
        A.ClaimRoute(t.id, (("white", t.length - 1), ("locomotive", 1))),
        "locomotive_not_allowed",
        ("only", "tunnel"),
    )
    assert t.label in msg
    assert not any(isinstance(a, A.ClaimRoute) and a.track == t.id for a in g.legal_actions(0))


def test_locomotives_pay_a_whole_tunnel_and_its_surcharge() -> None:
    """Rule: on a tunnel locomotives are wild: a whole tunnel and its surcharge may be locomotives."""
    g = game("switzerland")
    t = find_track(g, tunnel=True, n_siblings=0, length=3)
    layout(g, {0: {"locomotive": 5}}, deck_top=["locomotive", "red", "blue"])
    g.apply(0, A.ClaimRoute(t.id, (("locomotive", 3),)))
    assert g.tunnel is not None and g.tunnel["surcharge"] == 1
    g.apply(0, A.PayTunnel((("locomotive", 1),)))
    assert g.owner[t.index] == 0 and g.hands[0][LOCO] == 1


def test_tunnel_coloured_payment_with_locomotive_help() -> None:
    """Rule: on a tunnel a colour plus locomotives is allowed; revealed locomotives cost extra."""
    g = game("switzerland")
    t = find_track(g, tunnel=True, n_siblings=0, colour_name="yellow")
    layout(g, {0: {"yellow": t.length, "locomotive": 2}}, deck_top=["green", "locomotive", "green"])
    g.apply(0, A.ClaimRoute(t.id, (("yellow", t.length - 1), ("locomotive", 1))))
    assert g.tunnel is not None and g.tunnel["surcharge"] == 1
    assert A.PayTunnel((("yellow", 1),)) in g.legal_actions(0)
    g.apply(0, A.PayTunnel((("yellow", 1),)))
    assert g.owner[t.index] == 0


def test_face_up_locomotive_counts_one_card_two_may_be_taken() -> None:
    """Rule: in Switzerland a face-up locomotive counts as one card: a second card (even a second
    face-up locomotive) follows."""
    g = game("switzerland")
    layout(g, {}, face_up=["locomotive", "locomotive", "red", "blue", "green"], deck_top=["white", "pink"])
    g.apply(0, A.DrawFaceUp(0))
    assert g.current == 0 and g.pending == "draw_second"
    assert A.DrawFaceUp(1) in g.legal_actions(0)
    g.apply(0, A.DrawFaceUp(1))
    assert g.hands[0][LOCO] == 2 and g.current == 1


def test_three_face_up_locomotives_still_refresh() -> None:
    """Rule: the face-up row is refreshed at 3 locomotives on the Swiss board too."""
    g = game("switzerland")
    layout(
        g,
        {},
        face_up=["locomotive", "locomotive", "red", "blue", "green"],
        deck_top=["locomotive", "white", "pink", "black", "orange", "yellow"],
    )
    events = g.apply(0, A.DrawFaceUp(2))
    assert any(e["type"] == "refresh" for e in events)
    assert g.face_up.count(LOCO) < 3


def _ticket(g, kind):  # type: ignore[no-untyped-def]
    return next(t for t in g.board.tickets.values() if t.kind == kind)


def test_country_ticket_scores_highest_completed_destination() -> None:
    """Rule: a city-country ticket scores its highest completed country."""
    g = game("switzerland")
    card = _ticket(g, "city-country")
    g.tickets = [[card.id], []]
    row = g.final_scores()[0]
    assert row["breakdown"]["tickets_lost"] == -min(p for _, p in card.destinations), "none: lose the lowest"
    pts = dict(card.destinations)
    ranked = sorted(pts, key=pts.get)  # type: ignore[arg-type]
    low, high = ranked[0], ranked[-1]
    for t in bfs_path(g, card.origin, low):
        give_route(g, 0, t.id)
    row = g.final_scores()[0]
    assert row["breakdown"]["tickets_won"] == pts[low] and row["tickets_completed"] == 1
    for t in bfs_path(g, card.origin, high):
        if g.owner[t.index] == -1 and not any(g.owner[s] == 0 for s in t.siblings):
            give_route(g, 0, t.id)
    row = g.final_scores()[0]
    assert row["breakdown"]["tickets_won"] == pts[high] and row["breakdown"]["tickets_lost"] == 0


def test_country_to_country_ticket() -> None:
    """Rule: a country-country ticket scores its best connected country, else loses the lowest."""
    g = game("switzerland")
    card = _ticket(g, "country-country")
    g.tickets = [[card.id], []]
    dest, pts = card.destinations[0]
    assert g.final_scores()[0]["tickets"][0]["value"] == -min(p for _, p in card.destinations)
    for t in bfs_path(g, card.origin, dest):
        give_route(g, 0, t.id)
    value = g.final_scores()[0]["tickets"][0]["value"]
    assert value >= pts and value in dict(card.destinations).values()


def test_a_country_is_one_node_reachable_through_any_border_route() -> None:
    """Rule: every border route into a country reaches that country (Deutschland via Schaffhausen
    or via Kreuzlingen completes the same destination)."""
    card = next(
        t
        for t in load_board("switzerland").tickets.values()
        if t.kind == "city-country" and "Deutschland" in dict(t.destinations)
    )
    for border in ("Schaffhausen", "Kreuzlingen", "Basel"):
        g = game("switzerland")
        g.tickets = [[card.id], []]
        for t in bfs_path(g, card.origin, border):
            give_route(g, 0, t.id)
        edge = next(t for t in g.board.tracks if {t.a, t.b} == {border, "Deutschland"})
        give_route(g, 0, edge.id)
        info = g.final_scores()[0]["tickets"][0]
        assert info["completed"] and info["value"] >= dict(card.destinations)["Deutschland"]


def _double(g):  # type: ignore[no-untyped-def]
    return next(t for t in g.board.tracks if t.siblings and not t.tunnel)


def test_double_routes_two_players_only_one_track() -> None:
    """Rule: with 2 players only one track of a double route may be claimed."""
    g = game("switzerland", players=2)
    t = _double(g)
    s = g.board.tracks[t.siblings[0]]
    give_route(g, 0, t.id)
    layout(g, {1: {s.colour_name if s.colour >= 0 else "red": s.length}})
    g.current = 1
    colour = s.colour_name if s.colour >= 0 else "red"
    assert_illegal(g, 1, A.ClaimRoute(s.id, ((colour, s.length),)), "double_route_closed")


def test_double_routes_three_players_both_but_not_one_player_on_both() -> None:
    """Rule: with 3 players both tracks may be claimed, by two different players."""
    g = game("switzerland", players=3)
    t = _double(g)
    s = g.board.tracks[t.siblings[0]]
    colour = s.colour_name if s.colour >= 0 else "red"
    give_route(g, 0, t.id)
    layout(g, {0: {colour: s.length}, 1: {colour: s.length}})
    assert_illegal(g, 0, A.ClaimRoute(s.id, ((colour, s.length),)), "double_route_own")
    g.current = 1
    g.apply(1, A.ClaimRoute(s.id, ((colour, s.length),)))
    assert g.owner[s.index] == 1


def test_opening_deal_five_keep_two_returned_leave_the_game() -> None:
    """Rule: deal 5 tickets, keep at least 2; tickets not kept leave the game."""
    g = game("switzerland", setup=False)
    assert [len(o or []) for o in g.offers] == [5, 5]
    offer = list(g.offers[0] or [])
    assert_illegal(g, 0, A.KeepTickets((offer[0],)), "wrong_ticket_count")
    g.apply(0, A.KeepTickets(tuple(offer[:2])))
    assert set(offer[2:]) <= set(g.tickets_out)
    assert not set(offer[2:]) & set(g.ticket_decks["short"])


def test_draw_three_keep_one_returned_leave_the_game() -> None:
    """Rule: drawing tickets shows 3, keep at least 1; the others leave the game."""
    g = game("switzerland")
    g.apply(0, A.DrawTickets())
    offer = list(g.offers[0] or [])
    assert len(offer) == 3
    assert_illegal(g, 0, A.KeepTickets(()), "wrong_ticket_count")
    out = len(g.tickets_out)
    g.apply(0, A.KeepTickets((offer[0],)))
    assert len(g.tickets_out) == out + 2 and set(offer[1:]) <= set(g.tickets_out)


def test_digital_variant_two_players_keep_exactly_three_then_exactly_one() -> None:
    """Seed 004 variant 'digital': two players; keep exactly 3 of the 5 opening tickets; drawing
    tickets offers 3 and exactly 1 is kept."""
    with pytest.raises(IllegalAction):
        new_game("ttr", {"board": "switzerland", "variant": "digital"}, 3, 1)
    g = game("switzerland", setup=False, variant="digital")
    assert g.view(0)["variant"] == "digital"
    assert any("digital" in n.lower() or "3 of 5" in n for n in g.view(0)["notes"])
    offer = list(g.offers[0] or [])
    assert len(offer) == 5
    assert g.view(0)["you"]["keep_min"] == g.view(0)["you"]["keep_max"] == 3
    assert_illegal(g, 0, A.KeepTickets(tuple(offer[:2])), "wrong_ticket_count", ("exactly 3",))
    assert_illegal(g, 0, A.KeepTickets(tuple(offer[:4])), "wrong_ticket_count", ("exactly 3",))
    assert all(len(a.ids) == 3 for a in g.legal_actions(0))
    g.apply(0, A.KeepTickets(tuple(offer[:3])))
    g.apply(1, A.KeepTickets(tuple((g.offers[1] or [])[:3])))
    g.apply(0, A.DrawTickets())
    offer = list(g.offers[0] or [])
    assert len(offer) == 3
    assert_illegal(g, 0, A.KeepTickets(tuple(offer[:2])), "wrong_ticket_count", ("exactly 1",))
    assert all(len(a.ids) == 1 for a in g.legal_actions(0))
    g.apply(0, A.KeepTickets((offer[2],)))
    assert len(g.tickets[0]) == 4


def test_switzerland_longest_path_bonus() -> None:
    """Rule: the longest continuous path scores +10 in Switzerland (no Globetrotter)."""
    g = game("switzerland")
    assert g.board.spec.longest_path_bonus == 10
    g.tickets = [[], []]
    give_route(g, 1, find_track(g, length=3).id)
    rows = g.final_scores()
    assert rows[1]["breakdown"]["longest_path"] == 10 and rows[0]["breakdown"]["longest_path"] == 0
    assert "globetrotter" not in rows[1]["breakdown"]


def test_digital_variant_unpayable_tunnel_passes_the_turn_automatically() -> None:
    """Seed 004 (digital edition): 'Si le joueur n'a pas les cartes supplémentaires nécessaires, son
    tour est passé automatiquement' — a tunnel surcharge the player cannot pay ends the turn at once,
    the cards going back to the hand. (The published rules keep the explicit withdraw.)"""
    g = game("switzerland", variant="digital")
    t = find_track(g, tunnel=True, n_siblings=0, colour_name="yellow")
    layout(g, {0: {"yellow": t.length}}, deck_top=["yellow", "green", "red"])
    hand = list(g.hands[0])
    events = g.apply(0, A.ClaimRoute(t.id, (("yellow", t.length),)))
    assert any(e["type"] == "tunnel_withdraw" for e in events)
    assert g.pending is None and g.tunnel is None and g.current == 1
    assert g.hands[0] == hand and g.owner[t.index] == -1
    # Payable: the choice is offered as usual.
    g = game("switzerland", variant="digital")
    layout(g, {0: {"yellow": t.length + 1}}, deck_top=["yellow", "green", "red"])
    g.apply(0, A.ClaimRoute(t.id, (("yellow", t.length),)))
    assert g.pending == "tunnel"
    # Published rules: the player withdraws explicitly.
    g = game("switzerland")
    layout(g, {0: {"yellow": t.length}}, deck_top=["yellow", "green", "red"])
    g.apply(0, A.ClaimRoute(t.id, (("yellow", t.length),)))
    assert g.pending == "tunnel" and g.legal_actions(0) == [A.WithdrawTunnel()]
