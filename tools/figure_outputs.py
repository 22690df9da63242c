"""Sphinx extension: a captioned cell's figure holds its image, not its other outputs.

A cell's ``mystnb.figure`` metadata (written by tools/apply-figure-captions) makes myst-nb
render the cell's output as a numbered figure with a caption and a target name. myst-nb 1.4
applies it to *every* display output of the cell, though: a cell that draws a figure and then
displays the table of numbers behind it (chapters 3, 6 and 7) would become two figures with one
caption, and the second registration of the name is a "duplicate explicit target name" warning,
an error under -W.

With this extension an output is wrapped in the figure only if it holds an image: the others
are rendered in place, as in a cell without figure metadata, and the figure's name is
registered once, on the figure that holds the image. (A cell with two image outputs would still
give two figures; tools/apply-figure-captions and tests/test_figures_accessible.py refuse such a
cell.) The wrapper is tied to myst-nb's ``create_figure_context`` of the pinned version: with
any other myst-nb the build warns, an error under -W, to check that it still applies.
"""

from __future__ import annotations

from contextlib import contextmanager
from importlib.metadata import version

import myst_nb.sphinx_ as myst_nb_sphinx
from docutils import nodes
from sphinx.util import logging

CHECKED_MYST_NB = "1.4.0"

# myst-nb's own (also when this module is imported again after setup replaced it; not
# ``__wrapped__``, which contextmanager sets to the bare generator function)
_create_figure_context = getattr(myst_nb_sphinx.create_figure_context, "myst_nb_original",
                                 myst_nb_sphinx.create_figure_context)


def _holds_image(node: nodes.Element) -> bool:
    return any(str(container.get("mime_type", "")).startswith("image/")
               for container in node.findall(nodes.container)) or any(
        True for _ in node.findall(nodes.image))


@contextmanager
def create_figure_context(self, figure_options, line):
    """myst-nb's figure context, keeping the figure (and its name) for image outputs only."""
    if not isinstance(figure_options, dict):
        yield
        return
    options = {key: value for key, value in figure_options.items() if key != "name"}
    parent = self.current_node
    before = len(parent.children)
    with _create_figure_context(self, options, line):
        yield
    added = parent.children[before:]
    figure = added[0] if len(added) == 1 and isinstance(added[0], nodes.figure) else None
    if figure is None:
        return
    if not _holds_image(figure):
        # not a figure: the output in place, without the caption
        content = [child for child in figure.children
                   if not isinstance(child, (nodes.caption, nodes.legend))]
        figure.replace_self(content)
        return
    name = figure_options.get("name")
    if name:
        figure["names"].append(nodes.fully_normalize_name(str(name)))
        self.document.note_explicit_target(figure, figure)


create_figure_context.myst_nb_original = _create_figure_context


def setup(app):
    installed = version("myst-nb")
    if installed != CHECKED_MYST_NB:
        logging.getLogger(__name__).warning(
            f"tools/figure_outputs.py wraps myst-nb {CHECKED_MYST_NB}'s create_figure_context, "
            f"but {installed} is installed: check that a captioned cell's non-image outputs "
            "still render outside its figure, then update CHECKED_MYST_NB")
    myst_nb_sphinx.create_figure_context = create_figure_context
    return {"parallel_read_safe": True, "parallel_write_safe": True}
