"""Import the engine from its ``.py`` sources even where a compiled build sits beside them.

The pure-Python engine is the reference the optional mypyc build is checked against
(``tests/rules/test_ttr_compiled.py``) and measured beside (``bench/bench_engines.py``). Both run
it in a process of its own that puts :class:`SourceFirst` first on ``sys.meta_path`` before any
``rules`` submodule is imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any


class SourceFirst(importlib.abc.MetaPathFinder):
    """Loads ``rules`` and its submodules from their ``.py`` files even where a compiled
    extension of the same module sits next to them."""

    def find_spec(self, fullname: str, path: Any, target: ModuleType | None = None) -> Any:
        if fullname.split(".")[0] != "rules":
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.origin is None:
            return spec
        if spec.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            source = Path(spec.origin).parent / (fullname.rsplit(".", 1)[-1] + ".py")
            return importlib.util.spec_from_file_location(fullname, source)
        return spec
