"""The operators' commands (``backup``, ``doctor``, ``export``, ``simulate``, ``render``, ``run``)
print their sentences in the reader's language (``--lang``, else the locale); paths, numbers and
option names stay as they are. The English output is checked unchanged by tests/bot/test_cli.py
and tests/bot/test_doctor_cli.py.

Promises checked: results, summaries, progress lines and errors are the catalog's; a damaged
game's reason is worded for the reader (the reason the bot stores stays English); no English
sentence of the catalog is left; the process is back in English after each command.
"""

from __future__ import annotations

import importlib.util
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import lang
from bot.cli import main
from lang.extract import committed_template

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def english() -> list[str]:
    """The catalog's English sentences, as tests/e2e/english_scan.py defines a leak."""
    spec = importlib.util.spec_from_file_location("english_scan", ROOT / "tests" / "e2e" / "english_scan.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.english_sentences(committed_template("conductor")))


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    lang.set_language("en")


def _leaks(text: str, english: list[str]) -> list[str]:
    flat = " ".join(text.split())
    return [sentence for sentence in english if sentence in flat]


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A database holding one finished two-player Swiss game (game #1)."""
    path = tmp_path / "conductor.db"
    assert (
        main(
            [
                "play",
                "--map",
                "switzerland",
                "--players",
                "2",
                "--seat",
                "ai",
                "--seed",
                "3",
                "--quiet",
                "--db",
                str(path),
                "--lang",
                "en",
            ]
        )
        == 0
    )
    capsys.readouterr()
    return path


def _set_stale_move_number(db: Path) -> tuple[int, int]:
    """Damage game #1 the way a lost write would: its stored move number one behind its log."""
    with sqlite3.connect(db) as conn:
        seq = int(conn.execute("SELECT seq FROM games WHERE id=1").fetchone()[0])
        conn.execute("UPDATE games SET seq=seq-1 WHERE id=1")
    conn.close()
    return seq - 1, seq


def test_backup_and_doctor_on_a_sound_database(
    db: Path, tmp_path: Path, english: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``backup`` in Italian, ``doctor`` in German: every line the catalog's, paths as given."""
    copy = tmp_path / "copia.db"
    assert main(["backup", str(copy), "--db", str(db), "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"copia di sicurezza di {db} scritta in {copy}",
        "copia controllata: 1 partita, integra.",
    ]
    assert lang.current() == "en"
    assert main(["doctor", "--db", str(copy), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        f"Datenbank {copy}",
        "SQLite-Integritätsprüfung: in Ordnung",
        "1 Partie geprüft: fehlerfrei.",
    ]


def test_doctor_backup_and_export_word_a_damaged_game_for_the_reader(
    db: Path, tmp_path: Path, english: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """A stale move number: doctor (French), backup (German) and export (Italian) name the damage
    in the reader's words, with its numbers, and exit 1; nothing is exported."""
    seq, last = _set_stale_move_number(db)
    assert main(["doctor", "--db", str(db), "--lang", "fr"]) == 1
    out = capsys.readouterr().out
    assert (
        f"partie n° 1 : son numéro de coup enregistré est {seq}, mais son journal des coups s'arrête au "
        f"coup {last}."
    ) in out
    assert out.splitlines()[-1].startswith(
        "1 partie vérifiée : parties endommagées : 1. Restaurez depuis une copie"
    )
    assert not _leaks(out, english)

    copy = tmp_path / "kopie.db"
    assert main(["--lang", "de", "backup", str(copy), "--db", str(db)]) == 1
    captured = capsys.readouterr()
    assert captured.out.strip() == f"{db} nach {copy} gesichert"
    assert (
        f"conductor backup: die Kopie {copy} wurde geschrieben, enthält aber Schäden aus {db}:"
        in captured.err
    )
    assert (
        f"Partie Nr. 1: ihre gespeicherte Zugnummer ist {seq}, aber ihr Zugprotokoll endet bei Zug {last}."
        in captured.err
    )
    assert not _leaks(captured.out + captured.err, english)

    out_file = tmp_path / "partita.json"
    assert main(["export", "1", "--db", str(db), "--out", str(out_file), "--lang", "it"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "conductor export: la partita n. 1 non si può esportare: il numero di mossa salvato è "
        f"{seq}, ma il suo registro delle mosse finisce alla mossa {last}. Non è stato scritto"
    )
    assert not out_file.exists()


def test_export_and_missing_databases_in_the_readers_language(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "game.json"
    assert main(["export", "1", "--db", str(db), "--out", str(out_file), "--lang", "de"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("Partie Nr. 1 (") and out.endswith(f" Züge) nach {out_file} geschrieben")
    assert main(["export", "9", "--db", str(db), "--lang", "it"]) == 1
    assert f"conductor export: non c'è nessuna partita n. 9 in {db}." in capsys.readouterr().err
    nowhere = tmp_path / "nowhere.db"
    assert main(["doctor", "--db", str(nowhere), "--lang", "fr"]) == 1
    assert (
        f"conductor doctor: il n'y a pas de base de données à {nowhere} (définissez CONDUCTOR_DB ou passez --db)."
        in capsys.readouterr().err
    )
    assert main(["backup", str(tmp_path / "x.db"), "--db", str(nowhere), "--lang", "de"]) == 1
    assert f"keine Datenbank unter {nowhere} (setze CONDUCTOR_DB oder gib --db an)" in capsys.readouterr().err


def test_simulate_summarises_in_the_locales_language(
    monkeypatch: pytest.MonkeyPatch, english: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``--lang``: the locale (German) words the summary and the speed line; the numbers and
    the AI kinds are as in English."""
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert main(["simulate", "--map", "switzerland", "--players", "2", "--games", "2", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].endswith(": 2 Partien, 2 Spieler, Seeds 4..5")
    assert lines[1].startswith("Punkte: Mittel ") and ", Std.-Abw. " in lines[1] and ", Min. " in lines[1]
    assert lines[2].startswith("  Platz 1 (heuristic): Mittel ") and ", Siege " in lines[2]
    assert any(line.startswith("erfüllte Zielkarten pro Spieler: Mittel ") for line in lines)
    assert any(line.startswith("Partielänge in Zügen: Mittel ") for line in lines)
    assert lines[-1].startswith("Siegquote des ersten Platzes: ") and lines[-1].endswith(" %")
    assert "2/2 Partien" in captured.err and "Tempo: " in captured.err and "games/s" not in captured.err
    assert not _leaks(captured.out + captured.err, english)
    monkeypatch.setenv("LC_ALL", "C")
    assert main(["simulate", "--games", "0"]) == 2
    assert capsys.readouterr().err.strip() == "--games must be at least 1."
    assert main(["simulate", "--games", "0", "--lang", "it"]) == 2
    assert capsys.readouterr().err.strip() == "--games deve essere almeno 1."


def test_run_and_render_refuse_in_the_readers_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run`` without a token (French) and ``render`` with a seat out of range (Italian): the
    sentence that says what to do is the reader's."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run", "--env-file", str(tmp_path / "none.env"), "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "conductor run: pas de DISCORD_TOKEN. Créez une application sur "
        "https://discord.com/developers/applications"
    )
    pytest.importorskip("PIL")
    assert (
        main(
            [
                "render",
                "--map",
                "switzerland",
                "--players",
                "2",
                "--turns",
                "1",
                "--seat",
                "5",
                "--out",
                str(tmp_path / "x.png"),
                "--lang",
                "it",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.strip() == "conductor render: --seat deve essere tra 0 e 1"


def test_a_card_option_refusal_keeps_its_facts_in_every_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--cards`` naming a file that cannot be read, or given to a game without card files: the
    refusal names the file (or the game) in the reader's words, not a generic "setting" sentence."""
    missing = tmp_path / "mazzo.csv"
    assert main(["rules", "--game", "first-class", "--cards", str(missing), "--lang", "it"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"conductor rules: Il file di carte {missing} non si può leggere (")
    assert main(["rules", "--game", "ttr", "--cards", str(missing), "--lang", "de"]) == 2
    assert capsys.readouterr().err.strip() == "conductor rules: Ticket to Ride lädt keine Kartendateien."
    assert main(["rules", "--game", "ttr", "--cards", str(missing), "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == "conductor rules: Ticket to Ride loads no card files."


def test_run_keeps_the_bot_in_english_whatever_the_operators_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``conductor run --lang de``: German is for the operator's terminal; the bot starts from the
    process's English default (it words each message for its reader and keeps records in English)."""
    import bot.discord_app.client as client

    seen: list[str] = []

    class FakeBot:
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.service = type("Service", (), {"takeover_ai": None})()

        async def __aenter__(self) -> FakeBot:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def start(self, token: str) -> None:
            seen.append(lang.current())

        async def close(self) -> None:
            return None

    monkeypatch.setattr(client, "ConductorBot", FakeBot)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    assert main(["run", "--env-file", str(tmp_path / "none.env"), "--workers", "0", "--lang", "de"]) == 0
    assert seen == ["en"]


def test_render_draws_with_the_labels_of_the_readers_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``conductor render --lang fr``: the board is drawn for a French reader (the renderer picks
    its labels from the view's language) and the result line is French."""
    pytest.importorskip("PIL")
    import render.ttr

    drawn: list[object] = []

    def fake_board(view: dict[str, object], names: object = None) -> bytes:
        drawn.append(view.get("language"))
        return b"png"

    monkeypatch.setattr(render.ttr, "render_board", fake_board)
    out = tmp_path / "plateau.png"
    assert (
        main(
            [
                "render",
                "--map",
                "switzerland",
                "--players",
                "2",
                "--turns",
                "1",
                "--out",
                str(out),
                "--lang",
                "fr",
            ]
        )
        == 0
    )
    assert drawn == ["fr"]
    assert capsys.readouterr().out.strip() == f"{out} écrit (0 Ko, tour 1)"


@pytest.mark.parametrize(
    ("code", "start"),
    [("de", "Ersatzstapel: Zug um Zug Deutschland"), ("it", "Mazzo sostitutivo: Ticket to Ride Germania")],
)
def test_conductor_render_draws_the_boards_data_notes_in_the_readers_language(code: str, start: str) -> None:
    """``conductor render`` words the engine's caveats drawn under the map (the Märklin board's
    stand-in ticket deck, provisional merchandise) as the bot's pictures do, not in English."""
    from bot.commands.render import in_reader_language
    from rules.games import find_game

    view = dict(find_game("ttr").new({"board": "germany"}, 2, 1).view(None))
    assert any(str(n).startswith("Stand-in deck") for n in view["notes"])
    with lang.using(code):
        drawn = in_reader_language(view)
    assert drawn["language"] == code
    assert any(str(n).startswith(start) for n in drawn["notes"]), drawn["notes"]
    assert not any("Stand-in" in str(n) or "Merchandise:" in str(n) for n in drawn["notes"])
