"""The embedded default backend: one SQLite file in WAL mode (aiosqlite), for one process.

:class:`SqliteStore` implements :class:`bot.store.api.Store`: the core's tables here, the
tournaments' in :mod:`bot.store.sqlite_tournament`, the Discord adapter's in
:mod:`bot.store.sqlite_discord`, the web pages' in :mod:`bot.store.sqlite_web`, all on one
connection (:mod:`bot.store.sqlite_conn`) and one file,
each owner's tables migrated by its own list (:mod:`bot.store.sqlite_migrate`).

The one write that matters is :meth:`SqliteStore.commit_action`: the action row and the new
snapshot are written in a single transaction, and only if the game's ``seq`` is still the one the
caller loaded. A double click, a retried interaction or two players pressing at once therefore
apply at most one action; the loser gets :class:`~bot.store.rows.SeqConflict`. It is one round
trip to SQLite's thread.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Self, TypeVar, Unpack

import aiosqlite

from bot.store.api import OPEN_STATUSES, JsonMapping
from bot.store.decode import (
    ACTION_COLS,
    GAME_COLS,
    SEAT_COLS,
    action_rows,
    due_entries,
    game_export,
    game_record,
    game_with_seats,
    schedule_map,
)
from bot.store.migrations import SQLITE
from bot.store.rows import (
    ACTIVE,
    BROKEN,
    LOBBY,
    ActionRow,
    DueEntry,
    GameExport,
    GameRecord,
    GameRow,
    GameStatus,
    GameUpdate,
    RecordUnreadable,
    Schedule,
    SeatRow,
    SeatUpdate,
    SeqConflict,
    StorageError,
)
from bot.store.sqlite_conn import SqliteConnection, open_failure
from bot.store.sqlite_discord import SqliteDiscordTables
from bot.store.sqlite_migrate import legacy_version, migrate, owner_versions
from bot.store.sqlite_outbox import SqliteOutbox
from bot.store.sqlite_tournament import SqliteTournamentTables
from bot.store.sqlite_web import SqliteWebTables
from lang import M
from rules.protocol import JSON

log = logging.getLogger("conductor.storage")

T = TypeVar("T")

DEFAULT_DB = "conductor.db"

SqliteError = sqlite3.Error
"""What SQLite raises when a file cannot be read or written (for the CLI's messages)."""
SqliteDamaged = sqlite3.DatabaseError
"""What SQLite raises on pages too damaged to read."""

LOCAL_PROCESS = "local"
"""The name of the one process that uses an embedded database (see :class:`~bot.store.api.GameOwnership`)."""

ActionValues = tuple[int, int, int, str | None, str, str, float, str | None]
"""An ``actions`` row as written: game, seq, seat, player, text, JSON text, time, public sentence."""

# One statement, one consistent read: the row plus its log as a JSON array of
# [seq, seat, text, action_json] (action_json stays a string, so a corrupted one is still read).
_RECORD_SQL = """
SELECT g.game_name, g.config, g.players, g.seed, g.status, g.snapshot, g.seq,
       (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id),
       (SELECT json_group_array(json_array(a.seq, a.seat, a.action, a.action_json))
          FROM (SELECT seq, seat, action, action_json FROM actions WHERE game_id = g.id ORDER BY seq) AS a)
FROM games g WHERE g.id = ?
"""


def db_path_from_env() -> str:
    """The database path: ``CONDUCTOR_DB`` or ``./conductor.db``."""
    return os.environ.get("CONDUCTOR_DB") or DEFAULT_DB


def _write_seats(db: sqlite3.Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    """Replace the game's seats (in list order) and remember every person's name for the log."""
    db.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
    db.executemany(
        "INSERT INTO seats (game_id, seat, player, ai_kind, name, away_until, former_player, claimant)"
        " VALUES (?,?,?,?,?,?,?,?)",
        [
            (game_id, i, s.player, s.ai_kind, s.name, s.away_until, s.former_player, s.claimant)
            for i, s in enumerate(seats)
        ],
    )
    db.executemany(
        "INSERT INTO game_players (game_id, player, name) VALUES (?,?,?)"
        " ON CONFLICT(game_id, player) DO UPDATE SET name=excluded.name",
        [(game_id, s.player, s.name) for s in seats if s.player is not None],
    )


def _write_schedule(db: sqlite3.Connection, game_id: int, entries: Schedule) -> None:
    """Replace the game's schedule with ``{kind: (due_at, seq)}``."""
    db.execute("DELETE FROM schedule WHERE game_id=?", (game_id,))
    db.executemany(
        "INSERT INTO schedule (game_id, kind, due_at, seq) VALUES (?,?,?,?)",
        [(game_id, kind, due, seq) for kind, (due, seq) in entries.items()],
    )


class SqliteStore:
    """One SQLite file behind the storage port. ``db`` is the raw connection, for tests and
    SQLite's own tooling only; everything else goes through the port's methods."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        clock: Callable[[], float] = time.time,
        *,
        migrations: Mapping[str, Sequence[str]] = SQLITE,
    ) -> None:
        self.conn = SqliteConnection(path)
        self.path = self.conn.path
        self.clock = clock
        self.process = LOCAL_PROCESS
        self._migrations = migrations
        self._tournaments = SqliteTournamentTables(self.conn, clock)
        self._discord = SqliteDiscordTables(self.conn, clock)
        self._web = SqliteWebTables(self.conn, clock)
        self._outbox = SqliteOutbox(self.conn, clock)

    @property
    def tournaments(self) -> SqliteTournamentTables:
        return self._tournaments

    @property
    def discord(self) -> SqliteDiscordTables:
        return self._discord

    @property
    def web(self) -> SqliteWebTables:
        return self._web

    @property
    def outbox(self) -> SqliteOutbox:
        return self._outbox

    # ---- lifecycle -------------------------------------------------------------------------
    async def open(self) -> Self:
        """Connect, switch to WAL and apply every owner's pending migrations.

        A location that cannot be opened or written raises StorageError naming the path and the fix
        (SQLite itself only says "unable to open database file")."""
        await self.conn.open()
        try:
            await migrate(self.conn, self._migrations)
        except sqlite3.Error as exc:
            await self.close()
            raise open_failure(self.path, exc) from exc
        except BaseException:
            # A refused database (e.g. a newer schema) must not leave its connection thread behind.
            await self.close()
            raise
        return self

    async def close(self) -> None:
        await self.conn.close()

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        return self.conn.db

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return await self.conn.run(work)

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return await self.conn.write(work)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self.conn.transaction() as db:
            yield db

    async def schema_version(self) -> int:
        """The ``schema_version`` mark (see :mod:`bot.store.sqlite_migrate`)."""
        return await legacy_version(self.conn)

    async def schema_versions(self) -> dict[str, int]:
        return await owner_versions(self.conn)

    # ---- meta ------------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        row = await self.run(lambda db: db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone())
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self.write(
            lambda db: db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )
        )

    # ---- games -----------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        game_name: str,
        config: JsonMapping,
        seed: int,
        max_players: int,
        space: str | None,
        creator: str | None,
        seat_order: str = "shuffle",
        turn_hours: float | None = None,
        timeout_policy: str = "ai",
        reminder_hours: float | None = None,
        remind_by: str = "thread",
    ) -> int:
        """Insert a game in the lobby; returns its id. The game gets the next number of its space
        (:meth:`game_numbered`), allocated in the same transaction so two creations never share one."""
        now = self.clock()
        params = (
            game_name,
            json.dumps(config, sort_keys=True),
            max_players,
            seed,
            space,
            creator,
            LOBBY,
            seat_order,
            turn_hours,
            timeout_policy,
            now,
            now,
            reminder_hours,
            remind_by,
            space,
        )

        def insert(db: sqlite3.Connection) -> int | None:
            return db.execute(
                "INSERT INTO games (game_name, config, max_players, seed, space, creator, status,"
                " seat_order, turn_hours, timeout_policy, created_at, updated_at, reminder_hours, remind_by, number)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
                " (SELECT ifnull(MAX(number), 0) + 1 FROM games WHERE ifnull(space, '') = ifnull(?, '')))",
                params,
            ).lastrowid

        game_id = await self.write(insert)
        assert game_id is not None
        return int(game_id)

    async def get_game(self, game_id: int) -> GameRow:
        """The game and its seats (one round trip). Raises StorageError if missing or undecodable."""

        def read(db: sqlite3.Connection) -> tuple[sqlite3.Row | None, list[sqlite3.Row]]:
            row = db.execute(f"SELECT {GAME_COLS} FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                return None, []
            return row, db.execute(
                f"SELECT {SEAT_COLS} FROM seats WHERE game_id=? ORDER BY seat",
                (game_id,),
            ).fetchall()

        row, seats = await self.run(read)
        if row is None:
            raise StorageError("no_game", M("There is no game #{game}.", game=game_id))
        return game_with_seats(game_id, row, seats)

    async def has_game(self, game_id: int) -> bool:
        row = await self.run(lambda db: db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone())
        return row is not None

    async def game_ids(self, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[int]:
        marks = ",".join("?" * len(statuses))
        rows = await self.db.execute_fetchall(
            f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [int(r[0]) for r in rows]

    async def game_statuses(self) -> list[GameStatus]:
        rows = await self.db.execute_fetchall("SELECT id, status, broken_reason FROM games ORDER BY id")
        return [GameStatus(int(r[0]), str(r[1]), r[2]) for r in rows]

    async def game_numbered(self, space: str | None, number: int) -> int | None:
        """The id of game ``number`` of ``space`` (None: the games made outside any server), or None."""
        rows = list(
            await self.db.execute_fetchall(
                "SELECT id FROM games WHERE ifnull(space, '') = ifnull(?, '') AND number=?", (space, number)
            )
        )
        return None if not rows else int(rows[0][0])

    async def game_number(self, game_id: int) -> int | None:
        """Game ``game_id``'s number within its space (read alone, so even a damaged row has one)."""
        rows = list(await self.db.execute_fetchall("SELECT number FROM games WHERE id=?", (game_id,)))
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def numbered_games_of_player(self, player: str, number: int) -> list[int]:
        """The ids of the games numbered ``number`` (in any space) in which ``player`` holds a seat."""
        rows = await self.db.execute_fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id WHERE s.player=? AND g.number=?"
            " ORDER BY g.id",
            (player, number),
        )
        return [int(r[0]) for r in rows]

    async def games_of_player(self, player: str, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[int]:
        marks = ",".join("?" * len(statuses))
        rows = await self.db.execute_fetchall(
            f"SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id WHERE s.player=? AND g.status IN ({marks})"
            " ORDER BY g.id",
            (player, *statuses),
        )
        return [int(r[0]) for r in rows]

    async def update_game(self, game_id: int, **fields: Unpack[GameUpdate]) -> None:
        """Set plain columns (``status``, ``turn_started_at`` …) on a game."""
        allowed = {
            "status",
            "turn_started_at",
            "broken_reason",
            "turn_hours",
            "timeout_policy",
            "reminder_hours",
            "remind_by",
        }
        bad = set(fields) - allowed
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        sets = ", ".join(f"{k}=?" for k in fields)
        params = (*fields.values(), self.clock(), game_id)
        await self.write(lambda db: db.execute(f"UPDATE games SET {sets}, updated_at=? WHERE id=?", params))

    async def mark_broken(self, game_id: int, reason: str) -> None:
        log.error("game=%s marked broken: %s", game_id, reason)
        await self.update_game(game_id, status=BROKEN, broken_reason=reason[:500])

    # ---- seats -----------------------------------------------------------------------------
    async def set_lobby_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace the lobby's seat list (join order)."""
        now = self.clock()

        def save(db: sqlite3.Connection) -> None:
            _write_seats(db, game_id, seats)
            db.execute("UPDATE games SET updated_at=? WHERE id=?", (now, game_id))

        await self.write(save)

    async def start_game(
        self,
        game_id: int,
        seats: Sequence[SeatRow],
        snapshot: JsonMapping,
        started_at: float,
        config: JsonMapping | None = None,
    ) -> None:
        """Move a lobby game to active with its final seat order and initial snapshot (seq 0).
        ``config``: the engine's resolved config, pinned so later default changes never touch it."""
        params = (
            ACTIVE,
            len(seats),
            json.dumps(snapshot),
            started_at,
            self.clock(),
            None if config is None else json.dumps(config, sort_keys=True),
            game_id,
            LOBBY,
        )

        def start(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE games SET status=?, players=?, snapshot=?, seq=0, turn_started_at=?, updated_at=?,"
                " config=COALESCE(?, config) WHERE id=? AND status=?",
                params,
            )
            if cur.rowcount != 1:
                raise SeqConflict(f"game #{game_id} is no longer in its lobby")
            _write_seats(db, game_id, seats)

        await self.write(start)

    async def update_seat(self, game_id: int, seat: int, **fields: Unpack[SeatUpdate]) -> None:
        """Change ``player``, ``ai_kind``, ``name``, ``away_until``, ``former_player`` or ``claimant``
        of one seat. A person taking the seat is remembered by name for the move log."""
        bad = set(fields) - {"player", "ai_kind", "name", "away_until", "former_player", "claimant"}
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        sets = ", ".join(f"{k}=?" for k in fields)
        player, name = fields.get("player"), fields.get("name")

        def update(db: sqlite3.Connection) -> None:
            db.execute(
                f"UPDATE seats SET {sets} WHERE game_id=? AND seat=?", (*fields.values(), game_id, seat)
            )
            if player is not None and name is not None:
                db.execute(
                    "INSERT INTO game_players (game_id, player, name) VALUES (?,?,?)"
                    " ON CONFLICT(game_id, player) DO UPDATE SET name=excluded.name",
                    (game_id, player, name),
                )

        await self.write(update)

    async def player_names(self, game_id: int) -> dict[str, str]:
        """The name of every person who ever held a seat in the game (for the move log)."""
        rows = await self.db.execute_fetchall(
            "SELECT player, name FROM game_players WHERE game_id=?", (game_id,)
        )
        return {str(r[0]): str(r[1]) for r in rows}

    # ---- actions ---------------------------------------------------------------------------
    async def commit_action(
        self,
        game_id: int,
        expected_seq: int,
        seat: int,
        player: str | None,
        action_text: str,
        action_json: JsonMapping,
        snapshot: JsonMapping,
        *,
        status: str = ACTIVE,
        turn_started_at: float | None = None,
        public: str | None = None,
        schedule: Schedule | None = None,
    ) -> int:
        """Append action ``expected_seq + 1`` and the new snapshot atomically; returns the new seq.

        Raises :class:`SeqConflict` if the game's seq is no longer ``expected_seq`` (or the
        game is not active): nothing is written then. ``schedule`` (``{kind: (due_at, seq)}``, as
        :meth:`set_schedule`) replaces the game's timers in the same transaction. One round trip.
        """
        now = self.clock()
        new_seq = expected_seq + 1
        game_update = (
            json.dumps(snapshot),
            new_seq,
            status,
            now,
            turn_started_at,
            game_id,
            expected_seq,
            ACTIVE,
        )
        action_row = (game_id, new_seq, seat, player, action_text, json.dumps(action_json), now, public)

        def commit(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "UPDATE games SET snapshot=?, seq=?, status=?, updated_at=?,"
                " turn_started_at=COALESCE(?, turn_started_at) WHERE id=? AND seq=? AND status=?",
                game_update,
            )
            if cur.rowcount != 1:
                raise SeqConflict(f"game #{game_id} is past seq {expected_seq}")
            try:
                self._insert_action(db, action_row)
            except sqlite3.IntegrityError as exc:
                raise SeqConflict(f"game #{game_id} already has action {new_seq}") from exc
            if schedule is not None:
                _write_schedule(db, game_id, schedule)

        await self.write(commit)
        return new_seq

    def _insert_action(self, db: sqlite3.Connection, row: ActionValues) -> None:
        """Append one action row, inside :meth:`commit_action`'s transaction on SQLite's thread.

        A method of its own so a fault-injection bench can fail exactly this write (after the
        game row was updated) and check that SQLite rolls the whole move back."""
        db.execute(
            "INSERT INTO actions (game_id, seq, seat, player, action, action_json, created_at, public)"
            " VALUES (?,?,?,?,?,?,?,?)",
            row,
        )

    async def count_actions(self, game_id: int, seat: int) -> int:
        """How many actions ``seat`` has made in the game (the seat's own decision counter)."""
        rows = list(
            await self.db.execute_fetchall(
                "SELECT COUNT(*) FROM actions WHERE game_id=? AND seat=?", (game_id, seat)
            )
        )
        return int(rows[0][0]) if rows else 0

    async def set_plan(self, game_id: int, seat: int, steps: JSON | None) -> None:
        if steps is None:
            await self.write(
                lambda db: db.execute("DELETE FROM plans WHERE game_id=? AND seat=?", (game_id, seat))
            )
            return
        text = json.dumps(steps)
        await self.write(
            lambda db: db.execute(
                "INSERT INTO plans (game_id, seat, steps) VALUES (?, ?, ?) "
                "ON CONFLICT(game_id, seat) DO UPDATE SET steps=excluded.steps",
                (game_id, seat, text),
            )
        )

    async def plans(self, game_id: int) -> dict[int, JSON]:
        rows = await self.run(
            lambda db: db.execute("SELECT seat, steps FROM plans WHERE game_id=?", (game_id,)).fetchall()
        )
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def moves_per_seat(self, game_id: int) -> dict[int, int]:
        """How many actions each seat has made in the game (seats that never moved are absent)."""
        rows = await self.db.execute_fetchall(
            "SELECT seat, COUNT(*) FROM actions WHERE game_id=? GROUP BY seat", (game_id,)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def actions(self, game_id: int, since_seq: int = 0, limit: int | None = None) -> list[ActionRow]:
        """Actions after ``since_seq`` in order (the last ``limit`` if given)."""
        if limit is None:
            sql = f"SELECT {ACTION_COLS} FROM actions WHERE game_id=? AND seq>? ORDER BY seq"
            params: tuple[int, ...] = (game_id, since_seq)
        else:
            sql = (
                f"SELECT * FROM (SELECT {ACTION_COLS} FROM actions WHERE game_id=? AND seq>? ORDER BY seq DESC"
                " LIMIT ?) ORDER BY seq"
            )
            params = (game_id, since_seq, limit)
        rows = await self.db.execute_fetchall(sql, params)
        return action_rows(rows)

    # ---- schedule --------------------------------------------------------------------------
    async def set_schedule(self, game_id: int, entries: Schedule) -> None:
        """Replace the game's schedule with ``{kind: (due_at, seq)}``."""
        await self.write(lambda db: _write_schedule(db, game_id, entries))

    async def clear_schedule(self, game_id: int, kind: str | None = None) -> None:
        if kind is None:
            await self.write(lambda db: db.execute("DELETE FROM schedule WHERE game_id=?", (game_id,)))
        else:
            await self.write(
                lambda db: db.execute("DELETE FROM schedule WHERE game_id=? AND kind=?", (game_id, kind))
            )

    async def delete_schedule_entry(self, game_id: int, kind: str, seq: int) -> None:
        """Remove one entry if it is still the one for ``seq`` (a newer turn's entry stays)."""
        await self.write(
            lambda db: db.execute(
                "DELETE FROM schedule WHERE game_id=? AND kind=? AND seq=?", (game_id, kind, seq)
            )
        )

    async def due(self, now: float) -> list[DueEntry]:
        """Schedule entries due at ``now``: ``(game_id, kind, due_at, seq)`` oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT game_id, kind, due_at, seq FROM schedule WHERE due_at<=? ORDER BY due_at", (now,)
        )
        return due_entries(rows)

    async def claim_due(self, now: float, hold: float) -> list[DueEntry]:
        return await self.due(now)  # one process uses an embedded file: nobody else takes a timer

    async def schedule_of(self, game_id: int) -> dict[str, tuple[float, int]]:
        rows = await self.db.execute_fetchall(
            "SELECT kind, due_at, seq FROM schedule WHERE game_id=?", (game_id,)
        )
        return schedule_map(rows)

    # ---- ownership -------------------------------------------------------------------------
    async def claim_game(self, game_id: int) -> bool:
        return True  # one process uses an embedded file: it acts for every game

    async def game_owner(self, game_id: int) -> str | None:
        return self.process if await self.has_game(game_id) else None

    # ---- integrity, backup, export ---------------------------------------------------------
    async def game_record(self, game_id: int) -> GameRecord | None:
        try:
            row = await self.run(lambda db: db.execute(_RECORD_SQL, (game_id,)).fetchone())
        except sqlite3.Error as exc:
            raise RecordUnreadable(str(exc)) from exc
        if row is None:
            return None
        return game_record(row)

    async def integrity_problems(self) -> list[str]:
        rows = await self.db.execute_fetchall("PRAGMA integrity_check")
        verdict = [line for row in rows for line in str(row[0]).splitlines()]
        return [] if verdict == ["ok"] else verdict

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Copy the live database to ``dest`` with SQLite's online backup API."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        target = await aiosqlite.connect(str(dest))
        try:
            await self.db.backup(target)
        finally:
            await target.close()

    async def export_game(self, game_id: int) -> GameExport:
        """``{"game","config","players","seed","actions":[[seat, text], …]}`` that re-simulates exactly."""
        return game_export(await self.get_game(game_id), await self.actions(game_id))


def backup_file(src: str, dest: str) -> None:
    """Blocking online backup (for the CLI): works while the bot is running on ``src``."""
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(src) as source, sqlite3.connect(dest) as target:
        source.backup(target)
