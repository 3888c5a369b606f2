"""Turn timers: reminders before a turn runs out and the game's policy when it does.

Every armed timer has a reminder before its timeout (never in the past when armed: see
:meth:`GameService._reschedule`), and a pass sends due reminders before due timeouts.

Due times live in the ``schedule`` table (written by :class:`~bot.service.GameService` after each
action), so they survive restarts: after a restart the first :meth:`Scheduler.tick` handles
everything that fell due while the bot was down. The clock is injectable for tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.service import GameService

log = logging.getLogger("conductor.scheduler")

ReminderHook = Callable[[int, list[str], float | None], Awaitable[None]]
TickHook = Callable[[], Awaitable[object]]
H = TypeVar("H")


def _subscribe(hooks: list[H], hook: H) -> Callable[[], None]:
    hooks.append(hook)

    def unsubscribe() -> None:
        if hook in hooks:
            hooks.remove(hook)

    return unsubscribe


class Scheduler:
    """Polls the schedule every ``interval`` seconds; ``tick()`` does one pass (tests call it)."""

    def __init__(
        self,
        service: GameService,
        *,
        clock: Callable[[], float] = time.time,
        interval: float = 30.0,
        on_reminder: ReminderHook | None = None,
        on_tick: TickHook | None = None,
        hold: float = 300.0,
    ) -> None:
        """Front ends follow the scheduler by subscribing (:meth:`subscribe_reminders`,
        :meth:`subscribe_ticks`); ``on_reminder`` and ``on_tick`` subscribe one of each at once.
        A timeout's outcome reaches the front ends through the service's outcome stream."""
        self.service = service
        self.clock = clock
        self.interval = interval
        self.hold = hold
        self._reminders: list[ReminderHook] = []
        self._ticks: list[TickHook] = []
        if on_reminder is not None:
            self.subscribe_reminders(on_reminder)
        if on_tick is not None:
            self.subscribe_ticks(on_tick)
        self._task: asyncio.Task[None] | None = None

    def subscribe_reminders(self, hook: ReminderHook) -> Callable[[], None]:
        """Call ``hook(game_id, players, deadline)`` for every due reminder; returns an unsubscribe."""
        return _subscribe(self._reminders, hook)

    def subscribe_ticks(self, hook: TickHook) -> Callable[[], None]:
        """Call ``hook()`` after every pass (the Discord front end retries board posts that failed);
        returns an unsubscribe."""
        return _subscribe(self._ticks, hook)

    async def tick(self) -> int:
        """Handle every due entry once; returns how many were handled. Errors stay per game."""
        handled = 0
        # Claimed, not just read: in a cluster each due timer is handed to one process (see
        # ScheduleStore.claim_due); one that dies holding it leaves it to another after ``hold``.
        due = await self.service.storage.claim_due(self.clock(), self.hold)
        # Reminders first: a reminder and a timeout due in the same pass (a short timer, a bot that
        # was down) still reach the player in that order, so no turn times out unannounced.
        due.sort(key=lambda entry: (entry[1] != "reminder", entry[2]))
        for game_id, kind, _due, seq in due:
            try:
                if kind == "reminder":
                    target = await self.service.reminder_targets(game_id, seq)
                    await self.service.storage.delete_schedule_entry(game_id, kind, seq)
                    if target is not None and target[0]:
                        for remind in list(self._reminders):
                            await remind(game_id, target[0], target[1])
                elif kind == "timeout":
                    outcome = await self.service.timeout(game_id, seq)
                    if outcome is None:
                        await self.service.storage.delete_schedule_entry(game_id, kind, seq)
                    else:
                        log.info("game=%s seq=%s timeout handled", game_id, seq)
                else:
                    await self.service.storage.delete_schedule_entry(game_id, kind, seq)
                handled += 1
            except Exception:  # noqa: BLE001 - one game's failure must not stop the others
                log.exception("game=%s schedule %s failed", game_id, kind)
                await self.service.storage.delete_schedule_entry(game_id, kind, seq)
        try:
            handled += len(await self.service.retry_stalled())
        except Exception:  # noqa: BLE001
            log.exception("retrying stalled games failed")
        for after_tick in list(self._ticks):
            try:
                await after_tick()
            except Exception:  # noqa: BLE001
                log.exception("scheduler tick hook failed")
        return handled

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # noqa: BLE001
                log.exception("scheduler tick failed")
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="conductor-scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
