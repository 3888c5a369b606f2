"""Game numbers are counted per server: a number a person types reaches only their server's game.

Issue 11: global sequential numbers told every server how many games the others ran, and could be
walked through (1, 2, 3 …) to find them. Each game now has a number within its space (a server; games
made outside any server count among themselves); the row id stays internal.
"""

from __future__ import annotations

import pytest
from bot_helpers import ALICE, BOB, CAROL

from bot.service import GameService, ServiceError

SERVER_A, SERVER_B = "discord:guild:1", "discord:guild:2"


async def _err(coro: object) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        await coro  # type: ignore[misc]
    return err.value


async def test_each_server_counts_its_own_games_from_one(service: GameService) -> None:
    a1 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    a2 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    b1 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=CAROL, creator_name="carol", space=SERVER_B
    )
    cli = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=BOB, creator_name="bob"
    )  # no server
    assert (a1.number, a2.number, b1.number, cli.number) == (1, 2, 1, 1)
    assert len({a1.id, a2.id, b1.id, cli.id}) == 4  # the internal ids stay distinct


async def test_a_typed_number_reaches_only_the_game_of_the_server_it_is_typed_in(
    service: GameService,
) -> None:
    a1 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    b1 = await service.create_game(
        game_name="ttr", config={"board": "europe"}, creator=CAROL, creator_name="carol", space=SERVER_B
    )
    assert await service.game_numbered(1, BOB, SERVER_B) == b1.id
    assert await service.game_numbered(1, BOB, SERVER_A) == a1.id
    # a number beyond a server's count says the same as a number another server uses
    unused = await _err(service.game_numbered(2, BOB, SERVER_B))
    assert unused.code == "not_found" and unused.message == "There is no game #2 here."
    await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    assert (await _err(service.game_numbered(2, BOB, SERVER_B))).message == unused.message
    # bob joins server B's game 1 by its number; server A's game 1 is untouched
    joined = await service.join(await service.game_numbered(1, BOB, SERVER_B), BOB, "bob", where=SERVER_B)
    assert joined.id == b1.id and joined.seat_of(BOB) is not None
    assert (await service.game_row(a1.id)).seat_of(BOB) is None


async def test_from_a_direct_message_a_number_means_the_players_own_game(service: GameService) -> None:
    a1 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    b1 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=CAROL, creator_name="carol", space=SERVER_B
    )
    assert await service.game_numbered(1, ALICE, None) == a1.id
    assert (await _err(service.game_numbered(1, BOB, None))).code == "not_found"  # not seated anywhere
    await service.join(b1.id, ALICE, "alice", where=SERVER_B)
    both = await _err(service.game_numbered(1, ALICE, None))
    assert both.code == "ambiguous" and "several servers" in both.message


async def test_messages_name_the_game_by_its_number_in_its_server(service: GameService) -> None:
    await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", space=SERVER_A
    )
    b1 = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=CAROL, creator_name="carol", space=SERVER_B
    )
    assert b1.id == 3 and b1.number == 1
    assert (
        await _err(service.join(b1.id, CAROL, "carol", where=SERVER_B))
    ).message == "You are already in game #1."
    await service.add_ai(b1.id, CAROL, where=SERVER_B)
    outcome = await service.start(b1.id, CAROL, where=SERVER_B)
    assert outcome.lines[0].text.startswith("Game #1 started.")
    assert (await service.public_view(b1.id, where=SERVER_B))["game_id"] == 1  # the board's title number
