"""SqliteStore: migrations, WAL, seq-checked commits, restart resume, corrupted rows, backup, export."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from bot_helpers import ALICE, BOB, FakeClock, two_humans

from bot.commands.export import replay_export
from bot.service import GameService, ServiceError
from bot.store.rows import ACTIVE, BROKEN, OVER, SeqConflict, StorageError
from bot.store.sqlite import SqliteStore, backup_file
from bot.store.sqlite_migrate import SCHEMA_VERSION


async def test_migrations_applied_once_and_recorded(db_path: str) -> None:
    async with SqliteStore(db_path) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        async with st.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
    async with SqliteStore(db_path) as st:  # reopening does not re-run anything
        async with st.db.execute("SELECT COUNT(*) FROM schema_version") as cur:
            assert (await cur.fetchone())[0] == SCHEMA_VERSION
        tables = {
            r[0]
            for r in await (
                await st.db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ).fetchall()
        }
        assert {
            "games",
            "seats",
            "actions",
            "discord_messages",
            "discord_routes",
            "schedule",
            "meta",
            "schema_version",
        } <= tables


async def test_newer_schema_is_refused(db_path: str) -> None:
    async with SqliteStore(db_path) as st:
        await st.db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 5,))
    with pytest.raises(StorageError, match="newer"):
        await SqliteStore(db_path).open()


async def test_commit_action_seq_conflict_applies_at_most_one(storage: SqliteStore) -> None:
    gid = await storage.create_game(
        game_name="ttr", config={"board": "usa"}, seed=1, max_players=5, space=None, creator=ALICE
    )
    await storage.start_game(gid, [], {"x": 0}, 0.0)
    assert await storage.commit_action(gid, 0, 0, ALICE, "draw deck", {"kind": "draw_deck"}, {"x": 1}) == 1
    with pytest.raises(SeqConflict):
        await storage.commit_action(gid, 0, 1, BOB, "draw deck", {"kind": "draw_deck"}, {"x": 2})
    row = await storage.get_game(gid)
    assert row.seq == 1 and row.snapshot == {"x": 1}
    assert [a.seq for a in await storage.actions(gid)] == [1]


async def test_two_services_on_one_database_conflict_cleanly(storage: SqliteStore, clock: FakeClock) -> None:
    """Two front ends with stale caches: the database seq check rejects the second action."""
    a = GameService(storage, clock=clock)
    gid = await two_humans(a)
    # setup phase: both must keep tickets; alice keeps through service a
    b = GameService(storage, clock=clock)
    await b.load(gid)  # b caches the same seq
    legal = await a.legal_actions(gid, ALICE)
    await a.act(gid, ALICE, legal[0])
    with pytest.raises(ServiceError) as err:
        await b.act(gid, BOB, (await b.legal_actions(gid, BOB))[0])
    assert err.value.code == "conflict" and "already played" in err.value.message
    # b reloads and can now play
    out = await b.act(gid, BOB, (await b.legal_actions(gid, BOB))[0])
    assert out.seq == 2
    assert len(await storage.actions(gid)) == 2


async def test_restart_resumes_every_game(db_path: str, clock: FakeClock) -> None:
    async with SqliteStore(db_path, clock=clock) as st:
        svc = GameService(st, clock=clock, rng=random.Random(2))
        g1 = await two_humans(svc)
        g2 = await two_humans(svc, board="europe")
        for gid in (g1, g2):
            await svc.act(gid, ALICE, (await svc.legal_actions(gid, ALICE))[0])
        before = {gid: (await svc.load(gid)).game.to_json() for gid in (g1, g2)}
    async with SqliteStore(db_path, clock=clock) as st:
        svc = GameService(st, clock=clock)
        ok, broken = await svc.resume_all()
        assert sorted(ok) == [g1, g2] and broken == []
        for gid in (g1, g2):
            assert (await svc.load(gid)).game.to_json() == before[gid]
            out = await svc.act(gid, BOB, (await svc.legal_actions(gid, BOB))[0])
            assert out.seq == 2


async def test_corrupted_row_is_isolated(storage: SqliteStore, clock: FakeClock) -> None:
    svc = GameService(storage, clock=clock)
    good = await two_humans(svc)
    bad = await two_humans(svc)
    bad2 = await two_humans(svc)
    await storage.db.execute("UPDATE games SET snapshot='{not json' WHERE id=?", (bad,))
    await storage.db.execute(
        "UPDATE games SET snapshot=? WHERE id=?", (json.dumps({"game_name": "nope"}), bad2)
    )
    fresh = GameService(storage, clock=clock)
    ok, broken = await fresh.resume_all()
    assert ok == [good] and sorted(broken) == [bad, bad2]
    assert (await storage.get_game(bad2)).status == BROKEN
    with pytest.raises(ServiceError) as err:
        await fresh.act(bad2, ALICE, "draw deck")
    assert err.value.code == "broken"
    # the good game still plays
    await fresh.act(good, ALICE, (await fresh.legal_actions(good, ALICE))[0])


async def _finished_game(svc: GameService) -> int:
    row = await svc.create_game(
        game_name="ttr",
        config={"board": "europe"},
        creator=ALICE,
        creator_name="alice",
        seed=99,
        turn_hours=None,
    )
    await svc.add_ai(row.id, ALICE)
    await svc.add_ai(row.id, ALICE, "random")
    out = await svc.start(row.id, ALICE)
    from rules.ttr.ai import HeuristicAI

    ai = HeuristicAI(5)
    while not out.over:
        loaded = await svc.load(row.id)
        seat = loaded.row.seat_of(ALICE)
        out = await svc.act(row.id, ALICE, ai.choose(loaded.game, seat), expected_seq=out.seq)
    return row.id


async def test_export_replays_identically(storage: SqliteStore, clock: FakeClock, tmp_path: Path) -> None:
    svc = GameService(storage, clock=clock)
    gid = await _finished_game(svc)
    data = await storage.export_game(gid)
    assert set(data) >= {"game", "config", "players", "seed", "actions"}
    assert data["game"] == "ttr" and data["players"] == 3
    assert all(isinstance(s, int) and isinstance(t, str) for s, t in data["actions"])
    row = await storage.get_game(gid)
    assert row.status == OVER
    replayed = replay_export(json.loads(json.dumps(data)))
    assert replayed.to_json() == row.snapshot
    assert replayed.final_scores() == (await svc.load(gid)).game.final_scores()


async def test_backup_copies_live_database(
    storage: SqliteStore, clock: FakeClock, tmp_path: Path, db_path: str
) -> None:
    svc = GameService(storage, clock=clock)
    gid = await two_humans(svc)
    dest = tmp_path / "backups" / "b.db"
    await storage.backup(dest)
    async with SqliteStore(dest) as copy:
        assert (await copy.get_game(gid)).status == ACTIVE
    dest2 = tmp_path / "b2.db"
    backup_file(db_path, str(dest2))  # the CLI path, while the live connection is open
    with sqlite3.connect(dest2) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
