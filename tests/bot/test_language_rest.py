"""What used to be shown in English, worded for each reader: the move log (from the moves' events,
read time), AI seat names, the boards' data texts, forced-move clauses, the generic presenter's
hints and the tournament runner's refusals (a code with its facts)."""

from __future__ import annotations

import pytest
from bot_helpers import ALICE, two_humans

import lang
from bot.games.ttr.words import note_words, rules_words, view_words
from bot.present import action_hints, forced_words, said_words, seat_name_words
from bot.service import GameService
from bot.tournament.model import EventConfig, TournamentError
from lang import M
from rules.games import find_game
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
    """/view log and the terminal's log (one path, ``GameService.log_lines``): each move is worded
    from its events for the reader (Italian here, German there), while the record keeps its
    English sentence."""
    gid = await _played(service, 3)
    english = await service.log_lines(gid, 15)
    assert sum("kept" in line for line in english) == 2
    with lang.using("it"):
        italian = await service.log_lines(gid, 15)
    with lang.using("de"):
        german = await service.log_lines(gid, 15)
    assert len(italian) == len(english) == 3
    kept_it = lang.translator("it").ngettext("kept {n} ticket", "kept {n} tickets", 2).split("2")[0].strip()
    kept_de = lang.translator("de").ngettext("kept {n} ticket", "kept {n} tickets", 2).split("2")[0].strip()
    assert all(kept_it in line for line in italian[:2]) and all(kept_de in line for line in german[:2])
    leaked = [
        line for line in italian + german if any(w in line for w in ("kept", "took", "drew", "face-up"))
    ]
    assert not leaked, leaked
    assert [line.split(".", 1)[0] for line in italian] == ["1", "2", "3"]
    stored = [a.public for a in await service.storage.actions(gid)]
    assert all(s and "kept" in s for s in stored[:2])


async def _aborted_with_an_old_move(service: GameService, moves: int, seq: int) -> int:
    """A game of ``moves`` moves, aborted, whose move ``seq`` was stored by rules that no longer
    exist (an action kind today's rules do not know). An aborted game is not replayed when it
    loads (only active and finished games are checked), so its log is still read."""
    gid = await _played(service, moves)
    await service.abort(gid, ALICE)
    await service.storage.db.execute(
        "UPDATE actions SET action_json=? WHERE game_id=? AND seq=?",
        ('{"kind": "build_depot", "city": "Denver"}', gid, seq),
    )
    await service.storage.db.commit()
    service.evict(gid)
    return gid


async def test_a_move_that_no_longer_replays_says_so_and_shows_its_english_record(
    service: GameService,
) -> None:
    """A move today's rules cannot replay: the French reader reads, in French, that it can no
    longer be shown in their language, then the English sentence kept with it; so does every move
    after it (the replay cannot go past it), and the moves before it are worded in French. An
    English reader reads the record as it was kept."""
    gid = await _aborted_with_an_old_move(service, 3, 2)
    stored = {a.seq: a.public for a in await service.storage.actions(gid)}
    with lang.using("fr"):
        french = await service.log_lines(gid, 15)
    sentence = "Ce coup ne peut plus être affiché dans votre langue. L'enregistrement original, en anglais : "
    kept_fr = lang.translator("fr").ngettext("kept {n} ticket", "kept {n} tickets", 2).split("2")[0].strip()
    assert french[0].startswith("1. ") and kept_fr in french[0] and "kept" not in french[0], french
    assert french[1:] == [f"2. {sentence}{stored[2]}", f"3. {sentence}{stored[3]}"], french
    english = await service.log_lines(gid, 15)
    assert english[1:] == [f"2. {stored[2]}", f"3. {stored[3]}"], english


async def test_a_move_without_a_kept_sentence_or_a_readable_action_names_who_made_it(
    service: GameService,
) -> None:
    """A move saved before sentences were kept, whose action today's rules cannot read either:
    nothing English is left to show, so the reader reads who made it and that it cannot be read."""
    gid = await _aborted_with_an_old_move(service, 2, 2)
    await service.storage.db.execute("UPDATE actions SET public=NULL WHERE game_id=? AND seq=2", (gid,))
    await service.storage.db.commit()
    with lang.using("it"):
        italian = await service.log_lines(gid, 15)
    assert italian[1] == "2. bob ha fatto una mossa che non può più essere letta.", italian


def test_ai_seat_names_are_worded_and_peoples_names_are_not() -> None:
    """ "AI 1 (heuristic)" reads "KI 1 (heuristisch)" in German; a person the AI replaced keeps
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
    said = M(
        "Game #{game} started. Seat order: {names}. {timer}", game=3, names="Ann, AI 1 (heuristic)", timer=""
    )
    assert "Ann, IA 1 (euristica)" in said_words(said, "it")
    assert "Ann, AI 1 (heuristic)" in said_words(said, "en")


def test_forced_move_clauses_of_a_skipped_turn_are_translated() -> None:
    """Every clause the games give for a forced move under the "skip" policy has its words; the
    one line reads entirely in the reader's language."""
    clauses = [
        "the rules make every player keep at least 2 of the tickets offered (2 tickets kept)",
        "the rules make every player keep at least 1 of the tickets offered (1 ticket kept)",
        "the rules make a player who drew one card draw a second (taken from the deck)",
        "the scoring step cannot be skipped: the trains are scored as they stand",
    ]
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
    assert (
        "Zug um Zug: Märklin-Edition" in germany and "Ersatzstapel" in germany and "Stand-in" not in germany
    )
    assert "Zug um Zug Schweiz" in swiss and "digitale Ausgabe" in swiss and "tickets" not in swiss
    assert any(n.startswith("Ersatzstapel") for n in notes) and any(
        "Augsburg" in n and "Waren" in n for n in notes
    )
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
        EventConfig(boards=("usa",), name="Cup", family="ttr", rounds=40)
    err = refused.value
    assert err.code == "bad_config" and err.params == {"rounds": 40}
    assert err.message == "An event has between 1 and 30 rounds, not 40."
    assert lang.text_of(err.said, "it") == "Un torneo ha da 1 a 30 round, non 40."
    assert lang.text_of(err.said, "de") == "Ein Turnier hat 1 bis 30 Runden, nicht 40."


def test_a_picture_drawn_in_another_process_keeps_the_callers_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker process does not inherit the caller's language: the view carries it
    (``in_language``), so the picture's labels, AI seat names and board notes are the reader's."""
    import contextvars

    import bot.present as present
    from bot.games.ttr.front import TTRDrawing

    drawn: list[dict[str, object]] = []
    monkeypatch.setattr(TTRDrawing, "board_png", lambda self, d: drawn.append(d) or b"")
    spec = find_game("ttr")
    game = spec.new(spec.config_for(board="germany"), 2, 5)
    view = {"game": "ttr", "detail": game.view(None), "names": ["Ann", "AI 1 (heuristic)"]}
    with lang.using("de"):
        carried = present.in_language(view)
    contextvars.Context().run(present.render_board_png, carried)  # a fresh context, as in a worker
    (detail,) = drawn
    assert detail["language"] == "de" and detail["names"] == ["Ann", "KI 1 (heuristisch)"]
    assert any(str(n).startswith("Ersatzstapel") for n in detail["notes"])  # type: ignore[attr-defined]


def test_the_terminals_log_is_worded_by_the_same_path_in_its_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``conductor play --lang it`` prints the last moves from ``GameService.log_lines``, the path
    /view log takes: in Italian, not the English stored with each move."""
    import io
    import sys

    from bot.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a TTY: every seat is an AI
    try:
        assert (
            main(["play", "--map", "usa", "--players", "2", "--seat", "ai", "--seed", "3", "--lang", "it"])
            == 0
        )
    finally:
        lang.set_language("en")
    out = capsys.readouterr().out
    log = out.split("Registro (ultime 20 mosse):\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(log) == 20 and all(line.startswith("  ") and ". " in line for line in log), log
    english = [
        line for line in log if any(w in line for w in (" drew ", " claimed ", " kept ", " took ", "(AI)"))
    ]
    assert not english, english
    assert any("IA 1 (euristica)" in line or "IA 2 (euristica)" in line for line in log), log
