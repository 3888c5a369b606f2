"""What every bench script shares: the ``--smoke`` flag, its wording, and a run that always ends.

``--smoke`` runs a bench at a size that finishes in seconds (CI runs every bench so, through
``tests/bench/test_bench_smoke.py``, so that none rots). A smoke run prints the same figures and
budget lines as a full one, each verdict marked as not a measurement: a sample that small says
nothing about a budget, so a smoke run never fails on one; it fails (a non-zero exit) when the bench
crashes or hangs.

:func:`run_async` runs an asyncio bench so that it always ends: whatever ``main`` ends with (a
return or an exception, from the bench or from the asyncio machinery under it), what follows
(cancelling leftover tasks, closing the loop, joining threads at interpreter exit) gets
``GRACE`` seconds; past that the stacks of every thread are printed and the process exits 1
instead of hanging. In smoke mode the whole run gets ``SMOKE_LIMIT`` seconds, with the same end.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import sys
import traceback
from collections.abc import Callable, Coroutine
from typing import Any, NoReturn

#: What ``--smoke`` means, for every bench's ``--help``.
SMOKE_HELP = (
    "smoke size: finishes in seconds, prints every figure and budget line, and is not a "
    "measurement (a missed budget does not fail it; a crash or a hang does)"
)
#: Appended to every verdict printed by a smoke run.
SMOKE_NOTE = " (smoke size: not a measurement)"
#: Seconds a finished or failed asyncio bench may take to tear down before it is ended.
GRACE = 60.0
#: Seconds a whole smoke run may take before it is ended with every thread's stack printed.
SMOKE_LIMIT = 240.0


def add_smoke(parser: argparse.ArgumentParser) -> None:
    """Add the uniform ``--smoke`` flag to a bench's parser."""
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)


def smoke_requested(argv: list[str] | None = None) -> bool:
    """Whether ``--smoke`` is on the command line (before the bench parses it)."""
    return "--smoke" in (sys.argv[1:] if argv is None else argv)


def verdict(word: str, smoke: bool) -> str:
    """A verdict word (``PASS``, ``within``, ``OVER`` ...) as a run of this size may say it."""
    return word + smoke_note(smoke)


def smoke_note(smoke: bool) -> str:
    """What ends a verdict's line in a smoke run (nothing in a full one)."""
    return SMOKE_NOTE if smoke else ""


def guard_smoke(argv: list[str] | None = None) -> None:
    """In a smoke run, end the process (exit 1, every thread's stack printed) past ``SMOKE_LIMIT``."""
    if smoke_requested(argv):
        faulthandler.dump_traceback_later(SMOKE_LIMIT, exit=True)


def run(main: Callable[[], int | None]) -> NoReturn:
    """Run a synchronous bench's ``main`` and exit with its status (an exception exits 1)."""
    guard_smoke()
    sys.exit(main() or 0)


def run_async(main: Callable[[], Coroutine[Any, Any, int | None]]) -> NoReturn:
    """Run an asyncio bench's ``main`` and exit with its status; never hang (see the module's text)."""
    guard_smoke()

    async def guarded() -> int | None:
        try:
            return await main()
        finally:
            # From here on only teardown is left: it must end, or the process is ended.
            faulthandler.dump_traceback_later(GRACE, exit=True)

    try:
        status = asyncio.run(guarded())
    except BaseException as exc:  # noqa: BLE001 - any end but a clean one is a failure, printed here
        if isinstance(exc, SystemExit):
            raise
        traceback.print_exc()
        sys.stderr.flush()
        faulthandler.dump_traceback_later(GRACE, exit=True)  # threads left running must not keep us
        sys.exit(1)
    faulthandler.dump_traceback_later(GRACE, exit=True)
    sys.exit(status or 0)
