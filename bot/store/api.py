"""The storage port: the only way from the application to its database.

Typed protocols, one per concern, implemented by every backend (:mod:`bot.store.sqlite`, the
embedded default; PostgreSQL later) and checked by one conformance suite
(``tests/bot/store/test_store_conformance.py``). A caller never sees a connection, a cursor or SQL.

- :class:`GameStore`: games, seats and the action log. :meth:`GameStore.commit_action` is the one
  write on every click: the action and the new snapshot in one transaction, only if the game is
  still at the ``seq`` the caller loaded (else :class:`~bot.store.rows.SeqConflict`), with the
  game's timers replaced in the same transaction.
- :class:`ScheduleStore`: the timers (reminders, turn ends), found by due time after a restart.
- :class:`MetaStore`: a few process-wide key/values (the slash commands' hash …).
- :class:`GameOwnership`: which process acts for a game (applies its moves, fires its timers,
  posts its outcomes). One process acts for every game of an embedded SQLite file; a shared
  backend gives each game to one live process at a time (a lease) and the others leave it alone.
- :class:`TournamentTables`: community events, their tables, results and rating history.
- The Discord adapter's own routing tables, which the core never reads:
  :class:`DiscordRoutes`, :class:`DiscordDMHands`, :class:`DiscordGuildSettings`,
  :class:`DiscordEventRoutes` (together :class:`DiscordTables`).
- The web pages' own tables (:class:`WebTables`): public ids, unlisted pages, spaces with pages
  off.
- :class:`Store`: one backend, all of the above, its lifecycle and its per-owner migrations.

Each owner (``core``, ``tournament``, ``discord``, ``web``) keeps its tables in its own migration list
(:mod:`bot.store.migrations`); :meth:`Store.schema_versions` says how far each has come.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from os import PathLike
from typing import Protocol, Self, Unpack

from bot.store.rows import (
    ActionRow,
    DueEntry,
    GameExport,
    GameRecord,
    GameRow,
    GameStatus,
    GameUpdate,
    OutboxNotice,
    OutboxRow,
    PublicRef,
    Schedule,
    SeatRow,
    SeatUpdate,
)
from bot.tournament.model import EventConfig, GameResult, Stage, Table
from bot.tournament.ratings import RatingBook
from bot.tournament.store import EntryRow, EventRow, RatingWrite, ResultRow, RoundRow, TableRow
from rules.protocol import JSON

JsonMapping = Mapping[str, object]
"""Anything :func:`json.dumps` writes as an object: what a caller hands over to be kept as JSON."""

OPEN_STATUSES = ("lobby", "active")


class GameStore(Protocol):
    """Games, their seats and their action log."""

    clock: Callable[[], float]

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
        """A game in the lobby; returns its id. It gets the next number of its space (1 for the
        first), allocated in the same transaction, so two creations never share one."""
        ...

    async def get_game(self, game_id: int) -> GameRow:
        """The game and its seats in seat order. Raises StorageError ``no_game`` if there is none,
        ``corrupted_row`` if its row cannot be decoded."""
        ...

    async def has_game(self, game_id: int) -> bool:
        """Whether a row exists for ``game_id`` (however damaged)."""
        ...

    async def game_ids(self, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[int]:
        """Ids of the games with one of ``statuses``, ascending."""
        ...

    async def game_statuses(self) -> list[GameStatus]:
        """Every game's id, status and broken reason, ascending (read without decoding the rows)."""
        ...

    async def game_numbered(self, space: str | None, number: int) -> int | None:
        """The id of game ``number`` of ``space`` (None: the games made outside any space), or None."""
        ...

    async def game_number(self, game_id: int) -> int | None:
        """Game ``game_id``'s number within its space (read alone, so even a damaged row has one)."""
        ...

    async def numbered_games_of_player(self, player: str, number: int) -> list[int]:
        """Ids of the games numbered ``number`` (in any space) where ``player`` holds a seat, ascending."""
        ...

    async def games_of_player(self, player: str, statuses: tuple[str, ...] = OPEN_STATUSES) -> list[int]:
        """Ids of the games with one of ``statuses`` where ``player`` holds a seat, ascending."""
        ...

    async def update_game(self, game_id: int, **fields: Unpack[GameUpdate]) -> None:
        """Set plain columns of a game (and its ``updated_at``)."""
        ...

    async def mark_broken(self, game_id: int, reason: str) -> None:
        """Stop the game: status ``broken`` with ``reason`` (its first 500 characters)."""
        ...

    async def set_lobby_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        """Replace the lobby's seats (in list order, renumbered from 0); every person is
        remembered by name for the move log."""
        ...

    async def start_game(
        self,
        game_id: int,
        seats: Sequence[SeatRow],
        snapshot: JsonMapping,
        started_at: float,
        config: JsonMapping | None = None,
    ) -> None:
        """Lobby to active with the final seats and the initial snapshot (seq 0); ``config`` (the
        engine's resolved config) replaces the stored one. SeqConflict if it is no longer in its lobby."""
        ...

    async def update_seat(self, game_id: int, seat: int, **fields: Unpack[SeatUpdate]) -> None:
        """Change one seat. A person taking it with a name is remembered for the move log."""
        ...

    async def player_names(self, game_id: int) -> dict[str, str]:
        """The name of every person who ever held a seat in the game."""
        ...

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
        status: str = "active",
        turn_started_at: float | None = None,
        public: str | None = None,
        schedule: Schedule | None = None,
    ) -> int:
        """Append action ``expected_seq + 1`` and the new snapshot atomically; returns the new seq.

        SeqConflict if the game's seq is no longer ``expected_seq`` or it is not active: nothing
        is written then. ``turn_started_at`` None keeps the stored one. ``schedule`` replaces the
        game's timers in the same transaction. One round trip to the database."""
        ...

    async def count_actions(self, game_id: int, seat: int) -> int:
        """How many actions ``seat`` has made in the game."""
        ...

    async def set_plan(self, game_id: int, seat: int, steps: JSON | None) -> None:
        """Keep ``seat``'s planned turn (its steps as JSON), replacing any; None drops it."""
        ...

    async def plans(self, game_id: int) -> dict[int, JSON]:
        """Every seat's planned turn in the game (seats with none are absent)."""
        ...

    async def moves_per_seat(self, game_id: int) -> dict[int, int]:
        """How many actions each seat has made (seats that never moved are absent)."""
        ...

    async def actions(self, game_id: int, since_seq: int = 0, limit: int | None = None) -> list[ActionRow]:
        """Actions after ``since_seq`` in order (the last ``limit`` of them if given)."""
        ...

    async def export_game(self, game_id: int) -> GameExport:
        """The game as config, seed, seats and every action's text: it re-simulates exactly."""
        ...

    async def game_record(self, game_id: int) -> GameRecord | None:
        """The row and log of a game as stored, in one consistent read (a check made while moves
        are being committed sees one moment); None if there is no such game. RecordUnreadable
        if the backend cannot read them at all."""
        ...


class ScheduleStore(Protocol):
    """Timers: what is due when, kept across restarts."""

    async def set_schedule(self, game_id: int, entries: Schedule) -> None:
        """Replace the game's timers."""
        ...

    async def clear_schedule(self, game_id: int, kind: str | None = None) -> None:
        """Remove the game's timers (only those of ``kind`` if given)."""
        ...

    async def delete_schedule_entry(self, game_id: int, kind: str, seq: int) -> None:
        """Remove one timer if it is still the one for move ``seq`` (a newer turn's stays)."""
        ...

    async def due(self, now: float) -> list[DueEntry]:
        """Timers due at ``now`` (``due_at <= now``), oldest first."""
        ...

    async def schedule_of(self, game_id: int) -> dict[str, tuple[float, int]]:
        """The game's timers."""
        ...

    async def claim_due(self, now: float, hold: float) -> list[DueEntry]:
        """The timers due at ``now``, oldest first, taken by this process for ``hold`` seconds:
        meanwhile no other process is handed them, so each timer is carried out by one process of
        a cluster. A timer still in the schedule once ``hold`` is over (its process died before
        carrying it out) is handed out again. With one process, the same as :meth:`due`."""
        ...


class MetaStore(Protocol):
    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


class GameOwnership(Protocol):
    """Which process acts for a game: applies its moves, fires its timers and posts its outcomes.

    ``process`` names this process in the store. Before acting for a game a process claims it;
    a shared backend grants the claim to one live process at a time (a lease renewed while it
    lives, taken over when it dies). An embedded database is used by one process, which acts
    for every game, so every claim succeeds and the owner of every game is ``process``."""

    process: str

    async def claim_game(self, game_id: int) -> bool:
        """Take or renew the game for this process; False if another live process holds it."""
        ...

    async def game_owner(self, game_id: int) -> str | None:
        """The process that acts for the game now (None: no such game, or nobody holds it)."""
        ...


class Outbox(Protocol):
    """The outcome stream's outbox (see :mod:`bot.outbox`): every action appended to the log is
    written here in the same transaction, so a move committed by a process that dies before
    posting it, or by a process that does not post for the game's server, is still posted once,
    by the process that does, which then marks it posted."""

    origin: str
    """This process's name in the outbox (the ``origin`` of what it commits)."""

    async def unposted(self, game_id: int | None = None) -> list[OutboxRow]:
        """The moves not yet posted (of ``game_id`` if given), by game and seq."""
        ...

    async def mark_posted(self, game_id: int, up_to_seq: int) -> int:
        """Mark the game's moves up to ``up_to_seq`` posted; returns how many were still unposted."""
        ...

    async def prune(self, older_than: float) -> int:
        """Forget moves posted before ``older_than``; returns how many."""
        ...

    def notices(self) -> AsyncIterator[OutboxNotice | None]:
        """Moves committed by any process, as they are committed, for as long as the caller reads:
        None first and again after every reconnection (a caller then reads :meth:`unposted`, for
        what it may have missed), then one notice per move. A backend used by one process (SQLite)
        yields None once and then nothing: its one process publishes in memory."""
        ...


class TournamentTables(Protocol):
    """Community events: each change one transaction. Results are written from finished games'
    final scores; a correction is kept beside the engine's result with its reason."""

    async def create_event(
        self,
        *,
        space: str,
        creator: str,
        game_name: str,
        config: EventConfig,
        settings: JsonMapping,
        seed: int,
    ) -> int: ...

    async def event(self, event_id: int) -> EventRow | None: ...

    async def events(self, space: str | None = None, statuses: tuple[str, ...] = ()) -> list[EventRow]:
        """Events of ``space`` (every space if None) with one of ``statuses`` (any if empty), newest first."""
        ...

    async def event_numbered(self, space: str, number: int) -> int | None:
        """The id of event ``number`` of ``space`` (each server numbers its events from 1), or None."""
        ...

    async def event_ids(self, statuses: tuple[str, ...]) -> list[int]:
        """Every event with one of ``statuses``, oldest first, without reading the rows (one damaged
        event must not keep the others from being found)."""
        ...

    async def update_event(
        self,
        event_id: int,
        *,
        status: str | None = None,
        round: int | None = None,
        settings: JsonMapping | None = None,
    ) -> None:
        """Set what is given (None: unchanged) and the event's ``updated_at``."""
        ...

    async def entries(self, event_id: int) -> list[EntryRow]:
        """Registrations in the order they came."""
        ...

    async def add_entry(self, event_id: int, player: str, name: str, state: str) -> None:
        """Register ``player`` after everyone registered so far."""
        ...

    async def remove_entry(self, event_id: int, player: str, promote: str | None = None) -> None:
        """Remove ``player``; ``promote`` (the first on the waiting list) takes the freed place, at once."""
        ...

    async def set_entry(
        self, event_id: int, player: str, *, state: str | None = None, checked_in: bool | None = None
    ) -> None: ...

    async def set_states(self, event_id: int, states: Mapping[str, str]) -> None:
        """Several players' states at once."""
        ...

    async def add_round(
        self, event_id: int, number: int, stage: Stage, tables: Sequence[Table], deadline_at: float | None
    ) -> None:
        """The round, its tables (games not created yet) and the event's current round, at once."""
        ...

    async def withdraw_round(self, event_id: int, number: int, *, status: str, settings: JsonMapping) -> None:
        """Round ``number`` and its tables forgotten (its games could not all be created), the event
        back at round ``number - 1`` with ``status`` and ``settings``, at once."""
        ...

    async def rounds(self, event_id: int) -> list[RoundRow]: ...

    async def finish_round(self, event_id: int, number: int) -> None:
        """Stamp the round finished (the first stamp stays)."""
        ...

    async def tables(self, event_id: int, round_number: int | None = None) -> list[TableRow]:
        """Tables by round and number (of one round if given)."""
        ...

    async def table_of_game(self, game_id: int) -> TableRow | None: ...

    async def set_table(
        self,
        event_id: int,
        round_number: int,
        number: int,
        *,
        game_id: int | None = None,
        adjudicated: bool | None = None,
    ) -> None: ...

    async def reopen_table(
        self, event_id: int, round_number: int, number: int, settings: JsonMapping
    ) -> None:
        """The table's game forgotten (and not adjudicated) and the event's ``settings`` written, at once."""
        ...

    async def add_result(
        self,
        event_id: int,
        result: GameResult,
        game_id: int,
        corrected_by: str | None = None,
        rated: RatingWrite | None = None,
    ) -> None:
        """A result and its ``rated`` changes in one transaction (``rated.replace``: the space's
        history is replaced by ``rated.history``)."""
        ...

    async def result_history(self, event_id: int) -> list[ResultRow]:
        """Every stored result, oldest first (corrections after what they replace)."""
        ...

    async def results(self, event_id: int) -> list[GameResult]:
        """The standing result of each table (its latest correction, else the engine's), by round and table."""
        ...

    async def rated_games(self, space: str) -> list[tuple[int, int]]:
        """``(event_id, game_id)`` of every game rated in the space, in the order first rated."""
        ...

    async def rating_book(self, space: str) -> RatingBook:
        """The space's ratings rebuilt from its stored history."""
        ...

    async def set_sharing(self, player: str, shared: bool) -> None: ...

    async def sharing(self, player: str) -> bool:
        """Whether ``player`` chose to appear in cross-server leaderboards (no choice: no)."""
        ...

    async def shared_books(self) -> dict[str, RatingBook]:
        """The book of every space where a player who chose to be shared was rated."""
        ...

    async def shared_players(self) -> frozenset[str]: ...


class DiscordRoutes(Protocol):
    """Where each game lives on Discord and what was posted there."""

    async def set_route(
        self, game_id: int, guild_id: int | None, channel_id: int | None, thread_id: int | None = None
    ) -> None: ...

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Change the thread of a game that has a route (no route: nothing happens)."""
        ...

    async def route(self, game_id: int) -> tuple[int | None, int | None, int | None] | None:
        """``(guild_id, channel_id, thread_id)`` of the game, or None if it has no route."""
        ...

    async def games_in_channel(self, channel_id: int) -> list[int]:
        """Lobby, active and finished games whose thread or channel is ``channel_id``: the game's own
        thread first, then running games before finished ones, newest first."""
        ...

    async def record_message(
        self, game_id: int, seq: int, channel_id: int, message_id: int, kind: str = "board"
    ) -> None:
        """Remember a posted message (the same message again replaces its record)."""
        ...

    async def latest_message(self, game_id: int, kind: str = "board") -> tuple[int, int, int] | None:
        """``(seq, channel_id, message_id)`` of the newest message of ``kind``."""
        ...


class DiscordDMHands(Protocol):
    """Players who keep their hand in a direct message, and that message per game."""

    async def dm_enabled(self, player: str) -> bool: ...

    async def set_dm_enabled(self, player: str, on: bool) -> None: ...

    async def dm_message(self, game_id: int, player: str) -> tuple[int, int] | None:
        """``(channel_id, message_id)`` of the player's DM hand for the game."""
        ...

    async def remember_dm(self, game_id: int, player: str, channel_id: int, message_id: int) -> None: ...

    async def forget_dm(self, game_id: int, player: str) -> None: ...

    async def dm_games(self, player: str) -> list[int]:
        """Games for which ``player`` has a DM hand."""
        ...


class DiscordGuildSettings(Protocol):
    """Per-server settings: the game manager role and the default language of new games."""

    async def manager_role(self, guild_id: int) -> int | None: ...

    async def set_manager_role(self, guild_id: int, role_id: int | None) -> None: ...

    async def event_creators(self, guild_id: int) -> str | None:
        """Who may create events in the server: ``anyone`` (also None: not chosen), ``admins`` or
        ``role:<id>``."""
        ...

    async def set_event_creators(self, guild_id: int, who: str | None) -> None: ...

    async def guild_language(self, guild_id: int) -> str | None: ...

    async def set_guild_language(self, guild_id: int, language: str | None) -> None: ...


class DiscordEventRoutes(Protocol):
    """Where each tournament event lives on Discord."""

    async def set_event_route(
        self, event_id: int, guild_id: int | None, channel_id: int | None, status_message_id: int | None
    ) -> None: ...

    async def event_route(self, event_id: int) -> tuple[int | None, int | None, int | None]:
        """``(guild_id, channel_id, status_message_id)``; all None if the event has none."""
        ...


class DiscordTables(DiscordRoutes, DiscordDMHands, DiscordGuildSettings, DiscordEventRoutes, Protocol):
    """Every table of the Discord adapter (owner ``discord``)."""


class WebTables(Protocol):
    """The web pages' tables (owner ``web``): a public id per game, event or opted-in player
    (``kind`` ``game``/``event``/``player``, ``ref`` its id or player reference as text), never
    derived from the server's numbers, and each space's switch."""

    async def public_id(self, kind: str, ref: str, candidate: str) -> str:
        """The public id of ``(kind, ref)``: the one it has, else ``candidate`` (kept from now on;
        the caller makes it unguessable)."""
        ...

    async def existing_public_id(self, kind: str, ref: str) -> str | None: ...

    async def public_ref(self, public_id: str) -> PublicRef | None:
        """What a public id names (None: no such id)."""
        ...

    async def public_refs(self, kind: str) -> list[PublicRef]:
        """Every ``kind`` with a public id, oldest first."""
        ...

    async def set_unlisted(self, kind: str, ref: str, unlisted: bool) -> None:
        """Unlisted: the page is served to whoever has its address but never listed or exported."""
        ...

    async def forget_public(self, kind: str, ref: str) -> None:
        """Drop the public id (a player who opts out: the old address then finds nothing)."""
        ...

    async def pages_off(self, space: str) -> bool: ...

    async def set_pages_off(self, space: str, off: bool) -> None: ...


class CoreStore(GameStore, ScheduleStore, MetaStore, GameOwnership, Protocol):
    """What the game service needs."""


class Store(CoreStore, Protocol):
    """One backend: the core's tables, every other owner's, its lifecycle and its maintenance."""

    path: str
    """Where the data lives (a file for SQLite), for messages and reports."""

    @property
    def tournaments(self) -> TournamentTables: ...

    @property
    def discord(self) -> DiscordTables: ...

    @property
    def web(self) -> WebTables: ...

    @property
    def outbox(self) -> Outbox: ...

    async def open(self) -> Self:
        """Connect and bring every owner's tables up to date (existing rows kept)."""
        ...

    async def close(self) -> None: ...

    async def schema_versions(self) -> dict[str, int]:
        """How many of each owner's migrations the database has."""
        ...

    async def integrity_problems(self) -> list[str]:
        """The backend's own check of its files, line by line (empty: sound)."""
        ...

    async def backup(self, dest: str | PathLike[str]) -> None:
        """A consistent copy of the live database at ``dest``."""
        ...
