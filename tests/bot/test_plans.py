"""Planned turns in the service (issue 31): a plan kept through the storage port, played at once
when its seat's turn comes (the first step whose condition holds, as the player's own moves),
dropped with the reason told when a route it needs is taken, kept across a restart, refused
cleanly when it cannot be read, and never visible to anyone but its player."""

from __future__ import annotations

import random
from typing import Any

import pytest
from bot_helpers import ALICE, BOB, two_humans

from bot.integrity import explain_game
from bot.service import GameService, ServiceError
from bot.store.sqlite import SqliteStore
from bot.stream import Outcome
from rules import plans
from rules.ttr.actions import DrawDeck
from rules.ttr.colours import CARD_NAMES, LOCO
from rules.ttr.game import TTRGame
from rules.ttr.plans import RULES


async def _started(service: GameService) -> int:
    """A two-player USA game past the opening tickets, alice (seat 0) to play."""
    gid = await two_humans(service)
    for player in (ALICE, BOB):
        legal = await service.legal_actions(gid, player)
        await service.act(gid, player, next(a for a in legal if a.kind == "keep_tickets"))
    assert await _to_act(service, gid) == [0]
    return gid


async def _game(service: GameService, gid: int) -> TTRGame:
    game = (await service.load(gid)).game
    assert isinstance(game, TTRGame)
    return game


async def _to_act(service: GameService, gid: int) -> list[int]:
    return (await service.load(gid)).game.seats_to_act()  # type: ignore[union-attr]


async def _alice_draws_blind(service: GameService, gid: int) -> Outcome:
    """Alice's turn: two cards from the deck (the face-up row stays as it was)."""
    await service.act(gid, ALICE, DrawDeck())
    return await service.act(gid, ALICE, DrawDeck())


def _notes(outcome: Outcome) -> list[tuple[str, str]]:
    return [(note.player, str(note.said)) for note in outcome.notes]


async def test_a_plan_plays_when_the_turn_comes_as_the_players_own_move(service: GameService) -> None:
    """Rule: evaluated at once when the turn comes; the first step whose condition holds is
    played as if pressed (the log names the player, not the bot); the player alone is told."""
    gid = await _started(service)
    game = await _game(service, gid)
    hand = sum(game.state.hands[1])
    kept = await service.set_plan(gid, BOB, "deck")
    assert kept == (plans.Step("deck"),)
    assert await service.plan_of(gid, BOB) == kept
    assert await service.plan_of(gid, ALICE) == ()
    out = await _alice_draws_blind(service, gid)
    assert await _to_act(service, gid) == [0]  # bob's turn came and went
    assert sum((await _game(service, gid)).state.hands[1]) == hand + 2
    log = await service.storage.actions(gid)
    assert [(a.seat, a.player, a.action) for a in log[-2:]] == [(1, BOB, "draw deck")] * 2
    assert _notes(out) == [(BOB, "Your plan for game #1 played step 1: draw two cards from the deck.")]
    assert "plan" not in " ".join(out.plain_lines()).lower()
    assert await service.plan_of(gid, BOB) == ()  # spent
    assert await explain_game(service.storage, gid) is None


async def test_the_first_step_whose_condition_holds_is_played(service: GameService) -> None:
    """Rule: an ordered list of conditional steps; a step whose condition fails is passed over."""
    gid = await _started(service)
    game = await _game(service, gid)
    # a route bob cannot pay: its length in a colour he has none of
    track = next(t for t in game.board.tracks if t.colour != 8 and game.state.hands[1][t.colour] == 0)
    unpayable = f"claim {track.id} {CARD_NAMES[track.colour]}={track.length}"
    shown = next(CARD_NAMES[c] for c in game.state.face_up if 0 <= c < LOCO)
    before = list(game.state.hands[1])
    await service.set_plan(gid, BOB, f"{unpayable}; colour {shown}; deck")
    out = await _alice_draws_blind(service, gid)
    after = (await _game(service, gid)).state.hands[1]
    assert after[CARD_NAMES.index(shown)] >= before[CARD_NAMES.index(shown)] + 1
    assert sum(after) == sum(before) + 2
    assert any("played step 2" in said for _, said in _notes(out)), _notes(out)


async def test_a_plan_claims_a_route_it_can_pay(service: GameService) -> None:
    gid = await _started(service)
    game = await _game(service, gid)
    claim = next(s for s in RULES.choices(game, 1) if s.kind == "claim")
    await service.set_plan(gid, BOB, [claim, plans.Step("deck")])
    out = await _alice_draws_blind(service, gid)
    game = await _game(service, gid)
    assert game.state.owner[game._track(claim.args[0]).index] == 1
    assert any("played step 1" in said for _, said in _notes(out))


async def test_a_plan_is_dropped_when_its_route_is_taken(service: GameService) -> None:
    """Rule: a plan disarms itself when a route it needs is taken; its player is told exactly
    that (and pinged as usual when the turn comes), nobody else is."""
    gid = await _started(service)
    game = await _game(service, gid)
    claim = next(s for s in RULES.choices(game, 0) if s.kind == "claim")  # one alice can pay
    track = game._track(claim.args[0])
    await service.set_plan(
        gid,
        BOB,
        f"claim {track.id} {CARD_NAMES[track.colour] if track.colour < 8 else 'red'}={track.length}; deck",
    )
    out = await service.act(gid, ALICE, f"claim {claim.args[0]} {claim.args[1]}")
    assert await service.plan_of(gid, BOB) == ()
    assert _notes(out) == [
        (BOB, f"Your plan for game #1 was dropped: alice claimed {track.label}, which your plan needed.")
    ]
    assert await _to_act(service, gid) == [1] and BOB in out.ping  # bob plays himself, pinged


async def test_a_plan_made_during_ones_own_turn_waits_for_the_next(service: GameService) -> None:
    gid = await _started(service)
    await service.set_plan(gid, ALICE, "deck")
    await service.act(gid, ALICE, DrawDeck())
    out = await service.act(gid, ALICE, DrawDeck())
    assert await _to_act(service, gid) == [1] and out.notes == ()
    assert await service.plan_of(gid, ALICE) == (plans.Step("deck"),)
    out = await service.act(gid, BOB, DrawDeck())
    out = await service.act(gid, BOB, DrawDeck())
    assert await _to_act(service, gid) == [1]  # alice's plan played her turn
    assert [n.player for n in out.notes] == [ALICE]


async def test_a_plan_survives_a_restart(storage: SqliteStore, service: GameService, clock: Any) -> None:
    gid = await _started(service)
    await service.set_plan(gid, BOB, "deck")
    again = GameService(storage, clock=clock, rng=random.Random(2))
    assert await again.plan_of(gid, BOB) == (plans.Step("deck"),)
    out = await _alice_draws_blind(again, gid)
    assert await _to_act(again, gid) == [0]
    assert [n.player for n in out.notes] == [BOB]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty_plan"),
        ("fly to the moon", "malformed_step"),
        ("claim NOPE red=2", "unknown_route"),
        ("colour mauve", "malformed_step"),
        ("deck; deck; deck; deck; deck; deck", "plan_too_long"),
    ],
)
async def test_a_plan_that_cannot_be_read_is_refused_and_changes_nothing(
    service: GameService, text: str, code: str
) -> None:
    gid = await _started(service)
    await service.set_plan(gid, BOB, "deck")
    with pytest.raises(ServiceError) as err:
        await service.set_plan(gid, BOB, text)
    assert err.value.code == code
    assert await service.plan_of(gid, BOB) == (plans.Step("deck"),)


async def test_a_plan_is_reachable_only_by_its_player(service: GameService) -> None:
    gid = await _started(service)
    with pytest.raises(ServiceError) as err:
        await service.set_plan(gid, "discord:99", "deck")
    assert err.value.code in ("not_your_game", "no_such_game")
