"""``conductor doctor``, and ``export``/``backup`` on damaged records, through ``bot.cli.main``.

Promises: doctor prints one line per damaged game with its reason and a summary, and exits 1 when
anything is wrong (0 when all is sound); export refuses a damaged game with a sentence instead of
a traceback; backup writes the copy but names the damage and exits 1; a database location that
cannot be opened or written is named with the fix, not SQLite's bare "unable to open database file".
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from record_helpers import record_game

from bot.cli import main
from bot.store.rows import StorageError
from bot.store.sqlite import SqliteStore


async def _fill(db: Path) -> list[int]:
    """Three games: a finished Europe game, a half-played First Class game and a lobby."""
    async with SqliteStore(db) as storage:
        europe = await record_game(storage, "ttr", {"board": "europe"}, 3, seed=2)
        first_class = await record_game(storage, "first-class", {}, 2, seed=2, moves=20)
        lobby = await storage.create_game(
            game_name="ttr", config={"board": "usa"}, seed=1, max_players=5, space=None, creator="p:7"
        )
    return [europe, first_class, lobby]


def _sql(db: Path, statement: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(statement, params)
    conn.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "conductor.db"
    asyncio.run(_fill(path))
    return path


# ---- doctor -----------------------------------------------------------------------------------


def test_doctor_on_a_sound_database_says_so_and_exits_0(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "SQLite integrity check: ok" in out
    assert out.strip().endswith("3 game(s) checked: all sound.")


def test_doctor_lists_each_damaged_game_with_its_reason(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stale move number, a tampered saved state and a corrupted action row: one line each."""
    _sql(db, "UPDATE games SET seq=seq-1 WHERE id=1")
    with sqlite3.connect(db) as conn:
        snapshot = json.loads(conn.execute("SELECT snapshot FROM games WHERE id=2").fetchone()[0])
        snapshot["state"]["players"][0]["coins"][1] += 1
        conn.execute("UPDATE games SET snapshot=? WHERE id=2", (json.dumps(snapshot),))
    conn.close()
    assert main(["doctor", "--db", str(db)]) == 1
    lines = capsys.readouterr().out.splitlines()
    damaged = [line for line in lines if line.startswith("game #")]
    assert damaged[0].startswith("game #1: its stored move number is ")
    assert damaged[1].startswith("game #2: its saved state differs from a replay of its 20 moves")
    assert len(damaged) == 2, "the lobby is sound and is not listed"
    assert lines[-1].startswith("3 game(s) checked: 2 damaged game(s).")


def test_doctor_reports_a_corrupted_action_row(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _sql(db, "UPDATE actions SET action_json='not json' WHERE game_id=1 AND seq=4")
    assert main(["doctor", "--db", str(db)]) == 1
    assert "game #1: move 4 is not readable JSON." in capsys.readouterr().out.splitlines()


def test_doctor_reports_a_game_the_bot_marked_broken(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _sql(db, "UPDATE games SET status='broken', broken_reason='failed to resume' WHERE id=2")
    assert main(["doctor", "--db", str(db)]) == 1
    assert "game #2: marked broken by the bot: failed to resume" in capsys.readouterr().out.splitlines()


def test_doctor_reports_a_damaged_database_file(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PRAGMA integrity_check: an index whose pages are no longer referenced is damage too."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA writable_schema=ON")
        conn.execute("DELETE FROM sqlite_master WHERE name='games_status'")
    conn.close()
    assert main(["doctor", "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "SQLite integrity check: the file is damaged:" in out and "never used" in out
    assert "a damaged database file" in out.splitlines()[-1]


def test_doctor_without_a_database_names_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.db"
    assert main(["doctor", "--db", str(missing)]) == 1
    assert f"there is no database at {missing}" in capsys.readouterr().err
    assert not missing.exists(), "doctor never creates a database"


def test_doctor_on_a_file_that_is_not_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list\n" * 200)
    assert main(["doctor", "--db", str(notes)]) == 1
    err = capsys.readouterr().err
    assert f"Cannot open the database {notes}" in err and "file is not a database" in err
    assert "Traceback" not in err


# ---- a location that cannot be written --------------------------------------------------------


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder (holding a sound database) that this user cannot write: chmod, or chattr +i as root."""
    folder = tmp_path / "ro"
    folder.mkdir()
    asyncio.run(_fill(folder / "conductor.db"))
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("running as root on a file system where a folder cannot be made read-only")
    try:
        yield folder
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)


def test_doctor_on_a_read_only_folder_names_the_path_and_the_fix(
    read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = read_only_folder / "conductor.db"
    assert main(["doctor", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert f"Cannot write the database {db}" in err and "-wal and -shm" in err
    assert "writable by this user" in err and "CONDUCTOR_DB" in err


async def test_storage_open_names_an_unusable_location(tmp_path: Path, read_only_folder: Path) -> None:
    """SqliteStore.open explains each kind of location SQLite cannot use."""
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    cases = {
        str(read_only_folder / "new.db"): f"Cannot write the database {read_only_folder / 'new.db'}",
        str(a_file / "conductor.db"): f"{a_file} is a file, not a folder",
        str(tmp_path): "it is a folder, not a file",
    }
    for path, expected in cases.items():
        with pytest.raises(StorageError) as refused:
            await SqliteStore(path).open()
        assert expected in str(refused.value), str(refused.value)
        assert str(refused.value) != "unable to open database file"


# ---- export and backup ------------------------------------------------------------------------


def test_export_refuses_a_damaged_game_with_a_sentence(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: a corrupted action row printed a JSONDecodeError traceback from export."""
    _sql(db, "UPDATE actions SET action_json='{' WHERE game_id=1 AND seq=2")
    out = tmp_path / "game.json"
    assert main(["export", "1", "--db", str(db), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (
        "conductor export: game #1 cannot be exported: move 2 is not readable JSON. "
        "Nothing was written; conductor doctor lists every damaged game."
    )
    assert not out.exists()
    assert main(["export", "2", "--db", str(db), "--out", str(out)]) == 0, "the sound games still export"


def test_export_of_an_unknown_game_names_it(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "9", "--db", str(db)]) == 1
    assert f"there is no game #9 in {db}" in capsys.readouterr().err


def test_backup_writes_the_copy_and_names_a_damaged_game(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _sql(db, "UPDATE games SET seq=seq+1 WHERE id=2")
    copy = tmp_path / "backups" / "copy.db"
    assert main(["backup", str(copy), "--db", str(db)]) == 1
    captured = capsys.readouterr()
    assert f"backed up {db} to {copy}" in captured.out
    assert f"the copy {copy} was written, but it holds damage from {db}" in captured.err
    assert "game #2: its stored move number is 21 but its action log ends at move 20." in captured.err
    assert copy.is_file()


def test_backup_of_a_sound_database_checks_the_copy(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copy.db"
    assert main(["backup", str(copy), "--db", str(db)]) == 0
    assert "checked the copy: 3 game(s), all sound." in capsys.readouterr().out
    assert main(["doctor", "--db", str(copy)]) == 0


def test_backup_into_a_read_only_folder_says_so(
    db: Path, read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = read_only_folder / "copy.db"
    assert main(["backup", str(copy), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert f"could not copy {db} to {copy}" in err and "writable by this user" in err
    assert "Traceback" not in err


def test_doctor_reports_a_game_in_a_status_it_does_not_know(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32 (finding 10): a game whose status is none of lobby/active/over/aborted/broken is
    never resumed, listed or played; doctor names it instead of counting it sound."""
    _sql(db, "UPDATE games SET status='paused' WHERE id=3")
    assert main(["doctor", "--db", str(db)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "game #3: its status 'paused' is not one Conductor knows." in lines
    assert lines[-1].startswith("3 game(s) checked: 1 damaged game(s).")


def test_export_takes_the_games_number_in_its_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32 (finding 9): `conductor export N` took the internal id, which no player ever sees;
    it takes the game's number in its server (`--server` the Discord server's id)."""

    async def fill(path: Path) -> list[int]:
        async with SqliteStore(path) as storage:
            return [
                await storage.create_game(
                    game_name="ttr", config={"board": b}, seed=1, max_players=5, space=space, creator="p:7"
                )
                for b, space in (
                    ("usa", "discord:guild:7"),
                    ("europe", "discord:guild:7"),
                    ("usa", "discord:guild:8"),
                )
            ]

    path = tmp_path / "c.db"
    ids = asyncio.run(fill(path))
    assert main(["export", "1", "--server", "8", "--db", str(path), "--out", str(tmp_path / "b.json")]) == 0
    assert json.loads((tmp_path / "b.json").read_text())["id"] == ids[2]
    assert main(["export", "2", "--server", "7", "--db", str(path), "--out", str(tmp_path / "a.json")]) == 0
    exported = json.loads((tmp_path / "a.json").read_text())
    assert (exported["id"], exported["config"]["board"]) == (ids[1], "europe")
    capsys.readouterr()
    assert main(["export", "2", "--server", "8", "--db", str(path)]) == 1
    assert f"there is no game #2 in server 8 in {path}." in capsys.readouterr().err
