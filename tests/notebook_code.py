"""The code a chapter shows in prose, for tests: the folded solution of an exercise.

An implement-it-yourself exercise shows its complete solution as the first ```python block of
the markdown cell holding ``{solution} <label>``. Tests run exactly that code (not a copy) and
compare its result with cfrlib's, so the solution a reader unfolds is the one that is checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import notebook_cache

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"
_PYTHON_BLOCK = re.compile(r"^(`{3,})python\s*\n(.*?)^\1\s*$", re.DOTALL | re.MULTILINE)


def solution_code(notebook: str, label: str) -> str:
    """The first python code block of the solution of exercise ``label`` in ``notebook``
    (a file name in chapters/)."""
    cells = notebook_cache.read(CHAPTERS / notebook).cells
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        start = re.search(r"\{solution\}\s+" + re.escape(label) + r"\b", cell.source)
        if start is None:
            continue
        block = _PYTHON_BLOCK.search(cell.source, start.end())
        if block is None:
            raise LookupError(f"{notebook}: the solution of {label!r} has no ```python block")
        return block.group(2)
    raise LookupError(f"{notebook}: no solution of exercise {label!r}")


def run_solution(notebook: str, label: str) -> dict:
    """Execute the solution of ``label`` in a fresh namespace and return that namespace."""
    namespace: dict = {"__name__": f"solution_{label.replace('-', '_')}"}
    exec(compile(solution_code(notebook, label), f"{notebook}:{label}", "exec"), namespace)
    return namespace
