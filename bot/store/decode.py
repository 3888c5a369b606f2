"""How both backends turn stored rows into the port's rows, and the port's rows into stored values.

SQLite and PostgreSQL keep the same columns with the same meaning (JSON as text, times as seconds,
flags as 0/1), so a row read from either is decoded here, once: the column lists the core's
decoders read by position, and the decoders of the core's and the tournaments' rows. What differs
per backend stays in its module: the SQL dialect, placeholders, transactions and how a row is
fetched. A value of the wrong type raises ``ValueError``/``TypeError``/``KeyError`` here, which the
backends report as a corrupted row of that one game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from bot.store.rows import (
    ActionRow,
    DueEntry,
    GameExport,
    GameRecord,
    GameRow,
    LoggedAction,
    SeatRow,
    StorageError,
)
from bot.tournament.model import Stage
from bot.tournament.ratings import PlayerRating, RatingBook, RatingChange, View
from bot.tournament.store import (
    EntryRow,
    EventRow,
    ResultRow,
    RoundRow,
    TableRow,
    config_from_json,
    result_from_json,
)
from lang import M


class ByPosition(Protocol):
    """A row read by column position: psycopg's tuple rows and ``sqlite3.Row``. A stored value's
    type is only known once it is decoded (a damaged row may hold anything), hence ``Any``."""

    def __getitem__(self, index: int, /) -> Any: ...


class ByName(Protocol):
    """A row read by column name: psycopg's dict rows and ``sqlite3.Row`` (see :class:`ByPosition`)."""

    def __getitem__(self, name: str, /) -> Any: ...


GAME_COLS = (
    "id, game_name, config, players, max_players, seed, space, creator, "
    "status, seat_order, turn_hours, timeout_policy, turn_started_at, snapshot, seq, broken_reason, "
    "created_at, updated_at, reminder_hours, remind_by, number"
)
"""The columns :func:`game_row` reads, in its order."""

SEAT_COLS = "seat, player, ai_kind, name, away_until, former_player, claimant"
"""The columns :func:`seat_rows` reads, in its order."""

ACTION_COLS = "game_id, seq, seat, player, action, action_json, created_at, public"
"""The columns :func:`action_rows` reads, in its order."""


# ---- the core's rows ---------------------------------------------------------------------------
def game_row(r: ByPosition) -> GameRow:
    """A ``games`` row read with :data:`GAME_COLS` (seats not yet attached)."""
    snapshot = r[13]
    return GameRow(
        id=int(r[0]),
        game_name=str(r[1]),
        config=json.loads(r[2]),
        players=int(r[3]),
        max_players=int(r[4]),
        seed=int(r[5]),
        space=r[6],
        creator=r[7],
        status=str(r[8]),
        seat_order=str(r[9]),
        turn_hours=r[10],
        timeout_policy=str(r[11]),
        turn_started_at=r[12],
        snapshot=json.loads(snapshot) if snapshot else None,
        seq=int(r[14]),
        broken_reason=r[15],
        created_at=float(r[16]),
        updated_at=float(r[17]),
        reminder_hours=r[18],
        remind_by=str(r[19] or "thread"),
        number=int(r[20]),
    )


def seat_rows(rows: Iterable[ByPosition]) -> list[SeatRow]:
    """``seats`` rows read with :data:`SEAT_COLS`."""
    return [SeatRow(int(r[0]), r[1], r[2], str(r[3]), r[4], r[5], r[6]) for r in rows]


def game_with_seats(game_id: int, row: ByPosition, seats: Iterable[ByPosition]) -> GameRow:
    """The game and its seats; a row that does not decode is a StorageError of this game only
    (start-up reads every open game and every event's tables: one damaged game breaks itself)."""
    try:
        game = game_row(row)
        game.seats = seat_rows(seats)
    except (ValueError, TypeError, KeyError) as exc:
        raise StorageError(
            "corrupted_row",
            M(
                "Game #{game} has a corrupted row: {error}",
                game=game_id,
                error=f"{type(exc).__name__}: {exc}",
            ),
        ) from exc
    return game


def action_rows(rows: Iterable[ByPosition]) -> list[ActionRow]:
    """``actions`` rows read with :data:`ACTION_COLS`."""
    return [
        ActionRow(int(r[0]), int(r[1]), int(r[2]), r[3], str(r[4]), json.loads(r[5]), float(r[6]), r[7])
        for r in rows
    ]


def due_entries(rows: Iterable[ByPosition]) -> list[DueEntry]:
    """``schedule`` rows read as ``game_id, kind, due_at, seq``."""
    return [DueEntry(int(r[0]), str(r[1]), float(r[2]), int(r[3])) for r in rows]


def schedule_map(rows: Iterable[ByPosition]) -> dict[str, tuple[float, int]]:
    """One game's ``schedule`` rows read as ``kind, due_at, seq``."""
    return {str(r[0]): (float(r[1]), int(r[2])) for r in rows}


def game_record(row: ByPosition) -> GameRecord:
    """A raw record read as ``game_name, config, players, seed, status, snapshot, seq, seat count,
    log`` (the log a JSON array of ``[seq, seat, text, action_json]``): values stay as stored."""
    name, config, players, seed, status, snapshot, seq, seat_count, log_text = (row[i] for i in range(9))
    return GameRecord(
        game_name=str(name),
        config=config,
        players=players,
        seed=seed,
        status=str(status),
        snapshot=snapshot,
        seq=seq,
        seat_count=int(seat_count),
        log=tuple(LoggedAction(int(e[0]), e[1], e[2], e[3]) for e in json.loads(log_text)),
    )


def game_export(game: GameRow, actions: Sequence[ActionRow]) -> GameExport:
    """The game as :class:`~bot.store.rows.GameExport` (it re-simulates exactly)."""
    return {
        "id": game.id,
        "game": game.game_name,
        "config": game.config,
        "players": game.players,
        "seed": game.seed,
        "seats": [{"seat": s.seat, "name": s.name, "ai": s.ai_kind if s.is_ai else None} for s in game.seats],
        "status": game.status,
        "actions": [[a.seat, a.action] for a in actions],
    }


# ---- the tournaments' rows ---------------------------------------------------------------------
def event_row(r: ByName) -> EventRow:
    """A ``tournament_events`` row."""
    return EventRow(
        id=int(r["id"]),
        space=r["space"],
        name=r["name"],
        creator=r["creator"],
        game_name=r["game_name"],
        config=config_from_json(json.loads(r["config"])),
        settings=json.loads(r["settings"]),
        seed=int(r["seed"]),
        status=r["status"],
        round=int(r["round"]),
        created_at=float(r["created_at"]),
        number=int(r["number"]),
    )


def entry_row(r: ByName) -> EntryRow:
    """A ``tournament_entries`` row."""
    return EntryRow(r["player"], r["name"], int(r["position"]), r["state"], bool(r["checked_in"]))


def round_row(r: ByName) -> RoundRow:
    """A ``tournament_rounds`` row."""
    return RoundRow(int(r["round"]), r["stage"], float(r["started_at"]), r["deadline_at"], r["finished_at"])


def table_row(r: ByName) -> TableRow:
    """A ``tournament_tables`` row."""
    return TableRow(
        event_id=int(r["event_id"]),
        round=int(r["round"]),
        number=int(r["table_no"]),
        board=r["board"],
        seats=tuple(json.loads(r["seats"])),
        stage=Stage(r["stage"]),
        group=r["grp"],
        game_id=r["game_id"],
        adjudicated=bool(r["adjudicated"]),
    )


def result_row(r: ByName) -> ResultRow:
    """A ``tournament_results`` row."""
    return ResultRow(
        int(r["id"]),
        int(r["round"]),
        int(r["table_no"]),
        int(r["game_id"]),
        result_from_json(json.loads(r["result"])),
        r["correction_reason"],
        r["corrected_by"],
        float(r["created_at"]),
    )


RATING_COLS = (
    "space, event_id, game_id, player, family, board, rank, ai_takeover, counted,"
    " mu_before, sigma_before, games_before, mu_after, sigma_after, games_after, created_at"
)
"""The columns :func:`rating_values` fills, in its order."""

RatingValues = tuple[
    str, int, int, str, str, str | None, int, int, int, float, float, int, float, float, int, float
]


def rating_values(
    space: str, event_of: Mapping[str, int], changes: Iterable[RatingChange], now: float
) -> list[RatingValues]:
    """The ``tournament_ratings`` rows (:data:`RATING_COLS`) that record ``changes``."""
    return [
        (
            space,
            event_of[c.game_id],
            int(c.game_id),
            c.player,
            c.view.family,
            c.view.board,
            c.rank,
            int(c.ai_takeover),
            int(c.counted),
            c.before.mu,
            c.before.sigma,
            c.before.games,
            c.after.mu,
            c.after.sigma,
            c.after.games,
            now,
        )
        for c in changes
    ]


def rating_book(rows: Iterable[ByName]) -> RatingBook:
    """A space's ratings rebuilt from its ``tournament_ratings`` rows, oldest first (each view's
    latest value per player)."""
    views: dict[View, dict[str, PlayerRating]] = {}
    history: list[RatingChange] = []
    games: set[str] = set()
    for r in rows:
        view = View(r["family"], r["board"])
        before = PlayerRating(r["player"], r["mu_before"], r["sigma_before"], int(r["games_before"]))
        after = PlayerRating(r["player"], r["mu_after"], r["sigma_after"], int(r["games_after"]))
        history.append(
            RatingChange(
                player=r["player"],
                game_id=str(r["game_id"]),
                view=view,
                rank=int(r["rank"]),
                ai_takeover=bool(r["ai_takeover"]),
                counted=bool(r["counted"]),
                before=before,
                after=after,
            )
        )
        if after.games:
            views.setdefault(view, {})[r["player"]] = after
        games.add(str(r["game_id"]))
    return RatingBook(views=views, history=tuple(history), rated_games=frozenset(games))
