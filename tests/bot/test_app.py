"""The application object: the one composition root, its lifecycle, and front ends that only
subscribe (the outcome stream, the scheduler's reminders and ticks)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from bot_helpers import FakeClock

from bot.app import App, AppSettings
from bot.store.rows import StorageError
from bot.stream import Outcome

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = "terminal:alice", "terminal:bob"


async def test_open_assembles_the_core_and_closes_it_in_order(tmp_path: Path) -> None:
    """``App.open`` opens (and migrates) the store; the service, tournaments and the games are
    ready; after the block every committed outcome was delivered and the store is closed."""
    delivered: list[Outcome] = []

    class Follower:
        async def deliver(self, outcome: Outcome) -> None:
            delivered.append(outcome)

    async with App.open(AppSettings(str(tmp_path / "a.db"))) as app:
        assert {spec.name for spec in app.games} >= {"ttr", "first-class"}
        assert app.tournaments.service is app.service and app.scheduler.service is app.service
        app.service.stream.subscribe(Follower())
        row = await app.service.create_game(
            game_name="ttr",
            config={"board": "usa"},
            creator=ALICE,
            creator_name="alice",
            seat_order="join",
            seed=3,
        )
        await app.service.join(row.id, BOB, "bob")
        await app.service.start(row.id, ALICE)
        storage = app.storage
    assert delivered and delivered[-1].status == "active", "close delivers what was committed"
    with pytest.raises(StorageError):
        _ = storage.db  # closed


async def test_a_database_that_cannot_open_raises_and_closes_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StorageError):
        async with App.open(AppSettings(str(blocker / "x.db"))):
            pass


async def test_reminders_reach_front_ends_by_subscription(tmp_path: Path) -> None:
    """The scheduler knows no front end: a reminder reaches whoever subscribed, and nobody after
    they unsubscribed."""
    clock = FakeClock()
    reminded: list[tuple[int, list[str]]] = []

    async def remind(game_id: int, players: list[str], deadline: float | None) -> None:
        reminded.append((game_id, players))

    async with App.open(AppSettings(str(tmp_path / "r.db"), clock=clock)) as app:
        unsubscribe = app.scheduler.subscribe_reminders(remind)
        ticks: list[int] = []

        async def after_tick() -> None:
            ticks.append(1)

        app.scheduler.subscribe_ticks(after_tick)
        row = await app.service.create_game(
            game_name="ttr",
            config={"board": "usa"},
            creator=ALICE,
            creator_name="alice",
            seat_order="join",
            seed=3,
            turn_hours=1,
            reminder_hours=0.5,
        )
        await app.service.join(row.id, BOB, "bob")
        await app.service.start(row.id, ALICE)
        clock.advance(1900)
        await app.scheduler.tick()
        assert [gid for gid, _players in reminded] == [row.id] and ticks == [1]
        unsubscribe()
        clock.advance(10_000)
        await app.scheduler.tick()
        assert len(reminded) == 1


def _constructions(path: Path) -> set[str]:
    """The core classes a module constructs (calls by name)."""
    core = {
        "SqliteStore",
        "PgStore",
        "make_store",
        "GameService",
        "Workers",
        "Scheduler",
        "TournamentService",
        "OutcomeStream",
    }
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in core:
            found.add(node.func.id)
    return found


def test_the_app_is_the_only_composition_root() -> None:
    """No front end (the Discord adapter, the terminal commands) builds a part of the core: each is
    handed an App. (The service builds its own default stream, the storage module itself.)"""
    builders = {
        str(path.relative_to(ROOT)): found
        for folder in ("bot/discord_app", "bot/commands")
        for path in sorted((ROOT / folder).glob("*.py"))
        if (found := _constructions(path))
    }
    assert builders == {}
    assert _constructions(ROOT / "bot/app.py") == {
        "make_store",
        "GameService",
        "Workers",
        "Scheduler",
        "TournamentService",
    }
