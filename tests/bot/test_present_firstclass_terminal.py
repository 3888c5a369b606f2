"""First Class in words for the terminal: the table with positions, the seat's own board (its
hidden Game End cards to it alone), and every legal action as a numbered choice in words."""

from __future__ import annotations

from bot.games.firstclass.words import card_position, terminal_choices, terminal_text
from rules.firstclass.ai import RandomAI
from rules.firstclass.game import FirstClassGame
from rules.firstclass.summary import secret_tokens


def _after_draft(players: int = 3, seed: int = 5) -> FirstClassGame:
    g = FirstClassGame.new({}, players, seed)
    while g.s["phase"] == "draft":
        seat = g.seats_to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    return g


def test_terminal_text_shows_only_the_viewers_secrets() -> None:
    g = _after_draft()
    seat = g.seats_to_act()[0]
    names = ["Ada", "Bo", "Cy"]
    text = terminal_text({**g.view(seat), "names": names})
    mine = secret_tokens(g.view(seat))
    assert mine and all(token in text for token in mine)
    for other in range(3):
        if other != seat:
            # Another seat's kept Game End card may also lie on display; only check cards that do not.
            shown = {c["id"] for c in g.view(None)["game_end_display"]}
            assert not any(t in text for t in secret_tokens(g.view(other)) - shown)
    assert f"{names[seat]} - 0 points" in text and "Seat" not in text


def test_every_legal_action_is_a_choice_in_words_with_the_cards_place() -> None:
    g = _after_draft()
    seat = g.seats_to_act()[0]
    view = g.view(seat)
    legal = [a.to_text() for a in g.legal_actions(seat)]
    choices = terminal_choices(view, seat, legal)
    assert [text for _words, text in choices] == legal
    take = next(t for t in legal if t.startswith("take "))
    row, pos = card_position(view, take.split()[1]) or (0, 0)
    words = dict((t, w) for w, t in choices)[take]
    assert words.startswith(f"Take row {row} card {pos} ({take.split()[1]} ")
    assert dict((t, w) for w, t in choices)["start"] == "Take the Start Player tile"


def test_a_view_without_names_counts_players_from_one() -> None:
    g = _after_draft(2)
    seat = g.seats_to_act()[0]
    assert f"Player {seat + 1} - 0 points" in terminal_text(g.view(seat))


def test_choices_in_a_later_turn_are_words_not_bare_ids() -> None:
    g = _after_draft(2, 9)
    ais = [RandomAI(1), RandomAI(2)]
    for _ in range(30):
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
    seat = g.seats_to_act()[0]
    legal = [a.to_text() for a in g.legal_actions(seat)]
    for words, text in terminal_choices(g.view(seat), seat, legal):
        assert words != text, f"{text!r} has no words"
