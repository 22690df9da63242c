"""cfrlib's modules import each other strictly downward: the import graph has no cycle; the
book's scaffolding (cfrbook) sits on top, and cfrlib never imports it.

The graph is read from the source (every ``import`` and ``from ... import`` statement, also those
inside functions, resolved to the modules of cfrlib and cfrbook); a package's ``__init__`` counts
as its own module, and ``from . import name`` as an import of the submodule ``name`` when there is
one.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cfrlib", "cfrbook")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for name in PACKAGES for p in (ROOT / name).rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] \
                    if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    graph[name].add(sub if sub in modules else target)
            elif isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names)
        graph[name] = {m for m in graph[name] if m in modules and m != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_reader_of_the_graph_sees_imports():
    graph = import_graph()
    assert "cfrlib.players" in graph["cfrlib.tree"]
    assert "cfrlib.tree" in graph["cfrlib.game"]          # inside Game.tree() or at the top
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_argument_checks_sit_below_their_users():
    graph = import_graph()
    assert graph["cfrlib.checks"] <= {"cfrlib.errors"}
    for user in ("cfrlib.tree", "cfrlib.regret_matching", "cfrlib.playouts", "cfrbook.comparison",
                 "cfrlib.solvers.base"):
        assert "cfrlib.checks" in graph[user], user
    for module in ("cfrlib.regret_matching", "cfrlib.playouts"):  # no longer reach into the solvers
        assert "cfrlib.solvers.base" not in graph[module], module


def test_cfrlib_never_imports_cfrbook():
    graph = import_graph()
    assert any(m.startswith("cfrlib.") for m in graph["cfrbook.plotting"])   # the reader sees across
    found = sorted(f"{user} -> {used}" for user, uses in graph.items() if user.partition(".")[0] == "cfrlib"
                   for used in uses if used.partition(".")[0] == "cfrbook")
    assert not found, found


def test_import_cfrlib_loads_neither_the_book_nor_its_figures_nor_its_widgets():
    code = ("import cfrlib, sys; print(sorted(m for m in sys.modules "
            "if m.partition('.')[0] in ('cfrbook', 'matplotlib', 'ipywidgets', 'IPython')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
    probe = code.replace("import cfrlib,", "import cfrbook.interactive, cfrlib,")  # the probe sees them
    assert "cfrbook" in subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                       check=True).stdout
