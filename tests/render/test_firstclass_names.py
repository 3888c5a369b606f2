"""First Class images name people, never "Seat 0": player names from the service's view, and the
table says which cards are in play (the deck label)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw

from render.firstclass import render_player_board, render_table
from rules.firstclass.ai import RandomAI
from rules.firstclass.game import FirstClassGame

NAMES = ["Ada", "Bo", "Cy"]


def _drawn_text(monkeypatch: pytest.MonkeyPatch, draw: Any) -> str:
    """Every string the renderer writes on the image, in order."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    draw()
    return "\n".join(seen)


def _mid_game(players: int = 3) -> FirstClassGame:
    g = FirstClassGame.new({}, players, 11)
    ais = [RandomAI(i) for i in range(players)]
    for _ in range(60):  # far enough that cards were taken and the Start Player tile may have moved
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
    return g


def test_table_names_players_and_never_seat_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _mid_game()
    view = {**g.view(None), "names": NAMES}
    text = _drawn_text(monkeypatch, lambda: render_table(view))
    assert "Seat" not in text
    for name in NAMES:
        assert f"{name}: " in text  # the score lines
    taken = [
        s["status"] for row in view["rows"] for s in row["slots"] if str(s["status"]).startswith("taken:")
    ]
    assert taken, "the state has taken cards"
    assert NAMES[int(taken[0].split(":")[1])] in text  # "taken by <name>" on the card's place
    assert f"{NAMES[view['seats_to_act'][0]]} to act" in text


def test_table_shows_the_deck_label(monkeypatch: pytest.MonkeyPatch) -> None:
    view = {**FirstClassGame.new({}, 2, 1).view(None), "names": NAMES[:2]}
    text = _drawn_text(monkeypatch, lambda: render_table(view))
    assert f"Cards: {view['deck_label']}" in text.replace("\n", " ")


def test_without_names_players_are_counted_from_one(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _mid_game(2)
    view = g.view(None)
    text = _drawn_text(monkeypatch, lambda: render_table(view))
    assert "Player 1: " in text and "Player 2: " in text
    assert "Seat" not in text and "Player 0" not in text


def test_player_board_is_titled_with_the_players_name(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _mid_game()
    view = {**g.view(1), "names": NAMES}
    text = _drawn_text(monkeypatch, lambda: render_player_board(view, 1))
    assert text.splitlines()[0] == "Bo"
    assert "Seat" not in text
