"""SQLite persistence for Conductor (aiosqlite, WAL mode, versioned migrations).

Everything a game needs to survive a restart lives here: the game row (config, seed, seats,
timer settings and a JSON snapshot of the full state), the action log keyed by ``(game_id, seq)``,
and the scheduler's due times. Players are references (``"discord:1234"``), so any front end can
stand here; a front end keeps its own routing in its own tables (the Discord adapter's
``discord_routes`` and ``discord_messages``, see :mod:`bot.discord_app.store`).

The one write that matters is :meth:`Storage.commit_action`: the action row and the new snapshot
are written in a single transaction, and only if the game's ``seq`` is still the one the caller
loaded. A double click, a retried interaction or two players pressing at once therefore apply at
most one action; the loser gets :class:`SeqConflict`.

Every call into aiosqlite is a round trip from the event loop to the connection's own thread and
back. The frequent reads and writes therefore run as one plain function on that thread
(:meth:`Storage.run`, and :meth:`Storage.write` for a whole transaction): a move is one round trip,
not one per statement, fetch and cursor.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from lang import CatalogError, M

log = logging.getLogger("conductor.storage")

T = TypeVar("T")

DEFAULT_DB = "conductor.db"

# Each entry migrates the schema from version i to i+1. Never edit a released entry; append.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_name TEXT NOT NULL,
        config TEXT NOT NULL,
        players INTEGER NOT NULL DEFAULT 0,
        max_players INTEGER NOT NULL DEFAULT 5,
        seed INTEGER NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER,
        creator_id INTEGER,
        status TEXT NOT NULL,
        seat_order TEXT NOT NULL DEFAULT 'shuffle',
        turn_hours REAL,
        timeout_policy TEXT NOT NULL DEFAULT 'ai',
        turn_started_at REAL,
        snapshot TEXT,
        seq INTEGER NOT NULL DEFAULT 0,
        broken_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_status ON games(status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        ai_kind TEXT,
        name TEXT NOT NULL,
        away_until REAL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        action TEXT NOT NULL,
        action_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE messages (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'board',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, message_id)
    );
    CREATE TABLE schedule (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    CREATE INDEX schedule_due ON schedule(due_at);
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2: front-end neutral core. Players are references ("discord:1234"), a game belongs to a
    # space (the community it was created in, "discord:guild:5678"), and Discord's routing (guild,
    # channel, thread, posted messages) moves to the Discord adapter's own tables.
    """
    ALTER TABLE seats ADD COLUMN player TEXT;
    UPDATE seats SET player = 'discord:' || user_id WHERE user_id IS NOT NULL;
    DROP INDEX seats_user;
    ALTER TABLE seats DROP COLUMN user_id;
    CREATE INDEX seats_player ON seats(player);
    ALTER TABLE actions ADD COLUMN player TEXT;
    UPDATE actions SET player = 'discord:' || user_id WHERE user_id IS NOT NULL;
    ALTER TABLE actions DROP COLUMN user_id;
    ALTER TABLE games ADD COLUMN creator TEXT;
    UPDATE games SET creator = 'discord:' || creator_id WHERE creator_id IS NOT NULL;
    ALTER TABLE games ADD COLUMN space TEXT;
    UPDATE games SET space = 'discord:guild:' || guild_id WHERE guild_id IS NOT NULL;
    CREATE INDEX games_space ON games(space);
    CREATE TABLE discord_routes (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER
    );
    INSERT INTO discord_routes (game_id, guild_id, channel_id, thread_id)
        SELECT id, guild_id, channel_id, thread_id FROM games
        WHERE guild_id IS NOT NULL OR channel_id IS NOT NULL OR thread_id IS NOT NULL;
    CREATE INDEX discord_routes_thread ON discord_routes(thread_id);
    CREATE INDEX discord_routes_channel ON discord_routes(channel_id);
    ALTER TABLE games DROP COLUMN creator_id;
    ALTER TABLE games DROP COLUMN guild_id;
    ALTER TABLE games DROP COLUMN channel_id;
    ALTER TABLE games DROP COLUMN thread_id;
    ALTER TABLE messages RENAME TO discord_messages;
    """,
    # 3: a started game keeps the rules it started with. The engine's resolved config (every setting
    # with the default of its day) is pinned in the row, so a later change of a default never
    # changes a running game or makes its log replay differently.
    """
    UPDATE games SET config = json_extract(snapshot, '$.config')
        WHERE snapshot IS NOT NULL AND json_type(snapshot, '$.config') = 'object';
    """,
    # 4: seats change hands. A seat remembers the person who last held it (``former_player``) and
    # who asked to take it back (``claimant``); every person who ever sat in a game keeps a name for
    # the move log (``game_players``); each move keeps the public sentence said when it was made
    # (``public``); games choose when and how their reminder comes.
    """
    ALTER TABLE seats ADD COLUMN former_player TEXT;
    ALTER TABLE seats ADD COLUMN claimant TEXT;
    CREATE TABLE game_players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    INSERT OR IGNORE INTO game_players (game_id, player, name)
        SELECT game_id, player, name FROM seats WHERE player IS NOT NULL;
    ALTER TABLE actions ADD COLUMN public TEXT;
    ALTER TABLE games ADD COLUMN reminder_hours REAL;
    ALTER TABLE games ADD COLUMN remind_by TEXT NOT NULL DEFAULT 'thread';
    """,
    # 5: the Discord adapter's hand kept in a direct message, opt-in per player: who asked for it,
    # and the one message per (game, player) that the bot edits instead of posting new ones.
    """
    CREATE TABLE discord_dm_optin (
        player TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL
    );
    CREATE TABLE discord_dm_hands (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    """,
    # 6: per-server settings of the Discord adapter: the optional "game manager" role whose
    # holders may abort, kick, replace and start that server's games like its admins.
    """
    CREATE TABLE discord_guild_settings (
        guild_id INTEGER PRIMARY KEY,
        manager_role_id INTEGER
    );
    """,
    # 7: community tournaments. An event belongs to the space it was created in; its tables are
    # ordinary games (``game_id``), so results are read from the games' final scores. Corrections are
    # kept beside the engine's result with their reasons, and every rating change is kept as history.
    """
    CREATE TABLE tournament_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space TEXT NOT NULL,
        name TEXT NOT NULL,
        creator TEXT NOT NULL,
        game_name TEXT NOT NULL,
        config TEXT NOT NULL,
        settings TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL,
        round INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tournament_events_space ON tournament_events(space, status);
    CREATE TABLE tournament_registrations (
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        position INTEGER NOT NULL,
        state TEXT NOT NULL,
        checked_in INTEGER NOT NULL DEFAULT 0,
        joined_at REAL NOT NULL,
        PRIMARY KEY (event_id, player)
    );
    CREATE TABLE tournament_rounds (
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        stage TEXT NOT NULL,
        started_at REAL NOT NULL,
        deadline_at REAL,
        finished_at REAL,
        PRIMARY KEY (event_id, round)
    );
    CREATE TABLE tournament_tables (
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        board TEXT NOT NULL,
        seats TEXT NOT NULL,
        stage TEXT NOT NULL,
        grp INTEGER,
        game_id INTEGER REFERENCES games(id),
        adjudicated INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (event_id, round, table_no)
    );
    CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables(game_id);
    CREATE TABLE tournament_results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        result TEXT NOT NULL,
        correction_reason TEXT,
        corrected_by TEXT,
        created_at REAL NOT NULL
    );
    CREATE INDEX tournament_results_table ON tournament_results(event_id, round, table_no);
    CREATE TABLE tournament_ratings (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space TEXT NOT NULL,
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL,
        player TEXT NOT NULL,
        family TEXT NOT NULL,
        board TEXT,
        rank INTEGER NOT NULL,
        ai_takeover INTEGER NOT NULL,
        counted INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        games_before INTEGER NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        games_after INTEGER NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX tournament_ratings_space ON tournament_ratings(space, family);
    CREATE TABLE tournament_discord (
        event_id INTEGER PRIMARY KEY REFERENCES tournament_events(id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER,
        status_message_id INTEGER
    );
    """,
    # 8: game numbers people type and read are counted per space (each server from 1; games made
    # outside any server, in the terminal, count among themselves), so a number reveals nothing
    # about other servers and cannot be walked through to find their games. The row id stays the
    # internal key. Existing games are numbered per space in the order they were created.
    """
    ALTER TABLE games ADD COLUMN number INTEGER;
    UPDATE games SET number = (
        SELECT numbered.n FROM (
            SELECT id, ROW_NUMBER() OVER (PARTITION BY space ORDER BY created_at, id) AS n FROM games
        ) AS numbered WHERE numbered.id = games.id
    );
    CREATE UNIQUE INDEX games_space_number ON games(ifnull(space, ''), number);
    """,
    # 9: a server's default language for its new games
    # (``/ttr language``); each game pins its own in its config.
    """
    ALTER TABLE discord_guild_settings ADD COLUMN language TEXT;
    """,
    # 10: whether a player lets other servers' cross-server leaderboards list them (``/profile
    # share:``); no row means no, so nobody appears outside their own servers unless they chose to.
    """
    CREATE TABLE rating_sharing (
        player TEXT PRIMARY KEY,
        shared INTEGER NOT NULL
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)

# Game status values.
LOBBY, ACTIVE, OVER, ABORTED, BROKEN = "lobby", "active", "over", "aborted", "broken"


class SeqConflict(Exception):
    """The game moved on since it was loaded: someone else's action was committed first."""


class StorageError(CatalogError):
    """A database or a row that cannot be used (a location SQLite cannot open, a newer schema, an
    unknown game, a corrupted row …): ``code``, the English ``message`` for logs, and ``said`` for
    whoever shows it to a person, in their language (see :class:`lang.CatalogError`)."""


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
    """A ``games`` row plus its seats, decoded."""

    id: int
    game_name: str
    config: dict[str, Any]
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
    snapshot: dict[str, Any] | None
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
    action_json: dict[str, Any]
    created_at: float
    public: str | None = None


def _open_failure(path: str, exc: OSError | sqlite3.Error) -> StorageError:
    """Why ``path`` cannot be used as the database and what to do about it (SQLite only says
    "unable to open database file")."""
    where, message = Path(path), str(exc)
    folder = str(where.parent)
    if where.parent.exists() and not where.parent.is_dir():
        return StorageError(
            "folder_is_a_file",
            M(
                "Cannot open the database {path}: {folder} is a file, not a folder; move it, or set CONDUCTOR_DB"
                " (or pass --db) to a file in a folder this user can write.",
                path=path,
                folder=folder,
            ),
        )
    if isinstance(exc, OSError):
        return StorageError(
            "cannot_create_folder",
            M(
                "Cannot create the folder {folder} for the database {path} ({error}): create it, or set CONDUCTOR_DB"
                " (or pass --db) to a file in a folder this user can write.",
                folder=folder,
                path=path,
                error=exc.strerror or message,
            ),
        )
    if where.is_dir():
        return StorageError(
            "database_is_a_folder",
            M(
                "Cannot open the database {path}: it is a folder, not a file; set CONDUCTOR_DB (or pass --db) to a"
                " file in a folder this user can write.",
                path=path,
            ),
        )
    if "readonly" in message or "unable to open" in message:
        return StorageError(
            "cannot_write",
            M(
                "Cannot write the database {path}: SQLite must write it and, in {folder}, its -wal and -shm files"
                " next to it ({error}). Make them writable by this user, or set CONDUCTOR_DB (or pass --db) to a"
                " file in a folder this user can write.",
                path=path,
                folder=folder,
                error=message,
            ),
        )
    if "not a database" in message:
        return StorageError(
            "not_a_database",
            M(
                "Cannot open the database {path} (SQLite: {error}). If that file is not Conductor's database, set"
                " CONDUCTOR_DB (or pass --db) to the right one.",
                path=path,
                error=message,
            ),
        )
    return StorageError(
        "cannot_open", M("Cannot open the database {path} (SQLite: {error}).", path=path, error=message)
    )


def db_path_from_env() -> str:
    """The database path: ``CONDUCTOR_DB`` or ``./conductor.db``."""
    return os.environ.get("CONDUCTOR_DB") or DEFAULT_DB


_GAME_COLS = (
    "id, game_name, config, players, max_players, seed, space, creator, "
    "status, seat_order, turn_hours, timeout_policy, turn_started_at, snapshot, seq, broken_reason, "
    "created_at, updated_at, reminder_hours, remind_by, number"
)


def _write_seats(db: sqlite3.Connection, game_id: int, seats: list[SeatRow]) -> None:
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


def _write_schedule(db: sqlite3.Connection, game_id: int, entries: dict[str, tuple[float, int]]) -> None:
    """Replace the game's schedule with ``{kind: (due_at, seq)}``."""
    db.execute("DELETE FROM schedule WHERE game_id=?", (game_id,))
    db.executemany(
        "INSERT INTO schedule (game_id, kind, due_at, seq) VALUES (?,?,?,?)",
        [(game_id, kind, due, seq) for kind, (due, seq) in entries.items()],
    )


def _seat_rows(rows: Iterable[sqlite3.Row]) -> list[SeatRow]:
    return [SeatRow(int(r[0]), r[1], r[2], str(r[3]), r[4], r[5], r[6]) for r in rows]


class Storage:
    """One aiosqlite connection; writes are serialised by an asyncio lock and explicit transactions."""

    def __init__(self, path: str | os.PathLike[str], clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self.clock = clock
        self._db: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    # ---- lifecycle -------------------------------------------------------------------------
    async def open(self) -> Storage:
        """Connect, switch to WAL and apply pending migrations.

        A location that cannot be opened or written raises StorageError naming the path and the fix
        (SQLite itself only says "unable to open database file")."""
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _open_failure(self.path, exc) from exc
        connection = aiosqlite.connect(self.path, isolation_level=None)
        try:
            self._db = await connection
        except sqlite3.Error as exc:
            # aiosqlite stops its worker thread without waiting for it (omnilib/aiosqlite#387); unless
            # it is joined here, it prints "Event loop is closed" after a CLI command's loop ends.
            worker = getattr(connection, "_thread", None)
            if worker is not None:
                await asyncio.to_thread(worker.join, 5.0)
            raise _open_failure(self.path, exc) from exc
        try:
            self._db.row_factory = sqlite3.Row
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA busy_timeout=5000")
            await self.migrate()
        except sqlite3.Error as exc:
            await self.close()
            raise _open_failure(self.path, exc) from exc
        except BaseException:
            # A refused database (e.g. a newer schema) must not leave its connection thread behind.
            await self.close()
            raise
        return self

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def __aenter__(self) -> Storage:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError("not_open", M("The database is not open."))
        return self._db

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the connection's own thread: one round trip however many
        statements it runs (reads; a write goes through :meth:`write`)."""
        db = self.db
        return await db._execute(work, db._conn)  # type: ignore[no-any-return,no-untyped-call]  # noqa: SLF001

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` inside ``BEGIN IMMEDIATE`` … ``COMMIT`` on the connection's thread, in
        one round trip; ``ROLLBACK`` if it (or the commit) raises. Serialised with every other write."""

        def transact(db: sqlite3.Connection) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return result

        async with self._write_lock:
            return await self.run(transact)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any error), one at a time."""
        async with self._write_lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            else:
                await self.db.execute("COMMIT")

    async def schema_version(self) -> int:
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self) -> int:
        """Apply every migration newer than the stored version; returns the resulting version."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(
                "newer_schema",
                M(
                    "The database {path} has schema version {version}, newer than this Conductor ({supported}):"
                    " run a newer Conductor on it.",
                    path=self.path,
                    version=current,
                    supported=SCHEMA_VERSION,
                ),
            )
        for version in range(current, SCHEMA_VERSION):
            async with self.transaction() as db:
                for stmt in MIGRATIONS[version].split(";"):
                    if stmt.strip():
                        await db.execute(stmt)
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (version + 1,))
            log.info("migrated %s to schema version %d", self.path, version + 1)
        return SCHEMA_VERSION

    # ---- meta ------------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        rows = list(await self.db.execute_fetchall("SELECT value FROM meta WHERE key=?", (key,)))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

    # ---- games -----------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        game_name: str,
        config: dict[str, Any],
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
        async with self.transaction() as db:
            cur = await db.execute(
                "INSERT INTO games (game_name, config, max_players, seed, space, creator, status,"
                " seat_order, turn_hours, timeout_policy, created_at, updated_at, reminder_hours, remind_by, number)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
                " (SELECT ifnull(MAX(number), 0) + 1 FROM games WHERE ifnull(space, '') = ifnull(?, '')))",
                (
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
                ),
            )
            game_id = cur.lastrowid
        assert game_id is not None
        return int(game_id)

    def _decode_game(self, row: sqlite3.Row) -> GameRow:
        snapshot = row["snapshot"]
        return GameRow(
            id=int(row["id"]),
            game_name=str(row["game_name"]),
            config=json.loads(row["config"]),
            players=int(row["players"]),
            max_players=int(row["max_players"]),
            seed=int(row["seed"]),
            space=row["space"],
            creator=row["creator"],
            status=str(row["status"]),
            seat_order=str(row["seat_order"]),
            turn_hours=row["turn_hours"],
            timeout_policy=str(row["timeout_policy"]),
            turn_started_at=row["turn_started_at"],
            snapshot=json.loads(snapshot) if snapshot else None,
            seq=int(row["seq"]),
            broken_reason=row["broken_reason"],
            created_at=float(row["created_at"]),
            updated_at=float(row["updated_at"]),
            reminder_hours=row["reminder_hours"],
            remind_by=str(row["remind_by"] or "thread"),
            number=int(row["number"]),
        )

    async def get_game(self, game_id: int) -> GameRow:
        """The game and its seats (one round trip). Raises StorageError if missing or undecodable."""

        def read(db: sqlite3.Connection) -> tuple[sqlite3.Row | None, list[sqlite3.Row]]:
            row = db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                return None, []
            return row, db.execute(
                "SELECT seat, player, ai_kind, name, away_until, former_player, claimant FROM seats WHERE game_id=?"
                " ORDER BY seat",
                (game_id,),
            ).fetchall()

        row, seats = await self.run(read)
        if row is None:
            raise StorageError("no_game", M("There is no game #{game}.", game=game_id))
        try:
            game = self._decode_game(row)
        except (ValueError, TypeError, KeyError) as exc:
            raise StorageError(
                "corrupted_row",
                M(
                    "Game #{game} has a corrupted row: {error}",
                    game=game_id,
                    error=f"{type(exc).__name__}: {exc}",
                ),
            ) from exc
        game.seats = _seat_rows(seats)
        return game

    async def game_ids(self, statuses: tuple[str, ...] = (LOBBY, ACTIVE)) -> list[int]:
        marks = ",".join("?" * len(statuses))
        rows = await self.db.execute_fetchall(
            f"SELECT id FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [int(r[0]) for r in rows]

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

    async def games_of_player(self, player: str, statuses: tuple[str, ...] = (LOBBY, ACTIVE)) -> list[int]:
        marks = ",".join("?" * len(statuses))
        rows = await self.db.execute_fetchall(
            f"SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id WHERE s.player=? AND g.status IN ({marks})"
            " ORDER BY g.id",
            (player, *statuses),
        )
        return [int(r[0]) for r in rows]

    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set plain columns (``status``, ``thread_id``, ``turn_started_at`` …) on a game."""
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
    async def set_lobby_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        """Replace the lobby's seat list (join order)."""
        now = self.clock()

        def save(db: sqlite3.Connection) -> None:
            _write_seats(db, game_id, seats)
            db.execute("UPDATE games SET updated_at=? WHERE id=?", (now, game_id))

        await self.write(save)

    async def start_game(
        self,
        game_id: int,
        seats: list[SeatRow],
        snapshot: dict[str, Any],
        started_at: float,
        config: dict[str, Any] | None = None,
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

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        """Change ``player``, ``ai_kind``, ``name``, ``away_until``, ``former_player`` or ``claimant``
        of one seat. A person taking the seat is remembered by name for the move log."""
        bad = set(fields) - {"player", "ai_kind", "name", "away_until", "former_player", "claimant"}
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        sets = ", ".join(f"{k}=?" for k in fields)

        def update(db: sqlite3.Connection) -> None:
            db.execute(
                f"UPDATE seats SET {sets} WHERE game_id=? AND seat=?", (*fields.values(), game_id, seat)
            )
            if fields.get("player") is not None and fields.get("name") is not None:
                db.execute(
                    "INSERT INTO game_players (game_id, player, name) VALUES (?,?,?)"
                    " ON CONFLICT(game_id, player) DO UPDATE SET name=excluded.name",
                    (game_id, fields["player"], fields["name"]),
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
        action_json: dict[str, Any],
        snapshot: dict[str, Any],
        *,
        status: str = ACTIVE,
        turn_started_at: float | None = None,
        public: str | None = None,
        schedule: dict[str, tuple[float, int]] | None = None,
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

    def _insert_action(self, db: sqlite3.Connection, row: tuple[Any, ...]) -> None:
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

    async def moves_per_seat(self, game_id: int) -> dict[int, int]:
        """How many actions each seat has made in the game (seats that never moved are absent)."""
        rows = await self.db.execute_fetchall(
            "SELECT seat, COUNT(*) FROM actions WHERE game_id=? GROUP BY seat", (game_id,)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def actions(self, game_id: int, since_seq: int = 0, limit: int | None = None) -> list[ActionRow]:
        """Actions after ``since_seq`` in order (the last ``limit`` if given)."""
        if limit is None:
            sql = "SELECT * FROM actions WHERE game_id=? AND seq>? ORDER BY seq"
            params: tuple[Any, ...] = (game_id, since_seq)
        else:
            sql = "SELECT * FROM (SELECT * FROM actions WHERE game_id=? AND seq>? ORDER BY seq DESC LIMIT ?) ORDER BY seq"
            params = (game_id, since_seq, limit)
        rows = await self.db.execute_fetchall(sql, params)
        return [
            ActionRow(
                int(r["game_id"]),
                int(r["seq"]),
                int(r["seat"]),
                r["player"],
                str(r["action"]),
                json.loads(r["action_json"]),
                float(r["created_at"]),
                r["public"],
            )
            for r in rows
        ]

    # ---- schedule --------------------------------------------------------------------------
    async def set_schedule(self, game_id: int, entries: dict[str, tuple[float, int]]) -> None:
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

    async def due(self, now: float) -> list[tuple[int, str, float, int]]:
        """Schedule entries due at ``now``: ``(game_id, kind, due_at, seq)`` oldest first."""
        rows = await self.db.execute_fetchall(
            "SELECT game_id, kind, due_at, seq FROM schedule WHERE due_at<=? ORDER BY due_at", (now,)
        )
        return [(int(r[0]), str(r[1]), float(r[2]), int(r[3])) for r in rows]

    async def schedule_of(self, game_id: int) -> dict[str, tuple[float, int]]:
        rows = await self.db.execute_fetchall(
            "SELECT kind, due_at, seq FROM schedule WHERE game_id=?", (game_id,)
        )
        return {str(r[0]): (float(r[1]), int(r[2])) for r in rows}

    # ---- backup / export -------------------------------------------------------------------
    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Copy the live database to ``dest`` with SQLite's online backup API."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        target = await aiosqlite.connect(str(dest))
        try:
            await self.db.backup(target)
        finally:
            await target.close()

    async def export_game(self, game_id: int) -> dict[str, Any]:
        """``{"game","config","players","seed","actions":[[seat, text], …]}`` that re-simulates exactly."""
        game = await self.get_game(game_id)
        actions = await self.actions(game_id)
        return {
            "id": game.id,
            "game": game.game_name,
            "config": game.config,
            "players": game.players,
            "seed": game.seed,
            "seats": [
                {"seat": s.seat, "name": s.name, "ai": s.ai_kind if s.is_ai else None} for s in game.seats
            ],
            "status": game.status,
            "actions": [[a.seat, a.action] for a in actions],
        }


def backup_sync(src: str, dest: str) -> None:
    """Blocking online backup (for the CLI): works while the bot is running on ``src``."""
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(src) as source, sqlite3.connect(dest) as target:
        source.backup(target)
