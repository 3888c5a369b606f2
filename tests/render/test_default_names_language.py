"""Seats the caller did not name are drawn as "Player N" in the picture's language (issue 14:
pictures in every language), on the board panel, the hand and the final summary."""

from __future__ import annotations

from render.common import default_names


def test_unnamed_seats_are_named_in_the_pictures_language() -> None:
    assert default_names(3, ["Ada"], "de") == ["Ada", "Spieler 2", "Spieler 3"]
    assert default_names(2, None, "it")[1] != "Player 2" and default_names(2, None, "it")[1].endswith("2")
    assert default_names(2, ["", "Bo"], None) == ["Player 1", "Bo"]
