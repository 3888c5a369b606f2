"""Optional compiled build of the Ticket to Ride engine's hot modules (mypyc).

Everything else about the package lives in pyproject.toml. With ``CONDUCTOR_COMPILE=1`` in the
environment, ``pip install .`` (or ``python setup.py build_ext --inplace`` in a checkout)
compiles the modules in ``COMPILED_MODULES`` to C extensions with mypyc (mypy, which provides
mypyc, is then an extra build requirement fetched from the package index; gcc and the Python
headers must be present). The pure-Python modules stay in the package and remain the reference:
if mypyc or the C compiler fails for any reason, the build says so and installs pure Python,
never a half-compiled engine.
Without the variable nothing is compiled.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILE_ENV = "CONDUCTOR_COMPILE"
MYPYC_REQUIREMENT = "mypy>=1.10"
# The engine's hot paths: move generation, transitions, state copies, scoring, move tables.
# spec.py is the boards' typed rule flags, read on every move. actions.py (frozen dataclasses
# with class-level kinds) and board.py (loading, module __getattr__, boards rebuilt through
# their __dict__ by tests) stay interpreted.
COMPILED_MODULES = (
    "rules/ttr/spec.py",
    "rules/ttr/state.py",
    "rules/ttr/tables.py",
    "rules/ttr/movegen.py",
    "rules/ttr/scoring.py",
    "rules/ttr/game.py",
)


def _wanted() -> bool:
    return os.environ.get(COMPILE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def _warn(message: str) -> None:
    print(f"conductor build: {message}; installing the pure-Python engine.", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Builds the mypyc extensions, or none at all: a failure removes whatever was built, so the
    package never holds a module whose shared runtime library is missing."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler missing, compile error: fall back, never fail the install
            _warn(f"compiling the engine failed ({exc})")
            self._remove_outputs()

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            for path in {Path(self.get_ext_fullpath(ext.name)),
                         Path(self.get_ext_filename(ext.name))}:
                if path.exists():
                    path.unlink()
        self.extensions = []


def _extensions() -> list[Any]:
    if not _wanted():
        return []
    try:
        from mypyc.build import mypycify

        return list(mypycify(list(COMPILED_MODULES), opt_level="3", debug_level="0"))
    except BaseException as exc:  # mypy missing or a type error under this mypy: pure Python  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        _warn(f"mypyc could not translate the engine ({exc!r})")
        return []


# Only a compiling build needs mypy: setuptools hands setup_requires to pip as extra build
# requirements, so a plain ``pip install .`` fetches nothing more than setuptools and wheel.
setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt},
      setup_requires=[MYPYC_REQUIREMENT] if _wanted() else [])
