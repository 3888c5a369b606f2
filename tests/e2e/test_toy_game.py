"""A new game is one package plus its registration, offered everywhere with no other edit: a toy
game written here (:mod:`toy_nim`: two-player Nim, with its rules, registry entry, words and a
Discord UI of its own) is registered at run time and played to the end in the terminal and on
Discord (created with /ttr new, played with its own buttons); ``tests/tournament/test_toy_game_tournament.py``
runs it in a tournament."""

from __future__ import annotations

import importlib.util
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import toy_nim
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.cli import main
from rules.games import GAMES


@pytest.fixture
def nim() -> Iterator[None]:
    with toy_nim.registered():
        yield
    assert toy_nim.NAME not in GAMES


def _conformance() -> ModuleType:
    """tests/rules/test_conformance.py, the checks every registered game passes."""
    path = Path(__file__).resolve().parents[1] / "rules" / "test_conformance.py"
    spec = importlib.util.spec_from_file_location("toy_conformance", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_toy_game_passes_the_conformance_checks(nim: None) -> None:
    """The same protocol checks as every built-in game: round trips, replay, secrecy, the end."""
    conformance = _conformance()
    conformance.test_every_registered_game_keeps_the_protocol(toy_nim.SPEC, {}, 2)
    conformance.test_every_registered_game_refuses_garbage_with_illegal_action(toy_nim.SPEC)


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


def test_the_toy_game_is_simulated_in_the_terminal(nim: None, capsys: pytest.CaptureFixture[str]) -> None:
    """``conductor simulate --game nim`` offers the registered toy game and plays AI against AI."""
    assert main(["simulate", "--game", "nim", "--players", "2", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "Nim: 3 games, 2 players" in out and "first-seat win rate" in out


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
