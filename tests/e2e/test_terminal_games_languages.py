"""Whole games in the terminal in Italian, French and German, scanned for English (issue 34).

``conductor play`` plays a Ticket to Ride game (Europe: tunnels, ferries, stations) and a First
Class game between AI seats in each language and prints every move, every board in words and the
final scores. No English word may reach the reader outside what every language shows as it is
(the boards' city names, the typed settings, names): a line such as First Class's bare "end"
after every turn, or a glued "con 2 locomotiva", shows up here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from english_scan import english_sentences, english_words

from bot.cli import main
from lang.extract import committed_template
from rules.ttr.board import load_board

GAMES = {
    "ttr": ["play", "--map", "europe", "--players", "3", "--seat", "ai", "--seed", "5"],
    "first-class": ["play", "--game", "first-class", "--players", "3", "--seat", "ai", "--seed", "5"],
}
CITIES = set(load_board("europe").city_names)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("code", ["it", "fr", "de"])
def test_a_whole_game_in_the_terminal_shows_no_english(
    code: str, game: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([*GAMES[game], "--db", str(tmp_path / "g.db"), "--lang", code]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") > 100, out[-500:]  # every move was printed
    words = english_words(out, code, allowed=CITIES)
    assert not words, (
        code,
        game,
        words,
        [line for line in out.splitlines() if any(w in line for w in words)][:5],
    )
    sentences = [s for s in english_sentences(committed_template("conductor")) if s in out]
    assert not sentences, sentences[:5]
