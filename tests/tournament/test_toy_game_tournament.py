"""A toy game runs a tournament with no edit of the core: two-player Nim (``tests/e2e/toy_nim.py``,
its rules, registry entry and front-end parts), registered at run time, is offered for an event,
seated, played out, and ends with standings and ratings like any built-in game."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bot.service import GameService
from bot.store.sqlite import SqliteStore
from bot.tournament.runner import TournamentService
from bot.tournament.store import FINISHED
from rules.games import GAMES

ROOT = Path(__file__).resolve().parents[2]


def _toy_nim() -> ModuleType:
    """tests/e2e/toy_nim.py, the suite's one toy game."""
    spec = importlib.util.spec_from_file_location("toy_nim", ROOT / "tests" / "e2e" / "toy_nim.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


toy_nim = _toy_nim()


@pytest.fixture
def nim() -> Iterator[None]:
    with toy_nim.registered():
        yield
    assert toy_nim.NAME not in GAMES


async def test_the_toy_game_runs_a_tournament(nim: None, tmp_path: Path) -> None:
    """An event of the toy game: tables seated, games played out, standings and ratings kept."""
    storage = await SqliteStore(tmp_path / "t.db").open()
    service = GameService(storage, rng=random.Random(3))
    runner = TournamentService(service)
    service.stream.subscribe(runner)
    space, organiser = "discord:guild:1", "discord:100"
    players = [f"discord:{i}" for i in range(1, 5)]
    try:
        event = await runner.create_event(
            space=space, creator=organiser, name="Nim Cup", game_name="nim", table_size=2, rounds=2
        )
        assert event.config.boards == ("nim",)
        for p in players:
            await runner.join(event.id, space, p, p)
        await runner.start(event.id, space, organiser)
        for _round in range(2):
            current = await runner.store.event(event.id)
            assert current is not None
            for table in await runner.store.tables(event.id, current.round):
                assert table.game_id is not None
                ai = toy_nim.TakeTwoAI(0)
                while (loaded := await service.load(table.game_id)).row.status == "active":
                    assert loaded.game is not None
                    seat = loaded.game.seats_to_act()[0]
                    player = loaded.row.seats[seat].player
                    assert player is not None
                    await service.act(table.game_id, player, ai.choose(loaded.game, seat), where=space)
            await service.stream.drain()
        finished = await runner.store.event(event.id)
        assert finished is not None and finished.status == FINISHED
        rows = await runner.standings(event.id, space)
        assert sorted(r.player for r in rows) == sorted(players) and all(r.games == 2 for r in rows)
        book = await runner.store.rating_book(space)
        assert book.rating(players[0], "nim").games == 2
    finally:
        await service.stream.drain()
        await storage.close()
