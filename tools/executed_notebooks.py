"""Sphinx extension: the book is built from the notebooks' committed outputs; refuse stale ones.

The book build starts no kernel (``execute_notebooks: off`` in _config.yml): `make test` has
already run every notebook again under strict nbval and compared each cell's output with the
committed one, so the committed outputs are the verified ones. What nbval cannot see is a
cell saved without output (it skips those), so this extension warns, and the build (-W) fails,
when a notebook holds a code cell that was not executed, cells executed out of order (not one
clean top-to-bottom run) or an error output, and when a markdown cell quotes an ``{eval}``
expression with no stored result or a stored error (tools/user_expressions.py; `make test`
checks that the stored results are current), and when an explorer's static page lacks the frame
of some setting of its controls (a run without ``CFRLIB_EXPLORER_FRAMES=all``, see
cfrbook.interactive). `tools/execute-notebooks` re-executes notebooks
in place.
"""

from __future__ import annotations

import json
import re

from sphinx.util import logging

import user_expressions

logger = logging.getLogger(__name__)
FIX = "execute it top to bottom and save it: tools/execute-notebooks {path}"


def notebook_problems(notebook: dict) -> list[str]:
    """What keeps a notebook's saved outputs from being one clean run, cell by cell."""
    problems = []
    for number, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") == "markdown":
            problems += [f"cell {number} (markdown): {problem}"
                         for problem in user_expressions.problems(cell)]
    code_cells = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    expected = 1
    for number, cell in enumerate(code_cells):
        source = "".join(cell.get("source", ""))
        count = cell.get("execution_count")
        if not source.strip():
            continue
        if count is None:
            problems.append(f"code cell {number} was not executed (no execution count)")
        elif count != expected:
            problems.append(f"code cell {number} has execution count {count}, expected "
                            f"{expected} (cells run out of order or more than once)")
        expected = (count or expected) + 1
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                problems.append(f"code cell {number} saved an error: {output.get('ename')}: "
                                f"{output.get('evalue')}")
            page = "".join(output.get("data", {}).get("text/html", ""))
            for found in _EXPLORER_DATA.finditer(page):
                missing = json.loads(found.group(1))["frame_of"].count(None)
                if missing:
                    problems.append(f"code cell {number}: an explorer lacks {missing} of its "
                                    "frames (saved without CFRLIB_EXPLORER_FRAMES=all)")
    return problems


_EXPLORER_DATA = re.compile(r'class="cfrlib-explorer-data">(.*?)</script>', re.DOTALL)


def check_notebooks(app, env, docnames) -> None:
    for docname in docnames:
        path = env.doc2path(docname)
        if not str(path).endswith(".ipynb"):
            continue
        with open(path, encoding="utf-8") as file:
            notebook = json.load(file)
        relative = env.doc2path(docname, base=False)
        for problem in notebook_problems(notebook):
            logger.warning(f"{problem}; {FIX.format(path=relative)}", location=docname)


def setup(app):
    app.connect("env-before-read-docs", check_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
