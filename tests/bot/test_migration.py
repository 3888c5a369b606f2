"""A database written by the release before the front-end neutral core opens and plays on.

``fixtures/schema1.db`` was made by main at c26a4c5 (schema version 1, Discord integer ids in the
core tables) with the script beside it: a lobby, a Europe game 45 moves in (two people and an AI,
with a thread and a posted board), a First Class game 6 moves in on another server, and a
finished Switzerland game.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.discord_app.store import DiscordStore, Route
from bot.service import GameService
from bot.store.migrations import SQLITE, legacy
from bot.store.rows import ACTIVE, LOBBY, OVER
from bot.store.sqlite import SqliteStore
from bot.store.sqlite_migrate import SCHEMA_VERSION
from rules.games import find_game

FIXTURE = Path(__file__).parent / "fixtures" / "schema1.db"


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    return str(path)


async def test_schema1_database_migrates_and_every_game_stays_playable(old_db: str) -> None:
    async with SqliteStore(old_db) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        service = GameService(st)
        ok, broken = await service.resume_all()
        assert broken == [] and set(ok) == {1, 2, 3}
        # players became references; the Discord routing moved to the adapter's table
        lobby = await service.game_row(1)
        assert lobby.status == LOBBY and [s.player for s in lobby.seats] == ["discord:101", "discord:102"]
        assert lobby.space == "discord:guild:5001" and lobby.creator == "discord:101"
        store = DiscordStore(st)
        assert await store.route(2) == Route(5001, 6001, 7001)
        assert await store.games_in_channel(7001) == [2]
        assert (await store.latest_message(2)) is not None
        # the Europe game goes on from where it was, for its own players, from its own server
        europe = await service.game_row(2)
        assert europe.status == ACTIVE and europe.seq == 45
        loaded = await service.load(2)
        assert loaded.game is not None
        seat = loaded.game.seats_to_act()[0]
        player = europe.seats[seat].player
        assert player is not None
        action = (await service.legal_actions(2, player))[0]
        out = await service.act(2, player, action, where="discord:guild:5001")
        assert out.seq > 45
        # the First Class game too, and the finished game still replays from its log
        fc = await service.load(3)
        assert fc.game is not None and fc.row.game_name == "first-class"
        fc_seat = fc.game.seats_to_act()[0]
        fc_player = fc.row.seats[fc_seat].player
        assert fc_player is not None
        out = await service.act(
            3, fc_player, (await service.legal_actions(3, fc_player))[0], where="discord:guild:5002"
        )
        assert out.seq > 6
        export = await st.export_game(4)
        assert export["status"] == OVER
        spec = find_game(export["game"])
        replay = spec.new(export["config"], export["players"], export["seed"])
        for seat_no, text in export["actions"]:
            replay.apply(seat_no, spec.parse_action(text))
        assert replay.to_json() == (await st.get_game(4)).snapshot


async def test_migration_numbers_old_games_per_server_in_creation_order(old_db: str) -> None:
    """Schema 8: games of the old database get numbers counted per server, oldest first, and new
    games continue each server's count."""
    async with SqliteStore(old_db) as st:
        numbers = {
            gid: ((await st.get_game(gid)).space, (await st.get_game(gid)).number) for gid in (1, 2, 3, 4)
        }
        assert numbers == {
            1: ("discord:guild:5001", 1),
            2: ("discord:guild:5001", 2),
            3: ("discord:guild:5002", 1),
            4: ("discord:guild:5002", 2),
        }
        service = GameService(st)
        assert await service.game_numbered(2, None, "discord:guild:5002") == 4
        fresh = await service.create_game(
            game_name="ttr", creator="discord:101", creator_name="a", space="discord:guild:5001"
        )
        assert fresh.number == 3
        elsewhere = await service.create_game(
            game_name="ttr", creator="discord:101", creator_name="a", space="discord:guild:9"
        )
        assert elsewhere.number == 1


# ---- the owners' own migration lists (the storage port) ----------------------------------------

SCHEMA10 = Path(__file__).parent / "fixtures" / "schema10.db"
BOOKKEEPING = {"schema_version", "schema_owners", "sqlite_sequence"}


def _rows(path: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but the migrations' own records, in a stable order."""
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {
            t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
            for t in tables
            if t not in BOOKKEEPING
        }


def _schema(path: str) -> dict[str, object]:
    """Each table's columns, keys and indexes as SQLite reports them (not the text that made them)."""
    with sqlite3.connect(path) as conn:
        tables = sorted(
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if r[0] not in BOOKKEEPING
        )
        shape: dict[str, object] = {}
        for t in tables:
            indexes = sorted(
                (
                    name,
                    unique,
                    origin,
                    tuple(conn.execute(f"PRAGMA index_xinfo('{name}')").fetchall()),
                )
                for _, name, unique, origin, _partial in conn.execute(f"PRAGMA index_list('{t}')").fetchall()
            )
            shape[t] = (
                conn.execute(f"PRAGMA table_info('{t}')").fetchall(),
                sorted(conn.execute(f"PRAGMA foreign_key_list('{t}')").fetchall()),
                indexes,
            )
        return shape


@pytest.fixture
def schema10_db(tmp_path: Path) -> str:
    path = tmp_path / "schema10.db"
    shutil.copy(SCHEMA10, path)
    return str(path)


async def test_a_database_written_before_the_port_opens_with_every_row_kept(schema10_db: str) -> None:
    """``fixtures/schema10.db`` (main at b608f32, the last global list; a row in every table of
    every owner) opens under the owners' lists: nothing rewritten, every row kept, every game
    resumes, and each owner continues from its first entry."""
    before = _rows(schema10_db)
    assert all(before.values()), [t for t, rows in before.items() if not rows]
    async with SqliteStore(schema10_db) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        assert await st.schema_versions() == {owner: len(steps) for owner, steps in SQLITE.items()}
    after = _rows(schema10_db)
    # later steps only add columns (at the end of each row): every value the fixture had is kept
    assert {
        t: [row[: len(old[0])] for row in after[t]] if old else after[t] for t, old in before.items()
    } == before
    # an owner added since the global list (the web pages') starts from 0, and the core's later
    # steps add tables (planned turns): empty
    assert {t: rows for t, rows in after.items() if t not in before} == {
        "web_public": [],
        "web_spaces": [],
        "plans": [],
        "outbox": [],  # the outcome stream's outbox (core 3): moves committed from now on
    }
    async with SqliteStore(schema10_db) as st:  # and it plays on (resuming re-arms the timers)
        ok, broken = await GameService(st).resume_all()
        assert broken == [] and set(ok) == {1, 2, 3}
        assert await DiscordStore(st).route(2) == Route(5001, 6001, 7001)
        assert await st.tournaments.sharing("discord:101")


async def test_a_new_database_has_exactly_the_schema_an_upgraded_one_has(
    tmp_path: Path, old_db: str, schema10_db: str
) -> None:
    """The owners' first entries make the tables the global list made, column for column, key
    for key, index for index: a new file and an upgraded one (from version 1 or 10) are the same
    database."""
    fresh = str(tmp_path / "fresh.db")
    for path in (fresh, old_db, schema10_db):
        async with SqliteStore(path):
            pass
    assert _schema(fresh) == _schema(old_db) == _schema(schema10_db)


async def test_a_release_from_before_the_port_refuses_a_database_the_port_wrote(db_path: str) -> None:
    """The global list's last version was 10; the port marks its databases 11, so an older
    Conductor says "newer schema" instead of running its migration 1 on them."""
    async with SqliteStore(db_path) as st:
        assert await st.schema_version() == SCHEMA_VERSION > legacy.LAST


async def test_events_are_numbered_per_server_in_creation_order_by_the_migration(schema10_db: str) -> None:
    """Issue 32 (finding 9): event numbers were the database's, so a second server's first event
    was announced as "#4". The tournament owner's step 2 numbers existing events within their
    server in the order they were created, and new events continue each server's count."""
    with sqlite3.connect(schema10_db) as conn:
        (first,) = conn.execute("SELECT * FROM tournament_events").fetchall()
        for space, name in (
            ("discord:guild:7", "B1"),
            ("discord:guild:5001", "A2"),
            ("discord:guild:7", "B2"),
        ):
            conn.execute(
                "INSERT INTO tournament_events (space, name, creator, game_name, config, settings, seed,"
                " status, round, created_at, updated_at) SELECT ?, ?, creator, game_name, config, settings,"
                " seed, status, round, created_at, updated_at FROM tournament_events WHERE id=1",
                (space, name),
            )
    conn.close()
    async with SqliteStore(schema10_db) as st:
        numbers = {e.name: (e.space, e.number) for e in await st.tournaments.events()}
        assert numbers == {
            "Cup": ("discord:guild:5001", 1),
            "B1": ("discord:guild:7", 1),
            "A2": ("discord:guild:5001", 2),
            "B2": ("discord:guild:7", 2),
        }
        event = (await st.tournaments.events("discord:guild:7"))[0]
        new_id = await st.tournaments.create_event(
            space="discord:guild:7",
            creator="discord:1",
            game_name="ttr",
            config=event.config,
            settings={},
            seed=1,
        )
        created = await st.tournaments.event(new_id)
        assert created is not None and created.number == 3
        assert await st.tournaments.event_numbered("discord:guild:7", 3) == new_id
        assert await st.tournaments.event_numbered("discord:guild:5001", 3) is None
    assert first[0] == 1
