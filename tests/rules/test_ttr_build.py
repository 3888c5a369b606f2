"""The build's promises (setup.py): the engine is compiled by default and ``CONDUCTOR_COMPILE=0``
opts out; mypy (mypyc) is a build requirement from the package index; a failed translation or
compilation installs the pure-Python engine instead of failing; and nothing compiled is ever put
beside the sources, where it would be imported instead of them after they are edited.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow  # each test builds the package

ROOT = Path(__file__).resolve().parents[2]
SOURCE_PACKAGES = ("rules", "render", "bot", "lang")


def _setup_module() -> ModuleType:
    """setup.py imported as a module: it only calls setup() when run as a script."""
    spec = importlib.util.spec_from_file_location("conductor_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _extension_files(where: Path) -> list[Path]:
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [p for p in where.rglob("*") if p.name.endswith(suffixes)]


def _project_copy(tmp_path: Path) -> Path:
    """What setup.py builds from (its configuration and the engine), copied where a build may write."""
    copy = tmp_path / "project"
    copy.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "rules", copy / "rules", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return copy


def _setup_py(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CONDUCTOR_COMPILE")}
    return subprocess.run(
        [sys.executable, "setup.py", *args],
        cwd=project,
        capture_output=True,
        text=True,
        env={**environ, **env},
        timeout=900,
    )


@pytest.mark.parametrize(
    ("value", "compiles"),
    [
        (None, True),
        ("", True),
        ("1", True),
        ("yes", True),
        ("0", False),
        ("false", False),
        ("No", False),
        (" off ", False),
    ],
)
def test_the_engine_is_compiled_unless_conductor_compile_opts_out(
    monkeypatch: pytest.MonkeyPatch, value: str | None, compiles: bool
) -> None:
    """Compiling is the default; CONDUCTOR_COMPILE=0 (false, no, off) is the way out."""
    if value is None:
        monkeypatch.delenv("CONDUCTOR_COMPILE", raising=False)
    else:
        monkeypatch.setenv("CONDUCTOR_COMPILE", value)
    assert _setup_module().compile_wanted() is compiles


def test_mypy_is_a_build_requirement_from_the_package_index() -> None:
    """pip fetches mypy (which provides mypyc) into the build environment of `pip install .`."""
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert any(req.replace(" ", "").startswith("mypy>=") for req in build["requires"])
    assert build["build-backend"] == "setuptools.build_meta"


def test_no_compiled_module_sits_beside_the_checkout_sources() -> None:
    """A compiled module next to its .py is imported instead of it, so the tests (which import this
    checkout) would test old code after an edit. setup.py never builds here; this catches a
    leftover of an older in-place build."""
    found = [
        str(p.relative_to(ROOT)) for package in SOURCE_PACKAGES for p in _extension_files(ROOT / package)
    ]
    assert not found, f"compiled modules shadow the sources, delete them: {found}"


def test_an_in_place_build_stays_pure_and_says_so(tmp_path: Path) -> None:
    """`setup.py build_ext --inplace` (what an editable install runs) writes no extension beside
    the sources, compiling on by default notwithstanding, and tells why."""
    project = _project_copy(tmp_path)
    done = _setup_py(project, "build_ext", "--inplace")
    assert done.returncode == 0, done.stderr
    assert "not compiled" in done.stderr and "pure-Python engine" in done.stderr
    assert not _extension_files(project)


def test_without_mypyc_the_build_installs_pure_python_and_says_so(tmp_path: Path) -> None:
    """When mypyc cannot be imported (mypy missing from the build environment) the build carries on
    with no extension and says it is installing the pure-Python engine."""
    project = _project_copy(tmp_path)
    broken = tmp_path / "broken"
    (broken / "mypyc").mkdir(parents=True)
    (broken / "mypyc" / "__init__.py").write_text("raise ImportError('no mypyc here')\n")
    done = _setup_py(project, "build_ext", PYTHONPATH=str(broken))
    assert done.returncode == 0, done.stderr
    assert "could not translate" in done.stderr and "pure-Python engine" in done.stderr
    assert not _extension_files(project)


def test_a_failing_c_compiler_installs_pure_python_and_says_so(tmp_path: Path) -> None:
    """mypyc translates the engine, then the C compiler fails (here: `false` as CC): the build
    still succeeds, leaves no extension behind and says it is installing the pure-Python engine."""
    pytest.importorskip("mypyc.build")
    project = _project_copy(tmp_path)
    done = _setup_py(project, "build_ext", CC="false", LDSHARED="false")
    assert done.returncode == 0, done.stderr
    assert "compiling the engine failed" in done.stderr and "pure-Python engine" in done.stderr
    assert list((project / "build").rglob("*.c")), "mypyc should have translated the engine to C first"
    assert not _extension_files(project)


def test_metadata_steps_do_not_translate_the_engine(tmp_path: Path) -> None:
    """pip asks setup.py for its build requirements and metadata (egg_info, dist_info) before it
    builds: those steps must not run mypyc (it would translate the engine three times per install)."""
    pytest.importorskip("mypyc.build")
    project = _project_copy(tmp_path)
    done = _setup_py(project, "egg_info")
    assert done.returncode == 0, done.stderr
    assert not list(project.rglob("*.c")), "egg_info translated the engine to C"


def test_an_editable_install_stays_pure(tmp_path: Path) -> None:
    """`pip install -e .` (editable_wheel, which writes the metadata first and builds extensions in
    place) leaves no extension and no translated C in the source tree."""
    project = _project_copy(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CONDUCTOR_COMPILE")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "--no-deps",
            "-e",
            str(project),
        ],
        capture_output=True,
        text=True,
        env=environ,
        cwd=tmp_path,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert not _extension_files(project)
    assert not list(project.rglob("*.c")), "the editable build translated the engine"
