"""``conductor migrate``: a SQLite database copied into PostgreSQL, then checked as
``conductor doctor`` checks (Done when 9 of the PostgreSQL issue): every board and First Class,
finished and running games, a lobby, an event and Discord routes; 0 replay mismatches."""

from __future__ import annotations

import asyncio
from itertools import count
from pathlib import Path

import pytest
from record_helpers import record_game

from bot.cli import main
from bot.store.pg import PgStore
from bot.store.pg_cluster import shared_cluster
from bot.store.sqlite import SqliteStore
from bot.tournament.model import EventConfig

_numbers = count()


async def _fill(db: Path) -> list[int]:
    async with SqliteStore(db) as storage:
        games = [
            await record_game(storage, "ttr", {"board": "usa"}, 2, seed=1),
            await record_game(storage, "ttr", {"board": "europe"}, 3, seed=2),
            await record_game(storage, "ttr", {"board": "switzerland"}, 3, seed=3, moves=40),
            await record_game(storage, "ttr", {"board": "germany"}, 4, seed=4, moves=40),
            await record_game(storage, "first-class", {}, 2, seed=5),
            await record_game(storage, "first-class", {}, 3, seed=6, moves=25),
            await storage.create_game(
                game_name="ttr",
                config={"board": "usa"},
                seed=7,
                max_players=5,
                space="discord:guild:1",
                creator="p",
            ),
        ]
        await storage.discord.set_route(games[0], 1, 2, 3)
        await storage.set_schedule(games[2], {"timeout": (5.0, 40)})
        await storage.tournaments.create_event(
            space="discord:guild:1",
            creator="p",
            game_name="ttr",
            config=EventConfig(family="ttr", boards=("usa",), name="Cup"),
            settings={},
            seed=1,
        )
    return games


def test_a_sqlite_database_migrates_into_postgresql_and_every_game_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "conductor.db"
    games = asyncio.run(_fill(db))
    url = shared_cluster().create_database(f"migrate_{next(_numbers)}")
    assert main(["migrate", "--from", str(db), "--to", url]) == 0
    out = capsys.readouterr().out
    assert "games: 7 rows copied" in out and "tournament_events: 1 row copied" in out
    assert "differs" not in out and out.strip().endswith("7 game(s) checked: all sound.")
    assert main(["doctor", "--db", url]) == 0
    assert capsys.readouterr().out.strip().endswith("7 game(s) checked: all sound.")

    async def read_back() -> None:
        async with SqliteStore(db) as before, PgStore(url) as after:
            for gid in games:
                assert await after.get_game(gid) == await before.get_game(gid)
                assert await after.actions(gid) == await before.actions(gid)
            assert await after.discord.route(games[0]) == (1, 2, 3)
            assert await after.schedule_of(games[2]) == {"timeout": (5.0, 40)}
            assert [e.name for e in await after.tournaments.events()] == ["Cup"]
            new = await after.create_game(
                game_name="ttr", config={}, seed=1, max_players=2, space="discord:guild:1", creator="p"
            )
            assert new == max(games) + 1 and (await after.get_game(new)).number == 2

    asyncio.run(read_back())
    # A second copy into the same database is refused: nothing is copied twice.
    assert main(["migrate", "--from", str(db), "--to", url]) == 1
    assert "already holds games" in capsys.readouterr().err


def test_migrate_refuses_what_is_not_a_sqlite_file_or_a_postgresql_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--from", str(tmp_path / "none.db"), "--to", "postgresql://x@/y"]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    db = tmp_path / "c.db"
    asyncio.run(_empty(db))
    assert main(["migrate", "--from", str(db), "--to", str(tmp_path / "other.db")]) == 1
    assert "must be a postgresql:// address" in capsys.readouterr().err


async def _empty(db: Path) -> None:
    async with SqliteStore(db):
        pass
