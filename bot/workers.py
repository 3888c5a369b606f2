"""Where the bot's CPU-heavy work runs: board pictures and AI thinking, never on the event loop.

A bot process answers every interaction on one asyncio event loop. A board picture costs tens of
milliseconds of CPU and an AI search about a second: on the loop either would hold up every other
player; in a thread they still take turns with the loop for the one interpreter lock, and one
process can never use a second core. :class:`Workers` owns a pool of worker processes (by default
one per core), so pictures and AI moves run beside the loop on every core of the machine.

What crosses to a worker is plain data only: a view (a JSON-able dict) for a picture; for an AI
move, the AI object itself (its random stream and plans) and the JSON of the observation copy its
seat may know, so a worker never holds another player's hidden cards. The AI comes back advanced
as if it had thought at home, so a game plays the same moves in a pool or in threads.

Workers are started with the ``spawn`` method (a fork of a process running the loop's threads
could copy a held lock), and each builds the renderers' cached layers before its first task. With size 0, or when the pool cannot start,
the same work runs in threads as before; a worker that dies is replaced, its task done in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.games.api import FRONT_ENDS, FrontEnd, register_front_end
from bot.games.api import find_front_end as front_end
from lang import CatalogError, M
from rules.games import GAMES, find_game
from rules.protocol import AI, Action, Game

log = logging.getLogger("conductor.workers")

T = TypeVar("T")

#: The environment variable that sets the pool's size (0: threads only).
SIZE_VARIABLE = "CONDUCTOR_WORKERS"
#: How long start-up waits for every worker to be warm before it serves anyway (seconds).
START_TIMEOUT = 300.0
#: How many times a pool whose worker died is replaced before the bot stays with threads.
MAX_RESTARTS = 3


class WorkerCountError(CatalogError, ValueError):
    """A pool size that is not a whole number from 0 up (an operator's setting, read at start-up),
    with its sentence for the operator in their language (see :class:`lang.CatalogError`)."""


def _negative(size: int) -> WorkerCountError:
    return WorkerCountError(
        "negative_workers", M("The number of worker processes must be 0 or more, not {size}.", size=size)
    )


def configured_size(explicit: int | None = None) -> int:
    """The pool size to use: ``explicit`` if given, else ``CONDUCTOR_WORKERS``, else one worker per
    core. 0 means threads only. Raises :class:`WorkerCountError` for a size that is not a whole
    number from 0 up."""
    if explicit is None:
        raw = os.environ.get(SIZE_VARIABLE, "").strip()
        if not raw:
            return os.cpu_count() or 1
        if not (raw.isascii() and raw.isdigit()):
            raise WorkerCountError(
                "bad_worker_variable",
                M(
                    "{variable}={value} is not a number of worker processes (0 or more).",
                    variable=SIZE_VARIABLE,
                    value=repr(raw),
                ),
            )
        explicit = int(raw)
    if explicit < 0:
        raise _negative(explicit)
    return explicit


def prewarm_renderers_here() -> list[tuple[str, float]]:
    """Build every registered game's cached picture layers in this process (its drawing's
    ``prewarm``); returns (game title, seconds) for each game warmed."""
    warmed: list[tuple[str, float]] = []
    for spec in GAMES.values():
        drawing = front_end(spec.name).drawing
        if drawing is None:
            continue
        started = time.perf_counter()
        if drawing.prewarm():
            warmed.append((spec.title, time.perf_counter() - started))
    return warmed


def _worker_start(prewarm: bool, ready: Any, fronts: tuple[FrontEnd, ...] = ()) -> None:
    """Initializer of every worker process: leave Ctrl-C to the bot (it shuts the pool down), take
    the front ends the bot registered (a spawned process imports no list of games: the bot hands
    over its registered ones, a test's toy game too), warm the renderers, then report ready with
    this process's id. Workers keep the bot's priority: a
    lower one would leave boards waiting behind other programs on a shared machine, and the event
    loop, a process of its own, gets its share of the CPU whatever the workers do."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for front in fronts:
        if front.game not in FRONT_ENDS:
            register_front_end(front)
    if prewarm:
        try:
            prewarm_renderers_here()
        except Exception:  # noqa: BLE001 - a cold renderer is slower, not wrong
            log.exception("worker %d: renderer prewarm failed", os.getpid())
    ready.put(os.getpid())


def _think(game_name: str, observation: dict[str, Any], seat: int, ai: AI) -> tuple[dict[str, Any], AI]:
    """In a worker: ``ai``'s move for ``seat`` in the observation copy given as JSON, and the AI as
    it stands after thinking (its random stream advanced)."""
    game = find_game(game_name).from_json(observation)
    action: Action = ai.choose(game, seat)
    return dict(action.to_json()), ai


class Workers:
    """The bot's pool of worker processes for pictures and AI moves (see the module's docstring).

    ``size`` worker processes (0: threads); ``prewarm``: each worker builds the renderers' cached
    layers before it takes a task. ``await start()`` before use (until then, and whenever the pool
    is down, work runs in threads); ``await close()`` stops and reaps every worker. ``done`` counts
    the tasks finished in worker processes and ``in_threads`` those finished in threads, by kind
    (``"render"``, ``"think"``).
    """

    def __init__(self, size: int = 0, *, prewarm: bool = True, start_timeout: float = START_TIMEOUT) -> None:
        if size < 0:
            raise _negative(size)
        self.size = size
        self.prewarm = prewarm
        self.start_timeout = start_timeout
        self.pids: tuple[int, ...] = ()
        self.done: Counter[str] = Counter()
        self.in_threads: Counter[str] = Counter()
        self._pool: ProcessPoolExecutor | None = None
        self._ready: Any = None
        self._restarts = 0
        self._restarting: asyncio.Task[None] | None = None
        self._closed = False
        self._portables: dict[int, tuple[AI, bool]] = {}  # by id(ai): (the AI, whether it pickles)

    @property
    def pooled(self) -> bool:
        """True while work goes to worker processes (False: threads)."""
        return self._pool is not None

    async def start(self) -> None:
        """Start the worker processes and wait (up to ``start_timeout``) until each is warm. If the
        pool cannot start, log why and keep to threads: the bot serves either way."""
        if self.size <= 0 or self._pool is not None or self._closed:
            return
        started = time.perf_counter()
        context = multiprocessing.get_context("spawn")
        ready = context.Queue()
        pool: ProcessPoolExecutor | None = None
        try:
            pool = ProcessPoolExecutor(
                self.size,
                mp_context=context,
                initializer=_worker_start,
                initargs=(self.prewarm, ready, tuple(FRONT_ENDS.values())),
            )
            loop = asyncio.get_running_loop()
            # One task per worker makes the pool start every worker now rather than at the first
            # board; each task runs once some worker has finished its initializer.
            await asyncio.wait_for(
                asyncio.gather(*(loop.run_in_executor(pool, os.getpid) for _ in range(self.size))),
                self.start_timeout,
            )
            pids: list[int] = []
            deadline = time.monotonic() + self.start_timeout
            while len(pids) < self.size:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    log.warning(
                        "%d of %d workers warm after %.0f s; serving anyway",
                        len(pids),
                        self.size,
                        self.start_timeout,
                    )
                    break
                with contextlib.suppress(queue.Empty):
                    pids.append(await asyncio.to_thread(ready.get, True, min(remaining, 1.0)))
        except Exception:  # noqa: BLE001 - no pool (no semaphores, no processes allowed): threads
            log.exception(
                "could not start %d worker processes; rendering and AI moves run in threads", self.size
            )
            if pool is not None:
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            ready.close()
            return
        if self._closed:  # closed while starting
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
            ready.close()
            return
        self._pool, self._ready, self.pids = pool, ready, tuple(pids)
        log.info("%d worker processes ready in %.1f s", len(pids), time.perf_counter() - started)

    async def render(
        self, draw: Callable[[dict[str, Any]], bytes | None], view: dict[str, Any]
    ) -> bytes | None:
        """``draw(view)`` in a worker process (``draw`` is a module-level function such as
        :func:`bot.present.render_board_png`, so that a worker can import it by name)."""
        try:
            result = await self._in_pool("render", draw, view)
        except _NoPool:
            result = await asyncio.to_thread(draw, view)
            self.in_threads["render"] += 1
        return result

    async def choose(self, ai: AI, game: Game, seat: int) -> Any:
        """``ai``'s move for ``seat`` in ``game``, thought out in a worker process. ``game`` must be an
        observation copy (only what the seat may know); ``ai`` is left as if it had thought here.
        An AI that cannot cross to a process (it holds something unpicklable) thinks in a thread."""
        if self._portable(ai):
            try:
                action_json, thought = await self._in_pool(
                    "think", _think, game.game_name, game.to_json(), seat, ai
                )
            except _NoPool:
                pass
            else:
                # the AI object in the service's cache carries on from where the worker's copy stopped
                state = getattr(thought, "__dict__", None)
                if state is not None:
                    ai.__dict__.update(state)
                return find_game(game.game_name).action_from_json(action_json)
        action = await asyncio.to_thread(ai.choose, game, seat)
        self.in_threads["think"] += 1
        return action

    def _portable(self, ai: AI) -> bool:
        """Whether ``ai`` can cross to a worker process (it pickles). Tried once per AI object: an
        AI's state stays the same kind of data from move to move."""
        key = id(ai)
        known = self._portables.get(key)
        if known is not None and known[0] is ai:
            return known[1]
        try:
            pickle.dumps(ai)
            portable = True
        except Exception:  # noqa: BLE001 - pickle raises several kinds for an unpicklable object
            portable = False
        if len(self._portables) > 4096:  # AIs of finished games: forget them
            self._portables.clear()
        self._portables[key] = (ai, portable)
        return portable

    async def _in_pool(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process; raises _NoPool when there is none (or it just died)."""
        pool = self._pool
        if pool is None:
            raise _NoPool
        try:
            result = await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            self._replace(pool)
            raise _NoPool from None
        self.done[kind] += 1
        return result

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A worker died (killed, out of memory): drop the pool and start a new one in the background;
        until it is warm, work runs in threads."""
        if self._pool is not broken:
            return
        self._pool = None
        log.error("a worker process died; replacing the pool (until then, threads)")
        broken.shutdown(wait=False, cancel_futures=True)
        if self._restarts < MAX_RESTARTS and not self._closed:
            self._restarts += 1
            self._restarting = asyncio.get_running_loop().create_task(self.start())

    async def close(self) -> None:
        """Stop every worker process and wait until each has exited (tasks not begun are cancelled)."""
        self._closed = True
        if self._restarting is not None:
            await asyncio.gather(self._restarting, return_exceptions=True)
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        if self._ready is not None:
            self._ready.close()
            self._ready = None


class _NoPool(Exception):
    """No worker process can take the task: do it in a thread."""
