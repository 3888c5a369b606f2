"""GameService: the only path from any front end to a change of game state.

Slash commands, buttons, select menus, the terminal ``conductor play`` and the scheduler all call
this class. It loads a game, checks who may act, lets :mod:`rules` validate and apply the action,
persists the action and the new snapshot in one transaction (:meth:`Storage.commit_action`), lets
AI seats play until a human must act, re-arms the turn timer, and returns an :class:`Outcome` that
the front end presents. Front ends never touch a game object themselves.

It is generic over :mod:`rules.games`: nothing here knows Ticket to Ride except the optional
board-flag summary in :meth:`GameService.rules_summary`.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import random
import re
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.storage import (
    ABORTED,
    ACTIVE,
    BROKEN,
    LOBBY,
    OVER,
    GameRow,
    SeatRow,
    SeqConflict,
    Storage,
    StorageError,
)
from rules import games as rules_games
from rules.errors import IllegalAction

log = logging.getLogger("conductor.service")

TIMEOUT_POLICIES = ("skip", "ai", "forfeit")
AI_KINDS = ("heuristic", "random")
SEAT_ORDERS = ("shuffle", "join")
# Action kinds whose text form is private (ticket ids kept); public logs show a summary instead.
PRIVATE_KINDS = {"keep_tickets"}
# First Class: which Game End card was kept, taken or bought is hidden until the end (see the engine's
# last_action); public logs show only the kind.
HIDDEN_CHOICE_KINDS = {"draft": "kept a Game End card", "ge": "took a Game End card", "buy": "bought a Game End card"}
# Moves the bot plays for a human seat that has no real choice (module:function(game, seat) -> action | None).
AUTO_MOVES = {"first-class": "bot.present_firstclass:auto_action"}
MAX_AI_STEPS = 5000
# Seat counts for games whose class does not declare MIN_PLAYERS/MAX_PLAYERS.
PLAYER_RANGES = {"first-class": (2, 4)}
REMINDER_FRACTION = 0.25
SEAT_REF = re.compile(r"\bSeat (\d{1,2})\b")


class ServiceError(Exception):
    """A request the service refuses; ``message`` is meant for the player, ``code`` for tests."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Outcome:
    """What happened, for a front end to present.

    ``lines`` are public sentences (safe for the game thread); ``to_act`` are the seats that must
    act now and ``ping`` their Discord user ids (AI seats excluded).
    """

    game_id: int
    seq: int
    lines: list[str] = field(default_factory=list)
    to_act: list[int] = field(default_factory=list)
    ping: list[int] = field(default_factory=list)
    board_changed: bool = False
    over: bool = False
    scores: list[dict[str, Any]] | None = None
    actor_seat: int | None = None


@dataclass
class Loaded:
    """A game in memory: its row (seats, settings) and the live rules object (None in the lobby)."""

    row: GameRow
    game: Any | None


def _ai_module_name(game_name: str) -> str:
    module = rules_games._MODULES.get(game_name, "")
    return module.rsplit(".", 1)[0] + ".ai"


class _RandomLegal:
    """Fallback AI when a game ships none: a seeded random legal action."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, seat: int) -> Any:
        return self.rng.choice(game.legal_actions(seat))


def make_ai(game_name: str, kind: str, seed: int) -> Any:
    """An AI object with ``choose(game, seat)`` for ``game_name`` (``heuristic`` or ``random``)."""
    try:
        module = importlib.import_module(_ai_module_name(game_name))
    except ImportError:
        return _RandomLegal(seed)
    cls_name = {"heuristic": "HeuristicAI", "random": "RandomAI"}.get(kind, "HeuristicAI")
    cls = getattr(module, cls_name, None) or getattr(module, "RandomAI", None)
    return cls(seed) if cls is not None else _RandomLegal(seed)


def player_range(game_name: str, config: dict[str, Any]) -> tuple[int, int]:
    """Allowed seat counts for a game and config (TTR boards declare theirs)."""
    if game_name == "ttr":
        try:
            from rules.ttr.board import load_board

            players = load_board(str(config.get("board", "usa")), config.get("variant")).rules["players"]
            return int(players[0]), int(players[1])
        except Exception:  # noqa: BLE001 - an unknown board is reported by new_game
            return 2, 5
    cls = _game_class_or_none(game_name)
    lo, hi = getattr(cls, "MIN_PLAYERS", None), getattr(cls, "MAX_PLAYERS", None)
    if isinstance(lo, int) and isinstance(hi, int):
        return lo, hi
    return PLAYER_RANGES.get(game_name, (2, 5))


def _game_class_or_none(game_name: str) -> Any:
    try:
        return rules_games._game_class(game_name)
    except Exception:  # noqa: BLE001
        return None


def action_public_text(kind: str, text: str) -> str:
    """An action's text with private parts removed (kept ticket ids)."""
    if kind in HIDDEN_CHOICE_KINDS:
        return HIDDEN_CHOICE_KINDS[kind]
    if kind in PRIVATE_KINDS:
        n = len(text.split()[-1].split(",")) if text.split() else 0
        return f"kept {n} ticket{'s' if n != 1 else ''}"
    return text


def _with_names(text: str, names: list[str]) -> str:
    """``"Seat 1 takes …"`` with the seat's player name (engines that name seats by number)."""
    return SEAT_REF.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)


class GameService:
    """Create, join, start and play games; the single writer of game state."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        observer: Callable[[int, int], Awaitable[None]] | None = None,
    ) -> None:
        """``observer(game_id, seq)`` is awaited after every committed action (the terminal uses it
        to write a board image per turn); it runs under the game's lock and must not act."""
        self.storage = storage
        self.observer = observer
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self._cache: dict[int, Loaded] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._ais: dict[tuple[int, int, str], Any] = {}

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
            if "no game" in str(exc):
                raise ServiceError("not_found", f"There is no game #{game_id}.") from None
            await self.storage.mark_broken(game_id, str(exc))
            raise ServiceError("broken", f"Game #{game_id} cannot be loaded; the admins have been told.") from None
        if row.status == BROKEN:
            raise ServiceError(
                "broken", f"Game #{game_id} cannot be played: its saved state is damaged (the admins have been told)."
            )
        game = None
        if row.status in (ACTIVE, OVER) and row.snapshot is not None:
            try:
                game = rules_games.game_from_json(row.snapshot)
            except Exception as exc:  # noqa: BLE001 - any failure to restore isolates this game only
                await self.storage.mark_broken(game_id, f"snapshot does not load: {type(exc).__name__}: {exc}")
                raise ServiceError("broken", f"Game #{game_id} cannot be loaded; the admins have been told.") from None
        elif row.status in (ACTIVE, OVER):
            await self.storage.mark_broken(game_id, "active game without a snapshot")
            raise ServiceError("broken", f"Game #{game_id} cannot be loaded; the admins have been told.")
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
                        await self._run_ai(loaded, [])
                        await self._reschedule(loaded)
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
        game_name: str = "ttr",
        config: dict[str, Any] | None = None,
        creator_id: int | None,
        creator_name: str = "Player",
        guild_id: int | None = None,
        channel_id: int | None = None,
        turn_hours: float | None = 24.0,
        timeout_policy: str = "ai",
        seat_order: str = "shuffle",
        seed: int | None = None,
        join: bool = True,
    ) -> GameRow:
        """Open a lobby. The config is validated now (unknown board → a clear error)."""
        config = dict(config or {})
        if timeout_policy not in TIMEOUT_POLICIES:
            raise ServiceError("bad_option", f"Timeout policy must be one of {', '.join(TIMEOUT_POLICIES)}.")
        if seat_order not in SEAT_ORDERS:
            raise ServiceError("bad_option", f"Seat order must be one of {', '.join(SEAT_ORDERS)}.")
        if turn_hours is not None and turn_hours <= 0:
            turn_hours = None
        seed = int(seed) if seed is not None else self.rng.randrange(1, 2**62)
        lo, hi = player_range(game_name, config)
        try:
            rules_games.new_game(game_name, config, lo, seed)
        except IllegalAction as exc:
            raise ServiceError("bad_option", exc.message) from None
        except (ValueError, KeyError) as exc:
            raise ServiceError("bad_option", str(exc)) from None
        game_id = await self.storage.create_game(
            game_name=game_name,
            config=config,
            seed=seed,
            max_players=hi,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
            seat_order=seat_order,
            turn_hours=turn_hours,
            timeout_policy=timeout_policy,
        )
        if join and creator_id is not None:
            await self.storage.set_lobby_seats(game_id, [SeatRow(0, creator_id, None, creator_name)])
        log.info("game=%s created game=%s config=%s", game_id, game_name, config)
        return (await self.load(game_id)).row

    async def _lobby(self, game_id: int) -> Loaded:
        loaded = await self.load(game_id)
        if loaded.row.status != LOBBY:
            raise ServiceError(
                "not_lobby",
                f"Game #{game_id} has already started (to leave it, use /play resign)."
                if loaded.row.status == ACTIVE
                else f"Game #{game_id} is {loaded.row.status}.",
            )
        return loaded

    async def _save_lobby(self, loaded: Loaded, seats: list[SeatRow]) -> GameRow:
        await self.storage.set_lobby_seats(loaded.row.id, seats)
        self.evict(loaded.row.id)
        return (await self.load(loaded.row.id)).row

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id)
            seats = list(loaded.row.seats)
            if any(s.user_id == user_id for s in seats):
                raise ServiceError("already_joined", f"You are already in game #{game_id}.")
            if len(seats) >= loaded.row.max_players:
                raise ServiceError("full", f"Game #{game_id} is full ({loaded.row.max_players} seats).")
            seats.append(SeatRow(len(seats), user_id, None, name))
            return await self._save_lobby(loaded, seats)

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        async with self.lock(game_id):
            loaded = await self._lobby(game_id)
            if loaded.row.seat_of(user_id) is None:
                raise ServiceError("not_your_game", f"You are not in game #{game_id}.")
            seats = [s for s in loaded.row.seats if s.user_id != user_id]
            return await self._save_lobby(loaded, seats)

    async def add_ai(self, game_id: int, user_id: int, kind: str = "heuristic", *, is_admin: bool = False) -> GameRow:
        """Add an AI seat to the lobby (any seated player, the creator or an admin)."""
        if kind not in AI_KINDS:
            raise ServiceError("bad_option", f"AI kind must be one of {', '.join(AI_KINDS)}.")
        async with self.lock(game_id):
            loaded = await self._lobby(game_id)
            row = loaded.row
            if not (is_admin or user_id == row.creator_id or row.seat_of(user_id) is not None):
                raise ServiceError("forbidden", "Only players in this game can add AI seats.")
            if len(row.seats) >= row.max_players:
                raise ServiceError("full", f"Game #{game_id} is full ({row.max_players} seats).")
            n_ai = sum(s.is_ai for s in row.seats) + 1
            seats = [*row.seats, SeatRow(len(row.seats), None, kind, f"AI {n_ai} ({kind})")]
            return await self._save_lobby(loaded, seats)

    async def start(self, game_id: int, user_id: int | None, *, is_admin: bool = False) -> Outcome:
        """Deal: shuffle seats (unless join order), create the rules state, let AIs act."""
        async with self.lock(game_id):
            loaded = await self._lobby(game_id)
            row = loaded.row
            if user_id is not None and not (is_admin or user_id == row.creator_id or row.seat_of(user_id) is not None):
                raise ServiceError("forbidden", "Only the creator or a seated player can start the game.")
            lo, hi = player_range(row.game_name, row.config)
            if not lo <= len(row.seats) <= hi:
                raise ServiceError(
                    "player_count", f"This game needs {lo} to {hi} players; {len(row.seats)} have joined (add AI seats?)."
                )
            seats = list(row.seats)
            if row.seat_order == "shuffle":
                random.Random(row.seed).shuffle(seats)
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name, s.away_until) for i, s in enumerate(seats)]
            try:
                game = rules_games.new_game(row.game_name, row.config, len(seats), row.seed)
            except IllegalAction as exc:
                raise ServiceError("bad_option", exc.message) from None
            now = self.clock()
            await self.storage.start_game(game_id, seats, game.to_json(), now)
            self.evict(game_id)
            loaded = await self.load(game_id)
            log.info("game=%s started players=%d", game_id, len(seats))
            names = ", ".join(f"{s.name}" for s in seats)
            lines = [f"Game #{game_id} started. Seat order: {names}."]
            await self._run_ai(loaded, lines)
            await self._reschedule(loaded)
            return self._outcome(loaded, lines, board_changed=True)

    # ---- acting ----------------------------------------------------------------------------
    def _check_active(self, loaded: Loaded) -> Any:
        row = loaded.row
        if row.status == LOBBY:
            raise ServiceError("not_started", f"Game #{row.id} has not started yet.")
        if row.status == OVER:
            raise ServiceError("game_over", f"Game #{row.id} is over.")
        if row.status == ABORTED:
            raise ServiceError("game_over", f"Game #{row.id} was aborted.")
        if row.status == BROKEN or loaded.game is None:
            raise ServiceError("broken", f"Game #{row.id} cannot be played (its saved state is damaged).")
        return loaded.game

    async def act(
        self, game_id: int, user_id: int, action: Any, *, expected_seq: int | None = None
    ) -> Outcome:
        """Play ``action`` (text or action object) for ``user_id``; AIs answer; returns the outcome.

        ``expected_seq`` comes from a button's custom id: if the game moved on, the button is
        from an earlier turn and nothing happens.
        """
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            game = self._check_active(loaded)
            row = loaded.row
            seat = row.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_your_game", f"You are not playing in game #{game_id}.")
            if expected_seq is not None and expected_seq != row.seq:
                raise ServiceError("stale", "This button is from an earlier turn; use the latest board.")
            if seat not in game.seats_to_act():
                raise ServiceError("not_your_turn", self._whose_turn_text(loaded))
            if isinstance(action, str):
                try:
                    action = rules_games.parse_action(row.game_name, action)
                except IllegalAction as exc:
                    raise ServiceError(exc.code, exc.message) from None
            lines: list[str] = []
            await self._apply(loaded, seat, user_id, action, lines)
            await self._run_ai(loaded, lines)
            await self._reschedule(loaded)
            return self._outcome(loaded, lines, board_changed=True, actor=seat)

    async def _apply(self, loaded: Loaded, seat: int, user_id: int | None, action: Any, lines: list[str]) -> None:
        """Validate, apply and persist one action (the game object is updated in place)."""
        row, game = loaded.row, loaded.game
        assert game is not None
        before = set(game.seats_to_act())
        try:
            events = game.apply(seat, action)
        except IllegalAction as exc:
            log.info("game=%s seat=%s action=%s outcome=illegal:%s", row.id, seat, action.kind, exc.code)
            raise ServiceError(exc.code, exc.message) from None
        except Exception:
            self.evict(row.id)
            log.exception("game=%s seat=%s action=%s outcome=engine-error", row.id, seat, getattr(action, "kind", "?"))
            raise ServiceError("engine_error", "Something went wrong applying that move; nothing was changed.") from None
        over = bool(game.is_over())
        after = set(game.seats_to_act())
        now = self.clock()
        new_turn = not after <= before
        try:
            new_seq = await self.storage.commit_action(
                row.id,
                row.seq,
                seat,
                user_id,
                action.to_text(),
                action.to_json(),
                game.to_json(),
                status=OVER if over else ACTIVE,
                turn_started_at=now if new_turn else None,
            )
        except SeqConflict:
            self.evict(row.id)
            log.info("game=%s seat=%s action=%s outcome=conflict", row.id, seat, action.kind)
            raise ServiceError("conflict", "That was already played: the game moved on. Look at the latest board.") from None
        except Exception:
            self.evict(row.id)
            raise
        row.seq = new_seq
        if new_turn:
            row.turn_started_at = now
        if over:
            row.status = OVER
        log.info("game=%s seat=%s seq=%s action=%s outcome=ok", row.id, seat, new_seq, action.kind)
        if self.observer is not None:
            await self.observer(row.id, new_seq)
        lines.extend(self._describe(loaded, seat, action, events))
        if over:
            lines.append(f"Game #{row.id} is over.")

    def _describe(self, loaded: Loaded, seat: int, action: Any, events: list[dict[str, Any]]) -> list[str]:
        """Public sentences for one action. Only public texts are used (events or the view's last action)."""
        names = [s.name for s in loaded.row.seats]
        out: list[str] = []
        for e in events:
            if not isinstance(e, dict) or not e.get("text") or e.get("public") is False:
                continue
            who = e.get("seat")
            text = _with_names(str(e["text"]), names)
            if isinstance(who, int) and 0 <= who < len(names):
                name = names[who]
                out.append(f"**{name}**{text[len(name):]}" if text.startswith(name) else f"**{name}** {text}")
            else:
                out.append(text)
        if not out:
            name = names[seat] if seat < len(names) else f"Seat {seat}"
            out.append(f"**{name}**: {action_public_text(action.kind, action.to_text())}")
        return out

    async def _run_ai(self, loaded: Loaded, lines: list[str]) -> None:
        """Let AI seats act (and forced moves of humans be played, ``AUTO_MOVES``) until a human must choose."""
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

    async def _auto_move(self, loaded: Loaded, lines: list[str]) -> bool:
        """Play a forced move for a human seat (``AUTO_MOVES``: e.g. a First Class scoring step with
        nothing to choose). Returns True if a move was made."""
        spec = AUTO_MOVES.get(loaded.row.game_name)
        game = loaded.game
        if spec is None or game is None:
            return False
        module_name, fn_name = spec.split(":")
        policy = getattr(importlib.import_module(module_name), fn_name)
        for seat in game.seats_to_act():
            action = policy(game, seat)
            if action is None:
                continue
            try:
                await self._apply(loaded, seat, None, action, lines)
            except ServiceError as exc:
                # the code only: the engine's message may describe the seat's hand
                log.error("game=%s seat=%s auto move failed (%s)", loaded.row.id, seat, exc.code)
                if loaded.row.id not in self._cache:
                    fresh = await self.load(loaded.row.id)
                    loaded.row, loaded.game = fresh.row, fresh.game
                    self._cache[loaded.row.id] = loaded
                return False
            return True
        return False

    async def _ai_move(self, loaded: Loaded, seat: int, lines: list[str], kind: str | None = None) -> bool:
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
                ai = self._ai(row, seat, kind) if attempt == 0 else _RandomLegal(row.seq)
                action = ai.choose(game, seat)
                await self._apply(loaded, seat, None, action, lines)
                return True
            except ServiceError as exc:
                log.error("game=%s seat=%s AI move failed (%s)", row.id, seat, exc.code)  # no message: it may show the hand
                if exc.code == "conflict":
                    return False
                if row.id not in self._cache:  # the engine erred: reload the committed state
                    fresh = await self.load(row.id)
                    loaded.row, loaded.game = fresh.row, fresh.game
                    self._cache[row.id] = loaded
                    row = loaded.row
            except Exception:  # noqa: BLE001 - an AI bug must not break the human's committed move
                log.exception("game=%s seat=%s AI crashed", row.id, seat)
        return False

    def _ai(self, row: GameRow, seat: int, kind: str | None = None) -> Any:
        kind = kind or row.seats[seat].ai_kind or "heuristic"
        key = (row.id, seat, kind)
        ai = self._ais.get(key)
        if ai is None:
            ai = make_ai(row.game_name, kind, row.seed * 31 + seat)
            self._ais[key] = ai
        return ai

    def _whose_turn_text(self, loaded: Loaded) -> str:
        game = loaded.game
        to_act = game.seats_to_act() if game is not None else []
        names = ", ".join(loaded.row.seats[s].name for s in to_act)
        return f"It is not your turn; waiting for {names}." if names else "It is not your turn."

    def _outcome(self, loaded: Loaded, lines: list[str], *, board_changed: bool, actor: int | None = None) -> Outcome:
        row, game = loaded.row, loaded.game
        to_act = list(game.seats_to_act()) if game is not None and row.status == ACTIVE else []
        ping = [u for s in to_act if (u := row.seats[s].user_id) is not None]
        over = row.status == OVER
        scores = game.final_scores() if over and game is not None else None
        return Outcome(row.id, row.seq, lines, to_act, ping, board_changed, over, scores, actor)

    # ---- timers ----------------------------------------------------------------------------
    def deadline(self, loaded: Loaded) -> float | None:
        """When the current turn times out (vacations push it back), or None without a timer."""
        row, game = loaded.row, loaded.game
        if row.status != ACTIVE or game is None or not row.turn_hours:
            return None
        humans = [s for s in game.seats_to_act() if not row.seats[s].is_ai]
        if not humans:
            return None
        start = row.turn_started_at or self.clock()
        away = [row.seats[s].away_until or 0.0 for s in humans]
        start = max([start, *away])
        return start + row.turn_hours * 3600.0

    async def _reschedule(self, loaded: Loaded) -> None:
        due = self.deadline(loaded)
        if due is None:
            await self.storage.clear_schedule(loaded.row.id)
            return
        assert loaded.row.turn_hours
        period = loaded.row.turn_hours * 3600.0
        entries = {"timeout": (due, loaded.row.seq)}
        reminder = due - period * REMINDER_FRACTION
        if reminder > self.clock():
            entries["reminder"] = (reminder, loaded.row.seq)
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
            lines: list[str] = []
            humans = [s for s in game.seats_to_act() if not row.seats[s].is_ai]
            for seat in humans:
                name = row.seats[seat].name
                policy = row.timeout_policy
                if policy == "forfeit":
                    await self._seat_to_ai(loaded, seat, "heuristic")
                    lines.append(f"{name} ran out of time and forfeits; an AI plays the seat from now on.")
                    continue
                lines.append(f"{name} ran out of time; " + ("the turn is skipped." if policy == "skip" else "an AI plays this turn."))
                for _ in range(8):
                    game = loaded.game
                    if game is None or game.is_over() or seat not in game.seats_to_act():
                        break
                    if policy == "skip":
                        try:
                            await self._apply(loaded, seat, None, self._skip_action(game, seat), lines)
                            continue
                        except ServiceError:
                            log.exception("game=%s seat=%s skip failed; the AI plays instead", game_id, seat)
                    if not await self._ai_move(loaded, seat, lines, "heuristic"):
                        break
            await self._run_ai(loaded, lines)
            await self._reschedule(loaded)
            return self._outcome(loaded, lines, board_changed=True)

    def _skip_action(self, game: Any, seat: int) -> Any:
        """The least eventful legal action: pass, else draw from the deck, else what an AI picks."""
        legal = game.legal_actions(seat)
        for kind in ("pass", "draw_deck"):
            for a in legal:
                if getattr(a, "kind", None) == kind:
                    return a
        return make_ai(game.game_name, "heuristic", 0).choose(game, seat)

    async def reminder_targets(self, game_id: int, seq: int) -> tuple[list[int], float | None] | None:
        """Users to remind for the turn at ``seq`` and its deadline (None if the turn has moved on)."""
        try:
            loaded = await self.load(game_id)
        except ServiceError:
            return None
        if loaded.row.seq != seq or loaded.row.status != ACTIVE or loaded.game is None:
            return None
        users = [u for s in loaded.game.seats_to_act() if (u := loaded.row.seats[s].user_id) is not None]
        return users, self.deadline(loaded)

    async def set_vacation(self, user_id: int, until: float | None) -> list[int]:
        """Pause ``user_id``'s turn timers until ``until`` (None ends the vacation). Returns game ids."""
        touched: list[int] = []
        for game_id in await self.storage.games_of_user(user_id, (LOBBY, ACTIVE)):
            async with self.lock(game_id):
                try:
                    loaded = await self.load(game_id)
                except ServiceError:
                    continue
                seat = loaded.row.seat_of(user_id)
                if seat is None:
                    continue
                await self.storage.update_seat(game_id, seat, away_until=until)
                loaded.row.seats[seat].away_until = until
                await self._reschedule(loaded)
                touched.append(game_id)
        return touched

    # ---- seat management -------------------------------------------------------------------
    def _may_manage(self, row: GameRow, user_id: int, is_admin: bool) -> bool:
        return is_admin or user_id == row.creator_id

    async def _seat_to_ai(self, loaded: Loaded, seat: int, kind: str) -> None:
        old = loaded.row.seats[seat]
        name = f"{old.name} (AI)" if not old.name.endswith("(AI)") else old.name
        await self.storage.update_seat(loaded.row.id, seat, user_id=None, ai_kind=kind, name=name)
        loaded.row.seats[seat] = SeatRow(seat, None, kind, name, None)

    async def resign(self, game_id: int, user_id: int) -> Outcome:
        """Leave a running game: an AI takes the seat over (its score still counts)."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            self._check_active(loaded)
            seat = loaded.row.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_your_game", f"You are not playing in game #{game_id}.")
            name = loaded.row.seats[seat].name
            await self._seat_to_ai(loaded, seat, "heuristic")
            lines = [f"{name} resigned; an AI plays the seat from now on."]
            log.info("game=%s seat=%s resign", game_id, seat)
            await self._run_ai(loaded, lines)
            await self._reschedule(loaded)
            return self._outcome(loaded, lines, board_changed=True)

    async def replace_with_ai(
        self, game_id: int, by_user: int, seat: int, *, is_admin: bool = False, kind: str = "heuristic"
    ) -> Outcome:
        """Creator/admin hands ``seat`` to an AI (an absent player)."""
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            self._check_active(loaded)
            if not self._may_manage(loaded.row, by_user, is_admin):
                raise ServiceError("forbidden", "Only the game's creator or a server admin can do that.")
            if not 0 <= seat < len(loaded.row.seats):
                raise ServiceError("bad_option", f"There is no seat {seat} in game #{game_id}.")
            if loaded.row.seats[seat].is_ai:
                raise ServiceError("bad_option", f"Seat {seat} is already played by an AI.")
            name = loaded.row.seats[seat].name
            await self._seat_to_ai(loaded, seat, kind)
            lines = [f"{name}'s seat is now played by an AI."]
            await self._run_ai(loaded, lines)
            await self._reschedule(loaded)
            return self._outcome(loaded, lines, board_changed=True)

    async def kick(self, game_id: int, by_user: int, target_user: int, *, is_admin: bool = False) -> Outcome:
        """Creator/admin removes a player: from the lobby, or to an AI seat once started."""
        loaded = await self.load(game_id)
        if not self._may_manage(loaded.row, by_user, is_admin):
            raise ServiceError("forbidden", "Only the game's creator or a server admin can kick players.")
        seat = loaded.row.seat_of(target_user)
        if seat is None:
            raise ServiceError("bad_option", "That user is not in this game.")
        if loaded.row.status == LOBBY:
            async with self.lock(game_id):
                loaded = await self._lobby(game_id)
                seats = [s for s in loaded.row.seats if s.user_id != target_user]
                await self._save_lobby(loaded, seats)
                return Outcome(game_id, 0, ["A player was removed from the lobby."])
        return await self.replace_with_ai(game_id, by_user, seat, is_admin=True)

    async def abort(self, game_id: int, user_id: int, *, is_admin: bool = False) -> Outcome:
        async with self.lock(game_id):
            loaded = await self.load(game_id)
            if loaded.row.status not in (LOBBY, ACTIVE):
                raise ServiceError("game_over", f"Game #{game_id} is already {loaded.row.status}.")
            if not self._may_manage(loaded.row, user_id, is_admin):
                raise ServiceError("forbidden", "Only the game's creator or a server admin can abort it.")
            await self.storage.update_game(game_id, status=ABORTED)
            await self.storage.clear_schedule(game_id)
            loaded.row.status = ABORTED
            log.info("game=%s aborted", game_id)
            return Outcome(game_id, loaded.row.seq, [f"Game #{game_id} was aborted."])

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Record the game's thread (None: the thread is gone, the game is played in its channel)."""
        await self.storage.update_game(game_id, thread_id=thread_id)
        loaded = self._cache.get(game_id)
        if loaded is not None:
            loaded.row.thread_id = thread_id

    # ---- views -----------------------------------------------------------------------------
    async def public_view(self, game_id: int) -> dict[str, Any]:
        """The spectator view (no hands, no tickets), with seat names added."""
        loaded = await self.load(game_id)
        if loaded.game is None:
            raise ServiceError("not_started", f"Game #{game_id} has not started yet.")
        view = dict(loaded.game.view(None))
        view["names"] = [s.name for s in loaded.row.seats]
        view["game_id"] = game_id
        view["seq"] = loaded.row.seq
        return view

    async def private_view(self, game_id: int, user_id: int) -> dict[str, Any]:
        """What ``user_id``'s seat may see (hand, tickets, offers). Only for ephemeral replies."""
        loaded = await self.load(game_id)
        if loaded.game is None:
            raise ServiceError("not_started", f"Game #{game_id} has not started yet.")
        seat = loaded.row.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_your_game", f"You are not playing in game #{game_id}.")
        view = dict(loaded.game.view(seat))
        view["names"] = [s.name for s in loaded.row.seats]
        view["game_id"] = game_id
        view["seq"] = loaded.row.seq
        return view

    async def legal_actions(self, game_id: int, user_id: int) -> list[Any]:
        """The user's legal actions now (empty if not their turn)."""
        loaded = await self.load(game_id)
        if loaded.game is None or loaded.row.status != ACTIVE:
            return []
        seat = loaded.row.seat_of(user_id)
        if seat is None:
            return []
        return list(loaded.game.legal_actions(seat))

    async def log_lines(self, game_id: int, limit: int = 15) -> list[str]:
        """The last actions, public text only."""
        loaded = await self.load(game_id)
        names = [s.name for s in loaded.row.seats]
        out = []
        for a in await self.storage.actions(game_id, limit=limit):
            who = names[a.seat] if a.seat < len(names) else f"Seat {a.seat}"
            out.append(f"{a.seq}. {who}: {action_public_text(str(a.action_json.get('kind', '')), a.action)}")
        return out

    async def game_row(self, game_id: int) -> GameRow:
        return (await self.load(game_id)).row

    async def my_turns(self, user_id: int) -> list[tuple[GameRow, bool]]:
        """Every lobby/active game of ``user_id`` across servers, with whether they must act now."""
        out: list[tuple[GameRow, bool]] = []
        for game_id in await self.storage.games_of_user(user_id):
            try:
                loaded = await self.load(game_id)
            except ServiceError:
                continue
            seat = loaded.row.seat_of(user_id)
            mine = bool(loaded.game is not None and loaded.row.status == ACTIVE and seat in loaded.game.seats_to_act())
            out.append((loaded.row, mine))
        return out

    async def game_for_channel(self, channel_id: int, user_id: int | None = None) -> int | None:
        """The game played in this thread/channel (preferring one the user sits in)."""
        ids = await self.storage.games_in_channel(channel_id)
        if user_id is not None:
            for gid in ids:
                try:
                    if (await self.load(gid)).row.seat_of(user_id) is not None:
                        return gid
                except ServiceError:
                    continue
        return ids[0] if ids else None

    @staticmethod
    def _generic_summary(game_name: str, config: dict[str, Any]) -> str:
        """Summary for games other than TTR, from a fresh game's public view (deck label, provisional data)."""
        lo, hi = player_range(game_name, config)
        try:
            view = rules_games.new_game(game_name, config, lo, 0).view(None)
        except Exception as exc:  # noqa: BLE001
            raise ServiceError("bad_option", str(exc)) from None
        lines = [f"**{game_name.replace('-', ' ').title()}**, {lo}-{hi} players"]
        if view.get("modules"):
            lines.append("Modules: " + ", ".join(map(str, view["modules"])))
        if view.get("deck_label"):
            lines.append(f"⚠ Deck: {view['deck_label']}")
        if view.get("provisional"):
            lines.append("⚠ Provisional values: " + "; ".join(map(str, view["provisional"])))
        return "\n".join(lines)

    async def rules_summary(self, game_id: int | None = None, *, game_name: str = "ttr",
                            config: dict[str, Any] | None = None) -> str:
        """Board flags and which data is provisional (stand-in tickets, provisional merchandise)."""
        if game_id is not None:
            row = (await self.load(game_id)).row
            game_name, config = row.game_name, row.config
        config = config or {}
        if game_name != "ttr":
            return self._generic_summary(game_name, config)
        from rules.ttr.board import load_board

        try:
            board = load_board(str(config.get("board", "usa")), config.get("variant"))
        except Exception as exc:  # noqa: BLE001
            raise ServiceError("bad_option", str(exc)) from None
        r = board.rules
        lines = [f"**{board.name}** ({r.get('edition', board.name)}), {r['players'][0]}-{r['players'][1]} players"]
        lines.append(f"Trains per player: {r.get('trains')}; stations: {r.get('stations', 0)}")
        if r.get("passengers"):
            lines.append(f"Passengers per player: {r['passengers']}")
        lines.append("Route points: " + ", ".join(f"{k}→{v}" for k, v in r.get("route_points", {}).items()))
        if r.get("double_routes_min_players"):
            lines.append(f"Double routes usable by two players from {r['double_routes_min_players']} players")
        if r.get("longest_path_bonus"):
            lines.append(f"Longest path bonus: {r['longest_path_bonus']}")
        if r.get("most_tickets_bonus"):
            lines.append(f"Most tickets bonus: {r['most_tickets_bonus']}")
        if r.get("locomotives"):
            lines.append(f"Locomotives: {r['locomotives']}")
        if board.variant:
            lines.append(f"Variant: {board.variant}: {r.get('variant_description', '')}")
        elif r.get("variants"):
            lines.append("Variants: " + "; ".join(f"{k}: {v}" for k, v in r["variants"].items()))
        if r.get("ticket_deck_is_standin"):
            lines.append(f"⚠ {r.get('ticket_deck_label')}")
        provisional = sorted(c for c, (_, _, status) in board.merchandise.items() if status != "verified")
        if provisional:
            lines.append(f"⚠ Provisional merchandise values at: {', '.join(provisional)}")
        return "\n".join(lines)
