"""The numbers quoted in the chapters' prose: inline ``{eval}`` expressions and their results.

A markdown cell quotes a value computed by the code cells above it with MyST's inline role
``{eval}`f"{leduc_exploitability:.4f}"` ``. Its result is stored in the markdown cell's metadata
in jupyterlab-myst's format, one entry per occurrence, in the order of the text::

    cell.metadata["user_expressions"] = [
        {"expression": 'f"{leduc_exploitability:.4f}"',
         "result": {"status": "ok", "data": {"text/plain": "'0.0123'"}, "metadata": {}}},
    ]

``result`` is the kernel's answer to an ``execute_request`` whose ``user_expressions`` hold the
cell's expressions (the Jupyter messaging protocol; an error gives ``status: "error"`` with
``ename``, ``evalue``, ``traceback``). JupyterLab (with jupyterlab-myst) writes it when the cell
is run; `tools/execute-notebooks` writes it right after running the code cells above the
cell; the book (tools/stored_expressions.py) shows it; `make test` (tools/nbval_watchdog.py) evaluates the
expressions again after the code cell before them and fails on a stored result gone stale.
Both renderers show a ``text/plain`` string without its quotes.
"""

from __future__ import annotations

import re

METADATA_KEY = "user_expressions"
# The MyST role syntax (markdown-it's myst_role rule): {eval} then a code span.
ROLE = re.compile(r"\{eval\}(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
# A code fence (not a directive's: ```{name} content is MyST and may quote numbers).
FENCE = re.compile(r"^ {0,3}(```+|~~~+)(?![ \t]*\{).*?^ {0,3}\1[ \t]*$", re.DOTALL | re.MULTILINE)


def expressions(markdown: str) -> list[str]:
    """The ``{eval}`` expressions of a markdown cell's source, in order (outside code fences,
    inside directives)."""
    return [match.group(2).strip() for match in ROLE.finditer(FENCE.sub("", markdown))]


def request(found: list[str]) -> dict[str, str]:
    """The ``user_expressions`` field of an execute_request evaluating ``found`` (keyed by
    position, as jupyterlab-myst sends them)."""
    return {str(position): expression for position, expression in enumerate(found)}


def entries(found: list[str], reply_expressions: dict) -> list[dict]:
    """The metadata entries for ``found`` from an execute_reply's ``user_expressions``."""
    return [{"expression": expression, "result": reply_expressions[str(position)]}
            for position, expression in enumerate(found)]


def stored(cell: dict) -> dict[str, dict]:
    """The results stored in a markdown cell's metadata, by expression."""
    return {entry.get("expression"): entry.get("result", {})
            for entry in cell.get("metadata", {}).get(METADATA_KEY, [])}


def shown(result: dict) -> str:
    """What a result shows as text: its text/plain, or the error for a failed expression."""
    if result.get("status") != "ok":
        return f"{result.get('ename', 'no result')}: {result.get('evalue', '')}"
    return result.get("data", {}).get("text/plain", "")


def problems(cell: dict) -> list[str]:
    """Expressions of a markdown cell with no stored result, or whose stored result is an error."""
    results = stored(cell)
    found = []
    for expression in expressions("".join(cell.get("source", ""))):
        result = results.get(expression)
        if result is None:
            found.append(f"{{eval}}`{expression}` has no stored result")
        elif result.get("status") != "ok":
            found.append(f"{{eval}}`{expression}` stored an error: {shown(result)}")
    return found
