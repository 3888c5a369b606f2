"""Bad input to the rules library: every refusal is an IllegalAction with a sentence a player
understands, and the game is left exactly as it was (compared through to_json())."""

from __future__ import annotations

import pytest
from ttr_helpers import assert_illegal, game, layout, state

from rules.errors import IllegalAction
from rules.games import new_game
from rules.ttr import actions as A
from rules.ttr.actions import action_from_json, parse_action


def test_unknown_route_id() -> None:
    """Bad input: a route id that is not on the board."""
    g = game("usa")
    layout(g, {0: {"red": 3}})
    assert_illegal(g, 0, A.ClaimRoute("US999", (("red", 3),)), "unknown_route", ("US999", "USA"))
    assert_illegal(g, 0, "claim EU001 red=1", "unknown_route")


def test_action_out_of_turn() -> None:
    """Bad input: a seat that is not to play."""
    g = game("usa", players=3)
    assert_illegal(g, 2, A.DrawDeck(), "not_your_turn", ("seat 1",))
    assert_illegal(g, 5, A.DrawDeck(), "not_a_seat")
    assert_illegal(g, -1, A.DrawDeck(), "not_a_seat")


def test_action_during_setup_and_twice_in_setup() -> None:
    """Bad input: playing before choosing tickets; choosing tickets twice."""
    g = game("usa", setup=False)
    assert_illegal(g, 0, A.DrawDeck(), "choose_tickets")
    g.apply(0, A.KeepTickets(tuple((g.offers[0] or [])[:2])))
    assert_illegal(g, 0, A.KeepTickets(("US-T01",)), "not_your_turn", ("already",))


def test_action_in_a_finished_game() -> None:
    """Bad input: any action once the game is over."""
    g = game("usa")
    g.phase = "over"
    assert_illegal(g, 0, A.DrawDeck(), "game_over", ("over",))
    assert g.legal_actions(0) == [] and g.seats_to_act() == []


def test_too_few_cards() -> None:
    """Bad input: claiming with cards the player does not hold."""
    g = game("usa")
    t = next(t for t in g.board.tracks if t.colour_name == "red" and t.length == 3)
    layout(g, {0: {"red": 2, "locomotive": 0}})
    msg = assert_illegal(g, 0, A.ClaimRoute(t.id, (("red", 3),)), "not_enough_cards")
    assert "3 red but have 2" in msg


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly to the moon",
        "draw",
        "draw face",
        "draw face x",
        "draw face 1 2",
        "draw deck now",
        "claim",
        "claim US001",
        "claim US001 red",
        "claim US001 red=x",
        "claim US001 mauve=2",
        "claim US001 red=2 berlin",
        "tunnel",
        "tunnel pay",
        "tunnel dig",
        "tickets",
        "tickets draw short=x",
        "tickets draw medium=2",
        "tickets keep",
        "station",
        "station Berlin",
        "passenger Berlin",
        "pass now",
    ],
)
def test_malformed_action_text(text: str) -> None:
    """Bad input: unreadable action text is refused with a hint, changing nothing."""
    g = game("usa")
    before = state(g)
    with pytest.raises(IllegalAction) as info:
        g.apply(0, text)
    assert info.value.code == "malformed_action"
    assert len(info.value.message) > 15 and info.value.message.endswith(".")
    assert state(g) == before


def test_malformed_action_objects() -> None:
    """Bad input: objects that are not actions, negative counts, JSON without text."""
    g = game("usa")
    assert_illegal(g, 0, 42, "malformed_action")
    assert_illegal(g, 0, A.ClaimRoute("US001", (("red", -1),)), "malformed_action")
    assert_illegal(g, 0, A.DrawFaceUp(7), "bad_slot", ("0 to 4",))
    assert_illegal(g, 0, A.DrawTickets(2, 2), "malformed_action", ("tickets draw",))
    with pytest.raises(IllegalAction):
        action_from_json({"kind": "claim"})
    with pytest.raises(IllegalAction):
        action_from_json({"kind": "pass", "text": "draw deck"})
    assert action_from_json(A.DrawFaceUp(2).to_json()) == A.DrawFaceUp(2)


def test_text_and_objects_round_trip() -> None:
    """Every legal action's text form parses back to the same action."""
    for board in ("usa", "europe", "switzerland", "germany"):
        g = game(board)
        layout(g, {0: {"red": 4, "locomotive": 2, "plus4": 1 if board == "germany" else 0}})
        for a in g.legal_actions(0):
            assert parse_action(a.to_text()) == a
            assert action_from_json(a.to_json()) == a


def test_wrong_ticket_ids() -> None:
    """Bad input: keeping tickets that were not drawn, or twice the same one."""
    g = game("usa")
    g.apply(0, A.DrawTickets())
    offer = list(g.offers[0] or [])
    not_mine = next(t for t in g.board.tickets if t not in offer)
    assert_illegal(g, 0, A.KeepTickets((not_mine,)), "unknown_ticket", (not_mine,))
    assert_illegal(g, 0, A.KeepTickets((offer[0], offer[0].lower())), "duplicate_ticket")
    g.apply(0, A.KeepTickets((offer[0].lower(),)))
    assert offer[0] in g.tickets[0], "ticket ids are case-insensitive"


def test_tunnel_pay_without_a_tunnel() -> None:
    """Bad input: a tunnel payment with no tunnel pending."""
    g = game("europe")
    assert_illegal(g, 0, "tunnel pay red=1", "no_tunnel", ("tunnel",))
    assert_illegal(g, 0, "tunnel withdraw", "no_tunnel")


def test_second_draw_must_be_a_draw() -> None:
    """Bad input: after one card the player must draw the second one."""
    g = game("usa")
    g.apply(0, A.DrawDeck())
    assert_illegal(g, 0, A.DrawTickets(), "finish_drawing", ("second",))
    assert_illegal(g, 0, A.Pass(), "finish_drawing")


def test_passenger_on_a_board_without_passengers() -> None:
    """Bad input: a passenger placement on a board without passengers."""
    g = game("usa")
    t = next(t for t in g.board.tracks if t.length == 1)
    layout(g, {0: {"locomotive": 1}})
    assert_illegal(g, 0, A.ClaimRoute(t.id, (("locomotive", 1),), t.a), "no_passengers")


def test_passenger_cards_never_pay_for_routes() -> None:
    """Bad input: passenger cards are not train cards for claiming (Märklin rule 22 use only)."""
    g = game("germany")
    layout(g, {0: {"passenger": 3}})
    assert_illegal(g, 0, "claim DE008 passenger=3", "wrong_cards", ("rule 22",))


def test_bad_config() -> None:
    """Bad input: unknown board or variant, wrong player count."""
    for cfg, players in [
        ({"board": "mars"}, 2),
        ({"board": "usa"}, 6),
        ({"board": "usa"}, 1),
        ({"board": "usa", "variant": "nope"}, 2),
    ]:
        with pytest.raises(IllegalAction) as info:
            new_game("ttr", cfg, players, 1)
        assert info.value.code == "bad_config" and len(info.value.message) > 15


def test_aliases_resolve() -> None:
    """Board aliases: 'marklin' is the Germany board with Märklin rules."""
    g = new_game("ttr", {"board": "marklin"}, 2, 1)
    assert g.board.id == "germany" and g.view(None)["board_name"] == "Märklin"


def test_marklin_action_texts_round_trip() -> None:
    """Text forms of passenger placement and passenger moves parse back to the same actions."""
    for a in (
        A.ClaimRoute("DE008", (("red", 3),), "Magdeburg"),
        A.MovePassenger("Köln", ("DE029a", "DE024b")),
        A.DrawTickets(1, 3),
        A.KeepTickets(("DE17-T01", "DE17-T02")),
        A.BuildStation("Berlin", (("red", 1),)),
    ):
        assert parse_action(a.to_text()) == a
    assert parse_action("claim de008 RED=3 passenger=Magdeburg") == A.ClaimRoute(
        "de008", (("red", 3),), "Magdeburg"
    )
