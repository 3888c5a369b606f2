"""The lobby: create a game, join, leave, add AI seats, start."""

from __future__ import annotations

import random

from bot.service.common import (
    NO_SPACE,
    REMIND_BY,
    SEAT_ORDERS,
    TIMEOUT_POLICIES,
    Lines,
    Loaded,
    ServiceError,
    log,
    say,
    timer_msg,
)
from bot.service.timers import ServiceTimers
from bot.store.rows import (
    ACTIVE,
    LOBBY,
    GameRow,
    SeatRow,
)
from bot.stream import Outcome
from lang import M, Mn
from rules.errors import IllegalAction
from rules.games import find_game
from rules.protocol import JSON


class ServiceLobby(ServiceTimers):
    """The lobby (see :class:`bot.service.GameService`)."""

    async def create_game(
        self,
        *,
        game_name: str,
        config: dict[str, JSON] | None = None,
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
