"""Figures with controls that move in a kernel and in the published book, which has no kernel.

An :class:`Explorer` joins a drawing function ``draw(**values)`` and ipywidgets controls:

* in a kernel it is a live widget: moving a control calls ``draw`` with the controls' values
  and shows the figure;
* for the published pages it renders the figure for every point of a grid of control values
  (its *frames*: PNG images, each distinct image stored once) and carries them in a
  ``text/html`` output with plain HTML controls and a few lines of JavaScript that show the
  frame of the controls' position. No kernel, server or network is needed; the page works from
  ``file://`` and the controls work with the keyboard (arrow keys on a focused slider). Each frame
  also has a phone rendering (:func:`cfrbook.phone_figures.phone_figure`: panels stacked, text
  readable in a 320 px column), which the page shows while the screen matches
  :data:`cfrbook.phone_figures.PHONE_MEDIA`. The notebook's output carries the frames inline
  (base64), so that it works by itself in Jupyter; the book build serves each frame as a file of
  the site instead (tools/explorer_frames.py), and the page's script then loads the frames from
  their URLs, preloading those the screen shows, the neighbours of the controls' position first.

One display output carries both: the widget view, which Jupyter front ends prefer, and the HTML,
which the book prefers (``nb_mime_priority_overrides`` in ``_config.yml``). Both show images made
by the same function, :meth:`Explorer.render`, so a reader of the website sees exactly the figure
a kernel draws for the same values.

Why precomputed images rather than a figure library drawing in the browser: the book's figures are
matplotlib figures (one style, one plotting helper); images of them need no second plotting stack,
and a test can compare a stored frame with a fresh render.

Which frames a run draws is set by the environment variable ``CFRLIB_EXPLORER_FRAMES``
(:data:`FRAMES_VARIABLE`), because only the published page needs them all:

* ``all``: every grid point. ``tools/execute-notebooks`` (``make execute``) sets it, so the saved
  notebooks, and the book built from them, carry every frame; the book build refuses a page
  with an explorer missing one.
* ``sample``: the opening frame and :data:`SAMPLE_FRAMES` more spread over the grid (one: the
  end of the grid farther from the opening). The test suite sets it and compares those frames with
  the saved ones, at the same grid points.
* ``opening`` (the default): only the frame the controls open on. A reader running a chapter in
  a kernel has the live widget, which draws each setting when the controls reach it; the page's
  static copy then has that one frame and says so for the other settings.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import io
import itertools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ExplorerError
from .phone_figures import (PHONE_MEDIA, drawn_texts, palette_png, phone_png, smallest_font_pt,
                            smallest_text_px)
from .plotting import COLUMN_WIDTH

MAX_FRAMES = 400
"""Most frames one explorer may precompute; a larger grid needs ``static=`` to thin it."""

DPI = 100
"""Resolution of the frames (and of the live figure), dots per inch of figure size, for figures
up to the width of the book's column; a wider figure is drawn with fewer dots per inch, so that
every frame is at most as wide as the column shows it (``COLUMN_WIDTH * DPI`` pixels)."""

COLORS = 256
"""Colours of a frame's palette (see :func:`cfrbook.phone_figures.palette_png`)."""

PHONE_DPI = 100
"""Resolution of a frame's phone rendering (:func:`cfrbook.phone_figures.phone_figure`: panels
stacked, text sized for a 320 px column): 360 px wide, one dot a CSS pixel, so that an explorer's
phone frames cost what its column frames cost or less (0.54 to 1.05 times over the book's
explorers, issue 39)."""

FRAMES_VARIABLE = "CFRLIB_EXPLORER_FRAMES"
"""The environment variable that says which frames a run draws: ``all``, ``sample`` or
``opening`` (the default); see the module docstring."""

SAMPLE_FRAMES = 1
"""Frames drawn besides the opening one when :data:`FRAMES_VARIABLE` is ``sample``: the end of
the grid farther from the opening (an end is where a wrong frame is likeliest, and every frame
is one more figure drawn under nbval)."""

FRAMES_MODES = ("all", "sample", "opening")

SLIDER_WIDTH = (9.0, 16.0)
"""Least and most width of a slider in the static page, in ems of the controls' text."""

STOP_CHAR = 0.45
"""Width allowed for one character of a stop's label, in ems of the controls' text (labels are
set at 0.75 em, and a digit is at most 0.6 em of its font)."""

STOP_GAP = 0.5
"""Least space between two labels of one row, in ems of the controls' text."""

STOP_ROWS = 3
"""Most rows of labels under a slider whose stops are unevenly spaced (each stop is labelled)."""

THUMB = 8
"""Pixels from an end of a slider's track to the centre of its thumb at that end (Chromium's
thumb is 16 px wide): the labels of the stops sit under the thumb's positions."""


def _checked_mode(mode: str, where: str) -> str:
    if mode not in FRAMES_MODES:
        raise ExplorerError(f"{where}{mode!r}: expected 'all', 'sample' or 'opening'")
    return mode


def frames_mode() -> str:
    """Which frames this run draws, from :data:`FRAMES_VARIABLE` (``opening`` when unset)."""
    return _checked_mode(os.environ.get(FRAMES_VARIABLE, "").strip() or "opening",
                         f"{FRAMES_VARIABLE}=")


def sample_points(size: int, opening: int, count: int = SAMPLE_FRAMES) -> list[int]:
    """The grid points (flat, row-major indices) a ``sample`` run draws: ``opening`` and up to
    ``count`` more, evenly spread from the first to the last point (one: the end farther from
    ``opening``), in increasing order."""
    n = min(count, size)
    if n == 1:
        return sorted({opening, 0 if 2 * opening > size - 1 else size - 1})
    spread = {round(k * (size - 1) / (n - 1)) for k in range(n)}
    return sorted(spread | {opening})


@dataclass(frozen=True)
class Frame:
    """What the explorer shows for one setting of its controls: the text ``draw`` printed, the
    figure as PNG bytes, the figure's titles (its suptitle and its axes' titles, one a line),
    which the static page keeps so that a check can read what the figure says, and the size of
    the figure's smallest text in the PNG's pixels, which the page keeps so that a check can
    measure it as shown (tests/browser/test_figure_text.py); and the phone rendering of the figure
    with its smallest text (empty when the explorer has none or the book's figure check found it
    unreadable: the page then shows the column's frames on a phone, this one and all others)."""

    text: str
    png: bytes
    title: str = ""
    text_px: float = 0.0
    phone: bytes = b""
    phone_text_px: float = 0.0


@dataclass(frozen=True)
class Axis:
    """One control as the static page offers it: the grid ``values`` (shown as ``labels``),
    the index of the control's initial value in them, and how to draw the control: ``"range"``
    (a slider), ``"choice"`` (radio buttons), ``"select"`` (a drop-down list), ``"check"`` (a
    check box) or ``"fixed"`` (a single value: the page states it as text, not as a control)."""

    name: str
    description: str
    kind: str
    values: tuple[Any, ...]
    labels: tuple[str, ...]
    default: int


def _options(widget: Any) -> list[tuple[str, Any]]:
    """``(label, value)`` pairs of a selection widget, as ipywidgets reads its ``options``."""
    options = widget.options
    if isinstance(options, Mapping):
        return [(str(k), v) for k, v in options.items()]
    return [(str(o[0]), o[1]) if isinstance(o, tuple) and len(o) == 2 else (str(o), o)
            for o in options]


def _slider_values(widget: Any) -> list[Any]:
    """Every value an int or float slider can take: ``min + k step`` up to ``max``."""
    count = int(math.floor((widget.max - widget.min) / widget.step + 1e-9)) + 1
    if isinstance(widget.value, int) and not isinstance(widget.value, bool):
        return [widget.min + k * widget.step for k in range(count)]
    return [round(widget.min + k * widget.step, 12) for k in range(count)]


def _index(values: Sequence[Any], value: Any, where: str) -> int:
    """Position of ``value`` in ``values`` (floats compared to 1e-9)."""
    for k, v in enumerate(values):
        if v == value or (isinstance(v, float) and isinstance(value, (int, float))
                          and abs(v - value) <= 1e-9 * max(1.0, abs(value))):
            return k
    raise ExplorerError(f"{where}: its value {value!r} is not among the values the static page "
                        f"offers, {list(values)!r}; include it, so that the page opens on the "
                        "figure a kernel shows first")


def describe_control(name: str, widget: Any, static: Sequence[Any] | None = None) -> Axis:
    """The :class:`Axis` of control ``name``: the values ``widget`` can take (all of a slider's
    steps, all options of a selection), or the subset ``static`` of them."""
    import ipywidgets as widgets

    where = f"control {name!r}"
    description = widget.description or name
    if isinstance(widget, (widgets.ToggleButtons, widgets.RadioButtons, widgets.Dropdown,
                           widgets.Select, widgets.SelectionSlider)):
        pairs = _options(widget)
        kind = ("range" if isinstance(widget, widgets.SelectionSlider) else
                "select" if isinstance(widget, (widgets.Dropdown, widgets.Select)) else "choice")
        label_of = {repr(v): label for label, v in pairs}
        values = [v for _, v in pairs] if static is None else list(static)
        for v in values:
            if repr(v) not in label_of:
                raise ExplorerError(f"{where}: {v!r} is not one of its options "
                                    f"{[v for _, v in pairs]!r}")
        labels = [label_of[repr(v)] for v in values]
    elif isinstance(widget, (widgets.IntSlider, widgets.FloatSlider)):
        kind = "range"
        values = _slider_values(widget) if static is None else list(static)
        fmt = getattr(widget, "readout_format", "d")
        labels = [format(v, fmt) for v in values]
    elif isinstance(widget, (widgets.Checkbox, widgets.ToggleButton)):
        kind, values = "check", [False, True] if static is None else list(static)
        labels = ["yes" if v else "no" for v in values]
    elif static is not None:
        kind, values = "fixed", list(static)
        options = _options(widget) if hasattr(widget, "options") else []
        named = {repr(v): text for text, v in options}

        def shown(v: Any) -> str:
            # a tuple (a SelectMultiple's value) as the list of its options' labels
            return ", ".join(map(shown, v)) if isinstance(v, tuple) else named.get(repr(v), str(v))

        labels = [shown(v) for v in values]
    else:
        raise ExplorerError(f"{where}: a {type(widget).__name__} has no static form; give it "
                            f"static=[...] values (a single value keeps it fixed in the book)")
    if not values:
        raise ExplorerError(f"{where}: the static page needs at least one value")
    if len(values) == 1:
        kind = "fixed"
    value = widget.value
    default = 0 if kind == "fixed" and isinstance(value, tuple) else _index(values, value, where)
    return Axis(name, description, kind, tuple(values), tuple(labels), default)


@dataclass(frozen=True)
class Stops:
    """How the static page marks a slider's stops under its track: the track's ``width`` in ems,
    the stops that carry a label (every stop when they are unevenly spaced; else the first, the
    last and evenly spaced ones between, as many as fit) and the number of staggered ``rows`` of
    labels. The browser draws a tick at every stop (a ``<datalist>``)."""

    width: float
    labelled: tuple[int, ...]
    rows: int


def _evenly_spaced(values: Sequence[Any]) -> bool:
    """Whether ``values`` are numbers with one step between neighbours (to 1e-9 relative)."""
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return False
    steps = [b - a for a, b in itertools.pairwise(values)]
    return all(abs(d - steps[0]) <= 1e-9 * max(1.0, abs(steps[0])) for d in steps)


def slider_stops(axis: Axis) -> Stops:
    """The :class:`Stops` of slider ``axis``: labels of at most ``STOP_CHAR`` em a character,
    ``STOP_GAP`` em apart in a row, under a track at most ``SLIDER_WIDTH[1]`` em wide; evenly
    spaced stops get the most labels that fit in one row, every ``s``-th stop with ``s`` dividing
    the number of steps, and uneven ones a label each, in as few staggered rows as fit (at most
    :data:`STOP_ROWS`)."""
    n = len(axis.values)
    pitch = max(map(len, axis.labels)) * STOP_CHAR + STOP_GAP  # label centres in a row, at least
    least, most = SLIDER_WIDTH
    candidates = ([(s, 1) for s in range(1, n) if (n - 1) % s == 0]
                  if _evenly_spaced(axis.values) else
                  [(1, rows) for rows in range(1, STOP_ROWS + 1)])
    for stride, rows in candidates:
        width = (n - 1) // stride * pitch / rows + 2 * THUMB / 16  # at 16 px an em
        if width <= most:
            return Stops(max(least, width), tuple(range(0, n, stride)), rows)
    raise ExplorerError(
        f"control {axis.name!r}: the labels of its stops ({', '.join(axis.labels)}) do not fit "
        f"under a slider {most:g} em wide; offer fewer values (static=...), evenly spaced ones "
        "or shorter labels")


def frame_alt(alt: str, settings: Sequence[tuple[str, str]]) -> str:
    """The alternative text of one frame: the explorer's ``alt`` and the ``settings`` it shows
    (``(control, value)`` pairs of the controls that move), e.g. "Bars of P(bet). Shown for
    iterations: 100." The static page's script writes the same for each frame it shows."""
    parts = [alt.rstrip(" .")] if alt.strip() else []
    if settings:
        parts.append("Shown for " + "; ".join(f"{name}: {value}" for name, value in settings))
    return ". ".join(parts) + "." if parts else ""


class Explorer:
    """A figure and its controls, live in a kernel and precomputed for the static book.

    Parameters
    ----------
    draw:
        ``draw(**values)`` draws one figure (and may print text shown above it); it must leave the
        figure open (no ``plt.show()``) or return it.
    controls:
        ``{name: ipywidget}``, the keyword arguments of ``draw`` and the widgets that set them.
    static:
        ``{name: values}``: the values the published page offers for a control, a subset of the
        control's own (default: all of them). One value keeps the control fixed in the page,
        which states it as text ("Fixed on this page: ...") rather than drawing a control that
        cannot move.
    layout:
        ``layout(controls, output) -> widget``: how the live widget arranges its controls and the
        figure (default: the controls in a row above the figure).
    play:
        Name of a slider that also gets a play button (live: a ``widgets.Play``; static: a button
        that steps the slider one stop at a time to its end, starting from its first stop when it
        stands at its last or at the stop the page opened on), ``interval`` milliseconds apart.
    note:
        A sentence shown under the controls in the static page (for example what needs a kernel).
    alt:
        Alternative text of the figure, for readers who cannot see it; the static page adds the
        setting shown (:func:`frame_alt`).
    phone:
        Whether the published page carries a phone rendering of every frame
        (:func:`cfrbook.phone_figures.phone_figure`: panels stacked, text readable in a 320 px
        column), shown on screens that match :data:`cfrbook.phone_figures.PHONE_MEDIA`; without
        it a phone shows the column's frame, wider than a phone's column, in a box that scrolls.
    """

    def __init__(self, draw: Callable[..., Any], controls: Mapping[str, Any], *,
                 static: Mapping[str, Sequence[Any]] | None = None,
                 layout: Callable[[dict[str, Any], Any], Any] | None = None,
                 play: str | None = None, interval: int = 1000, note: str = "", alt: str = "",
                 phone: bool = True):
        static = dict(static or {})
        unknown = set(static) - set(controls)
        if unknown:
            raise ExplorerError(f"static values given for {sorted(unknown)}, which are not "
                                f"controls; the controls are {list(controls)}")
        self.draw = draw
        self.controls = dict(controls)
        self.axes = [describe_control(n, w, static.get(n)) for n, w in self.controls.items()]
        if play is not None and (play not in self.controls
                                 or self.axes[list(self.controls).index(play)].kind != "range"):
            raise ExplorerError(f"play={play!r}: the play button needs one of the sliders")
        self.play, self.interval, self.note, self.alt = play, int(interval), note, alt
        self.phone = phone
        self.layout = layout
        self.shape = tuple(len(a.values) for a in self.axes)
        self.stops = {k: slider_stops(a) for k, a in enumerate(self.axes) if a.kind == "range"}
        if math.prod(self.shape) > MAX_FRAMES:
            raise ExplorerError(f"{math.prod(self.shape)} frames "
                                f"({' x '.join(map(str, self.shape))} values of "
                                f"{[a.name for a in self.axes]}) is more than {MAX_FRAMES}: "
                                "thin the grid with static={name: values}")
        self._frames: dict[tuple[tuple[str, ...], bool], Frame] = {}
        self._widget: Any = None

    # ------------------------------------------------------------------ rendering
    def render(self, values: Mapping[str, Any], with_phone: bool = False) -> Frame:
        """Call ``draw(**values)`` and return what it printed and its figure as PNG bytes
        (at most ``COLUMN_WIDTH * DPI`` pixels wide, a palette of ``COLORS`` colours, no
        timestamp or software tag: the same values give the same bytes), with the figure's
        phone rendering if ``with_phone``."""
        import matplotlib.pyplot as plt
        from matplotlib.figure import Figure

        before = set(plt.get_fignums())
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            returned = self.draw(**values)
        opened = [plt.figure(n) for n in plt.get_fignums() if n not in before]
        try:
            if isinstance(returned, Figure):
                figure = returned
            elif len(opened) == 1:
                figure = opened[0]
            else:
                raise ExplorerError(
                    f"draw({', '.join(f'{k}={v!r}' for k, v in values.items())}) left "
                    f"{len(opened)} new figures open; it must draw exactly one and leave it "
                    "open (no plt.show()), or return it")
            buffer = io.BytesIO()
            dpi = min(DPI, COLUMN_WIDTH * DPI / figure.get_figwidth())
            with drawn_texts() as texts:
                figure.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
            titles = [figure.get_suptitle(), *(ax.get_title(loc) for ax in figure.axes
                                               for loc in ("left", "center", "right"))]
            text_px = smallest_text_px(texts, dpi)
            phone, phone_px = self._phone_frame(figure, texts) if with_phone else (b"", 0.0)
        finally:
            for fig in opened:
                plt.close(fig)
            if isinstance(returned, Figure):
                plt.close(returned)
        return Frame(printed.getvalue(), palette_png(buffer.getvalue(), COLORS),
                     "\n".join(t for t in titles if t), text_px, phone, phone_px)

    @staticmethod
    def _phone_frame(figure: Any, texts: Sequence[Any]) -> tuple[bytes, float]:
        """The phone rendering of a frame's ``figure``, whose draw drew ``texts``, and its
        smallest text in its pixels; ``(b"", 0.0)`` when the book's figure check finds it
        unreadable (:data:`cfrbook.phone_figures.layout_check`) or the rendering fails."""
        smallest = min((smallest_font_pt(t) for t in texts), default=0.0)
        try:
            png, px, found = phone_png(figure, dpi=PHONE_DPI, smallest_pt=smallest or None)
        except Exception:   # never break a frame the notebook draws (as phone_figures.install)
            return b"", 0.0
        return (b"", 0.0) if found else (png, px)

    def frame(self, values: Mapping[str, Any], with_phone: bool = False) -> Frame:
        """The frame of ``values`` (rendered once, then kept; once more if ``with_phone`` asks
        for the phone rendering a kept one lacks)."""
        key = tuple(repr(values[a.name]) for a in self.axes)
        if (key, True) in self._frames:
            return self._frames[key, True]
        if (key, with_phone) not in self._frames:
            self._frames[key, with_phone] = self.render(values, with_phone)
        return self._frames[key, with_phone]

    def grid(self) -> list[dict[str, Any]]:
        """Every setting of the static page, in row-major order of the axes (the last axis
        varies fastest): the frame of grid point ``k`` is ``frames()[k]``."""
        names = [a.name for a in self.axes]
        return [dict(zip(names, point)) for point in itertools.product(*(a.values for a in self.axes))]

    def frames(self) -> list[Frame]:
        """The frames of every grid point (see :meth:`grid`)."""
        return [self.frame(values) for values in self.grid()]

    @property
    def opening(self) -> int:
        """The grid point (flat index) of the controls' initial values."""
        start = 0
        for a in self.axes:
            start = start * len(a.values) + a.default
        return start

    def drawn_frames(self, mode: str | None = None) -> list[Frame | None]:
        """The frame of each grid point that ``mode`` draws (see the module docstring; default:
        :func:`frames_mode`), None for the others; with its phone rendering in mode ``all`` (the
        published page's) if the explorer has one (``phone``)."""
        mode = frames_mode() if mode is None else _checked_mode(mode, "frames mode ")
        grid = self.grid()
        points: Sequence[int] = {"all": range(len(grid)), "opening": [self.opening],
                                 "sample": sample_points(len(grid), self.opening)}[mode]
        drawn: list[Frame | None] = [None] * len(grid)
        for k in points:
            drawn[k] = self.frame(grid[k], with_phone=self.phone and mode == "all")
        return drawn

    # ------------------------------------------------------------------ live widget
    def values(self) -> dict[str, Any]:
        """The controls' current values."""
        return {name: widget.value for name, widget in self.controls.items()}

    @property
    def widget(self) -> Any:
        """The live ipywidget: the controls and an output that shows the current frame."""
        if self._widget is None:
            self._widget = self._build_widget()
        return self._widget

    def _build_widget(self) -> Any:
        import ipywidgets as widgets
        from IPython.display import Image, display

        output = widgets.Output()

        def update(change: object = None) -> None:
            shown = self.frame(self.values())
            with output:
                output.clear_output(wait=True)
                if shown.text:
                    print(shown.text, end="")
                display(Image(data=shown.png, format="png"))

        for widget in self.controls.values():
            widget.observe(update, names="value")
        update()
        controls = dict(self.controls)
        if self.play is not None:
            slider = controls[self.play]
            if isinstance(slider, widgets.SelectionSlider):  # played by the index of its option
                player = widgets.Play(value=slider.index, min=0, max=len(slider.options) - 1,
                                      step=1, interval=self.interval)
                widgets.jslink((player, "value"), (slider, "index"))
            else:
                player = widgets.Play(value=slider.value, min=slider.min, max=slider.max,
                                      step=slider.step, interval=self.interval)
                widgets.jslink((player, "value"), (slider, "value"))
            controls = {f"{self.play} (play)": player, **controls}
        if self.layout is not None:
            return self.layout(controls, output)
        return widgets.VBox([widgets.HBox(list(controls.values())), output])

    # ------------------------------------------------------------------ static page
    def static_html(self, mode: str | None = None) -> str:
        """The static page's form: controls, the frame of their position and the frames'
        data, with the script that connects them (see the module docstring). ``mode`` says
        which frames it carries (default: :func:`frames_mode`); ``frame_of`` is None at a grid
        point that was not drawn."""
        images: list[str] = []
        texts: list[str] = []
        titles: list[str] = []
        text_px: list[float] = []
        phones: list[str] = []
        phone_px: list[float] = []
        seen: dict[Frame, int] = {}
        frame_of: list[int | None] = []
        for f in self.drawn_frames(mode):
            if f is None:
                frame_of.append(None)
                continue
            if f not in seen:
                seen[f] = len(images)
                images.append(base64.b64encode(f.png).decode("ascii"))
                texts.append(f.text)
                titles.append(f.title)
                text_px.append(f.text_px)
                phones.append(base64.b64encode(f.phone).decode("ascii"))
                phone_px.append(f.phone_text_px)
            frame_of.append(seen[f])
        data: dict[str, Any] = {"axes": [{"name": a.name, "description": a.description, "labels": list(a.labels),
                          "kind": a.kind, "default": a.default} for a in self.axes],
                "shape": list(self.shape), "frame_of": frame_of, "images": images, "texts": texts,
                "titles": titles, "text_px": text_px, "interval": self.interval, "alt": self.alt}
        # Phone frames only when every frame has one: the figure's layout does not switch
        # between a phone's and the column's (and its scroll box) as the reader moves a control.
        if phones and all(phones):
            data["phone"] = {"media": PHONE_MEDIA, "images": phones, "text_px": phone_px}
        start = self.opening
        first = frame_of[start]
        assert first is not None  # every mode draws the opening frame
        payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        # The datalists' ids: the same data give the same ids, different explorers different ones.
        prefix = "cfrlib-" + hashlib.sha1(payload.encode()).hexdigest()[:12]
        controls = "".join(self._control_html(k, a, prefix) for k, a in enumerate(self.axes)
                           if a.kind != "fixed")
        fixed = "; ".join(f'{html.escape(a.description)}: <span data-readout="{k}">'
                          f"{html.escape(a.labels[a.default])}</span>"
                          for k, a in enumerate(self.axes) if a.kind == "fixed")
        if fixed:
            fixed = f'<p class="cfrlib-explorer-fixed">Fixed on this page: {fixed}.</p>'
        note = f'<p class="cfrlib-explorer-note">{html.escape(self.note)}</p>' if self.note else ""
        # The text box is hidden only when no frame prints (the script keeps its height fixed).
        text_style = "" if any(texts) or None in frame_of else ' hidden=""'
        alt = frame_alt(self.alt, [(a.description, a.labels[a.default]) for a in self.axes
                                   if a.kind != "fixed"])
        return (f'<div class="cfrlib-explorer" data-frame="{start}">{_STYLE}'
                f'<div class="cfrlib-explorer-controls">{controls}</div>{fixed}{note}'
                f'<pre class="cfrlib-explorer-text"{text_style}>{html.escape(texts[first])}</pre>'
                f'<img class="cfrlib-explorer-figure" alt="{html.escape(alt)}" '
                f'data-text-px="{text_px[first]:g}" src="data:image/png;base64,{images[first]}">'
                f'<script type="application/json" class="cfrlib-explorer-data">{payload}</script>'
                f"<script>{_SCRIPT}</script></div>")

    def _control_html(self, k: int, axis: Axis, prefix: str) -> str:
        """The control of axis ``k``, which takes more than one value."""
        label = html.escape(axis.description)
        shown = html.escape(axis.labels[axis.default])
        if axis.kind == "range":
            play = ""
            if axis.name == self.play:
                play = (f'<button type="button" class="cfrlib-explorer-play" data-play="{k}" '
                        f'aria-label="play {label}">&#9654; play</button>')
            return (f'<span class="cfrlib-control cfrlib-range">{play}<label>{label}'
                    f'{self._slider_html(k, axis, f"{prefix}-{k}")}</label>'
                    f'<output data-readout="{k}">{shown}</output></span>')
        if axis.kind == "select":
            options = "".join(f'<option value="{j}"{" selected" if j == axis.default else ""}>'
                              f"{html.escape(text)}</option>" for j, text in enumerate(axis.labels))
            return (f'<span class="cfrlib-control"><label>{label} '
                    f'<select data-axis="{k}">{options}</select></label></span>')
        if axis.kind == "choice":
            group = f"{prefix}-{k}"
            buttons = "".join(
                f'<label><input type="radio" name="{group}" data-axis="{k}" value="{j}"'
                f'{" checked" if j == axis.default else ""}>{html.escape(text)}</label>'
                for j, text in enumerate(axis.labels))
            return (f'<span class="cfrlib-control" role="radiogroup" aria-label="{label}">'
                    f"<span>{label}</span>{buttons}</span>")
        # a check box (a fixed axis has no control: static_html states its value as text)
        checked = " checked" if axis.values[axis.default] else ""
        return (f'<span class="cfrlib-control"><label><input type="checkbox" '
                f'data-axis="{k}"{checked}> {label}</label></span>')

    def _slider_html(self, k: int, axis: Axis, list_id: str) -> str:
        """Slider ``k``: the range input, a datalist of its stops (the browser draws their ticks)
        and the labels of its stops (see :class:`Stops`) under the thumb's positions."""
        stops, last = self.stops[k], len(axis.values) - 1
        options = "".join(f'<option value="{j}" label="{html.escape(text)}"></option>'
                          for j, text in enumerate(axis.labels))
        marks = "".join(
            f'<span data-stop="{j}" style="left:calc({THUMB}px + (100% - {2 * THUMB}px) * '
            f'{j / max(last, 1):.6g});top:{i % stops.rows * 1.2:g}em">'
            f"{html.escape(axis.labels[j])}</span>" for i, j in enumerate(stops.labelled))
        # Half the widest label may stand out beyond each end of the track.
        pad = max(0.0, (max(map(len, axis.labels)) * STOP_CHAR) / 2 - THUMB / 16)
        return (f'<span class="cfrlib-slider" style="width:{stops.width:.4g}em;'
                f'padding:0 {pad:.3g}em">'
                f'<input type="range" data-axis="{k}" min="0" max="{last}" step="1" '
                f'value="{axis.default}" aria-valuetext="{html.escape(axis.labels[axis.default])}" '
                f'list="{list_id}"><datalist id="{list_id}">{options}</datalist>'
                f'<span class="cfrlib-stops" data-stops="{k}" aria-hidden="true" '
                f'style="height:{stops.rows * 1.2:g}em">{marks}</span></span>')

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_())
        bundle["text/plain"] = (f"Explorer of {', '.join(a.name for a in self.axes)} "
                                f"({math.prod(self.shape)} settings)")
        bundle["text/html"] = self.static_html()
        return bundle


_STYLE = (
    "<style>.cfrlib-explorer-controls{display:flex;flex-wrap:wrap;gap:.3em 1.5em;"
    "align-items:center;margin:.3em 0}.cfrlib-control{display:inline-flex;flex-wrap:wrap;gap:.4em;"
    "align-items:center}.cfrlib-control label{display:inline-flex;gap:.3em;align-items:center;"
    "margin:0}.cfrlib-control output{min-width:3em;font-variant-numeric:tabular-nums}"
    ".cfrlib-range,.cfrlib-range label{align-items:flex-start;line-height:1.6em}"
    ".cfrlib-slider{display:inline-block}"
    ".cfrlib-slider input{display:block;width:100%;margin:0;height:1.6em}"
    ".cfrlib-stops{display:block;position:relative;font-size:.75em;line-height:1.2em}"
    ".cfrlib-stops span{position:absolute;transform:translateX(-50%);white-space:nowrap;"
    "font-variant-numeric:tabular-nums}"
    ".cfrlib-explorer-note{font-size:.9em;margin:.2em 0}"
    ".cfrlib-explorer-figure{max-width:100%;height:auto;display:block}"
    ".cfrlib-explorer-fixed{font-size:.9em;margin:.2em 0}"
    ".cfrlib-explorer-text{margin:.3em 0;white-space:pre-wrap;overflow-wrap:anywhere;"
    "box-sizing:border-box;overflow:visible}"
    ".cfrlib-explorer-text span{white-space:nowrap}</style>")

# Shows the frame of the controls' position: the frame index is the row-major index of the
# position (last axis fastest), as in Explorer.grid. The image's alternative text names the setting
# shown (frame_alt). On a screen that matches the phone media query, a frame's phone rendering is
# shown where it has one (the page switches when the screen does). A frame is inline base64 (the
# notebook's output) or, on the book's pages, the URL of its file (tools/explorer_frames.py, which
# also makes the opening frame a <picture> whose phone <source> the script drops once it has set
# the image itself): once the page has loaded, the frames of the set the screen shows are
# preloaded, PRELOAD at a time, the nearest to the controls' position first (grid steps summed
# over the axes), in a new order after each move. The printed text wraps between words, never
# inside one ("9.4e-05" is not broken at its hyphen: each word is a span that does not wrap), and
# keeps the height of the tallest frame's text at the column's width, so that the figure under it
# never moves. Play steps a slider one stop a tick to its end; from its last stop, or from the
# stop it opened on, it starts at the first.
_SCRIPT = """(function(){
var root=document.currentScript.parentElement;
var data=JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
var img=root.querySelector("img.cfrlib-explorer-figure"),
    pre=root.querySelector("pre.cfrlib-explorer-text"),
    source=root.querySelector("picture source");
function write(el,t){
  el.textContent="";
  t.split(/(\\s+)/).forEach(function(part,j){
    if(j%2){el.appendChild(document.createTextNode(part));}
    else if(part){
      var word=document.createElement("span");word.textContent=part;el.appendChild(word);
    }
  });
}
var phone=data.phone&&window.matchMedia?window.matchMedia(data.phone.media):null;
function shown(){return phone&&phone.matches?data.phone:data;}
function url(image){return data.urls?image:"data:image/png;base64,"+image;}
var grid=data.frame_of.map(function(f,i){
  var at=[];
  for(var k=data.shape.length-1;k>=0;k--){at[k]=i%data.shape[k];i=Math.floor(i/data.shape[k]);}
  return at;
});
var PRELOAD=4,loaded={},queue=[],loading=0,started=false;
function pump(){
  while(loading<PRELOAD&&queue.length){
    var u=queue.shift();
    if(loaded[u]){continue;}
    var im=new Image();
    loaded[u]=im;loading++;
    im.onload=im.onerror=function(){loading--;pump();};
    im.src=u;
  }
}
function preload(index){
  if(!data.urls||!started){return;}
  var at=grid[index],images=shown().images,points=[];
  function distance(i){
    return grid[i].reduce(function(d,p,k){return d+Math.abs(p-at[k]);},0);
  }
  data.frame_of.forEach(function(f,i){if(f!==null){points.push(i);}});
  points.sort(function(a,b){return distance(a)-distance(b)||a-b;});
  queue=points.map(function(i){return images[data.frame_of[i]];});
  pump();
}
var UNDRAWN="This setting was not drawn in this copy of the page: move the controls in a "+
  "running notebook, or run make execute to draw every setting.";
function position(k){
  var axis=data.axes[k], el=root.querySelector('[data-axis="'+k+'"]');
  if(axis.kind==="choice"){el=root.querySelector('[data-axis="'+k+'"]:checked');}
  if(axis.kind==="fixed"||!el){return axis.default;}
  if(axis.kind==="check"){return el.checked?1:0;}
  return +el.value;
}
function alt(positions,f){
  var parts=data.alt.trim()?[data.alt.replace(/[ .]+$/,"")]:[];
  var shown=data.axes.map(function(axis,k){
    return axis.kind==="fixed"?null:axis.description+": "+axis.labels[positions[k]];
  }).filter(function(s){return s!==null;});
  if(shown.length){parts.push("Shown for "+shown.join("; "));}
  if(f===null){parts.push("This setting was not drawn in this copy of the page");}
  return parts.length?parts.join(". ")+".":"";
}
function show(){
  var index=0,positions=[];
  data.axes.forEach(function(axis,k){
    var p=position(k);
    positions.push(p);
    index=index*data.shape[k]+p;
    var out=root.querySelector('[data-readout="'+k+'"]'),
        range=root.querySelector('input[type=range][data-axis="'+k+'"]');
    if(out){out.textContent=axis.labels[p];}
    if(range){range.setAttribute("aria-valuetext",axis.labels[p]);}
  });
  var f=data.frame_of[index];
  if(f===null){
    write(pre,UNDRAWN);img.style.opacity=0.3;
  }else{
    var set=shown();
    img.src=url(set.images[f]);
    if(data.urls){loaded[set.images[f]]=loaded[set.images[f]]||img;}
    if(source){source.remove();source=null;}
    img.style.opacity="";
    img.setAttribute("data-text-px",set.text_px[f]);
    img.classList.toggle("cfrlib-explorer-phone",set!==data);
    write(pre,data.texts[f]);
  }
  img.alt=alt(positions,f);
  root.setAttribute("data-frame",index);
  preload(index);
}
function start(){started=true;preload(+root.getAttribute("data-frame"));}
var measured=null;
function fitText(again){
  var width=pre.getBoundingClientRect().width;
  if(pre.hidden||!width||(width===measured&&!again)){return;}
  measured=width;
  var probe=pre.cloneNode(false),tallest=0;
  probe.style.cssText="position:absolute;visibility:hidden;min-height:0;width:"+width+"px";
  pre.after(probe);
  data.texts.concat(data.frame_of.indexOf(null)<0?[]:[UNDRAWN]).forEach(function(t){
    write(probe,t);tallest=Math.max(tallest,probe.getBoundingClientRect().height);
  });
  probe.remove();
  pre.style.minHeight=tallest+"px";
}
root.querySelectorAll("[data-axis]").forEach(function(el){
  el.addEventListener("input",show);el.addEventListener("change",show);
});
root.querySelectorAll("[data-play]").forEach(function(button){
  var range=root.querySelector('input[type=range][data-axis="'+button.dataset.play+'"]'),timer=null;
  var opening=range.value;
  function stop(){clearInterval(timer);timer=null;button.innerHTML="&#9654; play";}
  button.addEventListener("click",function(){
    if(timer){stop();return;}
    if(+range.value>=+range.max||range.value===opening){range.value=range.min;show();}
    button.innerHTML="&#10074;&#10074; pause";
    timer=setInterval(function(){
      if(+range.value>=+range.max){stop();return;}
      range.value=+range.value+1;show();
    },data.interval);
  });
});
show();fitText();
if(phone){phone.addEventListener("change",show);}
if(window.ResizeObserver){new ResizeObserver(function(){fitText();}).observe(root);}
else{window.addEventListener("resize",function(){fitText();});}
window.addEventListener("load",function(){fitText(true);});
if(document.readyState==="complete"){start();}else{window.addEventListener("load",start);}
if(document.fonts){document.fonts.ready.then(function(){fitText(true);});}
})();"""
