"""A new game is one package plus its registration, offered everywhere with no other edit: a toy
game written here (:mod:`toy_nim`: two-player Nim, with its rules, registry entry, words and a
Discord UI of its own) is registered at run time and played to the end in the terminal, on Discord
(created with /ttr new, played with its own buttons) and in a tournament."""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import toy_nim
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.cli import main
from bot.service import GameService
from bot.storage import Storage
from bot.tournament.runner import TournamentService
from bot.tournament.store import FINISHED
from rules.games import GAMES


@pytest.fixture
def nim() -> Iterator[None]:
    with toy_nim.registered():
        yield
    assert toy_nim.NAME not in GAMES


def test_the_toy_game_plays_to_the_end_in_the_terminal(
    nim: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``conductor play --game nim``: the board in the game's own words, moves typed, final scores."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("take 1\n" * 8))
    code = main(
        ["play", "--game", "nim", "--players", "2", "--seat", "human", "--seed", "4", "--name", "Ada"]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "Nim · 7 stones left" in out  # the toy's words, not the generic text
    assert "Final scores" in out


async def test_the_toy_game_is_offered_and_played_on_discord(
    nim: None, fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """/ttr new offers the toy game; its own buttons (answered through the generic items) play it."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    new = next(c for c in bot.tree.get_commands() if c.name == "ttr").get_command("new")  # type: ignore[union-attr]
    assert new is not None and "nim" in [c.value for c in new.get_parameter("game").choices]  # type: ignore[union-attr]
    table = Table(fake, bot)
    await table.create(fake.alice, game="nim", seat_order="join")
    assert table.thread.name.startswith("Nim")
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    assert "Take one or two stones with the buttons" in "\n".join(
        m.text() for m in fake.messages_in(table.thread)
    )
    for _ in range(10):
        if not await table.to_act():
            break
        seq = await table.seq()
        board = table.latest_board()
        assert board is not None and "stones left" in board.text()
        reply = await table.click(fake.alice, f"c:{table.gid}:{seq}:nim:1", board)
        assert reply.text().startswith("✓"), reply.text()
    assert (await bot.service.game_row(table.gid)).status == "over"
    public = [m.text() for m in fake.messages_in(table.thread, ephemeral=False)]
    assert any("takes 1 stones." in t for t in public) and any("Final scores" in t for t in public)


async def test_the_toy_game_runs_a_tournament(nim: None, tmp_path: Path) -> None:
    """An event of the toy game: tables seated, games played out, standings and ratings kept."""
    storage = await Storage(tmp_path / "t.db").open()
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
