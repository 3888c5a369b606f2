"""Taking back one's own last move (issue 31): refused, with the rule named, when the move showed
something hidden, when another seat acted since, when the bot played it, or when the game turned
take-backs off. The take-back is an entry of the action log and the state before the move is
committed with it (one transaction), so the record still replays (see :mod:`rules.takeback`)."""

from __future__ import annotations

import asyncio

from bot.service.common import NO_SPACE, Lines, ServiceError, log, say
from bot.service.turns import ServiceTurns
from bot.store.rows import ACTIVE, ActionRow, GameRow, SeqConflict
from bot.stream import Outcome
from lang import M, Msg
from rules import takeback
from rules.games import find_game
from rules.protocol import Game
from rules.registry import GameSpec

# The rule that makes a move final, as the player reads it.
FINAL_WORDS: dict[str, Msg] = {
    takeback.BLIND_DRAW: M("That move drew a card from the deck, and a card you have seen cannot go back."),
    takeback.FACE_UP_REPLACED: M(
        "A new card was turned face up after that move, and a card everyone has seen cannot go back."
    ),
    takeback.TUNNEL: M("That tunnel's extra cards were revealed, so the move stands."),
    takeback.TICKETS: M("Tickets were drawn, and tickets you have seen cannot go back."),
    takeback.HIDDEN_CARD: M("That move turned up a card from a face-down pile, so it stands."),
    takeback.DRAFT: M("A card kept in the secret draft cannot be taken back."),
    takeback.NO_TAKE_BACKS: M("This game has no moves that can be taken back."),
}


def replay_moves(spec: GameSpec, row: GameRow, moves: list[ActionRow]) -> Game:
    """The game from its config and seed with ``moves`` applied (CPU work, for a thread)."""
    game = (
        spec.replay_start(row.config, row.players, row.seed, row.snapshot)
        if spec.replay_start is not None and row.snapshot
        else spec.new(row.config, row.players, row.seed)
    )
    for move in moves:
        game.apply(move.seat, spec.action_from_json(move.action_json))
    return game


def turn_began(moves: list[ActionRow], seat: int, otherwise: float | None) -> float | None:
    """When ``seat``'s turn began, from the standing ``moves`` before its latest one: the time of
    the latest move by another seat (``otherwise`` when there is none)."""
    for move in reversed(moves):
        if move.seat != seat:
            return move.created_at
    return otherwise


class ServiceTakeBack(ServiceTurns):
    """Taking back a move (see :class:`bot.service.GameService`)."""

    async def take_back(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> Outcome:
        """Take back ``player``'s last move (call again to take back the one before)."""
        async with self.lock(game_id):
            loaded = await self._reach(game_id, player, where)
            self._check_active(loaded)
            row = loaded.row
            seat = row.seat_of(player)
            if seat is None:
                raise ServiceError(
                    "not_your_game", M("You are not playing in game #{game}.", game=row.number)
                )
            if not takeback.enabled(row.config):
                raise ServiceError(
                    "take_backs_off", M("Take-backs are turned off in game #{game}.", game=row.number)
                )
            spec = find_game(row.game_name)
            moves = takeback.effective(
                await self.storage.actions(game_id), lambda m: takeback.is_take_back(m.action_json)
            )
            last = moves[-1] if moves else None
            if last is None or last.seat != seat and not any(m.seat == seat for m in moves):
                raise ServiceError("nothing_to_take_back", M("You have no move to take back."))
            if last.seat != seat:
                raise ServiceError(
                    "other_seat_moved",
                    M(
                        "{name} has moved since your last move, so it stands: only a move no one "
                        "else has answered can be taken back.",
                        name=row.seats[last.seat].name,
                    ),
                )
            if last.player != player:
                raise ServiceError(
                    "not_your_move", M("The bot played your last move for you; it cannot be taken back.")
                )
            before = await asyncio.to_thread(replay_moves, spec, row, moves[:-1])
            action = spec.action_from_json(last.action_json)
            reason = takeback.classify(spec.take_back, before, seat, action)
            if reason is not None:
                log.info("game=%s seat=%s take-back refused: %s", row.id, seat, reason)
                raise ServiceError(reason, FINAL_WORDS.get(reason, FINAL_WORDS[takeback.NO_TAKE_BACKS]))
            entry = takeback.TakeBack()
            # The turn keeps the clock it had before the move taken back: a take-back never
            # restarts the turn timer, or a move and its take-back would buy a fresh turn, again
            # and again. The turn began with the latest standing move of another seat.
            started = turn_began(moves[:-1], seat, row.turn_started_at)
            timers = self._timers(row, self._deadline(row, before, ACTIVE, started), row.seq + 1)
            said = M("{name} took back their last move.", name=row.seats[seat].name)
            try:
                await self.storage.commit_action(
                    row.id,
                    row.seq,
                    seat,
                    player,
                    entry.to_text(),
                    entry.to_json(),
                    before.to_json(),
                    status=ACTIVE,
                    turn_started_at=started,
                    public=str(said),
                    schedule=timers,
                )
            except SeqConflict:
                self.evict(row.id)
                raise ServiceError(
                    "conflict", M("That was already played: the game moved on. Look at the latest board.")
                ) from None
            finally:
                self.evict(row.id)
            log.info("game=%s seat=%s seq=%s take-back of move %s", row.id, seat, row.seq + 1, last.seq)
            loaded = await self.load(game_id)
            lines = Lines()
            lines.append(say(seat, M("took back their last move.")))
            return await self._publish(loaded, lines, board_changed=True, actor_seat=seat, actor=player)
