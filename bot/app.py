"""The application: the one place where Conductor's core is assembled.

:class:`App` builds the store, the game service, the workers (board pictures, AI moves), the timers
(the turn scheduler and the tournaments' round deadlines), the tournament runner and the list of
registered games. Every front end (the Discord client, each terminal command, the web pages) is
handed an App and assembles nothing of the core itself; it follows the core through subscriptions:
the service's outcome stream, the scheduler's reminders and ticks, the tournament runner's
listeners.

Lifecycle::

    async with App.open(AppSettings(db_path)) as app:   # storage opened and migrated, workers up
        ...                                             # timers running if the settings say so

or ``await app.start()`` / ``app.start_timers()`` / ``await app.close()`` for a front end that
needs its own steps in between (the Discord client resumes games after its commands are
registered, and pairs tournament rounds only once connected). :meth:`App.close` stops the timers,
lets every committed outcome reach its subscribers, then closes the workers and the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from bot.games.catalog import BUILTIN_GAMES
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store.api import Store
from bot.store.choose import make_store
from bot.store.pg_conn import is_postgres_url
from bot.tournament.runner import TournamentService
from bot.web.links import PageLinks
from bot.workers import Workers, prewarm_renderers_here
from rules.games import GAMES
from rules.registry import GameSpec

log = logging.getLogger("conductor.app")


async def prewarm_renderers() -> None:
    """Build every renderer's cached layers in a worker thread (each renderer's ``prewarm``)."""
    for title, seconds in await asyncio.to_thread(prewarm_renderers_here):
        log.info("%s renderer ready in %.1f s", title, seconds)


@dataclass(frozen=True)
class AppSettings:
    """How one process runs the core.

    ``workers``: processes that draw boards and think for AI seats (0: threads); ``prewarm``: build
    the renderers' cached layers at start; ``timers``: run the turn scheduler and the tournaments'
    deadline checks every ``timer_interval`` seconds (off: a caller ticks them, as tests do);
    ``takeover_ai``: this server's AI kind for seats the bot takes over; ``web_url``: the public
    address of the web pages (None: front ends give no page links)."""

    db_path: str
    clock: Callable[[], float] = time.time
    workers: int = 0
    prewarm: bool = False
    timers: bool = False
    timer_interval: float = 30.0
    takeover_ai: str | None = None
    web_url: str | None = None
    process: str | None = None
    """This process's name in a shared (PostgreSQL) database; None: ``CONDUCTOR_PROCESS``, else host and pid."""


class App:
    """Conductor's core, assembled once (see the module docstring)."""

    def __init__(self, settings: AppSettings) -> None:
        self.settings = settings
        self.clock = settings.clock
        # SQLite (the embedded default) or PostgreSQL, as ``db_path`` says (see bot.store.choose).
        self.storage: Store = make_store(settings.db_path, settings.clock, process=settings.process)
        self.service = GameService(self.storage, clock=settings.clock, takeover_ai=settings.takeover_ai)
        self.workers = Workers(settings.workers, prewarm=settings.prewarm)
        self.service.workers = self.workers
        self.scheduler = Scheduler(self.service, clock=settings.clock, interval=settings.timer_interval)
        # Tournaments follow their tables' games on the outcome stream; front ends attach listeners.
        self.tournaments = TournamentService(self.service)
        self.service.stream.subscribe(self.tournaments)
        # Where a front end links a game's or an event's web page (bot/web serves them).
        self.links = PageLinks(self.storage.web, settings.web_url)
        self._tournament_clock: asyncio.Task[None] | None = None
        self._started = False
        self._closed = False

    @property
    def games(self) -> tuple[GameSpec, ...]:
        """Every registered game, in registration order: the list of games
        (:data:`bot.games.catalog.BUILTIN_GAMES`, registered when this module is imported) and any
        registered since (a test's toy game)."""
        assert BUILTIN_GAMES  # the import above is what registers them
        return tuple(GAMES.values())

    @property
    def data_dir(self) -> Path:
        """The folder for files a front end keeps (attached card files): beside a SQLite file;
        ``CONDUCTOR_DATA_DIR`` (default: the working folder) with PostgreSQL."""
        if is_postgres_url(self.settings.db_path):
            return Path(os.environ.get("CONDUCTOR_DATA_DIR") or ".")
        return Path(self.settings.db_path).parent

    # ---- lifecycle ------------------------------------------------------------------------------
    async def start(self) -> App:
        """Open (and migrate) the store and start the workers; once, whoever calls it first."""
        if self._started:
            return self
        self._started = True
        await self.storage.open()
        await self.workers.start()  # each worker process warms its own renderers
        if self.settings.prewarm and not self.workers.pooled:
            await prewarm_renderers()
        return self

    async def resume(self) -> tuple[list[int], list[int]]:
        """Load every unfinished game (AI seats due to act play): ``(ok_ids, broken_ids)``."""
        return await self.service.resume_all()

    def start_timers(self) -> None:
        """Start the turn scheduler, if the settings run timers."""
        if self.settings.timers:
            self.scheduler.start()

    async def start_tournaments(self) -> None:
        """Record what ended while nobody listened, pair what is due, then (with timers) check
        round deadlines at the timers' interval. A front end that opens threads for tables calls
        this once it can (Discord: after connecting)."""
        await self.tournaments.resume()
        if self.settings.timers and self._tournament_clock is None:
            self._tournament_clock = asyncio.create_task(self._tournament_deadlines())

    async def _tournament_deadlines(self) -> None:
        while True:
            try:
                await self.tournaments.tick()
            except Exception:  # noqa: BLE001 - one failed check must not stop the next
                log.exception("tournament deadline check failed")
            await asyncio.sleep(self.settings.timer_interval)

    async def stop_timers(self) -> None:
        """Stop the tournament deadline checks and the scheduler (no new timer fires after this)."""
        if self._tournament_clock is not None:
            self._tournament_clock.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._tournament_clock
            self._tournament_clock = None
        await self.scheduler.stop()

    async def close(self) -> None:
        """Stop the timers, deliver every committed outcome, close the workers, then the store."""
        if self._closed:
            return
        self._closed = True
        await self.stop_timers()
        await self.service.stream.drain()
        await self.workers.close()
        await self.storage.close()

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, settings: AppSettings) -> AsyncIterator[App]:
        """An App started (timers too, if the settings say so) and closed after the block."""
        app = cls(settings)
        try:
            await app.start()
            app.start_timers()
            yield app
        finally:
            await app.close()
