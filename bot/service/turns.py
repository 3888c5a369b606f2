"""Playing a move: validate, apply, commit with the snapshot, let AI seats play until a person
must act, and retry games whose write failed; who (person or AI) plays each seat."""

from __future__ import annotations

import asyncio
import random

from bot.service.common import (
    MAX_AI_STEPS,
    NO_SPACE,
    STALL_BACKOFF,
    STALL_BACKOFF_MAX,
    TAKEOVER_SETTING,
    Lines,
    Loaded,
    ServiceError,
    _with_names,
    log,
    say,
)
from bot.service.views import ServiceViews
from bot.store.rows import (
    ACTIVE,
    OVER,
    GameRow,
    SeatRow,
    SeqConflict,
)
from bot.stream import Line, Outcome
from lang import M, Msg
from lang.refusals import refusal, refusal_of
from rules.errors import IllegalAction
from rules.games import find_game
from rules.protocol import AI, Action, Event, Game, visible_to
from rules.registry import RandomLegalAI, ai_view_of
from rules.takeback import TAKE_BACK_TEXT

#: A click again on the move just made (its confirmation may never have reached the player).
ALREADY_PLAYED = M("Your move already counted, once: pressing again changes nothing. The board shows it.")


class ServiceTurns(ServiceViews):
    """Playing a move (see :class:`bot.service.GameService`)."""

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
            if expected_seq is not None and expected_seq > row.seq:
                # A button newer than this copy: another process sharing the database moved the
                # game (a timer, a direct-message click). Read it again before judging the click.
                self.evict(game_id)
                loaded = await self._reach(game_id, player, where)
                game = self._check_active(loaded)
                row = loaded.row
            seat = row.seat_of(player)
            if seat is None:
                raise ServiceError(
                    "not_your_game", M("You are not playing in game #{game}.", game=loaded.row.number)
                )
            if expected_seq is not None and expected_seq != row.seq:
                if await self._made_already(loaded, seat, action, since_seq=expected_seq):
                    raise ServiceError("already_played", ALREADY_PLAYED)
                raise ServiceError("stale", M("This button is from an earlier turn; use the latest board."))
            if expected_moves is not None and expected_moves != (moves := await self.moves_of(loaded, seat)):
                if await self._made_already(loaded, seat, action, moves_since=moves - expected_moves):
                    raise ServiceError("already_played", ALREADY_PLAYED)
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

    async def _made_already(
        self,
        loaded: Loaded,
        seat: int,
        action: Action | str,
        *,
        since_seq: int | None = None,
        moves_since: int = 0,
    ) -> bool:
        """Whether a stale click is this seat pressing again for the move it just made: the first
        move after the button's seq (``since_seq``), or the seat's own move that made its private
        menu stale (``moves_since`` moves ago), is this very action and still stands. A player whose
        confirmation never arrived (Discord refused the bot's first reply) presses again; the
        answer is then that the move counted, not that the button is old."""
        recent = await self.storage.actions(loaded.row.id, since_seq=max(since_seq or 0, loaded.row.seq - 64))
        if any(r.action == TAKE_BACK_TEXT for r in recent):
            return False
        if since_seq is not None:
            first = recent[0] if recent and recent[0].seq == since_seq + 1 else None
        else:
            own = [r for r in recent if r.seat == seat]
            first = own[-moves_since] if 1 <= moves_since <= len(own) else None
        if first is None or first.seat != seat:
            return False
        try:
            parsed = (
                find_game(loaded.row.game_name).parse_action(action) if isinstance(action, str) else action
            )
        except IllegalAction:
            return False
        return parsed.to_text() == first.action

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
        try:
            await self._after_move(loaded, seat, game, work, action, events, lines)
        except Exception:  # noqa: BLE001 - the move is committed whatever a plan check does
            log.exception("game=%s the plans could not be checked after a move", row.id)
        if over:
            lines.append(say(None, self._game_over(row, work)))
        self._publish_step(loaded, lines)

    @staticmethod
    def _game_over(row: GameRow, game: Game) -> Msg:
        """The line that ends a game: who won, with how many points (the scores follow it)."""
        scores = game.final_scores()
        best = [f for f in scores if f.get("rank") == 1]
        if not best:
            return M("Game #{game} is over.", game=row.number)
        names = ", ".join(row.seats[f["seat"]].name for f in best)
        if len(best) == 1:
            return M(
                "🏁 Game #{game} is over: {names} wins with {points} points.",
                game=row.number,
                names=names,
                points=best[0]["total"],
            )
        return M(
            "🏁 Game #{game} is over: {names} share the win with {points} points.",
            game=row.number,
            names=names,
            points=best[0]["total"],
        )

    @staticmethod
    def _actor_name(row: GameRow, seat: int, player: str | None) -> str:
        """Who made a move, for the log: the seat's name, marked "(AI)" when the bot played it for
        a person's seat (a timeout, a forced move)."""
        name = row.seats[seat].name
        if player is None and not row.seats[seat].is_ai:
            return f"{name} (AI)"
        return name

    async def _after_move(
        self,
        loaded: Loaded,
        seat: int,
        before: Game,
        after: Game,
        action: Action,
        events: list[Event],
        lines: Lines,
    ) -> None:
        """Hook: a move was committed (planned turns check what it upsets, bot.service.plans)."""

    async def _planned_move(self, loaded: Loaded, lines: Lines) -> bool:
        """Hook: play a person's planned turn that has come (bot.service.plans); True if a move
        was made."""
        return False

    def _describe(self, loaded: Loaded, seat: int, action: Action, events: list[Event]) -> list[Line]:
        """Public lines for one action: only events everyone may see, or the action's public text."""
        names = [s.name for s in loaded.row.seats]
        out: list[Line] = []
        for e in events:
            if not isinstance(e, dict) or not e.get("text") or not visible_to(e, None):
                continue
            if e.get("type") == "game_over":  # the line that ends the game is the service's (the winner)
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
                if await self._planned_move(loaded, lines):
                    continue
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
