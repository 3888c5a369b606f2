"""The tournament tables on SQLite: events, registrations (entered, waiting list, dropped;
check-in), rounds, tables (each one an ordinary game), results (the engine's result and any
correction with its reason) and the rating history. Every change is one transaction on the
shared connection."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

import aiosqlite

from bot.store.api import JsonMapping
from bot.store.decode import (
    RATING_COLS,
    entry_row,
    event_row,
    rating_book,
    rating_values,
    result_row,
    round_row,
    table_row,
)
from bot.store.sqlite_conn import SqliteConnection
from bot.tournament.model import EventConfig, GameResult, Stage, Table
from bot.tournament.ratings import RatingBook, RatingChange
from bot.tournament.store import (
    ENTERED,
    REGISTRATION,
    EntryRow,
    EventRow,
    RatingWrite,
    ResultRow,
    RoundRow,
    TableRow,
    config_to_json,
    result_to_json,
)


class SqliteTournamentTables:
    """The tournament tables on the shared connection (see :class:`bot.store.api.TournamentTables`)."""

    def __init__(self, conn: SqliteConnection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self.clock = clock

    # ---- events ---------------------------------------------------------------------------
    async def create_event(
        self,
        *,
        space: str,
        creator: str,
        game_name: str,
        config: EventConfig,
        settings: JsonMapping,
        seed: int,
    ) -> int:
        now = self.clock()
        async with self.conn.transaction() as db:
            cur = await db.execute(
                "INSERT INTO tournament_events (space, name, creator, game_name, config, settings, seed, status,"
                " round, created_at, updated_at, number) VALUES (?,?,?,?,?,?,?,?,0,?,?,"
                " (SELECT COALESCE(MAX(number), 0) + 1 FROM tournament_events WHERE space = ?))",
                (
                    space,
                    config.name,
                    creator,
                    game_name,
                    json.dumps(config_to_json(config)),
                    json.dumps(settings),
                    seed,
                    REGISTRATION,
                    now,
                    now,
                    space,
                ),
            )
            assert cur.lastrowid is not None
            return int(cur.lastrowid)

    async def event(self, event_id: int) -> EventRow | None:
        async with self.conn.db.execute("SELECT * FROM tournament_events WHERE id=?", (event_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else event_row(r)

    async def events(self, space: str | None = None, statuses: tuple[str, ...] = ()) -> list[EventRow]:
        """Events of ``space`` (every space if None) with one of ``statuses`` (any if empty), newest first."""
        sql, params = "SELECT * FROM tournament_events WHERE 1=1", list[str]()
        if space is not None:
            sql += " AND space=?"
            params.append(space)
        if statuses:
            sql += f" AND status IN ({','.join('?' * len(statuses))})"
            params.extend(statuses)
        async with self.conn.db.execute(sql + " ORDER BY id DESC", params) as cur:
            return [event_row(r) for r in await cur.fetchall()]

    async def event_numbered(self, space: str, number: int) -> int | None:
        async with self.conn.db.execute(
            "SELECT id FROM tournament_events WHERE space=? AND number=?", (space, number)
        ) as cur:
            r = await cur.fetchone()
        return None if r is None else int(r[0])

    async def event_ids(self, statuses: tuple[str, ...]) -> list[int]:
        marks = ",".join("?" * len(statuses))
        async with self.conn.db.execute(
            f"SELECT id FROM tournament_events WHERE status IN ({marks}) ORDER BY id", statuses
        ) as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def update_event(
        self,
        event_id: int,
        *,
        status: str | None = None,
        round: int | None = None,
        settings: JsonMapping | None = None,
    ) -> None:
        fields: dict[str, str | int] = {}
        if status is not None:
            fields["status"] = status
        if round is not None:
            fields["round"] = round
        if settings is not None:
            fields["settings"] = json.dumps(settings)
        sets = "".join(f"{k}=?, " for k in fields)
        async with self.conn.transaction() as db:
            await db.execute(
                f"UPDATE tournament_events SET {sets}updated_at=? WHERE id=?",
                (*fields.values(), self.clock(), event_id),
            )

    # ---- registrations ---------------------------------------------------------------------
    async def entries(self, event_id: int) -> list[EntryRow]:
        async with self.conn.db.execute(
            "SELECT * FROM tournament_registrations WHERE event_id=? ORDER BY position", (event_id,)
        ) as cur:
            return [entry_row(r) for r in await cur.fetchall()]

    async def add_entry(self, event_id: int, player: str, name: str, state: str) -> None:
        async with self.conn.transaction() as db:
            async with db.execute(
                "SELECT COALESCE(MAX(position), 0) + 1 FROM tournament_registrations WHERE event_id=?",
                (event_id,),
            ) as cur:
                row = await cur.fetchone()
            position = int(row[0]) if row else 1
            await db.execute(
                "INSERT INTO tournament_registrations (event_id, player, name, position, state, checked_in, joined_at)"
                " VALUES (?,?,?,?,?,0,?)",
                (event_id, player, name, position, state, self.clock()),
            )

    async def remove_entry(self, event_id: int, player: str, promote: str | None = None) -> None:
        """Remove ``player``; ``promote`` (the first on the waiting list) takes the freed place."""
        async with self.conn.transaction() as db:
            await db.execute(
                "DELETE FROM tournament_registrations WHERE event_id=? AND player=?", (event_id, player)
            )
            if promote is not None:
                await db.execute(
                    "UPDATE tournament_registrations SET state=? WHERE event_id=? AND player=?",
                    (ENTERED, event_id, promote),
                )

    async def set_entry(
        self, event_id: int, player: str, *, state: str | None = None, checked_in: bool | None = None
    ) -> None:
        async with self.conn.transaction() as db:
            if state is not None:
                await db.execute(
                    "UPDATE tournament_registrations SET state=? WHERE event_id=? AND player=?",
                    (state, event_id, player),
                )
            if checked_in is not None:
                await db.execute(
                    "UPDATE tournament_registrations SET checked_in=? WHERE event_id=? AND player=?",
                    (int(checked_in), event_id, player),
                )

    async def set_states(self, event_id: int, states: Mapping[str, str]) -> None:
        async with self.conn.transaction() as db:
            await db.executemany(
                "UPDATE tournament_registrations SET state=? WHERE event_id=? AND player=?",
                [(s, event_id, p) for p, s in states.items()],
            )

    # ---- rounds and tables -----------------------------------------------------------------
    async def add_round(
        self, event_id: int, number: int, stage: Stage, tables: Sequence[Table], deadline_at: float | None
    ) -> None:
        """The round and its tables (games not created yet), and the event's current round, at once."""
        now = self.clock()
        async with self.conn.transaction() as db:
            await db.execute(
                "INSERT INTO tournament_rounds (event_id, round, stage, started_at, deadline_at)"
                " VALUES (?,?,?,?,?)",
                (event_id, number, stage.value, now, deadline_at),
            )
            await db.executemany(
                "INSERT INTO tournament_tables (event_id, round, table_no, board, seats, stage, grp)"
                " VALUES (?,?,?,?,?,?,?)",
                [
                    (event_id, number, t.number, t.board, json.dumps(list(t.seats)), t.stage.value, t.group)
                    for t in tables
                ],
            )
            await db.execute(
                "UPDATE tournament_events SET round=?, updated_at=? WHERE id=?", (number, now, event_id)
            )

    async def withdraw_round(self, event_id: int, number: int, *, status: str, settings: JsonMapping) -> None:
        async with self.conn.transaction() as db:
            await db.execute("DELETE FROM tournament_tables WHERE event_id=? AND round=?", (event_id, number))
            await db.execute("DELETE FROM tournament_rounds WHERE event_id=? AND round=?", (event_id, number))
            await db.execute(
                "UPDATE tournament_events SET round=?, status=?, settings=?, updated_at=? WHERE id=?",
                (number - 1, status, json.dumps(settings), self.clock(), event_id),
            )

    async def rounds(self, event_id: int) -> list[RoundRow]:
        async with self.conn.db.execute(
            "SELECT * FROM tournament_rounds WHERE event_id=? ORDER BY round", (event_id,)
        ) as cur:
            return [round_row(r) for r in await cur.fetchall()]

    async def finish_round(self, event_id: int, number: int) -> None:
        async with self.conn.transaction() as db:
            await db.execute(
                "UPDATE tournament_rounds SET finished_at=? WHERE event_id=? AND round=?"
                " AND finished_at IS NULL",
                (self.clock(), event_id, number),
            )

    async def tables(self, event_id: int, round_number: int | None = None) -> list[TableRow]:
        sql = "SELECT * FROM tournament_tables WHERE event_id=?"
        params: tuple[int, ...] = (event_id,)
        if round_number is not None:
            sql += " AND round=?"
            params += (round_number,)
        async with self.conn.db.execute(sql + " ORDER BY round, table_no", params) as cur:
            return [table_row(r) for r in await cur.fetchall()]

    async def table_of_game(self, game_id: int) -> TableRow | None:
        async with self.conn.db.execute("SELECT * FROM tournament_tables WHERE game_id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        return None if r is None else table_row(r)

    async def set_table(
        self,
        event_id: int,
        round_number: int,
        number: int,
        *,
        game_id: int | None = None,
        adjudicated: bool | None = None,
    ) -> None:
        async with self.conn.transaction() as db:
            if game_id is not None:
                await db.execute(
                    "UPDATE tournament_tables SET game_id=? WHERE event_id=? AND round=? AND table_no=?",
                    (game_id, event_id, round_number, number),
                )
            if adjudicated is not None:
                await db.execute(
                    "UPDATE tournament_tables SET adjudicated=? WHERE event_id=? AND round=? AND table_no=?",
                    (int(adjudicated), event_id, round_number, number),
                )

    async def reopen_table(
        self, event_id: int, round_number: int, number: int, settings: JsonMapping
    ) -> None:
        """The table's game forgotten (a new one is created for the same seats) and the event's
        ``settings`` (which keep the replaced game and the reason) written, at once."""
        async with self.conn.transaction() as db:
            await db.execute(
                "UPDATE tournament_tables SET game_id=NULL, adjudicated=0 WHERE event_id=? AND round=?"
                " AND table_no=?",
                (event_id, round_number, number),
            )
            await db.execute(
                "UPDATE tournament_events SET settings=?, updated_at=? WHERE id=?",
                (json.dumps(settings), self.clock(), event_id),
            )

    # ---- results ---------------------------------------------------------------------------
    async def add_result(
        self,
        event_id: int,
        result: GameResult,
        game_id: int,
        corrected_by: str | None = None,
        rated: RatingWrite | None = None,
    ) -> None:
        """Store a result and, in the same transaction, its ``rated`` changes (a crash never leaves
        a result unrated, and a correction or a void never leaves the ratings behind the results)."""
        async with self.conn.transaction() as db:
            await db.execute(
                "INSERT INTO tournament_results (event_id, round, table_no, game_id, result, correction_reason,"
                " corrected_by, created_at) VALUES (?,?,?,?,?,?,?,?)",
                (
                    event_id,
                    result.round,
                    result.table,
                    game_id,
                    json.dumps(result_to_json(result)),
                    result.correction_reason,
                    corrected_by,
                    self.clock(),
                ),
            )
            if rated is not None:
                if rated.replace:
                    await db.execute("DELETE FROM tournament_ratings WHERE space=?", (rated.space,))
                await self._insert_ratings(db, rated.space, rated.event_of, list(rated.history))

    async def result_history(self, event_id: int) -> list[ResultRow]:
        """Every stored result of the event, oldest first (corrections after what they replace)."""
        async with self.conn.db.execute(
            "SELECT * FROM tournament_results WHERE event_id=? ORDER BY id", (event_id,)
        ) as cur:
            return [result_row(r) for r in await cur.fetchall()]

    async def results(self, event_id: int) -> list[GameResult]:
        """The standing result of each table (its latest correction, else the engine's), by round and table."""
        latest: dict[tuple[int, int], GameResult] = {}
        for row in await self.result_history(event_id):
            latest[(row.round, row.table)] = row.result
        return [latest[k] for k in sorted(latest)]

    # ---- ratings ---------------------------------------------------------------------------
    async def _insert_ratings(
        self, db: aiosqlite.Connection, space: str, event_of: Mapping[str, int], changes: list[RatingChange]
    ) -> None:
        now = self.clock()
        await db.executemany(
            f"INSERT INTO tournament_ratings ({RATING_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rating_values(space, event_of, changes, now),
        )

    async def rated_games(self, space: str) -> list[tuple[int, int]]:
        """``(event_id, game_id)`` of every game rated in the space, in the order it was first rated."""
        async with self.conn.db.execute(
            "SELECT event_id, game_id, MIN(id) AS first FROM tournament_ratings WHERE space=?"
            " GROUP BY event_id, game_id ORDER BY first",
            (space,),
        ) as cur:
            return [(int(r["event_id"]), int(r["game_id"])) for r in await cur.fetchall()]

    async def rating_book(self, space: str) -> RatingBook:
        """The space's ratings rebuilt from its stored history (each view's latest value per player)."""
        async with self.conn.db.execute(
            "SELECT * FROM tournament_ratings WHERE space=? ORDER BY id", (space,)
        ) as cur:
            rows = await cur.fetchall()
        return rating_book(rows)

    async def set_sharing(self, player: str, shared: bool) -> None:
        """Record whether ``player`` appears in cross-server leaderboards."""
        async with self.conn.transaction() as db:
            await db.execute(
                "INSERT INTO rating_sharing (player, shared) VALUES (?,?)"
                " ON CONFLICT(player) DO UPDATE SET shared=excluded.shared",
                (player, int(shared)),
            )

    async def sharing(self, player: str) -> bool:
        """Whether ``player`` chose to appear in cross-server leaderboards (no choice: no)."""
        async with self.conn.db.execute("SELECT shared FROM rating_sharing WHERE player=?", (player,)) as cur:
            r = await cur.fetchone()
        return r is not None and bool(r[0])

    async def shared_books(self) -> dict[str, RatingBook]:
        """The rating book of every space where at least one player who chose to be shared was rated."""
        async with self.conn.db.execute(
            "SELECT DISTINCT r.space FROM tournament_ratings r JOIN rating_sharing s ON s.player = r.player"
            " WHERE s.shared = 1 ORDER BY r.space"
        ) as cur:
            spaces = [str(r[0]) for r in await cur.fetchall()]
        return {space: await self.rating_book(space) for space in spaces}

    async def shared_players(self) -> frozenset[str]:
        """Every player who chose to appear in cross-server leaderboards."""
        async with self.conn.db.execute("SELECT player FROM rating_sharing WHERE shared = 1") as cur:
            return frozenset(str(r[0]) for r in await cur.fetchall())
