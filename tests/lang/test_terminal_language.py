"""``conductor play`` speaks the language asked for (``--lang``), else the environment's locale."""

from __future__ import annotations

import pytest

from bot.cli import main

GAME = ["play", "--map", "switzerland", "--players", "2", "--seat", "ai", "--seed", "3"]


def test_lang_option_sets_the_terminals_language(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")  # the option wins over the environment
    assert main([*GAME, "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert "La partita n. 1 è cominciata." in out
    assert "Punteggi finali" in out and "Destinazioni completate" in out
    assert "Final scores" not in out and "Endwertung" not in out


def test_the_environments_locale_is_the_default(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main([*GAME, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Scores finaux" in out and "Billets réussis" in out


def test_an_unknown_environment_locale_is_english(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "C")
    assert main([*GAME, "--quiet"]) == 0
    assert "Final scores" in capsys.readouterr().out
