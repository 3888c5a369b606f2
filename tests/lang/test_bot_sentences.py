"""Sentences added to the bot after the languages work read in the reader's language: the First
Class card-file refusals (with the attached file's own name), the game-number refusals and the
tournament commands' refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

import lang
from bot.discord_app.cogs.cards import MAX_CARD_FILE, AttachedCards, card_file_words
from bot.discord_app.tournament_cog import parse_points, parse_ranks
from bot.service import NO_SUCH_GAME, ServiceError
from bot.tournament.model import TournamentError
from rules.games import find_game


def test_a_too_large_card_file_is_refused_in_the_readers_language_with_its_name(tmp_path: Path) -> None:
    with pytest.raises(ServiceError) as caught:
        AttachedCards(tmp_path)._check_size("huge.csv", MAX_CARD_FILE + 15)
    said = caught.value.said
    assert isinstance(said, lang.Msg)
    assert said.text("en").startswith(f"huge.csv is {MAX_CARD_FILE + 15:,} bytes")
    assert said.text("it").startswith("huge.csv pesa ") and "256 kB" in said.text("it")
    assert said.text("de").startswith("huge.csv hat ")


def test_card_file_settings_are_named_in_the_readers_language() -> None:
    spec = find_game("first-class")
    with lang.using("fr"):
        assert card_file_words(spec, "game_end_deck") == "fichier des cartes Fin de partie"
    with lang.using("en"):
        assert card_file_words(spec, "game_end_deck") == spec.setting("game_end_deck").label


def test_the_no_such_game_refusal_is_translated() -> None:
    assert {NO_SUCH_GAME.text(code) for code in lang.languages()} == {
        "There is no such game here.",
        "Qui non c'è questa partita.",
        "Cette partie n'existe pas ici.",
        "Eine solche Partie gibt es hier nicht.",
    }


@pytest.mark.parametrize(
    "code, start",
    [
        ("en", "Points are whole numbers"),
        ("de", "Punkte sind ganze Zahlen"),
        ("it", "I punti sono numeri interi"),
    ],
)
def test_tournament_option_refusals_read_in_the_readers_language(code: str, start: str) -> None:
    with lang.using(code), pytest.raises(TournamentError) as caught:
        parse_points("6,five")
    assert caught.value.message.startswith(start) and "'6,five'" in caught.value.message
    with lang.using(code), pytest.raises(TournamentError) as ranks:
        parse_ranks("1,x")
    assert ranks.value.message != "" and (code == "en") == ranks.value.message.startswith("Ranks are")
