"""cfrlib's modules import each other strictly downward: the import graph has no cycle.

The graph is read from the source (every ``import`` and ``from ... import`` statement, also those
inside functions, resolved to cfrlib's modules); a package's ``__init__`` counts as its own
module, and ``from . import name`` as an import of the submodule ``name`` when there is one.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "cfrlib"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
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
    for user in ("cfrlib.tree", "cfrlib.regret_matching", "cfrlib.playouts", "cfrlib.comparison",
                 "cfrlib.solvers.base"):
        assert "cfrlib.checks" in graph[user], user
    for module in ("cfrlib.regret_matching", "cfrlib.playouts"):  # no longer reach into the solvers
        assert "cfrlib.solvers.base" not in graph[module], module
