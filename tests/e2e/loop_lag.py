"""A probe of the event loop's responsiveness: how long was the loop kept from running a task that
was ready to run?

:class:`LoopLagProbe` runs a task that asks to wake up every ``interval`` seconds and records, for
every wake-up, how late it came. On a machine busier than its cores, part of any delay is the
operating system giving the CPU to other processes, which no design of ours can avoid; on Linux
the probe reads the loop thread's run-queue wait (``/proc/thread-self/schedstat``, the time the
thread was ready but had no CPU) and subtracts it. What remains is the time the loop spent on work
of its own or waiting for the interpreter lock held by another thread: the stall a design causes.
Where schedstat is missing, the stall is the raw lateness (a stricter measure).

Used by ``tests/e2e/test_loop_stall.py`` and ``bench/bench_load.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

SCHEDSTAT = Path("/proc/thread-self/schedstat")


def _open_schedstat() -> int | None:
    """A descriptor of the calling thread's schedstat (kept open: a wake-up re-reads it cheaply)."""
    try:
        return os.open(SCHEDSTAT, os.O_RDONLY)
    except OSError:
        return None


def _runqueue_wait(fd: int | None) -> float | None:
    """Seconds the thread of ``fd`` has spent runnable but waiting for a CPU, or None where unknown."""
    if fd is None:
        return None
    try:
        return int(os.pread(fd, 128, 0).split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


@dataclass
class LoopLagProbe:
    """``async with LoopLagProbe() as probe: ...``; then ``probe.max_stall`` (seconds, OS scheduling
    delay removed), ``probe.max_late`` (raw) and ``probe.wakeups``."""

    interval: float = 0.005
    wakeups: int = 0
    max_stall: float = 0.0
    max_late: float = 0.0
    runqueue_known: bool = False
    stalls: list[float] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LoopLagProbe:
        self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        fd = _open_schedstat()  # opened on the loop's thread: /proc/thread-self is this thread
        try:
            waited = _runqueue_wait(fd)
            self.runqueue_known = waited is not None
            before = time.monotonic()
            while True:
                # the probe's own measuring instrument: a timer, not a wait for some other thing to happen
                await asyncio.sleep(self.interval)
                now = time.monotonic()
                late = max(0.0, now - before - self.interval)
                waited_now = _runqueue_wait(fd)
                scheduler = (waited_now - waited) if waited is not None and waited_now is not None else 0.0
                stall = max(0.0, late - scheduler)
                self.wakeups += 1
                self.max_late = max(self.max_late, late)
                self.max_stall = max(self.max_stall, stall)
                self.stalls.append(stall)
                before, waited = now, waited_now
        finally:
            if fd is not None:
                os.close(fd)

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the stalls seen (seconds)."""
        if not self.stalls:
            return 0.0
        ordered = sorted(self.stalls)
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]
