"""TournamentService: runs community events on top of :class:`~bot.service.GameService`.

Each table of a round is an ordinary Conductor game (created, joined in the pairing's seat
order, started). The service follows the games on the outcome stream: a finished game records
its result from the engine's final scores; when every table of a round has a result, the
standings follow and the next round is paired (unless the event is paused). At a round's
deadline every unfinished game is handed to AI seats and played out (marked adjudicated). A
player who drops leaves later pairings and an AI plays out their current seat. Rated events
update the space's OpenSkill ratings game by game.

Everything lives in SQLite (:mod:`bot.tournament.store`): after a restart :meth:`resume` reads
it back, records results of games that ended while nobody listened and pairs what is due.
Front ends learn about changes through listeners (:class:`TournamentListener`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, Protocol, cast

from bot.service import TIMEOUT_POLICIES, GameService, ServiceError
from bot.store.api import TournamentTables
from bot.store.rows import ABORTED, ACTIVE, BROKEN, LOBBY, OVER
from bot.stream import Outcome
from bot.tournament.model import (
    DEFAULT_POINTS,
    DEFAULT_TABLE_SIZES,
    DEFAULT_TIE_BREAKS,
    Criterion,
    EventConfig,
    Format,
    GameResult,
    Registration,
    TournamentError,
    result_from_final_scores,
    void_result,
)
from bot.tournament.pairing import assign_groups, pair_round
from bot.tournament.ratings import ordinals, rate_event_game, rebuild_ratings
from bot.tournament.standings import Row, standings
from bot.tournament.store import (
    DROPPED,
    ENTERED,
    FINISHED,
    NO_SHOW,
    PAUSED,
    REGISTRATION,
    RUNNING,
    WAITING,
    EntryRow,
    EventRow,
    RatingWrite,
    TableRow,
    config_to_json,
    result_to_json,
)
from lang import CatalogError, M, Mp, Msg, normalise
from rules import takeback
from rules.games import find_game

log = logging.getLogger("conductor.tournament")

MAX_CAP = 512
AUTOMATIC, REVIEW = "automatic", "review"
PAIRING_MODES = (AUTOMATIC, REVIEW)
"""``automatic``: the next round is paired once the last table finishes; ``review``: the
organiser reviews the round's results (corrects them) and confirms first."""

CHECKIN_OPEN, START_SOON, START_FAILED = "checkin_open", "start_soon", "start_failed"
NOTICES = (CHECKIN_OPEN, START_SOON, START_FAILED)
"""An event's notices before its start time: its check-in window is open; it starts soon
(:data:`SOON` before, or half-way through a shorter check-in window); it could not start by itself."""
SOON = 3600.0
MAX_START_AHEAD = 60 * 86400.0
"""How far ahead a start time may be set (60 days)."""

STATUS_WORDS = {
    REGISTRATION: Mp("event status", "registration open"),
    RUNNING: Mp("event status", "running"),
    PAUSED: Mp("event status", "paused"),
    FINISHED: Mp("event status", "finished"),
}
"""An event's state as its readers name it (the same words as the status message's)."""


class TournamentListener(Protocol):
    """A front end following events: told before each table's game starts (to give it a place,
    e.g. a thread), about each round's new tables and about every change of an event."""

    async def table_opening(self, event: EventRow, table: TableRow, game_id: int) -> None: ...

    async def tables_created(self, event: EventRow, tables: Sequence[TableRow]) -> None: ...

    async def event_changed(self, event: EventRow) -> None: ...

    async def event_finished(self, event: EventRow) -> None:
        """Once, when the event's last round closes (before ``event_changed``)."""
        ...

    async def registration_notice(
        self, event: EventRow, kind: str, players: Sequence[str], reason: Msg | str | None
    ) -> None:
        """Once per notice of an event with a start time (``kind``, see :data:`NOTICES`):
        ``players`` are those it is for (registered and not yet checked in, or every entrant
        without check-in); ``reason`` says why a start failed."""
        ...


@dataclass(frozen=True)
class TableProgress:
    """Where one table of the current round stands: finished, or whose turn holds it up since when."""

    table: TableRow
    status: str
    waiting_for: tuple[str, ...]
    since: float | None


class TournamentService:
    """Create and run events; the only writer of tournament state (see the module docstring)."""

    def __init__(self, service: GameService, store: TournamentTables | None = None) -> None:
        self.service = service
        self.store = store or service.storage.tournaments
        self.listeners: list[TournamentListener] = []
        self.seeds: random.Random = random.SystemRandom()
        """Where a new event's seed comes from when none is given (tests set a seeded generator)."""
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._just_finished: set[int] = set()  # events whose last round closed, not yet told
        # Rating a game reads the space's book and writes changes computed from it; a correction
        # in another event of the space must not rebuild the book in between.
        self._rating_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    @property
    def clock(self) -> Any:
        return self.service.clock

    # ---- lookup and permissions ----------------------------------------------------------------
    async def event(self, event_id: int, where: str | None) -> EventRow:
        """The event if it belongs to ``where``; the same refusal for another server's event as
        for a number never used."""
        event = await self.store.event(event_id)
        if event is None or where is None or event.space != where:
            raise TournamentError("not_found", M("There is no event #{number} here.", number=event_id))
        return event

    async def organised(
        self, event_id: int, where: str | None, by: str, *, is_admin: bool = False
    ) -> EventRow:
        """The event, if ``by`` may organise it (its creator, a server admin or a game manager):
        for a front end's own organiser settings, such as whether its web page is listed."""
        event = await self.event(event_id, where)
        self._organiser(event, by, is_admin)
        return event

    @staticmethod
    def _organiser(event: EventRow, by: str, is_admin: bool) -> None:
        if not (is_admin or by == event.creator):
            raise TournamentError(
                "forbidden", M("Only the event's creator, a server admin or a game manager can do that.")
            )

    async def _notify(self, event_id: int, tables: Sequence[TableRow] = ()) -> None:
        event = await self.store.event(event_id)
        if event is None:
            return
        finished = event_id in self._just_finished
        self._just_finished.discard(event_id)
        for listener in list(self.listeners):
            try:
                if tables:
                    await listener.tables_created(event, tables)
                if finished:
                    await listener.event_finished(event)
                await listener.event_changed(event)
            except Exception:  # noqa: BLE001 - a front end's failure never stops the event
                log.exception("event=%s: listener %s failed", event_id, type(listener).__name__)

    # ---- creating and registering ---------------------------------------------------------------
    async def create_event(
        self,
        *,
        space: str | None,
        creator: str,
        name: str,
        game_name: str,
        boards: Sequence[str] | None = None,
        table_size: int = 4,
        format: str = "swiss",
        rounds: int = 3,
        turn_hours: float = 24.0,
        timeout_policy: str = "ai",
        deadline_hours: float = 0.0,
        points: dict[int, tuple[int, ...]] | None = None,
        rated: bool = True,
        cap: int = 0,
        checkin: bool = False,
        final_size: int = 0,
        groups: int = 0,
        cut_size: int = 0,
        count_ai_takeovers: bool = False,
        seed: int | None = None,
        ranking: Sequence[str] = (),
        seed_round_one_by_rating: bool = False,
        language: str | None = None,
        take_backs: bool = True,
        pairing: str = AUTOMATIC,
        late_entry: str = "zero",
        late_points: float = 0.0,
        starts_at: float | None = None,
        checkin_hours: float = 0.0,
    ) -> EventRow:
        """A new event in registration. Every setting is checked now: a board that cannot seat
        every allowed table size, an unknown game, a bad scale or a turn timer a game would refuse
        is refused and nothing is made. ``language``: the event's games speak it (the server's,
        chosen by the front end; None: the games' default). ``take_backs`` False: no player of the
        event's games may take a move back (rules/takeback.py). ``starts_at``: when the event
        starts by itself (the runner's :meth:`tick`), with a check-in window of
        ``checkin_hours`` before it (players who have not checked in by then are not seated)."""
        if space is None:
            raise TournamentError("no_space", M("Events are run in a server, not in direct messages."))
        try:
            spec = find_game(game_name)
        except (KeyError, ValueError):
            raise TournamentError(
                "bad_config", M("There is no game {game_name}.", game_name=repr(game_name))
            ) from None
        if timeout_policy not in TIMEOUT_POLICIES:
            raise TournamentError(
                "bad_config",
                M("The timeout policy must be one of {choices}.", choices=", ".join(TIMEOUT_POLICIES)),
            )
        if deadline_hours < 0 or turn_hours < 0:
            raise TournamentError("bad_config", M("Hours cannot be negative."))
        if pairing not in PAIRING_MODES:
            raise TournamentError(
                "bad_config",
                M(
                    "Pairing is {choices}, not {value}.",
                    choices=" or ".join(PAIRING_MODES),
                    value=repr(pairing),
                ),
            )
        try:
            # Each table is an ordinary game: its timer is held to a game's own limits, in the
            # same sentence /ttr new gives, or round 1 would fail to create its games.
            self.service.check_timer(turn_hours)
        except ServiceError as exc:
            raise TournamentError("bad_config", exc.said) from None
        if starts_at is not None and not self.clock() < starts_at <= self.clock() + MAX_START_AHEAD:
            raise TournamentError(
                "bad_config", M("The start time must be in the future, at most 60 days ahead.")
            )
        if checkin_hours < 0 or (checkin_hours and starts_at is None):
            raise TournamentError(
                "bad_config",
                M("A check-in window is a number of hours before a start time; give the start time too."),
            )
        if starts_at is not None and starts_at - checkin_hours * 3600 < self.clock():
            raise TournamentError(
                "bad_config",
                M("The check-in window would open before now; start later or shorten the window."),
            )
        if not 0 <= cap <= MAX_CAP:
            raise TournamentError(
                "bad_config", M("The cap is between 0 (none) and {most} players.", most=MAX_CAP)
            )
        known = [b.id for b in spec.boards()]
        if not known:
            boards = (spec.name,)  # a game without boards: its name labels its tables
        elif boards is None:
            boards = (known[0],)  # none named: the game's first (USA for Ticket to Ride)
        lo, hi = 2, 6
        for board in boards:
            if known and board not in known:
                raise TournamentError(
                    "bad_config",
                    M(
                        "There is no {title} board {board}; choose from {choices}.",
                        title=spec.title,
                        board=repr(board),
                        choices=", ".join(known),
                    ),
                )
            board_lo, board_hi = spec.player_range(spec.config_for(board=board if known else None))
            lo, hi = max(lo, board_lo), min(hi, board_hi)
        if table_size and not lo <= table_size <= hi:
            raise TournamentError(
                "bad_config",
                M(
                    "The boards of this event seat {low} to {high} players, not tables of "
                    "{size}. Choose another size or board.",
                    low=lo,
                    high=hi,
                    size=table_size,
                ),
            )
        if final_size and not lo <= final_size <= hi:
            raise TournamentError(
                "bad_config",
                M(
                    "The boards of this event seat {low} to {high} players, not a final "
                    "table of {size}. Choose another size or board.",
                    low=lo,
                    high=hi,
                    size=final_size,
                ),
            )
        # The other sizes the split may use are only those every board of the event seats.
        sizes = tuple(s for s in DEFAULT_TABLE_SIZES.get(table_size, (table_size,)) if lo <= s <= hi)
        scale = dict(DEFAULT_POINTS)
        scale.update(points or {})
        config = EventConfig(
            name=name.strip(),
            family=spec.name,
            format=cast(Format, format),
            rounds=rounds,
            table_size=table_size,
            table_sizes=sizes,
            boards=tuple(boards),
            points_per_place=scale,
            rated=rated,
            final_size=final_size,
            groups=groups,
            cut_size=cut_size,
            count_ai_takeovers=count_ai_takeovers,
            seed_round_one_by_rating=seed_round_one_by_rating,
            ranking=tuple(cast(Criterion, c) for c in ranking) if ranking else DEFAULT_TIE_BREAKS,
            late_entry=cast(Literal["zero", "average", "fixed"], late_entry),
            late_points=late_points,
        )
        same = [
            e
            for e in await self.store.events(space)
            if e.name.casefold() == config.name.casefold() and e.status != FINISHED
        ]
        if same:
            raise TournamentError(
                "duplicate",
                M(
                    "There is already an event called {name} here (#{id}).",
                    name=repr(config.name),
                    id=same[0].number,
                ),
            )
        settings = {
            "turn_hours": turn_hours,
            "timeout_policy": timeout_policy,
            "deadline_hours": deadline_hours,
            "cap": cap,
            "checkin": checkin,
            "groups": {},
        }
        if language:
            settings["language"] = normalise(language)
        if not take_backs:
            settings[takeback.SETTING] = False
        if pairing != AUTOMATIC:
            settings["pairing"] = pairing
        if starts_at is not None:
            settings["starts_at"] = float(starts_at)
        if checkin_hours:
            settings["checkin"] = True  # a window means players check in
            settings["checkin_hours"] = float(checkin_hours)
        seed = int(seed) if seed is not None else self.seeds.randrange(1, 2**62)
        event_id = await self.store.create_event(
            space=space, creator=creator, game_name=spec.name, config=config, settings=settings, seed=seed
        )
        log.info("event=%s created in %s: %s", event_id, space, config)
        event = await self.store.event(event_id)
        assert event is not None
        return event

    async def join(self, event_id: int, where: str | None, player: str, name: str) -> str:
        """Enter the event (or its waiting list when the cap is reached). Returns the state."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            if event.status == FINISHED:
                raise TournamentError("finished", M("Event #{number} is over.", number=event.number))
            if event.status != REGISTRATION:
                raise TournamentError(
                    "started",
                    M("Event #{number} has started; ask an organiser to add you.", number=event.number),
                )
            entries = await self.store.entries(event_id)
            if any(e.player == player for e in entries):
                raise TournamentError(
                    "already_registered",
                    M("You are already registered for event #{number}.", number=event.number),
                )
            cap = int(event.settings.get("cap") or 0)
            entered = sum(e.state == ENTERED for e in entries)
            state = WAITING if cap and entered >= cap else ENTERED
            await self.store.add_entry(event_id, player, name, state)
        await self._notify(event_id)
        return state

    async def leave(self, event_id: int, where: str | None, player: str) -> str | None:
        """Leave before the start; the first on the waiting list takes the place. Returns who moved up."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            if event.status != REGISTRATION:
                raise TournamentError(
                    "started",
                    M(
                        "Event #{number} has started; to stop playing, use /tournament drop.",
                        number=event.number,
                    ),
                )
            entries = await self.store.entries(event_id)
            mine = next((e for e in entries if e.player == player), None)
            if mine is None:
                raise TournamentError(
                    "not_registered", M("You are not registered for event #{number}.", number=event.number)
                )
            promote = None
            if mine.state == ENTERED:
                promote = next((e.player for e in entries if e.state == WAITING), None)
            await self.store.remove_entry(event_id, player, promote)
        await self._notify(event_id)
        return promote

    async def checkin(self, event_id: int, where: str | None, player: str) -> None:
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            if event.status != REGISTRATION:
                raise TournamentError(
                    "started", M("Event #{number} has already started.", number=event.number)
                )
            if not any(e.player == player for e in await self.store.entries(event_id)):
                raise TournamentError(
                    "not_registered",
                    M("You are not registered for event #{number}; join first.", number=event.number),
                )
            opens = checkin_opens(event)
            if opens is not None and self.clock() < opens:
                raise TournamentError(
                    "checkin_closed",
                    M(
                        "Check-in for event #{number} opens {when}.",
                        number=event.number,
                        when=f"<t:{int(opens)}:R>",
                    ),
                )
            await self.store.set_entry(event_id, player, checked_in=True)
        await self._notify(event_id)

    async def add(
        self, event_id: int, where: str | None, by: str, player: str, name: str, *, is_admin: bool = False
    ) -> str:
        """An organiser enters a player: before the start like a join (past the cap, never waiting);
        once started, the player is paired from the next round on."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            if event.status == FINISHED:
                raise TournamentError("finished", M("Event #{number} is over.", number=event.number))
            entries = await self.store.entries(event_id)
            existing = next((e for e in entries if e.player == player), None)
            if existing is not None and existing.state == ENTERED:
                raise TournamentError("already_registered", M("{name} is already registered.", name=name))
            if existing is not None and existing.state == DROPPED:
                raise TournamentError(
                    "already_dropped", M("{name} dropped out and cannot come back.", name=name)
                )
            if existing is not None:
                await self.store.set_entry(event_id, player, state=ENTERED, checked_in=True)
            else:
                await self.store.add_entry(event_id, player, name, ENTERED)
                await self.store.set_entry(event_id, player, checked_in=True)
        await self._notify(event_id)
        return ENTERED

    # ---- running -------------------------------------------------------------------------------
    def registration(self, entries: Sequence[EntryRow]) -> Registration:
        """The core's registration: everyone who was ever seated or is entered, dropped marked."""
        players = tuple(e.player for e in entries if e.state in (ENTERED, DROPPED))
        return Registration(
            players=players, dropped=frozenset(e.player for e in entries if e.state == DROPPED)
        )

    async def start(self, event_id: int, where: str | None, by: str, *, is_admin: bool = False) -> EventRow:
        """Start the event (round 1), or resume a paused one (pairing the next round if due)."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            if event.status == FINISHED:
                raise TournamentError("finished", M("Event #{number} is over.", number=event.number))
            if event.status == RUNNING:
                raise TournamentError(
                    "running", M("Event #{number} is already running.", number=event.number)
                )
            if event.status == PAUSED:
                settings = {k: v for k, v in event.settings.items() if k != "paused_because"}
                await self.store.update_event(event_id, status=RUNNING, settings=settings)
                tables = await self._advance(event_id, by_organiser=True)
            else:
                tables = await self._first_round(event)
        await self._notify(event_id, tables)
        return await self.event(event_id, where)

    async def _first_round(self, event: EventRow) -> list[TableRow]:
        entries = await self.store.entries(event.id)
        states: dict[str, str] = {}
        if event.settings.get("checkin"):
            for e in entries:
                if e.state == ENTERED and not e.checked_in:
                    states[e.player] = NO_SHOW
            cap = int(event.settings.get("cap") or 0)
            seated = sum(e.state == ENTERED and e.checked_in for e in entries)
            for e in entries:  # checked-in players of the waiting list fill the places of no-shows
                if e.state == WAITING and e.checked_in and (not cap or seated < cap):
                    states[e.player] = ENTERED
                    seated += 1
        playing = [e for e in entries if states.get(e.player, e.state) == ENTERED]
        config = event.config
        if len(playing) < min(config.table_sizes):
            raise TournamentError(
                "too_few",
                M(
                    "Event #{id} has {playing_count} players ready; it needs at least {min}.",
                    id=event.number,
                    playing_count=len(playing),
                    min=min(config.table_sizes),
                ),
            )
        if len(playing) < config.cut_size:
            raise TournamentError(
                "too_few",
                M(
                    "Event #{id} has {playing_count} players ready; its top cut alone needs {cut}.",
                    id=event.number,
                    playing_count=len(playing),
                    cut=config.cut_size,
                ),
            )
        registration = Registration(tuple(e.player for e in playing))
        book = await self.store.rating_book(event.space)
        ratings = ordinals(book, config.family)
        settings = dict(event.settings)
        if config.groups:
            settings["groups"] = assign_groups(config, registration, event.seed, ratings)
        round_one = pair_round(
            config, registration, [], 1, event.seed, ratings, settings["groups"] or None
        )  # refuses a field it cannot seat
        if states:
            await self.store.set_states(event.id, states)
        await self.store.update_event(event.id, status=RUNNING, settings=settings)
        try:
            return await self._open_round(
                await self._reload(event.id), round_one.number, list(round_one.tables)
            )
        except TournamentError:
            # all or nothing: registration is open again as it was, with every player's state
            await self.store.update_event(event.id, status=REGISTRATION, settings=event.settings)
            if states:
                await self.store.set_states(
                    event.id, {p: e.state for e in entries if (p := e.player) in states}
                )
            raise

    async def _reload(self, event_id: int) -> EventRow:
        event = await self.store.event(event_id)
        assert event is not None
        return event

    async def _open_round(self, event: EventRow, number: int, tables: list[Any]) -> list[TableRow]:
        hours = float(event.settings.get("deadline_hours") or 0)
        deadline = self.clock() + hours * 3600 if hours > 0 else None
        await self.store.add_round(event.id, number, event.config.stage_of(number), tables, deadline)
        names = {e.player: e.name for e in await self.store.entries(event.id)}
        rows = await self.store.tables(event.id, number)
        try:
            for row in rows:
                await self._create_game(event, row, names)
        except CatalogError as exc:
            # A refusal (a game's rules, storage) withdraws the whole round. A crash is not caught:
            # like a kill, it leaves the round for resume() to finish creating at the next start.
            await self._withdraw_round(event, number, rows, exc)
            reason = exc.said
            raise TournamentError(
                "round_not_started",
                M(
                    "Round {round} could not be started, so it was not paired and nothing changed: {reason}",
                    round=number,
                    reason=reason,
                ),
            ) from exc
        log.info("event=%s round=%s paired: %d tables", event.id, number, len(rows))
        return await self.store.tables(event.id, number)

    async def _withdraw_round(
        self, event: EventRow, number: int, rows: Sequence[TableRow], exc: BaseException
    ) -> None:
        """A round whose games could not all be created is undone: the games made so far are
        aborted and the round forgotten, so the event is where it was before the pairing (a round
        with empty tables could never finish, and no command could recover it)."""
        log.error(
            "event=%s round=%s: a table's game could not be created; round withdrawn",
            event.id,
            number,
            exc_info=exc,
        )
        for row in rows:
            if row.game_id is not None:
                try:
                    await self.service.abort(row.game_id, None, is_admin=True, where=event.space)
                except ServiceError as abort_error:
                    log.warning("event=%s game=%s not aborted: %s", event.id, row.game_id, abort_error)
        await self.store.withdraw_round(event.id, number, status=event.status, settings=event.settings)

    async def _create_game(self, event: EventRow, row: TableRow, names: dict[str, str]) -> None:
        """The table's game: created, joined in seat order and started (its id stored first, so a
        game that ends at once is still recognised as this table's)."""
        spec = find_game(event.game_name)
        known = [b.id for b in spec.boards()]
        config = spec.config_for(board=row.board if known else None)
        if event.settings.get("language"):
            # the game's public messages and pictures, as /ttr new pins them: the event's language
            config["language"] = str(event.settings["language"])
        if event.settings.get(takeback.SETTING) is False:
            config[takeback.SETTING] = False  # the event turned take-backs off for its games
        seed = self._table_seed(event, row)
        game = await self.service.create_game(
            game_name=event.game_name,
            config=config,
            creator=event.creator,
            space=event.space,
            turn_hours=float(event.settings.get("turn_hours") or 0) or None,
            timeout_policy=str(event.settings.get("timeout_policy") or "ai"),
            seat_order="join",
            seed=seed,
            join=False,
        )
        await self.store.set_table(event.id, row.round, row.number, game_id=game.id)
        row.game_id = game.id
        for listener in list(self.listeners):
            try:
                await listener.table_opening(event, row, game.id)
            except Exception:  # noqa: BLE001 - a front end's failure never stops the event
                log.exception(
                    "event=%s game=%s: listener %s failed", event.id, game.id, type(listener).__name__
                )
        await self._seat_and_start(event, row, names)

    @staticmethod
    def _table_seed(event: EventRow, row: TableRow) -> int:
        """The seed of the table's game, derived from the event's; a replayed table gets a new
        deal: its attempt number is part of the seed."""
        attempt = sum(
            1
            for r in event.settings.get("replays") or []
            if (r["round"], r["table"]) == (row.round, row.number)
        )
        key = f"{event.seed}:{row.round}:{row.number}" + (f":replay{attempt}" if attempt else "")
        return int.from_bytes(hashlib.sha256(key.encode()).digest()[:7], "big")

    async def _abort_orphans(self, event: EventRow, row: TableRow) -> None:
        """A kill between creating a table's game and recording it on the table left a lobby that
        no table names; its seed (the table's, derived from the event's) identifies it. It is
        aborted before the table's game is made again, so no orphan lobby stays behind."""
        seed = self._table_seed(event, row)
        for game_id in await self.service.storage.game_ids((LOBBY,)):
            try:
                game = await self.service.game_row(game_id)
            except ServiceError:
                continue
            if (game.space, game.seed, game.creator) != (event.space, seed, event.creator):
                continue
            if await self.store.table_of_game(game_id) is None:
                log.info(
                    "event=%s: orphan lobby game %s of round %s table %s aborted",
                    event.id,
                    game_id,
                    row.round,
                    row.number,
                )
                await self.service.abort(game_id, None, is_admin=True, where=event.space)

    async def _seat_and_start(self, event: EventRow, row: TableRow, names: dict[str, str]) -> None:
        """Join the table's players not yet seated (in seat order) and start its game; the seat of
        a player who has dropped out since the pairing (a replayed table) goes to an AI at once."""
        assert row.game_id is not None
        seated = {s.player for s in (await self.service.game_row(row.game_id)).seats}
        for player in row.seats:
            if player not in seated:
                await self.service.join(row.game_id, player, names.get(player, player), where=event.space)
        # A person's join that fills the last seat starts the lobby by itself.
        if (await self.service.game_row(row.game_id)).status == LOBBY:
            await self.service.start(row.game_id, None, is_admin=True, where=event.space)
        dropped = {e.player for e in await self.store.entries(event.id) if e.state == DROPPED}
        game = await self.service.game_row(row.game_id)
        for seat in game.seats:
            if seat.player in dropped and not seat.is_ai and game.status == ACTIVE:
                await self.service.replace_with_ai(
                    row.game_id, None, seat.seat + 1, is_admin=True, where=event.space
                )
                game = await self.service.game_row(row.game_id)

    async def deliver(self, outcome: Outcome) -> None:
        """Outcome-stream subscriber: a finished table game records its result and moves the event on."""
        if not outcome.over:
            return
        table = await self.store.table_of_game(outcome.game_id)
        if table is None:
            return
        await self._game_over(table.event_id, outcome.game_id)

    async def _game_over(self, event_id: int, game_id: int) -> None:
        async with self._locks[event_id]:
            recorded = await self._record(event_id, game_id)
            tables = await self._advance(event_id) if recorded else []
        if recorded:
            await self._notify(event_id, tables)

    async def _record(self, event_id: int, game_id: int) -> bool:
        """Store the result of a finished table game (once) and rate it. True if it was new."""
        event = await self._reload(event_id)
        table = await self.store.table_of_game(game_id)
        if table is None or any(r.game_id == game_id for r in await self.store.result_history(event_id)):
            return False
        result = await self.result_of(event, table)
        if result is None:
            return False
        async with self._rating_locks[event.space]:
            changes: RatingWrite | None = None
            if event.config.rated:
                book = await self.store.rating_book(event.space)
                try:
                    rated = rate_event_game(book, event.config, result)
                except TournamentError as exc:
                    log.warning("event=%s game=%s not rated: %s", event_id, game_id, exc.message)
                else:
                    changes = RatingWrite(
                        event.space, {result.game_id: event_id}, rated.history[len(book.history) :]
                    )
            await self.store.add_result(event_id, result, game_id, rated=changes)
        log.info(
            "event=%s round=%s table=%s recorded from game %s", event_id, table.round, table.number, game_id
        )
        return True

    async def result_of(self, event: EventRow, table: TableRow) -> GameResult | None:
        """The engine's result of the table's game (None while it is not over). A seat played by an
        AI at the end (dropped, adjudicated, resigned, forfeited on time) is an AI takeover."""
        if table.game_id is None:
            return None
        loaded = await self.service.load(table.game_id)
        if loaded.row.status != OVER or loaded.game is None:
            return None
        ai_seats = [s.seat for s in loaded.row.seats if s.is_ai]
        return result_from_final_scores(
            table.table(),
            str(table.game_id),
            loaded.game.final_scores(),
            ai_seats=ai_seats,
            adjudicated=table.adjudicated,
        )

    async def _advance(self, event_id: int, *, by_organiser: bool = False) -> list[TableRow]:
        """If the current round is complete: close it, then pair the next or finish the event.
        A next round whose games cannot all be created is withdrawn and the event paused with the
        reason (kept in ``settings["paused_because"]``); ``by_organiser``: the organiser asked
        (``/tournament start``) and is told why instead."""
        event = await self._reload(event_id)
        if event.status not in (RUNNING, PAUSED) or event.round == 0:
            return []
        tables = await self.store.tables(event_id, event.round)
        done = {(r.round, r.table) for r in await self.store.results(event_id)}
        if any((t.round, t.number) not in done for t in tables):
            return []
        await self.store.finish_round(event_id, event.round)
        if event.round >= event.config.total_rounds:
            await self.store.update_event(event_id, status=FINISHED)
            self._just_finished.add(event_id)
            log.info("event=%s finished", event_id)
            return []
        if event.status == PAUSED:
            return []
        if event.settings.get("pairing") == REVIEW and event.settings.get("reviewed") != event.round:
            # after review: the organiser sees the round's results (and corrects them) first;
            # /tournament confirm pairs the next round from the results as they then stand
            return []
        results = await self.store.results(event_id)
        entries = await self.store.entries(event_id)
        registration = self.registration(entries)
        groups = event.settings.get("groups") or None
        try:
            paired = pair_round(
                event.config, registration, results, event.round + 1, event.seed, None, groups
            )
        except TournamentError as exc:
            log.error("event=%s round %s cannot be paired: %s", event_id, event.round + 1, exc.message)
            await self.store.update_event(event_id, status=PAUSED)
            return []
        try:
            return await self._open_round(event, paired.number, list(paired.tables))
        except TournamentError as exc:
            event = await self._reload(event_id)
            settings = dict(event.settings)
            settings["paused_because"] = exc.message
            await self.store.update_event(event_id, status=PAUSED, settings=settings)
            if by_organiser:
                raise
            return []

    async def awaiting_review(self, event: EventRow) -> bool:
        """Whether the event's current round is complete and waits for the organiser's review."""
        if event.status != RUNNING or event.settings.get("pairing") != REVIEW or event.round == 0:
            return False
        if event.settings.get("reviewed") == event.round or event.round >= event.config.total_rounds:
            return False
        tables = await self.store.tables(event.id, event.round)
        done = {(r.round, r.table) for r in await self.store.results(event.id)}
        return bool(tables) and all((t.round, t.number) in done for t in tables)

    async def confirm(self, event_id: int, where: str | None, by: str, *, is_admin: bool = False) -> EventRow:
        """The organiser has reviewed the round's results (corrected what needed it): the next
        round is paired from them."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            if not await self.awaiting_review(event):
                raise TournamentError(
                    "no_review",
                    M(
                        "Event #{number} has no round waiting for review; results are reviewed once"
                        " every table of the round has finished.",
                        number=event.number,
                    ),
                )
            settings = dict(event.settings)
            settings["reviewed"] = event.round
            await self.store.update_event(event_id, settings=settings)
            tables = await self._advance(event_id, by_organiser=True)
        await self._notify(event_id, tables)
        return await self._reload(event_id)

    async def pause(self, event_id: int, where: str | None, by: str, *, is_admin: bool = False) -> None:
        """Stop pairing: the games of the current round go on; /tournament start pairs the next."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            if event.status != RUNNING:
                raise TournamentError(
                    "not_running",
                    M(
                        "Event #{number} is not running (it is {status}).",
                        number=event.number,
                        status=STATUS_WORDS.get(event.status, event.status),
                    ),
                )
            await self.store.update_event(event_id, status=PAUSED)
        await self._notify(event_id)

    async def drop(
        self, event_id: int, where: str | None, by: str, target: str, *, is_admin: bool = False
    ) -> int | None:
        """``target`` leaves the event (themself, or by an organiser): out of later pairings, and an
        AI plays out their seat in the current round. Returns that game's id, if any."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            if by != target:
                self._organiser(event, by, is_admin)
            if event.status == REGISTRATION:
                raise TournamentError("not_started", M("The event has not started; use /tournament leave."))
            if event.status == FINISHED:
                raise TournamentError("finished", M("Event #{number} is over.", number=event.number))
            entry = next((e for e in await self.store.entries(event_id) if e.player == target), None)
            if entry is None or entry.state not in (ENTERED,):
                raise TournamentError(
                    "not_registered",
                    M("That player is not playing in this event (already dropped).")
                    if entry and entry.state == DROPPED
                    else M("That player is not playing in this event."),
                )
            await self.store.set_entry(event_id, target, state=DROPPED)
            game_id = None
            for table in await self.store.tables(event_id, event.round):
                if target in table.seats and table.game_id is not None:
                    game_id = table.game_id
                    row = await self.service.game_row(table.game_id)
                    seat = row.seat_of(target)
                    if row.status == ACTIVE and seat is not None:
                        # the service numbers seats from 1, as players do
                        await self.service.replace_with_ai(
                            table.game_id, None, seat + 1, is_admin=True, where=event.space
                        )
        await self._notify(event_id)
        return game_id

    async def correct(
        self,
        event_id: int,
        where: str | None,
        by: str,
        round_number: int,
        table_number: int,
        ranks: Sequence[int],
        reason: str,
        *,
        is_admin: bool = False,
    ) -> GameResult:
        """Replace a table's ranks (in seat order; scores stay the engine's), keeping ``reason``.
        A rated event's ratings are rebuilt from its games in their order with the correction in
        place, in the same transaction as the correction."""
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            current = await self._current_result(event_id, round_number, table_number)
            if current is None:
                raise TournamentError(
                    "no_result",
                    M(
                        "Round {round_number} table {table_number} has no result to correct.",
                        round_number=round_number,
                        table_number=table_number,
                    ),
                )
            if current.void:
                raise TournamentError(
                    "void",
                    M(
                        "Round {round_number} table {table_number} was voided; it has no ranks to correct.",
                        round_number=round_number,
                        table_number=table_number,
                    ),
                )
            if len(ranks) != len(current.seats):
                raise TournamentError(
                    "bad_result",
                    M(
                        "Give {seats_count} ranks, one per seat in seat order.",
                        seats_count=len(current.seats),
                    ),
                )
            seats = [replace(s, rank=int(rank)) for s, rank in zip(current.seats, ranks, strict=True)]
            corrected = current.corrected(seats, reason)
            results = [corrected if r is current else r for r in await self.store.results(event_id)]
            standings(event.config, results)  # refuses a record the event cannot hold
            game_id = int(current.game_id)
            async with self._rating_locks[event.space]:
                await self.store.add_result(
                    event_id,
                    corrected,
                    game_id,
                    corrected_by=by,
                    rated=await self._rerated(event, game_id, corrected),
                )
        await self._notify(event_id)
        return corrected

    async def _current_result(self, event_id: int, round_number: int, table_number: int) -> GameResult | None:
        return next(
            (
                r
                for r in await self.store.results(event_id)
                if r.round == round_number and r.table == table_number
            ),
            None,
        )

    async def _table(self, event: EventRow, round_number: int, table_number: int) -> TableRow:
        table = next(
            (t for t in await self.store.tables(event.id, round_number) if t.number == table_number), None
        )
        if table is None:
            raise TournamentError(
                "no_table",
                M(
                    "Event #{id} has no table {table_number} in round {round_number}.",
                    id=event.number,
                    table_number=table_number,
                    round_number=round_number,
                ),
            )
        return table

    async def _rerated(self, event: EventRow, game_id: int, changed: GameResult) -> RatingWrite | None:
        """The space's rating history rebuilt with ``changed`` as game ``game_id``'s result: every
        game rated in the space, in the order it was first rated, with its standing result (a
        voided one left out). None when the change cannot touch a rating."""
        order = await self.store.rated_games(event.space)
        if (event.id, game_id) not in order:
            return None
        events = {e.id: e for e in await self.store.events(event.space)}
        standing: dict[tuple[int, int], GameResult] = {}
        for eid in {eid for eid, _ in order}:
            for row in await self.store.result_history(eid):
                standing[(eid, row.game_id)] = row.result
        standing[(event.id, game_id)] = changed
        book = rebuild_ratings(
            (events[eid].config, standing[(eid, gid)]) for eid, gid in order if (eid, gid) in standing
        )
        log.info(
            "event=%s game=%s changed: ratings of %s rebuilt from %d games",
            event.id,
            game_id,
            event.space,
            len(order),
        )
        return RatingWrite(event.space, {str(gid): eid for eid, gid in order}, book.history, replace=True)

    async def void_table(
        self,
        event_id: int,
        where: str | None,
        by: str,
        round_number: int,
        table_number: int,
        reason: str,
        *,
        is_admin: bool = False,
    ) -> GameResult:
        """Close a table that cannot count (a broken or aborted game, or one an organiser rules
        out): its result is void (no points, never rated) with ``reason`` kept, a game still
        running there is aborted, and the round goes on as if the table had finished. Voiding a
        table that already has a result replaces it (ratings rebuilt)."""
        if not reason.strip():
            raise TournamentError(
                "bad_result", M("Say why the table is voided; the reason is kept with the result.")
            )
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            table = await self._table(event, round_number, table_number)
            current = await self._current_result(event_id, round_number, table_number)
            if current is not None and current.void:
                raise TournamentError(
                    "void",
                    M(
                        "Round {round_number} table {table_number} is already void.",
                        round_number=round_number,
                        table_number=table_number,
                    ),
                )
            await self._abort_table_game(event, table)
            game_id = table.game_id or 0
            voided = void_result(
                table.table(),
                str(game_id) if table.game_id else f"void:{round_number}:{table_number}",
                reason,
                current,
            )
            async with self._rating_locks[event.space]:
                rerated = await self._rerated(event, game_id, voided) if current is not None else None
                await self.store.add_result(event_id, voided, game_id, corrected_by=by, rated=rerated)
            log.info(
                "event=%s round=%s table=%s voided by %s: %s",
                event_id,
                round_number,
                table_number,
                by,
                voided.correction_reason,
            )
            tables = await self._advance(event_id)
        await self._notify(event_id, tables)
        return voided

    async def replay_table(
        self,
        event_id: int,
        where: str | None,
        by: str,
        round_number: int,
        table_number: int,
        reason: str,
        *,
        is_admin: bool = False,
    ) -> int:
        """Play a table of the current round again: a new game (a new deal) for the same seats in
        the same order; the old game is aborted if it still runs and kept in the event's record
        with ``reason``. Returns the new game's id."""
        if not reason.strip():
            raise TournamentError("bad_result", M("Say why the table is replayed; the reason is kept."))
        async with self._locks[event_id]:
            event = await self.event(event_id, where)
            self._organiser(event, by, is_admin)
            if event.status not in (RUNNING, PAUSED):
                raise TournamentError(
                    "not_running",
                    M(
                        "Event #{number} is {status}; only a running event's tables can be replayed.",
                        number=event.number,
                        status=STATUS_WORDS.get(event.status, event.status),
                    ),
                )
            if round_number != event.round:
                raise TournamentError(
                    "not_current",
                    M(
                        "Only tables of the current round ({round}) can be "
                        "replayed; correct or void a table of an earlier "
                        "round.",
                        round=event.round,
                    ),
                )
            table = await self._table(event, round_number, table_number)
            if await self._current_result(event_id, round_number, table_number) is not None:
                raise TournamentError(
                    "has_result",
                    M(
                        "Round {round_number} table {table_number} already has "
                        "a result; correct or void it instead.",
                        round_number=round_number,
                        table_number=table_number,
                    ),
                )
            await self._abort_table_game(event, table)
            settings = dict(event.settings)
            settings["replays"] = list(settings.get("replays") or []) + [
                {
                    "round": round_number,
                    "table": table_number,
                    "game_id": table.game_id,
                    "reason": reason.strip(),
                    "by": by,
                    "at": self.clock(),
                }
            ]
            await self.store.reopen_table(event_id, round_number, table_number, settings)
            event = await self._reload(event_id)
            table = await self._table(event, round_number, table_number)
            names = {e.player: e.name for e in await self.store.entries(event_id)}
            await self._create_game(event, table, names)
            assert table.game_id is not None
            log.info(
                "event=%s round=%s table=%s replayed as game %s (was %s): %s",
                event_id,
                round_number,
                table_number,
                table.game_id,
                settings["replays"][-1]["game_id"],
                reason.strip(),
            )
        await self._notify(event_id)
        return table.game_id

    async def _abort_table_game(self, event: EventRow, table: TableRow) -> None:
        """Stop the table's game if it still runs (a broken game cannot be loaded: nothing to stop)."""
        if table.game_id is None:
            return
        try:
            row = await self.service.game_row(table.game_id)
            if row.status in (LOBBY, ACTIVE):
                await self.service.abort(table.game_id, None, is_admin=True, where=event.space)
        except ServiceError as exc:  # broken: it cannot move on, so there is nothing to stop
            log.info("event=%s game=%s not aborted: %s", event.id, table.game_id, exc)

    async def tick(self) -> list[int]:
        """Scheduler hook: adjudicate every round whose deadline passed. Returns the games handed to AIs."""
        handed: list[int] = []
        now = self.clock()
        for event_id in await self.store.event_ids((REGISTRATION,)):
            try:
                await self._registration_tick(event_id, now)
            except Exception:  # noqa: BLE001 - one event's failure never stops the others' timers
                log.exception("event=%s: its start-time notices or start failed", event_id)
        for event_id in await self.store.event_ids((RUNNING, PAUSED)):
            try:
                event = await self._reload(event_id)
            except Exception:  # noqa: BLE001 - a damaged event row is reported at start-up
                continue
            rounds = await self.store.rounds(event.id)
            current = next((r for r in rounds if r.round == event.round), None)
            if (
                current is None
                or current.deadline_at is None
                or current.deadline_at > now
                or current.finished_at
            ):
                continue
            handed += await self.adjudicate(event.id)
        return handed

    async def _registration_tick(self, event_id: int, now: float) -> None:
        """An event with a start time: the notices that fell due (each once, marked sent before it
        is sent, so a restart never repeats one), and at the start time the start itself (with
        check-in, the players who did not check in are not seated). A start refused (too few
        players ready) is said once and left to an organiser's ``/tournament start``."""
        tables: list[TableRow] = []
        notices: list[tuple[str, list[str], Msg | str | None]] = []
        async with self._locks[event_id]:
            event = await self._reload(event_id)
            starts = event.settings.get("starts_at")
            if event.status != REGISTRATION or starts is None or event.settings.get(START_FAILED):
                return
            sent = list(event.settings.get("notices") or [])
            due: list[str] = []
            opens = checkin_opens(event)
            if now >= float(starts):
                try:
                    tables = await self._first_round(event)
                    log.info("event=%s started by itself at its start time", event_id)
                except TournamentError as exc:
                    settings = dict(event.settings)
                    settings[START_FAILED] = exc.message
                    await self.store.update_event(event_id, settings=settings)
                    notices.append((START_FAILED, [], exc.said))
            else:
                lead = min(SOON, (float(starts) - opens) / 2) if opens is not None else SOON
                if now >= float(starts) - lead:
                    due = [START_SOON]  # an open window's notice that fell due meanwhile is passed
                elif opens is not None and now >= opens:
                    due = [CHECKIN_OPEN]
                due = [kind for kind in due if kind not in sent]
                if due:
                    settings = dict(event.settings)
                    settings["notices"] = sorted(
                        {*sent, *due, *([CHECKIN_OPEN] if START_SOON in due else [])}
                    )
                    await self.store.update_event(event_id, settings=settings)
                    entries = await self.store.entries(event_id)
                    checking = bool(event.settings.get("checkin"))
                    waiting_on = [
                        e.player
                        for e in entries
                        if e.state in (ENTERED, WAITING) and not (checking and e.checked_in)
                    ]
                    notices += [(kind, waiting_on, None) for kind in due]
        event = await self._reload(event_id)
        for kind, players, reason in notices:
            for listener in list(self.listeners):
                try:
                    await listener.registration_notice(event, kind, players, reason)
                except Exception:  # noqa: BLE001 - a front end's failure never stops the event
                    log.exception("event=%s: listener %s failed", event_id, type(listener).__name__)
        if tables or notices:
            await self._notify(event_id, tables)

    async def adjudicate(self, event_id: int) -> list[int]:
        """Finish every unfinished game of the current round: AI seats play every remaining human turn."""
        handed: list[int] = []
        async with self._locks[event_id]:
            event = await self._reload(event_id)
            for table in await self.store.tables(event_id, event.round):
                if table.game_id is None:
                    continue
                try:
                    row = await self.service.game_row(table.game_id)
                except ServiceError:
                    continue
                if row.status != ACTIVE:
                    continue
                await self.store.set_table(event_id, table.round, table.number, adjudicated=True)
                for seat in row.seats:
                    if not seat.is_ai:
                        try:
                            await self.service.replace_with_ai(
                                table.game_id, None, seat.seat + 1, is_admin=True, where=event.space
                            )
                        except ServiceError as exc:
                            if exc.code != "game_over":
                                raise
                handed.append(table.game_id)
                log.info("event=%s round=%s table=%s adjudicated", event_id, table.round, table.number)
        return handed

    async def resume(self) -> list[int]:
        """At start-up: record games that ended while nobody listened, pair what is due. One event
        whose rows cannot be read (or whose resumption fails) is reported and left where it is;
        every other event resumes. Returns the events that could not be resumed."""
        failed: list[int] = []
        for event_id in await self.store.event_ids((RUNNING, PAUSED)):
            try:
                await self._resume_event(event_id)
            except Exception:  # noqa: BLE001 - one damaged event must not stop every other
                log.exception("event=%s could not be resumed; it stays as it is until fixed", event_id)
                failed.append(event_id)
        if failed:
            log.error("events not resumed: %s (conductor doctor checks their games)", failed)
        return failed

    async def _resume_event(self, event_id: int) -> None:
        event = await self._reload(event_id)
        for table in await self.store.tables(event.id, event.round):
            if table.game_id is None:
                # the bot stopped between pairing and creating this game: create it now (a lobby
                # it made but had not recorded is aborted first)
                names = {e.player: e.name for e in await self.store.entries(event.id)}
                async with self._locks[event.id]:
                    await self._abort_orphans(event, table)
                    await self._create_game(event, table, names)
                continue
            try:
                row = await self.service.game_row(table.game_id)
            except ServiceError as exc:  # broken (marked so by loading it): the status message says so
                log.error(
                    "event=%s table game %s cannot be loaded (%s); an organiser must void or replay the table",
                    event.id,
                    table.game_id,
                    exc.message,
                )
                continue
            if row.status == LOBBY:
                # the bot stopped while seating this table: seat the rest and start it
                names = {e.player: e.name for e in await self.store.entries(event.id)}
                async with self._locks[event.id]:
                    await self._seat_and_start(event, table, names)
            elif row.status == OVER:
                await self._game_over(event.id, table.game_id)
            elif row.status in (ABORTED, BROKEN):
                log.error(
                    "event=%s table game %s is %s; an organiser must void or replay the table",
                    event.id,
                    table.game_id,
                    row.status,
                )
        async with self._locks[event.id]:
            tables = await self._advance(event.id)
        if tables or event.id in self._just_finished:
            await self._notify(event.id, tables)

    # ---- reading -------------------------------------------------------------------------------
    async def standings(self, event_id: int, where: str | None) -> list[Row]:
        event = await self.event(event_id, where)
        results = await self.store.results(event_id)
        entries = await self.store.entries(event_id)
        return standings(event.config, results, self.registration(entries))

    async def progress(self, event: EventRow) -> list[TableProgress]:
        """The current round's tables: finished, or whose turn holds each up and since when."""
        out = []
        for table in await self.store.tables(event.id, event.round):
            if table.game_id is None:
                out.append(TableProgress(table, "not created", (), None))
                continue
            try:
                loaded = await self.service.load(table.game_id)
            except ServiceError:
                out.append(TableProgress(table, BROKEN, (), None))
                continue
            row, game = loaded.row, loaded.game
            if row.status != ACTIVE or game is None:
                out.append(TableProgress(table, row.status, (), None))
                continue
            waiting = tuple(row.seats[s].name for s in game.seats_to_act())
            out.append(TableProgress(table, ACTIVE, waiting, row.turn_started_at))
        return out

    async def export(self, event_id: int, where: str | None) -> dict[str, Any]:
        """Every game of the event (config, seed, seats, log), the games of replayed tables, the
        result record with corrections and voided tables, the standings and a SHA-256 digest of
        the rest, so anyone can replay and recompute it. A game still being played is listed
        without its seed and log: the seed gives away the deck order and the log every kept
        ticket, so they are given once the game has ended (and the event's seed, from which every
        table's is derived, once the event is over)."""
        event = await self.event(event_id, where)
        games = []
        for table in await self.store.tables(event_id):
            if table.game_id is not None:
                game: dict[str, object] = dict(await self.service.storage.export_game(table.game_id))
                if game["status"] in (LOBBY, ACTIVE):
                    game = {
                        "id": game["id"],
                        "game": game["game"],
                        "status": game["status"],
                        "seats": game["seats"],
                        "withheld": "still being played: its seed and log are given once it ends",
                    }
                game["event_round"], game["event_table"] = table.round, table.number
                game["event_seats"] = list(table.seats)
                game["adjudicated"] = table.adjudicated
                games.append(game)
        replaced = []  # games of replayed tables: not counted, kept so the record is whole
        for replay in event.settings.get("replays") or []:
            if replay.get("game_id") is not None:
                exported = await self.service.storage.export_game(int(replay["game_id"]))
                replaced.append(
                    {
                        **exported,
                        "event_round": replay["round"],
                        "event_table": replay["table"],
                        "replay_reason": replay["reason"],
                    }
                )
        history = await self.store.result_history(event_id)
        body = {
            # every table's seed derives from the event's: it is given once no game can still use it
            "event": {
                "id": event.id,
                "number": event.number,
                "name": event.name,
                "game": event.game_name,
                "seed": event.seed if event.status == FINISHED else None,
                "status": event.status,
                "config": config_to_json(event.config),
                "settings": event.settings,
            },
            "registrations": [
                {"player": e.player, "name": e.name, "state": e.state}
                for e in await self.store.entries(event_id)
            ],
            "games": games,
            "replaced_games": replaced,
            "results": [{**result_to_json(r.result), "corrected_by": r.corrected_by} for r in history],
            "standings": [asdict(row) for row in await self.standings(event_id, where)],
        }
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()
        return {**body, "digest": digest}


def checkin_opens(event: EventRow) -> float | None:
    """When the event's check-in window opens (None: no window, check-in is open until the start)."""
    starts, hours = event.settings.get("starts_at"), event.settings.get("checkin_hours")
    if starts is None or not hours:
        return None
    return float(starts) - float(hours) * 3600
