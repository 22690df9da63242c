"""The contracts of ARCHITECTURE.md beyond the layers (tests/test_layers.py): the source the
chapters print is marked where it is defined, regret matching is defined once per representation,
and the tables of bit-for-bit pairs and recorded data name tests and scripts that exist and do
what the table says."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

import notebook_cache
import pytest
from architecture import ROOT, named_test, table

from cfrbook import datasets

MARKER = re.compile(r"^\s*# Shown in the book: chapters? (\d+(?:, \d+)*)\.$")


def _code_cells(chapter: Path) -> list[ast.Module]:
    cells = notebook_cache.read(chapter).cells
    parsed = []
    for source in ("".join(c["source"]) for c in cells if c["cell_type"] == "code"):
        try:
            parsed.append(ast.parse(source))
        except SyntaxError:          # IPython syntax (none in the chapters today)
            continue
    return parsed


def _getsource_argument(node: ast.AST) -> ast.expr | None:
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "getsource"
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "inspect"):
        return node.args[0]
    return None


def _passes_its_first_argument_to_getsource(function: ast.FunctionDef) -> bool:
    first = function.args.args[0].arg if function.args.args else None
    return any(isinstance(a := _getsource_argument(node), ast.Name) and a.id == first
               for node in ast.walk(function))


def printed_in_chapters() -> dict[str, set[int]]:
    """``{module.qualname: chapters}`` of what the chapters pass to ``inspect.getsource``, directly
    or through a function of the chapter that passes its first argument to it; each expression is
    evaluated after the chapter's imports of the names it uses."""
    found: dict[str, set[int]] = {}
    for chapter in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        nodes = [node for cell in _code_cells(chapter) for node in ast.walk(cell)]
        helpers = [f for f in nodes if isinstance(f, ast.FunctionDef) and _passes_its_first_argument_to_getsource(f)]
        inside_helpers = {id(n) for f in helpers for n in ast.walk(f)}
        shown = []
        for node in nodes:
            argument = _getsource_argument(node)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {f.name for f in helpers}:
                argument = node.args[0]
            if argument is not None and id(node) not in inside_helpers:
                shown.append(argument)
        used = {n.id for argument in shown for n in ast.walk(argument) if isinstance(n, ast.Name)}
        imports = [n for n in nodes if isinstance(n, ast.ImportFrom)
                   and any((alias.asname or alias.name) in used for alias in n.names)]
        namespace: dict[str, object] = {}
        exec(compile(ast.Module(imports, []), chapter.name, "exec"), namespace)
        for argument in shown:
            value = eval(ast.unparse(argument), namespace)
            value = getattr(value, "__func__", value)
            found.setdefault(f"{value.__module__}.{value.__qualname__}", set()).add(int(chapter.name[:2]))
    return found


class Marked(NamedTuple):
    """A function or class marked ``# Shown in the book``."""

    name: str                     # module.qualname
    chapters: set[int]
    lines: list[str]              # as inspect.getsource prints them: decorators to end of body


def marked_objects() -> list[Marked]:
    """The functions and classes of cfrlib and cfrbook marked ``# Shown in the book``."""
    found: list[Marked] = []
    for package in ("cfrlib", "cfrbook"):
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = path.read_text().splitlines()
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            marks = {k + 2: m.group(1) for k, line in enumerate(lines) if (m := MARKER.match(line))}

            def visit(node: ast.AST, prefix: str) -> None:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                        first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                        if first in marks:
                            chapters = {int(n) for n in marks.pop(first).split(", ")}
                            found.append(Marked(f"{module}.{prefix}{child.name}", chapters,
                                                lines[first - 1:child.end_lineno]))
                        visit(child, f"{prefix}{child.name}.")

            visit(ast.parse("\n".join(lines)), "")
            assert not marks, f"{path}: a marker on line {min(marks) - 1} stands above no def or class"
    return found


def marked_in_the_code() -> dict[str, set[int]]:
    """``{module.qualname: chapters}`` of the functions and classes marked ``# Shown in the book``."""
    return {marked.name: marked.chapters for marked in marked_objects()}


@pytest.mark.slow  # reads every chapter: make test only
def test_the_marked_source_is_what_the_chapters_print():
    printed, marked = printed_in_chapters(), marked_in_the_code()
    assert len(printed) > 20
    assert {k: sorted(v) for k, v in marked.items() if printed.get(k) != v} == {}, "marked, not printed so"
    assert {k: sorted(v) for k, v in printed.items() if marked.get(k) != v} == {}, "printed, not marked so"


PRINTED_LINE_LIMIT = 83
FOLDED_LINE_LIMIT = {"cfrlib.subgame.SubgameSolver.gadget": 80}   # chapter 14 folds its output


def test_every_printed_line_fits_the_books_code_column():
    """Every line of every marked function or class, as it stands in the file (methods with their
    class's indentation, as ``inspect.getsource`` returns them), is at most
    ``PRINTED_LINE_LIMIT`` characters long. The book's code column at a 1280 px window holds 83
    columns of the code font (656 px of content at 7.83 px a character, measured in Chromium);
    a longer line wraps on the page. A listing in a folded output ("Show code cell output") has
    634 px, where a line of 81 characters still wraps: 80 (``FOLDED_LINE_LIMIT``).
    tests/browser/test_rendered_book.py checks the pages themselves: no line of a listing wraps
    at 1280 px."""
    marked = marked_objects()
    assert len(marked) > 20 and FOLDED_LINE_LIMIT.keys() <= {m.name for m in marked}
    long = {f"{m.name}, line {k + 1} of the listing": len(line)
            for m in marked for k, line in enumerate(m.lines)
            if len(line) > FOLDED_LINE_LIMIT.get(m.name, PRINTED_LINE_LIMIT)}
    assert long == {}, "longer than the book's code column"


PRIMITIVE_NAMES = {"regret_matching", "regret_match", "matched_strategy"}


def test_regret_matching_is_defined_once_per_representation():
    """Every function of cfrlib and cfrbook named like a regret-matching primitive (a module-level
    or nested ``def``, a method too) is one of ARCHITECTURE.md's table "One primitive per idea"."""
    listed = {row[1] for row in table("One primitive per idea")}
    defined = set()
    for package in ("cfrlib", "cfrbook"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            defined |= {f"{module}.{node.name}" for node in ast.walk(ast.parse(path.read_text()))
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in PRIMITIVE_NAMES}
    assert len(listed) == 4
    assert defined == listed, "defined but not in the table: " + ", ".join(sorted(defined - listed)) \
        + "; in the table but not defined: " + ", ".join(sorted(listed - defined))


def _defines_test(path: Path, name: str) -> bool:
    return any(isinstance(node, ast.FunctionDef) and node.name == name
               for node in ast.walk(ast.parse(path.read_text())))


def test_every_bit_for_bit_pair_names_a_test_that_exists():
    rows = table("Pairs that must agree bit for bit")
    assert len(rows) >= 8
    for pair, test in rows:
        path, name = named_test(test)
        assert _defines_test(path, name), f"{pair}: no test {test}"


def test_every_recorded_data_set_has_its_script_and_its_test():
    rows = table("Recorded data")
    assert [row[0] for row in rows] == list(datasets.NAMES)
    data = (ROOT / "cfrbook" / "data").glob("*.json")
    assert {p.stem for p in data if not p.name.endswith(".stamp.json")} == set(datasets.NAMES)
    for name, script, test in rows:
        assert f'source_path("{name}")' in (ROOT / script).read_text(), f"{script} does not write {name}"
        if test.startswith("none"):
            continue
        path, function = named_test(test)
        assert _defines_test(path, function), f"{name}: no test {test}"
        assert re.search(rf"(load_json|source_path)\(\"{name}\"\)", path.read_text()), f"{test} does not read {name}"
