"""build_tools has no import circle: no module imports, at its top or inside a function, a module
that leads back to it (a function-level import only hides a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "build_tools"


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in (ROOT / PACKAGE).rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (p, is_package)
    return out


def _imports(name: str, path: Path, is_package: bool, modules) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its code."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    deps = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module
            subs = [f"{base}.{a.name}" for a in node.names]
            # "from . import tables" imports the submodule, not the package's own names
            targets = subs if all(t in modules for t in subs) else [base] + subs
        else:
            continue
        for t in targets:
            while t and t not in modules:
                t = t.rpartition(".")[0]
            if t and t != name:
                deps.add(t)
    return deps


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_build_tools_has_no_import_circle():
    modules = _modules()
    graph = {name: _imports(name, p, is_package, modules) for name, (p, is_package) in modules.items()}
    assert _circles(graph) == []


def test_a_function_level_import_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
