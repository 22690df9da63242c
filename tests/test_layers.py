"""The layers of ARCHITECTURE.md, enforced: every import between the modules of cfrlib and
cfrbook is one its table allows, the import graph has no cycle, and cfrlib never imports the
book's scaffolding (cfrbook), nor, on ``import cfrlib``, matplotlib or ipywidgets.

The graph is read from the source (every ``import`` and ``from ... import`` statement, also those
inside functions, resolved to the modules of cfrlib and cfrbook); a package's ``__init__`` counts
as its own module, and ``from . import name`` as an import of the submodule ``name`` when there is
one.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from fnmatch import fnmatchcase
from pathlib import Path

from architecture import names, table

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cfrlib", "cfrbook")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache  # read the sources once per process (the tests only read the graph)
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


def layers() -> tuple[dict[str, list[str]], dict[str, set[str]]]:
    """ARCHITECTURE.md's ``{layer: module patterns}`` and ``{layer: layers it may import}``."""
    rows = table("Layers and the imports allowed between them")
    return {r[0]: names(r[1]) for r in rows}, {r[0]: set(names(r[2])) for r in rows}


def exceptions() -> set[tuple[str, str]]:
    """The ``(module, module it may also import)`` pairs of ARCHITECTURE.md."""
    return {(row[0], row[1]) for row in table("Layers and the imports allowed between them", 1)}


def layer_of(module: str, members: dict[str, list[str]]) -> str:
    found = [layer for layer, patterns in members.items() if any(fnmatchcase(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} is in {len(found)} layers of ARCHITECTURE.md: {found}"
    return found[0]


def forbidden_imports(graph: dict[str, set[str]], members: dict[str, list[str]],
                      allowed: dict[str, set[str]], allowed_also: set[tuple[str, str]]) -> list[str]:
    """``user -> used (layer -> layer)`` for each import the table does not allow."""
    return sorted(f"{user} -> {used} ({layer_of(user, members)} -> {layer_of(used, members)})"
                  for user, uses in graph.items() for used in uses
                  if layer_of(used, members) not in allowed[layer_of(user, members)]
                  and (user, used) not in allowed_also)


def test_every_module_is_in_one_layer_and_imports_only_what_its_layer_may():
    members, allowed = layers()
    assert set().union(*allowed.values()) <= set(members)
    graph = import_graph()
    found = forbidden_imports(graph, members, allowed, exceptions())
    assert not found, "imports ARCHITECTURE.md does not allow:\n" + "\n".join(found)
    for user, used in exceptions():   # each exception is still needed
        assert used in graph[user], f"{user} no longer imports {used}: drop the exception"


def test_the_check_fails_on_an_import_the_table_does_not_allow():
    members, allowed = layers()
    graph = {"cfrlib.solvers.base": {"cfrlib.textbook.cfr"}, "cfrlib.tree": {"cfrlib.evaluation"},
             "cfrlib.solvers.sampling.walk": {"cfrlib.textbook.sampling"}, "cfrlib.game": {"cfrbook.plotting"}}
    assert forbidden_imports(graph, members, allowed, exceptions()) == [
        "cfrlib.game -> cfrbook.plotting (games -> book)",
        "cfrlib.solvers.base -> cfrlib.textbook.cfr (solvers -> textbook)",
        "cfrlib.tree -> cfrlib.evaluation (games -> evaluation)"]


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
    code = ("import sys, cfrlib\n"
            "def loaded(): return sorted(m for m in sys.modules\n"
            "                            if m.partition('.')[0] in ('cfrbook', 'matplotlib', 'ipywidgets', 'IPython'))\n"
            "print(loaded())\n"
            "import cfrbook.interactive\n"
            "print(loaded())\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after_cfrlib, after_the_book = run.stdout.splitlines()
    assert after_cfrlib == "[]"
    assert "cfrbook.interactive" in after_the_book   # the probe sees what is loaded
