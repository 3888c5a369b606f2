"""The command line for First Class: settings and card files chosen with --set/--cards on play,
simulate and rules; a terminal game a newcomer can follow (the table, the board and every choice
in words with a number to type); the human named, never "You keeps"."""

from __future__ import annotations

import io
import shutil
import sys
from importlib import resources
from pathlib import Path

import pytest

from bot.cli import main
from rules.firstclass.settings import SETTINGS


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _packaged(name: str, tmp_path: Path) -> Path:
    """A copy of a packaged card file, standing in for a group's own file of the same format."""
    target = tmp_path / name
    with resources.as_file(resources.files("rules.firstclass").joinpath("data", name)) as src:
        shutil.copy(src, target)
    return target


def test_rules_lists_every_setting_with_its_default_and_every_provisional_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(monkeypatch, capsys, ["rules", "--game", "first-class"])
    assert code == 0
    for s in SETTINGS:
        assert f"  {s.key} = " in out and s.question in out
    assert "  modules = A,O (default; choices A, O)" in out
    assert "Provisional values:" in out and "Locomotive tile 2: value 6" in out
    assert "Settings in force: conductor_start=0," in out


def test_rules_shows_a_changed_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "rules",
            "--game",
            "first-class",
            "--set",
            "car_supply=limited",
            "--set",
            "buy_game_end_in_scoring=no",
        ],
    )
    assert code == 0
    assert "car_supply=limited (changed)" in out and "buy_game_end_in_scoring=false (changed)" in out
    assert "  car_supply = limited (default unlimited; choices unlimited, limited)" in out


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("colour=red", "First Class has no setting 'colour'; its settings: modules,"),
        (
            "car_supply=infinite",
            "Setting car_supply (Railroad car supply) takes unlimited, limited; not 'infinite'.",
        ),
        ("conductor_start", "Write a setting as key=value"),
        ("buy_game_end_in_scoring=maybe", "Setting buy_game_end_in_scoring is true or false, not 'maybe'."),
    ],
)
def test_a_bad_setting_is_one_sentence_and_nothing_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], assignment: str, message: str
) -> None:
    for command in (["rules"], ["play", "--seat", "ai"], ["simulate", "--games", "1", "--quiet"]):
        code, out, err = _run(monkeypatch, capsys, [*command, "--game", "first-class", "--set", assignment])
        assert code == 2, command
        assert message in err and "Final scores" not in out


def test_card_files_are_told_apart_by_their_header(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ge = _packaged("open_game_end_cards.csv", tmp_path)
    tiles = _packaged("locomotive_tiles.csv", tmp_path)
    code, out, _ = _run(
        monkeypatch, capsys, ["rules", "--game", "first-class", "--cards", str(ge), "--cards", str(tiles)]
    )
    assert code == 0
    assert f"  game_end_deck = {ge}" in out and f"  tiles_file = {tiles}" in out
    odd = tmp_path / "notes.csv"
    odd.write_text("name,colour\nx,y\n", encoding="utf-8")
    code, _, err = _run(monkeypatch, capsys, ["rules", "--game", "first-class", "--cards", str(odd)])
    assert code == 2 and "is none of the card templates" in err
    code, _, err = _run(
        monkeypatch, capsys, ["rules", "--game", "first-class", "--cards", str(tmp_path / "nope.csv")]
    )
    assert code == 2 and "Cannot read the card file" in err


def test_a_card_file_that_breaks_the_counts_is_refused_with_the_loaders_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ge = _packaged("open_game_end_cards.csv", tmp_path)
    lines = ge.read_text(encoding="utf-8").splitlines()
    ge.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # 20 Game End cards
    code, _, err = _run(
        monkeypatch, capsys, ["play", "--game", "first-class", "--seat", "ai", "--cards", str(ge)]
    )
    assert code == 2 and "there are 20 Game End cards; the game has 21" in err


def test_simulate_takes_settings_and_counts_actions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "simulate",
            "--game",
            "first-class",
            "--players",
            "2",
            "--games",
            "1",
            "--quiet",
            "--set",
            "car_supply=limited",
            "--set",
            "conductor_start=1",
        ],
    )
    assert code == 0
    assert "game length in actions:" in out and "turns" not in out


def test_play_all_ai_with_settings_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "ai",
            "--seed",
            "2",
            "--quiet",
            "--set",
            "game_end_typing=kind",
        ],
    )
    assert code == 0 and "Final scores" in out


def test_terminal_turn_shows_table_board_offer_and_numbered_choices(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "human",
            "--seed",
            "3",
            "--name",
            "Ada",
        ],
        stdin="1\nquit\n",
    )
    assert code == 1  # abandoned by quit
    turn = out.split("Round 1 begins", 1)[1]  # the first turn after the setup draft
    for row in (1, 2, 3):
        assert f"Row {row}:" in turn
    assert turn.count("\n  6. ") == 3  # 3 rows of 6 cards, each with its position
    assert "Start Player tile: on offer at row 1" in turn
    assert "Game End cards on offer (15 in the pile): G" in turn
    for part in (
        "Upper train: cars [0]; conductor on the start plate",
        "Lower train:",
        "Coins: 1 (column 1 car: 1/5",
        "Route: locomotive at station 0",
        "Contracts: none open",
        "Your Game End cards (hidden from others): G",
    ):
        assert part in turn
    assert "   1 take,  2 forgo for 1 upgrade: row 1 card 1 (" in turn
    assert (
        "  35 take, 36 forgo for 1 upgrade: row 3 card 6 (" in turn
        and "  37. Take the Start Player tile" in turn
    )
    assert "Ada keeps a Game End card face down." in out
    assert "You keeps" not in out and "Seat 0" not in out


def test_terminal_accepts_numbers_and_text_and_explains_a_bad_number(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "human",
            "--seed",
            "3",
            "--name",
            "Ada",
        ],
        stdin="99\n2\nstart\nquit\n",
    )
    assert code == 1
    assert "✗ There is no choice 99; type a number from 1 to 2." in out
    assert "Ada keeps a Game End card face down." in out
    assert "Ada takes the Start Player tile" in out


def test_the_forgo_number_forgoes_the_card_on_that_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "human",
            "--seed",
            "3",
            "--name",
            "Ada",
        ],
        stdin="1\n4\nquit\n",
    )
    assert code == 1
    line = next(
        x for x in out.splitlines() if x.startswith("   3 take,  4 forgo for 1 upgrade: row 1 card 2 (")
    )
    card = line.split("(", 1)[1].split()[0]
    after = out.split(line, 1)[1]
    assert f"Ada takes {card} and forgoes its actions for one upgrade." in after


def test_first_class_help_comes_from_its_presenter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.games.firstclass.words import terminal_help

    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "human",
            "--seed",
            "3",
            "--name",
            "Ada",
        ],
        stdin="help\nquit\n",
    )
    assert code == 1
    assert terminal_help() in out
    assert "claim EU034" not in out and "tickets keep" not in out


def test_the_human_is_named_after_the_user_without_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "grace")
    code, out, _ = _run(
        monkeypatch,
        capsys,
        ["play", "--game", "first-class", "--players", "2", "--seat", "human", "--seed", "3"],
        stdin="1\nquit\n",
    )
    assert code == 1
    assert "Seat order: grace, AI 1 (heuristic)." in out and "grace keeps a Game End card" in out


def test_play_prints_the_rules_in_force_before_the_first_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "ai",
            "--seed",
            "4",
            "--set",
            "car_supply=limited",
        ],
    )
    assert code == 0
    summary, game = out.split("Game #1 started.", 1)
    assert "Settings in force: " in summary and "car_supply=limited (changed)" in summary
    assert "Provisional values:" in summary and "Final scores" in game


def test_terminal_plays_a_module_o_contract(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Module O's contracts (our own cards) are played in the terminal like Module A's: offered on the
    table with requirement and bonus in words, taken by text, listed open on the board, and a fulfil
    before the requirement is met is refused with the rule's sentence."""
    code, out, _ = _run(
        monkeypatch,
        capsys,
        [
            "play",
            "--game",
            "first-class",
            "--players",
            "2",
            "--seat",
            "human",
            "--seed",
            "3",
            "--name",
            "Ada",
        ],
        stdin="1\ntake O1-04\nfulfil O1-04\nquit\n",
    )
    assert code == 1  # abandoned by quit
    offer = "(O1-04 contract: conductor on space 2+ in each train -> 6 points)"
    assert offer in out.split("Round 1 begins", 1)[1]
    after = out.split("Ada takes contract O1-04: conductor on space 2+ in each train -> 6 points.", 1)[1]
    assert "  Contracts: O1-04: conductor on space 2+ in each train -> 6 points" in after
    assert (
        "✗ Contract O1-04 needs conductor on space 2+ in each train; you do not meet it yet "
        "(rule: The Contracts)." in after
    )
