"""A probe of the event loop's responsiveness: how long was the loop kept from running a task that
was ready to run?

:class:`LoopLagProbe` runs a task that asks to wake up every ``interval`` seconds and records, for
every wake-up, how late it came. On a machine busier than its cores, part of any delay is the
operating system giving the CPU to other processes, which no design of ours can avoid: the loop's
thread waits for a CPU, or it waits for the interpreter lock held by another thread of the process
(a database thread) that itself waits for a CPU. On Linux the probe reads, for every thread of the
process, its run-queue wait (``/proc/self/task/*/schedstat``: the time it was ready but had no
CPU) and subtracts the largest of them from each lateness (the largest, not the sum: the waits may
overlap, and a smaller correction only makes the measure stricter). What remains is the time the
loop spent on work of its own or waiting for the interpreter lock while its holder ran: the stall
a design causes, as it would be on a machine with a free core. Where schedstat is missing, the
stall is the raw lateness (stricter still).

Used by ``tests/e2e/test_loop_stall.py`` and ``bench/bench_load.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from dataclasses import dataclass, field

TASKS = "/proc/self/task"


class _RunQueueWaits:
    """Run-queue wait (seconds) of every thread of this process, read through descriptors kept open
    (a wake-up costs one pread per thread; the threads are listed again at most every ``relist``
    seconds: a thread started since then is left out of the correction, which only makes the
    measure stricter)."""

    def __init__(self, relist: float = 0.5) -> None:
        self.fds: dict[str, int] = {}
        self.relist = relist
        self.listed_at = -relist
        self.tids: set[str] = set()

    def read(self) -> dict[str, float] | None:
        now = time.monotonic()
        if now - self.listed_at >= self.relist:
            try:
                self.tids = set(os.listdir(TASKS))
            except OSError:
                return None
            self.listed_at = now
        tids = self.tids
        for tid in set(self.fds) - tids:
            os.close(self.fds.pop(tid))
        waits: dict[str, float] = {}
        for tid in tids:
            try:
                fd = self.fds.get(tid)
                if fd is None:
                    fd = self.fds[tid] = os.open(f"{TASKS}/{tid}/schedstat", os.O_RDONLY)
                waits[tid] = int(os.pread(fd, 128, 0).split()[1]) / 1e9
            except (OSError, IndexError, ValueError):
                self.listed_at = -self.relist  # a thread that just ended: list them again next time
                continue
        return waits or None

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)
        self.fds.clear()


@dataclass
class LoopLagProbe:
    """``async with LoopLagProbe() as probe: ...``; then ``probe.max_stall`` (seconds, operating
    system scheduling delay removed), ``probe.max_late`` (raw) and ``probe.wakeups``."""

    interval: float = 0.005
    wakeups: int = 0
    max_stall: float = 0.0
    max_late: float = 0.0
    runqueue_known: bool = False
    cpu: float = 0.0  # the probe's own CPU seconds (its measuring, between its sleeps)
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
        threads = _RunQueueWaits()
        try:
            waited = threads.read()
            self.runqueue_known = waited is not None
            before = time.monotonic()
            while True:
                # the probe's own measuring instrument: a timer, not a wait for some other thing to happen
                await asyncio.sleep(self.interval)
                spent = time.thread_time()
                now = time.monotonic()
                late = max(0.0, now - before - self.interval)
                waited_now = threads.read()
                scheduler = 0.0
                if waited is not None and waited_now is not None:
                    scheduler = max(
                        (w - waited[t] for t, w in waited_now.items() if t in waited), default=0.0
                    )
                stall = max(0.0, late - scheduler)
                self.wakeups += 1
                self.max_late = max(self.max_late, late)
                self.max_stall = max(self.max_stall, stall)
                self.stalls.append(stall)
                before, waited = now, waited_now
                self.cpu += time.thread_time() - spent
        finally:
            threads.close()

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the stalls seen (seconds)."""
        if not self.stalls:
            return 0.0
        ordered = sorted(self.stalls)
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]
