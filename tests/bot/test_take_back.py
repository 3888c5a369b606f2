"""Take-backs in the service (issue 31): through the storage port, refused with the rule named, off
when a game's or an event's settings say so, within a First Class turn, and the record replays."""

from __future__ import annotations

import pytest
from bot_helpers import ALICE, BOB, FakeClock

from bot.integrity import explain_game
from bot.scheduler import Scheduler
from bot.service import GameService, ServiceError
from bot.tournament.runner import TournamentService
from rules import takeback
from rules.games import find_game


async def _err(coro: object) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        await coro  # type: ignore[misc]
    return err.value


async def _game(service: GameService, name: str, config: dict[str, object]) -> int:
    row = await service.create_game(
        game_name=name,
        config=config,
        creator=ALICE,
        creator_name="alice",
        seat_order="join",
        seed=5,  # type: ignore[arg-type]
    )
    await service.join(row.id, BOB, "bob")
    await service.start(row.id, ALICE)
    return row.id


async def _reversible(service: GameService, gid: int, player: str) -> object | None:
    loaded = await service.load(gid)
    seat = loaded.row.seat_of(player)
    assert seat is not None and loaded.game is not None
    spec = find_game(loaded.row.game_name)
    for action in loaded.game.legal_actions(seat):
        if takeback.classify(spec.take_back, loaded.game, seat, action) is None:
            return action
    return None


async def test_first_class_moves_are_taken_back_within_a_turn(service: GameService) -> None:
    """Rule: First Class within a turn by the same rule: a move that dealt nothing is taken back,
    again and again, each through a log entry; the record replays to the live game."""
    gid = await _game(service, "first-class", {})
    taken = 0
    for _ in range(400):
        loaded = await service.load(gid)
        if loaded.game is None or loaded.row.status != "active" or taken >= 3:
            break
        seat = loaded.game.seats_to_act()[0]
        player = loaded.row.seats[seat].player
        assert player is not None
        action = await _reversible(service, gid, player)
        if action is not None and loaded.game.s.phase == "play":  # type: ignore[attr-defined]
            before = loaded.game.to_json()
            await service.act(gid, player, action)  # type: ignore[arg-type]
            other = BOB if player == ALICE else ALICE
            if (await service.game_row(gid)).seat_of(other) in (await service.load(gid)).game.seats_to_act():  # type: ignore[union-attr]
                refused = await _err(service.take_back(gid, other))
                assert refused.code in ("nothing_to_take_back", "other_seat_moved")
            out = await service.take_back(gid, player)
            assert "took back their last move" in " ".join(out.plain_lines())
            assert (await service.load(gid)).game.to_json() == before  # type: ignore[union-attr]
            taken += 1
        await service.act(gid, player, (await service.legal_actions(gid, player))[0])
    assert taken == 3
    assert await explain_game(service.storage, gid) is None


async def test_take_backs_turned_off_by_the_game_or_the_event(service: GameService) -> None:
    """Setting: take_backs=off refuses every take-back with that sentence; an event's setting
    reaches the config of each of its games."""
    gid = await _game(service, "ttr", {"board": "usa", "take_backs": False})
    for player in (ALICE, BOB):
        await service.act(gid, player, (await service.legal_actions(gid, player))[0])
    refused = await _err(service.take_back(gid, ALICE))
    assert refused.code == "take_backs_off" and "turned off" in refused.message
    runner = TournamentService(service)
    event = await runner.create_event(
        game_name="ttr",
        space="discord:guild:1",
        creator=ALICE,
        name="No take-backs",
        take_backs=False,
        seed=3,
    )
    assert event.settings[takeback.SETTING] is False


async def test_a_move_another_seat_has_answered_stands(service: GameService) -> None:
    """Rule: no other seat has acted since; and only a seated player takes anything back."""
    gid = await _game(service, "ttr", {"board": "usa"})
    for player in (ALICE, BOB):
        await service.act(gid, player, (await service.legal_actions(gid, player))[0])
    refused = await _err(service.take_back(gid, ALICE))
    assert refused.code == "other_seat_moved" and "bob has moved since" in refused.message
    assert (await _err(service.take_back(gid, "discord:999"))).code in ("not_your_game", "not_found")


async def _claim_first(service: GameService, gid: int) -> tuple[str, object]:
    """Play the opening tickets; return the player to act and a move of theirs that can be taken back."""
    for player in (ALICE, BOB):
        legal = await service.legal_actions(gid, player)
        await service.act(gid, player, next(a for a in legal if a.kind == "keep_tickets"))
    loaded = await service.load(gid)
    seat = loaded.game.seats_to_act()[0]  # type: ignore[union-attr]
    player = loaded.row.seats[seat].player
    assert player is not None
    for _ in range(30):
        action = await _reversible(service, gid, player)
        if action is not None:
            return player, action
        await service.act(gid, player, "draw deck")
        await service.act(gid, player, "draw deck")
        other = BOB if player == ALICE else ALICE
        await service.act(gid, other, "draw deck")
        await service.act(gid, other, "draw deck")
    raise AssertionError("no move that can be taken back")


async def test_a_take_back_does_not_restart_the_turn_timer(service: GameService, clock: FakeClock) -> None:
    """Decision: the turn keeps the clock it had before the move taken back (a move and its
    take-back must not buy a fresh turn): the deadline after the take-back is the one before the
    move."""
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seat_order="join",
        seed=5,
        turn_hours=24.0,  # type: ignore[arg-type]
    )
    await service.join(row.id, BOB, "bob")
    await service.start(row.id, ALICE)
    gid = row.id
    player, action = await _claim_first(service, gid)
    before = service.deadline(await service.load(gid))
    assert before is not None
    clock.advance(10 * 3600)
    await service.act(gid, player, action)  # type: ignore[arg-type]
    moved = service.deadline(await service.load(gid))
    assert moved is not None and moved > before  # the next player's fresh turn
    clock.advance(3600)
    await service.take_back(gid, player)
    assert service.deadline(await service.load(gid)) == before
    assert min(due for due, _ in (await service.storage.schedule_of(gid)).values()) <= before


async def test_a_move_the_bot_played_cannot_be_taken_back(service: GameService, clock: FakeClock) -> None:
    """Rule: not a move the bot played for you: the turn timer ran out and an AI played the
    person's turn; the person may not take that move back."""
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seat_order="join",
        seed=5,
        turn_hours=1.0,
        timeout_policy="ai",  # type: ignore[arg-type]
    )
    await service.join(row.id, BOB, "bob")
    await service.start(row.id, ALICE)
    gid = row.id
    for player in (ALICE, BOB):
        legal = await service.legal_actions(gid, player)
        await service.act(gid, player, next(a for a in legal if a.kind == "keep_tickets"))
    loaded = await service.load(gid)
    late = loaded.row.seats[loaded.game.seats_to_act()[0]].player  # type: ignore[union-attr]
    assert late is not None
    seq = loaded.row.seq
    clock.advance(2 * 3600)
    await Scheduler(service, clock=clock).tick()
    played = await service.storage.actions(gid, since_seq=seq)
    assert played and {m.player for m in played} == {None}  # the bot played the late seat's turn
    assert (await service.storage.actions(gid))[-1].seat == loaded.row.seat_of(late)
    refused = await _err(service.take_back(gid, late))
    assert refused.code == "not_your_move" and "The bot played your last move" in refused.message
