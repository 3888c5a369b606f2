"""First Class reads in every language: the engine's events are worded from their kind and facts,
the cards from their symbols, and a card's text fits its box in the pictures whatever the language."""

from __future__ import annotations

from typing import Any

import pytest

import lang
from bot.games.firstclass.words import event_words
from bot.present import line_words
from bot.stream import Line
from lang.firstclass import card_words, effects_words, game_end_words, requirement_words
from render.firstclass import CARD_TEXT_SIZES, card_text_box, fit_block
from rules.firstclass.ai import HeuristicAI, RandomAI
from rules.firstclass.cards import open_action_cards, open_game_end_cards
from rules.firstclass.game import FirstClassGame

TRANSLATED = [code for code in lang.languages() if code != lang.SOURCE_LANGUAGE]


def _events(seed: int, players: int) -> list[dict[str, Any]]:
    """Every event (public and private) of a whole seeded game played by AIs."""
    game = FirstClassGame.new({}, players, seed)
    ais = [HeuristicAI(seed + i) if i % 2 else RandomAI(seed + i) for i in range(players)]
    events: list[dict[str, Any]] = []
    while not game.is_over():
        seat = game.seats_to_act()[0]
        events += game.apply(seat, ais[seat].choose(game, seat))
    return events


@pytest.fixture(scope="module")
def events() -> list[dict[str, Any]]:
    return _events(3, 2) + _events(8, 3) + _events(11, 4)


def test_every_event_kind_is_worded_from_its_facts_in_every_language(events: list[dict[str, Any]]) -> None:
    """No event of a whole game falls back to the engine's English: each kind has its words, and
    in Italian, French and German they differ from the English."""
    kinds = {e["type"] for e in events}
    assert {
        "take",
        "car",
        "upgrade",
        "conductor",
        "coins",
        "round_start",
        "scoring_start",
        "train_scoring",
        "final",
        "game_over",
        "winner",
        "game_end_card",
        "draft",
        "setup",
        "first_round",
    } <= kinds, kinds
    for e in events:
        with lang.using("en"):
            english = event_words(e)
        assert english, e
        for code in TRANSLATED:
            with lang.using(code):
                words = event_words(e)
            assert words and words != english, (code, e)


def test_the_english_words_match_the_engines_own_sentence(events: list[dict[str, Any]]) -> None:
    """Worded in English, an event says what the engine's text says (after the actor's name)."""
    for e in events:
        text = str(e["text"])
        if isinstance(e.get("seat"), int):
            text = text.removeprefix(f"Seat {e['seat']} ")
        with lang.using("en"):
            words = event_words(e)
        if e["type"] in ("game_over",):
            continue
        assert words is not None
        # card effects are worded alike; the sentence's frame may differ in small words only
        assert words.split(" ")[0] == text.split(" ")[0], (words, text)


def test_an_event_stored_without_its_facts_shows_its_english_text() -> None:
    """Lines of games stored before events carried facts keep their stored English."""
    old = {"type": "take", "seat": 0, "text": "takes X1-01: add 2 0-value cars.", "game": "first-class"}
    assert event_words(old) is None
    with lang.using("it"):
        assert (
            line_words(Line(0, "takes X1-01: add 2 0-value cars.", event=old))
            == "takes X1-01: add 2 0-value cars."
        )
        new = {**old, "card": "X1-01", "effects": "car(2)"}
        assert line_words(Line(0, "takes X1-01: …", event=new)) == "prende X1-01: 2 carrozze da 0."


def test_card_symbols_are_worded_from_their_structure() -> None:
    with lang.using("de"):
        assert effects_words("car(2);upany(1)") == "2 0-Wert-Wagen, dann 1 Verbesserung nach Wahl"
        assert (
            requirement_words("count(value>=4,any)>=2&coins>=3")
            == "2 Wagen mit Wert 4+ in deinen Zügen und 3 Münzen auf deinem Tableau"
        )
        assert (
            game_end_words({"id": "G10", "type": "conductor", "points": 3, "bonus": "coin(1)"})
            == "G10: Schaffner ×3, Bonus 1 Münze"
        )
    with lang.using("fr"):
        assert (
            effects_words("choice(car(1)|up(0>1))")
            == "au choix 1 wagon de valeur 0 ou une amélioration de 0 à 1"
        )
    assert effects_words("not a symbol(") == "not a symbol("  # unreadable data is shown as written


@pytest.mark.parametrize("code", list(lang.languages()))
def test_every_card_text_fits_its_card_in_the_table_picture(code: str) -> None:
    """Every Action card of the open deck, in every language, fits the card's text box whole (the
    text shrinks down to the smallest size rather than being cut)."""
    x0, y0, x1, y1 = card_text_box((0, 0, 136, 126))
    with lang.using(code):
        for card in open_action_cards():
            text = card_words(card.to_json(), kind_shown=True)
            size, lines, fits = fit_block(text, x1 - x0, y1 - y0)
            assert fits, (code, card.id, text, size, lines)
        for ge in open_game_end_cards():
            bonus = lang.pictures(code)("bonus {bonus}", bonus=effects_words(ge.bonus))
            assert fit_block(bonus, 138, 34, (12, 11, 10, 9), 1)[2], (code, ge.id, bonus)


def test_the_fit_is_measured() -> None:
    """The measure can fail: a text far longer than a card is reported as not fitting, and cut."""
    size, lines, fits = fit_block("Eisenbahnwagenverbesserung " * 30, 123, 90)
    assert not fits and size == CARD_TEXT_SIZES[-1] and lines[-1].endswith("…")


def test_the_rules_in_force_read_in_the_readers_language() -> None:
    """First Class's rules summary worded for a reader: the frame, the deck's sources and every
    provisional value (its station, tile or mail car bonus); setting keys stay as typed."""
    from bot.games.firstclass.words import rules_words

    with lang.using("it"):
        lines = rules_words({"car_supply": "limited"})
    text = "\n".join(lines)
    assert lines[0] == "First Class, 2-4 giocatori"
    assert "Carte: il mazzo aperto di Conductor" in text and "car_supply=limited (modificata)" in text
    assert "stazione 2 della plancia (bonus: 2 monete)" in text and "tessera Locomotiva 2: valore 6" in text
    assert "carrozza postale 3: bonus 2 monete" in text
    for english in (
        "players",
        "Deck",
        "Settings in force",
        "Provisional",
        "player board",
        "mail car",
        " value ",
    ):
        assert english not in text, english
