"""cfrbook.log_ticks: the minor ticks of log axes drawn as one artist per axis give the image
matplotlib's own ticks give, pixel for pixel, with a fraction of the tick objects."""

from __future__ import annotations

import io
import pickle
import warnings

import matplotlib
import numpy as np
import pytest
from matplotlib import scale, ticker

from cfrbook import log_ticks, plotting

matplotlib.use("Agg")

X = np.logspace(0, 4, 200)


def _loglog(ax):
    for k in range(3):
        ax.plot(X, 1 / X ** (0.5 + 0.2 * k), label=f"series {k}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.legend()


FIGURES = {
    "log-log": _loglog,
    "a narrow axis, its minor ticks labelled": lambda ax: ax.semilogy(
        np.linspace(0, 1, 50), np.linspace(0.2, 0.9, 50)),
    "a minor grid": lambda ax: (ax.loglog(X, X ** -0.5), ax.grid(True, which="both")),
    "minor tick parameters": lambda ax: (ax.loglog(X, X ** -0.5), ax.tick_params(
        which="minor", length=6, width=2, color="red", direction="in")),
    "an inverted axis, ticks on both sides": lambda ax: (
        ax.loglog(X, X ** -0.5), ax.invert_xaxis(), ax.tick_params(top=True, which="both")),
    "limits set by hand": lambda ax: (ax.loglog(X, X ** -1.5), ax.set_xlim(3, 7000)),
    "a locator and formatter set by hand": lambda ax: (
        ax.loglog(X, X ** -0.5), ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5))),
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())),
    "minor ticks turned off": lambda ax: (ax.loglog(X, X ** -0.5), ax.minorticks_off()),
}


def _draw(panel, builtin: bool, panels: int = 1):
    """``panel`` drawn in a small styled figure (``panels`` times side by side), as a PNG's
    pixels, with matplotlib's log scale (``builtin``) or cfrbook's, and the figure."""
    import matplotlib.pyplot as plt
    from PIL import Image

    fig, axes = plotting.new_figure(1, panels, width=3.2 * panels, height=2.4, squeeze=False)
    axes = axes.ravel()                        # new_figure installs cfrbook's scale
    with warnings.catch_warnings():   # matplotlib's own takes an axis parameter, pending deprecation
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        scale.register_scale(scale.LogScale if builtin else log_ticks.LogScale)
    try:
        for ax in axes:
            panel(ax)
        out = io.BytesIO()
        fig.savefig(out, format="png", bbox_inches="tight")
        plt.close(fig)
        return np.asarray(Image.open(out)), fig
    finally:
        log_ticks.install()


@pytest.mark.parametrize("name", FIGURES)
def test_the_marks_give_matplotlibs_image_pixel_for_pixel(name):
    panels = 2 if name == "log-log" else 1
    ours, _ = _draw(FIGURES[name], builtin=False, panels=panels)
    theirs, _ = _draw(FIGURES[name], builtin=True, panels=panels)
    assert ours.shape == theirs.shape
    differing = int(np.any(ours != theirs, axis=-1).sum())
    assert differing == 0, f"{name}: {differing} pixels differ"


def test_an_axis_of_marks_makes_one_minor_tick_where_matplotlib_makes_dozens():
    _, ours = _draw(FIGURES["log-log"], builtin=False, panels=2)
    _, theirs = _draw(FIGURES["log-log"], builtin=True, panels=2)
    for mine, its in zip(ours.axes, theirs.axes):
        for axis, their_axis in ((mine.xaxis, its.xaxis), (mine.yaxis, its.yaxis)):
            assert len(axis.minorTicks) == 1          # the settings' tick, never drawn
            assert len(their_axis.minorTicks) >= 30
            assert 20 <= len(axis.get_minor_locator().marks()) < len(their_axis.minorTicks)


def test_labelled_or_gridded_minor_ticks_stay_matplotlibs():
    _, narrow = _draw(FIGURES["a narrow axis, its minor ticks labelled"], builtin=False)
    axis = narrow.axes[0].yaxis
    assert [t.label1.get_text() for t in axis.minorTicks if t.label1.get_text()]
    assert len(axis.get_minor_locator().marks()) == 0
    _, grid = _draw(FIGURES["a minor grid"], builtin=False)
    assert len(grid.axes[0].xaxis.minorTicks) > 1
    assert len(grid.axes[0].xaxis.get_minor_locator().marks()) == 0


def test_style_installs_the_scale_and_a_figure_keeps_it_through_a_pickle():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure()
    ax.loglog(X, X ** -0.5)
    assert isinstance(ax.yaxis.get_minor_locator(), log_ticks.MarkedMinorLocator)
    marks = [a for a in ax.get_children() if isinstance(a, log_ticks.MinorMarks)]
    assert [m.axis for m in marks] == [ax.xaxis, ax.yaxis]
    ax.set_yscale("log")                                 # again: no second artist
    assert len([a for a in ax.get_children() if isinstance(a, log_ticks.MinorMarks)]) == 2
    assert ax.get_lines() and all(not isinstance(a, log_ticks.MinorMarks) for a in ax.get_lines())
    copy = pickle.loads(pickle.dumps(fig))
    (copied,) = copy.axes
    assert [m.axis for m in copied.get_children() if isinstance(m, log_ticks.MinorMarks)] == [
        copied.xaxis, copied.yaxis]
    plt.close(fig)
    plt.close(copy)
