"""The turn timer: its settings, what a timeout does (skip, AI turn, forfeit), reminders,
vacations, and resuming timers and AI turns after a restart."""

from __future__ import annotations

import random

from bot.service.common import (
    MAX_TURN_HOURS,
    MIN_REMINDER_HOURS,
    MIN_TURN_HOURS,
    Lines,
    Loaded,
    ServiceError,
    hours_msg,
    log,
    say,
)
from bot.service.plans import ServicePlans
from bot.store.rows import (
    ACTIVE,
    LOBBY,
    GameRow,
)
from bot.stream import Outcome
from lang import M
from rules.games import find_game
from rules.protocol import Action, Game
from rules.registry import ai_view_of


class ServiceTimers(ServicePlans):
    """The turn timer (see :class:`bot.service.GameService`)."""

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
                    max_hours=float(MAX_TURN_HOURS),
                    hours=float(turn_hours),
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
                        hours=float(reminder_hours),
                    ),
                )
            return float(turn_hours), float(reminder_hours)
        return float(turn_hours), None

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
                    # named as the person it was, not as the seat's AI it is now ("carol (AI)")
                    name = row.seats[seat].name
                    await self._seat_to_ai(loaded, seat, self.takeover_kind(row))
                    lines.append(
                        say(
                            None,
                            M(
                                "{name} ran out of time and forfeits; an AI plays the seat from now on"
                                " (ask for it back with /ttr reclaim).",
                                name=name,
                            ),
                        )
                    )
                    continue
                if policy == "skip":
                    await self._skip(loaded, seat, lines)
                    continue
                lines.append(say(seat, M("ran out of time; an AI plays this turn.")))
                await self._play_turn_by_ai(loaded, seat, lines)
            if loaded.row.seq == seq and self._cache.get(game_id) is not loaded:
                # The first write conflicted (and evicted the game): a move made in another
                # process sharing the database won this seq. The turn did not run out; say nothing.
                log.info("game=%s seq=%s timeout lost to a move made elsewhere", game_id, seq)
                return None
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
