"""build_tools and lexicon_service have no import circle: no module imports, at its top or inside a
function, a module that leads back to it (a function-level import only hides a circle; importing a
module runs its packages' __init__ first, so that counts as importing them). And lexicon_service's
parts import only down the declared order of layers (LAYERS)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("build_tools", "lexicon_service")

# lexicon_service's parts, lowest first: a module imports from its own layer or below, never above.
# A new top-level module or package takes its place here.
LAYERS = (
    ("lexicon_service", "command_line", "fastkey", "ratelimit", "grpc_gen", "rulesets", "wording"),  # no domain
    ("tiles",),  # tile sets, spelling, tile keys
    ("rules",),  # rule sets, board, moves, scoring, GCG, replay
    ("movegen",),  # move generation (the C core)
    ("lexicon_format", "lexicon_copies", "lexicon", "output_files"),  # the lexicon file, both directions
    ("errors",),  # every refusal and the one table of their statuses
    ("core",),  # the service as plain functions: no transport
    ("games",),  # server-held games (their hints use the core's look-ahead)
    ("tournaments",),  # tournaments over those games
    ("server",),  # the gRPC adapter
    ("http",),  # the HTTP/JSON adapter and pages
    ("commands",),  # one module per subcommand
    ("cli", "__main__"),  # the command line, its table of subcommands
)


def _modules(package: str) -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in (ROOT / package).rglob("*.py"):
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
    # importing a.b.c runs a and a.b first (but a module's own packages are already running)
    for dep in list(deps):
        parent = dep.rpartition(".")[0]
        while parent:
            if parent in modules and not (name == parent or name.startswith(parent + ".")):
                deps.add(parent)
            parent = parent.rpartition(".")[0]
    return deps


def _graph(package: str) -> dict[str, set[str]]:
    modules = _modules(package)
    return {name: _imports(name, p, is_package, modules) for name, (p, is_package) in modules.items()}


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


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package):
    assert _circles(_graph(package)) == []


def _part(module: str) -> str:
    """The top-level module or package of lexicon_service that `module` belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _imports_up(graph: dict[str, set[str]]) -> list[str]:
    layer = {part: i for i, parts in enumerate(LAYERS) for part in parts}
    undeclared = sorted({_part(m) for m in graph} - set(layer))
    assert not undeclared, f"declare the layer of {undeclared} in LAYERS"
    return sorted(f"{a} -> {b}" for a, deps in graph.items() for b in deps if layer[_part(b)] > layer[_part(a)])


def test_lexicon_service_imports_only_down_its_layers():
    assert _imports_up(_graph("lexicon_service")) == []


def test_an_import_up_the_layers_is_found():
    graph = {"lexicon_service.core.words": {"lexicon_service.server.errors"}, "lexicon_service.server.errors": set()}
    assert _imports_up(graph) == ["lexicon_service.core.words -> lexicon_service.server.errors"]


def test_the_core_knows_no_transport():
    """The core package imports neither grpc nor a transport of ours (protobuf messages are data)."""
    for path in (ROOT / "lexicon_service" / "core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] not in ("grpc", "grpc_status", "starlette", "uvicorn"), (path, name)
                assert not name.endswith("_pb2_grpc"), (path, name)


def test_a_function_level_import_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_an_import_inside_a_function_says_why():
    """An import inside a function says why it is not at its module's top (an import circle, an optional
    dependency, a startup cost): a comment on its line or the line above, or, for the whole module, a
    comment line starting "# Imports inside functions:" (docs/development.md)."""
    unexplained = []
    for package in PACKAGES:
        for path, _ in _modules(package).values():
            if "grpc_gen" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            if "\n# Imports inside functions:" in text:
                continue
            lines = text.splitlines()
            for function in ast.walk(ast.parse(text)):
                if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and "#" not in lines[node.lineno - 1] \
                            and not lines[node.lineno - 2].lstrip().startswith("#"):
                        unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert sorted(set(unexplained)) == []
