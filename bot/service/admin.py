"""Managing a running game's seats: hand a seat over, request and approve one, resign, replace
with an AI, kick, abort."""

from __future__ import annotations

from dataclasses import replace

from bot.service.common import (
    NO_SPACE,
    Lines,
    ServiceError,
    log,
    say,
)
from bot.service.lobby import ServiceLobby
from bot.store.rows import (
    ABORTED,
    ACTIVE,
    LOBBY,
)
from bot.stream import Outcome
from lang import M


class ServiceAdmin(ServiceLobby):
    """Managing a running game's seats (see :class:`bot.service.GameService`)."""

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
