"""Presentation helpers: accent-insensitive matching and text boards without secrets."""

from __future__ import annotations

from bot.discord_app.ui import match
from bot.present import board_text, fold, hand_text, scores_text
from rules.games import new_game
from rules.registry import envelope


def test_fold_and_match() -> None:
    assert fold("Zürich") == fold("zurich") == "zurich"
    assert fold("Genève") == "geneve" and fold("Köln") == "koln" and fold("Straße") == "strasse"
    assert match("zurich-bern", "Zürich–Bern (3 red) CH012")
    assert match("ZÜRICH", "Zürich") and match("", "anything") and not match("paris", "Zürich")


def test_board_text_is_public_and_hand_text_private() -> None:
    game = new_game("ttr", {"board": "europe"}, 3, 5)
    public = envelope(game, None) | {"names": ["a", "b", "c"], "game_id": 1}
    text = board_text(public)
    assert "Europe" in text and "EU-T" not in text and "Your" not in text
    mine = envelope(game, 0) | {"names": ["a", "b", "c"]}
    private = hand_text(mine)
    assert "Your cards" in private and "EU-T" in private  # the offer
    assert "a: 0" in scores_text(public)


def test_generic_text_for_other_games() -> None:
    game = new_game("first-class", {}, 2, 1)
    view = envelope(game, None) | {"names": ["a", "b"], "game_id": 3}
    text = board_text(view)
    assert "First Class" in text and "Game #3" in text
