"""Take-backs in the service (issue 31): through the storage port, refused with the rule named, off
when a game's or an event's settings say so, within a First Class turn, and the record replays."""

from __future__ import annotations

import pytest
from bot_helpers import ALICE, BOB

from bot.integrity import explain_game
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
