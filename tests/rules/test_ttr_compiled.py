"""The compiled engine (mypyc, what ``pip install .`` builds by default, see setup.py) against the
pure-Python one, which stays the reference: the same seeded games must give the same state, legal
actions, events, scores and views at every step.

The compiled build is the installed ``conductor`` package (the tests themselves import this
checkout's sources, where nothing is ever compiled: tests/rules/test_ttr_build.py); without one,
or when it was built from other sources than this checkout's, the comparison is skipped and says
why. Each build runs in its own process: both have the same module names, so they cannot share one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("engine_replay.py")


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _run(root: str, *flags: str, cwd: str | None = None) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), root, *flags],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=_env(),
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _compiled_build() -> str | None:
    """The site directory of the installed ``conductor`` when its engine is compiled."""
    probe = (
        "import pathlib, rules.ttr.game as g; f = g.__file__ or '';"
        "print('' if f.endswith('.py') else pathlib.Path(f).parents[2])"
    )
    with tempfile.TemporaryDirectory() as cwd:
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd, env=_env()
        )
    site = done.stdout.strip()
    return site if done.returncode == 0 and site else None


def _sources_differing_from_this_checkout(site: str) -> list[str]:
    """The installed ``rules`` sources (those the compiled modules were built from, and the pure
    modules they run with) that are not this checkout's: such a build says nothing about the code
    under test."""
    installed = Path(site) / "rules"
    return sorted(
        str(path.relative_to(site))
        for path in installed.rglob("*.py")
        if not (ROOT / path.relative_to(site)).exists()
        or path.read_bytes() != (ROOT / path.relative_to(site)).read_bytes()
    )


def test_pure_replay_loads_the_engine_from_its_sources() -> None:
    """The reference run really is pure Python, whatever is built next to the sources."""
    pure = _run(str(ROOT), "--pure")
    assert not pure["compiled"]
    assert all(f.endswith(".py") for f in pure["files"])
    assert all(len(steps) > 50 for steps in pure["games"].values())


@pytest.mark.slow
def test_compiled_engine_plays_every_seeded_game_exactly_like_the_pure_engine() -> None:
    """Same seed and choices -> the same state JSON, legal actions, events (every step), final
    scores and views from the compiled build as from the pure-Python reference."""
    site = _compiled_build()
    if site is None:
        pytest.skip("no compiled build installed (`pip install .` builds one unless CONDUCTOR_COMPILE=0)")
    stale = _sources_differing_from_this_checkout(site)
    if stale:
        pytest.skip(f"the installed compiled build is of other sources ({', '.join(stale)}): `pip install .`")
    compiled = _run(site, cwd=tempfile.gettempdir())
    assert compiled["compiled"], f"expected extension modules, got {compiled['files']}"
    pure = _run(str(ROOT), "--pure")
    assert compiled["games"].keys() == pure["games"].keys()
    for name, steps in pure["games"].items():
        mine = compiled["games"][name]
        first = next((i for i, (a, b) in enumerate(zip(steps, mine, strict=False)) if a != b), None)
        assert first is None and len(mine) == len(steps), (
            f"{name}: the compiled engine diverges at step {first} of {len(steps)}"
        )


def test_engine_shuffle_deals_exactly_like_the_standard_library() -> None:
    """Seeded games deal as they always have: the engine's own shuffle (compiled with it) gives the
    order random.Random.shuffle gives, for every length and seed tried."""
    import random

    from rules.ttr.game import shuffle

    for seed in range(40):
        for length in (0, 1, 2, 3, 7, 46, 110, 240):
            mine, theirs = list(range(length)), list(range(length))
            shuffle(random.Random(f"{seed}:deck"), mine)
            random.Random(f"{seed}:deck").shuffle(theirs)
            assert mine == theirs
