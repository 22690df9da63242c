"""Sphinx extension: the book's ``{eval}`` roles show the results stored in the notebook.

The book is built without a kernel (``execute_notebooks: off``), and myst-nb's ``{eval}`` role
asks its notebook client to evaluate the expression (``nb_client.eval_variable``), which
only a running kernel can. With this extension, a notebook read without execution gets a
client that answers from the results stored in its markdown cells' metadata (see
tools/user_expressions.py; written by JupyterLab or `tools/execute-notebooks`, checked by
`make test`). An expression with no stored result, or with two different ones in one
notebook, is a warning (the build runs with -W), and so is a stored error.
"""

from __future__ import annotations

import nbformat
import myst_nb.sphinx_ as myst_nb_sphinx
from myst_nb.core.execute import NotebookClientBase

import user_expressions

FIX = "run the notebook top to bottom and save it: tools/execute-notebooks {path}"


class StoredExpressionsClient(NotebookClientBase):
    """A notebook client whose ``eval_variable`` returns the result stored for the expression."""

    def start_client(self):
        self._results: dict[str, dict] = {}
        self._ambiguous: set[str] = set()
        for cell in self.notebook.cells:
            if cell.cell_type != "markdown":
                continue
            for expression, result in user_expressions.stored(cell).items():
                if self._results.setdefault(expression, result) != result:
                    self._ambiguous.add(expression)

    def eval_variable(self, name: str) -> list[nbformat.NotebookNode]:
        fix = FIX.format(path=self.path.name if self.path else "NOTEBOOK")
        if name in self._ambiguous:
            raise LookupError(f"{{eval}}`{name}` has different stored results in different "
                              "cells of this notebook: give each its own expression")
        result = self._results.get(name)
        if result is None:
            raise LookupError(f"no stored result for {{eval}}`{name}`; {fix}")
        if result.get("status") != "ok":
            return [nbformat.v4.new_output("error", ename=result.get("ename", "Error"),
                                           evalue=result.get("evalue", ""), traceback=[])]
        return [nbformat.v4.new_output("execute_result", data=result.get("data", {}),
                                       metadata=result.get("metadata", {}))]


# myst-nb's own (also when this module is imported again after setup replaced it)
_create_client = getattr(myst_nb_sphinx.create_client, "__wrapped__", myst_nb_sphinx.create_client)


def create_client(notebook, source, nb_config, logger, read_fmt=None):
    """myst-nb's create_client, with stored results for a notebook it does not execute."""
    client = _create_client(notebook, source, nb_config, logger, read_fmt=read_fmt)
    if type(client) is NotebookClientBase:
        client = StoredExpressionsClient(notebook, client.path, nb_config, logger)
    return client


create_client.__wrapped__ = _create_client


def setup(app):
    myst_nb_sphinx.create_client = create_client
    return {"parallel_read_safe": True, "parallel_write_safe": True}
