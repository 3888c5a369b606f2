"""The database's and the worker pool's refusals in the reader's language.

Promise (issue 14, every sentence a person reads comes from the catalog): a :class:`StorageError`
and a bad worker count carry a code and their facts with the sentence (``said``); ``str()`` stays
the English sentence for the logs; whatever shows one to a person (a slash command's reply through
the service, ``conductor play``/``doctor``/``export``/``backup``/``run``) words it in that
person's language.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from bot_helpers import ALICE

import lang
from bot.commands import backup, doctor, export, run
from bot.service import GameService, ServiceError
from bot.store.rows import BROKEN, StorageError
from bot.store.sqlite import SqliteStore
from bot.store.sqlite_migrate import SCHEMA_VERSION
from bot.workers import SIZE_VARIABLE, WorkerCountError, Workers, configured_size


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A command that sets the process's language (``conductor play --lang``) must not leak it."""
    yield
    lang.set_language("en")


async def test_an_unknown_game_carries_its_code_and_number_and_reads_in_any_language(
    storage: SqliteStore,
) -> None:
    with pytest.raises(StorageError) as refused:
        await storage.get_game(404)
    err = refused.value
    assert err.code == "no_game" and err.params == {"game": 404}
    assert str(err) == err.message == "There is no game #404."
    assert lang.text_of(err.said, "it") == "Non esiste la partita n. 404."
    assert lang.error_text(err, "de") == "Es gibt keine Partie Nr. 404."


async def test_a_newer_schema_and_a_closed_database_are_worded_for_the_reader(db_path: str) -> None:
    async with SqliteStore(db_path) as st:
        await st.db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 5,))
    with pytest.raises(StorageError) as refused:
        await SqliteStore(db_path).open()
    newer = refused.value
    assert newer.code == "newer_schema" and newer.params["version"] == SCHEMA_VERSION + 5
    assert "newer than this Conductor" in str(newer)
    german = lang.text_of(newer.said, "de")
    assert german.startswith(f"Die Datenbank {db_path} hat die Schemaversion {SCHEMA_VERSION + 5}, neuer"), (
        german
    )
    with pytest.raises(StorageError) as closed:
        _ = SqliteStore(db_path).db
    assert closed.value.code == "not_open" and str(closed.value) == "The database is not open."
    assert lang.error_text(closed.value, "fr") == "La base de données n'est pas ouverte."


async def test_each_unusable_location_has_its_code_and_a_sentence_in_each_language(tmp_path: Path) -> None:
    """The path and the fix are named in the reader's language; SQLite's own words stay a fact."""
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list\n" * 200)
    cases = {
        str(a_file / "conductor.db"): ("folder_is_a_file", f"{a_file} est un fichier, pas un dossier"),
        str(tmp_path): ("database_is_a_folder", "c'est un dossier, pas un fichier"),
        str(notes): ("not_a_database", "(SQLite : file is not a database). Si ce fichier n'est pas la base"),
    }
    for path, (code, french) in cases.items():
        with pytest.raises(StorageError) as refused:
            await SqliteStore(path).open()
        assert refused.value.code == code, refused.value
        text = lang.text_of(refused.value.said, "fr")
        assert text.startswith(f"Impossible d'ouvrir la base de données {path}") and french in text, text
        assert str(refused.value).startswith(f"Cannot open the database {path}")


async def test_a_game_whose_row_cannot_be_read_is_refused_in_the_readers_words(
    service: GameService, storage: SqliteStore
) -> None:
    """Before: a row that could not be decoded raised UnboundLocalError (its number was read from
    the row that failed), so the player read "Something went wrong". Now the game is marked broken
    with the English reason for the admins, and the player reads a sentence in their language."""
    row = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice", seed=3
    )
    await storage.db.execute("UPDATE games SET config='{not json' WHERE id=?", (row.id,))
    await storage.db.commit()
    service.evict(row.id)
    with pytest.raises(ServiceError) as refused:
        await service.public_view(row.id, player=ALICE)
    assert refused.value.code == "broken"
    assert lang.text_of(refused.value.said, "it") == (
        "Questa partita non si può caricare; gli amministratori sono stati avvisati."
    )
    async with storage.db.execute("SELECT status, broken_reason FROM games WHERE id=?", (row.id,)) as cur:
        status, reason = await cur.fetchone()  # type: ignore[misc]
    assert status == BROKEN and reason.startswith(f"Game #{row.id} has a corrupted row: JSONDecodeError")


def test_a_bad_worker_count_is_a_sentence_with_its_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SIZE_VARIABLE, "many")
    with pytest.raises(WorkerCountError) as refused:
        configured_size()
    err = refused.value
    assert isinstance(err, ValueError) and err.code == "bad_worker_variable"
    assert str(err) == "CONDUCTOR_WORKERS='many' is not a number of worker processes (0 or more)."
    assert (
        lang.text_of(err.said, "it")
        == "CONDUCTOR_WORKERS='many' non è un numero di processi worker (0 o più)."
    )
    for make in (lambda: configured_size(-2), lambda: Workers(-2)):
        with pytest.raises(WorkerCountError) as negative:
            make()
        assert negative.value.code == "negative_workers" and negative.value.params == {"size": -2}
        assert lang.text_of(negative.value.said, "fr") == (
            "Le nombre de processus de travail doit être 0 ou plus, pas -2."
        )


# ---- the terminal commands show them in the reader's language -------------------------------------
# The command's own function is called inside the reader's language (``bot.cli.main`` chooses it
# from --lang or the locale), so the test holds whichever way the language was chosen.


def test_conductor_run_says_a_bad_worker_count_in_the_operators_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    monkeypatch.setenv(SIZE_VARIABLE, "tanti")
    args = argparse.Namespace(env_file=str(tmp_path / "none.env"), db=None, workers=None, sync=False)
    with lang.using("it"):
        assert run.run(args) == 2
    assert capsys.readouterr().err.strip() == (
        "conductor run: CONDUCTOR_WORKERS='tanti' non è un numero di processi worker (0 o più)."
    )
    monkeypatch.delenv(SIZE_VARIABLE)
    args.workers = -1
    with lang.using("de"):
        assert run.run(args) == 2
    assert "Die Zahl der Worker-Prozesse muss 0 oder mehr sein, nicht -1." in capsys.readouterr().err


def test_doctor_export_and_backup_say_a_database_they_cannot_open_in_the_readers_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list\n" * 200)
    with lang.using("it"):
        assert doctor.run(argparse.Namespace(db=str(notes))) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"conductor doctor: Impossibile aprire il database {notes} (SQLite: file is not a "
        "database). Se quel file non è il database di Conductor"
    ), err
    with lang.using("fr"):
        assert export.run(argparse.Namespace(db=str(notes), game_id=1, server=None, out=None)) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"conductor export: Impossible d'ouvrir la base de données {notes}"), err
    copy = tmp_path / "copy.db"
    with lang.using("de"), pytest.MonkeyPatch.context() as patch:
        patch.setattr(backup, "backup_file", lambda src, dest: Path(dest).write_bytes(notes.read_bytes()))
        assert backup.run(argparse.Namespace(db=str(notes), path=str(copy))) == 1
    err = capsys.readouterr().err
    assert f"Die Datenbank {copy} kann nicht geöffnet werden (SQLite: file is not a database)" in err, err


def test_conductor_play_says_a_database_it_cannot_open_in_its_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    assert main(["play", "--seat", "ai", "--db", str(a_file / "play.db"), "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"conductor play: Impossible d'ouvrir la base de données {a_file / 'play.db'} : "
        f"{a_file} est un fichier, pas un dossier"
    ), err


def test_the_english_sentence_of_a_storage_error_does_not_follow_the_language(tmp_path: Path) -> None:
    """The log's text: a StorageError raised while the reader's language is Italian is still English."""
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list\n" * 200)
    with lang.using("it"), pytest.raises(StorageError) as refused:
        asyncio.run(SqliteStore(str(notes)).open())
    assert str(refused.value).startswith(
        f"Cannot open the database {notes} (SQLite: file is not a database)."
    )
