"""Check a figure's text as the book's page shows it, with matplotlib's own text extents.

:func:`install` (in a notebook's kernel, by tools/nbval_watchdog.py under ``make test`` and by
tools/execute-notebooks) makes every figure saved as an image, a cell's inline PNG and every
explorer frame of ``cfrbook.interactive`` alike, be looked at during the very draw that makes
the image, in the image's own pixels. It records what a reader could not read:

* two texts whose boxes overlap by more than ``SLACK_PX`` both ways (titles, axis labels, tick
  labels, legend entries, annotations);
* a text that leaves the image;
* a legend over a plotted point: a line's vertices and the segments between them, a scatter's
  points, a line collection's segments, the area of a bar, inside the axes the legend lies
  over;
* a text smaller than ``MIN_TEXT_PX`` once the image is scaled to the page's text column
  (``COLUMN_PX`` wide at a 1280 px window: a wider image is shrunk to fit it), each text
  measured as ``cfrbook.phone_figures.smallest_font_pt`` reads it: a log axis's tick label
  ``10^-4`` by its exponent, drawn at 0.7 of the label's size (which let chapter 10's 1291 px
  wide figures, shown at half their width, pass with 8.4 px exponents). A phone rendering
  (``cfrbook.phone_figures``) says where it is shown in its ``page_column`` attribute: a 320 px
  column, text at least 8 px; one with problems is not used (the page shows the figure itself);
* an algorithm drawn in a look other than its own, or two algorithms sharing a look
  (tools/figure_looks.py).

tools/execute-notebooks also makes the kernel attach a phone rendering to every figure it
displays (:data:`PHONE_INSTALL`), checked by :func:`problems` in the phone's column before use.

:func:`take` returns what was found since its last call, a line a problem, naming the figure by
its titles and the texts by their words. :func:`problems` checks one figure directly.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

COLUMN_PX = 650
"""Width in pixels of the narrowest box a figure gets in a page at 1280 px: 688 for a cell's
output, 672 for a captioned figure, 650 inside an exercise's solution (measured, and checked
against every page by tests/browser/test_rendered_book.py); a wider image is shown shrunk to it."""
MIN_TEXT_PX = 9.0
"""The smallest font size, in pixels of the page, that a figure's text may have."""
SLACK_PX = 1.0
"""Boxes may touch or overlap by this much (pixels of the image) without counting."""
DENSIFY_PX = 2.0
"""A line's segments are checked against a legend every this many pixels."""


@dataclass
class _Draw:
    """The texts one draw of a figure drew, in the order it drew them."""
    renderer: Any
    texts: list = field(default_factory=list)
    seen: set = field(default_factory=set)


@dataclass
class _Print:
    """One image being saved: the problems of its last draw (the one that made the image)."""
    figure: Any
    problems: list[str] | None = None


_drawing: _Draw | None = None
_printing: _Print | None = None
_found: list[str] = []
_installed = False


def _words(text) -> str:
    words = " ".join(text.get_text().split())
    return repr(words if len(words) <= 48 else words[:45] + "...")


def figure_name(figure) -> str:
    """The figure's titles (suptitle, then each axes' titles), or its first axis labels."""
    titles = [figure.get_suptitle()] if hasattr(figure, "get_suptitle") else []
    titles += [ax.get_title(loc) for ax in figure.axes for loc in ("left", "center", "right")]
    titles = [" ".join(t.split()) for t in titles if t and t.strip()]
    if not titles:
        titles = [f"{ax.get_xlabel()} / {ax.get_ylabel()}" for ax in figure.axes[:1]]
    name = " | ".join(titles[:3]) + (" | ..." if len(titles) > 3 else "")
    name = f"figure {name!r}" if name.strip(" /") else "an untitled figure"
    return name + (" (phone rendering)" if hasattr(figure, "page_column") else "")


def _overlap(a, b) -> tuple[float, float]:
    return min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0)


def _inside(points: np.ndarray, box, slack: float = 0.0) -> np.ndarray:
    return ((points[:, 0] > box.x0 + slack) & (points[:, 0] < box.x1 - slack)
            & (points[:, 1] > box.y0 + slack) & (points[:, 1] < box.y1 - slack))


def _densify(points: np.ndarray) -> np.ndarray:
    """The points of a polyline every ``DENSIFY_PX`` pixels (gaps at NaN kept as gaps)."""
    a, b = points[:-1], points[1:]
    finite = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    steps = np.ones(len(a), dtype=np.int64)                # segment k gives steps[k] points:
    steps[finite] = np.minimum(np.hypot(*(b - a)[finite].T) / DENSIFY_PX, 2000).astype(np.int64) + 1
    segment = np.repeat(np.arange(len(a)), steps)
    j = np.arange(len(segment)) - np.repeat(np.cumsum(steps) - steps, steps) + 1
    inner = b[segment]                                     # b alone after a gap (NaN, inf),
    on = finite[segment]
    k = segment[on]                                        # else a + (j / steps) (b - a), j = 1..steps
    inner[on] = a[k] + (j[on] / steps[k])[:, None] * (b[k] - a[k])
    return np.concatenate([points[:1], inner])


def _plotted(ax) -> list[tuple[str, np.ndarray]]:
    """``(label, points in display pixels)`` of what ``ax`` plots: lines and collections."""
    import matplotlib.collections as mcoll
    from matplotlib.container import BarContainer

    found = []
    for line in ax.lines:
        if not line.get_visible() or not len(line.get_xydata()):
            continue
        points = line.get_transform().transform(line.get_xydata())
        if line.get_linestyle() not in ("None", "", " ", "none"):
            points = _densify(points)
        found.append((line.get_label(), points))
    for collection in ax.collections:
        if not collection.get_visible():
            continue
        if isinstance(collection, mcoll.LineCollection):
            segments = [collection.get_transform().transform(np.asarray(s))
                        for s in collection.get_segments() if len(s)]
            if segments:
                found.append((collection.get_label(),
                              np.concatenate([_densify(s) for s in segments])))
        elif isinstance(collection, mcoll.PathCollection) and len(collection.get_offsets()):
            offsets = np.asarray(collection.get_offsets(), dtype=float)
            found.append((collection.get_label(),
                          collection.get_offset_transform().transform(offsets)))
    for container in ax.containers:
        if isinstance(container, BarContainer):
            bars = [_area(bar.get_transform().transform(bar.get_path().vertices))
                    for bar in container.patches if bar.get_visible()]
            if bars:
                found.append((container.get_label(), np.concatenate(bars)))
    return found


def _area(corners: np.ndarray) -> np.ndarray:
    """A grid of points every ``DENSIFY_PX`` pixels over the box spanned by ``corners``."""
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    xs = np.linspace(x0, x1, int((x1 - x0) / DENSIFY_PX) + 2)
    ys = np.linspace(y0, y1, int((y1 - y0) / DENSIFY_PX) + 2)
    return np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)


def _analyse(figure, draw: _Draw) -> list[str]:
    from cfrbook.phone_figures import smallest_font_pt

    renderer = draw.renderer
    width, height = float(renderer.width), float(renderer.height)
    column_px, min_text_px = getattr(figure, "page_column", (COLUMN_PX, MIN_TEXT_PX))
    page_px_per_point = renderer.points_to_pixels(1.0) * min(1.0, column_px / width)
    boxes = [(text, text.get_window_extent(renderer)) for text in draw.texts]
    boxes = [(t, b) for t, b in boxes if b.width > 0 and b.height > 0 and np.isfinite(b.bounds).all()]
    found = []
    for k, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[k + 1:]:
            dx, dy = _overlap(box_a, box_b)
            if dx > SLACK_PX and dy > SLACK_PX:
                found.append(f"texts overlap ({dx:.0f} x {dy:.0f} px at x = {max(box_a.x0, box_b.x0):.0f}, "
                             f"y = {height - min(box_a.y1, box_b.y1):.0f} from the top left): "
                             f"{_words(a)} and {_words(b)}")
    for text, box in boxes:
        if box.x0 < -SLACK_PX or box.y0 < -SLACK_PX or box.x1 > width + SLACK_PX \
                or box.y1 > height + SLACK_PX:
            found.append(f"text cut off at the edge of the {width:.0f} x {height:.0f} px image: "
                         f"{_words(text)}")
        size = smallest_font_pt(text) * page_px_per_point
        if size < min_text_px - 1e-9:
            found.append(f"text {size:.1f} px high on the page (at least {min_text_px:g}; the "
                         f"{width:.0f} px image is shown {min(width, column_px):.0f} px wide): "
                         f"{_words(text)}")
    legends = [ax.get_legend() for ax in figure.axes] + list(figure.legends)
    for legend in legends:
        if legend is None or not legend.get_visible():
            continue
        legend_box = legend.get_window_extent(renderer)
        for ax in figure.axes:
            if not ax.get_visible():
                continue
            ax_box = ax.get_window_extent(renderer)
            if min(_overlap(legend_box, ax_box)) <= 0:
                continue
            for label, points in _plotted(ax):
                points = points[np.isfinite(points).all(axis=1)]
                points = points[_inside(points, ax_box)]
                if _inside(points, legend_box, SLACK_PX).any():
                    name = repr(label) if label and not label.startswith("_") else "a curve"
                    entries = ", ".join(_words(t) for t in legend.get_texts()[:3])
                    found.append(f"the legend ({entries}) covers points of {name}")
    import figure_looks   # beside this module, on the path that imported it

    return found + figure_looks.problems(figure)


def problems(figure, fname: Any = None, **savefig: Any) -> list[str]:
    """What :mod:`figure_layout` finds in ``figure`` saved as a PNG with ``savefig`` options
    (into ``fname``, a file or a buffer, if given)."""
    import io

    install()
    global _printing
    outer, _printing = _printing, _Print(figure)
    try:
        figure.savefig(io.BytesIO() if fname is None else fname, **{"format": "png", **savefig})
        return list(_printing.problems or [])
    finally:
        _printing = outer


def take() -> list[str]:
    """The problems found since the last call (and forget them)."""
    found = list(_found)
    _found.clear()
    return found


def install() -> None:
    """Look at every figure saved from now on in this process (idempotent)."""
    global _installed
    if _installed:
        return
    from matplotlib.backend_bases import FigureCanvasBase
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    text_draw, figure_draw, print_figure = Text.draw, Figure.draw, FigureCanvasBase.print_figure

    @functools.wraps(text_draw)
    def draw_text(self, renderer, *args, **kwargs):
        text_draw(self, renderer, *args, **kwargs)
        draw = _drawing
        if draw is not None and renderer is draw.renderer and self.get_visible() \
                and self.get_text().strip() and id(self) not in draw.seen:
            draw.seen.add(id(self))
            draw.texts.append(self)

    @functools.wraps(figure_draw)
    def draw_figure(self, renderer, *args, **kwargs):
        global _drawing
        outer, _drawing = _drawing, _Draw(renderer)
        try:
            figure_draw(self, renderer, *args, **kwargs)
            draw = _drawing
        finally:
            _drawing = outer
        # The last draw is the image's. A layout engine or bbox_inches="tight" makes savefig
        # draw once before with the renderer's drawing disabled (its draw_* methods replaced
        # on the instance): the image's draw follows, so that one is not analysed.
        if _printing is not None and _printing.figure is self and hasattr(renderer, "width") \
                and "draw_text" not in vars(renderer):
            _printing.problems = _analyse(self, draw)

    @functools.wraps(print_figure)
    def print_and_check(self, *args, **kwargs):
        global _printing
        outer, _printing = _printing, (_printing if _printing is not None
                                       and _printing.figure is self.figure else _Print(self.figure))
        try:
            result = print_figure(self, *args, **kwargs)
            printing = _printing
        finally:
            _printing = outer
        if outer is None and printing.problems:
            _found.extend(f"{figure_name(self.figure)}: {p}" for p in printing.problems)
        return result

    Text.draw = draw_text
    Figure.draw = draw_figure
    FigureCanvasBase.print_figure = print_and_check
    import cfrbook.phone_figures

    cfrbook.phone_figures.layout_check = problems   # a phone rendering must pass it to be used
    _installed = True


KERNEL_INSTALL = (f"(__import__('sys').path.insert(0, {str(Path(__file__).resolve().parent)!r}), "
                  "__import__('figure_layout').install())")
"""An expression that installs the check in a notebook's kernel (a ``user_expression``)."""

PHONE_INSTALL = "__import__('cfrbook.phone_figures').phone_figures.install()"
"""An expression that makes a notebook's kernel attach a phone rendering to every figure it
displays (after :data:`KERNEL_INSTALL`, so that the rendering is checked before it is used).
tools/execute-notebooks evaluates it; nbval does not (output metadata is not compared)."""
