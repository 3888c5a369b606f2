"""A click costs one database round trip per move it commits, and nothing else.

Every call into aiosqlite is a round trip from the event loop to SQLite's own thread and back. A
click used to cost about thirty of them (a transaction per statement, a fetch and a cursor close per
read, the seat's move count read twice for the private answer, the timers written apart from the
move); at fifty clicks a second that was most of the bot's event loop. These tests pin the count of
an ordinary click, so that it cannot creep back unnoticed: the move and each AI answer are one
round trip each (the turn's timers are written inside the move's own transaction), and what the
private answer reads afterwards (the seat's view, its move count, its legal moves) costs none.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from bot_helpers import ALICE

from bot.service import GameService
from bot.store.sqlite import SqliteStore
from rules.ttr.actions import DrawDeck


class RoundTrips:
    """Counts the calls handed to the storage connection's thread."""

    count = 0


@contextmanager
def counting(storage: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[RoundTrips]:
    """Count every call the storage's aiosqlite connection queues to its thread while inside."""
    trips = RoundTrips()
    connection = storage.db
    original = connection._execute  # noqa: SLF001 - the one door to the connection's thread

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.count += 1
        return await original(fn, *args, **kwargs)

    monkeypatch.setattr(connection, "_execute", counted)
    yield trips
    monkeypatch.undo()


async def _against_an_ai(service: GameService) -> int:
    """A Europe game of Alice against the heuristic AI, her opening tickets kept, her turn."""
    row = await service.create_game(
        game_name="ttr",
        config={"board": "europe"},
        creator=ALICE,
        creator_name="alice",
        seed=11,
        seat_order="join",
    )
    await service.add_ai(row.id, ALICE)
    await service.start(row.id, ALICE)
    keep = (await service.legal_actions(row.id, ALICE))[0]
    await service.act(row.id, ALICE, keep)
    return row.id


async def _private_answer(service: GameService, gid: int) -> None:
    """What the Discord answer to a click reads from the service (its hand, menu and controls)."""
    await service.private_view(gid, ALICE)
    await service.legal_actions(gid, ALICE)
    await service.private_view(gid, ALICE)


async def test_a_card_drawn_inside_a_turn_costs_one_round_trip(
    service: GameService, storage: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await _against_an_ai(service)
    await _private_answer(service, gid)  # the game is loaded and its move counts known, as after any click
    before = (await service.game_row(gid)).seq
    with counting(storage, monkeypatch) as trips:
        outcome = await service.act(gid, ALICE, DrawDeck(), expected_seq=before)
        await _private_answer(service, gid)
    assert outcome.seq == before + 1 and 0 in outcome.to_act  # her second card is still to draw
    assert trips.count == 1


async def test_a_move_that_ends_the_turn_costs_one_round_trip_per_committed_move(
    service: GameService, storage: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person's move and every AI answer to it: one round trip each, timers included."""
    gid = await _against_an_ai(service)
    await service.act(gid, ALICE, DrawDeck())
    await _private_answer(service, gid)
    before = (await service.game_row(gid)).seq
    moves = await service.seat_moves(gid, ALICE)
    with counting(storage, monkeypatch) as trips:
        outcome = await service.act(gid, ALICE, DrawDeck(), expected_moves=moves)
        await _private_answer(service, gid)
    committed = outcome.seq - before
    assert committed >= 2, "the AI answered"
    assert list(outcome.to_act) == [0]
    assert trips.count == committed
    # and the timers written with the last move are the turn's: due for her, at the current seq
    schedule = await storage.schedule_of(gid)
    assert schedule and {seq for _, seq in schedule.values()} == {outcome.seq}
