"""Several processes on one PostgreSQL database: what the shared backend promises beyond the
port's conformance suite (docs/operations.md, "PostgreSQL"). Each store here is what one bot
process opens: its own pool of connections and its own process name."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from itertools import count

import pytest
from bot_helpers import FakeClock

from bot.store.pg import LEASE_SECONDS, PgStore
from bot.store.pg_cluster import shared_cluster
from bot.store.rows import DueEntry, SeatRow, StorageError

_numbers = count()


@pytest.fixture
async def two() -> AsyncIterator[tuple[PgStore, PgStore, FakeClock]]:
    url = shared_cluster().create_database(f"processes_{next(_numbers)}")
    clock = FakeClock()
    a = await PgStore(url, clock, process="A").open()
    b = await PgStore(url, clock, process="B").open()
    try:
        yield a, b, clock
    finally:
        await a.close()
        await b.close()


async def _started(store: PgStore) -> int:
    gid = await store.create_game(
        game_name="ttr", config={"board": "usa"}, seed=5, max_players=2, space="discord:guild:1", creator="p"
    )
    await store.start_game(gid, [SeatRow(0, "p", None, "P"), SeatRow(1, "q", None, "Q")], {"turn": 0}, 100.0)
    return gid


async def test_two_processes_committing_the_same_move_apply_it_once(
    two: tuple[PgStore, PgStore, FakeClock],
) -> None:
    """The (game, seq) check holds across processes: for each move, both commit it at the same
    moment; exactly one wins, the other is refused with SeqConflict and wrote nothing."""
    a, b, _ = two
    gid = await _started(a)
    winners = []
    for seq in range(30):
        results = await asyncio.gather(
            a.commit_action(gid, seq, 0, "p", f"a{seq}", {}, {"by": "A", "seq": seq + 1}),
            b.commit_action(gid, seq, 1, "q", f"b{seq}", {}, {"by": "B", "seq": seq + 1}),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["SeqConflict", "int"], results
        winners.append("A" if results[0] == seq + 1 else "B")
    log = await b.actions(gid)
    assert [x.seq for x in log] == list(range(1, 31))
    assert [x.action[0].upper() for x in log] == winners
    row = await a.get_game(gid)
    assert row.seq == 30 and row.snapshot == {"by": winners[-1], "seq": 30}


async def test_a_game_is_held_by_one_live_process_and_taken_over_when_its_lease_lapses(
    two: tuple[PgStore, PgStore, FakeClock],
) -> None:
    a, b, clock = two
    gid = await _started(a)
    assert await a.claim_game(gid) and not await b.claim_game(gid)
    assert await b.game_owner(gid) == "A"
    clock.advance(LEASE_SECONDS / 2)
    assert await a.claim_game(gid)  # renewed
    clock.advance(LEASE_SECONDS / 2 + 1)
    assert not await b.claim_game(gid)  # the renewal still holds
    clock.advance(LEASE_SECONDS)  # A stopped renewing: it is gone
    assert await b.claim_game(gid) and await a.game_owner(gid) == "B"
    assert not await a.claim_game(gid)


async def test_an_unreachable_server_is_refused_with_its_address_and_the_servers_words() -> None:
    url = shared_cluster().url("no_such_database")
    with pytest.raises(StorageError) as refused:
        await PgStore(url).open()
    assert refused.value.code == "cannot_open"
    assert "no_such_database" in refused.value.message and "does not exist" in refused.value.message


async def test_each_due_timer_is_handed_to_one_process_and_again_only_once_its_hold_lapsed(
    two: tuple[PgStore, PgStore, FakeClock],
) -> None:
    """Two schedulers polling at the same moment split the due timers (FOR UPDATE SKIP LOCKED):
    none is handed to both. One left in the schedule (its process died holding it) goes to the
    next poll after the hold; a timer replaced by a move is a new, unclaimed one."""
    a, b, _ = two
    games = [await _started(a) for _ in range(12)]
    for i, gid in enumerate(games):
        await a.set_schedule(gid, {"timeout": (100.0 + i, 0), "reminder": (50.0 + i, 0)})
    got_a, got_b = await asyncio.gather(a.claim_due(500.0, hold=60.0), b.claim_due(500.0, hold=60.0))
    keys_a = {(d.game_id, d.kind) for d in got_a}
    keys_b = {(d.game_id, d.kind) for d in got_b}
    assert not keys_a & keys_b
    assert keys_a | keys_b == {(g, k) for g in games for k in ("timeout", "reminder")}
    assert await a.claim_due(550.0, hold=60.0) == [] and await b.claim_due(550.0, hold=60.0) == []
    # B takes every timer alone, then "dies" holding them: after the hold they go to A, once.
    for gid in games:
        await a.set_schedule(gid, {"timeout": (600.0, 0)})
    assert len(await b.claim_due(600.0, hold=60.0)) == len(games)
    assert await a.claim_due(659.0, hold=60.0) == []
    retaken = await a.claim_due(661.0, hold=60.0)
    assert sorted(d.game_id for d in retaken) == games
    assert await b.claim_due(662.0, hold=60.0) == [] and await a.claim_due(662.0, hold=60.0) == []
    # A move replaces its game's timers: the new timer is due afresh, unclaimed.
    gid = games[0]
    await b.commit_action(gid, 0, 0, "p", "x", {}, {}, schedule={"timeout": (670.0, 1)})
    assert await b.claim_due(670.0, hold=60.0) == [DueEntry(gid, "timeout", 670.0, 1)]


async def test_a_move_committed_by_one_process_is_noticed_by_the_other_naming_its_origin(
    two: tuple[PgStore, PgStore, FakeClock],
) -> None:
    """LISTEN/NOTIFY of the outbox: process B hears of A's commit, at its commit, with A's name,
    so B can post it when B's shards own the game's server (bot/outbox.py)."""
    a, b, _ = two
    gid = await _started(a)
    notices = b.outbox.notices()
    try:
        assert await asyncio.wait_for(anext(notices), 10) is None  # listening: catch up first
        await a.commit_action(gid, 0, 0, "p", "x", {}, {"turn": 1})
        notice = await asyncio.wait_for(anext(notices), 10)
        assert notice is not None and (notice.game_id, notice.seq, notice.origin) == (gid, 1, "A")
        assert [(r.game_id, r.seq, r.origin) for r in await b.outbox.unposted()] == [(gid, 1, "A")]
    finally:
        await notices.aclose()
