"""Ticket to Ride's planned turns in the engine (issue 31): every step kind's text form, its
condition and the moves it plays, and what upsets a plan (a route taken, a double closed, the
last round)."""

from __future__ import annotations

import pytest

from rules import plans
from rules.errors import IllegalAction
from rules.games import find_game
from rules.ttr import actions as A
from rules.ttr.colours import CARD_INDEX, LOCO
from rules.ttr.game import TTRGame
from rules.ttr.plans import RULES


def _game(board: str = "usa", players: int = 2, seed: int = 3) -> TTRGame:
    game = TTRGame.new({"board": board}, players, seed)
    for seat in range(players):
        keep = next(a for a in game.legal_actions(seat) if a.kind == "keep_tickets")
        game.apply(seat, keep)
    return game


def test_the_game_declares_its_steps() -> None:
    assert find_game("ttr").plans is RULES
    assert RULES.kinds == ("claim", "locomotive", "colour", "deck")


@pytest.mark.parametrize(
    "text", ["claim E01 red=3,locomotive=1", "locomotive", "colour red", "deck", "claim E01 none"]
)
def test_steps_read_back_from_their_text(text: str) -> None:
    step = RULES.parse_step(text)
    assert RULES.parse_step(step.to_text()) == step
    assert plans.from_json(RULES, plans.to_json([step])) == (step,)


@pytest.mark.parametrize("text", ["", "colour mauve", "claim", "deck now", "draw", "locomotive 2"])
def test_a_step_that_cannot_be_read_is_refused(text: str) -> None:
    with pytest.raises(IllegalAction):
        plans.parse_plan(RULES, text)


def test_a_claim_step_must_name_a_route_and_pay_its_length() -> None:
    game = _game()
    track = game.board.tracks[0]
    with pytest.raises(IllegalAction) as err:
        RULES.check(game, 1, RULES.parse_step(f"claim {track.id} red={track.length + 1}"))
    assert err.value.code == "plan_payment"
    with pytest.raises(IllegalAction) as err:
        RULES.check(game, 1, RULES.parse_step("claim ZZ99 red=2"))
    assert err.value.code == "unknown_route"


def test_deck_draws_two_and_locomotive_takes_one() -> None:
    game = _game()
    seat = game.state.current
    deck = plans.Step("deck")
    assert RULES.ready(game, seat) and RULES.holds(game, seat, deck)
    first = RULES.next_action(game, seat, deck, 0)
    assert first == A.DrawDeck()
    game.apply(seat, first)
    assert RULES.next_action(game, seat, deck, 1) == A.DrawDeck()
    game.apply(seat, A.DrawDeck())
    assert RULES.next_action(game, seat, deck, 2) is None  # the turn is over
    seat = game.state.current
    game.state.face_up[2] = LOCO
    loco = plans.Step("locomotive")
    assert RULES.holds(game, seat, loco)
    assert RULES.next_action(game, seat, loco, 0) == A.DrawFaceUp(2)
    game.state.face_up = [CARD_INDEX["red"]] * 5
    assert not RULES.holds(game, seat, loco)


def test_a_colour_step_takes_that_colour_then_the_deck() -> None:
    game = _game()
    seat = game.state.current
    game.state.face_up = [
        CARD_INDEX["red"],
        CARD_INDEX["blue"],
        CARD_INDEX["blue"],
        CARD_INDEX["green"],
        CARD_INDEX["green"],
    ]
    red, pink = plans.Step("colour", ("red",)), plans.Step("colour", ("pink",))
    assert not RULES.holds(game, seat, pink)
    assert plans.first_step(RULES, game, seat, [pink, red]) == 1
    game.apply(seat, RULES.next_action(game, seat, red, 0))  # type: ignore[arg-type]
    second = RULES.next_action(game, seat, red, 1)
    assert second == (
        A.DrawFaceUp(game.state.face_up.index(CARD_INDEX["red"]))
        if CARD_INDEX["red"] in game.state.face_up
        else A.DrawDeck()
    )


def test_a_claimed_route_upsets_a_plan_that_needs_it_and_only_that() -> None:
    game = _game()
    seat = game.state.current
    other = 1 - seat
    action = next(a for a in game.legal_actions(seat) if a.kind == "claim")
    track = game._track(action.track)
    mine = plans.Step("claim", (track.id, f"red={track.length}"))
    elsewhere = plans.Step(
        "claim",
        (
            next(t.id for t in game.board.tracks if t.index != track.index and track.index not in t.siblings),
            "red=1",
        ),
    )
    after = game.copy()
    events = after.apply(seat, action)
    why = RULES.upset(game, after, seat, action, events, other, [plans.Step("deck"), mine])
    assert why == plans.Disarm(plans.ROUTE_TAKEN, {"route": track.label, "seat": seat})
    assert RULES.upset(game, after, seat, action, events, other, [elsewhere, plans.Step("deck")]) is None


def test_the_last_round_upsets_every_other_plan() -> None:
    game = _game()
    seat = game.state.current
    game.state.trains[seat] = 2
    after = game.copy()
    events = after.apply(seat, A.DrawDeck())
    events += after.apply(seat, A.DrawDeck())
    assert RULES.upset(
        game, after, seat, A.DrawDeck(), events, 1 - seat, [plans.Step("deck")]
    ) == plans.Disarm(plans.LAST_ROUND, {"seat": seat})
    assert RULES.upset(game, after, seat, A.DrawDeck(), events, seat, [plans.Step("deck")]) is None
