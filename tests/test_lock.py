"""The installed packages are the locked ones, and the lock still answers pyproject.toml.

The README and CI install ``requirements.lock`` (every runtime, test and build dependency, with
hashes) and then build Conductor without build isolation, so what a fresh machine runs is exactly
what was tested. ``scripts/refresh-lock.sh`` moves the lock to the newest releases.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;\\]+)\s*(?:;(?P<marker>[^\\]+))?")


def _locked() -> dict[str, tuple[str, str | None]]:
    """Each locked distribution's canonical name -> (version, environment marker or None)."""
    pins: dict[str, tuple[str, str | None]] = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            marker = match["marker"].strip() if match["marker"] else None
            pins[canonicalize_name(match["name"])] = (match["version"], marker)
    return pins


def _pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def _declared() -> list[Requirement]:
    project = _pyproject()
    runtime = project["project"]["dependencies"]  # type: ignore[index]
    extras = project["project"]["optional-dependencies"]  # type: ignore[index]
    build = project["dependency-groups"]["build"]  # type: ignore[index]
    return [
        Requirement(text) for text in [*runtime, *(r for group in extras.values() for r in group), *build]
    ]


def test_every_locked_package_for_this_environment_is_installed_at_its_locked_version() -> None:
    """A fresh install from the README gives exactly the lock's versions (no resolver drift)."""
    wrong = []
    for name, (version, marker) in sorted(_locked().items()):
        if marker is not None and not Marker(marker).evaluate():
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed != version:
            wrong.append(f"{name}: locked {version}, installed {installed}")
    assert not wrong, "install requirements.lock as the README says: " + "; ".join(wrong)


def test_the_lock_satisfies_every_dependency_pyproject_declares() -> None:
    """Editing a range in pyproject.toml without refreshing the lock fails here, not on a user's
    machine (run scripts/refresh-lock.sh)."""
    locked = _locked()
    unmet = []
    for requirement in _declared():
        pin = locked.get(canonicalize_name(requirement.name))
        if pin is None or not requirement.specifier.contains(pin[0], prereleases=True):
            unmet.append(f"{requirement} (locked: {pin[0] if pin else 'absent'})")
    assert not unmet, "requirements.lock is stale: " + "; ".join(unmet)


def test_the_locked_build_group_is_the_build_systems_requires() -> None:
    """The README builds with --no-build-isolation from the lock's build group, so that group must
    be what a build with isolation would fetch (mypy compiles the engine)."""
    project = _pyproject()
    requires = sorted(project["build-system"]["requires"])  # type: ignore[index]
    group = sorted(project["dependency-groups"]["build"])  # type: ignore[index]
    assert requires == group


def test_every_locked_file_is_pinned_by_hash() -> None:
    """pip's --require-hashes refuses a lock line without a hash; check it here too, named."""
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    unhashed = [block.split()[0] for block in blocks if PIN.match(block) and "--hash=sha256:" not in block]
    assert not unhashed
