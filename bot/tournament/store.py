"""What community tournaments keep: the stored rows of events, registrations, rounds, tables and
results, their states, and the JSON forms of an event's configuration and of a result.

The tables themselves are behind the storage port (:class:`bot.store.api.TournamentTables`).
Results are never typed in: a result row is written from a finished game's final scores, and a
correction keeps the engine's scores and the organiser's reason beside the original.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.tournament.model import EventConfig, GameResult, SeatResult, Stage, Table
from bot.tournament.ratings import RatingChange
from rules.protocol import JsonObject

REGISTRATION, RUNNING, PAUSED, FINISHED = "registration", "running", "paused", "finished"
ENTERED, WAITING, DROPPED, NO_SHOW = "entered", "waiting", "dropped", "no_show"


def config_to_json(config: EventConfig) -> JsonObject:
    """An event configuration as plain JSON (read back by :func:`config_from_json`)."""
    return {
        "name": config.name,
        "family": config.family,
        "format": config.format.value,
        "rounds": config.rounds,
        "table_size": config.table_size,
        "table_sizes": list(config.table_sizes),
        "boards": list(config.boards),
        "points_per_place": {str(k): list(v) for k, v in config.points_per_place.items()},
        "ranking": [c.value for c in config.ranking],
        "tied_places": config.tied_places,
        "final_size": config.final_size,
        "groups": config.groups,
        "cut_size": config.cut_size,
        "seed_round_one_by_rating": config.seed_round_one_by_rating,
        "rated": config.rated,
        "count_ai_takeovers": config.count_ai_takeovers,
        "late_entry": config.late_entry,
        "late_points": config.late_points,
    }


def config_from_json(data: Mapping[str, Any]) -> EventConfig:
    return EventConfig(
        name=data["name"],
        family=data["family"],
        format=data["format"],
        rounds=int(data["rounds"]),
        table_size=int(data["table_size"]),
        table_sizes=tuple(data["table_sizes"]),
        boards=tuple(data["boards"]),
        points_per_place={int(k): tuple(v) for k, v in data["points_per_place"].items()},
        ranking=tuple(data["ranking"]),
        tied_places=data["tied_places"],
        final_size=int(data["final_size"]),
        groups=int(data["groups"]),
        cut_size=int(data.get("cut_size", 0)),  # events stored before the top cut: none
        seed_round_one_by_rating=bool(data["seed_round_one_by_rating"]),
        rated=bool(data["rated"]),
        count_ai_takeovers=bool(data["count_ai_takeovers"]),
        late_entry=data.get("late_entry", "zero"),  # events stored before the policy: zero
        late_points=float(data.get("late_points", 0.0)),
    )


def result_to_json(result: GameResult) -> JsonObject:
    return {
        "game_id": result.game_id,
        "round": result.round,
        "table": result.table,
        "board": result.board,
        "stage": result.stage.value,
        "group": result.group,
        "adjudicated": result.adjudicated,
        "correction_reason": result.correction_reason,
        "void": result.void,
        "seats": [
            {
                "player": s.player,
                "rank": s.rank,
                "score": s.score,
                "tickets_completed": s.tickets_completed,
                "ai_takeover": s.ai_takeover,
                "longest_trail": s.longest_trail,
            }
            for s in result.seats
        ],
    }


def result_from_json(data: Mapping[str, Any]) -> GameResult:
    return GameResult(
        game_id=str(data["game_id"]),
        round=int(data["round"]),
        table=int(data["table"]),
        board=data["board"],
        stage=data["stage"],
        group=data["group"],
        adjudicated=bool(data["adjudicated"]),
        correction_reason=data.get("correction_reason"),
        void=bool(data.get("void", False)),
        seats=tuple(
            SeatResult(
                player=s["player"],
                rank=int(s["rank"]),
                score=int(s["score"]),
                tickets_completed=s["tickets_completed"],
                ai_takeover=bool(s["ai_takeover"]),
                longest_trail=s.get("longest_trail"),
            )
            for s in data["seats"]
        ),
    )


@dataclass(frozen=True)
class RatingWrite:
    """Rating changes stored with a result: the new changes of one rated game, or (``replace``)
    the space's whole history rebuilt (see :func:`~bot.tournament.ratings.rebuild_ratings`).
    ``event_of`` names the event of each rated game."""

    space: str
    event_of: Mapping[str, int]
    history: tuple[RatingChange, ...]
    replace: bool = False


@dataclass
class EventRow:
    """One event. ``settings`` holds what the bot needs beyond the core's configuration:
    ``game_name``'s turn timer (``turn_hours``, ``timeout_policy``), ``deadline_hours`` per round,
    ``cap`` (0: no cap) and ``checkin`` (only checked-in players are seated at the start)."""

    id: int
    space: str
    name: str
    creator: str
    game_name: str
    config: EventConfig
    settings: dict[str, Any]
    seed: int
    status: str
    round: int
    created_at: float
    number: int
    """The event's number in its server (#1 is the server's first event); ``id`` is the database's."""


@dataclass
class EntryRow:
    player: str
    name: str
    position: int
    state: str
    checked_in: bool


@dataclass
class RoundRow:
    round: int
    stage: str
    started_at: float
    deadline_at: float | None
    finished_at: float | None


@dataclass
class TableRow:
    """A table of a round and its game; ``seats[0]`` plays first."""

    event_id: int
    round: int
    number: int
    board: str
    seats: tuple[str, ...]
    stage: Stage
    group: int | None
    game_id: int | None
    adjudicated: bool

    def table(self) -> Table:
        return Table(
            round=self.round,
            number=self.number,
            board=self.board,
            seats=self.seats,
            stage=self.stage,
            group=self.group,
        )


@dataclass
class ResultRow:
    """A stored result: the engine's (``correction_reason`` None) or a later correction."""

    id: int
    round: int
    table: int
    game_id: int
    result: GameResult
    correction_reason: str | None
    corrected_by: str | None
    created_at: float
