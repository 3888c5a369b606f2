"""The service's state and what every part shares: the game cache and locks, loading a game,
who may reach it, and when its turn runs out."""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from collections.abc import Callable

from bot.integrity import check_game
from bot.service.common import (
    NO_SUCH_GAME,
    Loaded,
    ServiceError,
    reminder_lead,
)
from bot.store.api import Store
from bot.store.rows import (
    ABORTED,
    ACTIVE,
    BROKEN,
    LOBBY,
    OVER,
    GameRow,
    StorageError,
)
from bot.stream import OutcomeStream
from bot.workers import Workers
from lang import M
from rules.games import find_game
from rules.protocol import AI, Game


class ServiceCore:
    """The service's state and what every part shares (see :class:`bot.service.GameService`)."""

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

    @staticmethod
    def _may_manage(row: GameRow, player: str | None, is_admin: bool) -> bool:
        return is_admin or (player is not None and player == row.creator)

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

    async def game_row(self, game_id: int) -> GameRow:
        """The game's row, for the bot's own bookkeeping (no reach check: not for answering a user)."""
        return (await self.load(game_id)).row
