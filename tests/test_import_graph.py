"""The project's modules import each other without cycles, and front ends are wired by typed
objects, not by names looked up at run time.

The import graph is read from the source (``ast``) over ``rules``, ``render``, ``bot`` and
``lang``, counting imports inside functions too (a function-level import hides a cycle, it does
not remove it); only imports under ``if TYPE_CHECKING:`` are left out, since they never run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "render", "bot", "lang")
# Files that may import by name: none. (A front end or game found by a dotted path is a typo that
# neither mypy nor a test would notice; each game lists its parts as objects instead.)
IMPORTLIB_ALLOWED: frozenset[str] = frozenset()


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that runs, at any depth (functions and classes included)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            for other in node.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node)


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports (``from pkg import sub`` counts as ``pkg.sub``)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            subs = {f"{source}.{alias.name}" for alias in node.names} & set(modules)
            targets.update(subs)
            if len(subs) < len(node.names):
                targets.add(source)
        graph[name] = {o for t in targets if (o := _owner(t, modules)) is not None and o != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_function_level_imports() -> None:
    """The checker itself: an import inside a function is an edge (so the test below can fail)."""
    graph = import_graph()
    assert "render.ttr" in graph["bot.games.ttr.front"]  # imported only inside methods


def test_no_import_cycles_among_the_projects_modules() -> None:
    """0 import cycles among rules, render, bot and lang, function-level imports counted."""
    assert cycles(import_graph()) == []


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_nothing_is_imported_by_name() -> None:
    """No ``importlib``/``import_module`` in bot, render or lang: every game's parts (rules, words,
    drawing, terminal menu, Discord UI) and every subcommand are listed as typed objects."""
    offenders = []
    for package in ("bot", "render", "lang"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in IMPORTLIB_ALLOWED:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                named = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or "", *(a.name for a in node.names)]
                    if isinstance(node, ast.ImportFrom)
                    else [node.attr]
                    if isinstance(node, ast.Attribute)
                    else [node.id]
                    if isinstance(node, ast.Name)
                    else []
                )
                if any(n.split(".")[0] == "importlib" or n in ("import_module", "__import__") for n in named):
                    offenders.append(f"{rel}:{getattr(node, 'lineno', '?')}")
    assert offenders == []
