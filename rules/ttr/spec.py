"""A board's rule flags as one typed, frozen object, read once from its ``board.toml``.

Every difference between the Ticket to Ride editions that the engine knows about is a field of
:class:`BoardRules`; the engine reads these fields and nothing else, so a new board is a folder of
data, and a typo in a board's flags is a load error naming the flag instead of a silent default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

CARD_TYPES = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "pink",
    "black",
    "white",
    "locomotive",
    "plus4",
    "passenger",
)
TIE_BREAKS = ("tickets_completed", "fewest_stations_used", "longest_path")
TICKET_PILES = ("short", "long")
# Top-level keys of board.toml that are not rule flags: counts the data must match, variants, and
# presentation (list position) read by front ends.
_NON_FLAG_KEYS = {"counts", "variants", "order"}


class BoardRulesError(ValueError):
    """A ``board.toml`` flag that is missing, unknown or of the wrong kind."""


@dataclass(frozen=True, slots=True)
class TicketDealing:
    """How tickets are handed out at one moment (the opening choice, or a ticket draw in play)."""

    deal: tuple[tuple[str, int], ...]
    """Tickets dealt from each pile ("short"/"long"), in dealing order; empty when announced."""
    announce: int | None
    """Märklin: the player announces this many tickets as any mix of short and long (rule 18)."""
    keep_min: int
    """Fewest tickets the player must keep (capped by the number offered)."""
    keep_max: int | None
    """Most tickets the player may keep; ``None``: all of them."""
    returned_to_bottom: bool
    """Returned tickets go under their pile (True) or out of the game (False)."""

    @property
    def dealt(self) -> int:
        """Total tickets dealt at once (0 when the player announces the mix)."""
        return sum(n for _, n in self.deal)


@dataclass(frozen=True, slots=True)
class BoardRules:
    """Every rule flag of one board (with its variant applied), as the published rules state them."""

    name: str
    """Display name of the board ("USA", "Märklin")."""
    edition: str
    """The published game this board comes from."""
    aspect: tuple[int, int]
    """Width and height of the map artwork (renderers keep this ratio)."""
    min_players: int
    """Fewest seats the board is played with."""
    max_players: int
    """Most seats the board is played with."""
    trains: int
    """Train cars each player starts with; two or fewer left triggers the final round."""
    stations: int
    """Train stations each player starts with (Europe: 3; 0 when the board has none)."""
    station_costs: tuple[int, ...]
    """Cards of one colour paid for the first, second, third... station built."""
    passengers: int
    """Märklin passengers each player starts with (0 when the board has none)."""
    deck: tuple[int, ...]
    """Train-card deck make-up: how many cards of each card type (indexed like CARD_TYPES)."""
    face_up_locomotive_counts_two: bool
    """Taking a face-up locomotive is the whole draw (and it cannot be the second card)."""
    refresh_on_three: tuple[int, ...]
    """Card types (indexes) of which three face up make the whole row be discarded and re-dealt."""
    locomotives_tunnels_only: bool
    """Locomotives may only pay for tunnels (Switzerland), not for ordinary routes."""
    plus4_min_length: int
    """Märklin "+4" locomotives pay only for routes at least this long (99: never used)."""
    double_routes_min_players: int
    """With fewer players only one track of a double (or triple) route may be claimed."""
    route_points: Mapping[int, int]
    """Points scored for claiming a route, by route length."""
    initial_tickets: TicketDealing
    """The opening ticket deal and how many to keep."""
    draw_tickets: TicketDealing
    """The ticket draw during play and how many to keep."""
    undealt_long_tickets_out: bool
    """Europe: the long tickets not dealt at the start leave the game."""
    longest_path_bonus: int
    """Points for the longest continuous trail (0: no such bonus)."""
    longest_path_name: str
    """Name of that bonus card ("European Express")."""
    most_tickets_bonus: int
    """Points for completing the most tickets (Globetrotter; 0: no such bonus)."""
    unused_station_points: int
    """Points at the end for each station not built."""
    tie_breaks: tuple[str, ...]
    """Tie-breaks after the total, in order (names from TIE_BREAKS)."""
    tunnel_auto_withdraw: bool
    """A tunnel surcharge the player cannot pay ends the turn at once (Swiss digital edition)."""
    ticket_deck_label: str
    """Honest label of the ticket deck when it is not the published one ("" when it is)."""
    ticket_deck_is_standin: bool
    """The ticket deck stands in for an unpublished one and is labelled wherever tickets show."""
    variant_description: str
    """What the chosen variant changes ("" for the published rules)."""
    variants: Mapping[str, str]
    """Every variant of the board and its description."""

    @property
    def has_passengers(self) -> bool:
        return self.passengers > 0

    @classmethod
    def from_toml(cls, flags: Mapping[str, Any], board_id: str) -> BoardRules:
        """Build from a board.toml table (variant already merged); raises BoardRulesError."""
        reader = _FlagReader(flags, board_id)
        unknown = sorted(set(flags) - _KNOWN_FLAGS - _NON_FLAG_KEYS)
        if unknown:
            raise BoardRulesError(f"{board_id}/board.toml: unknown flag(s) {', '.join(unknown)}")
        players = reader.int_list("players", 2)
        if not 1 <= players[0] <= players[1]:
            raise BoardRulesError(f"{board_id}/board.toml: players must be [min, max], not {players}")
        locomotives = reader.text("locomotives")
        if locomotives not in ("anywhere", "tunnels-only"):
            raise BoardRulesError(f"{board_id}/board.toml: locomotives must be 'anywhere' or 'tunnels-only'")
        refresh = []
        for name in reader.text_list("refresh_on_three"):
            if name not in CARD_TYPES:
                raise BoardRulesError(f"{board_id}/board.toml: refresh_on_three names unknown card {name!r}")
            refresh.append(CARD_TYPES.index(name))
        tie_breaks = tuple(reader.text_list("tie_breaks"))
        for tb in tie_breaks:
            if tb not in TIE_BREAKS:
                raise BoardRulesError(f"{board_id}/board.toml: unknown tie break {tb!r}")
        undealt = reader.text("undealt_long_tickets", "kept")
        if undealt not in ("kept", "out"):
            raise BoardRulesError(f"{board_id}/board.toml: undealt_long_tickets must be 'kept' or 'out'")
        aspect = reader.int_list("aspect", 2)
        variants = flags.get("variants", {})
        return cls(
            name=reader.text("name"),
            edition=reader.text("edition", reader.text("name")),
            aspect=(aspect[0], aspect[1]),
            min_players=players[0],
            max_players=players[1],
            trains=reader.count("trains"),
            stations=reader.count("stations", 0),
            station_costs=tuple(reader.int_list("station_costs", None, [])),
            passengers=reader.count("passengers", 0),
            deck=_deck(reader.table("deck"), board_id),
            face_up_locomotive_counts_two=reader.flag("face_up_locomotive_counts_two"),
            refresh_on_three=tuple(refresh),
            locomotives_tunnels_only=locomotives == "tunnels-only",
            plus4_min_length=reader.count("plus4_min_length", 99),
            double_routes_min_players=reader.count("double_routes_min_players"),
            route_points=MappingProxyType(_route_points(reader.table("route_points"), board_id)),
            initial_tickets=_dealing(reader.table("initial_tickets"), board_id, "initial_tickets"),
            draw_tickets=_dealing(reader.table("draw_tickets"), board_id, "draw_tickets"),
            undealt_long_tickets_out=undealt == "out",
            longest_path_bonus=reader.count("longest_path_bonus", 0),
            longest_path_name=reader.text("longest_path_name", "Longest continuous path"),
            most_tickets_bonus=reader.count("most_tickets_bonus", 0),
            unused_station_points=reader.count("unused_station_points", 0),
            tie_breaks=tie_breaks,
            tunnel_auto_withdraw=reader.flag("tunnel_auto_withdraw", False),
            ticket_deck_label=reader.text("ticket_deck_label", ""),
            ticket_deck_is_standin=reader.flag("ticket_deck_is_standin", False),
            variant_description=reader.text("variant_description", ""),
            variants=MappingProxyType(
                {str(k): str(v["description"] if isinstance(v, dict) else v) for k, v in variants.items()}
            ),
        )


_KNOWN_FLAGS = set(BoardRules.__dataclass_fields__) - {
    "min_players",
    "max_players",
    "locomotives_tunnels_only",
    "undealt_long_tickets_out",
} | {"players", "locomotives", "undealt_long_tickets"}

_MISSING = object()


class _FlagReader:
    """Typed reads of board.toml values with errors that name the board and the flag."""

    def __init__(self, flags: Mapping[str, Any], board_id: str) -> None:
        self.flags = flags
        self.board_id = board_id

    def _get(self, key: str, default: Any) -> Any:
        value = self.flags.get(key, default)
        if value is _MISSING:
            raise BoardRulesError(f"{self.board_id}/board.toml: missing flag {key!r}")
        return value

    def _bad(self, key: str, kind: str) -> BoardRulesError:
        return BoardRulesError(f"{self.board_id}/board.toml: {key} must be {kind}")

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self._get(key, default)
        if not isinstance(value, str):
            raise self._bad(key, "text")
        return value

    def count(self, key: str, default: Any = _MISSING) -> int:
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self._bad(key, "a whole number, 0 or more")
        return value

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self._bad(key, "true or false")
        return value

    def table(self, key: str) -> Mapping[str, Any]:
        value = self._get(key, _MISSING)
        if not isinstance(value, dict):
            raise self._bad(key, "a table")
        return value

    def text_list(self, key: str) -> list[str]:
        value = self._get(key, _MISSING)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._bad(key, "a list of names")
        return value

    def int_list(self, key: str, length: int | None, default: Any = _MISSING) -> list[int]:
        value = self._get(key, default)
        if (
            not isinstance(value, list)
            or (length is not None and len(value) != length)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise self._bad(key, f"a list of {length or 'any number of'} whole numbers")
        return value


def _deck(table: Mapping[str, Any], board_id: str) -> tuple[int, ...]:
    counts = [0] * len(CARD_TYPES)
    for name, n in table.items():
        if name not in CARD_TYPES:
            raise BoardRulesError(
                f"{board_id}/board.toml: the deck names unknown card {name!r} "
                f"(cards: {', '.join(CARD_TYPES)})"
            )
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BoardRulesError(
                f"{board_id}/board.toml: deck count of {name} must be a whole number, 0 or more"
            )
        counts[CARD_TYPES.index(name)] = n
    if sum(counts) < 5:
        raise BoardRulesError(f"{board_id}/board.toml: the deck needs at least 5 cards for the face-up row")
    return tuple(counts)


def _route_points(table: Mapping[str, Any], board_id: str) -> dict[int, int]:
    points: dict[int, int] = {}
    for length, pts in table.items():
        if not str(length).isdigit() or isinstance(pts, bool) or not isinstance(pts, int):
            raise BoardRulesError(
                f"{board_id}/board.toml: route_points maps lengths to points, not {length!r}"
            )
        points[int(length)] = pts
    return points


def _dealing(table: Mapping[str, Any], board_id: str, key: str) -> TicketDealing:
    where = f"{board_id}/board.toml: {key}"
    unknown = sorted(set(table) - {"deal", "announce", "keep_min", "keep_max", "returned"})
    if unknown:
        raise BoardRulesError(f"{where} has unknown field(s) {', '.join(unknown)}")
    deal = table.get("deal", {})
    if not isinstance(deal, dict) or any(
        p not in TICKET_PILES or not isinstance(n, int) for p, n in deal.items()
    ):
        raise BoardRulesError(f"{where}.deal maps the piles short/long to numbers of tickets")
    announce = table.get("announce")
    if (announce is None) == (not deal):
        raise BoardRulesError(f"{where} needs either deal or announce")
    returned = table.get("returned")
    if returned not in ("bottom", "out"):
        raise BoardRulesError(f"{where}.returned must be 'bottom' or 'out'")
    keep_min, keep_max = table.get("keep_min"), table.get("keep_max")
    if not isinstance(keep_min, int) or not (keep_max is None or isinstance(keep_max, int)):
        raise BoardRulesError(f"{where}.keep_min (and keep_max, if given) must be whole numbers")
    if announce is not None and not isinstance(announce, int):
        raise BoardRulesError(f"{where}.announce must be a whole number")
    return TicketDealing(
        deal=tuple((str(p), int(n)) for p, n in deal.items()),
        announce=announce,
        keep_min=keep_min,
        keep_max=keep_max,
        returned_to_bottom=returned == "bottom",
    )
