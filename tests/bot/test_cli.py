"""The ``conductor`` subcommands owned by the bot: play (non-interactive), run, backup, export."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.export import replay_export
from bot.commands.run import load_env


def test_play_all_ai_non_interactive(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a TTY
    db = tmp_path / "play.db"
    assert main(["play", "--map", "europe", "--players", "3", "--seed", "5", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Final scores" in out and out.count("\n1. ") == 1
    assert "Log (last 20 actions)" in out
    # the same game was stored and exports to an exact replay
    assert main(["export", "1", "--db", str(db), "--out", str(tmp_path / "g.json")]) == 0
    data = json.loads((tmp_path / "g.json").read_text())
    game = replay_export(data)
    assert game.is_over()
    assert main(["backup", str(tmp_path / "copy.db"), "--db", str(db)]) == 0
    assert (tmp_path / "copy.db").stat().st_size > 0


@pytest.mark.parametrize("board", ["usa", "switzerland", "germany"])
def test_play_every_board_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], board: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    players = 3 if board != "germany" else 4
    assert (
        main(["play", "--map", board, "--players", str(players), "--seat", "ai", "--seed", "1", "--quiet"])
        == 0
    )
    assert "Final scores" in capsys.readouterr().out


def test_play_human_seat_reads_actions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("bogus\nclaim EU999 red=1\nquit\n"))
    assert main(["play", "--map", "europe", "--players", "2", "--seat", "human", "--seed", "5"]) == 1
    out = capsys.readouterr().out
    assert "Your cards:" in out and "Tickets offered" in out
    assert "✗ Could not read 'bogus'" in out


def test_play_bad_map_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--map", "narnia"]) == 2
    assert "narnia" in capsys.readouterr().err


def test_run_without_token_explains(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run", "--env-file", str(tmp_path / "missing.env")]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "discord.com/developers" in err


def test_load_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("# comment\nCONDUCTOR_TEST_A=1\nexport CONDUCTOR_TEST_B='two'\nCONDUCTOR_TEST_C=env\n")
    monkeypatch.setenv("CONDUCTOR_TEST_C", "already")
    monkeypatch.delenv("CONDUCTOR_TEST_A", raising=False)
    monkeypatch.delenv("CONDUCTOR_TEST_B", raising=False)
    load_env(env)
    import os

    assert os.environ["CONDUCTOR_TEST_A"] == "1" and os.environ["CONDUCTOR_TEST_B"] == "two"
    assert os.environ["CONDUCTOR_TEST_C"] == "already"


def test_play_writes_board_images(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("render.ttr")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    out = tmp_path / "boards"
    assert (
        main(["play", "--map", "switzerland", "--players", "2", "--seed", "2", "--quiet", "--out", str(out)])
        == 0
    )
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) > 10 and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs[:3])
    assert "board image(s) written" in capsys.readouterr().out


def test_replay_refuses_an_export_that_names_no_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An export names its game; one that does not is refused by name, never read as Ticket to Ride
    by default (issue 28: no default game in generic code)."""
    export = tmp_path / "old.json"
    export.write_text(json.dumps({"config": {"board": "usa"}, "players": 2, "seed": 1, "actions": []}))
    assert main(["replay", "--from", str(export), "--out", str(tmp_path / "r.gif")]) == 2
    err = capsys.readouterr().err
    assert "There is no game called ''" in err, err
    assert not (tmp_path / "r.gif").exists()
