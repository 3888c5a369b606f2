"""What the storage port hands over: the core's rows, statuses, refusals and the typed shapes of
partial updates, schedules, exports and raw records. No backend here, no SQL."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, TypedDict

from lang import CatalogError
from rules.protocol import JSON
from rules.protocol import JsonObject as JsonObject

# Game status values.
LOBBY, ACTIVE, OVER, ABORTED, BROKEN = "lobby", "active", "over", "aborted", "broken"

# A decoded JSON object (a game's config, snapshot or action): its shape is the game's business
# (``rules``, whose protocol defines the one JSON type), the store only keeps it.
JsonValue = JSON

Schedule = Mapping[str, tuple[float, int]]
"""A game's timers: ``{kind: (due_at, seq)}``; an entry is for the turn that ended at move ``seq``."""


class SeqConflict(Exception):
    """The game moved on since it was loaded: someone else's action was committed first."""


class StorageError(CatalogError):
    """A database or a row that cannot be used (a location the backend cannot open, a newer schema,
    an unknown game, a corrupted row …): ``code``, the English ``message`` for logs, and ``said`` for
    whoever shows it to a person, in their language (see :class:`lang.CatalogError`)."""


class RecordUnreadable(Exception):
    """A game's row or log could not be read at all (a damaged file); ``str()`` is the backend's
    own words, shown to the admin as they are."""


@dataclass
class SeatRow:
    """One seat: a person (``player``, a reference such as ``"discord:1234"``) or an AI
    (``player is None`` and ``ai_kind`` set)."""

    seat: int
    player: str | None
    ai_kind: str | None
    name: str
    away_until: float | None = None
    former_player: str | None = None
    claimant: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.player is None


@dataclass
class GameRow:
    """A game row plus its seats, decoded."""

    id: int
    game_name: str
    config: JsonObject
    players: int
    max_players: int
    seed: int
    space: str | None
    creator: str | None
    status: str
    seat_order: str
    turn_hours: float | None
    timeout_policy: str
    turn_started_at: float | None
    snapshot: JsonObject | None
    seq: int
    broken_reason: str | None
    created_at: float
    updated_at: float
    seats: list[SeatRow] = field(default_factory=list)
    reminder_hours: float | None = None
    remind_by: str = "thread"
    number: int = 0  # the game's number within its space, as people type and read it ("game #3")

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` holds in this game, or None."""
        for s in self.seats:
            if s.player == player:
                return s.seat
        return None


@dataclass
class ActionRow:
    game_id: int
    seq: int
    seat: int
    player: str | None
    action: str
    action_json: JsonObject
    created_at: float
    public: str | None = None


class GameUpdate(TypedDict, total=False):
    """The plain columns of a game that :meth:`~bot.store.api.GameStore.update_game` may set."""

    status: str
    turn_started_at: float | None
    broken_reason: str | None
    turn_hours: float | None
    timeout_policy: str
    reminder_hours: float | None
    remind_by: str


class SeatUpdate(TypedDict, total=False):
    """The fields of a seat that :meth:`~bot.store.api.GameStore.update_seat` may set."""

    player: str | None
    ai_kind: str | None
    name: str
    away_until: float | None
    former_player: str | None
    claimant: str | None


class DueEntry(NamedTuple):
    """A timer that is due: the game, its kind, when it was due and the move it belongs to."""

    game_id: int
    kind: str
    due_at: float
    seq: int


class GameStatus(NamedTuple):
    """A game's id, status and, if the bot stopped it, why (for ``conductor doctor``)."""

    id: int
    status: str
    broken_reason: str | None


class SeatExport(TypedDict):
    seat: int
    name: str
    ai: str | None


class GameExport(TypedDict):
    """A game that re-simulates exactly: ``new_game(game, config, players, seed)``, then each
    ``[seat, action_text]`` of ``actions``."""

    id: int
    game: str
    config: JsonObject
    players: int
    seed: int
    seats: list[SeatExport]
    status: str
    actions: list[list[int | str]]


@dataclass(frozen=True)
class LoggedAction:
    """One action of a raw record, as stored: ``action_json`` stays text so a damaged one is still
    read, and a hand-edited value keeps whatever type it was given."""

    seq: int
    seat: int | float | str
    text: object
    action_json: object


@dataclass(frozen=True)
class GameRecord:
    """A game's row and log as stored, read at one consistent moment and not decoded (see
    :mod:`bot.integrity`): a value may be of the wrong type or not JSON in a damaged record."""

    game_name: str
    config: object
    players: object
    seed: object
    status: str
    snapshot: object
    seq: object
    seat_count: int
    log: tuple[LoggedAction, ...]


@dataclass(frozen=True)
class PublicRef:
    """What a web page's public id names: ``kind`` (``game``, ``event``, ``player``), ``ref`` (the
    game's or event's id, or the player reference, as text) and whether it is unlisted."""

    kind: str
    ref: str
    public_id: str
    unlisted: bool


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One committed move of the outcome stream's outbox not yet posted: the game, the move's
    ``seq``, the process that committed it (``origin``) and when."""

    game_id: int
    seq: int
    origin: str
    created_at: float


@dataclass(frozen=True, slots=True)
class OutboxNotice:
    """A process committed move ``seq`` of ``game_id`` (``origin``: that process's name)."""

    game_id: int
    seq: int
    origin: str
