"""Card data: the effect, station and requirement languages, the validator, the open deck, config."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from rules.errors import IllegalAction
from rules.firstclass import cards as C
from rules.firstclass import rules_summary
from rules.firstclass.board import supply_ok
from rules.firstclass.effects import (
    LanguageError,
    effects_to_text,
    parse_effects,
    parse_requirement,
    parse_stations,
)
from rules.firstclass.game import FirstClassGame
from rules.firstclass.settings import SETTINGS

REFERENCE = Path("/work/shared/reference/first-class")


def test_effect_language_round_trips_every_symbol_type() -> None:
    text = "car(2);up(0>1);upany(1);cond2(1);cond1(3);loco(2);coin(2);points(3);ge(1);choice(coin(2)|car(1);up(1>2))"
    terms = parse_effects(text)
    assert [t.op for t in terms] == [
        "car",
        "up",
        "upany",
        "cond2",
        "cond1",
        "loco",
        "coin",
        "points",
        "ge",
        "choice",
    ]
    assert effects_to_text(terms) == text
    assert [o[-1].op for o in terms[-1].options] == ["coin", "up"]


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("up(0>2)", "one step"),
        ("car(0)", "at least 1"),
        ("fly(2)", "unknown symbol"),
        ("car(2", "unbalanced"),
        ("choice(car(1))", "two options"),
    ],
)
def test_effect_language_errors_are_precise(bad: str, why: str) -> None:
    with pytest.raises(LanguageError) as exc:
        parse_effects(bad)
    assert why in str(exc.value)


def test_station_and_requirement_languages() -> None:
    st = parse_stations("P2|B[coin(1);car(1)]|P5")
    assert [s.kind for s in st] == ["P", "B", "P"] and st[1].effects == "coin(1);car(1)"
    with pytest.raises(LanguageError):
        parse_stations("X3")
    req = parse_requirement("count(value>=2,any)>=6 & seq(upper,[12,7,4])")
    assert [r.op for r in req] == ["count", "seq"]
    with pytest.raises(LanguageError):
        parse_requirement("seq(upper,[12,5])")
    with pytest.raises(LanguageError):
        parse_requirement("count(value>=2,middle)>=1")


def test_validator_accepts_the_open_deck_with_known_counts() -> None:
    cards = C.open_action_cards()
    assert C.validate_action_cards(cards, ["X", "A", "O"]) == []
    assert C.validate_game_end_cards(C.open_game_end_cards()) == []
    assert C.validate_locomotive_tiles(C.locomotive_tiles()) == []
    assert C.validate_mail_cars(C.mail_cars()) == []
    assert all("open deck" in c.source for c in cards)


def test_validator_errors_name_the_problem() -> None:
    cards = C.open_action_cards()
    short = [c for c in cards if c.id != "X2-05"]
    errs = C.validate_action_cards(short, ["X", "A", "O"])
    assert errs == ["pile 2 of set X has 23 cards; the rules need 24 (base cards: 24 per pile)"]
    route = next(c for c in cards if c.kind == "route")
    bad = [
        c if c.id != route.id else C.ActionCard(**{**c.to_json(), "route_stations": "P1|P1|P1|P1|P1"})
        for c in cards
    ]
    assert any("1 to 4 stations, this one has 5" in e for e in C.validate_action_cards(bad, ["X", "A", "O"]))
    mod = [c for c in cards if c.id != "A3-02"]
    assert (
        "pile 3 of set A has 7 cards; the rules need 8 (each module: 8 cards per pile)"
        in C.validate_action_cards(mod, ["X", "A"])
    )
    ge = C.open_game_end_cards()[:20]
    assert "there are 20 Game End cards; the game has 21" in C.validate_game_end_cards(ge)
    tiles = C.locomotive_tiles()
    assert any("from 5 to 15" in e for e in C.validate_locomotive_tiles(tiles[:-1]))
    dup = cards + [cards[0]]
    assert any("used twice" in e for e in C.validate_action_cards(dup, ["X"]))


def _strength(c: C.ActionCard) -> float:
    total = 0.0
    for t in parse_effects(c.effects):
        total += {"car": 1.0, "upany": 2.0, "cond2": 2.0, "cond1": 1.0, "loco": 1.5, "coin": 0.8}.get(
            t.op, 0
        ) * t.n
        if t.op == "up":
            total += t.b - t.a
    for s in parse_stations(c.route_stations):
        total += s.points if s.kind == "P" else 3
    return total


def test_open_deck_is_weaker_in_pile_1_and_stronger_in_pile_3() -> None:
    cards = [c for c in C.open_action_cards() if c.set == "X"]
    by_pile = [sum(_strength(c) for c in cards if c.pile == p) for p in (1, 2, 3)]
    assert by_pile[0] < by_pile[1] < by_pile[2]
    kinds = {p: sorted({c.kind for c in cards if c.pile == p}) for p in (1, 2, 3)}
    assert all(k == ["conductor", "locomotive", "railcar", "route"] for k in kinds.values())


def _write_deck(path: Path, cards: list[C.ActionCard]) -> None:
    header = (REFERENCE / "templates" / "action_cards.template.csv").read_text().strip().split(",")
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=header)
        w.writeheader()
        for c in cards:
            w.writerow(
                {
                    "id": c.id,
                    "set": c.set,
                    "pile": c.pile,
                    "kind": c.kind,
                    "game_end_type": c.game_end_type,
                    "effects": c.effects,
                    "requirement": c.requirement,
                    "bonus": c.bonus,
                    "route_stations": c.route_stations,
                    "source": "my copy",
                    "verified": "yes",
                }
            )


def test_load_published_cards_from_a_csv_in_the_template_format(tmp_path: Path) -> None:
    cards = [c for c in C.open_action_cards() if c.set in ("X", "A")]
    cards = [C.ActionCard(**{**c.to_json(), "id": "P" + c.id}) for c in cards]
    path = tmp_path / "deck.csv"
    _write_deck(path, cards)
    g = FirstClassGame.new({"deck": str(path)}, 2, 3)
    assert "loaded from" in g.deck.label and "PX1-01" in g.deck.cards
    assert "O1-01" in g.deck.cards  # our module O still fills the piles to 40
    _write_deck(path, cards[1:])
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.new({"deck": str(path)}, 2, 3)
    assert exc.value.code == "invalid_deck" and "pile 1 of set X has 23 cards" in exc.value.message
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.new({"deck": str(tmp_path / "missing.csv")}, 2, 3)
    assert exc.value.code == "invalid_deck"


def test_pile_needs_36_cards_for_two_rounds() -> None:
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.new({"modules": ["A"]}, 2, 1)
    assert "two rounds of 18 need 36" in exc.value.message


@pytest.mark.parametrize("letter", ["B", "C", "D", "E"])
def test_modules_b_to_e_are_listed_but_not_playable(letter: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.new({"modules": ["A", letter]}, 2, 1)
    assert exc.value.code == "module_not_playable" and f"Module {letter}" in exc.value.message
    assert letter in rules_summary({})


def test_open_questions_are_settings_with_documented_defaults() -> None:
    rows = list(csv.DictReader((REFERENCE / "open_questions.csv").open()))
    questions = {s.question for s in SETTINGS}
    assert {"Q1", "Q3", "Q4", "Q7", "Q8", "Q9", "Q10"} <= questions
    assert {r["id"] for r in rows} >= questions
    defaults = {s.question: s.default for s in SETTINGS}
    assert defaults["Q1"] == 0 and defaults["Q8"] == "unlimited" and defaults["Q10"] is True
    summary = rules_summary({})
    for s in SETTINGS:
        assert s.key in summary
    for r in rows:  # every open question is answered in the summary, as a setting or a labelled value
        assert f"{r['id']} " in summary or f"{r['id']}," in summary or f"{r['id']})" in summary, r["id"]
    with pytest.raises(IllegalAction):
        FirstClassGame.new({"car_supply": "plenty"}, 2, 1)
    with pytest.raises(IllegalAction):
        FirstClassGame.new({"colour": "red"}, 2, 1)


def test_provisional_values_are_labelled_in_data_summary_and_view() -> None:
    summary = rules_summary({})
    assert "Provisional values" in summary and "mail car 3" in summary and "Locomotive tile 2" in summary
    assert "player board station" in summary
    g = FirstClassGame.new({}, 2, 1)
    view = g.view(None)
    assert view["provisional"] and "open deck" in view["deck_label"]
    events = []
    while g.s["phase"] == "draft":
        seat = g.seats_to_act()[0]
        events += g.apply(seat, g.legal_actions(seat)[0])
    setup = next(e for e in events if e["type"] == "setup")
    assert "Conductor open deck" in setup["text"] and setup["sources"] == [[["X", "A", "O"], ""]]


def test_conductor_start_setting() -> None:
    g = FirstClassGame.new({"conductor_start": 1}, 2, 1)
    assert g.s["players"][0]["cond"] == {"upper": 1, "lower": 1}


def test_limited_car_supply_setting() -> None:
    g = FirstClassGame.new({"car_supply": "limited"}, 2, 1)
    g.s["players"][0]["trains"]["upper"] = [12] * 9
    g.s["players"][1]["trains"]["upper"] = [12] * 9
    g.s["players"][1]["trains"]["lower"] = [7, 7]
    g.s["players"][0]["trains"]["lower"] = [4]
    assert supply_ok(g, 7, 4) is False  # all 20 7/12 cards are in use
    assert supply_ok(g, 12, 7) is True  # flipping the same card
    assert "supply" in (g.upgrade_error(0, "lower", 1) or "")


def test_module_is_a_data_file_plus_rule_hooks() -> None:
    from rules.firstclass.settings import MODULES, take_hook

    assert MODULES["A"].data_file == "module_A.csv" and take_hook(["A", "O"], "contract") == "place_contract"
    assert take_hook(["O"], "contract") == "place_contract"  # every module includes contracts
    assert all(MODULES[m].data_file is None and not MODULES[m].playable for m in "BCDE")
    cards = C.open_action_cards()
    assert {c.set for c in cards} == {"X", "A", "O"}


def test_owners_can_enter_tiles_mail_cars_and_board_route_from_template_files(tmp_path: Path) -> None:
    tiles = tmp_path / "tiles.csv"
    header = (REFERENCE / "templates" / "locomotive_tiles.template.csv").read_text().strip()
    rows = [
        f"{i},{v},{2 if i <= 4 else ''},{2 if i <= 4 else 1 if i <= 6 else ''},{2 if i <= 4 else 1},"
        f"{'yes' if i <= 4 else 'no'},{'yes' if i <= 6 else 'no'},yes,my copy,yes"
        for i, v in enumerate([5, 6, 8, 9, 10, 11, 13, 15], start=1)
    ]
    tiles.write_text(header + "\n" + "\n".join(rows) + "\n")
    mails = tmp_path / "mails.csv"
    mails.write_text(
        (REFERENCE / "templates" / "mail_cars.template.csv").read_text().strip() + "\n"
        "1,loco(2),all,my copy,yes\n2,up(0>1);up(0>1),all,my copy,yes\n"
        "3,coin(3),all,my copy,yes\n4,cond2(1),all,my copy,yes\n"
    )
    board = tmp_path / "board.csv"
    board.write_text(
        (REFERENCE / "templates" / "player_board_route.template.csv").read_text().strip() + "\n"
        "1,bonus,,coin(2),,my copy,yes\n2,points,3,,,my copy,yes\n3,points,5,,,my copy,yes\n"
    )
    g = FirstClassGame.new(
        {"tiles_file": str(tiles), "mail_cars_file": str(mails), "board_route_file": str(board)}, 3, 1
    )
    assert g.deck.provisional == ()
    assert [t.value for t in g.deck.tiles][2] == 8 and g.deck.mails[4].bonus == "cond2(1)"
    assert g.deck.board_route == "B[coin(2)]|P3|P5"
    assert "Provisional values" in rules_summary({"tiles_file": str(tiles)})
    board.write_text("station_index,kind,points,bonus,clock_icon,source,verified\n1,points,3,,,x,yes\n")
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.new({"board_route_file": str(board)}, 2, 1)
    assert "3 pre-printed stations" in exc.value.message
