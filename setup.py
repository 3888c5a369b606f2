"""The Ticket to Ride engine's hot modules, compiled with mypyc by default.

Everything else about the package lives in pyproject.toml. ``pip install .`` compiles the
modules in ``COMPILED_MODULES`` to C extensions with mypyc (mypy, which provides mypyc, is a
build requirement fetched from the package index; gcc and the Python headers must be present).
``CONDUCTOR_COMPILE=0`` in the environment opts out. The pure-Python modules stay in the package
beside the extensions and remain the reference: if mypyc or the C compiler fails for any reason,
the build says so and installs pure Python, never a half-compiled engine.

Nothing compiled is ever written next to the sources: an editable install (``pip install -e .``)
or ``setup.py build_ext --inplace`` stays pure Python, because an extension module beside its
``.py`` file is imported instead of it and would go on running the old code once the source is
edited.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

COMPILE_ENV = "CONDUCTOR_COMPILE"
OPT_OUT_VALUES = ("0", "false", "no", "off")
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


# The setup.py commands that build the package (pip's build backend runs bdist_wheel); the others
# only describe it. Editable installs (pip runs editable_wheel) build their extensions in place.
BUILD_COMMANDS = frozenset({"build", "build_ext", "bdist_wheel", "bdist", "install"})
EDITABLE_COMMANDS = frozenset({"editable_wheel", "develop"})


def compile_wanted() -> bool:
    """Compiling is the default; ``CONDUCTOR_COMPILE=0`` (or false, no, off) opts out."""
    return os.environ.get(COMPILE_ENV, "").strip().lower() not in OPT_OUT_VALUES


def _warn(message: str) -> None:
    # A warning, not a print: pip shows a build's printed output only with -v, but it passes on
    # the warnings its build backend raises.
    warnings.warn(f"conductor build: {message}; installing the pure-Python engine.", stacklevel=2)


class CompiledDistribution(Distribution):
    """Declares the extensions before they exist, so the wheel is tagged for this platform and
    ``build_ext`` runs: the modules are only translated when ``build_ext`` runs, not for every
    metadata step pip asks of setup.py."""

    def has_ext_modules(self) -> bool:
        return compile_wanted() or super().has_ext_modules()


class OptionalBuildExt(build_ext):
    """Translates and builds the mypyc extensions, or none at all: a failure removes whatever
    was built, so the package never holds a module whose shared runtime library is missing."""

    def finalize_options(self) -> None:
        # The metadata steps (egg_info, dist_info) finalize this command too, to list the
        # extensions' sources: translating there would run mypyc three times per install.
        commands = set(self.distribution.commands)
        if not compile_wanted() or self.distribution.ext_modules:
            pass
        elif commands & EDITABLE_COMMANDS or self.inplace or getattr(self, "editable_mode", False):
            if not self.distribution.ext_modules and not getattr(
                self.distribution, "_conductor_warned", False
            ):
                self.distribution._conductor_warned = True  # type: ignore[attr-defined]
                _warn(
                    "an editable or in-place build is not compiled (an extension beside its source would "
                    "shadow every later edit of it); `pip install .` builds the compiled engine"
                )
        elif commands & BUILD_COMMANDS:
            self.distribution.ext_modules = self._translate()
        super().finalize_options()

    def _translate(self) -> list[Any]:
        try:
            from mypyc.build import mypycify

            return list(mypycify(list(COMPILED_MODULES), opt_level="3", debug_level="0"))
        except BaseException as exc:  # mypy missing or a type error under this mypy  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            _warn(f"mypyc could not translate the engine ({exc!r})")
            return []

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler or headers missing, compile error: never fail the install
            _warn(f"compiling the engine failed ({exc})")
            self._remove_outputs()

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            for path in {Path(self.get_ext_fullpath(ext.name)), Path(self.get_ext_filename(ext.name))}:
                if path.exists():
                    path.unlink()
        self.extensions = []


if __name__ == "__main__":  # run by pip's build backend and by `python setup.py`; tests import it
    setup(distclass=CompiledDistribution, cmdclass={"build_ext": OptionalBuildExt})
