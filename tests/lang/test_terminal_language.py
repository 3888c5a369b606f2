"""``conductor play`` speaks the language asked for (``--lang``), else the environment's locale."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cli import main

GAME = ["play", "--map", "switzerland", "--players", "2", "--seat", "ai", "--seed", "3"]


def test_lang_option_sets_the_terminals_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")  # the option wins over the environment
    assert main([*GAME, "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert "La partita n. 1 è cominciata." in out
    assert "Punteggi finali" in out and "Destinazioni completate" in out
    assert "Final scores" not in out and "Endwertung" not in out


def test_the_environments_locale_is_the_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main([*GAME, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Scores finaux" in out and "Billets réussis" in out


def test_an_unknown_environment_locale_is_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "C")
    assert main([*GAME, "--quiet"]) == 0
    assert "Final scores" in capsys.readouterr().out


FIRST_CLASS = [
    "play",
    "--game",
    "first-class",
    "--players",
    "2",
    "--seat",
    "human",
    "--seed",
    "3",
    "--name",
    "Ada",
]


def test_first_class_plays_in_italian_in_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``conductor play --game first-class --lang it``: the table, the cards' texts, the board, the
    numbered choices, the help and the engine's lines are Italian; none of their English is left."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nhelp\n37\nquit\n"))
    assert main([*FIRST_CLASS, "--lang", "it"]) == 1  # abandoned by quit
    out = capsys.readouterr().out
    turn = out.split("Ada inizia: comincia il turno 1.", 1)[1]  # the first turn after the draft
    for italian in (
        "Turno 1 di 6, mazzo 1; carte: il mazzo aperto di Conductor",
        "Fila 1: (qui la tessera Primo",
        "X1-03 carrozza: 1 carrozza da 0, poi un miglioramento da 0 a 1",
        "A1-07 contratto: 3 monete sulla plancia -> 1 carta Fine partita",
        "X1-22 percorso: 4 punti | 5 punti",
        "Carte Fine partita disponibili (15 nel mazzo): G",
        "Treno superiore: carrozze [0]; capotreno sulla piastra di partenza",
        "Monete: 1 (colonna 1 carrozza: 1/5",
        "Contratti: nessuno aperto",
        "   1 prendi,  2 rinuncia per 1 miglioramento: fila 1 carta 1 (",
        "First Class nel terminale.",
        "rinunciaci per un miglioramento a scelta",
        "Ada prende la tessera Primo giocatore e inizierà il prossimo turno.",
    ):
        assert italian in turn, italian
    assert "Ada tiene coperta una carta Fine partita." in out
    # the rules in force, printed before the first move, are worded too (not the engine's English)
    header = out.split("Ada inizia", 1)[0]
    assert "First Class, 2-4 giocatori" in header and "Settings in force" not in header
    for english in (
        "Round 1",
        "Row 1",
        "Upper train",
        "0-value",
        "upgrade",
        "take, ",
        "Start Player tile",
        "Game End card",
        "takes",
        "First Class in the terminal",
        "none open",
    ):
        assert english not in turn, english


def test_first_class_card_file_problems_read_in_the_readers_language(tmp_path: Any) -> None:
    """A group's card file with a bad number: the refusal names the file, line, column and value in
    the reader's language (the English keeps the loader's own sentence)."""
    from lang.refusals import refusal_of
    from rules.errors import IllegalAction
    from rules.firstclass.game import FirstClassGame

    deck = tmp_path / "my deck.csv"
    deck.write_text("id,set,pile,kind,effects\nX1-01,X,one,railcar,car(1)\n", encoding="utf-8")
    with pytest.raises(IllegalAction) as caught:
        FirstClassGame.new({"deck": str(deck)}, 2, 1)
    said = refusal_of(caught.value)
    assert said.text("en") == caught.value.message and "must be a whole number" in said.text("en")
    assert said.text("it") == (
        'I file di carte non si possono usare. my deck.csv, riga 2, colonna pile: "one" non è '
        "un numero intero."
    )
    assert "my deck.csv, ligne 2, colonne pile : « one » n'est pas un nombre entier." in said.text("fr")
    assert "my deck.csv, Zeile 2, Spalte pile: „one“ ist keine ganze Zahl." in said.text("de")


def test_every_card_problem_of_a_list_is_worded(tmp_path: Any) -> None:
    """A card list with several problems: each is worded with its own facts (card, count), none
    replaced by a generic sentence."""
    from lang.refusals import refusal_of
    from rules.errors import IllegalAction
    from rules.firstclass.game import FirstClassGame

    ge = tmp_path / "ge.csv"
    ge.write_text(
        "id,type,points,one_time_bonus\nG1,railcar,1,car(1)\nG1,railcar,0,fly(2)\n", encoding="utf-8"
    )
    with pytest.raises(IllegalAction) as caught:
        FirstClassGame.new({"game_end_deck": str(ge)}, 2, 1)
    german = refusal_of(caught.value).text("de")
    for part in (
        "Es gibt 2 Spielende-Karten; das Spiel hat 21.",
        "Spielende-Karte G1: Die id kommt zweimal vor.",
        "Spielende-Karte G1: Die Punkte müssen mindestens 1 sein.",
        "Spielende-Karte G1: Der one_time_bonus „fly(2)“ ist nicht in der Symbolsprache der Karten.",
    ):
        assert part in german, german


def test_a_card_file_of_no_template_is_refused_with_its_facts_in_every_language(tmp_path: Any) -> None:
    """A file whose header matches no card template (told apart when it is attached or given with
    ``--cards``): the refusal keeps the file and its header, worded for each reader, not a generic
    "setting cannot be used"."""
    from bot.commands.rules import file_setting_for
    from lang.refusals import refusal_of
    from rules.errors import IllegalAction
    from rules.games import find_game

    odd = tmp_path / "odd.csv"
    odd.write_text("name,colour\nX,red\n", encoding="utf-8")
    with pytest.raises(IllegalAction) as caught:
        file_setting_for(find_game("first-class"), str(odd))
    said = refusal_of(caught.value)
    for code in ("en", "it", "fr", "de"):
        assert "odd.csv" in said.text(code) and "colour,name" in said.text(code), (code, said.text(code))
    assert said.text("it") != said.text("en") and said.text("de") != said.text("en")


def test_conductor_rules_lists_first_class_settings_in_the_readers_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``conductor rules --game first-class --lang de``: the rules in force and every setting's name
    and meaning are German; only the keys and values stay as they are typed."""
    from lang import set_language

    try:
        assert main(["rules", "--game", "first-class", "--lang", "de"]) == 0
    finally:
        set_language("en")  # the command sets this process's language; later tests read English
    out = capsys.readouterr().out
    for german in (
        "Einstellungen (wählen mit --set",
        "Startfeld der Schaffner",
        "Wagenvorrat: unbegrenzt (Standard)",
        "car_supply = unlimited (Standard; Auswahl unlimited, limited)",
        "CSV der 21 Spielende-Karten",
    ):
        assert german in out, german
    for english in (
        "Settings (choose",
        "Conductors start on",
        "Railroad car supply",
        "(default",
        "Game End cards file",
    ):
        assert english not in out, english
