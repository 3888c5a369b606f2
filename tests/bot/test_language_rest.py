"""What used to be shown in English, worded for each reader: the move log (from the moves' events,
read time), AI seat names, the boards' data texts, forced-move clauses, the generic presenter's
hints and the tournament runner's refusals (a code with its facts)."""

from __future__ import annotations

import pytest
from bot_helpers import two_humans

import lang
from bot.discord_app.cogs import move_log_words
from bot.present import action_hints, forced_words, said_words, seat_name_words
from bot.present_ttr import note_words, rules_words, view_words
from bot.service import GameService
from bot.tournament.model import EventConfig, TournamentError
from lang import M
from rules.registry import find_game
from rules.ttr.board import load_board
from rules.ttr.view import board_notes


async def _played(service: GameService, moves: int) -> int:
    gid = await two_humans(service, "usa")
    for _ in range(moves):
        row = await service.game_row(gid)
        loaded = await service.load(gid)
        assert loaded.game is not None
        seat = loaded.game.seats_to_act()[0]
        player = row.seats[seat].player
        assert player is not None
        await service.act(gid, player, (await service.legal_actions(gid, player))[0])
    return gid


async def test_the_move_log_is_worded_when_read_in_the_readers_language(service: GameService) -> None:
    """/view log: each move is worded from its events for the reader (Italian here, German
    there), while the record keeps its English sentence."""
    gid = await _played(service, 3)
    stored = await service.log_lines(gid, 15)
    assert any("kept" in line for line in stored)
    with lang.using("it"):
        italian = await move_log_words(service, gid, 15, stored)
    with lang.using("de"):
        german = await move_log_words(service, gid, 15, stored)
    assert len(italian) == len(stored) == 3
    kept_it = lang.translator("it").ngettext("kept {n} ticket", "kept {n} tickets", 2).split("2")[0].strip()
    kept_de = lang.translator("de").ngettext("kept {n} ticket", "kept {n} tickets", 2).split("2")[0].strip()
    assert all(kept_it in line for line in italian[:2]) and all(kept_de in line for line in german[:2])
    english = [line for line in italian + german if any(w in line for w in ("kept", "took", "drew", "face-up"))]
    assert not english, english
    assert [line.split(".", 1)[0] for line in italian] == [line.split(".", 1)[0] for line in stored]


async def test_a_move_that_no_longer_replays_keeps_its_stored_line(service: GameService) -> None:
    """Old rows stay readable: from the first move the replay cannot apply, the log shows the
    English line stored with the move (earlier moves are still worded for the reader)."""
    gid = await _played(service, 3)
    stored = await service.log_lines(gid, 15)
    await service.storage.db.execute("UPDATE actions SET action_json=? WHERE game_id=? AND seq=2",
                                     ('{"kind": "no_such_move"}', gid))
    await service.storage.db.commit()
    with lang.using("fr"):
        lines = await move_log_words(service, gid, 15, stored)
    assert "kept" not in lines[0]
    assert lines[1:] == stored[1:]


def test_ai_seat_names_are_worded_and_peoples_names_are_not() -> None:
    """"AI 1 (heuristic)" reads "KI 1 (heuristisch)" in German; a person the AI replaced keeps
    their name with the language's AI mark; any other name is left exactly as it is."""
    with lang.using("de"):
        assert seat_name_words("AI 1 (heuristic)") == "KI 1 (heuristisch)"
        assert seat_name_words("Ann (AI)") == "Ann (KI)"
        assert seat_name_words("AI fan") == "AI fan"
    with lang.using("fr"):
        assert seat_name_words("AI 2 (search)") == "IA 2 (recherche)"
    with lang.using("en"):
        assert seat_name_words("AI 1 (heuristic)") == "AI 1 (heuristic)"


def test_a_sentence_naming_seats_words_its_ai_seats() -> None:
    """The service's sentences carry seat names as text (a start line's seat order): an AI seat
    among them is worded for the reader."""
    said = M("Game #{game} started. Seat order: {names}. {timer}", game=3, names="Ann, AI 1 (heuristic)", timer="")
    assert "Ann, IA 1 (euristica)" in said_words(said, "it")
    assert "Ann, AI 1 (heuristic)" in said_words(said, "en")


def test_forced_move_clauses_of_a_skipped_turn_are_translated() -> None:
    """Every clause the games give for a forced move under the "skip" policy has its words; the
    one line reads entirely in the reader's language."""
    clauses = ["the rules make every player keep at least 2 of the tickets offered (2 tickets kept)",
               "the rules make every player keep at least 1 of the tickets offered (1 ticket kept)",
               "the rules make a player who drew one card draw a second (taken from the deck)",
               "the scoring step cannot be skipped: the trains are scored as they stand"]
    for clause in clauses:
        with lang.using("it"):
            assert forced_words(clause) != clause
    line = M("ran out of time; the turn passes, but {forced}.", forced=clauses[0])
    german = said_words(line, "de")
    assert "Zielkarten" in german and "tickets" not in german, german


def test_the_boards_data_texts_are_in_the_readers_language() -> None:
    """/ttr rules and the board's notes: edition names, the stand-in deck, provisional
    merchandise and variant descriptions are translated; city names stay as printed."""
    with lang.using("de"):
        germany = "\n".join(rules_words({"board": "germany"}))
        swiss = "\n".join(rules_words({"board": "switzerland", "variant": "digital"}))
        notes = view_words({"notes": board_notes(load_board("germany"))})["notes"]
        variant = [note_words(n) for n in board_notes(load_board("switzerland", "digital"))]
    assert "Zug um Zug: Märklin-Edition" in germany and "Ersatzstapel" in germany and "Stand-in" not in germany
    assert "Zug um Zug Schweiz" in swiss and "digitale Ausgabe" in swiss and "tickets" not in swiss
    assert any(n.startswith("Ersatzstapel") for n in notes) and any("Augsburg" in n and "Waren" in n for n in notes)
    assert variant and all("Variante digital" in n for n in variant)


def test_the_generic_presenters_hints_are_worded_around_the_games_own_moves() -> None:
    """A game with no presenter: the hint's sentences are the reader's, the moves stay typable."""
    spec = find_game("ttr")
    game = spec.new(spec.config_for(board="usa"), 2, 5)
    legal = list(game.legal_actions(0))
    with lang.using("fr"):
        text = action_hints(legal)
    assert text.startswith("Vos coups possibles") and legal[0].to_text() in text


def test_a_tournament_refusal_carries_its_code_and_facts_and_reads_in_any_language() -> None:
    """The runner refuses with a code and the facts it names; the front end words it."""
    with pytest.raises(TournamentError) as refused:
        EventConfig(name="Cup", family="ttr", rounds=40)
    err = refused.value
    assert err.code == "bad_config" and err.params == {"rounds": 40}
    assert err.message == "An event has between 1 and 30 rounds, not 40."
    assert lang.text_of(err.said, "it") == "Un torneo ha da 1 a 30 round, non 40."
    assert lang.text_of(err.said, "de") == "Ein Turnier hat 1 bis 30 Runden, nicht 40."


def test_a_picture_drawn_in_another_process_keeps_the_callers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process does not inherit the caller's language: the view carries it
    (``in_language``), so the picture's labels, AI seat names and board notes are the reader's."""
    import contextvars
    from types import SimpleNamespace

    import bot.present as present

    drawn: list[dict[str, object]] = []
    monkeypatch.setattr(present, "_renderer", lambda view: SimpleNamespace(board_png=lambda d: drawn.append(d) or b""))
    spec = find_game("ttr")
    game = spec.new(spec.config_for(board="germany"), 2, 5)
    view = {"game": "ttr", "detail": game.view(None), "names": ["Ann", "AI 1 (heuristic)"]}
    with lang.using("de"):
        carried = present.in_language(view)
    contextvars.Context().run(present.render_board_png, carried)  # a fresh context, as in a worker
    (detail,) = drawn
    assert detail["language"] == "de" and detail["names"] == ["Ann", "KI 1 (heuristisch)"]
    assert any(str(n).startswith("Ersatzstapel") for n in detail["notes"])  # type: ignore[attr-defined]
