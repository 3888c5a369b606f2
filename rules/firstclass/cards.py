"""Card data for First Class: loading the CSV files and validating a card list.

The published per-card data is not available to the project, so the packaged files are "the
Conductor open deck" (cards of our own design, built from the symbol types the rulebook
describes) plus component facts with clearly labelled provisional values. A group that owns the
game can load its own cards from a CSV in the documented template format (see
``shared/reference/first-class/templates``) with ``config["deck"]`` / ``config["game_end_deck"]``.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.errors import IllegalAction
from rules.firstclass.effects import LanguageError, parse_effects, parse_requirement, parse_stations
from rules.firstclass.settings import OPEN_DECK_EDITION, OPEN_DECK_EDITIONS

OPEN_DECK_LABEL = "the Conductor open deck (cards of our own design, not the published First Class cards)"
BASE_PER_PILE = 24
MODULE_PER_PILE = 8
GAME_END_TOTAL = 21
GAME_END_TYPES = ("railcar", "locomotive", "conductor")
ACTION_KINDS = [
    "railcar",
    "conductor",
    "locomotive",
    "route",
    "contract",
    "money",
    "game_end",
    "celebrity",
    "postcard",
    "passenger",
    "luggage",
    "switch",
    "mechanic",
    "murder",
    "storage",
    "factory",
    "magician",
    "other",
]
ACTION_COLUMNS = [
    "id",
    "set",
    "pile",
    "kind",
    "game_end_type",
    "effects",
    "requirement",
    "bonus",
    "route_stations",
    "clock_icon",
    "raw_text",
    "source",
    "verified",
]
GAME_END_COLUMNS = ["id", "type", "points", "one_time_bonus", "raw_text", "source", "verified"]


@dataclass(frozen=True)
class ActionCard:
    """One Action card (base card "X" or a module card) as data."""

    id: str
    set: str
    pile: int
    kind: str
    game_end_type: str
    effects: str
    requirement: str
    bonus: str
    route_stations: str
    source: str

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class GameEndCard:
    """A Game End card: a base Action card type, points per matching card, a one-time bonus."""

    id: str
    type: str
    points: int
    bonus: str
    source: str

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class LocoTile:
    """A Locomotive tile: printed value and upgrades of choice by player count (0 = not used)."""

    order: int
    value: int
    upgrades: tuple[int, int, int]  # for 2, 3, 4 players
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "order": self.order,
            "value": self.value,
            "upgrades": list(self.upgrades),
            "provisional": self.provisional,
        }


@dataclass(frozen=True)
class MailCar:
    """One of a player's 4 mail cars: its slot number and the bonus it gives when added."""

    slot: int
    bonus: str
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        return {"slot": self.slot, "bonus": self.bonus, "provisional": self.provisional}


class Problem(str):
    """One problem with card data: the English sentence (the string itself, kept for logs and
    English readers), a ``code`` and the facts it names (``params``: file, line, column, value,
    card...), so a front end words it in its reader's language (:mod:`lang.refusals`)."""

    code: str
    params: dict[str, str | int]

    def __new__(cls, code: str, english: str, **params: str | int) -> Problem:
        obj = super().__new__(cls, english)
        obj.code = code
        obj.params = dict(params)
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        return _problem, (self.code, str(self), self.params)


def _problem(code: str, english: str, params: dict[str, str | int]) -> Problem:
    return Problem(code, english, **params)


class CardFileError(ValueError):
    """A card file that cannot be read as its template: the :class:`Problem` says where and why."""

    def __init__(self, code: str, english: str, **params: str | int) -> None:
        super().__init__(english)
        self.problem = Problem(code, english, **params)

    def __reduce__(self) -> tuple[Any, ...]:
        return _card_file_error, (self.problem,)


def _card_file_error(problem: Problem) -> CardFileError:
    return CardFileError(problem.code, str(problem), **problem.params)


def file_name(path: str) -> str:
    """A card file as players name it: its file name (a path may be a saved copy's)."""
    return os.path.basename(path) or path


def _read_package_csv(name: str, edition: int = OPEN_DECK_EDITION) -> list[dict[str, str]]:
    """A packaged card file of an edition: ``data/edition<n>/`` holds the files an older edition
    had otherwise, the rest are shared."""
    data = resources.files("rules.firstclass").joinpath("data")
    older = data.joinpath(f"edition{edition}", name)
    path = older if edition != OPEN_DECK_EDITION and older.is_file() else data.joinpath(name)
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def read_csv_path(path: str) -> list[dict[str, str]]:
    """The rows of a card file; CardFileError (with its problem's code) when it cannot be read."""
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            return list(csv.DictReader(fh))
    except FileNotFoundError as exc:
        raise CardFileError("card_file_missing", str(exc), file=file_name(path)) from None
    except OSError as exc:
        raise CardFileError(
            "card_file_unreadable", str(exc), file=file_name(path), reason=str(exc.strerror or exc)
        ) from None
    except UnicodeDecodeError:
        raise CardFileError(
            "card_file_not_text", f"{path}: not a text file in UTF-8", file=file_name(path)
        ) from None
    except csv.Error as exc:
        raise CardFileError(
            "card_file_not_csv", f"{path}: not a CSV file ({exc})", file=file_name(path)
        ) from None


class InvalidCards(IllegalAction):
    """The card data a game asks for cannot be used: ``invalid_deck`` with every :class:`Problem`
    (``parts``), so each is worded in the reader's language with its file, line, column and value."""

    def __init__(self, message: str, parts: list[Problem]) -> None:
        super().__init__("invalid_deck", message)
        self.parts: tuple[Problem, ...] = tuple(parts)

    def __reduce__(self) -> tuple[Any, ...]:
        return InvalidCards, (self.message, list(self.parts))


def _int(row: dict[str, str], key: str, where: str, file: str = "", line: int = 0) -> int:
    raw = (row.get(key) or "").strip()
    try:
        return int(raw)
    except ValueError:
        raise CardFileError(
            "card_file_number",
            f"{where}: column {key!r} must be a whole number, got {raw!r}",
            file=file_name(file),
            line=line,
            column=key,
            value=raw,
        ) from None


def action_cards_from_rows(rows: list[dict[str, str]], where: str = "deck") -> list[ActionCard]:
    """Build Action cards from template rows; raises ValueError naming the row on bad columns."""
    out: list[ActionCard] = []
    for i, row in enumerate(rows, start=2):
        missing = [c for c in ("id", "set", "pile", "kind") if c not in row]
        if missing:
            raise CardFileError(
                "card_file_columns",
                f"{where}: missing column(s) {', '.join(missing)}; expected {','.join(ACTION_COLUMNS)}",
                file=file_name(where),
                columns=", ".join(missing),
                expected=",".join(ACTION_COLUMNS),
            )
        here = f"{where} line {i} ({row.get('id', '?')})"
        out.append(
            ActionCard(
                id=(row["id"] or "").strip(),
                set=(row["set"] or "").strip().upper(),
                pile=_int(row, "pile", here, where, i),
                kind=(row["kind"] or "").strip(),
                game_end_type=(row.get("game_end_type") or "").strip(),
                effects=(row.get("effects") or "").strip(),
                requirement=(row.get("requirement") or "").strip(),
                bonus=(row.get("bonus") or "").strip(),
                route_stations=(row.get("route_stations") or "").strip(),
                source=(row.get("source") or "").strip(),
            )
        )
    return out


def game_end_cards_from_rows(rows: list[dict[str, str]], where: str = "game end deck") -> list[GameEndCard]:
    out: list[GameEndCard] = []
    for i, row in enumerate(rows, start=2):
        here = f"{where} line {i} ({row.get('id', '?')})"
        out.append(
            GameEndCard(
                id=(row.get("id") or "").strip(),
                type=(row.get("type") or "").strip(),
                points=_int(row, "points", here, where, i),
                bonus=(row.get("one_time_bonus") or "").strip(),
                source=(row.get("source") or "").strip(),
            )
        )
    return out


def open_action_cards(edition: int = OPEN_DECK_EDITION) -> list[ActionCard]:
    """The open deck: our base cards plus the card file of every playable module."""
    from rules.firstclass.settings import MODULES

    assert edition in OPEN_DECK_EDITIONS, edition
    files = ["open_base_cards.csv"] + [m.data_file for m in MODULES.values() if m.data_file]
    out: list[ActionCard] = []
    for name in files:
        out += action_cards_from_rows(_read_package_csv(name, edition), name)
    return out


def open_game_end_cards(edition: int = OPEN_DECK_EDITION) -> list[GameEndCard]:
    rows = _read_package_csv("open_game_end_cards.csv", edition)
    return game_end_cards_from_rows(rows, "open_game_end_cards.csv")


def locomotive_tiles(
    rows: list[dict[str, str]] | None = None, where: str = "locomotive_tiles.csv"
) -> list[LocoTile]:
    """Locomotive tiles from template rows (default: the packaged file with provisional values)."""
    out: list[LocoTile] = []
    for i, row in enumerate(rows if rows is not None else _read_package_csv("locomotive_tiles.csv"), start=2):
        here = f"locomotive tiles line {i}"
        ups = tuple(
            _int(row, f"upgrades_{p}p", here, where, i)
            if (row.get(f"used_{p}p") or "").strip() == "yes"
            else 0
            for p in (2, 3, 4)
        )
        out.append(
            LocoTile(
                _int(row, "order", here, where, i),
                _int(row, "value", here, where, i),
                (ups[0], ups[1], ups[2]),
                "PROVISIONAL" in (row.get("source") or ""),
            )
        )
    return out


def mail_cars(rows: list[dict[str, str]] | None = None, where: str = "mail_cars.csv") -> list[MailCar]:
    """The 4 mail cars from template rows (default: the packaged file, slots 3-4 provisional)."""
    return [
        MailCar(
            _int(r, "slot", f"mail cars line {i}", where, i),
            (r.get("bonus") or "").strip(),
            "PROVISIONAL" in (r.get("source") or ""),
        )
        for i, r in enumerate(rows if rows is not None else _read_package_csv("mail_cars.csv"), start=2)
    ]


def board_route(
    rows: list[dict[str, str]] | None = None, where: str = "player_board_route.csv"
) -> tuple[str, list[str]]:
    """The pre-printed stations as station text, and which of them are provisional."""
    parts: list[str] = []
    provisional: list[str] = []
    for i, r in enumerate(rows if rows is not None else _read_package_csv("player_board_route.csv"), start=2):
        kind = (r.get("kind") or "").strip()
        if kind == "start":
            continue
        if kind not in ("points", "bonus"):
            raise CardFileError(
                "card_file_station_kind",
                f"player board station {r.get('station_index')}: kind must be start, points or bonus",
                file=file_name(where),
                line=i,
                value=kind,
            )
        text = (
            f"P{(r.get('points') or '').strip()}"
            if kind == "points"
            else f"B[{(r.get('bonus') or '').strip()}]"
        )
        parts.append(text)
        if "PROVISIONAL" in (r.get("source") or ""):
            provisional.append(f"station {r.get('station_index')} ({text})")
    return "|".join(parts), provisional


def validate_board_route(route: str) -> list[Problem]:
    try:
        stations = parse_stations(route)
    except LanguageError as exc:
        return [Problem("route_symbols", f"player board route: {exc}", value=route)]
    if len(stations) != 3:
        return [
            Problem(
                "route_station_count",
                f"the player board has 3 pre-printed stations after Paris; this one has {len(stations)}",
                n=len(stations),
            )
        ]
    return []


# --- validation ---------------------------------------------------------------------------------


def validate_action_cards(cards: list[ActionCard], sets: list[str]) -> list[Problem]:
    """Every problem with ``cards`` for play with the given sets ("X" plus module letters).

    Checks the known counts (24 base cards per pile, 8 per module per pile), unique ids, known
    kinds, and that every effect, requirement and route parses in the card languages.
    """
    errors: list[Problem] = []
    seen: set[str] = set()
    for c in cards:
        label = f"card {c.id or '(no id)'}"
        card = c.id or "?"
        if not c.id:
            errors.append(Problem("card_no_id", f"{label}: every card needs an id"))
        elif c.id in seen:
            errors.append(Problem("card_id_twice", f"{label}: the id is used twice", card=card))
        seen.add(c.id)
        if c.pile not in (1, 2, 3):
            errors.append(
                Problem(
                    "card_bad_pile",
                    f"{label}: pile must be 1 (green), 2 (blue) or 3 (red), got {c.pile}",
                    card=card,
                    value=c.pile,
                )
            )
        if c.kind not in ACTION_KINDS:
            errors.append(
                Problem("card_bad_kind", f"{label}: unknown kind {c.kind!r}", card=card, value=c.kind)
            )
        if c.game_end_type and c.game_end_type not in GAME_END_TYPES:
            errors.append(
                Problem(
                    "card_bad_game_end_type",
                    f"{label}: game_end_type must be one of {', '.join(GAME_END_TYPES)} or empty",
                    card=card,
                    value=c.game_end_type,
                )
            )
        if c.game_end_type and c.set != "X":
            errors.append(
                Problem(
                    "card_game_end_type_not_base",
                    f"{label}: only base (X) cards count for Game End "
                    "cards, so only they may have a game_end_type",
                    card=card,
                )
            )
        column = "effects"
        try:
            parse_effects(c.effects)
            column = "bonus"
            parse_effects(c.bonus)
            if c.kind == "route":
                column = "route_stations"
                stations = parse_stations(c.route_stations)
                if not 1 <= len(stations) <= 4:
                    errors.append(
                        Problem(
                            "card_route_stations_count",
                            f"{label}: a route card has 1 to 4 stations, this one has {len(stations)}",
                            card=card,
                            n=len(stations),
                        )
                    )
                if c.effects:
                    errors.append(
                        Problem(
                            "card_route_effects",
                            f"{label}: a route card's symbols go in route_stations, not effects",
                            card=card,
                        )
                    )
            elif c.route_stations:
                errors.append(
                    Problem(
                        "card_stations_not_route", f"{label}: only route cards have route_stations", card=card
                    )
                )
            if c.kind == "contract":
                column = "requirement"
                parse_requirement(c.requirement)
                if not c.bonus:
                    errors.append(
                        Problem("card_contract_bonus", f"{label}: a contract needs a bonus", card=card)
                    )
            elif c.requirement:
                errors.append(
                    Problem(
                        "card_requirement_not_contract",
                        f"{label}: only contracts have a requirement",
                        card=card,
                    )
                )
            if c.kind not in ("route", "contract") and not c.effects:
                errors.append(
                    Problem(
                        "card_needs_effects",
                        f"{label}: a {c.kind} card needs effects",
                        card=card,
                        kind=c.kind,
                    )
                )
        except LanguageError as exc:
            errors.append(
                Problem(
                    "card_symbols", f"{label}: {exc}", card=card, column=column, value=str(getattr(c, column))
                )
            )
    for s in sets:
        want = BASE_PER_PILE if s == "X" else MODULE_PER_PILE
        what = "base cards: 24 per pile" if s == "X" else "each module: 8 cards per pile"
        for pile in (1, 2, 3):
            n = sum(1 for c in cards if c.set == s and c.pile == pile)
            if n != want:
                errors.append(
                    Problem(
                        "pile_count",
                        f"pile {pile} of set {s} has {n} cards; the rules need {want} ({what})",
                        pile=pile,
                        set=s,
                        n=n,
                        want=want,
                    )
                )
    return errors


def validate_game_end_cards(cards: list[GameEndCard]) -> list[Problem]:
    errors: list[Problem] = []
    if len(cards) != GAME_END_TOTAL:
        errors.append(
            Problem(
                "game_end_total",
                f"there are {len(cards)} Game End cards; the game has {GAME_END_TOTAL}",
                n=len(cards),
                want=GAME_END_TOTAL,
            )
        )
    ids = [c.id for c in cards]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        errors.append(Problem("game_end_id_twice", f"Game End card {dup}: the id is used twice", card=dup))
    types = {c.type for c in cards}
    for c in cards:
        if c.type not in GAME_END_TYPES:
            errors.append(
                Problem(
                    "game_end_bad_type",
                    f"Game End card {c.id}: type must be one of {', '.join(GAME_END_TYPES)}, got {c.type!r}",
                    card=c.id,
                    value=c.type,
                )
            )
        if c.points < 1:
            errors.append(
                Problem(
                    "game_end_points",
                    f"Game End card {c.id}: points must be at least 1",
                    card=c.id,
                    value=c.points,
                )
            )
        try:
            parse_effects(c.bonus)
        except LanguageError as exc:
            errors.append(
                Problem("game_end_symbols", f"Game End card {c.id}: {exc}", card=c.id, value=c.bonus)
            )
    if not errors and types != set(GAME_END_TYPES):
        errors.append(
            Problem(
                "game_end_types_missing",
                f"Game End cards come in 3 types ({', '.join(GAME_END_TYPES)}); "
                f"found {', '.join(sorted(types))}",
                types=", ".join(sorted(types)),
            )
        )
    return errors


def validate_locomotive_tiles(tiles: list[LocoTile]) -> list[Problem]:
    errors: list[Problem] = []
    if len(tiles) != 8:
        errors.append(
            Problem("tiles_count", f"there are {len(tiles)} Locomotive tiles; the game has 8", n=len(tiles))
        )
    values = [t.value for t in tiles]
    if values and (values[0] != 5 or values[-1] != 15):
        errors.append(
            Problem(
                "tiles_range",
                f"Locomotive tiles run from 5 to 15; these run from {values[0]} to {values[-1]}",
                low=values[0],
                high=values[-1],
            )
        )
    if values != sorted(values):
        errors.append(
            Problem("tiles_order", "Locomotive tiles must be in ascending order (5 on top, 15 at the bottom)")
        )
    return errors


def validate_mail_cars(mails: list[MailCar]) -> list[Problem]:
    errors: list[Problem] = []
    if len(mails) != 4:
        errors.append(
            Problem("mail_count", f"there are {len(mails)} mail cars; each player has 4", n=len(mails))
        )
    for m in mails:
        try:
            if not parse_effects(m.bonus):
                errors.append(Problem("mail_no_bonus", f"mail car {m.slot}: it needs a bonus", slot=m.slot))
        except LanguageError as exc:
            errors.append(Problem("mail_symbols", f"mail car {m.slot}: {exc}", slot=m.slot, value=m.bonus))
    return errors


# --- card files a group loads, and where each card of a game comes from ------------------------

# The columns that tell the template files apart (see shared/reference/first-class/templates).
FILE_SIGNATURES: tuple[tuple[str, frozenset[str]], ...] = (
    ("deck", frozenset({"id", "set", "pile", "kind"})),
    ("game_end_deck", frozenset({"id", "type", "points"})),
    ("tiles_file", frozenset({"order", "value"})),
    ("mail_cars_file", frozenset({"slot", "bonus"})),
    ("board_route_file", frozenset({"station_index", "kind"})),
)
ROUND_CARDS = 18
PILE_NAMES = {1: "green", 2: "blue", 3: "red"}


def card_file_key(path: str) -> str:
    """Which config key a card file fills (``deck``, ``game_end_deck``, ...), told by its header
    row; :class:`InvalidCards` naming the template headers when it is none of them (OSError when
    the file cannot be opened)."""
    with open(path, encoding="utf-8", newline="") as fh:
        header = {h.strip() for h in next(csv.reader(fh), [])}
    for key, needed in FILE_SIGNATURES:
        if needed <= header:
            return key
    wanted = "; ".join(f"{key}: {','.join(sorted(cols))}" for key, cols in FILE_SIGNATURES)
    problem = CardFileError(
        "card_file_header",
        f"{path}: its header ({','.join(sorted(header)) or 'empty'}) is none of "
        f"the card templates (columns needed - {wanted})",
        file=file_name(path),
        header=",".join(sorted(header)),
        wanted=wanted,
    ).problem
    # A refusal with its facts (not a bare ValueError), so every reader gets it in their language.
    raise InvalidCards(f"{problem}.", [problem])


@dataclass(frozen=True)
class CardSources:
    """The Action cards of one game and where they come from: ``cards`` in play, ``sources``
    (one phrase per source, for the deck label) and ``shortfall`` (one sentence per pile that
    cannot fill two rounds, naming exactly what is missing)."""

    cards: list[ActionCard]
    sources: list[str]
    shortfall: list[Problem]
    # the same sources as facts, for wording them in any language: (sets, file path; "" = our open deck)
    origins: tuple[tuple[tuple[str, ...], str], ...] = ()

    @property
    def label(self) -> str:
        return "; ".join(self.sources)


def _set_names(sets: list[str]) -> str:
    words = ["base cards" if s == "X" else f"module {s}" for s in sets]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def assemble_action_cards(
    modules: list[str],
    deck_path: str | None,
    loaded: list[ActionCard] | None = None,
    edition: int = OPEN_DECK_EDITION,
) -> CardSources:
    """The Action cards for base cards plus ``modules``: from the group's file ``deck_path`` for
    every set the file holds, from the Conductor open deck only for a chosen set the file lacks,
    each source named. A group's own cards are never mixed with ours unless they chose a set
    only we have (module O). Each pile must fill two rounds of 18; a pile that cannot is
    reported with the exact number of cards missing and where they could come from."""
    sets = ["X", *modules]
    open_cards = open_action_cards(edition)
    if deck_path is None:
        cards = [c for c in open_cards if c.set in sets]
        sources = [OPEN_DECK_LABEL]
        origins: list[tuple[tuple[str, ...], str]] = [(tuple(sets), "")]
    else:
        file_cards = (
            loaded if loaded is not None else action_cards_from_rows(read_csv_path(deck_path), deck_path)
        )
        have = {c.set for c in file_cards}
        from_file = [s for s in sets if s in have]
        from_open = [s for s in sets if s not in have]
        cards = [c for c in file_cards if c.set in from_file]
        cards += [c for c in open_cards if c.set in from_open]
        sources = []
        origins = []
        if from_file:
            sources.append(f"{_set_names(from_file)} loaded from {deck_path}")
            origins.append((tuple(from_file), deck_path))
        if from_open:
            sources.append(f"{_set_names(from_open)} from {OPEN_DECK_LABEL}")
            origins.append((tuple(from_open), ""))
    shortfall: list[Problem] = []
    need = 2 * ROUND_CARDS
    for pile in (1, 2, 3):
        per_set = {s: sum(1 for c in cards if c.set == s and c.pile == pile) for s in sets}
        n = sum(per_set.values())
        if n < need:
            parts = ", ".join(f"{k} {'base' if s == 'X' else 'module ' + s}" for s, k in per_set.items())
            shortfall.append(
                Problem(
                    "pile_shortfall",
                    f"pile {pile} ({PILE_NAMES[pile]}) has {n} cards ({parts}); two rounds of {ROUND_CARDS} need {need}, "
                    f"so {need - n} more pile-{pile} cards are missing: the rules play the base cards with 2 modules, so "
                    f"add a second module's cards to {deck_path or 'the deck'} or choose our module O as well "
                    f"(modules={','.join([*modules, 'O'])})",
                    pile=pile,
                    n=n,
                    need=need,
                    missing=need - n,
                    file=file_name(deck_path) if deck_path else "",
                    modules=",".join([*modules, "O"]),
                )
            )
    return CardSources(cards, sources, shortfall, tuple(origins))
