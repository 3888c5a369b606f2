"""First Class settings as data in the game registry (GameSpec.settings): every open rule question
with its documented default, the modules among the playable ones, the card files; parsing gives a
sentence for anything the game does not take. And where the cards of a game come from: a group's
file is never mixed with our module O unless they choose it, every source is named, and a pile too
short for two rounds says exactly how many cards are missing."""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

import pytest

from rules.errors import IllegalAction
from rules.firstclass.cards import OPEN_DECK_LABEL, ActionCard, assemble_action_cards, card_file_key
from rules.firstclass.settings import FILE_KEYS, MODULES, SETTINGS
from rules.firstclass.summary import rules_summary
from rules.games import find_game


def test_every_rules_setting_is_offered_with_its_documented_default() -> None:
    spec = find_game("first-class")
    offered = {s.key: s for s in spec.settings}
    for s in SETTINGS:
        assert offered[s.key].default == s.default
        assert offered[s.key].choices == s.allowed
        assert s.question in offered[s.key].help
    assert offered["buy_game_end_in_scoring"].kind == "bool"
    assert offered["conductor_start"].kind == "int"
    assert offered["car_supply"].kind == "choice"


def test_modules_offered_are_the_playable_ones_and_files_are_file_settings() -> None:
    offered = {s.key: s for s in find_game("first-class").settings}
    assert offered["modules"].multiple
    assert set(offered["modules"].choices) == {m.letter for m in MODULES.values() if m.playable}
    assert all(offered[key].kind == "file" and offered[key].default is None for key in FILE_KEYS)


def test_ticket_to_ride_has_only_the_shared_settings() -> None:
    """Board and variant have their own options; Ticket to Ride's rules take no setting, so only
    the settings every game shares (rules/ai_settings.py, rules/takeback.py) are offered."""
    assert [s.key for s in find_game("ttr").settings] == ["ai_think_ms", "takeover_ai", "take_backs"]


def test_parsing_settings_gives_config_values() -> None:
    spec = find_game("first-class")
    config = spec.parse_settings(
        ["modules=a, o", "buy_game_end_in_scoring=off", "conductor_start=1", "game_end_typing=KIND"]
    )
    assert config == {
        "modules": ["A", "O"],
        "buy_game_end_in_scoring": False,
        "conductor_start": 1,
        "game_end_typing": "kind",
    }
    assert spec.new(spec.config_for(extra=config), 2, 1).config["conductor_start"] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("modules=B", "Setting modules (Modules) takes A, O; not 'B'."),
        ("conductor_start=one", "Setting conductor_start is a whole number, not 'one'."),
        ("conductor_start=3", "takes 0, 1; not '3'."),
        ("deck=", "Setting deck needs the path of a file."),
        ("nonsense=1", "First Class has no setting 'nonsense'"),
    ],
)
def test_a_value_the_game_does_not_take_is_one_sentence(text: str, message: str) -> None:
    with pytest.raises(IllegalAction) as err:
        find_game("first-class").parse_settings([text])
    assert message in err.value.message


def test_rules_summary_states_the_settings_in_force() -> None:
    lines = rules_summary({"car_supply": "limited"})
    in_force = next(line for line in lines if line.startswith("Settings in force: "))
    assert "car_supply=limited (changed)" in in_force
    assert "conductor_start=0," in in_force and "buy_game_end_in_scoring=true" in in_force


def _write_group_file(path: Path, sets: set[str]) -> Path:
    """A group's card file: the packaged cards of ``sets`` copied into one file (same format)."""
    rows: list[dict[str, str]] = []
    for name in ("open_base_cards.csv", "module_A.csv", "module_O.csv"):
        text = resources.files("rules.firstclass").joinpath("data", name).read_text(encoding="utf-8")
        rows += [r for r in csv.DictReader(text.splitlines()) if r["set"] in sets]
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_a_groups_base_and_module_a_are_not_mixed_with_ours(tmp_path: Path) -> None:
    deck = _write_group_file(tmp_path / "ours.csv", {"X", "A"})
    got = assemble_action_cards(["A"], str(deck))
    assert {c.set for c in got.cards} == {"X", "A"}
    assert got.label == f"base cards and module A loaded from {deck}"
    assert OPEN_DECK_LABEL not in got.label


def test_a_short_pile_says_exactly_how_many_cards_are_missing(tmp_path: Path) -> None:
    deck = _write_group_file(tmp_path / "ours.csv", {"X", "A"})
    got = assemble_action_cards(["A"], str(deck))
    assert len(got.shortfall) == 3
    assert got.shortfall[0].startswith(
        "pile 1 (green) has 32 cards (24 base, 8 module A); two rounds of 18 need 36, so 4 more pile-1 cards are missing"
    )
    assert "modules=A,O" in got.shortfall[0] and str(deck) in got.shortfall[0]


def test_module_o_chosen_with_a_groups_file_is_named_as_ours(tmp_path: Path) -> None:
    deck = _write_group_file(tmp_path / "ours.csv", {"X", "A"})
    got = assemble_action_cards(["A", "O"], str(deck))
    assert got.shortfall == []
    assert got.sources == [f"base cards and module A loaded from {deck}", f"module O from {OPEN_DECK_LABEL}"]
    ours = {c.id for c in got.cards if c.set == "O"}
    assert ours and all(c.source.startswith("Conductor open deck") for c in got.cards if c.id in ours)


def test_a_groups_file_with_every_chosen_set_is_used_alone(tmp_path: Path) -> None:
    deck = _write_group_file(tmp_path / "all.csv", {"X", "A", "O"})
    got = assemble_action_cards(["A", "O"], str(deck))
    assert got.sources == [f"base cards, module A and module O loaded from {deck}"]


def test_card_files_are_recognised_by_their_header(tmp_path: Path) -> None:
    deck = _write_group_file(tmp_path / "d.csv", {"X"})
    assert card_file_key(str(deck)) == "deck"
    other = tmp_path / "o.csv"
    other.write_text("slot,bonus,colors\n1,loco(2),all\n", encoding="utf-8")
    assert card_file_key(str(other)) == "mail_cars_file"
    other.write_text("foo\n", encoding="utf-8")
    with pytest.raises(IllegalAction, match="is none of the card templates") as caught:
        card_file_key(str(other))
    assert caught.value.code == "invalid_deck"


def test_without_a_file_every_card_is_from_the_open_deck() -> None:
    got = assemble_action_cards(["A", "O"], None)
    assert got.label == OPEN_DECK_LABEL
    assert all(isinstance(c, ActionCard) and c.source.startswith("Conductor open deck") for c in got.cards)
    assert {c.set for c in got.cards} == {"X", "A", "O"} and got.shortfall == []
