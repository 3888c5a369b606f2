"""GameService: the only path from any front end to a change of game state.

Slash commands, buttons, select menus, the terminal ``conductor play`` and the scheduler all call
this class. It loads a game, checks who may act, lets :mod:`rules` validate and apply the action,
persists the action and the new snapshot in one transaction (:meth:`~bot.store.api.GameStore.commit_action`), lets
AI seats play until a human must act, re-arms the turn timer, and returns an :class:`Outcome` that
the front end presents. Front ends never touch a game object themselves.

It is generic over :mod:`rules.games`: nothing here knows Ticket to Ride except the optional
board-flag summary in :meth:`GameService.rules_summary`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.integrity import check_game
from bot.present import (
    PLAYED_BY_AI,
    log_entry_words,
    replayed_lines,
    unreadable_entry_words,
    unreplayable_entry_words,
)
from bot.store.api import Store
from bot.store.rows import (
    ABORTED,
    ACTIVE,
    BROKEN,
    LOBBY,
    OVER,
    ActionRow,
    GameRow,
    SeatRow,
    SeqConflict,
    StorageError,
)
from bot.stream import Line, Outcome, OutcomeStream, SeatRef
from bot.workers import Workers
from lang import CatalogError, Joined, M, Mn, Msg, current, normalise
from lang.refusals import refusal, refusal_of
from rules.errors import IllegalAction
from rules.games import DEFAULT_GAME, find_game
from rules.protocol import AI, Action, Game, visible_to
from rules.registry import GameSpec, RandomLegalAI, ai_view_of, envelope


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 card"``, ``"2 cards"`` (``many`` for irregular plurals). English only: for a reader's
    language write the sentence with ``lang._n``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def hours_msg(hours: float) -> Msg:
    """A duration in words, in any reader's language: ``"90 minutes"``, ``"1 day 6 hours"``."""
    minutes = round(hours * 60)
    if minutes < 60:
        return Mn("{n} minute", "{n} minutes", minutes)
    whole, rest = divmod(minutes, 60)
    if whole < 48:
        return Joined(
            " ",
            parts=(
                Mn("{n} hour", "{n} hours", whole),
                *([Mn("{n} minute", "{n} minutes", rest)] if rest else []),
            ),
        )
    days, whole = divmod(whole, 24)
    return Joined(
        " ", parts=(Mn("{n} day", "{n} days", days), *([Mn("{n} hour", "{n} hours", whole)] if whole else []))
    )


def hours_text(hours: float) -> str:
    """A duration in words in the current language: ``"90 minutes"``, ``"24 hours"``, ``"3 days"``."""
    return hours_msg(hours).text()


def timer_msg(row: GameRow) -> Msg:
    """The game's turn timer in one sentence (lobby, start, /games), for any reader."""
    if not row.turn_hours:
        return M("No turn timer.")
    lead = reminder_lead(row)
    how = M("by direct message") if row.remind_by == "dm" else M("in the game's thread")
    return M(
        "Turn timer: {hours}, then {policy}; a reminder comes {lead} before, {how}.",
        hours=hours_msg(row.turn_hours),
        policy=POLICY_WORDS.get(row.timeout_policy, M(row.timeout_policy)),
        lead=hours_msg(lead),
        how=how,
    )


def timer_text(row: GameRow) -> str:
    """:func:`timer_msg` in the current language."""
    return timer_msg(row).text()


def say(seat: int | None, message: Msg) -> Line:
    """A public line that each reader reads in their language (its ``text`` is the English)."""
    return Line(seat, str(message), said=message)


def reminder_lead(row: GameRow) -> float:
    """Hours between the reminder and the deadline."""
    assert row.turn_hours
    return row.reminder_hours if row.reminder_hours else row.turn_hours * REMINDER_FRACTION


log = logging.getLogger("conductor.service")

TIMEOUT_POLICIES = ("skip", "ai", "forfeit")
# The game config key naming the AI kind that takes a person's seat over (a timed-out turn, a
# forfeit, a resignation, a seat handed to an AI); unset, the server's choice, else the game's.
TAKEOVER_SETTING = "takeover_ai"
SEAT_ORDERS = ("shuffle", "join")
REMIND_BY = ("thread", "dm")
MAX_AI_STEPS = 5000
REMINDER_FRACTION = 0.25
MIN_TURN_HOURS, MAX_TURN_HOURS = 1.0, 14 * 24.0  # a timer plays the game by itself below an hour
MIN_REMINDER_HOURS = 0.25
POLICY_WORDS = {
    "ai": M("an AI plays the turn"),
    "skip": M("the turn passes"),
    "forfeit": M("an AI takes the seat over"),
}
STALL_BACKOFF, STALL_BACKOFF_MAX = 5.0, 300.0  # seconds before retrying a game whose write failed
SEAT_REF = re.compile(r"\bSeat (\d{1,2})\b")
# A request made from no community (a direct message, the terminal): see GameService._visible.
NO_SPACE: str | None = None
# The answer for a game reached by its internal id (a button's custom id) that this request may not
# reach or that never existed: the same words either way, so an id reveals nothing.
NO_SUCH_GAME = M("There is no such game here.")


class ServiceError(CatalogError):
    """A request the service refuses (see :class:`lang.CatalogError`); ``message`` is meant for the
    player (English), ``said`` the same for any reader's language, ``code`` for tests."""


class Lines(list[Line]):
    """The public lines of one request; ``published`` counts those already sent as steps."""

    published = 0


@dataclass
class Loaded:
    """A game in memory: its row (seats, settings) and the live rules object (None in the lobby).

    ``moves`` counts each seat's actions (read once, then kept current by every commit: private
    menus compare against it on every click). ``scheduled`` holds the timers the last commit wrote
    with the move, so the reschedule that follows writes them again only if they changed."""

    row: GameRow
    game: Game | None
    moves: dict[int, int] | None = None
    scheduled: dict[str, tuple[float, int]] | None = None
    # views built for the state described by ``views_of`` (see GameService._view), by seat
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    views_of: tuple[Any, ...] = ()


def _with_names(text: str, names: list[str]) -> str:
    """``"Seat 1 takes …"`` with the seat's player name (engines that name seats ``Seat <index>``,
    counted from 0, in their texts): players read names, never an index."""
    return SEAT_REF.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


def build_view(game: Game, row: GameRow, seat: int | None, deadline: float | None) -> dict[str, Any]:
    """The common envelope (:func:`rules.registry.envelope`) of ``seat`` (None: a spectator) with
    the seat names, the game's number, seq and turn timer (``deadline``: when the turn runs out)."""
    view = envelope(game, seat)
    view["names"] = [s.name for s in row.seats]
    view["game_id"] = row.number  # presenters title boards "Game #<number>", as players read it
    view["seq"] = row.seq
    view["timer"] = {
        "hours": row.turn_hours,
        "policy": row.timeout_policy,
        "deadline": deadline,
        "text": timer_text(row),
    }
    return view


class CommittedViews:
    """:class:`~bot.stream.SeatViews` of one committed state, for an outcome.

    It keeps the game object of that state (never changed once committed: a move is applied to a
    copy, which then replaces it), a copy of the game's row, the turn's deadline and each seat's
    move count as they were when the outcome was made; each seat's view is built the first time a
    subscriber asks for it, once per reader's language."""

    __slots__ = ("_game", "_row", "_deadline", "_moves", "_views", "_legal", "_observations")

    def __init__(self, game: Game, row: GameRow, deadline: float | None, moves: dict[int, int]) -> None:
        self._game = game
        self._row = replace(row, seats=[replace(s) for s in row.seats])
        self._deadline = deadline
        self._moves = dict(moves)
        self._views: dict[tuple[int, str], dict[str, Any]] = {}
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._observations: dict[int, Game] = {}

    def view(self, seat: int) -> dict[str, Any]:
        key = (seat, current())
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = build_view(self._game, self._row, seat, self._deadline)
            view["moves"] = self._moves.get(seat, 0)
        return dict(view)

    def legal(self, seat: int) -> tuple[Action, ...]:
        if self._row.status != ACTIVE or not 0 <= seat < len(self._row.seats):
            return ()
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = tuple(self._game.legal_actions(seat))
        return legal

    def observation(self, seat: int) -> Game:
        known = self._observations.get(seat)
        if known is None:
            known = self._observations[seat] = ai_view_of(self._game, seat, random.Random(seat))
        return known


class GameService:
    """Create, join, start and play games; the single writer of game state."""

    def __init__(
        self,
        storage: Store,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        stream: OutcomeStream | None = None,
        takeover_ai: str | None = None,
    ) -> None:
        """Every committed change is published on ``stream`` (front ends subscribe to it).
        ``takeover_ai`` is this server's AI kind for taking seats over (see :meth:`takeover_kind`)."""
        self.storage = storage
        self.stream = stream or OutcomeStream()
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.takeover_ai = takeover_ai
        self._cache: dict[int, Loaded] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._ais: dict[tuple[int, int, str], AI] = {}
        # Where AIs think: threads until a front end hands the service its process pool.
        self.workers = Workers()
        # Games whose AI or forced moves could not be saved: game id -> (attempts, next try at).
        self.stalled: dict[int, tuple[int, float]] = {}

    # ---- loading ---------------------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        """The in-process lock serialising every change to one game."""
        return self._locks[game_id]

    def evict(self, game_id: int) -> None:
        """Forget the cached copy (next access reloads from SQLite)."""
        self._cache.pop(game_id, None)

    async def load(self, game_id: int) -> Loaded:
        """The game from cache or SQLite. A row that cannot be restored marks the game broken."""
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        try:
            row = await self.storage.get_game(game_id)
        except StorageError as exc:
            if exc.code == "no_game":
                raise ServiceError("not_found", NO_SUCH_GAME) from None
            # the row itself cannot be read, its number included: the admins get the English reason
            await self.storage.mark_broken(game_id, exc.message)
            raise ServiceError(
                "broken", M("This game cannot be loaded; the admins have been told.")
            ) from None
        if row.status == BROKEN:
            raise ServiceError(
                "broken",
                M(
                    "Game #{game} cannot be played: its saved state is damaged (the admins have been told).",
                    game=row.number,
                ),
            )
        if row.status in (ACTIVE, OVER):
            # The record is checked before it is trusted: a stale seq, a tampered snapshot or a
            # damaged row marks the game broken with a reason instead of being played on.
            reason = await check_game(self.storage, game_id)
            if reason is not None:
                await self.storage.mark_broken(game_id, f"record check: {reason}")
                raise ServiceError(
                    "broken", M("Game #{game} cannot be loaded; the admins have been told.", game=row.number)
                )
        game = None
        if row.status in (ACTIVE, OVER) and row.snapshot is not None:
            try:
                game = find_game(row.game_name).from_json(row.snapshot)
            except Exception as exc:  # noqa: BLE001 - any failure to restore isolates this game only
                await self.storage.mark_broken(
                    game_id, f"snapshot does not load: {type(exc).__name__}: {exc}"
                )
                raise ServiceError(
                    "broken", M("Game #{game} cannot be loaded; the admins have been told.", game=row.number)
                ) from None
        elif row.status in (ACTIVE, OVER):
            await self.storage.mark_broken(game_id, "active game without a snapshot")
            raise ServiceError(
                "broken", M("Game #{game} cannot be loaded; the admins have been told.", game=row.number)
            )
        loaded = Loaded(row, game)
        self._cache[game_id] = loaded
        return loaded

    async def resume_all(self) -> tuple[list[int], list[int]]:
        """Load every lobby/active game (at start-up). Returns ``(ok_ids, broken_ids)``; one bad
        row never stops the others. AI seats that were due to act are played."""
        ok: list[int] = []
        broken: list[int] = []
        for game_id in await self.storage.game_ids((LOBBY, ACTIVE)):
            try:
                async with self.lock(game_id):
                    loaded = await self.load(game_id)
                    if loaded.game is not None and loaded.row.status == ACTIVE:
                        lines = Lines()
                        seq = loaded.row.seq
                        await self._run_ai(loaded, lines)
                        await self._reschedule(loaded)
                        if loaded.row.seq != seq:
                            await self._publish(loaded, lines, board_changed=True)
                ok.append(game_id)
            except ServiceError:
                broken.append(game_id)
            except Exception:  # noqa: BLE001
                log.exception("game=%s failed to resume", game_id)
                await self.storage.mark_broken(game_id, "failed to resume")
                broken.append(game_id)
        if broken:
            log.error("resumed %d games, %d broken: %s", len(ok), len(broken), broken)
        else:
            log.info("resumed %d games", len(ok))
        return ok, broken

    # ---- lobby -----------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        game_name: str = DEFAULT_GAME,
        config: dict[str, Any] | None = None,
        creator: str | None,
        creator_name: str = "Player",
        space: str | None = NO_SPACE,
        turn_hours: float | None = 24.0,
        timeout_policy: str = "ai",
        seat_order: str = "shuffle",
        seed: int | None = None,
        join: bool = True,
        reminder_hours: float | None = None,
        remind_by: str = "thread",
    ) -> GameRow:
        """Open a lobby. The config and the timer are validated now (an unknown board, a timer
        outside 1 hour to 14 days → a clear sentence, and nothing is created). ``turn_hours`` 0 or
        None: no timer. ``reminder_hours``: how long before the deadline the reminder comes
        (default: a quarter of the timer); ``remind_by``: ``"thread"`` or ``"dm"``."""
        config = dict(config or {})
        if timeout_policy not in TIMEOUT_POLICIES:
            raise ServiceError(
                "bad_option",
                M("Timeout policy must be one of {choices}.", choices=", ".join(TIMEOUT_POLICIES)),
            )
        if seat_order not in SEAT_ORDERS:
            raise ServiceError(
                "bad_option", M("Seat order must be one of {choices}.", choices=", ".join(SEAT_ORDERS))
            )
        if remind_by not in REMIND_BY:
            raise ServiceError(
                "bad_option",
                M(
                    "Reminders come {choices}, not {value}.",
                    choices=" / ".join(REMIND_BY),
                    value=repr(remind_by),
                ),
            )
        turn_hours, reminder_hours = self.check_timer(turn_hours, reminder_hours)
        seed = int(seed) if seed is not None else self.rng.randrange(1, 2**62)
        try:
            spec = find_game(game_name)
            lo, hi = spec.player_range(config)
            spec.new(config, lo, seed)
        except IllegalAction as exc:
            raise ServiceError("bad_option", exc.message) from None
        except (ValueError, KeyError) as exc:
            raise ServiceError("bad_option", str(exc)) from None
        game_id = await self.storage.create_game(
            game_name=spec.name,
            config=config,
            seed=seed,
            max_players=hi,
            space=space,
            creator=creator,
            seat_order=seat_order,
            turn_hours=turn_hours,
            timeout_policy=timeout_policy,
            reminder_hours=reminder_hours,
            remind_by=remind_by,
        )
        if join and creator is not None:
            await self.storage.set_lobby_seats(game_id, [SeatRow(0, creator, None, creator_name)])
        log.info("game=%s created game=%s config=%s", game_id, game_name, config)
        return (await self.load(game_id)).row

    @staticmethod
    def check_timer(
        turn_hours: float | None, reminder_hours: float | None = None
    ) -> tuple[float | None, float | None]:
        """``(turn_hours, reminder_hours)`` if allowed (0 or None: no timer); raises ``bad_option``
        with the allowed range otherwise."""
        if turn_hours is None or turn_hours == 0:
            if reminder_hours:
                raise ServiceError("bad_option", M("A reminder needs a turn timer; set timer_hours too."))
            return None, None
        if not (MIN_TURN_HOURS <= turn_hours <= MAX_TURN_HOURS):  # also refuses NaN
            raise ServiceError(
                "bad_option",
                M(
                    "A turn timer must be from {low} to {high} ({max_hours} hours), or 0 for no timer;"
                    " {hours} hours is not allowed.",
                    low=hours_msg(MIN_TURN_HOURS),
                    high=hours_msg(MAX_TURN_HOURS),
                    max_hours=f"{MAX_TURN_HOURS:g}",
                    hours=f"{turn_hours:g}",
                ),
            )
        if reminder_hours is not None and reminder_hours != 0:
            if not (MIN_REMINDER_HOURS <= reminder_hours < turn_hours):
                raise ServiceError(
                    "bad_option",
                    M(
                        "The reminder comes between {low} and the whole timer ({timer}) before the deadline;"
                        " {hours} hours is not allowed.",
                        low=hours_msg(MIN_REMINDER_HOURS),
                        timer=hours_msg(turn_hours),
                        hours=f"{reminder_hours:g}",
                    ),
                )
            return float(turn_hours), float(reminder_hours)
        return float(turn_hours), None

    # ---- who may reach a game ---------------------------------------------------------------
    @staticmethod
    def _reachable(row: GameRow, player: str | None, where: str | None) -> bool:
        """A game is reached from the space (community) it was created in; from no space (a direct
        message, the terminal) only by its own seated players."""
        if row.space == where:
            return True
        return where is None and player is not None and row.seat_of(player) is not None

    async def _reach(self, game_id: int, player: str | None, where: str | None) -> Loaded:
        """The game, if ``player`` may reach it from ``where``; otherwise it does not exist for them
        (the same answer as for a number that was never used, so numbers reveal nothing)."""
        loaded = await self.load(game_id)
        if not self._reachable(loaded.row, player, where):
            raise ServiceError("not_found", NO_SUCH_GAME)
        return loaded

    async def game_numbered(self, number: int, player: str | None, where: str | None) -> int:
        """The id of the game a person means by ``number`` (as they type and read it, "game #3"):
        numbers count per space, so it is game ``number`` of the space ``where`` they write from;
        from no space (a direct message) it is their own seated game of that number, which must be
        unique. A number that reaches nothing gets the same answer whether or not another server
        has such a game."""
        if where is not None:
            game_id = await self.storage.game_numbered(where, number)
            if game_id is not None and self._reachable((await self.load(game_id)).row, player, where):
                return game_id
        elif player is not None:
            own = await self.storage.numbered_games_of_player(player, number)
            if len(own) > 1:
                raise ServiceError(
                    "ambiguous",
                    M(
                        "You play a game #{game} in several servers; write in that game's thread or server.",
                        game=number,
                    ),
                )
            if own:
                return own[0]
        raise ServiceError("not_found", M("There is no game #{game} here.", game=number))

    async def check_reach(self, game_id: int, player: str | None, where: str | None) -> GameRow:
        """The game's row if ``player`` may reach it from ``where``; raises ``not_found`` otherwise."""
        return (await self._reach(game_id, player, where)).row

    # ---- lobby -----------------------------------------------------------------------------
    async def _lobby(self, game_id: int, player: str | None, where: str | None) -> Loaded:
        loaded = await self._reach(game_id, player, where)
        if loaded.row.status != LOBBY:
            raise ServiceError(
                "not_lobby",
                M("Game #{game} has already started (to leave it, use /play resign).", game=loaded.row.number)
                if loaded.row.status == ACTIVE
                else M("Game #{game} is over.", game=loaded.row.number),
            )
        return loaded

    async def _save_lobby(self, loaded: Loaded, seats: list[SeatRow]) -> GameRow:
        await self.storage.set_lobby_seats(loaded.row.id, seats)
        self.evict(loaded.row.id)
        return (await self.load(loaded.row.id)).row

    async def join(self, game_id: int, player: str, name: str, *, where: str | None = NO_SPACE) -> GameRow:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, None, where)
            seats = list(loaded.row.seats)
            if any(s.player == player for s in seats):
                raise ServiceError(
                    "already_joined", M("You are already in game #{game}.", game=loaded.row.number)
                )
            if len(seats) >= loaded.row.max_players:
                raise ServiceError(
                    "full",
                    M(
                        "Game #{game} is full ({seats} seats).",
                        game=loaded.row.number,
                        seats=loaded.row.max_players,
                    ),
                )
            seats.append(SeatRow(len(seats), player, None, name))
            row = await self._save_lobby(loaded, seats)
            return await self._start_if_full(row)

    async def leave(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> GameRow:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, player, where)
            if loaded.row.seat_of(player) is None:
                raise ServiceError("not_your_game", M("You are not in game #{game}.", game=loaded.row.number))
            seats = [s for s in loaded.row.seats if s.player != player]
            return await self._save_lobby(loaded, seats)

    async def add_ai(
        self,
        game_id: int,
        player: str | None,
        kind: str = "heuristic",
        *,
        is_admin: bool = False,
        where: str | None = NO_SPACE,
    ) -> GameRow:
        """Add an AI seat to the lobby (any seated player, the creator or an admin)."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, player, where)
            row = loaded.row
            spec = find_game(row.game_name)
            if kind not in spec.ais:
                raise ServiceError(
                    "bad_option", M("AI kind must be one of {choices}.", choices=", ".join(spec.ais))
                )
            if not (
                is_admin
                or (player is not None and (player == row.creator or row.seat_of(player) is not None))
            ):
                raise ServiceError("forbidden", M("Only players in this game can add AI seats."))
            if len(row.seats) >= row.max_players:
                raise ServiceError(
                    "full", M("Game #{game} is full ({seats} seats).", game=row.number, seats=row.max_players)
                )
            n_ai = sum(s.is_ai for s in row.seats) + 1
            seats = [*row.seats, SeatRow(len(row.seats), None, kind, f"AI {n_ai} ({kind})")]
            return await self._save_lobby(loaded, seats)

    async def _start_if_full(self, row: GameRow) -> GameRow:
        """A lobby filled by a person joining starts by itself (its lock held; AI seats added by
        the creator wait for their start, so a table of AIs is dealt when asked); the start is
        published like any other. Returns the row as it is now."""
        if len(row.seats) < row.max_players:
            return row
        try:
            await self._start_locked(await self.load(row.id), None)
        except ServiceError as exc:
            log.info("game=%s full lobby did not start: %s", row.id, exc.code)
            return row
        return (await self.load(row.id)).row

    async def start(
        self, game_id: int, player: str | None, *, is_admin: bool = False, where: str | None = NO_SPACE
    ) -> Outcome:
        """Deal: shuffle seats (unless join order), create the rules state, let AIs act. Only the
        creator or a server admin starts a lobby (a full lobby starts by itself)."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id, player, where)
            if player is not None and not self._may_manage(loaded.row, player, is_admin):
                raise ServiceError(
                    "forbidden",
                    M(
                        "Only the game's creator or a server admin can start it; it also"
                        " starts by itself when every seat is taken."
                    ),
                )
            return await self._start_locked(loaded, player)

    async def _start_locked(self, loaded: Loaded, player: str | None) -> Outcome:
        """Deal the lobby ``loaded`` (its lock held)."""
        row = loaded.row
        game_id = row.id
        spec = find_game(row.game_name)
        lo, hi = spec.player_range(row.config)
        if not lo <= len(row.seats) <= hi:
            joined = len(row.seats)
            raise ServiceError(
                "player_count",
                Mn(
                    "This game needs {low} to {high} players; {n} has joined (add AI seats with /ttr addai?).",
                    "This game needs {low} to {high} players; {n} have joined (add AI seats with /ttr addai?).",
                    joined,
                    low=lo,
                    high=hi,
                ),
            )
        seats = list(row.seats)
        if row.seat_order == "shuffle":
            random.Random(row.seed).shuffle(seats)
        seats = [SeatRow(i, s.player, s.ai_kind, s.name, s.away_until) for i, s in enumerate(seats)]
        try:
            game = spec.new(row.config, len(seats), row.seed)
        except IllegalAction as exc:
            raise ServiceError("bad_option", exc.message) from None
        now = self.clock()
        snapshot = game.to_json()
        resolved = snapshot.get("config")
        await self.storage.start_game(
            game_id, seats, snapshot, now, config=resolved if isinstance(resolved, dict) else None
        )
        self.evict(game_id)
        loaded = await self.load(game_id)
        log.info("game=%s started players=%d", game_id, len(seats))
        names = ", ".join(f"{s.name}" for s in seats)
        lines = Lines(
            [
                say(
                    None,
                    M(
                        "Game #{game} started. Seat order: {names}. {timer}",
                        game=loaded.row.number,
                        names=names,
                        timer=timer_msg(loaded.row),
                    ),
                )
            ]
        )
        await self._after_commit(loaded, lines)
        return await self._publish(loaded, lines, board_changed=True, actor=player)

    # ---- acting ----------------------------------------------------------------------------
    def _check_active(self, loaded: Loaded) -> Game:
        row = loaded.row
        if row.status == LOBBY:
            raise ServiceError("not_started", M("Game #{game} has not started yet.", game=row.number))
        if row.status == OVER:
            raise ServiceError("game_over", M("Game #{game} is over.", game=row.number))
        if row.status == ABORTED:
            raise ServiceError("game_over", M("Game #{game} was aborted.", game=row.number))
        if row.status == BROKEN or loaded.game is None:
            raise ServiceError(
                "broken", M("Game #{game} cannot be played (its saved state is damaged).", game=row.number)
            )
        return loaded.game

    async def act(
        self,
        game_id: int,
        player: str,
        action: Action | str,
        *,
        expected_seq: int | None = None,
        expected_moves: int | None = None,
        where: str | None = NO_SPACE,
    ) -> Outcome:
        """Play ``action`` (an action object, or its text form as typed) for ``player``; AIs answer.

        ``expected_seq`` comes from a public button's custom id: if the game moved on, the button
        is from an earlier turn and nothing happens. ``expected_moves`` comes from a private menu:
        it is stale only when *this seat* moved since it was opened (simultaneous choices, such
        as opening tickets, never invalidate each other's menus).
        """
        async with self.lock(game_id):
            loaded = await self._reach(game_id, player, where)
            game = self._check_active(loaded)
            row = loaded.row
            seat = row.seat_of(player)
            if seat is None:
                raise ServiceError(
                    "not_your_game", M("You are not playing in game #{game}.", game=loaded.row.number)
                )
            if expected_seq is not None and expected_seq != row.seq:
                raise ServiceError("stale", M("This button is from an earlier turn; use the latest board."))
            if expected_moves is not None and expected_moves != await self.moves_of(loaded, seat):
                raise ServiceError("stale", M("This menu is from an earlier turn; open your hand again."))
            if seat not in game.seats_to_act():
                raise ServiceError("not_your_turn", self._whose_turn_text(loaded))
            if isinstance(action, str):
                try:
                    action = find_game(row.game_name).parse_action(action)
                except IllegalAction as exc:
                    raise ServiceError(exc.code, refusal_of(exc)) from None
            if action.kind in find_game(row.game_name).timeout_only_kinds:
                raise ServiceError(
                    "timer_only", M("Only the turn timer can skip a turn; make a move instead.")
                )
            lines = Lines()
            await self._apply(loaded, seat, player, action, lines)
            await self._after_commit(loaded, lines)
            return await self._publish(loaded, lines, board_changed=True, actor_seat=seat, actor=player)

    async def _after_commit(self, loaded: Loaded, lines: Lines) -> None:
        """AI answers and the turn timer, after a change was committed. Never raises: the change
        stands whatever happens here (a failure is logged and the scheduler retries the game)."""
        try:
            await self._run_ai(loaded, lines)
        except Exception:  # noqa: BLE001
            log.exception("game=%s AI moves after a commit failed; the scheduler retries", loaded.row.id)
            self._stall(loaded.row.id)
        try:
            await self._reschedule(loaded)
        except Exception:  # noqa: BLE001
            log.exception("game=%s the turn timer could not be set; the scheduler retries", loaded.row.id)
            self._stall(loaded.row.id)

    def _stall(self, game_id: int) -> None:
        """Remember a game whose automatic moves or timer could not be saved (a full disk, a busy
        database): :meth:`retry_stalled` tries again with a growing pause until it works."""
        self.evict(game_id)
        attempts = self.stalled.get(game_id, (0, 0.0))[0] + 1
        self.stalled[game_id] = (
            attempts,
            self.clock() + min(STALL_BACKOFF_MAX, STALL_BACKOFF * 2 ** (attempts - 1)),
        )

    async def retry_stalled(self) -> list[int]:
        """Scheduler hook: play the AI and forced moves (and arm the timer) of stalled games whose
        pause is over. Returns the games that are going again."""
        resumed: list[int] = []
        now = self.clock()
        for game_id, (_, due) in sorted(self.stalled.items()):
            if due > now:
                continue
            async with self.lock(game_id):
                try:
                    loaded = await self.load(game_id)
                except ServiceError:
                    self.stalled.pop(game_id, None)
                    continue
                del self.stalled[game_id]
                if loaded.game is None or loaded.row.status != ACTIVE:
                    continue
                lines = Lines()
                await self._after_commit(loaded, lines)
                if game_id not in self.stalled:
                    resumed.append(game_id)
                    log.info("game=%s resumed after a failed write", game_id)
                    await self._publish(loaded, lines, board_changed=True)
        return resumed

    async def _apply(
        self, loaded: Loaded, seat: int, player: str | None, action: Action, lines: Lines
    ) -> None:
        """Validate, apply and persist one action.

        The action is applied to a copy; the copy replaces the live game only once the commit
        succeeded, so a failed write leaves the game exactly as the log says.
        """
        row, game = loaded.row, loaded.game
        assert game is not None
        before = set(game.seats_to_act())
        work: Game = game.copy()
        try:
            events = work.apply(seat, action)
        except IllegalAction as exc:
            log.info("game=%s seat=%s action=%s outcome=illegal:%s", row.id, seat, action.kind, exc.code)
            raise ServiceError(
                exc.code, refusal(exc.code, _with_names(exc.message, [s.name for s in row.seats]), exc.params)
            ) from None
        except Exception:
            log.exception(
                "game=%s seat=%s action=%s outcome=engine-error", row.id, seat, getattr(action, "kind", "?")
            )
            raise ServiceError(
                "engine_error", M("Something went wrong applying that move; nothing was changed.")
            ) from None
        over = bool(work.is_over())
        after = set(work.seats_to_act())
        now = self.clock()
        new_turn = not after <= before
        described = self._describe(loaded, seat, action, events)
        names = [s.name for s in row.seats]
        names[seat] = self._actor_name(row, seat, player)
        status = OVER if over else ACTIVE
        # the turn timer of the state after the move, written with the move (one transaction)
        timers = self._timers(
            row, self._deadline(row, work, status, now if new_turn else row.turn_started_at), row.seq + 1
        )
        moves = await self.moves_of(loaded, seat)
        try:
            new_seq = await self.storage.commit_action(
                row.id,
                row.seq,
                seat,
                player,
                action.to_text(),
                action.to_json(),
                work.to_json(),
                status=status,
                turn_started_at=now if new_turn else None,
                public=" ".join(line.plain(names) for line in described),
                schedule=timers,
            )
        except SeqConflict:
            self.evict(row.id)
            log.info("game=%s seat=%s action=%s outcome=conflict", row.id, seat, action.kind)
            raise ServiceError(
                "conflict", M("That was already played: the game moved on. Look at the latest board.")
            ) from None
        except Exception as exc:
            self.evict(row.id)
            log.error("game=%s seat=%s action=%s outcome=write-failed: %s", row.id, seat, action.kind, exc)
            raise ServiceError(
                "write_failed",
                M("The move could not be saved, so nothing was changed; try again in a moment."),
            ) from None
        loaded.game = work
        row.seq = new_seq
        if loaded.moves is not None:
            loaded.moves[seat] = moves + 1
        loaded.scheduled = timers
        if new_turn:
            row.turn_started_at = now
        if over:
            row.status = OVER
        log.info("game=%s seat=%s seq=%s action=%s outcome=ok", row.id, seat, new_seq, action.kind)
        lines.extend(described)
        if over:
            lines.append(say(None, M("Game #{game} is over.", game=row.number)))
        self._publish_step(loaded, lines)

    @staticmethod
    def _actor_name(row: GameRow, seat: int, player: str | None) -> str:
        """Who made a move, for the log: the seat's name, marked "(AI)" when the bot played it for
        a person's seat (a timeout, a forced move)."""
        name = row.seats[seat].name
        if player is None and not row.seats[seat].is_ai:
            return f"{name} (AI)"
        return name

    def _describe(
        self, loaded: Loaded, seat: int, action: Action, events: list[dict[str, Any]]
    ) -> list[Line]:
        """Public lines for one action: only events everyone may see, or the action's public text."""
        names = [s.name for s in loaded.row.seats]
        out: list[Line] = []
        for e in events:
            if not isinstance(e, dict) or not e.get("text") or not visible_to(e, None):
                continue
            who = e.get("seat")
            text = _with_names(str(e["text"]), names)
            event = {
                **e,
                "game": loaded.row.game_name,
                "board": loaded.row.config.get("board"),
            }  # for its wording
            if isinstance(who, int) and 0 <= who < len(names):
                name = names[who]
                out.append(
                    Line(who, text[len(name) :].lstrip() if text.startswith(name) else text, event=event)
                )
            else:
                out.append(Line(None, text, event=event))
        if not out:
            # an action without public events (First Class's "end"): its text, and the action as
            # a fact the game's words can say in a sentence
            text = action.public_text()
            out.append(
                Line(seat, text, event={"type": "action", "action": text, "game": loaded.row.game_name})
            )
        return out

    async def _run_ai(self, loaded: Loaded, lines: Lines) -> None:
        """Let AI seats act (and forced moves of people be played) until a person must choose."""
        for _ in range(MAX_AI_STEPS):
            row = loaded.row
            game = loaded.game
            if game is None or row.status != ACTIVE or game.is_over():
                return
            ai_seats = [s for s in game.seats_to_act() if row.seats[s].is_ai]
            if not ai_seats:
                if not await self._auto_move(loaded, lines):
                    return
                continue
            seat = ai_seats[0]
            if not await self._ai_move(loaded, seat, lines):
                return
            await asyncio.sleep(0)
        log.error("game=%s AI loop did not finish in %d steps", loaded.row.id, MAX_AI_STEPS)

    async def _auto_move(self, loaded: Loaded, lines: Lines) -> bool:
        """Play a forced move for a person's seat that has no real choice (the game spec's
        ``forced_action``). Returns True if a move was made."""
        game = loaded.game
        policy = find_game(loaded.row.game_name).forced_action
        if policy is None or game is None:
            return False
        for seat in game.seats_to_act():
            try:
                action = policy(game, seat)
            except Exception:  # noqa: BLE001 - a policy must never break the game loop
                log.exception("game=%s seat=%s forced-move policy failed", loaded.row.id, seat)
                return False
            if action is None:
                continue
            try:
                await self._apply(loaded, seat, None, action, lines)
            except ServiceError as exc:
                # the code only: the engine's message may describe the seat's hand
                log.error("game=%s seat=%s auto move failed (%s)", loaded.row.id, seat, exc.code)
                if exc.code == "write_failed":
                    self._stall(loaded.row.id)
                    return False
                await self._reload(loaded)
                return False
            return True
        return False

    async def _reload(self, loaded: Loaded) -> None:
        """Bring ``loaded`` back to the committed state after a refused or failed write."""
        if loaded.row.id not in self._cache:
            fresh = await self.load(loaded.row.id)
            loaded.row, loaded.game, loaded.moves, loaded.scheduled = fresh.row, fresh.game, fresh.moves, None
            self._cache[loaded.row.id] = loaded

    async def _ai_move(self, loaded: Loaded, seat: int, lines: Lines, kind: str | None = None) -> bool:
        """One AI action for ``seat``; falls back to a random legal move if the AI errs.

        Never raises for an AI problem: the human action that triggered the loop is already
        committed, so the caller must still report success. Returns False if no move was made.
        """
        row = loaded.row
        for attempt in range(2):
            game = loaded.game
            if game is None:
                return False
            try:
                ai = self._ai(row, seat, kind) if attempt == 0 else RandomLegalAI(row.seq)
                # AIs think in a worker process (or thread) on their own copy, in which everything
                # their seat cannot see is dealt again at random: the event loop keeps answering,
                # and an AI never learns another player's hand, tickets or the deck order.
                view = ai_view_of(game, seat, random.Random(row.seed * 7919 + row.seq))
                action = await self.workers.choose(ai, view, seat)
                await self._apply(loaded, seat, None, action, lines)
                return True
            except ServiceError as exc:
                log.error(
                    "game=%s seat=%s AI move failed (%s)", row.id, seat, exc.code
                )  # no message: it may show the hand
                if exc.code == "write_failed":
                    self._stall(row.id)
                    return False
                if exc.code == "conflict":
                    return False
                await self._reload(loaded)
                row = loaded.row
            except Exception:  # noqa: BLE001 - an AI bug must not break the human's committed move
                log.exception("game=%s seat=%s AI crashed", row.id, seat)
        return False

    def takeover_kind(self, row: GameRow) -> str:
        """The AI kind that plays a person's seat when the bot takes it over: the game's own
        setting (config ``takeover_ai``), else this server's (``takeover_ai``), else the game's
        default (``GameSpec.takeover_ai``). A kind the game does not offer counts as unset, so a
        game moved to a build without it still has a player."""
        spec = find_game(row.game_name)
        for kind in (row.config.get(TAKEOVER_SETTING), self.takeover_ai):
            if isinstance(kind, str) and kind in spec.ais:
                return kind
        return spec.takeover_ai

    def _ai(self, row: GameRow, seat: int, kind: str | None = None) -> AI:
        kind = kind or row.seats[seat].ai_kind or "heuristic"
        key = (row.id, seat, kind)
        ai = self._ais.get(key)
        if ai is None:
            spec = find_game(row.game_name)
            ai = spec.make_ai(kind if kind in spec.ais else "heuristic", row.seed * 31 + seat)
            self._ais[key] = ai
        return ai

    def _whose_turn_text(self, loaded: Loaded) -> Msg:
        game = loaded.game
        to_act = game.seats_to_act() if game is not None else []
        names = ", ".join(loaded.row.seats[s].name for s in to_act)
        return (
            M("It is not your turn; waiting for {names}.", names=names)
            if names
            else M("It is not your turn.")
        )

    def _publish_step(self, loaded: Loaded, lines: Lines) -> None:
        """One committed step inside a request, published unsettled (its lines not yet sent)."""
        step = self._outcome(loaded, lines[lines.published :], board_changed=True)
        lines.published = len(lines)
        self.stream.publish(replace(step, settled=False))

    async def _publish(
        self,
        loaded: Loaded,
        lines: Lines,
        *,
        board_changed: bool,
        actor_seat: int | None = None,
        actor: str | None = None,
    ) -> Outcome:
        """The outcome that ends a request: published (with the lines no step carried yet) and
        returned whole (every line of the request) to the caller."""
        await self._count_moves(loaded)
        outcome = self._outcome(
            loaded, lines, board_changed=board_changed, actor_seat=actor_seat, actor=actor
        )
        self.stream.publish(replace(outcome, lines=tuple(lines[lines.published :])))
        lines.published = len(lines)
        return outcome

    async def current_outcome(self, game_id: int) -> Outcome:
        """The game as it stands, as an outcome with no lines (a front end re-posting its board, or
        answering a request with what a seat sees now)."""
        loaded = await self.load(game_id)
        await self._count_moves(loaded)
        return self._outcome(loaded, [], board_changed=True)

    async def _count_moves(self, loaded: Loaded) -> None:
        """Each seat's move count, for the outcome's private views (read once per loaded game)."""
        if loaded.moves is None and loaded.game is not None:
            try:
                loaded.moves = await self.storage.moves_per_seat(loaded.row.id)
            except Exception:  # noqa: BLE001 - the change is committed; its outcome is published anyway
                log.exception("game=%s move counts could not be read", loaded.row.id)

    def _outcome(
        self,
        loaded: Loaded,
        lines: Sequence[Line],
        *,
        board_changed: bool,
        actor_seat: int | None = None,
        actor: str | None = None,
    ) -> Outcome:
        row, game = loaded.row, loaded.game
        to_act = tuple(game.seats_to_act()) if game is not None and row.status == ACTIVE else ()
        ping = tuple(p for s in to_act if (p := row.seats[s].player) is not None)
        over = row.status == OVER
        scores = game.final_scores() if over and game is not None else None
        view = self._view(loaded, None) if game is not None else None
        deadline = self.deadline(loaded)
        return Outcome(
            game_id=row.id,
            seq=row.seq,
            game_name=row.game_name,
            status=row.status,
            names=tuple(s.name for s in row.seats),
            lines=tuple(lines),
            to_act=to_act,
            ping=ping,
            board_changed=board_changed and game is not None,
            over=over,
            scores=scores,
            actor_seat=actor_seat,
            actor=actor,
            view=view,
            number=row.number,
            language=normalise(row.config.get("language")),
            deadline=deadline,
            seats=tuple(SeatRef(s.player, s.name, s.is_ai) for s in row.seats),
            private=None if game is None else CommittedViews(game, row, deadline, loaded.moves or {}),
        )

    # ---- timers ----------------------------------------------------------------------------
    def deadline(self, loaded: Loaded) -> float | None:
        """When the current turn times out (vacations push it back), or None without a timer."""
        return self._deadline(loaded.row, loaded.game, loaded.row.status, loaded.row.turn_started_at)

    def _deadline(
        self, row: GameRow, game: Game | None, status: str, turn_started_at: float | None
    ) -> float | None:
        """:meth:`deadline` of ``game`` in ``status`` with its turn started at ``turn_started_at``."""
        if status != ACTIVE or game is None or not row.turn_hours:
            return None
        humans = [s for s in game.seats_to_act() if not row.seats[s].is_ai]
        if not humans:
            return None
        start = turn_started_at or self.clock()
        away = [row.seats[s].away_until or 0.0 for s in humans]
        start = max([start, *away])
        return start + row.turn_hours * 3600.0

    def _timers(self, row: GameRow, due: float | None, seq: int) -> dict[str, tuple[float, int]]:
        """The schedule entries for a turn ending at ``due`` (none without a deadline)."""
        if due is None:
            return {}
        # A reminder is never dropped: when its time has already passed (a short timer, a turn
        # resumed late) it is due now, and the scheduler sends due reminders before due timeouts.
        reminder = max(due - reminder_lead(row) * 3600.0, self.clock())
        return {"timeout": (due, seq), "reminder": (min(reminder, due), seq)}

    async def _reschedule(self, loaded: Loaded) -> None:
        entries = self._timers(loaded.row, self.deadline(loaded), loaded.row.seq)
        written, loaded.scheduled = loaded.scheduled, None
        if written == entries:
            return  # the last commit wrote these very timers with its move
        if not entries:
            await self.storage.clear_schedule(loaded.row.id)
            return
        await self.storage.set_schedule(loaded.row.id, entries)

    async def timeout(self, game_id: int, seq: int) -> Outcome | None:
        """The turn timer ran out at ``seq``: apply the game's policy to every human seat to act."""
        async with self.lock(game_id):
            try:
                loaded = await self.load(game_id)
            except ServiceError:
                await self.storage.clear_schedule(game_id)
                return None
            row, game = loaded.row, loaded.game
            if row.status != ACTIVE or game is None or row.seq != seq:
                return None
            due = self.deadline(loaded)
            if due is not None and due > self.clock() + 1:
                await self._reschedule(loaded)  # a vacation moved the deadline
                return None
            lines = Lines()
            humans = [s for s in game.seats_to_act() if not row.seats[s].is_ai]
            for seat in humans:
                policy = row.timeout_policy
                if policy == "forfeit":
                    await self._seat_to_ai(loaded, seat, self.takeover_kind(row))
                    lines.append(
                        say(
                            seat,
                            M(
                                "ran out of time and forfeits; an AI plays the seat from now on"
                                " (ask for it back with /ttr reclaim)."
                            ),
                        )
                    )
                    continue
                if policy == "skip":
                    await self._skip(loaded, seat, lines)
                    continue
                lines.append(say(seat, M("ran out of time; an AI plays this turn.")))
                await self._play_turn_by_ai(loaded, seat, lines)
            await self._after_commit(loaded, lines)
            return await self._publish(loaded, lines, board_changed=True)

    async def _play_turn_by_ai(self, loaded: Loaded, seat: int, lines: Lines) -> None:
        """The game's takeover AI finishes ``seat``'s turn (a turn may take several moves)."""
        for _ in range(8):
            game = loaded.game
            if game is None or game.is_over() or seat not in game.seats_to_act():
                return
            if not await self._ai_move(loaded, seat, lines, self.takeover_kind(loaded.row)):
                return

    async def _skip(self, loaded: Loaded, seat: int, lines: Lines) -> None:
        """The "skip" policy: the game's own ``skip_turn`` passes the turn (nothing gained); where
        a rule forces a move, that move is played and the rule is named; where the game has no way
        to pass, the least eventful legal move is played and the players are told which."""
        row = loaded.row
        spec = find_game(row.game_name)
        said = False
        for _ in range(8):
            game = loaded.game
            if game is None or game.is_over() or seat not in game.seats_to_act():
                break
            plan = spec.skip_turn(game, seat) if spec.skip_turn is not None else None
            if plan is not None:
                action = plan.action
                note = (
                    M("ran out of time; the turn passes.")
                    if plan.forced is None
                    else M("ran out of time; the turn passes, but {forced}.", forced=plan.forced)
                )
            else:
                action = await self._least_eventful(row, game, seat)
                note = M(
                    "ran out of time; this game cannot pass a turn here, so the bot played the least"
                    " eventful move for them: {move}.",
                    move=action.public_text(),
                )
            timer_move = plan is not None and plan.action.kind in spec.timeout_only_kinds
            if not timer_move and (not said or plan is None or plan.forced is not None):
                lines.append(say(seat, note))  # a timer-only move says so itself
                said = True
            try:
                await self._apply(loaded, seat, None, action, lines)
            except ServiceError as exc:
                log.error("game=%s seat=%s skip failed (%s); the AI plays instead", row.id, seat, exc.code)
                await self._reload(loaded)
                await self._play_turn_by_ai(loaded, seat, lines)
                return

    async def _least_eventful(self, row: GameRow, game: Game, seat: int) -> Action:
        """The least eventful legal action (the spec's ``skip_kinds``), else what an AI picks (in a
        worker, like every AI move: its thinking never holds up the event loop)."""
        legal = game.legal_actions(seat)
        for kind in find_game(row.game_name).skip_kinds:
            for a in legal:
                if getattr(a, "kind", None) == kind:
                    return a
        view = ai_view_of(game, seat, random.Random(row.seed * 7919 + row.seq))
        return await self.workers.choose(self._ai(row, seat, "heuristic"), view, seat)  # type: ignore[no-any-return]

    async def reminder_targets(self, game_id: int, seq: int) -> tuple[list[str], float | None] | None:
        """Players to remind for the turn at ``seq`` and its deadline (None if the turn has moved on).
        How they are reminded is the game's ``remind_by`` (:meth:`game_row`)."""
        try:
            loaded = await self.load(game_id)
        except ServiceError:
            return None
        if loaded.row.seq != seq or loaded.row.status != ACTIVE or loaded.game is None:
            return None
        players = [p for s in loaded.game.seats_to_act() if (p := loaded.row.seats[s].player) is not None]
        return players, self.deadline(loaded)

    async def set_vacation(self, player: str, until: float | None) -> list[int]:
        """Pause ``player``'s turn timers until ``until`` (None ends the vacation). Returns game ids."""
        touched: list[int] = []
        for game_id in await self.storage.games_of_player(player, (LOBBY, ACTIVE)):
            async with self.lock(game_id):
                try:
                    loaded = await self.load(game_id)
                except ServiceError:
                    continue
                seat = loaded.row.seat_of(player)
                if seat is None:
                    continue
                await self.storage.update_seat(game_id, seat, away_until=until)
                loaded.row.seats[seat].away_until = until
                await self._reschedule(loaded)
                touched.append(game_id)
        return touched

    # ---- seat management -------------------------------------------------------------------
    @staticmethod
    def _may_manage(row: GameRow, player: str | None, is_admin: bool) -> bool:
        return is_admin or (player is not None and player == row.creator)

    async def _seat_to_ai(self, loaded: Loaded, seat: int, kind: str) -> None:
        """An AI plays ``seat`` from now on; the seat remembers the person who held it, who may ask
        for it back (:meth:`request_seat`)."""
        old = loaded.row.seats[seat]
        name = f"{old.name} (AI)" if not old.name.endswith("(AI)") else old.name
        former = old.player or old.former_player
        await self.storage.update_seat(
            loaded.row.id, seat, player=None, ai_kind=kind, name=name, former_player=former, claimant=None
        )
        loaded.row.seats[seat] = SeatRow(seat, None, kind, name, None, former, None)

    async def _seat_to_person(self, loaded: Loaded, seat: int, player: str, name: str) -> None:
        """``player`` holds ``seat`` from now on: same seat, same hand, same score. A fresh turn
        timer starts if the seat is to act."""
        row = loaded.row
        old = row.seats[seat]
        await self.storage.update_seat(
            row.id,
            seat,
            player=player,
            ai_kind=None,
            name=name,
            away_until=None,
            former_player=old.player,
            claimant=None,
        )
        row.seats[seat] = SeatRow(seat, player, None, name, None, old.player, None)
        self._ais = {k: v for k, v in self._ais.items() if k[:2] != (row.id, seat)}
        if loaded.game is not None and seat in loaded.game.seats_to_act():
            now = self.clock()
            await self.storage.update_game(row.id, turn_started_at=now)
            row.turn_started_at = now

    async def hand_over(
        self,
        game_id: int,
        by: str | None,
        seat: int,
        player: str,
        name: str,
        *,
        is_admin: bool = False,
        where: str | None = NO_SPACE,
    ) -> Outcome:
        """The creator or an admin hands ``seat`` (counted from 1, as players read it) to ``player``,
        whether an AI or another person plays it now. The hand, tickets and score stay with the seat."""
        async with self.lock(game_id):
            loaded = await self._reach(game_id, by, where)
            self._check_active(loaded)
            row = loaded.row
            if not self._may_manage(row, by, is_admin):
                raise ServiceError(
                    "forbidden", M("Only the game's creator or a server admin can hand a seat over.")
                )
            index = self._seat_index(row, seat)
            holder = row.seat_of(player)
            if holder == index:
                raise ServiceError("bad_option", M("{name} already plays seat {seat}.", name=name, seat=seat))
            if holder is not None:
                raise ServiceError(
                    "bad_option",
                    M(
                        "{name} already plays seat {seat} in game #{game}; one person plays one seat.",
                        name=name,
                        seat=holder + 1,
                        game=loaded.row.number,
                    ),
                )
            before = row.seats[index].name
            await self._seat_to_person(loaded, index, player, name)
            lines = Lines(
                [
                    say(
                        None,
                        M(
                            "Seat {seat} ({before}) is now played by {name}, with the same cards,"
                            " tickets and score.",
                            seat=seat,
                            before=before,
                            name=name,
                        ),
                    )
                ]
            )
            log.info("game=%s seat=%s handed over", game_id, index)
            await self._after_commit(loaded, lines)
            return await self._publish(loaded, lines, board_changed=True, actor=by)

    async def request_seat(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> Outcome:
        """A person whose seat an AI took over (a forfeit, a resignation, a kick) asks for it back;
        the creator or an admin approves (:meth:`approve_seat`)."""
        async with self.lock(game_id):
            loaded = await self._reach(game_id, player, where)
            self._check_active(loaded)
            row = loaded.row
            mine = row.seat_of(player)
            if mine is not None:
                raise ServiceError(
                    "bad_option",
                    M("You already play seat {seat} in game #{game}.", seat=mine + 1, game=loaded.row.number),
                )
            seat = next((s.seat for s in row.seats if s.is_ai and s.former_player == player), None)
            if seat is None:
                raise ServiceError(
                    "not_your_game",
                    M(
                        "No seat of game #{game} was yours; the creator can hand you one with /ttr replace.",
                        game=loaded.row.number,
                    ),
                )
            if row.seats[seat].claimant == player:
                raise ServiceError(
                    "already_asked",
                    M("You have already asked; the creator or an admin approves with /ttr approve."),
                )
            await self.storage.update_seat(game_id, seat, claimant=player)
            row.seats[seat].claimant = player
            name = row.seats[seat].name.removesuffix(" (AI)")
            lines = Lines(
                [
                    say(
                        None,
                        M(
                            "{name} asks to play seat {seat} again; the creator or an admin"
                            " approves with /ttr approve seat:{seat}.",
                            name=name,
                            seat=seat + 1,
                        ),
                    )
                ]
            )
            # a note only: nothing on the board changed, and nobody is pinged again
            outcome = replace(
                self._outcome(loaded, lines, board_changed=False, actor=player), view=None, ping=()
            )
            self.stream.publish(outcome)
            return outcome

    async def approve_seat(
        self,
        game_id: int,
        by: str | None,
        seat: int,
        name: str | None = None,
        *,
        is_admin: bool = False,
        where: str | None = NO_SPACE,
    ) -> Outcome:
        """The creator or an admin gives ``seat`` (counted from 1) back to the person who asked for
        it. ``name`` is their current display name (default: the name they had)."""
        async with self.lock(game_id):
            loaded = await self._reach(game_id, by, where)
            self._check_active(loaded)
            row = loaded.row
            if not self._may_manage(row, by, is_admin):
                raise ServiceError(
                    "forbidden", M("Only the game's creator or a server admin can approve that.")
                )
            index = self._seat_index(row, seat)
            claimant = row.seats[index].claimant
            if claimant is None:
                raise ServiceError("bad_option", M("Nobody has asked to play seat {seat}.", seat=seat))
            if row.seat_of(claimant) is not None:
                raise ServiceError("bad_option", M("That person plays another seat of this game now."))
            name = (
                name
                or (await self.storage.player_names(game_id)).get(claimant)
                or row.seats[index].name.removesuffix(" (AI)")
            )
            await self._seat_to_person(loaded, index, claimant, name)
            lines = Lines(
                [
                    say(
                        None,
                        M(
                            "{name} plays seat {seat} again, with the same cards, tickets and score.",
                            name=name,
                            seat=seat,
                        ),
                    )
                ]
            )
            log.info("game=%s seat=%s given back", game_id, index)
            await self._after_commit(loaded, lines)
            return await self._publish(loaded, lines, board_changed=True, actor=by)

    @staticmethod
    def _seat_index(row: GameRow, seat: int) -> int:
        """The index of seat number ``seat`` as players count it (from 1); a clear refusal otherwise."""
        if not 1 <= seat <= len(row.seats):
            raise ServiceError(
                "bad_option",
                M(
                    "Game #{game} has seats 1 to {seats}; there is no seat {seat}.",
                    game=row.number,
                    seats=len(row.seats),
                    seat=seat,
                ),
            )
        return seat - 1

    async def resign(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> Outcome:
        """Leave a running game: an AI takes the seat over (its score still counts)."""
        async with self.lock(game_id):
            loaded = await self._reach(game_id, player, where)
            self._check_active(loaded)
            seat = loaded.row.seat_of(player)
            if seat is None:
                raise ServiceError(
                    "not_your_game", M("You are not playing in game #{game}.", game=loaded.row.number)
                )
            await self._seat_to_ai(loaded, seat, self.takeover_kind(loaded.row))
            lines = Lines([say(seat, M("resigned; an AI plays the seat from now on."))])
            log.info("game=%s seat=%s resign", game_id, seat)
            await self._after_commit(loaded, lines)
            return await self._publish(loaded, lines, board_changed=True, actor=player)

    async def replace_with_ai(
        self,
        game_id: int,
        by: str | None,
        seat: int,
        *,
        is_admin: bool = False,
        kind: str | None = None,
        where: str | None = NO_SPACE,
    ) -> Outcome:
        """Creator/admin hands ``seat`` (counted from 1) to an AI (an absent player): ``kind``, else
        the game's takeover AI (:meth:`takeover_kind`)."""
        async with self.lock(game_id):
            loaded = await self._reach(game_id, by, where)
            self._check_active(loaded)
            if not self._may_manage(loaded.row, by, is_admin):
                raise ServiceError("forbidden", M("Only the game's creator or a server admin can do that."))
            index = self._seat_index(loaded.row, seat)
            if loaded.row.seats[index].is_ai:
                raise ServiceError(
                    "bad_option",
                    M(
                        "Seat {seat} is already played by an AI; to give it to a person,"
                        " name them: /ttr replace seat user.",
                        seat=seat,
                    ),
                )
            name = loaded.row.seats[index].name
            await self._seat_to_ai(loaded, index, kind or self.takeover_kind(loaded.row))
            lines = Lines(
                [
                    say(
                        None,
                        M(
                            "Seat {seat} ({name}) is now played by an AI; {name} can ask for it back"
                            " with /ttr reclaim.",
                            seat=seat,
                            name=name,
                        ),
                    )
                ]
            )
            await self._after_commit(loaded, lines)
            return await self._publish(loaded, lines, board_changed=True, actor=by)

    async def kick(
        self,
        game_id: int,
        by: str | None,
        target: str,
        *,
        is_admin: bool = False,
        where: str | None = NO_SPACE,
    ) -> Outcome:
        """Creator/admin removes a player: from the lobby, or to an AI seat once started."""
        loaded = await self._reach(game_id, by, where)
        if not self._may_manage(loaded.row, by, is_admin):
            raise ServiceError("forbidden", M("Only the game's creator or a server admin can kick players."))
        seat = loaded.row.seat_of(target)
        if seat is None:
            raise ServiceError("bad_option", M("That user is not in this game."))
        if loaded.row.status == LOBBY:
            async with self.lock(game_id):
                loaded = await self._lobby(game_id, by, where)
                name = loaded.row.seats[seat].name
                seats = [s for s in loaded.row.seats if s.player != target]
                await self._save_lobby(loaded, seats)
                return await self._publish(
                    await self.load(game_id),
                    Lines(
                        [
                            say(
                                None,
                                M(
                                    "{name} was removed from the lobby of game #{game}.",
                                    name=name,
                                    game=loaded.row.number,
                                ),
                            )
                        ]
                    ),
                    board_changed=False,
                    actor=by,
                )
        return await self.replace_with_ai(game_id, by, seat + 1, is_admin=True, where=where)

    async def abort(
        self, game_id: int, player: str | None, *, is_admin: bool = False, where: str | None = NO_SPACE
    ) -> Outcome:
        async with self.lock(game_id):
            loaded = await self._reach(game_id, player, where)
            if loaded.row.status not in (LOBBY, ACTIVE):
                raise ServiceError("game_over", M("Game #{game} is already over.", game=loaded.row.number))
            if not self._may_manage(loaded.row, player, is_admin):
                raise ServiceError("forbidden", M("Only the game's creator or a server admin can abort it."))
            await self.storage.update_game(game_id, status=ABORTED)
            await self.storage.clear_schedule(game_id)
            loaded.row.status = ABORTED
            log.info("game=%s aborted", game_id)
            return await self._publish(
                loaded,
                Lines([say(None, M("Game #{game} was aborted.", game=loaded.row.number))]),
                board_changed=False,
                actor=player,
            )

    # ---- views -----------------------------------------------------------------------------
    def _view(self, loaded: Loaded, seat: int | None) -> dict[str, Any]:
        """The common envelope (:func:`rules.registry.envelope`) with the seat names, game id and seq.

        Built once per state, seat and language: a click asks for the same views several times
        (its private answer and controls, each step's outcome and the request's last). Each caller
        gets a copy of its own (the top level; nested parts are shared and only read)."""
        row = loaded.row
        state = (
            row.seq,
            id(loaded.game),
            row.status,
            row.turn_started_at,
            row.turn_hours,
            row.timeout_policy,
            row.reminder_hours,
            row.remind_by,
            current(),
            tuple((s.player, s.ai_kind, s.name, s.away_until) for s in row.seats),
        )
        if loaded.views_of != state:
            loaded.views, loaded.views_of = {}, state
        view = loaded.views.get(seat)
        if view is None:
            view = loaded.views[seat] = self._build_view(loaded, seat)
        return dict(view)

    def _build_view(self, loaded: Loaded, seat: int | None) -> dict[str, Any]:
        assert loaded.game is not None
        return build_view(loaded.game, loaded.row, seat, self.deadline(loaded))

    async def public_view(
        self, game_id: int, *, player: str | None = None, where: str | None = NO_SPACE
    ) -> dict[str, Any]:
        """The spectator view (no hands, no tickets), with seat names added."""
        loaded = await self._reach(game_id, player, where)
        if loaded.game is None:
            raise ServiceError("not_started", M("Game #{game} has not started yet.", game=loaded.row.number))
        return self._view(loaded, None)

    async def private_view(
        self, game_id: int, player: str, *, where: str | None = NO_SPACE
    ) -> dict[str, Any]:
        """What ``player``'s seat may see (hand, tickets, offers). Only for private replies."""
        loaded = await self._reach(game_id, player, where)
        if loaded.game is None:
            raise ServiceError("not_started", M("Game #{game} has not started yet.", game=loaded.row.number))
        seat = loaded.row.seat_of(player)
        if seat is None:
            raise ServiceError(
                "not_your_game", M("You are not playing in game #{game}.", game=loaded.row.number)
            )
        view = self._view(loaded, seat)
        view["moves"] = await self.moves_of(loaded, seat)  # for private menus' staleness
        return view

    async def moves_of(self, loaded: Loaded, seat: int) -> int:
        """How many actions ``seat`` has made in the game (a private menu is stale once it moved).
        Counted in the log once per loaded game, then kept by every commit."""
        if loaded.moves is None:
            loaded.moves = await self.storage.moves_per_seat(loaded.row.id)
        return loaded.moves.get(seat, 0)

    async def seat_moves(self, game_id: int, player: str) -> int:
        """How many actions ``player``'s seat has made in game ``game_id`` (0: not seated)."""
        loaded = await self.load(game_id)
        seat = loaded.row.seat_of(player)
        return 0 if seat is None else await self.moves_of(loaded, seat)

    async def legal_actions(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> list[Action]:
        """The player's legal actions now (empty if not their turn)."""
        loaded = await self._reach(game_id, player, where)
        if loaded.game is None or loaded.row.status != ACTIVE:
            return []
        seat = loaded.row.seat_of(player)
        if seat is None:
            return []
        return list(loaded.game.legal_actions(seat))

    async def log_lines(
        self, game_id: int, limit: int = 15, *, player: str | None = None, where: str | None = NO_SPACE
    ) -> list[str]:
        """The last ``limit`` moves in words in the current language, as everyone may read them, each
        with who made it: the person who held the seat then, or "(AI)" when the bot played it.

        The one wording of the log, for Discord and the terminal alike: each move is worded now
        from the engine's events (the game replayed from its config, seed and action log), so each
        reader reads it in their own language. A move today's rules cannot replay (one stored by
        older rules), and every move after it, is shown by its English record with a sentence in
        the reader's language saying it can no longer be shown in theirs."""
        loaded = await self._reach(game_id, player, where)
        row = loaded.row
        moves = await self.storage.actions(game_id)
        if not moves:
            return []
        known = await self.storage.player_names(game_id)
        spec = find_game(row.game_name)
        names = [s.name for s in row.seats]
        board = row.config.get("board")
        # the replay is CPU work (the whole game from its first move): off the event loop
        replayed = await asyncio.to_thread(
            replayed_lines,
            spec,
            row.config,
            row.players,
            row.seed,
            row.snapshot,
            [(a.seq, a.seat, a.action_json) for a in moves],
            names,
            board if isinstance(board, str) else None,
        )
        out = []
        for a in moves[-limit:]:
            lines = replayed.get(a.seq)
            if lines is not None:
                actor = self._actor(
                    row,
                    known,
                    a,
                    seat_name=names[a.seat]
                    if a.seat < len(names)
                    else M("Seat {seat}", seat=a.seat + 1).text(),
                )
                out.append(log_entry_words(a.seq, actor, a.seat, lines, names))
                continue
            english_actor = self._actor(
                row, known, a, seat_name=names[a.seat] if a.seat < len(names) else f"Seat {a.seat + 1}"
            )
            record = a.public or self._public_text(spec, a.action_json, english_actor)
            out.append(
                unreplayable_entry_words(a.seq, record)
                if record is not None
                else unreadable_entry_words(a.seq, english_actor)
            )
        return out

    @staticmethod
    def _actor(row: GameRow, known: dict[str, str], move: ActionRow, *, seat_name: str) -> str:
        """Who made ``move``: the person who held the seat then (by the name they had), else the
        seat's name, marked "(AI)" when the bot played it."""
        if move.player is not None:
            return known.get(move.player, seat_name)
        if seat_name.endswith(PLAYED_BY_AI) or move.seat < len(row.seats) and row.seats[move.seat].is_ai:
            return seat_name
        return seat_name + PLAYED_BY_AI

    @staticmethod
    def _public_text(spec: GameSpec, action_json: dict[str, Any], actor: str) -> str | None:
        """A move saved before its sentence was kept, as its English record: who, then the move's
        own public text (None: today's rules cannot read the move at all)."""
        try:
            return f"{actor} {spec.action_from_json(action_json).public_text()}"
        except Exception:  # noqa: BLE001 - a move older rules wrote may fail in any way; it is then unread
            return None

    async def game_row(self, game_id: int) -> GameRow:
        """The game's row, for the bot's own bookkeeping (no reach check: not for answering a user)."""
        return (await self.load(game_id)).row

    async def my_turns(
        self, player: str, *, where: str | None = None, everywhere: bool = True
    ) -> list[tuple[GameRow, bool]]:
        """Every lobby/active game of ``player`` (only those of space ``where`` unless
        ``everywhere``), with whether they must act now."""
        out: list[tuple[GameRow, bool]] = []
        for game_id in await self.storage.games_of_player(player):
            try:
                loaded = await self.load(game_id)
            except ServiceError:
                continue
            if not everywhere and loaded.row.space != where:
                continue
            seat = loaded.row.seat_of(player)
            mine = bool(
                loaded.game is not None and loaded.row.status == ACTIVE and seat in loaded.game.seats_to_act()
            )
            out.append((loaded.row, mine))
        return out

    async def rules_summary(
        self,
        game_id: int | None = None,
        *,
        game_name: str = DEFAULT_GAME,
        config: dict[str, Any] | None = None,
        player: str | None = None,
        where: str | None = NO_SPACE,
    ) -> list[str]:
        """The rules in force, title first, and which data is a stand-in or provisional."""
        if game_id is not None:
            row = (await self._reach(game_id, player, where)).row
            game_name, config = row.game_name, row.config
        try:
            return find_game(game_name).rules_summary(config or {})
        except IllegalAction as exc:
            raise ServiceError("bad_option", exc.message) from None
        except (ValueError, KeyError) as exc:
            raise ServiceError("bad_option", str(exc)) from None
