"""Ticket to Ride: Märklin on the Germany board: one or more tests for each of seed 000's 27
numbered rules, plus the deck, bonuses and honest-data notes (RULES-FACTS 'Märklin')."""

from __future__ import annotations

from collections import Counter

import pytest
from ttr_helpers import assert_illegal, game, give_route, layout, state, track

from rules.errors import IllegalAction
from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, LOCO, PASSENGER, PLUS4, load_board
from rules.ttr.game import TTRGame

ROW = ["red", "blue", "green", "yellow", "black"]
ALL11 = {c: 11 for c in ("red", "orange", "yellow", "green", "blue", "pink", "black", "white")}


def mk(players: int = 2, seed: int = 3) -> TTRGame:
    return game("germany", players=players, seed=seed)


# ----------------------------------------------------------------------------------- deck
def test_marklin_deck_118_cards() -> None:
    """Deck: 118 cards = 11 of each of 8 colours, 14 plain locomotives, 6 '+4' locomotives and
    10 passenger cards; 4 in each hand and 5 face up."""
    g = game("germany", players=3, setup=False)
    counts = Counter(g.deck + [c for c in g.face_up if c >= 0])
    for h in g.hands:
        assert sum(h) == 4
        counts.update({i: n for i, n in enumerate(h)})
    assert sum(counts.values()) == 118
    assert [counts[i] for i in range(8)] == [11] * 8
    assert (counts[LOCO], counts[PLUS4], counts[PASSENGER]) == (14, 6, 10)
    assert g.trains == [45, 45, 45] and g.passengers_left == [3, 3, 3]


# ----------------------------------------------------------------------------------- rules 1-8
def test_marklin_rule_01_exactly_one_action_per_turn() -> None:
    """Rule 1: one action per turn: after claiming, the turn passes to the next player."""
    g = mk()
    t = track(g, "DE008")  # Berlin–Magdeburg 3 red
    layout(g, {0: {"red": 6}})
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    assert g.current == 1
    assert_illegal(g, 0, A.ClaimRoute("DE067", (("red", 2),)), "not_your_turn")


def test_marklin_rule_02_mandatory_action_when_no_cards_to_draw() -> None:
    """Rule 2: an action is mandatory; with no train cards to draw a different action is required
    (passing is refused while any other action exists)."""
    g = mk()
    layout(g, {0: {**ALL11, "passenger": 10}, 1: {"locomotive": 14, "plus4": 6}}, face_up=[None] * 5)
    assert g.deck == [] and g.discard == []
    legal = g.legal_actions(0)
    assert not any(isinstance(a, A.DrawDeck | A.DrawFaceUp) for a in legal)
    assert any(isinstance(a, A.ClaimRoute) for a in legal) and any(
        isinstance(a, A.DrawTickets) for a in legal
    )
    assert_illegal(g, 0, A.DrawDeck(), "deck_empty")
    assert_illegal(g, 0, A.Pass(), "must_act", ("rule 2",))


def test_marklin_rule_03_face_up_plain_locomotive_is_the_whole_draw() -> None:
    """Rule 3: draw 1 face-up plain locomotive (the whole draw) ..."""
    g = mk()
    layout(g, {}, face_up=["locomotive", *ROW[:4]], deck_top=["white"])
    g.apply(0, A.DrawFaceUp(0))
    assert g.hands[0][LOCO] == 1 and g.current == 1


def test_marklin_rule_03_two_cards_neither_a_face_up_plain_locomotive() -> None:
    """Rule 3: ... OR 2 cards, neither of which is a face-up plain locomotive."""
    g = mk()
    layout(g, {}, face_up=["red", "locomotive", "blue", "green", "yellow"], deck_top=["white"])
    g.apply(0, A.DrawFaceUp(0))
    assert_illegal(g, 0, A.DrawFaceUp(1), "locomotive_second")
    assert A.DrawFaceUp(1) not in g.legal_actions(0)


@pytest.mark.parametrize("card", ["plus4", "passenger"])
def test_marklin_rule_03_face_up_plus4_or_passenger_counts_one(card: str) -> None:
    """Rule 3: only a face-up *plain* locomotive is the whole draw: a face-up '+4' locomotive or
    passenger card counts as one card, and may also be the second card."""
    g = mk()
    layout(g, {}, face_up=[card, card, "red", "blue", "green"], deck_top=["white", "pink"])
    g.apply(0, A.DrawFaceUp(0))
    assert g.current == 0 and g.pending == "draw_second"
    g.apply(0, A.DrawFaceUp(1))
    assert g.hands[0][CARD_INDEX[card]] == 2 and g.current == 1


def test_marklin_rule_03_blind_plain_locomotive_counts_one() -> None:
    """Rule 3: a plain locomotive drawn from the deck is one of the two cards."""
    g = mk()
    layout(g, {}, face_up=ROW, deck_top=["locomotive", "red"])
    g.apply(0, A.DrawDeck())
    assert g.pending == "draw_second"
    g.apply(0, A.DrawDeck())
    assert g.hands[0][LOCO] == 1 and g.current == 1


def test_marklin_rule_04_draw_sources_deck_top_or_face_up_replaced() -> None:
    """Rule 4: draw from the top of the deck, or take a face-up card which is replaced from the deck."""
    g = mk()
    layout(g, {}, face_up=ROW, deck_top=["white", "orange"])
    g.apply(0, A.DrawFaceUp(3))
    assert g.hands[0][CARD_INDEX["yellow"]] == 1 and g.face_up[3] == CARD_INDEX["white"]
    g.apply(0, A.DrawDeck())
    assert g.hands[0][CARD_INDEX["orange"]] == 1


def test_marklin_rule_05_new_face_up_card_seen_before_second_pick() -> None:
    """Rule 5: the replacement card is visible (in every view) before the second card is chosen,
    and may be taken as the second card."""
    g = mk()
    layout(g, {}, face_up=ROW, deck_top=["pink", "orange"])
    g.apply(0, A.DrawFaceUp(0))
    assert g.view(0)["face_up"][0] == "pink" and g.view(1)["face_up"][0] == "pink"
    assert g.view(0)["pending"] == "draw_second"
    g.apply(0, A.DrawFaceUp(0))
    assert g.hands[0][CARD_INDEX["pink"]] == 1 and g.hands[0][CARD_INDEX["red"]] == 1


def test_marklin_rule_06_three_plain_locomotives_refresh() -> None:
    """Rule 6: at any time 3 face-up plain locomotives: discard all 5 and deal 5 new."""
    g = mk()
    layout(
        g,
        {},
        face_up=["red", "locomotive", "locomotive", "blue", "green"],
        deck_top=["locomotive", "white", "orange", "pink", "black", "yellow"],
    )
    events = g.apply(0, A.DrawFaceUp(0))
    assert [e["type"] for e in events].count("refresh") == 1
    assert g.face_up_names() == ["white", "orange", "pink", "black", "yellow"]


def test_marklin_rule_06_three_plus4_do_not_refresh() -> None:
    """Rule 6: only *plain* locomotives trigger the refresh; three '+4' locomotives stay."""
    g = mk()
    layout(g, {}, face_up=["red", "plus4", "plus4", "blue", "green"], deck_top=["plus4", "white"])
    events = g.apply(0, A.DrawFaceUp(0))
    assert not any(e["type"] == "refresh" for e in events)
    assert g.face_up.count(PLUS4) == 3


def test_marklin_rule_07_three_passenger_cards_refresh() -> None:
    """Rule 7: at any time 3 face-up passenger cards: discard all 5 and deal 5 new."""
    g = mk()
    layout(
        g,
        {},
        face_up=["red", "passenger", "passenger", "blue", "green"],
        deck_top=["passenger", "white", "orange", "pink", "black", "yellow"],
    )
    events = g.apply(0, A.DrawFaceUp(0))
    assert [e["type"] for e in events].count("refresh") == 1
    assert g.face_up_names() == ["white", "orange", "pink", "black", "yellow"]
    assert g.discard.count(PASSENGER) == 3


def test_marklin_rule_07_refresh_does_not_loop_forever() -> None:
    """Rules 6-7: when deck and discard can only give passenger/locomotive rows, refreshing stops."""
    g = mk()
    layout(g, {0: ALL11, 1: {"plus4": 6}}, face_up=["passenger"] * 3 + ["locomotive"] * 2)
    g.apply(0, A.DrawDeck())
    g.apply(0, A.DrawDeck())
    assert g.current == 1


def test_marklin_rule_08_reshuffle_discards_when_deck_exhausted() -> None:
    """Rule 8: when the deck is exhausted the discards are shuffled into a new deck."""
    g = mk()
    layout(g, {}, face_up=ROW, rest_to="discard")
    assert g.deck == []
    g.apply(0, A.DrawDeck())
    assert g.shuffles == 1 and sum(g.hands[0]) == 1 and g.discard == []


# ----------------------------------------------------------------------------------- rules 9-16
def test_marklin_rule_09_matching_colour_and_length() -> None:
    """Rule 9: a set of cards matching the route's colour and length (one card per space)."""
    g = mk()
    t = track(g, "DE008")  # red 3
    layout(g, {0: {"red": 3, "blue": 3}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("blue", 3),)), "wrong_colour")
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("red", 2),)), "wrong_card_count")
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),)))
    assert g.owner[t.index] == 0


def test_marklin_rule_10_gray_route_any_one_colour() -> None:
    """Rule 10: a gray route takes any one colour."""
    g = mk()
    t = track(g, "DE001a")  # Augsburg–München gray 2
    layout(g, {0: {"pink": 1, "white": 1, "orange": 2}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("pink", 1), ("white", 1))), "mixed_colours")
    g.apply(0, A.ClaimRoute(t.id, (("orange", 2),)))
    assert g.owner[t.index] == 0


def test_marklin_rule_11_plain_locomotives_any_number() -> None:
    """Rule 11: any number of plain locomotives replace cards of the colour, on any route."""
    g = mk()
    t = track(g, "DE008")  # red 3
    layout(g, {0: {"red": 1, "locomotive": 3}})
    pays = {a.cards for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.track == t.id}
    assert (("red", 1), ("locomotive", 2)) in pays and (("locomotive", 3),) in pays
    g.apply(0, A.ClaimRoute(t.id, (("locomotive", 3),)))
    assert g.owner[t.index] == 0


def test_marklin_rule_12_plus4_only_on_routes_of_four_or_more() -> None:
    """Rule 12: '+4' locomotives replace colour cards only on routes of 4 or more spaces."""
    g = mk()
    short = track(g, "DE008")  # 3
    long_ = track(g, "DE007")  # Berlin–Leipzig orange 4
    layout(g, {0: {"red": 2, "orange": 2, "plus4": 2}})
    msg = assert_illegal(
        g, 0, A.ClaimRoute(short.id, (("red", 2), ("plus4", 1))), "plus4_too_short", ("rule 12",)
    )
    assert "4" in msg
    assert not any(isinstance(a, A.ClaimRoute) and a.track == short.id for a in g.legal_actions(0))
    assert A.ClaimRoute(long_.id, (("orange", 2), ("plus4", 2))) in g.legal_actions(0)
    g.apply(0, A.ClaimRoute(long_.id, (("orange", 2), ("plus4", 2))))
    assert g.owner[long_.index] == 0 and g.hands[0][PLUS4] == 0


@pytest.mark.parametrize("pair", ["DE024", "DE029"])
def test_marklin_rule_13_triple_route_any_track_never_two_for_one_player(pair: str) -> None:
    """Rule 13: in a double or triple route any single track may be claimed, but no player may
    hold two tracks of it (4-5 players: the other tracks stay open to others)."""
    g = mk(players=4)
    a, b, c = (track(g, f"{pair}{x}") for x in "abc")
    layout(g, {0: {"red": 2}, 1: {"blue": 1}, 2: {"green": 1}})
    g.apply(0, A.ClaimRoute(b.id, (("red", 1),)))
    g.current = 0
    assert_illegal(g, 0, A.ClaimRoute(c.id, (("red", 1),)), "double_route_own", ("two tracks",))
    g.current = 1
    g.apply(1, A.ClaimRoute(a.id, (("blue", 1),)))
    g.apply(2, A.ClaimRoute(c.id, (("green", 1),)))
    assert [g.owner[x.index] for x in (a, b, c)] == [1, 0, 2]


@pytest.mark.parametrize("players", [2, 3])
def test_marklin_rule_14_two_or_three_players_one_track_of_double_or_triple(players: int) -> None:
    """Rule 14: with 2 or 3 players only one track of a double or triple route may be claimed."""
    g = mk(players=players)
    a, b, c = (track(g, f"DE024{x}") for x in "abc")
    layout(g, {0: {"red": 1}, 1: {"blue": 2}})
    g.apply(0, A.ClaimRoute(c.id, (("red", 1),)))
    for other in (a, b):
        assert_illegal(g, 1, A.ClaimRoute(other.id, (("blue", 1),)), "double_route_closed", (str(players),))
    d = track(g, "DE005a")
    give_route(g, 0, d.id)
    layout(g, {1: {"yellow": 7}})
    assert_illegal(g, 1, A.ClaimRoute("DE005b", (("yellow", 7),)), "double_route_closed")


def test_marklin_rule_15_cannot_claim_a_route_you_cannot_fill() -> None:
    """Rule 15: the route is filled with the player's trains and the cards discarded; a route the
    player cannot fill with trains may not be claimed."""
    g = mk()
    t = track(g, "DE007")  # 4
    layout(g, {0: {"orange": 4}})
    g.trains[0] = 3
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("orange", 4),)), "not_enough_trains")
    g.trains[0] = 45
    g.apply(0, A.ClaimRoute(t.id, (("orange", 4),)))
    assert (
        g.trains[0] == 41
        and g.discard.count(CARD_INDEX["orange"]) == 4
        and g.hands[0][CARD_INDEX["orange"]] == 0
    )


def test_marklin_rule_16_route_scores_1_2_4_7_10_15_18() -> None:
    """Rule 16: routes of 1..7 spaces score 1/2/4/7/10/15/18."""
    board = load_board("germany")
    assert [board.route_points(n) for n in range(1, 8)] == [1, 2, 4, 7, 10, 15, 18]
    g = mk()
    t = track(g, "DE006")  # Berlin–Hannover black 7
    layout(g, {0: {"black": 7}})
    g.apply(0, A.ClaimRoute(t.id, (("black", 7),)))
    assert g.route_score[0] == 18 and g.view(1)["seats"][0]["score"] == 18


# ----------------------------------------------------------------------------------- rule 17
def test_marklin_rule_17_optional_passenger_placement_on_claimed_route() -> None:
    """Rule 17: after claiming, a passenger may be placed in one of the route's two cities; it is
    optional; each player has 3."""
    g = mk()
    t = track(g, "DE008")  # Berlin–Magdeburg
    layout(g, {0: {"red": 3}, 1: {"yellow": 2}})
    places = {a.passenger for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.track == t.id}
    assert places == {None, "Berlin", "Magdeburg"}
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("red", 3),), "Leipzig"), "passenger_not_on_route", ("rule 17",))
    g.apply(0, A.ClaimRoute(t.id, (("red", 3),), "Berlin"))
    assert g.passenger_at == {"Berlin": 0} and g.passengers_left[0] == 2
    assert g.view(1)["passengers"] == {"Berlin": 0}
    g.apply(1, A.ClaimRoute("DE067", (("yellow", 2),)))  # without a passenger
    assert g.passengers_left[1] == 3 and g.owner[track(g, "DE067").index] == 1


def test_marklin_rule_17_not_where_a_passenger_stands() -> None:
    """Rule 17: no passenger may be placed in a city where a passenger already stands."""
    g = mk()
    g.passenger_at = {"Magdeburg": 1}
    g.passengers_left[1] = 2
    t = track(g, "DE067")  # Leipzig–Magdeburg yellow 2
    layout(g, {0: {"yellow": 2}})
    assert_illegal(
        g, 0, A.ClaimRoute(t.id, (("yellow", 2),), "Magdeburg"), "passenger_city_taken", ("rule 17",)
    )
    places = {a.passenger for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.track == t.id}
    assert places == {None, "Leipzig"}


def test_marklin_rule_17_never_on_a_country() -> None:
    """Rule 17: passengers may not be placed in the unnamed cities outside Germany."""
    g = mk()
    t = track(g, "DE066")  # Konstanz–Schweiz white 1
    layout(g, {0: {"white": 1}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("white", 1),), "Schweiz"), "passenger_country", ("rule 17",))
    places = {a.passenger for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute) and a.track == t.id}
    assert places == {None, "Konstanz"}


def test_marklin_rule_17_only_three_passengers() -> None:
    """Rule 17 / setup: each player has 3 passengers; a fourth cannot be placed."""
    g = mk()
    g.passengers_left[0] = 0
    g.passenger_at = {"Kiel": 0, "Emden": 0, "Ulm": 0}
    t = track(g, "DE008")
    layout(g, {0: {"red": 3}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("red", 3),), "Berlin"), "no_passengers_left")
    assert all(a.passenger is None for a in g.legal_actions(0) if isinstance(a, A.ClaimRoute))


# ----------------------------------------------------------------------------------- rules 18-20
def test_marklin_rule_18_announce_a_mix_of_four_at_start_keep_two() -> None:
    """Rule 18 (and setup): announce any mix of 4 short and long tickets, then draw them; at the
    start at least 2 are kept."""
    g = game("germany", setup=False)
    assert g.offers == [None, None]
    assert set(g.legal_actions(0)) == {A.DrawTickets(s, 4 - s) for s in range(5)}
    assert_illegal(g, 0, A.DrawTickets(2, 1), "announce_tickets", ("rule 18",))
    assert_illegal(g, 0, A.KeepTickets(("DE17-T01",)), "choose_tickets", ("announcing", "rule 18"))
    g.apply(0, A.DrawTickets(1, 3))
    kinds = sorted(g.board.tickets[t].kind for t in g.offers[0] or [])
    assert kinds == ["long", "long", "long", "short"]
    offer = list(g.offers[0] or [])
    assert_illegal(g, 0, A.KeepTickets((offer[0],)), "wrong_ticket_count")
    g.apply(0, A.KeepTickets(tuple(offer[:2])))
    assert g.ticket_decks["long"][0] in offer[2:] or g.ticket_decks["short"][0] in offer[2:]


def test_marklin_rule_19_keep_one_to_four_unkept_to_bottom_of_own_deck() -> None:
    """Rule 19: keep 1-4 of the drawn tickets; the unkept go under their own deck (short under
    short, long under long)."""
    g = mk()
    g.apply(0, A.DrawTickets(2, 2))
    offer = list(g.offers[0] or [])
    assert g.view(0)["you"]["keep_min"] == 1 and g.view(0)["you"]["keep_max"] == 4
    assert_illegal(g, 0, A.KeepTickets(()), "wrong_ticket_count")
    short = [t for t in offer if g.board.tickets[t].kind == "short"]
    long_ = [t for t in offer if g.board.tickets[t].kind == "long"]
    g.apply(0, A.KeepTickets((short[0],)))
    assert g.ticket_decks["short"][0] == short[1]
    assert set(g.ticket_decks["long"][:2]) == set(long_)
    assert g.current == 1


def test_marklin_rule_19_keep_all_four() -> None:
    """Rule 19: all four may be kept."""
    g = mk()
    g.apply(0, A.DrawTickets(4, 0))
    n = len(g.tickets[0])
    g.apply(0, A.KeepTickets(tuple(g.offers[0] or [])))
    assert len(g.tickets[0]) == n + 4


def test_marklin_rule_20_draw_only_what_is_available() -> None:
    """Rule 20: with too few cards left in an announced deck, draw only what is there."""
    g = mk()
    g.tickets_out += g.ticket_decks["long"][1:]
    g.ticket_decks["long"] = g.ticket_decks["long"][:1]
    g.apply(0, A.DrawTickets(1, 3))
    kinds = sorted(g.board.tickets[t].kind for t in g.offers[0] or [])
    assert kinds == ["long", "short"]
    g.apply(0, A.KeepTickets(tuple(g.offers[0] or [])))
    assert g.ticket_decks["long"] == []
    assert_illegal(g, 1, A.DrawTickets(0, 4), "no_tickets", ("rule 20",))


# ----------------------------------------------------------------------------------- rules 21-27
# A passenger moves route by route: StartJourney names it, TravelRoute takes one route at a time,
# EndJourney ends the move (the whole-journey MovePassenger of older games still applies).
def _line(g: TTRGame, seat: int, ids: list[str]) -> None:
    for tid in ids:
        give_route(g, seat, tid)


def travel(g: TTRGame, seat: int, start: str, ids: tuple[str, ...] | list[str]) -> None:
    """Move ``seat``'s passenger from ``start`` along ``ids`` step by step, each step listed first."""
    assert A.StartJourney(start) in g.legal_actions(seat)
    g.apply(seat, A.StartJourney(start))
    for tid in ids:
        assert A.TravelRoute(tid) in g.legal_actions(seat), (tid, g.legal_actions(seat))
        g.apply(seat, A.TravelRoute(tid))
    assert A.EndJourney() in g.legal_actions(seat)
    g.apply(seat, A.EndJourney())


def test_marklin_rule_21_move_along_own_connected_routes() -> None:
    """Rule 21: a passenger moves along the player's own connected routes, one route at a time."""
    g = mk()
    _line(g, 0, ["DE008", "DE067"])  # Berlin–Magdeburg–Leipzig
    g.passenger_at = {"Berlin": 0}
    g.passengers_left[0] = 2
    g.apply(0, A.StartJourney("Berlin"))
    assert g.pending == "passenger" and g.current == 0
    assert g.legal_actions(0) == [A.TravelRoute("DE008")]  # Magdeburg only; no stop before a route
    assert_illegal(g, 0, A.TravelRoute("DE067"), "not_connected", ("rule 21",))
    assert_illegal(g, 0, A.TravelRoute("DE007"), "unclaimed_route")
    g.apply(0, A.TravelRoute("DE008"))
    assert g.legal_actions(0) == [A.TravelRoute("DE067"), A.EndJourney()]
    g.apply(0, A.TravelRoute("DE067"))
    g.apply(0, A.EndJourney())
    assert g.merch_taken[0] == [2, 4]  # Magdeburg white 2, Leipzig red 4
    assert g.current == 1


def test_marklin_rule_21_each_route_at_most_once() -> None:
    """Rule 21: each route is used at most once in the move: a route travelled is never offered
    again in the same journey, and is refused if named."""
    g = mk()
    _line(g, 0, ["DE008", "DE067"])
    g.passenger_at = {"Berlin": 0}
    g.apply(0, A.StartJourney("Berlin"))
    g.apply(0, A.TravelRoute("DE008"))
    assert A.TravelRoute("DE008") not in g.legal_actions(0)
    assert_illegal(g, 0, A.TravelRoute("DE008"), "route_reused", ("rule 21",))
    # The whole-journey form checks the same rule.
    h = mk()
    _line(h, 0, ["DE008", "DE067"])
    h.passenger_at = {"Berlin": 0}
    assert_illegal(h, 0, A.MovePassenger("Berlin", ("DE008", "DE008")), "route_reused", ("rule 21",))


def test_marklin_rule_21_a_journey_travels_at_least_one_route() -> None:
    """Rule 21: moving a passenger is the turn's action, so a journey ends only after a route; a
    passenger with no route open to it cannot set off; nothing else is played mid-journey."""
    g = mk()
    _line(g, 0, ["DE008"])
    g.passenger_at = {"Berlin": 0, "Kiel": 0}
    assert A.StartJourney("Kiel") not in g.legal_actions(0)
    assert_illegal(g, 0, A.StartJourney("Kiel"), "passenger_stuck", ("rules 21-23",))
    g.apply(0, A.StartJourney("Berlin"))
    assert_illegal(g, 0, A.EndJourney(), "journey_not_begun", ("rule 21",))
    assert_illegal(g, 0, A.DrawDeck(), "journey_underway")
    assert_illegal(g, 0, A.StartJourney("Kiel"), "journey_underway")
    g.apply(0, A.TravelRoute("DE008"))
    assert_illegal(g, 0, A.SkipTurn(), "journey_underway")
    h = mk()
    assert_illegal(h, 0, A.TravelRoute("DE008"), "no_journey")
    assert_illegal(h, 0, A.EndJourney(), "no_journey")


def test_marklin_rule_22_opponent_route_costs_one_passenger_card() -> None:
    """Rule 22: moving along an opponent's route costs 1 passenger card per such route, paid as
    the route is travelled; without a card left the opponent's route is not open."""
    g = mk(players=3)
    give_route(g, 0, "DE008")  # Berlin–Magdeburg own
    give_route(g, 1, "DE067")  # Magdeburg–Leipzig opponent
    give_route(g, 2, "DE035")  # Leipzig–Erfurt opponent
    g.passenger_at = {"Berlin": 0}
    layout(g, {0: {"passenger": 1}})
    g.apply(0, A.StartJourney("Berlin"))
    g.apply(0, A.TravelRoute("DE008"))
    g.apply(0, A.TravelRoute("DE067"))
    assert g.hands[0][PASSENGER] == 0 and g.discard.count(PASSENGER) == 1
    assert A.TravelRoute("DE035") not in g.legal_actions(0)
    assert_illegal(g, 0, A.TravelRoute("DE035"), "not_enough_passenger_cards", ("rule 22",))
    h = mk(players=3)
    for seat, tid in ((0, "DE008"), (1, "DE067"), (2, "DE035")):
        give_route(h, seat, tid)
    h.passenger_at = {"Berlin": 0}
    layout(h, {0: {"passenger": 2, "red": 1}})
    travel(h, 0, "Berlin", ("DE008", "DE067", "DE035"))
    assert h.hands[0][PASSENGER] == 0 and h.discard.count(PASSENGER) == 2 and h.hands[0][0] == 1
    assert h.merch_taken[0] == [2, 4, 3]  # Magdeburg 2, Leipzig 4, Erfurt 3
    # The whole-journey form checks the same rule for the whole journey at once.
    k = mk(players=3)
    for seat, tid in ((0, "DE008"), (1, "DE067"), (2, "DE035")):
        give_route(k, seat, tid)
    k.passenger_at = {"Berlin": 0}
    layout(k, {0: {"passenger": 1}})
    assert_illegal(
        k,
        0,
        A.MovePassenger("Berlin", ("DE008", "DE067", "DE035")),
        "not_enough_passenger_cards",
        ("rule 22", "2"),
    )


def test_marklin_rule_23_never_through_a_country() -> None:
    """Rule 23: passengers never move into a country, not even as an intermediate stop."""
    g = mk()
    _line(g, 0, ["DE066", "DE071"])  # Konstanz–Schweiz–Lindau
    g.passenger_at = {"Konstanz": 0}
    assert not any(isinstance(a, A.StartJourney) for a in g.legal_actions(0))
    assert_illegal(g, 0, A.StartJourney("Konstanz"), "passenger_stuck", ("rules 21-23",))
    assert_illegal(g, 0, A.MovePassenger("Konstanz", ("DE066", "DE071")), "passenger_country", ("rule 23",))
    assert_illegal(g, 0, A.MovePassenger("Konstanz", ("DE066",)), "passenger_country")
    _line(g, 0, ["DE065"])  # Konstanz–Stuttgart: now the passenger can set off, never to Schweiz
    g.apply(0, A.StartJourney("Konstanz"))
    assert g.legal_actions(0) == [A.TravelRoute("DE065")]
    assert_illegal(g, 0, A.TravelRoute("DE066"), "passenger_country", ("rule 23",))


def test_marklin_rule_24_take_the_top_token_of_each_city_not_the_start() -> None:
    """Rule 24: at each city moved to (not the start city) the top (highest) token is taken. A city
    entered twice in one move gives one token (reading of 'each city')."""
    g = mk()
    _line(g, 0, ["DE004", "DE027", "DE007"])  # Berlin–Dresden–Leipzig–Berlin loop
    g.passenger_at = {"Berlin": 0}
    assert g.merchandise["Berlin"] == [7, 6, 5, 4]
    travel(g, 0, "Berlin", ("DE004", "DE027", "DE007"))
    # Dresden white 2, Leipzig red 4, back in Berlin (the start city): no token.
    assert g.merch_taken[0] == [2, 4]
    assert g.merchandise["Leipzig"] == [3, 2] and g.merchandise["Dresden"] == []
    assert g.merchandise["Berlin"] == [7, 6, 5, 4]


def test_marklin_rule_24_a_city_entered_twice_gives_one_token() -> None:
    """Rule 24 (reading of 'each city'): one token per city per journey, even when the journey
    comes back through it; each token is taken as the city is reached."""
    g = mk()
    _line(g, 0, ["DE004", "DE027", "DE007"])  # the Berlin–Dresden–Leipzig loop
    g.passenger_at = {"Dresden": 0}
    g.apply(0, A.StartJourney("Dresden"))
    g.apply(0, A.TravelRoute("DE004"))  # Berlin: 7
    assert g.merch_taken[0] == [7] and g.view(1)["journey"]["tokens"] == [7]
    g.apply(0, A.TravelRoute("DE007"))  # Leipzig: 4
    g.apply(0, A.TravelRoute("DE027"))  # back in Dresden, the start: nothing
    g.apply(0, A.EndJourney())
    assert g.merch_taken[0] == [7, 4] and g.merchandise["Berlin"] == [6, 5, 4]


def test_marklin_rule_24_stacks_go_down_from_the_top() -> None:
    """Rule 24: later visitors take the next token (Berlin 7, then 6)."""
    g = mk(players=3)
    _line(g, 0, ["DE008"])
    _line(g, 1, ["DE004"])
    g.passenger_at = {"Magdeburg": 0, "Dresden": 1}
    travel(g, 0, "Magdeburg", ("DE008",))
    travel(g, 1, "Dresden", ("DE004",))
    assert g.merch_taken[0] == [7] and g.merch_taken[1] == [6] and g.merchandise["Berlin"] == [5, 4]


def test_marklin_rule_24_empty_stack_gives_nothing() -> None:
    """Rule 24: a city whose stack is empty gives no token."""
    g = mk()
    _line(g, 0, ["DE008"])
    g.merchandise["Magdeburg"] = []
    g.passenger_at = {"Berlin": 0}
    travel(g, 0, "Berlin", ("DE008",))
    assert g.merch_taken[0] == []


def test_marklin_rule_25_merchandise_scores_at_once_and_tokens_are_kept() -> None:
    """Rule 25: tokens score immediately (public score, as each city is reached) and are kept for
    the final recount."""
    g = mk()
    _line(g, 0, ["DE008"])
    g.passenger_at = {"Magdeburg": 0}
    before = g.view(1)["seats"][0]["score"]
    g.apply(0, A.StartJourney("Magdeburg"))
    g.apply(0, A.TravelRoute("DE008"))
    assert g.view(1)["seats"][0]["score"] == before + 7
    g.apply(0, A.EndJourney())
    v = g.view(1)["seats"][0]
    assert v["score"] == before + 7 and v["merchandise"] == [7]
    assert g.final_scores()[0]["breakdown"]["merchandise"] == 7


def test_marklin_rule_26_occupied_cities_may_be_visited() -> None:
    """Rule 26: a passenger may pass through or stop in a city where another passenger stands."""
    g = mk()
    _line(g, 0, ["DE008", "DE067"])
    g.passenger_at = {"Berlin": 0, "Magdeburg": 1, "Leipzig": 0}
    travel(g, 0, "Berlin", ("DE008", "DE067"))
    assert g.merch_taken[0] == [2, 4]
    assert g.passenger_at == {"Magdeburg": 1, "Leipzig": 0}


def test_marklin_rule_27_passenger_leaves_the_game_after_moving() -> None:
    """Rule 27: after its move the passenger is removed from the game (not returned to the player)."""
    g = mk()
    _line(g, 0, ["DE008"])
    g.passenger_at = {"Berlin": 0}
    g.passengers_left[0] = 2
    g.apply(0, A.StartJourney("Berlin"))
    g.apply(0, A.TravelRoute("DE008"))
    assert g.passenger_at == {"Berlin": 0}  # it stands where it set off until the journey ends
    g.apply(0, A.EndJourney())
    assert "Berlin" not in g.passenger_at and g.passengers_left[0] == 2
    g.current = 0
    assert not any(isinstance(a, A.StartJourney) for a in g.legal_actions(0))
    assert_illegal(g, 0, A.StartJourney("Berlin"), "no_passenger_there")
    assert_illegal(g, 0, A.MovePassenger("Berlin", ("DE008",)), "no_passenger_there")


def test_marklin_passenger_move_of_another_seat_is_refused() -> None:
    """Rule 21: a player moves only their own passengers."""
    g = mk()
    _line(g, 0, ["DE008"])
    g.passenger_at = {"Berlin": 1}
    assert_illegal(g, 0, A.StartJourney("Berlin"), "no_passenger_there")
    assert_illegal(g, 0, A.MovePassenger("Berlin", ("DE008",)), "no_passenger_there")


def test_marklin_journey_is_public_while_under_way() -> None:
    """A journey under way is public (every seat and spectators see where the passenger is, what it
    collected and the fares paid) and is gone once the turn ends."""
    g = mk()
    _line(g, 0, ["DE008", "DE067"])
    g.passenger_at = {"Berlin": 0}
    assert g.view(None)["journey"] is None
    g.apply(0, A.StartJourney("Berlin"))
    g.apply(0, A.TravelRoute("DE008"))
    for seat in (0, 1, None):
        v = g.view(seat)
        assert v["pending"] == "passenger"
        assert v["journey"] == {
            "seat": 0,
            "start": "Berlin",
            "at": "Magdeburg",
            "tracks": ["DE008"],
            "cities": ["Magdeburg"],
            "tokens": [2],
            "fares": 0,
        }
    g.apply(0, A.EndJourney())
    assert g.view(None)["journey"] is None and g.view(None)["pending"] is None


def test_marklin_journey_survives_save_and_load() -> None:
    """A game saved mid-journey loads and goes on with the same journey; a game saved between
    turns is stored exactly as before journeys existed (no extra key)."""
    from rules.games import game_from_json

    g = mk()
    _line(g, 0, ["DE008", "DE067"])
    g.passenger_at = {"Berlin": 0}
    assert "journey" not in g.to_json()
    g.apply(0, A.StartJourney("Berlin"))
    g.apply(0, A.TravelRoute("DE008"))
    loaded = game_from_json(g.to_json())
    assert loaded.legal_actions(0) == g.legal_actions(0)
    loaded.apply(0, A.TravelRoute("DE067"))
    loaded.apply(0, A.EndJourney())
    assert loaded.merch_taken[0] == [2, 4]


def test_marklin_whole_journey_action_of_older_games_still_applies() -> None:
    """Replay: a game stored with the old whole-journey action ('passenger Berlin DE008,DE067')
    still applies it, with exactly the result of the same journey played route by route; it is no
    longer listed by legal_actions."""
    g = mk()
    _line(g, 0, ["DE008", "DE067"])
    g.passenger_at = {"Berlin": 0}
    h = g.copy()
    assert not any(isinstance(a, A.MovePassenger) for a in g.legal_actions(0))
    events = g.apply(0, A.parse_action("passenger Berlin DE008,DE067"))
    travel(h, 0, "Berlin", ("DE008", "DE067"))
    assert g.state.to_json() == h.state.to_json()
    assert g.merch_taken[0] == [2, 4] and events[0]["type"] == "passenger_move"


def test_marklin_timeout_mid_journey_ends_it_or_leaves_the_passenger() -> None:
    """Timeout policy: a journey that has travelled ends where it is (rule 27 then removes the
    passenger); a passenger chosen but not moved stays where it stood, the turn passing."""
    from rules.ttr.timeout import skip_turn

    g = mk()
    _line(g, 0, ["DE008", "DE067"])
    g.passenger_at = {"Berlin": 0}
    g.apply(0, A.StartJourney("Berlin"))
    plan = skip_turn(g, 0)
    assert plan is not None and plan.action == A.SkipTurn() and plan.forced is None
    g.apply(0, plan.action)
    assert g.current == 1 and g.passenger_at == {"Berlin": 0} and g.pending is None and g.merch_taken[0] == []
    g.current = 0
    g.apply(0, A.StartJourney("Berlin"))
    g.apply(0, A.TravelRoute("DE008"))
    plan = skip_turn(g, 0)
    assert plan is not None and plan.action == A.EndJourney() and plan.forced and "rule 27" in plan.forced
    g.apply(0, plan.action)
    assert g.current == 1 and g.passenger_at == {} and g.merch_taken[0] == [2]


# ----------------------------------------------------------------------------------- end game
def test_marklin_most_completed_tickets_bonus_ties_all_score_no_longest_path() -> None:
    """Märklin scoring: +10 to the most completed tickets (every tied player scores it); no
    longest-path bonus."""
    g = mk(players=3)
    g.tickets = [["DE17-T03"], ["DE17-T03"], []]  # Berlin–Leipzig 4
    give_route(g, 0, "DE007")
    rows = g.final_scores()
    assert [r["breakdown"]["most_tickets"] for r in rows] == [10, 0, 0]
    assert all("longest_path" not in r["breakdown"] for r in rows)
    g.owner[track(g, "DE008").index] = 1
    g.owner[track(g, "DE067").index] = 1
    rows = g.final_scores()
    assert [r["breakdown"]["most_tickets"] for r in rows] == [10, 10, 0]
    assert all(r["total"] == sum(r["breakdown"].values()) for r in rows)


def test_marklin_no_bonus_when_nobody_completes_a_ticket() -> None:
    """Märklin scoring reading: with no completed ticket at all, nobody gets the +10."""
    g = mk()
    rows = g.final_scores()
    assert all(r["breakdown"]["most_tickets"] == 0 for r in rows)


def test_marklin_tie_break_by_completed_tickets() -> None:
    """Märklin tie-break: the player with more completed tickets wins a tie."""
    g = mk()
    g.tickets = [["DE17-T03"], []]
    give_route(g, 0, "DE007")
    rows = g.final_scores()
    g.route_score[1] += rows[0]["total"] - rows[1]["total"]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"] and rows[0]["rank"] == 1 and rows[1]["rank"] == 2


def test_marklin_notes_label_the_standin_deck_and_provisional_merchandise() -> None:
    """Honest data: view['notes'] labels the stand-in ticket deck and lists the provisional
    merchandise cities."""
    g = mk()
    notes = g.view(None)["notes"]
    assert any("stand-in" in n.lower() for n in notes)
    merch = next(n for n in notes if n.startswith("Merchandise"))
    provisional = [c for c, (_, _, status) in g.board.merchandise.items() if status == "provisional"]
    assert len(provisional) == 28
    assert all(c in merch for c in provisional)
    assert "Berlin" not in merch.split(":", 1)[1].split("provisional")[-1]


def test_marklin_merchandise_stacks() -> None:
    """Data: Berlin 7/6/5/4; six red 4/3/2 stacks; twelve yellow 3/2/1; sixteen white 2."""
    b = load_board("germany")
    stacks = Counter((tuple(v), colour) for v, colour, _ in b.merchandise.values())
    assert stacks == {
        ((7, 6, 5, 4), "black"): 1,
        ((4, 3, 2), "red"): 6,
        ((3, 2, 1), "yellow"): 12,
        ((2,), "white"): 16,
    }
    assert all(not b.cities[c].is_country for c in b.merchandise)


def test_marklin_bad_passenger_input_leaves_state_untouched() -> None:
    """Bad input: an unknown start city or route, an empty journey, a half-written step or a
    passenger on another board."""
    g = mk()
    _line(g, 0, ["DE008"])
    g.passenger_at = {"Berlin": 0}
    assert_illegal(g, 0, A.StartJourney("Atlantis"), "unknown_city")
    assert_illegal(g, 0, A.MovePassenger("Atlantis", ("DE008",)), "unknown_city")
    assert_illegal(g, 0, A.MovePassenger("Berlin", ()), "empty_move")
    assert_illegal(g, 0, A.MovePassenger("Berlin", ("DE999",)), "unknown_route")
    u = game("usa")
    assert_illegal(u, 0, A.StartJourney("Denver"), "no_passengers")
    assert_illegal(u, 0, A.MovePassenger("Denver", ("US001",)), "no_passengers")
    before = state(g)
    for text in (
        "passenger Berlin",
        "passenger start",
        "passenger travel",
        "passenger stop now",
        "passenger start Berlin Köln",
    ):
        with pytest.raises(IllegalAction) as refused:
            g.apply(0, text)
        assert refused.value.code == "malformed_action"
    assert state(g) == before
    g.apply(0, "passenger start berlin")  # city names are read as on the other moves
    assert_illegal(g, 0, A.TravelRoute("DE999"), "unknown_route")


def test_marklin_rule_21_journey_listing_stays_bounded_on_a_huge_network() -> None:
    """Rules 21-22: on a board full of routes with many passenger cards the number of possible
    journeys explodes; legal_actions lists only the next steps (a passenger to set off, then the
    routes from where it is), and the whole-journey search an AI plans with is bounded by a count
    (not a clock); a journey it did not list still plays route by route."""

    from rules.ttr.game import MAX_PASSENGER_JOURNEYS

    g = mk(players=2)
    for t in g.board.tracks:
        if not any(g.owner[s] != -1 for s in t.siblings):
            g.owner[t.index] = 0 if t.index % 2 else 1
    layout(g, {0: {"passenger": 10}}, face_up=ROW)
    g.passenger_at = {"Kassel": 0}
    g.passengers_left[0] = 2
    starts = [a for a in g.legal_actions(0) if a.kind.startswith("journey")]
    assert starts == [A.StartJourney("Kassel")]
    journeys = g.passenger_journeys(0, "Kassel")
    assert 0 < len(journeys) <= MAX_PASSENGER_JOURNEYS
    g.apply(0, A.StartJourney("Kassel"))
    steps = g.legal_actions(0)
    open_here = [t for t in g.board.tracks_at("Kassel") if g.owner[t.index] != -1]
    assert len(steps) == len(open_here) and all(isinstance(a, A.TravelRoute) for a in steps)
    # Planning goes on from where the journey is.
    g.apply(0, steps[-1])
    rest = g.passenger_journeys(0)
    assert rest and all(g.copy().apply(0, A.TravelRoute(r[0])) is not None for r in rest[:5])
