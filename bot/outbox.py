"""The outcome stream across processes: the outbox follower.

Every move committed to the action log is also written, in the same transaction, to the store's
outbox (:class:`bot.store.api.Outbox`; a trigger, so no write path can forget it). The process
that committed a move publishes its outcome in memory as before (:mod:`bot.stream`); a front end
that posts outcomes marks what it posted. The :class:`OutboxFollower` covers the rest:

- a move committed by **another process** (PostgreSQL: its notice arrives by LISTEN/NOTIFY at
  the commit) is handed to ``post`` here, which posts it if this process posts for the game (the
  Discord adapter: if its shards own the game's server) and marks it posted;
- after every (re)connection of the listener, and once at start, every unposted move is read
  back (the catch-up): at start that is everything a crash between a commit and its post left
  behind, whichever process committed it; after a reconnection, what other processes committed
  while this one was not listening (its own moves are still in its memory).

``post(game_id)`` posts whatever of the game is unposted, in order, once; calls for one game never
overlap and calls that arrive while one runs are folded into one more run. SQLite (one process)
has no notices: its follower only does the catch-up at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.store.api import Outbox

log = logging.getLogger("conductor.outbox")

POSTED_KEPT = 3600.0
"""Seconds a posted move stays in the outbox before a catch-up forgets it."""


class OutboxFollower:
    """Follows the outbox of ``outbox`` and hands each game with unposted moves to ``post``."""

    def __init__(
        self,
        outbox: Outbox,
        post: Callable[[int], Awaitable[None]],
        clock: Callable[[], float],
        *,
        left_behind: Callable[[list[int]], object] | None = None,
    ) -> None:
        """``left_behind(game_ids)``, if given, takes the games the first catch-up finds (what
        earlier runs left unposted) instead of ``post``: a front end posts those paced, after the
        people it is serving (Discord's :class:`~bot.discord_app.ui.BoardReposts`)."""
        self.outbox = outbox
        self.post = post
        self.clock = clock
        self.left_behind = left_behind
        self.catch_ups = 0  # how many catch-up reads were made (tests wait on it)
        self._task: asyncio.Task[None] | None = None
        self._running: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._caught_up = asyncio.Event()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._follow(), name="conductor-outbox")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        self._running.clear()

    async def caught_up(self) -> None:
        """Wait for the first catch-up read (tests)."""
        await self._caught_up.wait()

    async def idle(self) -> None:
        """Wait until no game is being posted (tests, shutdown)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def _follow(self) -> None:
        first = True
        while True:
            try:
                async for notice in self.outbox.notices():
                    if notice is None:
                        await self._catch_up(everything=first)
                        first = False
                    elif notice.origin != self.outbox.origin:
                        self.want(notice.game_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the follower must outlive any one failure
                log.exception("outbox: following failed; starting again")
                await asyncio.sleep(1.0)

    async def _catch_up(self, *, everything: bool) -> None:
        try:
            rows = await self.outbox.unposted()
            await self.outbox.prune(self.clock() - POSTED_KEPT)
        except Exception:  # noqa: BLE001 - the next reconnection or start reads again
            log.exception("outbox: the catch-up read failed")
            return
        games = sorted({r.game_id for r in rows if everything or r.origin != self.outbox.origin})
        if games:
            log.info("outbox: %d games with unposted moves", len(games))
        if everything and self.left_behind is not None:
            if games:
                self.left_behind(games)
        else:
            for gid in games:
                self.want(gid)
        self.catch_ups += 1
        self._caught_up.set()

    def want(self, game_id: int) -> None:
        """Post what the game has unposted (now, or once the run under way ends)."""
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running[game_id] = asyncio.get_running_loop().create_task(self._post(game_id))

    async def _post(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    await self.post(game_id)
                except Exception:  # noqa: BLE001 - one game must not stop the others
                    log.exception("game=%s: posting from the outbox failed", game_id)
                if game_id not in self._again:
                    return
        finally:
            self._running.pop(game_id, None)
