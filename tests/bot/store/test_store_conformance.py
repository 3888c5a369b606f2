"""The storage port's promises, checked against every backend (``backends.BACKENDS``).

Each test names the promise of :mod:`bot.store.api` it checks. They speak only through the port:
a backend that passes here can stand behind the game service, the tournaments and the Discord
adapter. Reopening a database (``handle.reopen()``) stands for a restart of the process.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

import pytest
from backends import BACKENDS, Backend
from bot_helpers import FakeClock

from bot.store.api import Store
from bot.store.rows import ACTIVE, BROKEN, LOBBY, OVER, DueEntry, SeatRow, SeqConflict, StorageError
from bot.tournament.model import EventConfig, GameResult, SeatResult, Stage, Table
from bot.tournament.ratings import RatingBook, rate_event_game
from bot.tournament.store import ENTERED, WAITING, RatingWrite

A, B, C = "discord:1", "discord:2", "discord:3"
SPACE = "discord:guild:9"


class Handle:
    """One database of one backend, opened as a process would open it."""

    def __init__(self, backend: Backend, where: Path, clock: FakeClock) -> None:
        self.backend, self.where, self.clock = backend, where, clock
        self.opener = backend.connect(where)
        self.store: Store | None = None

    async def open(self, migrations: Mapping[str, Sequence[str]] | None = None) -> Store:
        self.store = await self.opener(self.clock, migrations or self.backend.migrations)
        return self.store

    async def reopen(self, migrations: Mapping[str, Sequence[str]] | None = None) -> Store:
        await self.close()
        return await self.open(migrations)

    async def close(self) -> None:
        if self.store is not None:
            await self.store.close()
            self.store = None


@pytest.fixture(params=BACKENDS, ids=lambda b: b.name)
async def handle(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Handle]:
    h = Handle(request.param, tmp_path, FakeClock())
    await h.open()
    try:
        yield h
    finally:
        await h.close()


@pytest.fixture
def store(handle: Handle) -> Store:
    assert handle.store is not None
    return handle.store


async def _game(store: Store, space: str | None = SPACE, creator: str | None = A) -> int:
    return await store.create_game(
        game_name="ttr", config={"board": "usa"}, seed=5, max_players=4, space=space, creator=creator
    )


async def _started(store: Store, *players: str | None) -> int:
    gid = await _game(store)
    seats = [SeatRow(i, p, None if p else "random", f"P{i}") for i, p in enumerate(players or (A, B))]
    await store.start_game(gid, seats, {"turn": 0}, started_at=100.0, config={"board": "usa", "x": 1})
    return gid


# ---- games -----------------------------------------------------------------------------------


async def test_a_created_game_is_a_lobby_with_what_was_given_and_the_next_number_of_its_space(
    store: Store,
) -> None:
    first = await store.create_game(
        game_name="ttr",
        config={"board": "europe"},
        seed=42,
        max_players=3,
        space=SPACE,
        creator=A,
        seat_order="join",
        turn_hours=12.0,
        timeout_policy="forfeit",
        reminder_hours=2.0,
        remind_by="dm",
    )
    second, elsewhere, nowhere, nowhere2 = (
        await _game(store),
        await _game(store, space="discord:guild:10"),
        await _game(store, space=None),
        await _game(store, space=None),
    )
    row = await store.get_game(first)
    assert (row.id, row.game_name, row.config, row.seed, row.max_players) == (
        first,
        "ttr",
        {"board": "europe"},
        42,
        3,
    )
    assert (row.space, row.creator, row.status, row.seat_order) == (SPACE, A, LOBBY, "join")
    assert (row.turn_hours, row.timeout_policy, row.reminder_hours, row.remind_by) == (
        12.0,
        "forfeit",
        2.0,
        "dm",
    )
    assert (row.seq, row.snapshot, row.seats, row.players, row.broken_reason) == (0, None, [], 0, None)
    assert row.created_at == row.updated_at == 1_800_000_000.0
    numbers = [(await store.get_game(g)).number for g in (first, second, elsewhere, nowhere, nowhere2)]
    assert numbers == [1, 2, 1, 1, 2]
    assert await store.game_numbered(SPACE, 2) == second
    assert await store.game_numbered(None, 2) == nowhere2
    assert await store.game_numbered(SPACE, 3) is None
    assert await store.game_number(elsewhere) == 1 and await store.game_number(9999) is None


async def test_two_creations_at_once_never_share_a_number(store: Store) -> None:
    ids = await asyncio.gather(*(_game(store) for _ in range(8)))
    assert sorted([(await store.get_game(g)).number for g in ids]) == list(range(1, 9))


async def test_a_missing_game_is_refused_by_name(store: Store) -> None:
    with pytest.raises(StorageError) as refused:
        await store.get_game(404)
    assert refused.value.code == "no_game"
    assert not await store.has_game(404) and await store.game_record(404) is None
    assert await store.has_game(await _game(store))


async def test_starting_pins_seats_snapshot_and_config_once(store: Store) -> None:
    gid = await _started(store, A, None, B)
    row = await store.get_game(gid)
    assert (row.status, row.players, row.seq, row.snapshot, row.turn_started_at) == (
        ACTIVE,
        3,
        0,
        {"turn": 0},
        100.0,
    )
    assert row.config == {"board": "usa", "x": 1}
    assert [(s.seat, s.player, s.ai_kind, s.name, s.is_ai) for s in row.seats] == [
        (0, A, None, "P0", False),
        (1, None, "random", "P1", True),
        (2, B, None, "P2", False),
    ]
    assert row.seat_of(B) == 2 and row.seat_of(C) is None
    with pytest.raises(SeqConflict):
        await store.start_game(gid, [], {"turn": 9}, 200.0)
    assert (await store.get_game(gid)).snapshot == {"turn": 0}


async def test_lobby_seats_are_replaced_in_order_and_every_name_is_remembered(store: Store) -> None:
    gid = await _game(store)
    await store.set_lobby_seats(gid, [SeatRow(5, A, None, "alice"), SeatRow(7, B, None, "bob")])
    await store.set_lobby_seats(gid, [SeatRow(0, B, None, "bobby")])
    row = await store.get_game(gid)
    assert [(s.seat, s.player, s.name) for s in row.seats] == [(0, B, "bobby")]
    assert await store.player_names(gid) == {A: "alice", B: "bobby"}


async def test_update_seat_changes_one_seat_and_a_new_holder_is_named_in_the_log(store: Store) -> None:
    gid = await _started(store, A, B)
    await store.update_seat(gid, 1, player=C, ai_kind=None, name="carol", former_player=B)
    await store.update_seat(gid, 0, away_until=500.0, claimant=C)
    seats = (await store.get_game(gid)).seats
    assert (seats[1].player, seats[1].name, seats[1].former_player) == (C, "carol", B)
    assert (seats[0].player, seats[0].away_until, seats[0].claimant) == (A, 500.0, C)
    assert await store.player_names(gid) == {A: "P0", B: "P1", C: "carol"}


async def test_update_game_sets_only_the_given_columns_and_broken_keeps_a_reason(
    handle: Handle, store: Store
) -> None:
    gid = await _started(store)
    handle.clock.advance(10)
    await store.update_game(gid, turn_hours=None, timeout_policy="skip", reminder_hours=1.5, remind_by="dm")
    row = await store.get_game(gid)
    assert (row.turn_hours, row.timeout_policy, row.reminder_hours, row.remind_by) == (
        None,
        "skip",
        1.5,
        "dm",
    )
    assert row.status == ACTIVE and row.updated_at == 1_800_000_010.0
    await store.mark_broken(gid, "x" * 600)
    row = await store.get_game(gid)
    assert row.status == BROKEN and row.broken_reason == "x" * 500


async def test_games_are_listed_by_status_and_by_player(store: Store) -> None:
    lobby = await _game(store)
    await store.set_lobby_seats(lobby, [SeatRow(0, C, None, "c")])
    active = await _started(store, A, B)
    over = await _started(store, A, C)
    await store.update_game(over, status=OVER)
    assert await store.game_ids() == [lobby, active]
    assert await store.game_ids((OVER,)) == [over]
    assert [(s.id, s.status) for s in await store.game_statuses()] == [
        (lobby, LOBBY),
        (active, ACTIVE),
        (over, OVER),
    ]
    assert await store.games_of_player(A) == [active]
    assert await store.games_of_player(C, (LOBBY, ACTIVE, OVER)) == [lobby, over]
    assert await store.numbered_games_of_player(C, 3) == [over]


# ---- moves -----------------------------------------------------------------------------------


async def test_commit_action_appends_the_next_move_with_its_snapshot(handle: Handle, store: Store) -> None:
    gid = await _started(store)
    handle.clock.advance(5)
    assert (
        await store.commit_action(
            gid, 0, 0, A, "draw deck", {"kind": "draw_deck"}, {"turn": 1}, public="A drew"
        )
        == 1
    )
    assert (
        await store.commit_action(
            gid, 1, 1, None, "pass", {"kind": "pass"}, {"turn": 2}, turn_started_at=300.0
        )
        == 2
    )
    row = await store.get_game(gid)
    assert (row.seq, row.snapshot, row.turn_started_at, row.updated_at) == (
        2,
        {"turn": 2},
        300.0,
        1_800_000_005.0,
    )
    moves = await store.actions(gid)
    assert [(m.seq, m.seat, m.player, m.action, m.action_json, m.public) for m in moves] == [
        (1, 0, A, "draw deck", {"kind": "draw_deck"}, "A drew"),
        (2, 1, None, "pass", {"kind": "pass"}, None),
    ]
    assert moves[0].game_id == gid and moves[0].created_at == 1_800_000_005.0


async def test_a_stale_seq_is_a_conflict_and_writes_nothing(store: Store) -> None:
    """The ``(game, seq)`` check: a double click or a retried interaction applies at most once."""
    gid = await _started(store)
    await store.set_schedule(gid, {"turn": (50.0, 0)})
    await store.commit_action(gid, 0, 0, A, "a", {"k": 1}, {"turn": 1}, schedule={"turn": (60.0, 1)})
    with pytest.raises(SeqConflict):
        await store.commit_action(
            gid, 0, 1, B, "b", {"k": 2}, {"turn": 99}, status=OVER, schedule={"remind": (1.0, 1)}
        )
    row = await store.get_game(gid)
    assert (row.seq, row.snapshot, row.status) == (1, {"turn": 1}, ACTIVE)
    assert [m.action for m in await store.actions(gid)] == ["a"]
    assert await store.schedule_of(gid) == {"turn": (60.0, 1)}


async def test_two_commits_from_the_same_seq_at_once_apply_exactly_one(store: Store) -> None:
    gid = await _started(store)
    results = await asyncio.gather(
        *(store.commit_action(gid, 0, i % 2, A, f"m{i}", {"i": i}, {"turn": i}) for i in range(6)),
        return_exceptions=True,
    )
    assert sum(r == 1 for r in results) == 1
    assert all(isinstance(r, SeqConflict) for r in results if r != 1)
    assert len(await store.actions(gid)) == 1


async def test_only_an_active_game_takes_moves(store: Store) -> None:
    lobby = await _game(store)
    with pytest.raises(SeqConflict):
        await store.commit_action(lobby, 0, 0, A, "a", {}, {})
    over = await _started(store)
    await store.commit_action(over, 0, 0, A, "last", {}, {"end": True}, status=OVER)
    with pytest.raises(SeqConflict):
        await store.commit_action(over, 1, 0, A, "after", {}, {})
    assert (await store.get_game(over)).status == OVER


async def test_the_log_is_read_in_order_by_range_and_counted_per_seat(store: Store) -> None:
    gid = await _started(store)
    for seq in range(6):
        await store.commit_action(gid, seq, seq % 3 and 1, A, f"m{seq + 1}", {}, {"turn": seq + 1})
    assert [m.seq for m in await store.actions(gid, since_seq=3)] == [4, 5, 6]
    assert [m.seq for m in await store.actions(gid, limit=2)] == [5, 6]
    assert [m.seq for m in await store.actions(gid, since_seq=1, limit=10)] == [2, 3, 4, 5, 6]
    assert await store.count_actions(gid, 0) == 2 and await store.count_actions(gid, 1) == 4
    assert await store.moves_per_seat(gid) == {0: 2, 1: 4}
    assert await store.count_actions(gid, 2) == 0


async def test_an_export_and_a_record_give_the_whole_log(store: Store) -> None:
    gid = await _started(store, A, None)
    await store.commit_action(gid, 0, 0, A, "draw deck", {"kind": "draw_deck"}, {"turn": 1})
    await store.commit_action(gid, 1, 1, None, "pass", {"kind": "pass"}, {"turn": 2})
    export = await store.export_game(gid)
    assert export == {
        "id": gid,
        "game": "ttr",
        "config": {"board": "usa", "x": 1},
        "players": 2,
        "seed": 5,
        "seats": [{"seat": 0, "name": "P0", "ai": None}, {"seat": 1, "name": "P1", "ai": "random"}],
        "status": ACTIVE,
        "actions": [[0, "draw deck"], [1, "pass"]],
    }
    record = await store.game_record(gid)
    assert record is not None
    assert (record.game_name, record.players, record.seed, record.status, record.seq, record.seat_count) == (
        "ttr",
        2,
        5,
        ACTIVE,
        2,
        2,
    )
    assert [(e.seq, e.seat, e.text) for e in record.log] == [(1, 0, "draw deck"), (2, 1, "pass")]
    assert isinstance(record.config, str) and isinstance(record.snapshot, str)  # as stored, not decoded


# ---- schedule --------------------------------------------------------------------------------


async def test_timers_are_due_oldest_first_up_to_now(store: Store) -> None:
    one, two = await _started(store), await _started(store)
    await store.set_schedule(one, {"turn": (300.0, 4), "remind": (100.0, 4)})
    await store.set_schedule(two, {"turn": (200.0, 1)})
    assert await store.due(99.0) == []
    assert await store.due(200.0) == [DueEntry(one, "remind", 100.0, 4), DueEntry(two, "turn", 200.0, 1)]
    assert [(d.game_id, d.kind) for d in await store.due(1e12)] == [
        (one, "remind"),
        (two, "turn"),
        (one, "turn"),
    ]


async def test_a_process_claims_the_due_timers_oldest_first(store: Store) -> None:
    """``claim_due`` hands this process what ``due`` lists (a cluster's other processes are the
    PostgreSQL tests' business: tests/bot/store/test_pg_processes.py)."""
    one, two = await _started(store), await _started(store)
    await store.set_schedule(one, {"turn": (300.0, 4), "remind": (100.0, 4)})
    await store.set_schedule(two, {"turn": (200.0, 1)})
    assert await store.claim_due(99.0, hold=60.0) == []
    assert await store.claim_due(200.0, hold=60.0) == [
        DueEntry(one, "remind", 100.0, 4),
        DueEntry(two, "turn", 200.0, 1),
    ]
    await store.delete_schedule_entry(one, "remind", 4)
    assert await store.schedule_of(one) == {"turn": (300.0, 4)}


async def test_a_schedule_is_replaced_whole_and_an_entry_removed_only_for_its_move(store: Store) -> None:
    gid = await _started(store)
    await store.set_schedule(gid, {"turn": (300.0, 4), "remind": (100.0, 4)})
    await store.set_schedule(gid, {"turn": (400.0, 5)})
    assert await store.schedule_of(gid) == {"turn": (400.0, 5)}
    await store.delete_schedule_entry(gid, "turn", 4)  # an older turn's entry: the newer one stays
    assert await store.schedule_of(gid) == {"turn": (400.0, 5)}
    await store.delete_schedule_entry(gid, "turn", 5)
    assert await store.schedule_of(gid) == {}
    await store.set_schedule(gid, {"turn": (1.0, 6), "remind": (2.0, 6)})
    await store.clear_schedule(gid, "remind")
    assert await store.schedule_of(gid) == {"turn": (1.0, 6)}
    await store.clear_schedule(gid)
    assert await store.schedule_of(gid) == {} and await store.due(1e12) == []


async def test_commit_action_replaces_the_timers_with_the_move(store: Store) -> None:
    gid = await _started(store)
    await store.set_schedule(gid, {"turn": (50.0, 0), "remind": (40.0, 0)})
    await store.commit_action(gid, 0, 0, A, "a", {}, {}, schedule={"turn": (90.0, 1)})
    assert await store.schedule_of(gid) == {"turn": (90.0, 1)}
    await store.commit_action(gid, 1, 1, B, "b", {}, {})  # no schedule given: the timers stay
    assert await store.schedule_of(gid) == {"turn": (90.0, 1)}
    await store.commit_action(gid, 2, 0, A, "a", {}, {}, schedule={})  # none left: all go
    assert await store.schedule_of(gid) == {}


# ---- the outcome stream's outbox (Outbox) ----------------------------------------------------


async def test_every_committed_move_is_in_the_outbox_until_marked_posted(
    handle: Handle, store: Store
) -> None:
    """The transactional outbox: a move is written there by the commit itself (a refused commit
    writes none), stays there across a restart until marked posted, and marking is idempotent."""
    gid = await _started(store)
    other = await _started(store)
    handle.clock.advance(5)
    await store.commit_action(gid, 0, 0, A, "a", {"k": 1}, {"turn": 1})
    await store.commit_action(gid, 1, 1, B, "b", {"k": 2}, {"turn": 2})
    await store.commit_action(other, 0, 0, A, "c", {"k": 3}, {"turn": 1})
    with pytest.raises(SeqConflict):
        await store.commit_action(gid, 1, 0, A, "again", {"k": 1}, {"turn": 9})
    rows = await store.outbox.unposted()
    assert [(r.game_id, r.seq) for r in rows] == [(gid, 1), (gid, 2), (other, 1)]
    assert {r.origin for r in rows} == {store.outbox.origin}
    assert rows[0].created_at == 1_800_000_005.0
    again = await handle.reopen()  # a crash between commit and post loses nothing
    assert [(r.game_id, r.seq) for r in await again.outbox.unposted(gid)] == [(gid, 1), (gid, 2)]
    assert await again.outbox.mark_posted(gid, 1) == 1
    assert await again.outbox.mark_posted(gid, 1) == 0
    assert [(r.game_id, r.seq) for r in await again.outbox.unposted()] == [(gid, 2), (other, 1)]
    assert await again.outbox.mark_posted(gid, 5) == 1
    handle.clock.advance(60)
    assert await again.outbox.prune(older_than=handle.clock() - 30) == 2
    assert [(r.game_id, r.seq) for r in await again.outbox.unposted()] == [(other, 1)]


async def test_the_outbox_notices_start_with_a_catch_up_mark(store: Store) -> None:
    """A reader of the notices is first told to read what is unposted (None), before anything else."""
    notices = store.outbox.notices()
    try:
        assert await asyncio.wait_for(anext(notices), 10) is None
    finally:
        await notices.aclose()


# ---- meta, ownership, restart ----------------------------------------------------------------


async def test_meta_keeps_the_last_value_of_a_key(store: Store) -> None:
    assert await store.get_meta("hash") is None
    await store.set_meta("hash", "a")
    await store.set_meta("hash", "b")
    assert await store.get_meta("hash") == "b"


async def test_the_process_that_acts_for_a_game_can_be_asked_and_claimed(
    handle: Handle, store: Store
) -> None:
    """One embedded process acts for every game; the answer survives a restart."""
    gid = await _started(store)
    assert store.process
    assert await store.claim_game(gid)
    assert await store.game_owner(gid) == store.process
    assert await store.game_owner(404) is None
    again = await handle.reopen()
    assert await again.game_owner(gid) == again.process and await again.claim_game(gid)


async def test_a_plan_is_kept_per_seat_replaced_dropped_and_survives_a_restart(
    handle: Handle, store: Store
) -> None:
    """GameStore.set_plan/plans: one planned turn per seat per game, replaced whole, None drops
    it, gone with its game's other seats untouched, and still there after a restart."""
    gid = await _started(store, A, B)
    other = await _started(store, A, B)
    assert await store.plans(gid) == {}
    await store.set_plan(gid, 1, {"steps": ["deck"], "seq": 3})
    await store.set_plan(gid, 1, {"steps": ["locomotive", "deck"], "seq": 4})
    await store.set_plan(gid, 0, {"steps": ["colour red"], "seq": 4})
    await store.set_plan(other, 0, {"steps": ["deck"], "seq": 0})
    store = await handle.reopen()
    assert await store.plans(gid) == {
        0: {"steps": ["colour red"], "seq": 4},
        1: {"steps": ["locomotive", "deck"], "seq": 4},
    }
    await store.set_plan(gid, 0, None)
    await store.set_plan(gid, 0, None)  # dropping no plan is no error
    assert await store.plans(gid) == {1: {"steps": ["locomotive", "deck"], "seq": 4}}
    assert await store.plans(other) == {0: {"steps": ["deck"], "seq": 0}}


async def test_everything_written_survives_a_restart(handle: Handle, store: Store) -> None:
    gid = await _started(store, A, B)
    await store.commit_action(gid, 0, 0, A, "a", {"k": 1}, {"turn": 1}, schedule={"turn": (9.0, 1)})
    await store.set_meta("k", "v")
    event = await store.tournaments.create_event(
        space=SPACE,
        creator=A,
        game_name="ttr",
        config=EventConfig(family="ttr", boards=("usa",), name="Cup"),
        settings={"cap": 0},
        seed=3,
    )
    await store.discord.set_route(gid, 1, 2, 3)
    await store.discord.set_guild_language(1, "fr")
    before = (await store.get_game(gid), await store.actions(gid))
    again = await handle.reopen()
    assert (await again.get_game(gid), await again.actions(gid)) == before
    assert await again.due(10.0) == [DueEntry(gid, "turn", 9.0, 1)]
    assert await again.get_meta("k") == "v"
    assert (await again.tournaments.event(event)) is not None
    assert await again.discord.route(gid) == (1, 2, 3) and await again.discord.guild_language(1) == "fr"
    with pytest.raises(SeqConflict):  # the seq check holds across the restart
        await again.commit_action(gid, 0, 1, B, "b", {}, {})


async def test_a_sound_database_reports_no_integrity_problem(store: Store) -> None:
    await _started(store)
    assert await store.integrity_problems() == []


# ---- per-owner migrations --------------------------------------------------------------------


async def test_each_owner_is_migrated_to_the_end_of_its_own_list_once(handle: Handle, store: Store) -> None:
    lists = handle.backend.migrations
    assert await store.schema_versions() == {owner: len(steps) for owner, steps in lists.items()}
    again = await handle.reopen()
    assert await again.schema_versions() == {owner: len(steps) for owner, steps in lists.items()}


async def test_a_new_step_of_one_owner_runs_alone_and_keeps_every_row(handle: Handle, store: Store) -> None:
    gid = await _started(store)
    await store.discord.set_route(gid, 1, 2, 3)
    lists = handle.backend.migrations
    grown = {owner: list(steps) for owner, steps in lists.items()}
    grown["discord"].append(handle.backend.probe("discord"))
    again = await handle.reopen(grown)
    expected = {owner: len(steps) for owner, steps in lists.items()} | {"discord": len(lists["discord"]) + 1}
    assert await again.schema_versions() == expected
    assert (await again.get_game(gid)).snapshot == {"turn": 0}
    assert await again.discord.route(gid) == (1, 2, 3)
    again = await handle.reopen(grown)  # applied once
    assert await again.schema_versions() == expected


async def test_a_database_ahead_of_this_release_is_refused(handle: Handle, store: Store) -> None:
    grown = {owner: list(steps) for owner, steps in handle.backend.migrations.items()}
    grown["tournament"].append(handle.backend.probe("tournament"))
    await handle.reopen(grown)
    await handle.close()
    with pytest.raises(StorageError) as refused:
        await handle.open()  # this release's lists: the tournament tables are one step ahead
    assert refused.value.code == "newer_schema"


# ---- tournaments -----------------------------------------------------------------------------


async def _event(store: Store, space: str = SPACE, name: str = "Cup") -> int:
    return await store.tournaments.create_event(
        space=space,
        creator=A,
        game_name="ttr",
        config=EventConfig(family="ttr", boards=("usa",), name=name, rounds=2, table_size=2),
        settings={"cap": 0},
        seed=7,
    )


async def test_events_are_kept_and_listed_newest_first_by_space_and_status(store: Store) -> None:
    t = store.tournaments
    one, two, other = (
        await _event(store),
        await _event(store, name="Bis"),
        await _event(store, "discord:guild:8"),
    )
    event = await t.event(one)
    assert event is not None
    assert (event.space, event.name, event.creator, event.game_name, event.seed) == (
        SPACE,
        "Cup",
        A,
        "ttr",
        7,
    )
    assert (event.status, event.round, event.settings, event.config.rounds) == (
        "registration",
        0,
        {"cap": 0},
        2,
    )
    await t.update_event(two, status="running", settings={"cap": 4})
    assert [e.id for e in await t.events()] == [other, two, one]
    assert [e.id for e in await t.events(SPACE)] == [two, one]
    assert [e.id for e in await t.events(SPACE, ("running",))] == [two]
    changed = await t.event(two)
    assert changed is not None and (changed.status, changed.settings, changed.round) == (
        "running",
        {"cap": 4},
        0,
    )
    assert await t.event(999) is None


async def test_event_ids_by_status_and_a_withdrawn_round(store: Store) -> None:
    """Start-up finds events by id without reading their rows (one damaged row must not hide the
    others), and a round whose games could not all be created is withdrawn at once: its tables and
    round gone, the event back at the round before with the status and settings given."""
    t = store.tournaments
    one, two = await _event(store), await _event(store, name="Bis")
    await t.update_event(one, status="running")
    await t.update_event(two, status="paused")
    assert await t.event_ids(("running", "paused")) == [one, two]
    assert await t.event_ids(("finished",)) == []
    await t.add_round(one, 1, Stage.SWISS, [Table(1, 1, "usa", (A, B), Stage.SWISS)], None)
    await t.withdraw_round(one, 1, status="registration", settings={"cap": 2})
    event = await t.event(one)
    assert event is not None and (event.round, event.status, event.settings) == (
        0,
        "registration",
        {"cap": 2},
    )
    assert await t.tables(one) == [] and await t.rounds(one) == []


async def test_registrations_keep_their_order_and_a_freed_place_goes_to_who_is_promoted(store: Store) -> None:
    t = store.tournaments
    ev = await _event(store)
    await t.add_entry(ev, A, "alice", ENTERED)
    await t.add_entry(ev, B, "bob", ENTERED)
    await t.add_entry(ev, C, "carol", WAITING)
    await t.remove_entry(ev, A, promote=C)
    await t.set_entry(ev, B, checked_in=True)
    await t.set_states(ev, {B: "dropped"})
    assert [(e.player, e.name, e.position, e.state, e.checked_in) for e in await t.entries(ev)] == [
        (B, "bob", 2, "dropped", True),
        (C, "carol", 3, ENTERED, False),
    ]


async def test_a_round_its_tables_results_and_ratings(store: Store) -> None:
    t = store.tournaments
    ev = await _event(store)
    game = await _started(store)
    await t.add_round(
        ev,
        1,
        Stage.SWISS,
        [Table(1, 1, "usa", (A, B), Stage.SWISS), Table(1, 2, "usa", (C,), Stage.SWISS)],
        500.0,
    )
    event = await t.event(ev)
    assert event is not None and event.round == 1
    await t.set_table(ev, 1, 1, game_id=game)
    await t.set_table(ev, 1, 2, adjudicated=True)
    tables = await t.tables(ev, 1)
    assert [(x.number, x.seats, x.game_id, x.adjudicated, x.stage) for x in tables] == [
        (1, (A, B), game, False, Stage.SWISS),
        (2, (C,), None, True, Stage.SWISS),
    ]
    assert tables[0].table() == Table(1, 1, "usa", (A, B), Stage.SWISS)
    found = await t.table_of_game(game)
    assert found is not None and found.number == 1
    await t.finish_round(ev, 1)
    (played,) = await t.rounds(ev)
    assert (played.round, played.stage, played.deadline_at, played.finished_at) == (
        1,
        "swiss",
        500.0,
        1_800_000_000.0,
    )
    config = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=2, table_size=2)
    result = GameResult(
        game_id=str(game), round=1, table=1, board="usa", seats=(SeatResult(A, 1, 90), SeatResult(B, 2, 80))
    )
    book = rate_event_game(RatingBook(), config, result)
    await t.add_result(ev, result, game, rated=RatingWrite(SPACE, {str(game): ev}, book.history))
    corrected = GameResult(
        game_id=str(game),
        round=1,
        table=1,
        board="usa",
        seats=(SeatResult(B, 1, 95), SeatResult(A, 2, 90)),
        correction_reason="miscount",
    )
    await t.add_result(ev, corrected, game, corrected_by=C)
    history = await t.result_history(ev)
    assert [(r.correction_reason, r.corrected_by) for r in history] == [(None, None), ("miscount", C)]
    assert await t.results(ev) == [corrected]
    assert await t.rated_games(SPACE) == [(ev, game)]
    stored = await t.rating_book(SPACE)
    assert stored.history == book.history and stored.rated_games == book.rated_games
    await t.reopen_table(ev, 1, 1, {"replays": [{"game_id": game}]})
    reopened = (await t.tables(ev, 1))[0]
    assert reopened.game_id is None and not reopened.adjudicated
    event = await t.event(ev)
    assert event is not None and event.settings == {"replays": [{"game_id": game}]}


async def test_a_rating_write_that_replaces_rebuilds_the_spaces_history(store: Store) -> None:
    t = store.tournaments
    ev = await _event(store)
    config = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=2, table_size=2)
    first = GameResult(
        game_id="11", round=1, table=1, board="usa", seats=(SeatResult(A, 1, 9), SeatResult(B, 2, 8))
    )
    book = rate_event_game(RatingBook(), config, first)
    await t.add_result(ev, first, 11, rated=RatingWrite(SPACE, {"11": ev}, book.history))
    swapped = GameResult(
        game_id="11", round=1, table=1, board="usa", seats=(SeatResult(B, 1, 9), SeatResult(A, 2, 8))
    )
    rebuilt = rate_event_game(RatingBook(), config, swapped)
    await t.add_result(
        ev, swapped, 11, corrected_by=C, rated=RatingWrite(SPACE, {"11": ev}, rebuilt.history, replace=True)
    )
    assert (await t.rating_book(SPACE)).history == rebuilt.history


async def test_only_players_who_chose_to_be_shared_are_shared(store: Store) -> None:
    t = store.tournaments
    ev = await _event(store)
    config = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=2, table_size=2)
    result = GameResult(
        game_id="5", round=1, table=1, board="usa", seats=(SeatResult(A, 1, 9), SeatResult(B, 2, 8))
    )
    await t.add_result(
        ev,
        result,
        5,
        rated=RatingWrite(SPACE, {"5": ev}, rate_event_game(RatingBook(), config, result).history),
    )
    assert not await t.sharing(A) and await t.shared_players() == frozenset() and await t.shared_books() == {}
    await t.set_sharing(A, True)
    await t.set_sharing(C, True)
    await t.set_sharing(C, False)
    assert await t.sharing(A) and not await t.sharing(C)
    assert await t.shared_players() == {A}
    assert list(await t.shared_books()) == [SPACE]


# ---- the Discord adapter's tables ------------------------------------------------------------


async def test_a_games_route_and_the_games_of_a_channel(store: Store) -> None:
    d = store.discord
    lobby, active, over, aborted = (
        await _game(store),
        await _started(store),
        await _started(store),
        await _started(store),
    )
    await store.update_game(over, status=OVER)
    await store.update_game(aborted, status="aborted")
    assert await d.route(lobby) is None
    await d.set_thread(lobby, 7)  # no route yet: nothing to change
    assert await d.route(lobby) is None
    await d.set_route(lobby, 1, 100)
    await d.set_route(active, 1, 100, 200)
    await d.set_route(over, 1, 100)
    await d.set_route(aborted, 1, 100)
    await d.set_thread(active, 201)
    assert await d.route(active) == (1, 100, 201)
    await d.set_route(lobby, 1, 100, 300)  # a new route replaces the old
    assert await d.route(lobby) == (1, 100, 300)
    assert await d.games_in_channel(201) == [active]
    assert await d.games_in_channel(100) == [active, lobby, over]  # running first, newest first


async def test_posted_messages_the_newest_of_a_kind(store: Store) -> None:
    d = store.discord
    gid = await _started(store)
    assert await d.latest_message(gid) is None
    await d.record_message(gid, 1, 10, 1001)
    await d.record_message(gid, 3, 10, 1003)
    await d.record_message(gid, 2, 10, 1002, kind="summary")
    assert await d.latest_message(gid) == (3, 10, 1003)
    await d.record_message(gid, 5, 11, 1001)  # the same message again: its record is replaced
    assert await d.latest_message(gid) == (5, 11, 1001)
    assert await d.latest_message(gid, "summary") == (2, 10, 1002)


async def test_dm_hands_are_opt_in_per_player_and_one_message_per_game(store: Store) -> None:
    d = store.discord
    one, two = await _started(store), await _started(store)
    assert not await d.dm_enabled(A)
    await d.set_dm_enabled(A, True)
    await d.set_dm_enabled(B, True)
    await d.set_dm_enabled(B, False)
    assert await d.dm_enabled(A) and not await d.dm_enabled(B)
    await d.remember_dm(one, A, 50, 500)
    await d.remember_dm(two, A, 50, 501)
    await d.remember_dm(one, A, 51, 502)  # the message of a game is replaced
    assert await d.dm_message(one, A) == (51, 502) and await d.dm_message(one, B) is None
    assert sorted(await d.dm_games(A)) == [one, two]
    await d.forget_dm(one, A)
    assert await d.dm_message(one, A) is None and await d.dm_games(A) == [two]


async def test_guild_settings_are_per_server_and_independent(store: Store) -> None:
    d = store.discord
    assert await d.manager_role(1) is None and await d.guild_language(1) is None
    await d.set_manager_role(1, 11)
    await d.set_guild_language(1, "de")
    await d.set_guild_language(2, "it")
    await d.set_manager_role(1, None)
    assert (await d.manager_role(1), await d.guild_language(1)) == (None, "de")
    assert (await d.manager_role(2), await d.guild_language(2)) == (None, "it")


async def test_an_events_discord_route(store: Store) -> None:
    d = store.discord
    ev = await _event(store)
    assert await d.event_route(ev) == (None, None, None)
    await d.set_event_route(ev, 1, 2, None)
    await d.set_event_route(ev, 1, 2, 3)
    assert await d.event_route(ev) == (1, 2, 3)


# ---- the web pages' tables (WebTables) ----------------------------------------------------------
async def test_a_public_id_is_kept_once_given_and_names_what_it_was_given_to(
    handle: Handle, store: Store
) -> None:
    w = store.web
    assert await w.existing_public_id("game", "1") is None
    assert await w.public_id("game", "1", "first-candidate") == "first-candidate"
    # a second call keeps the first id: an address once shared stays valid
    assert await w.public_id("game", "1", "second-candidate") == "first-candidate"
    assert await w.public_id("event", "1", "ev-candidate") == "ev-candidate"
    store = await handle.reopen()
    w = store.web
    found = await w.public_ref("first-candidate")
    assert found is not None and (found.kind, found.ref, found.unlisted) == ("game", "1", False)
    assert await w.public_ref("second-candidate") is None
    assert [r.public_id for r in await w.public_refs("game")] == ["first-candidate"]


async def test_unlisted_and_forgotten_public_ids(store: Store) -> None:
    w = store.web
    await w.public_id("game", "7", "g7")
    await w.set_unlisted("game", "7", True)
    found = await w.public_ref("g7")
    assert found is not None and found.unlisted
    await w.public_id("player", "discord:1", "p1")
    await w.forget_public("player", "discord:1")
    assert await w.public_ref("p1") is None and await w.existing_public_id("player", "discord:1") is None


async def test_pages_are_switched_off_per_space(store: Store) -> None:
    w = store.web
    assert not await w.pages_off(SPACE)
    await w.set_pages_off(SPACE, True)
    assert await w.pages_off(SPACE) and not await w.pages_off("discord:guild:10")
    await w.set_pages_off(SPACE, False)
    assert not await w.pages_off(SPACE)
