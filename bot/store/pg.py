"""The shared backend: one PostgreSQL database (psycopg 3 with its pool) for one or many processes.

:class:`PgStore` implements :class:`bot.store.api.Store` on PostgreSQL: the core's tables here,
the tournaments' in :mod:`bot.store.pg_tournament`, the Discord adapter's in
:mod:`bot.store.pg_discord`, the web pages' in :mod:`bot.store.pg_web`, each owner's tables migrated by its own ``POSTGRES`` list
(:mod:`bot.store.pg_conn`). It is chosen by ``CONDUCTOR_DB=postgresql://…`` (see
docs/operations.md).

Several processes share the database, so what one process could keep in memory is kept here:

- :meth:`PgStore.commit_action` is one statement: the game row is updated only if it is still at
  the ``seq`` the caller loaded, which takes the row's lock. A second process committing the same
  seq waits on that lock, then finds the seq moved and writes nothing: exactly one wins, the other
  gets :class:`~bot.store.rows.SeqConflict`, whichever process each click reached.
- :meth:`PgStore.claim_game` gives a game to one live process at a time (a lease).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Self, Unpack

import psycopg
from psycopg.rows import TupleRow

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
from bot.store.migrations import POSTGRES
from bot.store.pg_cluster import DEFAULT_BIN
from bot.store.pg_conn import PgConnection, migrate, owner_versions
from bot.store.pg_discord import PgDiscordTables
from bot.store.pg_outbox import PgOutbox
from bot.store.pg_tournament import PgTournamentTables
from bot.store.pg_web import PgWebTables
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
from lang import M
from rules.protocol import JSON

log = logging.getLogger("conductor.storage")

LEASE_SECONDS = 60.0
"""How long a claim on a game lasts unless renewed (a dead process's games are free after it)."""

# The row plus its log as a JSON array of [seq, seat, text, action_json], in one statement (one
# snapshot); action_json stays a string, so a damaged one is still read.
_RECORD_SQL = """
SELECT g.game_name, g.config, g.players, g.seed, g.status, g.snapshot, g.seq,
       (SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id),
       (SELECT COALESCE(json_agg(json_build_array(a.seq, a.seat, a.action, a.action_json) ORDER BY a.seq), '[]')
          FROM actions a WHERE a.game_id = g.id)::text
FROM games g WHERE g.id = %s
"""

# The one write of a click (see the module docstring). The CTEs all run or none does: ``g`` is
# empty when the seq moved, and then nothing else is written. The timers are replaced only when
# %(timers)s is not NULL: kinds no longer present are deleted and the others upserted (a delete and
# an insert of the same key cannot share one statement). Written for a cheap plan whatever the
# table statistics say (a click must not cost more on a new database): the game's key is a
# parameter of every part, ``EXISTS (SELECT FROM g)`` is evaluated once rather than joined, and the
# timers arrive as one JSON text (``[{"kind", "due_at", "seq"}, ...]``), which costs the client
# far less to send than three typed arrays.
_COMMIT_SQL = """
WITH g AS (
    UPDATE games SET snapshot=%(snapshot)s, seq=%(new_seq)s, status=%(status)s, updated_at=%(now)s,
        turn_started_at=COALESCE(%(turn_started_at)s, turn_started_at)
    WHERE id=%(game)s AND seq=%(seq)s AND status='active'
    RETURNING id
), a AS (
    INSERT INTO actions (game_id, seq, seat, player, action, action_json, created_at, public)
    SELECT id, %(new_seq)s, %(seat)s, %(player)s, %(text)s, %(json)s, %(now)s, %(public)s FROM g
    RETURNING seq
), t AS (
    SELECT kind, due_at, seq FROM json_to_recordset(%(timers)s::json) AS t(kind text, due_at float8, seq bigint)
), d AS (
    DELETE FROM schedule WHERE game_id=%(game)s AND %(timers)s::json IS NOT NULL
        AND kind NOT IN (SELECT kind FROM t) AND EXISTS (SELECT FROM g)
), s AS (
    INSERT INTO schedule (game_id, kind, due_at, seq)
    SELECT %(game)s, kind, due_at, seq FROM t WHERE EXISTS (SELECT FROM g)
    ON CONFLICT (game_id, kind) DO UPDATE SET due_at=excluded.due_at, seq=excluded.seq,
        claimed_by=NULL, claimed_until=NULL
)
SELECT seq FROM a
"""


def default_process_name() -> str:
    """This process's name in the store: ``CONDUCTOR_PROCESS``, else host and pid."""
    return os.environ.get("CONDUCTOR_PROCESS") or f"{socket.gethostname()}:{os.getpid()}"


def _timers_json(entries: Schedule | None) -> str | None:
    """The timers as :data:`_COMMIT_SQL` takes them (None: leave the game's timers alone)."""
    if entries is None:
        return None
    return json.dumps(
        [{"kind": k, "due_at": float(due), "seq": int(seq)} for k, (due, seq) in entries.items()]
    )


async def _write_seats(db: psycopg.AsyncConnection[TupleRow], game_id: int, seats: Sequence[SeatRow]) -> None:
    """Replace the game's seats (in list order) and remember every person's name for the log."""
    await db.execute("DELETE FROM seats WHERE game_id=%s", (game_id,))
    async with db.cursor() as cur:
        await cur.executemany(
            "INSERT INTO seats (game_id, seat, player, ai_kind, name, away_until, former_player, claimant)"
            " VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
            [
                (game_id, i, s.player, s.ai_kind, s.name, s.away_until, s.former_player, s.claimant)
                for i, s in enumerate(seats)
            ],
        )
        named = [(game_id, s.player, s.name) for s in seats if s.player is not None]
        if named:
            await cur.executemany(
                "INSERT INTO game_players (game_id, player, name) VALUES (%s,%s,%s)"
                " ON CONFLICT (game_id, player) DO UPDATE SET name=excluded.name",
                named,
            )


class PgStore:
    """One PostgreSQL database behind the storage port, shared by any number of processes."""

    def __init__(
        self,
        url: str,
        clock: Callable[[], float] = time.time,
        *,
        migrations: Mapping[str, Sequence[str]] = POSTGRES,
        process: str | None = None,
        pool_size: int = 8,
    ) -> None:
        self.process = process or default_process_name()
        self.conn = PgConnection(url, max_size=pool_size, application_name=self.process)
        self.url = url
        self.path = self.conn.path
        self.clock = clock
        self._migrations = migrations
        self._tournaments = PgTournamentTables(self.conn, clock)
        self._discord = PgDiscordTables(self.conn, clock)
        self._web = PgWebTables(self.conn, clock)
        self._outbox = PgOutbox(self.conn, clock, self.conn.application_name)

    @property
    def tournaments(self) -> PgTournamentTables:
        return self._tournaments

    @property
    def discord(self) -> PgDiscordTables:
        return self._discord

    @property
    def web(self) -> PgWebTables:
        return self._web

    @property
    def outbox(self) -> PgOutbox:
        return self._outbox

    # ---- lifecycle -------------------------------------------------------------------------
    async def open(self) -> Self:
        """Connect and apply every owner's pending migrations (once, whoever starts first)."""
        await self.conn.open()
        try:
            await migrate(self.conn, self._migrations)
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        await self.conn.close()

    async def __aenter__(self) -> Self:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_versions(self) -> dict[str, int]:
        return await owner_versions(self.conn)

    # ---- meta ------------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        row = await self.conn.fetchone("SELECT value FROM meta WHERE key=%s", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
            (key, value),
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
        """A game in the lobby with the next number of its space. The space's number is taken under
        a transaction-scoped advisory lock on the space, so two creations never share one."""
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
        async with self.conn.transaction() as db:
            await db.execute("SELECT pg_advisory_xact_lock(hashtext(COALESCE(%s, '')))", (space,))
            cur = await db.execute(
                "INSERT INTO games (game_name, config, max_players, seed, space, creator, status,"
                " seat_order, turn_hours, timeout_policy, created_at, updated_at, reminder_hours, remind_by, number)"
                " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,"
                " (SELECT COALESCE(MAX(number), 0) + 1 FROM games WHERE COALESCE(space, '') = COALESCE(%s, '')))"
                " RETURNING id",
                params,
            )
            row = await cur.fetchone()
        assert row is not None
        return int(row[0])

    async def get_game(self, game_id: int) -> GameRow:
        async with self.conn.pool.connection() as db:
            cur = await db.execute(f"SELECT {GAME_COLS} FROM games WHERE id=%s", (game_id,))
            row = await cur.fetchone()
            if row is None:
                raise StorageError("no_game", M("There is no game #{game}.", game=game_id))
            cur = await db.execute(
                f"SELECT {SEAT_COLS} FROM seats WHERE game_id=%s ORDER BY seat", (game_id,)
            )
            seats = await cur.fetchall()
        return game_with_seats(game_id, row, seats)

    async def has_game(self, game_id: int) -> bool:
        return await self.conn.fetchone("SELECT 1 FROM games WHERE id=%s", (game_id,)) is not None

    async def game_ids(self, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[int]:
        rows = await self.conn.fetchall(
            "SELECT id FROM games WHERE status = ANY(%s) ORDER BY id", (list(statuses),)
        )
        return [int(r[0]) for r in rows]

    async def game_statuses(self) -> list[GameStatus]:
        rows = await self.conn.fetchall("SELECT id, status, broken_reason FROM games ORDER BY id")
        return [GameStatus(int(r[0]), str(r[1]), r[2]) for r in rows]

    async def game_numbered(self, space: str | None, number: int) -> int | None:
        row = await self.conn.fetchone(
            "SELECT id FROM games WHERE COALESCE(space, '') = COALESCE(%s, '') AND number=%s", (space, number)
        )
        return None if row is None else int(row[0])

    async def game_number(self, game_id: int) -> int | None:
        row = await self.conn.fetchone("SELECT number FROM games WHERE id=%s", (game_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def numbered_games_of_player(self, player: str, number: int) -> list[int]:
        rows = await self.conn.fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id WHERE s.player=%s AND g.number=%s"
            " ORDER BY g.id",
            (player, number),
        )
        return [int(r[0]) for r in rows]

    async def games_of_player(self, player: str, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[int]:
        rows = await self.conn.fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
            " WHERE s.player=%s AND g.status = ANY(%s) ORDER BY g.id",
            (player, list(statuses)),
        )
        return [int(r[0]) for r in rows]

    async def update_game(self, game_id: int, **fields: Unpack[GameUpdate]) -> None:
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
        sets = ", ".join(f"{k}=%s" for k in fields)
        await self.conn.execute(
            f"UPDATE games SET {sets}, updated_at=%s WHERE id=%s", (*fields.values(), self.clock(), game_id)
        )

    async def mark_broken(self, game_id: int, reason: str) -> None:
        log.error("game=%s marked broken: %s", game_id, reason)
        await self.update_game(game_id, status=BROKEN, broken_reason=reason[:500])

    # ---- seats -----------------------------------------------------------------------------
    async def set_lobby_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        async with self.conn.transaction() as db:
            await _write_seats(db, game_id, seats)
            await db.execute("UPDATE games SET updated_at=%s WHERE id=%s", (self.clock(), game_id))

    async def start_game(
        self,
        game_id: int,
        seats: Sequence[SeatRow],
        snapshot: JsonMapping,
        started_at: float,
        config: JsonMapping | None = None,
    ) -> None:
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
        async with self.conn.transaction() as db:
            cur = await db.execute(
                "UPDATE games SET status=%s, players=%s, snapshot=%s, seq=0, turn_started_at=%s, updated_at=%s,"
                " config=COALESCE(%s, config) WHERE id=%s AND status=%s",
                params,
            )
            if cur.rowcount != 1:
                raise SeqConflict(f"game #{game_id} is no longer in its lobby")
            await _write_seats(db, game_id, seats)

    async def update_seat(self, game_id: int, seat: int, **fields: Unpack[SeatUpdate]) -> None:
        bad = set(fields) - {"player", "ai_kind", "name", "away_until", "former_player", "claimant"}
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        sets = ", ".join(f"{k}=%s" for k in fields)
        player, name = fields.get("player"), fields.get("name")
        async with self.conn.transaction() as db:
            await db.execute(
                f"UPDATE seats SET {sets} WHERE game_id=%s AND seat=%s", (*fields.values(), game_id, seat)
            )
            if player is not None and name is not None:
                await db.execute(
                    "INSERT INTO game_players (game_id, player, name) VALUES (%s,%s,%s)"
                    " ON CONFLICT (game_id, player) DO UPDATE SET name=excluded.name",
                    (game_id, player, name),
                )

    async def player_names(self, game_id: int) -> dict[str, str]:
        rows = await self.conn.fetchall("SELECT player, name FROM game_players WHERE game_id=%s", (game_id,))
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
        """Append action ``expected_seq + 1`` and the new snapshot in one statement (see the module
        docstring); SeqConflict, with nothing written, if the seq moved or the game is not active."""
        new_seq = expected_seq + 1
        params: dict[str, object] = {
            "snapshot": json.dumps(snapshot),
            "new_seq": new_seq,
            "status": status,
            "now": self.clock(),
            "turn_started_at": turn_started_at,
            "game": game_id,
            "seq": expected_seq,
            "seat": seat,
            "player": player,
            "text": action_text,
            "json": json.dumps(action_json),
            "public": public,
            "timers": _timers_json(schedule),
        }
        try:
            row = await self.conn.fetchone(_COMMIT_SQL, params)
        except psycopg.errors.UniqueViolation as exc:
            raise SeqConflict(f"game #{game_id} already has action {new_seq}") from exc
        if row is None:
            raise SeqConflict(f"game #{game_id} is past seq {expected_seq}")
        return new_seq

    async def count_actions(self, game_id: int, seat: int) -> int:
        row = await self.conn.fetchone(
            "SELECT COUNT(*) FROM actions WHERE game_id=%s AND seat=%s", (game_id, seat)
        )
        return 0 if row is None else int(row[0])

    async def set_plan(self, game_id: int, seat: int, steps: JSON | None) -> None:
        if steps is None:
            await self.conn.execute("DELETE FROM plans WHERE game_id=%s AND seat=%s", (game_id, seat))
            return
        await self.conn.execute(
            "INSERT INTO plans (game_id, seat, steps) VALUES (%s, %s, %s) "
            "ON CONFLICT (game_id, seat) DO UPDATE SET steps=excluded.steps",
            (game_id, seat, json.dumps(steps)),
        )

    async def plans(self, game_id: int) -> dict[int, JSON]:
        rows = await self.conn.fetchall("SELECT seat, steps FROM plans WHERE game_id=%s", (game_id,))
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def moves_per_seat(self, game_id: int) -> dict[int, int]:
        rows = await self.conn.fetchall(
            "SELECT seat, COUNT(*) FROM actions WHERE game_id=%s GROUP BY seat", (game_id,)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def actions(self, game_id: int, since_seq: int = 0, limit: int | None = None) -> list[ActionRow]:
        cols = ACTION_COLS
        if limit is None:
            rows = await self.conn.fetchall(
                f"SELECT {cols} FROM actions WHERE game_id=%s AND seq>%s ORDER BY seq", (game_id, since_seq)
            )
        else:
            rows = await self.conn.fetchall(
                f"SELECT * FROM (SELECT {cols} FROM actions WHERE game_id=%s AND seq>%s ORDER BY seq DESC"
                " LIMIT %s) AS last ORDER BY seq",
                (game_id, since_seq, limit),
            )
        return action_rows(rows)

    # ---- schedule --------------------------------------------------------------------------
    async def set_schedule(self, game_id: int, entries: Schedule) -> None:
        async with self.conn.transaction() as db:
            await db.execute("DELETE FROM schedule WHERE game_id=%s", (game_id,))
            async with db.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO schedule (game_id, kind, due_at, seq) VALUES (%s,%s,%s,%s)",
                    [(game_id, kind, due, seq) for kind, (due, seq) in entries.items()],
                )

    async def clear_schedule(self, game_id: int, kind: str | None = None) -> None:
        if kind is None:
            await self.conn.execute("DELETE FROM schedule WHERE game_id=%s", (game_id,))
        else:
            await self.conn.execute("DELETE FROM schedule WHERE game_id=%s AND kind=%s", (game_id, kind))

    async def delete_schedule_entry(self, game_id: int, kind: str, seq: int) -> None:
        await self.conn.execute(
            "DELETE FROM schedule WHERE game_id=%s AND kind=%s AND seq=%s", (game_id, kind, seq)
        )

    async def due(self, now: float) -> list[DueEntry]:
        rows = await self.conn.fetchall(
            "SELECT game_id, kind, due_at, seq FROM schedule WHERE due_at<=%s ORDER BY due_at", (now,)
        )
        return due_entries(rows)

    async def claim_due(self, now: float, hold: float) -> list[DueEntry]:
        """Due timers not held by a live claim, taken for ``hold`` seconds in one statement. Rows
        another process is taking at this instant are skipped (``FOR UPDATE SKIP LOCKED``), never
        waited for: two schedulers polling together split the due timers between them."""
        rows = await self.conn.fetchall(
            "UPDATE schedule SET claimed_by=%s, claimed_until=%s FROM ("
            " SELECT game_id, kind FROM schedule WHERE due_at<=%s AND (claimed_until IS NULL OR claimed_until<%s)"
            " ORDER BY due_at FOR UPDATE SKIP LOCKED) AS free"
            " WHERE schedule.game_id=free.game_id AND schedule.kind=free.kind"
            " RETURNING schedule.game_id, schedule.kind, schedule.due_at, schedule.seq",
            (self.process, now + hold, now, now),
        )
        return sorted(due_entries(rows), key=lambda d: d.due_at)

    async def schedule_of(self, game_id: int) -> dict[str, tuple[float, int]]:
        rows = await self.conn.fetchall("SELECT kind, due_at, seq FROM schedule WHERE game_id=%s", (game_id,))
        return schedule_map(rows)

    # ---- ownership -------------------------------------------------------------------------
    async def claim_game(self, game_id: int) -> bool:
        """Take or renew the game's lease for this process; False while another live process holds it."""
        now = self.clock()
        row = await self.conn.fetchone(
            "INSERT INTO game_owners (game_id, process, expires_at) SELECT id, %s, %s FROM games WHERE id=%s"
            " ON CONFLICT (game_id) DO UPDATE SET process=excluded.process, expires_at=excluded.expires_at"
            " WHERE game_owners.process=excluded.process OR game_owners.expires_at < %s"
            " RETURNING process",
            (self.process, now + LEASE_SECONDS, game_id, now),
        )
        return row is not None

    async def game_owner(self, game_id: int) -> str | None:
        row = await self.conn.fetchone(
            "SELECT process FROM game_owners WHERE game_id=%s AND expires_at >= %s", (game_id, self.clock())
        )
        return None if row is None else str(row[0])

    # ---- integrity, backup, export ---------------------------------------------------------
    async def game_record(self, game_id: int) -> GameRecord | None:
        try:
            row = await self.conn.fetchone(_RECORD_SQL, (game_id,))
        except psycopg.DataError as exc:
            raise RecordUnreadable(str(exc)) from exc
        if row is None:
            return None
        return game_record(row)

    async def integrity_problems(self) -> list[str]:
        """PostgreSQL checks its own pages; here: the indexes the port relies on are valid."""
        rows = await self.conn.fetchall(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND NOT (i.indisvalid AND i.indisready)"
        )
        return [f"index {r[0]} is not valid: REINDEX it" for r in rows]

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """A consistent copy with ``pg_dump`` (custom format, for ``pg_restore``) at ``dest``."""
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        pg_dump = shutil.which("pg_dump") or str(Path(DEFAULT_BIN) / "pg_dump")
        done = await asyncio.to_thread(
            subprocess.run,
            [pg_dump, "--format=custom", f"--file={dest}", f"--dbname={self.url}"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise StorageError(
                "backup_failed",
                M("pg_dump could not back up {path}: {error}", path=self.path, error=done.stderr.strip()),
            )

    async def export_game(self, game_id: int) -> GameExport:
        return game_export(await self.get_game(game_id), await self.actions(game_id))
