"""Ticket to Ride boards as data: cities, tracks, tickets and per-board rule flags.

Each board lives in a folder named by its id: the built-in ones in ``rules/ttr/maps/``, more in
the directories named by the environment variable ``CONDUCTOR_BOARD_DIRS`` (separated by
``os.pathsep``). A folder holds ``board.toml`` (rule flags, read into a typed
:class:`~rules.ttr.spec.BoardRules`, the deck make-up and the counts the data must match), ``cities.csv``, ``routes.csv`` (one row per physical track), ``tickets.csv``,
``spaces.csv`` (train-car space geometry) and, where the board has them, ``country_endpoints.csv``
and ``merchandise.csv``. :func:`load_board` reads and validates them once and caches the result;
a mismatch raises :class:`BoardDataError` naming the file and the problem.
"""

from __future__ import annotations

import csv
import os
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from rules.ttr.colours import CARD_INDEX as CARD_INDEX
from rules.ttr.colours import CARD_NAMES as CARD_NAMES
from rules.ttr.colours import COLOURS as COLOURS
from rules.ttr.colours import GRAY as GRAY
from rules.ttr.colours import LOCO as LOCO
from rules.ttr.colours import N_CARD_TYPES as N_CARD_TYPES
from rules.ttr.colours import PASSENGER as PASSENGER
from rules.ttr.colours import PLUS4 as PLUS4
from rules.ttr.spec import BoardRules, BoardRulesError
from rules.ttr.tables import MoveTables

MAPS_DIR = Path(__file__).parent / "maps"
BOARD_DIRS_ENV = "CONDUCTOR_BOARD_DIRS"
BOARD_ALIASES = {"marklin": "germany", "märklin": "germany", "base": "usa", "us": "usa", "eu": "europe"}

TRACK_LETTERS = "abc"


class BoardDataError(ValueError):
    """Board data that does not match its declared counts or refers to unknown cities."""


@dataclass(frozen=True, slots=True)
class City:
    name: str
    x: float
    y: float
    is_country: bool


@dataclass(frozen=True, slots=True)
class Space:
    x: float
    y: float
    angle: float


@dataclass(frozen=True, slots=True)
class Track:
    """One physical track. ``id`` is the pair id, plus a letter when the route has parallel tracks."""

    index: int
    id: str
    pair_id: str
    a: str
    b: str
    length: int
    colour: int  # index into COLOURS, or GRAY
    tunnel: bool
    ferry_locos: int
    siblings: tuple[int, ...]  # indexes of the other tracks of the same double/triple route
    spaces: tuple[Space, ...]

    @property
    def colour_name(self) -> str:
        return "gray" if self.colour == GRAY else COLOURS[self.colour]

    @property
    def label(self) -> str:
        return f"{self.a}–{self.b}"


@dataclass(frozen=True, slots=True)
class TicketCard:
    """A ticket card. City–city cards have one destination; Swiss country cards have several."""

    id: str
    origin: str
    destinations: tuple[tuple[str, int], ...]  # (node, points)
    kind: str  # short | long | city-country | country-country
    # (points, text) worked out once: every final score and view lists every ticket with them.
    facts: tuple[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.destinations) > 1:
            text = f"{self.origin} → " + ", ".join(f"{d} {p}" for d, p in self.destinations)
        else:
            dest, pts = self.destinations[0]
            text = f"{self.origin} – {dest} ({pts})"
        object.__setattr__(self, "facts", (max(p for _, p in self.destinations), text))

    @property
    def points(self) -> int:
        return self.facts[0]

    @property
    def is_multi(self) -> bool:
        return len(self.destinations) > 1

    def describe(self) -> str:
        return self.facts[1]


@dataclass(frozen=True)
class Board:
    """One board's static data: map, tickets, typed rule flags (``spec``) and move tables.

    ``rules`` is the raw board.toml table (variant merged) kept for readers outside the engine;
    the engine reads ``spec`` only."""

    id: str
    name: str
    rules: dict[str, Any]
    cities: dict[str, City]
    tracks: tuple[Track, ...]
    tickets: dict[str, TicketCard]
    spec: BoardRules
    tables: MoveTables
    track_index: dict[str, Track]  # lower-cased track id -> track
    merchandise: dict[str, tuple[tuple[int, ...], str, str]] = field(default_factory=dict)
    country_endpoints: tuple[tuple[str, float, float, str], ...] = ()
    variant: str | None = None
    # City -> the tracks that end there, in board order (asked on every ticket check of a country).
    tracks_by_city: dict[str, tuple[Track, ...]] = field(default_factory=dict)

    @property
    def track_by_id(self) -> dict[str, Track]:
        """Lower-cased track id -> track."""
        return self.track_index

    def tracks_at(self, city: str) -> list[Track]:
        return list(self.tracks_by_city.get(city, ()))

    def route_points(self, length: int) -> int:
        return self.spec.route_points[length]

    @property
    def city_names(self) -> list[str]:
        return [c.name for c in self.cities.values() if not c.is_country]

    @property
    def country_names(self) -> list[str]:
        return [c.name for c in self.cities.values() if c.is_country]


def board_folders() -> dict[str, Path]:
    """Board id -> folder: every folder of ``rules/ttr/maps/`` holding a board.toml, then those of
    each directory in ``CONDUCTOR_BOARD_DIRS`` (a named directory that is itself a board folder
    counts as one board). The first folder found for an id wins, so built-in boards cannot be
    shadowed."""
    roots = [MAPS_DIR] + [Path(p) for p in os.environ.get(BOARD_DIRS_ENV, "").split(os.pathsep) if p.strip()]
    found: dict[str, Path] = {}
    for root in roots:
        if (root / "board.toml").is_file():
            found.setdefault(root.name.lower(), root)
            continue
        if not root.is_dir():
            continue
        for folder in sorted(root.iterdir()):
            if (folder / "board.toml").is_file():
                found.setdefault(folder.name.lower(), folder)
    return found


def available_boards() -> list[str]:
    """Ids of every board folder found (see :func:`board_folders`), in list order: by the
    board.toml ``order`` (the built-in boards declare 1-4), then in the order found."""
    return [board_id for board_id, _ in _listing()]


class BoardInfo(NamedTuple):
    """What a front end shows in a board choice list."""

    id: str
    name: str
    min_players: int
    max_players: int
    variants: dict[str, str]  # variant name -> description


def board_catalog() -> list[BoardInfo]:
    """Display name, player range and variants of every available board, in list order. A board
    whose board.toml cannot be read is left out (it has no name or player range to show);
    loading it names the problem."""
    return [
        BoardInfo(board_id, spec.name, spec.min_players, spec.max_players, dict(spec.variants))
        for board_id, spec in _listing()
        if spec is not None
    ]


def _listing() -> list[tuple[str, BoardRules | None]]:
    rows: list[tuple[int, int, str, BoardRules | None]] = []
    for position, (board_id, folder) in enumerate(board_folders().items()):
        order, spec = 1000 + position, None
        try:
            flags = _read_toml(folder)
            spec = BoardRules.from_toml(flags, board_id)
        except (OSError, tomllib.TOMLDecodeError, BoardRulesError):
            flags = {}
        if isinstance(flags.get("order"), int):
            order = flags["order"]
        rows.append((order, position, board_id, spec))
    rows.sort(key=lambda row: row[:2])
    return [(board_id, spec) for _, _, board_id, spec in rows]


def resolve_board_id(name: str) -> str:
    """The id of the board called ``name`` (an id, in any case, or an alias such as "marklin")."""
    key = name.strip().lower()
    key = BOARD_ALIASES.get(key, key)
    known = board_folders()
    if key not in known:
        raise BoardDataError(f"Unknown board {name!r}; choose one of {', '.join(available_boards())}.")
    return key


def clear_board_caches() -> None:
    """Forget loaded boards (after ``CONDUCTOR_BOARD_DIRS`` or a board's files changed)."""
    load_board.cache_clear()


def __getattr__(name: str) -> Any:
    # Compatibility for callers written when the board list was a constant (bot/commands/simulate.py,
    # tests/render): the list is now discovered from the board folders.
    if name == "BOARD_IDS":
        return tuple(available_boards())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _read_toml(folder: Path) -> dict[str, Any]:
    with (folder / "board.toml").open("rb") as fh:
        return tomllib.load(fh)


_REQUIRED_COUNTS = ("cities", "countries", "tracks", "routes", "spaces", "tickets")


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _colour(name: str, where: str) -> int:
    if name == "gray":
        return GRAY
    if name not in COLOURS:
        raise BoardDataError(f"{where}: unknown colour {name!r}")
    return COLOURS.index(name)


def load_tickets(path: Path, cities: dict[str, City]) -> dict[str, TicketCard]:
    """Read a ticket CSV (``ticket_id,a,b,points,kind``) and check every node exists."""
    grouped: dict[str, list[dict[str, str]]] = {}
    for row in _read_csv(path):
        grouped.setdefault(row["ticket_id"], []).append(row)
    tickets: dict[str, TicketCard] = {}
    for tid, rows in grouped.items():
        origins = {r["a"] for r in rows}
        kinds = {r["kind"] for r in rows}
        if len(origins) != 1 or len(kinds) != 1:
            raise BoardDataError(f"{path.name}: ticket {tid} mixes origins or kinds")
        dests: list[tuple[str, int]] = []
        for r in rows:
            for node in (r["a"], r["b"]):
                if node not in cities:
                    raise BoardDataError(f"{path.name}: ticket {tid} names unknown city {node!r}")
            pts = int(r["points"])
            if pts <= 0:
                raise BoardDataError(f"{path.name}: ticket {tid} has non-positive points")
            dests.append((r["b"], pts))
        tickets[tid] = TicketCard(tid, rows[0]["a"], tuple(dests), rows[0]["kind"])
    return tickets


@cache
def load_board(board_id: str, variant: str | None = None, ticket_deck: str | None = None) -> Board:
    """Load and validate one board (cached). ``variant`` overrides rule flags (e.g. Swiss ``digital``);
    ``ticket_deck`` is the path of a replacement ticket CSV in the same format."""
    board_id = resolve_board_id(board_id)
    folder = board_folders()[board_id]
    try:
        rules = _read_toml(folder)
    except tomllib.TOMLDecodeError as exc:
        raise BoardDataError(f"{board_id}/board.toml: {exc}") from None
    variants = rules.pop("variants", {})
    if variant:
        if variant not in variants:
            known = ", ".join(sorted(variants)) or "none"
            raise BoardDataError(f"Board {board_id} has no variant {variant!r} (variants: {known}).")
        rules = {**rules, **{k: v for k, v in variants[variant].items() if k != "description"}}
        rules["variant_description"] = variants[variant]["description"]
    rules["variants"] = {k: v["description"] for k, v in variants.items()}
    counts = rules.get("counts")
    if not isinstance(counts, dict) or any(k not in counts for k in _REQUIRED_COUNTS):
        raise BoardDataError(f"{board_id}/board.toml: [counts] must declare {', '.join(_REQUIRED_COUNTS)}")
    if ticket_deck is not None:
        rules["ticket_deck_label"] = f"Custom ticket deck loaded from {Path(ticket_deck).name}"
        rules["ticket_deck_is_standin"] = False
    try:
        spec = BoardRules.from_toml(rules, board_id)
    except BoardRulesError as exc:
        raise BoardDataError(str(exc)) from None
    if "train_cards" in counts and sum(spec.deck) != counts["train_cards"]:
        raise BoardDataError(
            f"{board_id}/board.toml: the deck has {sum(spec.deck)} train cards, "
            f"expected {counts['train_cards']}"
        )

    cities: dict[str, City] = {}
    for row in _read_csv(folder / "cities.csv"):
        cities[row["name"]] = City(row["name"], float(row["x"]), float(row["y"]), row["kind"] == "country")
    n_city = sum(not c.is_country for c in cities.values())
    n_country = len(cities) - n_city
    if (n_city, n_country) != (counts["cities"], counts["countries"]):
        raise BoardDataError(
            f"{board_id}/cities.csv: {n_city} cities and {n_country} countries, "
            f"expected {counts['cities']} and {counts['countries']}"
        )

    space_rows: dict[tuple[str, int], list[Space]] = {}
    for row in _read_csv(folder / "spaces.csv"):
        key = (row["pair_id"], int(row["track"]))
        space_rows.setdefault(key, []).append(
            Space(float(row["x"]), float(row["y"]), float(row["angle_deg"]))
        )

    raw = _read_csv(folder / "routes.csv")
    by_pair: dict[str, list[int]] = {}
    for i, row in enumerate(raw):
        by_pair.setdefault(row["pair_id"], []).append(i)
    tracks: list[Track] = []
    for i, row in enumerate(raw):
        for node in (row["a"], row["b"]):
            if node not in cities:
                raise BoardDataError(f"{board_id}/routes.csv row {i + 2}: unknown city {node!r}")
        group = by_pair[row["pair_id"]]
        pos = group.index(i)
        tid = row["pair_id"] if len(group) == 1 else row["pair_id"] + TRACK_LETTERS[pos]
        length = int(row["length"])
        spaces = tuple(space_rows.get((row["pair_id"], pos + 1), ()))
        if len(spaces) != length:
            raise BoardDataError(
                f"{board_id}/spaces.csv: track {tid} has {len(spaces)} spaces, length {length}"
            )
        if length not in spec.route_points:
            raise BoardDataError(f"{board_id}: track {tid} has length {length} with no score in board.toml")
        tracks.append(
            Track(
                index=i,
                id=tid,
                pair_id=row["pair_id"],
                a=row["a"],
                b=row["b"],
                length=length,
                colour=_colour(row["color"], f"{board_id}/routes.csv row {i + 2}"),
                tunnel=row["tunnel"] == "1",
                ferry_locos=int(row["ferry_locos"]),
                siblings=tuple(j for j in group if j != i),
                spaces=spaces,
            )
        )
    n_spaces = sum(t.length for t in tracks)
    if (len(tracks), len(by_pair), n_spaces) != (counts["tracks"], counts["routes"], counts["spaces"]):
        raise BoardDataError(
            f"{board_id}/routes.csv: {len(tracks)} tracks, {len(by_pair)} routes, {n_spaces} spaces; "
            f"expected {counts['tracks']}, {counts['routes']}, {counts['spaces']}"
        )

    ticket_path = Path(ticket_deck) if ticket_deck else folder / "tickets.csv"
    tickets = load_tickets(ticket_path, cities)
    if ticket_deck is None:
        if len(tickets) != counts["tickets"]:
            raise BoardDataError(
                f"{board_id}/tickets.csv: {len(tickets)} tickets, expected {counts['tickets']}"
            )
        if "long_tickets" in counts:
            n_long = sum(t.kind == "long" for t in tickets.values())
            if n_long != counts["long_tickets"]:
                raise BoardDataError(
                    f"{board_id}/tickets.csv: {n_long} long tickets, expected {counts['long_tickets']}"
                )
        for kind_name in ("city_city", "city_country", "country_country"):
            count_key = f"{kind_name}_tickets"
            if count_key in counts:
                n = sum(t.kind == kind_name.replace("_", "-") for t in tickets.values())
                if n != counts[count_key]:
                    raise BoardDataError(
                        f"{board_id}/tickets.csv: {n} {kind_name} tickets, expected {counts[count_key]}"
                    )

    merchandise: dict[str, tuple[tuple[int, ...], str, str]] = {}
    merch_path = folder / "merchandise.csv"
    if merch_path.exists():
        for row in _read_csv(merch_path):
            if row["city"] not in cities or cities[row["city"]].is_country:
                raise BoardDataError(f"{board_id}/merchandise.csv: {row['city']!r} is not a city")
            values = tuple(int(v) for v in row["values"].split(";"))
            merchandise[row["city"]] = (values, row["stack_color"], row["status"])
        colours: dict[str, int] = {}
        for _, colour, _ in merchandise.values():
            colours[colour] = colours.get(colour, 0) + 1
        for colour in ("black", "red", "yellow", "white"):
            if colours.get(colour, 0) != counts.get(f"merchandise_{colour}", 0):
                raise BoardDataError(f"{board_id}/merchandise.csv: {colours.get(colour, 0)} {colour} stacks")

    endpoints: list[tuple[str, float, float, str]] = []
    ep_path = folder / "country_endpoints.csv"
    if ep_path.exists():
        for row in _read_csv(ep_path):
            endpoints.append((row["country"], float(row["x"]), float(row["y"]), row["connects_to"]))

    return Board(
        id=board_id,
        name=spec.name,
        rules=rules,
        cities=cities,
        tracks=tuple(tracks),
        tickets=tickets,
        spec=spec,
        tables=MoveTables.build(
            tracks,
            spec.locomotives_tunnels_only,
            spec.plus4_min_length,
            station_cities=[name for name, city in cities.items() if not city.is_country],
            station_costs=spec.station_costs,
            passenger_countries=(
                {name for name, city in cities.items() if city.is_country} if spec.passengers > 0 else None
            ),
        ),
        track_index={t.id.lower(): t for t in tracks},
        merchandise=merchandise,
        country_endpoints=tuple(endpoints),
        variant=variant,
        tracks_by_city={name: tuple(t for t in tracks if name in (t.a, t.b)) for name in cities},
    )
