"""The outcome stream: every committed change of a game, delivered to every front end that follows.

:class:`~bot.service.GameService` publishes an :class:`Outcome` after each change it committed
(a move and the AI moves it triggered, a start, a timeout, a seat handed over, an abort). Front
ends (the Discord adapter, the terminal) subscribe instead of being called back by hand, so a move
made through one front end reaches every other that follows the game.

Delivery is per game and in ``seq`` order: each subscriber has one queue and one worker per game,
outcomes waiting behind a slow delivery are merged into one (their lines in order, the newest
board), and an outcome older than one already delivered is never delivered. The service also
publishes each step of a request (a move, then each AI answer) as an unsettled outcome: a
subscriber with ``every_step = True`` (the terminal, which draws a board per turn) gets each one;
any other (Discord: one message per request) gets them merged into the settled outcome that ends
the request. Publishing never
waits for delivery. An outcome carries everything needed to present it (public lines, the
spectator view, who is to act, the game's language and deadline, each seat's reference and each
seat's own view and legal actions), so a subscriber never calls back into the service for it.

A second process can follow the same games later: outcomes are derived only from committed state
(the game row and its action log, keyed by ``(game_id, seq)``), so a remote subscriber can be fed
from storage by seq without changing this interface.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import NotRequired, Protocol, TypedDict

from lang import Msg
from rules.protocol import Action, Event, FinalScore, Game
from rules.registry import Envelope

log = logging.getLogger("conductor.stream")


class TimerView(TypedDict):
    """A game's turn timer as a reader sees it (``text``: already in the reader's language)."""

    hours: float | None
    policy: str
    deadline: float | None
    text: str


class GameView(Envelope):
    """What a front end is handed of one seat (or a spectator): the common envelope of every game
    (its game-specific part under ``detail``, which only that game's front end reads, through the
    game's own view type) with the seat names, the game's number as players read it, the state's
    seq, its turn timer, in a seat's own view how many moves the seat has made, the language
    a picture drawn in another process is worded in, and the deadline a board shows."""

    names: list[str]
    game_id: int
    seq: int
    timer: TimerView
    moves: NotRequired[int]
    language: NotRequired[str]
    deadline: NotRequired[float | None]


@dataclass(frozen=True, slots=True)
class Line:
    """One public sentence. ``seat`` acted (its name is shown before ``text``); None: the game itself.

    ``text`` is the English sentence (logs, the record); ``said`` the same sentence kept for each
    reader's language (a ``lang.Msg``), ``event`` the engine's event it reports (kind and facts),
    which a presenter words in the reader's language (``bot.present.line_words``)."""

    seat: int | None
    text: str
    said: Msg | None = field(default=None, compare=False)
    event: Event | None = field(default=None, compare=False)

    def plain(self, names: tuple[str, ...] | list[str]) -> str:
        """The sentence with the actor's name, no markup (the terminal, logs)."""
        if self.seat is None or not 0 <= self.seat < len(names):
            return self.text
        return f"{names[self.seat]} {self.text}"


@dataclass(frozen=True, slots=True)
class Note:
    """A private sentence for one seat's player (``said``, in any reader's language): never shown
    to anyone else (a planned turn played or dropped, see :mod:`bot.service.plans`)."""

    seat: int
    player: str
    said: Msg


@dataclass(frozen=True, slots=True)
class SeatRef:
    """One seat as a front end addresses it: its player's reference (None: an AI plays it), the
    name shown for it, and whether an AI plays it."""

    player: str | None
    name: str
    is_ai: bool


class SeatViews(Protocol):
    """What each seat may see of the state an outcome reports, built on demand from that state
    alone: reading it never calls back into the service, and it never changes after the outcome
    was made (a later move makes a later outcome).

    ``view(seat)`` is the seat's envelope (its secrets under ``you``) with the service's additions
    (names, game number, seq, timer) and ``moves`` (how many actions the seat made: a private
    menu is stale once it moved), worded in the reader's (current) language; ``legal(seat)`` its
    legal actions (none once the game is not active); ``observation(seat)`` the game as that seat
    may know it (its own secrets as they are, everything hidden from it dealt again at random: what
    an AI of that seat is handed), for the rare fact a game's view leaves out."""

    def view(self, seat: int) -> GameView: ...

    def legal(self, seat: int) -> tuple[Action, ...]: ...

    def observation(self, seat: int) -> Game: ...


@dataclass(frozen=True)
class Outcome:
    """What happened in one game, for a front end to present.

    ``lines`` are public (safe for everyone); ``view`` is the spectator view after the change
    (None while the game has not started); ``to_act`` are the seats that must act now and ``ping``
    their player references (AI seats excluded). ``actor`` is the player whose request caused the
    change (None: a timer, the bot itself). ``settled`` is False for a step inside a request
    (more follows at once), True for the outcome that ends it.

    What a subscriber needs to present it comes with it, so that none calls back into the service:
    ``number`` (the game's number as its players read it), ``language`` (the game's public
    language), ``deadline`` (when the turn to act runs out; None without a timer or once over),
    ``seats`` (each seat's player reference, name and whether an AI plays it) and ``private``
    (each seat's own view and legal actions of the same state; None before the game started).
    """

    game_id: int
    seq: int
    game_name: str
    status: str
    names: tuple[str, ...] = ()
    lines: tuple[Line, ...] = ()
    to_act: tuple[int, ...] = ()
    ping: tuple[str, ...] = ()
    board_changed: bool = False
    over: bool = False
    scores: list[FinalScore] | None = None
    actor_seat: int | None = None
    actor: str | None = None
    view: GameView | None = field(default=None, compare=False)
    settled: bool = True
    number: int = 0
    language: str = "en"
    deadline: float | None = None
    seats: tuple[SeatRef, ...] = ()
    private: SeatViews | None = field(default=None, compare=False)
    # whether the game's settings let a player take back their own last move (rules/takeback.py)
    take_backs: bool = False
    # private sentences for single players, delivered to them alone (never in a public message)
    notes: tuple[Note, ...] = ()

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` holds in this outcome's state (None: not seated)."""
        return next((i for i, seat in enumerate(self.seats) if seat.player == player), None)

    def plain_lines(self) -> list[str]:
        return [line.plain(self.names) for line in self.lines]

    def merged_after(self, earlier: Outcome) -> Outcome:
        """This outcome with the lines of ``earlier`` (same game, not yet delivered) in front."""
        return replace(
            self,
            lines=earlier.lines + self.lines,
            board_changed=self.board_changed or earlier.board_changed,
            notes=earlier.notes + self.notes,
        )


class Subscriber(Protocol):
    """A front end following games: ``deliver`` is awaited once per (merged) outcome, in seq order.
    A subscriber may set ``every_step = True`` to receive unsettled steps one by one."""

    async def deliver(self, outcome: Outcome) -> None: ...


class _GameQueue:
    __slots__ = ("pending", "held", "worker", "last_seq")

    def __init__(self) -> None:
        self.pending: deque[Outcome] = deque()
        self.held: Outcome | None = None  # unsettled steps waiting for the end of their request
        self.worker: asyncio.Task[None] | None = None
        self.last_seq = -1


class OutcomeStream:
    """Fan-out of outcomes to subscribers, ordered per game (see the module docstring)."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        # kept after delivery: ``last_seq`` is what stops an older board from following a newer one
        self._queues: dict[tuple[int, int], _GameQueue] = {}

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Follow every game from now on; returns a function that unsubscribes."""
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def publish(self, outcome: Outcome) -> None:
        """Queue ``outcome`` for every subscriber; returns at once."""
        for subscriber in list(self._subscribers):
            key = (id(subscriber), outcome.game_id)
            queue = self._queues.get(key)
            if queue is None:
                queue = self._queues[key] = _GameQueue()
            queue.pending.append(outcome)
            if queue.worker is None or queue.worker.done():
                queue.worker = asyncio.get_running_loop().create_task(self._work(subscriber, queue))

    async def _work(self, subscriber: Subscriber, queue: _GameQueue) -> None:
        every_step = bool(getattr(subscriber, "every_step", False))
        while queue.pending:
            outcome, queue.held = queue.held, None
            while queue.pending:  # merge what waited behind a slow delivery
                step = queue.pending.popleft()
                outcome = step if outcome is None else step.merged_after(outcome)
                if every_step:
                    break
            assert outcome is not None
            if not outcome.settled and not every_step:
                queue.held = outcome
                continue
            if outcome.seq < queue.last_seq:
                log.warning(
                    "game=%s: outcome seq %s is older than the delivered %s; dropped",
                    outcome.game_id,
                    outcome.seq,
                    queue.last_seq,
                )
                continue
            try:
                await subscriber.deliver(outcome)
            except Exception:  # noqa: BLE001 - one front end's failure must not stop the stream
                log.exception(
                    "game=%s seq=%s: delivery to %s failed",
                    outcome.game_id,
                    outcome.seq,
                    type(subscriber).__name__,
                )
            queue.last_seq = max(queue.last_seq, outcome.seq)

    async def drain(self) -> None:
        """Wait until every published outcome has been delivered (tests, the terminal, shutdown)."""
        while True:
            workers = [
                q.worker for q in self._queues.values() if q.worker is not None and not q.worker.done()
            ]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)
