"""What the service shows: outcomes published on the stream, each seat's view, legal actions,
the move log, a player's games and a game's rules summary."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import replace

from bot.present import (
    PLAYED_BY_AI,
    log_entry_words,
    replayed_lines,
    unreadable_entry_words,
    unreplayable_entry_words,
)
from bot.service.common import (
    NO_SPACE,
    Lines,
    Loaded,
    ServiceError,
    log,
    timer_text,
)
from bot.service.core import ServiceCore
from bot.store.rows import (
    ACTIVE,
    OVER,
    ActionRow,
    GameRow,
)
from bot.stream import GameView, Line, Outcome, SeatRef, TimerView
from lang import M, Msg, current, normalise
from rules import takeback
from rules.errors import IllegalAction
from rules.games import find_game
from rules.protocol import JSON, Action, Game
from rules.registry import GameSpec, ai_view_of, envelope


def build_view(game: Game, row: GameRow, seat: int | None, deadline: float | None) -> GameView:
    """The common envelope (:func:`rules.registry.envelope`) of ``seat`` (None: a spectator) with
    the seat names, the game's number, seq and turn timer (``deadline``: when the turn runs out)."""
    shared = envelope(game, seat)
    return GameView(
        game=shared["game"],
        viewer=shared["viewer"],
        players=shared["players"],
        to_act=shared["to_act"],
        phase=shared["phase"],
        scores=shared["scores"],
        final=shared["final"],
        last_action=shared["last_action"],
        you=shared["you"],
        detail=shared["detail"],
        names=[s.name for s in row.seats],
        game_id=row.number,  # presenters title boards "Game #<number>", as players read it
        seq=row.seq,
        timer=TimerView(
            hours=row.turn_hours,
            policy=row.timeout_policy,
            deadline=deadline,
            text=timer_text(row),
        ),
    )


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
        self._views: dict[tuple[int, str], GameView] = {}
        self._legal: dict[int, tuple[Action, ...]] = {}
        self._observations: dict[int, Game] = {}

    def view(self, seat: int) -> GameView:
        key = (seat, current())
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = build_view(self._game, self._row, seat, self._deadline)
            view["moves"] = self._moves.get(seat, 0)
        return view.copy()

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


class ServiceViews(ServiceCore):
    """What the service shows (see :class:`bot.service.GameService`)."""

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
        notes = tuple(lines.notes[lines.notes_published :])
        lines.notes_published = len(lines.notes)
        self.stream.publish(replace(step, settled=False, notes=notes))

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
        self.stream.publish(
            replace(
                outcome,
                lines=tuple(lines[lines.published :]),
                notes=tuple(lines.notes[lines.notes_published :]),
            )
        )
        lines.published = len(lines)
        lines.notes_published = len(lines.notes)
        return replace(outcome, notes=tuple(lines.notes))

    async def current_outcome(self, game_id: int) -> Outcome:
        """The game as it stands, as an outcome with no lines (a front end re-posting its board, or
        answering a request with what a seat sees now)."""
        loaded = await self.load(game_id)
        await self._count_moves(loaded)
        return self._outcome(loaded, [], board_changed=True)

    async def outcome_since(self, game_id: int, since_seq: int) -> Outcome:
        """The game as committed now, as an outcome carrying the public lines of every move after
        ``since_seq``: what a process posts for moves another process committed (a direct-message
        click or a timer served elsewhere) or that a crash left unposted (:mod:`bot.outbox`).

        The game is read again from storage when another process moved it, and the lines are
        worded from the engine's events (the game replayed from its log, as the move log is), so
        each reader reads them in the game's language; the actor is the last move's."""
        async with self.lock(game_id):
            cached = self._cache.get(game_id)
            if cached is not None:
                stored = await self.storage.get_game(game_id)
                if (stored.seq, stored.status) != (cached.row.seq, cached.row.status):
                    self.evict(game_id)  # moved by another process: this copy is stale
            loaded = await self.load(game_id)
            await self._count_moves(loaded)
            row = loaded.row
            moves = [m for m in await self.storage.actions(game_id) if m.seq <= row.seq]
            lines: list[Line] = []
            fresh = [m for m in moves if m.seq > since_seq]
            if fresh:
                board = row.config.get("board")
                replayed = await asyncio.to_thread(
                    replayed_lines,
                    find_game(row.game_name),
                    row.config,
                    row.players,
                    row.seed,
                    row.snapshot,
                    [(a.seq, a.seat, a.action_json) for a in moves],
                    [s.name for s in row.seats],
                    board if isinstance(board, str) else None,
                )
                for move in fresh:
                    lines += replayed.get(move.seq) or [
                        Line(None, move.public) if move.public else Line(move.seat, move.action)
                    ]
            last = fresh[-1] if fresh else None
            return self._outcome(
                loaded,
                lines,
                board_changed=True,
                actor_seat=None if last is None else last.seat,
                actor=None if last is None else last.player,
            )

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
            take_backs=takeback.enabled(row.config) and find_game(row.game_name).take_back is not None,
        )

    def _view(self, loaded: Loaded, seat: int | None) -> GameView:
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
        return view.copy()

    def _build_view(self, loaded: Loaded, seat: int | None) -> GameView:
        assert loaded.game is not None
        return build_view(loaded.game, loaded.row, seat, self.deadline(loaded))

    async def public_view(
        self, game_id: int, *, player: str | None = None, where: str | None = NO_SPACE
    ) -> GameView:
        """The spectator view (no hands, no tickets), with seat names added."""
        loaded = await self._reach(game_id, player, where)
        if loaded.game is None:
            raise ServiceError("not_started", M("Game #{game} has not started yet.", game=loaded.row.number))
        return self._view(loaded, None)

    async def private_view(self, game_id: int, player: str, *, where: str | None = NO_SPACE) -> GameView:
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
    def _public_text(spec: GameSpec, action_json: dict[str, JSON], actor: str) -> str | None:
        """A move saved before its sentence was kept, as its English record: who, then the move's
        own public text (None: today's rules cannot read the move at all)."""
        try:
            return f"{actor} {spec.action_from_json(action_json).public_text()}"
        except Exception:  # noqa: BLE001 - a move older rules wrote may fail in any way; it is then unread
            return None

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
        game_name: str | None = None,
        config: dict[str, JSON] | None = None,
        player: str | None = None,
        where: str | None = NO_SPACE,
    ) -> list[str]:
        """The rules in force, title first, and which data is a stand-in or provisional: of game
        ``game_id``, or of ``game_name`` with ``config`` (a front end names the game it offers;
        the service has no default game)."""
        if game_id is not None:
            row = (await self._reach(game_id, player, where)).row
            game_name, config = row.game_name, row.config
        if game_name is None:
            raise ValueError("rules_summary needs a game id or a game name")
        try:
            return find_game(game_name).rules_summary(config or {})
        except IllegalAction as exc:
            raise ServiceError("bad_option", exc.message) from None
        except (ValueError, KeyError) as exc:
            raise ServiceError("bad_option", str(exc)) from None
