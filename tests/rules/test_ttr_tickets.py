"""Destination tickets on the USA and Europe boards: the opening deal, drawing in play, returns."""

from __future__ import annotations

import pytest
from ttr_helpers import assert_illegal, game

from rules.ttr import actions as A


def test_usa_opening_deal_three_keep_at_least_two_returned_to_bottom() -> None:
    """USA rule: each player is dealt 3 tickets, keeps at least 2; returned ones go under the deck."""
    g = game("usa", players=3, setup=False)
    assert g.phase == "setup" and g.seats_to_act() == [0, 1, 2]
    assert all(len(o or []) == 3 for o in g.offers)
    assert len(g.ticket_decks["short"]) == 30 - 9
    offer = list(g.offers[1] or [])
    assert g.view(1)["you"]["keep_min"] == 2 and g.view(1)["you"]["keep_max"] == 3
    assert_illegal(g, 1, A.KeepTickets((offer[0],)), "wrong_ticket_count", ("2",))
    g.apply(1, A.KeepTickets(tuple(offer[:2])))
    assert g.tickets[1] == offer[:2]
    assert g.ticket_decks["short"][0] == offer[2], "the returned ticket is at the bottom (drawn last)"
    assert g.seats_to_act() == [0, 2], "the others still choose; the game starts when all have"
    g.apply(0, A.KeepTickets(tuple(g.offers[0] or [])))
    g.apply(2, A.KeepTickets(tuple((g.offers[2] or [])[:2])))
    assert g.phase == "play" and g.current == 0
    assert g.tickets_out == []


def test_europe_opening_deal_one_long_three_short_keep_two_rest_out_of_game() -> None:
    """Europe rule: deal 1 long + 3 short, keep at least 2 (the long one may go); returned tickets
    and the undealt long tickets leave the game."""
    g = game("europe", players=2, setup=False)
    kinds = [[g.board.tickets[t].kind for t in g.offers[s] or []] for s in range(2)]
    assert all(sorted(k) == ["long", "short", "short", "short"] for k in kinds)
    assert g.ticket_decks["long"] == [], "undealt long tickets are out of the game"
    assert len(g.tickets_out) == 6 - 2
    short_left = len(g.ticket_decks["short"])
    offer = list(g.offers[0] or [])
    long_id = next(t for t in offer if g.board.tickets[t].kind == "long")
    shorts = [t for t in offer if t != long_id]
    g.apply(0, A.KeepTickets(tuple(shorts[:2])))
    assert long_id in g.tickets_out and shorts[2] in g.tickets_out
    assert len(g.ticket_decks["short"]) == short_left, "returned tickets do not go back into the deck"
    assert_illegal(g, 1, A.KeepTickets(((g.offers[1] or [])[0],)), "wrong_ticket_count")


@pytest.mark.parametrize("board", ["usa", "europe"])
def test_draw_three_tickets_keep_at_least_one_rest_to_bottom(board: str) -> None:
    """Rule: drawing tickets shows 3, the player keeps 1 to 3 and the rest go under the deck."""
    g = game(board)
    deck = list(g.ticket_decks["short"])
    g.apply(0, A.DrawTickets())
    offer = list(g.offers[0] or [])
    assert offer == list(reversed(deck[-3:])), "the top three tickets are drawn"
    assert g.pending == "tickets" and g.current == 0
    assert_illegal(g, 0, A.DrawDeck(), "choose_tickets")
    assert_illegal(g, 0, A.KeepTickets(()), "wrong_ticket_count", ("1",))
    assert_illegal(g, 0, A.KeepTickets(("NOPE-T99",)), "unknown_ticket")
    assert_illegal(g, 0, A.KeepTickets((offer[0], offer[0])), "duplicate_ticket")
    n = len(g.tickets[0])
    g.apply(0, A.KeepTickets((offer[1],)))
    assert g.tickets[0][-1] == offer[1] and len(g.tickets[0]) == n + 1
    bottom = g.ticket_decks["short"][:2]
    assert set(bottom) == {offer[0], offer[2]}
    assert g.current == 1 and g.pending is None


@pytest.mark.parametrize("board", ["usa", "europe"])
def test_ticket_draw_with_a_short_deck_offers_what_is_left(board: str) -> None:
    """Rule: with fewer than 3 tickets left the player draws what is left (keeping at least 1);
    with none left, drawing tickets is not an action."""
    g = game(board)
    g.tickets_out += g.ticket_decks["short"][:-2]
    g.ticket_decks["short"] = g.ticket_decks["short"][-2:]
    g.apply(0, A.DrawTickets())
    assert len(g.offers[0] or []) == 2
    assert [a for a in g.legal_actions(0)] == [A.KeepTickets((t,)) for t in g.offers[0] or []] + [
        A.KeepTickets(tuple(g.offers[0] or []))
    ]
    g.apply(0, A.KeepTickets(tuple(g.offers[0] or [])))
    assert g.ticket_decks["short"] == []
    assert not any(isinstance(a, A.DrawTickets) for a in g.legal_actions(1))
    assert_illegal(g, 1, A.DrawTickets(), "no_tickets")


def test_ticket_choice_is_hidden_from_other_seats() -> None:
    """Rule: tickets are secret; a view shows only the viewer's own tickets and offer."""
    g = game("usa", players=3)
    g.apply(0, A.DrawTickets())
    v1 = g.view(1)
    assert v1["you"]["offer"] is None and v1["seats"][0]["tickets"] == len(g.tickets[0])
    assert v1["pending"] == "tickets"
    v0 = g.view(0)
    assert [t["id"] for t in v0["you"]["offer"]] == g.offers[0]


def test_keep_without_offer_is_refused() -> None:
    """Rule: tickets can only be kept after drawing them."""
    g = game("usa")
    assert_illegal(g, 0, A.KeepTickets((g.tickets[0][0],)), "no_offer")


def test_ticket_status_and_values_in_view() -> None:
    """The player's view marks each own ticket completed or not with its value (+ or -)."""
    g = game("usa")
    tid = g.tickets[0][0]
    card = g.board.tickets[tid]
    info = g.view(0)["you"]["tickets"][0]
    assert info["id"] == tid and info["completed"] is False and info["value"] == -card.points
