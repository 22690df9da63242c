"""Figures on a phone: a second rendering of each figure for a column 320 px wide, and the size
of the smallest text every image was drawn with.

A figure drawn for the book's column (650 px at a 1280 px window) is shown a half to a quarter
of its width on a phone, its text 3 to 7 px high. :func:`phone_figure` makes a copy for the
phone: the panels of a grid stacked in one column, :data:`PHONE_WIDTH` inches wide, every text
scaled so that the smallest drawn glyph (a tick label's exponent included) is
:data:`PHONE_TARGET_PX` CSS pixels high in the narrowest column a phone gives a figure
(:data:`PHONE_COLUMN_PX`). The data, styles and labels are the figure's own. A figure whose
layout type sizes alone cannot fit (a game tree: its labels would run into each other) carries
its own phone drawing instead (:func:`set_phone_drawing`, :func:`with_phone`), made by its
drawing code.

:func:`install` makes an IPython kernel attach to every matplotlib figure it displays as a PNG
(output metadata ``image/png`` -> ``cfrbook``): ``text_px``, the smallest text of the PNG in its
own pixels, and ``phone``, the phone rendering (base64 PNG, 256 colours) with its
``phone_text_px``, or, when the book's figure check finds the phone rendering unreadable
(:data:`layout_check`), ``phone_problems`` instead: the page then shows the figure itself on a
phone, wider than the column, in a box that scrolls sideways. tools/execute-notebooks installs it, so the committed notebooks carry both;
tools/phone_pictures.py serves the phone rendering to narrow screens through ``<picture>``, and
the page's ``data-text-px`` attributes let tests/browser/test_figure_text.py measure every figure's
text as a reader sees it. Output metadata is not compared by nbval, and images are compared with
a tolerance (tools/frame_check.py), never byte for byte.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import math
import pickle
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.text import Text

PHONE_COLUMN_PX = 320
"""Width in CSS pixels of the narrowest box a figure gets on a 390 px phone (320 inside an
exercise's solution, 340 to 358 elsewhere; measured by tests/browser/test_figure_text.py)."""
PHONE_MIN_PX = 8.0
"""The smallest text, in CSS pixels, a figure may show on a 390 px phone."""
PHONE_TARGET_PX = 8.8
"""The size the smallest glyph of a phone rendering is drawn at in a :data:`PHONE_COLUMN_PX`
column (a margin over :data:`PHONE_MIN_PX`)."""
PHONE_WIDTH = 3.6
"""Width in inches of a phone rendering (360 px at 100 dpi: about one CSS pixel a dot)."""
PHONE_DPI = 200
"""Resolution of a static figure's phone rendering: two dots a CSS pixel, sharp on a phone."""
PANEL_ASPECT = (0.7, 1.0)
"""Least and most height of a phone rendering's panel (labels included), in widths."""
LEGEND_COLUMNS = 2
"""Most columns of a figure legend (one under or beside the panels) in a phone rendering."""
PHONE_MEDIA = "(max-width: 576px)"
"""Screens that get the phone rendering (the theme's own breakpoint for phones)."""
PHONE_TEXT_PT = PHONE_TARGET_PX * PHONE_WIDTH * 72 / PHONE_COLUMN_PX
"""Points of the smallest text of a figure drawn for a phone (:func:`set_phone_drawing`):
:data:`PHONE_WIDTH` inches shown :data:`PHONE_COLUMN_PX` pixels wide, it is
:data:`PHONE_TARGET_PX` pixels high (7.1 points)."""

layout_check: Callable[..., list[str]] | None = None
"""``layout_check(figure, **savefig)``, if set, saves ``figure`` with the ``savefig`` options
and returns what a reader could not read in it (tools/figure_layout.py's ``problems``, which sets
it when installed): a phone rendering with problems is not used, and the page shows the figure
itself, wider than the phone's column, in a box that scrolls (tools/static/figure_zoom.js)."""


@functools.lru_cache(maxsize=4096)
def _smallest_glyph(text: str, size: float, family: tuple[str, ...], fontset: str) -> float:
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser

    parsed = MathTextParser("path").parse(text, 72, FontProperties(family=list(family), size=size))
    return min((glyph[1] for glyph in parsed.glyphs), default=size)


def smallest_font_pt(text: Any) -> float:
    """The size in points a reader must read ``text`` at: its font size, or for a number that a
    tick formatter wrote in mathtext (``$\\mathdefault{10^{-4}}$``, whose exponent is the value)
    the size of its smallest glyph, the exponent (0.7 of the label's size). The sub- and
    superscripts of a formula in a label or legend are read as a formula's are, with the body."""
    import matplotlib as mpl

    size = float(text.get_fontsize())
    string, math_mode = text._preprocess_math(text.get_text())
    if math_mode is not True or "\\mathdefault" not in string:
        return size
    family = tuple(text.get_fontproperties().get_family())
    return _smallest_glyph(string, size, family, str(mpl.rcParams["mathtext.fontset"]))


@contextlib.contextmanager
def drawn_texts() -> Iterator[list[Text]]:
    """Collects the texts that hold characters drawn inside the ``with`` block (every figure's
    titles, labels, tick labels, legend entries and annotations, as the image shows them)."""
    from matplotlib.text import Text

    drawn: list[Text] = []
    draw = Text.draw

    def recording(self: Text, renderer: Any, *args: Any, **kwargs: Any) -> Any:
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return draw(self, renderer, *args, **kwargs)

    Text.draw = recording   # type: ignore[method-assign,assignment]
    try:
        yield drawn
    finally:
        Text.draw = draw   # type: ignore[method-assign]


def smallest_text_px(texts: Iterable[Text], dpi: float) -> float:
    """The smallest glyph of ``texts`` in pixels of an image at ``dpi`` (0 for no text)."""
    return round(min((smallest_font_pt(t) for t in texts), default=0.0) * dpi / 72, 2)


def _panels(figure: Any) -> list[list[Any]]:
    """The figure's grid cells as groups of axes (an axes and its twins), in reading order, or
    [] when the axes do not all sit in one grid (insets, nested grids)."""
    groups: dict[tuple[int, int, int, int], list[Any]] = {}
    grid = None
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        spec = ax.get_subplotspec()
        if spec is None:
            if getattr(ax, "_colorbar_info", None) is not None or hasattr(ax, "_colorbar"):
                continue   # a colorbar follows its parent
            return []
        if grid is None:
            grid = spec.get_gridspec()
        if spec.get_gridspec() is not grid:
            return []
        key = (spec.rowspan.start, spec.colspan.start, spec.rowspan.stop, spec.colspan.stop)
        groups.setdefault(key, []).append(ax)
    return [groups[key] for key in sorted(groups)]


def _stack(figure: Any, panels: list[list[Any]]) -> None:
    """Put each group of ``panels`` in a row of its own, one column."""
    grid = figure.add_gridspec(len(panels), 1)
    for row, group in enumerate(panels):
        for ax in group:
            ax.set_subplotspec(grid[row])
    for group in panels:
        ax = group[0]
        siblings = ax.get_shared_y_axes().get_siblings(ax)
        if len(siblings) > 1:   # side by side they shared one y axis, labelled on the left
            ax.yaxis.set_tick_params(which="both", labelleft=True)
            if not ax.get_ylabel():
                ax.set_ylabel(next((s.get_ylabel() for s in siblings if s.get_ylabel()), ""))


def _rebuild_legend(legend: Any, factor: float, ncols: int) -> set[int]:
    """``legend`` rebuilt with its text ``factor`` times larger, its handles and spacing (in
    font sizes) with it, in ``ncols`` columns at most; returns the ids of its texts."""
    title = legend.get_title()
    title_text, title_size = title.get_text(), title.get_fontsize()
    legend.prop.set_size(legend._fontsize * factor)
    legend._fontsize = legend.prop.get_size_in_points()
    legend._ncols = min(legend._ncols, ncols)
    legend._init_legend_box(list(legend.legend_handles), [t.get_text() for t in legend.texts])
    legend._set_loc(legend._loc)   # the new box, placed where the old one was
    # the new box's title is shown even when empty (an empty line over the entries): set it again
    legend.set_title(title_text, prop={"size": title_size * factor})
    return {id(t) for t in [*legend.texts, legend.get_title()]}


def _scale_text(figure: Any, factor: float, legend_columns: int) -> None:
    """Every text of ``figure`` ``factor`` times larger (tick labels drawn later too); the
    figure's own legends (below or beside its panels) in ``legend_columns`` columns at most."""
    done: set[int] = set()
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which, found in (("major", axis.majorTicks), ("minor", axis.minorTicks)):
                if found:
                    axis.set_tick_params(which=which,
                                         labelsize=found[0].label1.get_fontsize() * factor)
                done.update(id(t) for tick in found for t in (tick.label1, tick.label2))
        if ax.get_legend() is not None:
            done |= _rebuild_legend(ax.get_legend(), factor, ncols=1)   # to go under its axes
    for legend in figure.legends:
        done |= _rebuild_legend(legend, factor, legend_columns)
    texts = figure.findobj(lambda artist: hasattr(artist, "get_fontsize")
                           and hasattr(artist, "set_fontsize"))
    # finding them made the ticks of every tick position, at the new size already
    done.update(id(t) for ax in figure.axes for axis in (ax.xaxis, ax.yaxis)
                for tick in [*axis.majorTicks, *axis.minorTicks] for t in (tick.label1, tick.label2))
    for text in texts:
        if id(text) not in done:
            text.set_fontsize(text.get_fontsize() * factor)


def _lines(text: str, count: int) -> str:
    """``text`` broken into ``count`` lines of about equal length at spaces outside ``$...$``."""
    spaces = [k for k, c in enumerate(text) if c == " " and text[:k].count("$") % 2 == 0]
    breaks: list[int] = []
    for n in range(1, count):
        candidates = [k for k in spaces if k not in breaks and (not breaks or k > breaks[-1])]
        if not candidates:
            break
        breaks.append(min(candidates, key=lambda k: abs(k - n * len(text) / count)))
    out = list(text)
    for k in breaks:
        out[k] = "\n"
    return "".join(out)


def _wrap_long_texts(figure: Any) -> bool:
    """An axis label longer than its axes, a title or legend entry wider than the figure, on as
    many lines as fit it; whether any was."""
    renderer = figure.canvas.get_renderer()
    room = 0.96 * figure.bbox.width
    wrapped = False
    for ax in figure.axes:
        box = ax.get_window_extent(renderer)
        centre = (box.x0 + box.x1) / 2   # a title is centred over its axes
        wrap = [(ax.yaxis.label, box.height, "height"), (ax.xaxis.label, box.width, "width"),
                (ax.title, 1.8 * min(centre, figure.bbox.width - centre), "width")]
        legend = ax.get_legend()
        if legend is not None:
            wrap += [(text, room * 0.7, "width") for text in legend.get_texts()]   # and its handle
        for text, space, along in wrap:
            extent = getattr(text.get_window_extent(renderer), along)
            if text.get_text() and extent > space:
                lines = text.get_text().count("\n") + 1
                text.set_text(_lines(text.get_text().replace("\n", " "),
                                     math.ceil(lines * extent / space)))
                wrapped = True
    if figure._suptitle is not None and figure._suptitle.get_text() \
            and figure._suptitle.get_window_extent(renderer).width > room:
        title = figure._suptitle
        title.set_text(_lines(title.get_text(), math.ceil(title.get_window_extent(renderer).width / room)))
        wrapped = True
    return wrapped


def _crowded(labels: list[Any], renderer: Any) -> bool:
    """Whether two of ``labels`` (tick labels along x) come closer than 2 pixels."""
    boxes = sorted((label.get_window_extent(renderer) for label in labels), key=lambda b: b.x0)
    return any(a.x1 + 2 > b.x0 for a, b in zip(boxes, boxes[1:]))


def _separate_tick_labels(figure: Any) -> bool:
    """Category labels along an x axis that run into each other at a phone's type size get a
    line a word (names such as "max-margin re-solve"); tick labels that still do are turned
    upright, on one line each, each ending under its tick, the figure taller by their height
    (upright rather than slanted: the figure check measures a text by its box, which only then is
    the text's own); whether any were."""
    from matplotlib.ticker import FuncFormatter

    renderer = figure.canvas.get_renderer()
    changed = False
    for ax in figure.axes:
        def labels() -> list[Any]:
            return [tick.label1 for tick in ax.xaxis.get_major_ticks()
                    if tick.label1.get_visible() and tick.label1.get_text().strip()
                    and 0 <= ax.transLimits.transform((tick.get_loc(), 0))[0] <= 1]
        if not _crowded(labels(), renderer):
            continue
        changed = True
        named = ax.xaxis.get_major_formatter()

        def relabel(change: Callable[[str], str], named: Any = named) -> None:
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, pos: change(named(x, pos))))

        relabel(lambda text: text if "$" in text else text.replace(" ", "\n"))
        figure.draw_without_rendering()
        if not _crowded(labels(), renderer):
            continue
        relabel(lambda text: text if "$" in text else text.replace("\n", " "))   # turned: one line
        ax.tick_params(axis="x", which="major", labelrotation=90, rotation_mode="xtick")
        figure.draw_without_rendering()   # the panel keeps its height: the figure grows
        tallest = max(label.get_window_extent(renderer).height for label in labels())
        width, height = figure.get_size_inches()
        figure.set_size_inches(width, height + tallest / figure.dpi)
    return changed


def _legends_below(figure: Any) -> None:
    """Each axes' legend under its axes (below its tick labels and x label), one entry a line:
    a panel a phone's width has no room for a legend inside it."""
    from matplotlib.transforms import offset_copy

    renderer = figure.canvas.get_renderer()
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend is None or not ax.axison:
            continue
        labels = ax.xaxis.get_tightbbox(renderer)   # None for an axis drawn without ticks
        below = ax.get_window_extent(renderer).y0 - labels.y0 if labels is not None else 0
        shift = max(below, 0) / figure.dpi * 72 + 4
        legend.set_bbox_to_anchor((0.5, 0), transform=offset_copy(
            ax.transAxes, fig=figure, y=-shift, units="points"))
        legend._set_loc(9)   # upper center, at that anchor
        legend._loc_used_default = False
        width, height = figure.get_size_inches()   # the panel keeps its height
        extra = legend.get_window_extent(renderer).height / figure.dpi + shift / 72
        figure.set_size_inches(width, height + extra)


def _fewer_minor_labels(figure: Any) -> None:
    """Log axes get minor ticks at 2 and 5 times each power of ten, labelled when the axis spans
    less than a decade (at a phone's type size, 2 x 10^-1 to 9 x 10^-1 run into each other)."""
    from matplotlib.ticker import LogFormatterSciNotation, LogLocator

    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() == "log" and isinstance(axis.get_minor_formatter(),
                                                        LogFormatterSciNotation):
                axis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
                axis.set_minor_formatter(LogFormatterSciNotation(labelOnlyBase=False,
                                                                 minor_thresholds=(1, 1)))


_PHONE_DRAWING = "_cfrbook_phone_drawing"


def set_phone_drawing(figure: Figure, draw: Callable[[], Any]) -> Figure:
    """Let ``figure`` be drawn for a phone by ``draw()`` (which returns a figure or an axes of
    one, :data:`PHONE_WIDTH` inches wide) rather than by :func:`phone_figure`'s rescaling of its
    type: a figure whose layout only its drawing code can change (a game tree turned on its
    side) has its phone rendering drawn by that code. Returns ``figure``."""
    setattr(figure, _PHONE_DRAWING, draw)
    return figure


def with_phone(draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Figure:
    """The figure of ``draw(*args, **kwargs)`` (which returns a figure or an axes of one), its
    phone rendering drawn by ``draw(*args, phone=True, **kwargs)`` (:func:`set_phone_drawing`):
    ``with_phone(plotting.draw_game_tree, game, highlight=path)``."""
    drawn = draw(*args, **kwargs)
    figure: Figure = getattr(drawn, "figure", drawn)
    return set_phone_drawing(figure, lambda: draw(*args, phone=True, **kwargs))


def _drawn_for_phone(figure: Figure) -> Any:
    """The phone rendering :func:`set_phone_drawing` gave ``figure``, drawn now, or None."""
    import matplotlib as mpl
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cfrlib.errors import CfrlibError

    draw = getattr(figure, _PHONE_DRAWING, None)
    if draw is None:
        return None
    with mpl.rc_context():   # the drawing's phone type sizes end with it
        drawn = draw()
    phone: Any = getattr(drawn, "figure", drawn)   # an axes' figure
    plt.close(phone)   # the caller owns it, as it owns phone_figure's copy
    FigureCanvasAgg(phone)
    width = phone.get_size_inches()[0]
    if abs(width - PHONE_WIDTH) > 1e-6:
        raise CfrlibError(f"a figure's phone drawing is {width:g} inches wide; it must be "
                          f"PHONE_WIDTH = {PHONE_WIDTH:g}")
    return phone


def phone_figure(figure: Figure, smallest_pt: float | None = None) -> Figure:
    """A copy of ``figure`` laid out for a phone (see the module docstring), or the figure its
    own drawing code draws for a phone (:func:`set_phone_drawing`); ``figure`` itself is left
    as it is. ``smallest_pt`` is the figure's smallest glyph in points, if a draw of
    it measured it already (:func:`drawn_texts`). The copy's ``page_column`` attribute,
    ``(PHONE_COLUMN_PX, PHONE_MIN_PX)``, tells the book's figure check (tools/figure_layout.py)
    where it is shown."""
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    drawn = _drawn_for_phone(figure)
    if drawn is not None:
        drawn.page_column = (PHONE_COLUMN_PX, PHONE_MIN_PX)
        return drawn

    copy: Any = pickle.loads(pickle.dumps(figure))
    plt.close(copy)   # unpickling registered it with pyplot
    FigureCanvasAgg(copy)
    if all(ax.get_subplotspec() is not None for ax in copy.axes):   # not for axes placed by hand
        copy.set_layout_engine("constrained")   # makes room for the legends and labels it moves
    width, height = figure.get_size_inches()
    panels = _panels(copy)
    if panels:
        grid = panels[0][0].get_subplotspec().get_gridspec()
        rows, cols = grid.get_geometry()
        cell = (height / rows) / (width / cols)
        if cols > 1:
            _stack(copy, panels)
            rows = len(panels)
        new_height = rows * PHONE_WIDTH * min(max(cell, PANEL_ASPECT[0]), PANEL_ASPECT[1])
        new_height += 0.25 * sum(math.ceil(len(legend.get_texts()) / LEGEND_COLUMNS)
                                 for legend in copy.legends)
    else:
        new_height = height * PHONE_WIDTH / width
    copy.set_size_inches(PHONE_WIDTH, new_height)
    smallest = smallest_pt
    if smallest is None:
        with drawn_texts() as texts:
            copy.draw_without_rendering()
        smallest = min((smallest_font_pt(t) for t in texts), default=0.0)
    if smallest > 0:
        _scale_text(copy, PHONE_TARGET_PX * 72 * PHONE_WIDTH / (PHONE_COLUMN_PX * smallest),
                    LEGEND_COLUMNS)
    _fewer_minor_labels(copy)
    for _ in range(2):   # wrapping a label moves the axes, and a title with them
        copy.draw_without_rendering()
        if not _wrap_long_texts(copy):
            break
    copy.draw_without_rendering()
    _separate_tick_labels(copy)
    _legends_below(copy)
    copy.page_column = (PHONE_COLUMN_PX, PHONE_MIN_PX)
    return copy


def palette_png(png: bytes, colors: int = 256) -> bytes:
    """``png`` with at most ``colors`` colours (no dithering): a figure's flat colours and
    anti-aliased edges lose nothing visible, and the file shrinks about 2.5 times."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    palette = image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE,
                             dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="png", optimize=True)
    return out.getvalue()


def phone_png(figure: Figure, dpi: float = PHONE_DPI,
              smallest_pt: float | None = None) -> tuple[bytes, float, list[str]]:
    """The phone rendering of ``figure`` (:func:`phone_figure`) as a 256-colour PNG at ``dpi``,
    its smallest text in the PNG's pixels and what :data:`layout_check` found in it."""
    phone = phone_figure(figure, smallest_pt)
    buffer = io.BytesIO()
    options: dict[str, Any] = {"format": "png", "dpi": dpi, "metadata": {"Software": None}}
    with drawn_texts() as texts:
        found = layout_check(phone, fname=buffer, **options) if layout_check else []
        if layout_check is None:
            phone.savefig(buffer, **options)
    return palette_png(buffer.getvalue()), smallest_text_px(texts, dpi), found


def _savefig_dpi(figure: Figure) -> float:
    import matplotlib as mpl

    dpi = mpl.rcParams["savefig.dpi"]
    return float(figure.dpi if dpi == "figure" else dpi)


def page_metadata(figure: Figure, texts: Iterable[Text]) -> dict[str, Any]:
    """What :func:`install` attaches to a figure's PNG, whose draw drew ``texts`` (see the
    module docstring)."""
    smallest = min((smallest_font_pt(t) for t in texts), default=0.0)
    page: dict[str, Any] = {"text_px": round(smallest * _savefig_dpi(figure) / 72, 2)}
    with warnings.catch_warnings():   # the notebook's outputs are the same with or without it
        warnings.simplefilter("ignore")
        png, phone_px, found = phone_png(figure, smallest_pt=smallest or None)
    if found:
        page["phone_problems"] = found[:5]
    else:
        page.update(phone=base64.b64encode(png).decode("ascii"), phone_text_px=phone_px)
    return page


def install() -> None:
    """Attach :func:`page_metadata` to every matplotlib figure this IPython kernel displays as a
    PNG (idempotent; nothing outside IPython)."""
    from IPython import get_ipython
    from matplotlib.figure import Figure

    shell = get_ipython()
    if shell is None or getattr(shell.display_formatter.format, "cfrbook_phone", False):
        return
    original = shell.display_formatter.format

    def format(obj: Any, include: Any = None, exclude: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
        with drawn_texts() as texts:
            data, metadata = original(obj, include=include, exclude=exclude)
        if isinstance(obj, Figure) and "image/png" in data:
            try:
                page = page_metadata(obj, texts)
            except Exception as error:   # never break a figure the notebook draws
                page = {"text_px": smallest_text_px(texts, _savefig_dpi(obj)),
                        "phone_problems": [f"the phone rendering failed: {error!r}"]}
            metadata = {**metadata, "image/png": {**metadata.get("image/png", {}),
                                                  "cfrbook": page}}
        return data, metadata

    format.cfrbook_phone = True   # type: ignore[attr-defined]
    shell.display_formatter.format = format
