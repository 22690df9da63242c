"""The minor ticks of log axes drawn as one artist per axis: the same image, at less cost.

matplotlib makes a :class:`~matplotlib.axis.Tick` (two marks, two labels, a grid line) for each
minor tick of a log axis, some fifty per axis over four decades, and positions, formats and
measures each one at every pass that saving a figure makes over its axes (constrained layout, the
tight bounding box, the drawing: a dozen or more per axis). On the book's log-log figures that was
about half of the cost of saving them (tests/test_log_ticks.py shows the tick count).

Where a log axis's minor ticks are only marks (every label empty, as matplotlib's formatter leaves
them on an axis spanning more than a decade, and no minor grid line), the minor locator gives
matplotlib no locations, and ``_MinorMarks`` draws the marks instead: one
:class:`~matplotlib.lines.Line2D` of markers per side, with the first minor tick's own marker,
size, width, colour and transform, at the locations matplotlib would have drawn (its minor
locations less those of major ticks, within the view). The image is the same, pixel for pixel
(tests/test_log_ticks.py). Where a minor tick has a label to show (an axis spanning about a
decade) or a grid line, matplotlib's own ticks stay, as they do under any locator set by hand.

:func:`install` (called by :func:`cfrbook.plotting.style`) registers :class:`LogScale` under the
name ``"log"``, so that each axis set to a log scale afterwards, in this process, gets them.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from matplotlib import artist, lines, scale, ticker


def _marks_only(axis: Any, locs: Any) -> bool:
    """Whether the minor ticks of ``axis`` at ``locs`` would show only their marks."""
    tick = axis.get_minor_ticks(1)[0]   # the ticks' settings (tick_params keeps it up to date)
    if tick.gridline.get_visible():
        return False
    labelled = tick.label1.get_visible() or tick.label2.get_visible()
    return not (labelled and any(axis.get_minor_formatter().format_ticks(locs)))


class MarkedMinorLocator(ticker.LogLocator):
    """matplotlib's minor locator of a log axis, which gives no locations where the ticks would
    be marks only: ``_MinorMarks`` draws those."""

    def __call__(self) -> Any:
        locs = super().__call__()
        return locs[:0] if _marks_only(self.axis, locs) else locs

    def marks(self) -> Any:
        """The locations of the marks to draw: matplotlib's minor locations without those of
        major ticks (``Axis.get_minorticklocs``), within the view (``Axis._update_ticks``); none
        where its own ticks are drawn."""
        axis: Any = self.axis
        locs = np.asarray(super().__call__())
        if not len(locs) or not _marks_only(axis, locs):
            return locs[:0]
        transform = axis.get_transform()
        low, high = sorted(transform.transform(axis.get_view_interval()))
        at = transform.transform(locs)
        if axis.remove_overlapping_locs:
            majors = transform.transform(np.asarray(axis.major.locator()))
            close = np.isclose(at[:, None], majors[None, :], atol=(high - low) * 1e-5, rtol=0)
            keep = ~close.any(axis=1)
            locs, at = locs[keep], at[keep]
        slack = (high - low) * 1e-10
        return locs[(at >= low - slack) & (at <= high + slack)]


class _MinorMarks(artist.Artist):
    """The bare minor tick marks of one log axis (see the module's docstring)."""

    def __init__(self, axis: Any) -> None:
        super().__init__()
        self.axis = axis
        # Just above the axis: drawn after its major ticks, as matplotlib draws the minor ones
        # (where a minor mark touches a major one, the blending's rounding depends on the order).
        self.zorder = float(np.nextafter(axis.get_zorder(), np.inf))
        self.set_in_layout(False)
        self._line = lines.Line2D([], [])

    def draw(self, renderer: Any) -> None:
        """The marks :meth:`MarkedMinorLocator.marks` gives, on each side with tick marks."""
        axis, axes = self.axis, self.axes
        locator = axis.get_minor_locator()
        if not (self.get_visible() and isinstance(locator, MarkedMinorLocator)
                and axis.get_visible() and axes is not None and axes.axison):
            return
        locs = locator.marks()
        if not len(locs):
            return
        tick = axis.get_minor_ticks(1)[0]
        for side in (tick.tick1line, tick.tick2line):
            if not side.get_visible():
                continue
            # Each point where Tick.update_position puts a mark, through the non-affine part of
            # the transform one at a time, as each tick's own line goes: numpy may compute a long
            # array with other (SIMD) loops than one value, and a last bit's difference can move
            # a mark by a pixel on some CPU. The renderer applies the affine part to all alike.
            transform = side.get_transform()
            if axis.axis_name == "x":
                points = [(loc, side.get_ydata()[0]) for loc in locs]
            else:
                points = [(side.get_xdata()[0], loc) for loc in locs]
            xy = np.concatenate([transform.transform_non_affine(np.array([p], dtype=float))
                                 for p in points])
            self._line.update_from(side)
            self._line.set_transform(transform.get_affine())
            self._line.set_data(xy[:, 0], xy[:, 1])
            self._line.draw(renderer)
        self.stale = False


class LogScale(scale.LogScale):
    """matplotlib's log scale with :class:`MarkedMinorLocator` and ``_MinorMarks``."""

    def __init__(self, *, base: float = 10, subs: Any = None,
                 nonpositive: Literal["clip", "mask"] = "clip") -> None:
        super().__init__(base=base, subs=subs, nonpositive=nonpositive)

    def set_default_locators_and_formatters(self, axis: Any) -> None:
        """matplotlib's locators and formatters of a log axis, with :class:`MarkedMinorLocator`
        for the minor ticks, and the axis's marks artist (added to its axes once)."""
        super().set_default_locators_and_formatters(axis)
        subs: Any = self.subs
        axis.set_minor_locator(MarkedMinorLocator(self.base, subs))
        axes = axis.axes
        if not any(isinstance(a, _MinorMarks) and a.axis is axis for a in axes.get_children()):
            axes.add_artist(_MinorMarks(axis))


def install() -> None:
    """Make ``"log"`` name :class:`LogScale` in this process (idempotent)."""
    scale.register_scale(LogScale)
