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


def _draw(cases, builtin: bool):
    """The ``cases`` (names of FIGURES), a panel each, in one small styled figure, with
    matplotlib's log scale (``builtin``) or cfrbook's: the PNG's pixels and the figure."""
    import matplotlib.pyplot as plt
    from PIL import Image

    columns = min(2, len(cases))   # 6.4 inches: narrower than the column, text at its size
    rows = -(-len(cases) // columns)
    fig, axes = plotting.new_figure(rows, columns, width=3.2 * columns, height=2.4 * rows,
                                    squeeze=False)
    with warnings.catch_warnings():   # matplotlib's own takes an axis parameter, pending deprecation
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        scale.register_scale(scale.LogScale if builtin else log_ticks.LogScale)
    try:                               # (new_figure installed cfrbook's)
        for name, ax in zip(cases, axes.ravel()):
            FIGURES[name](ax)
        for ax in axes.ravel()[len(cases):]:
            ax.set_visible(False)
        out = io.BytesIO()
        fig.savefig(out, format="png", bbox_inches="tight")
        plt.close(fig)
        return np.asarray(Image.open(out)), fig
    finally:
        log_ticks.install()


def _differing_pixels(cases) -> int:
    ours, _ = _draw(cases, builtin=False)
    theirs, _ = _draw(cases, builtin=True)
    return -1 if ours.shape != theirs.shape else int(np.any(ours != theirs, axis=-1).sum())


CASES = ["log-log", *FIGURES]   # two log-log panels side by side, then every case


@pytest.fixture(scope="module")
def ours():
    """Every case in one figure, drawn with cfrbook's log scale: its pixels and the figure."""
    return _draw(CASES, builtin=False)


@pytest.mark.slow  # matplotlib's own minor ticks, the cost log_ticks saves: make test only
def test_the_marks_give_matplotlibs_image_pixel_for_pixel(ours):
    theirs = _draw(CASES, builtin=True)
    for mine, its in zip(ours[1].axes[:2], theirs[1].axes[:2]):   # not a vacuous comparison
        for axis, their_axis in ((mine.xaxis, its.xaxis), (mine.yaxis, its.yaxis)):
            assert len(axis.minorTicks) == 1 and len(their_axis.minorTicks) >= 30
    if ours[0].shape != theirs[0].shape or np.any(ours[0] != theirs[0]):
        alone = {name: _differing_pixels([name]) for name in FIGURES}   # to name the culprits
        pytest.fail("the images differ; drawn alone, these cases differ (pixels, -1 for the "
                    f"size): { {name: n for name, n in alone.items() if n} }")


@pytest.mark.slow  # draws every case (the fixture): make test only
def test_an_axis_of_marks_makes_one_minor_tick_and_draws_its_marks(ours):
    for axis in (ours[1].axes[0].xaxis, ours[1].axes[0].yaxis):      # log-log, four decades
        assert len(axis.minorTicks) == 1          # the settings' tick, never drawn
        assert 25 <= len(axis.get_minor_locator().marks()) <= 40


@pytest.mark.slow  # draws every case (the fixture): make test only
def test_labelled_or_gridded_minor_ticks_stay_matplotlibs(ours):
    axes = ours[1].axes
    narrow = axes[CASES.index("a narrow axis, its minor ticks labelled")].yaxis
    assert [t.label1.get_text() for t in narrow.minorTicks if t.label1.get_text()]
    assert len(narrow.get_minor_locator().marks()) == 0
    grid = axes[CASES.index("a minor grid")].xaxis
    assert len(grid.minorTicks) > 1 and len(grid.get_minor_locator().marks()) == 0


def test_style_installs_the_scale_and_a_figure_keeps_it_through_a_pickle():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure()
    ax.loglog(X, X ** -0.5)
    assert isinstance(ax.yaxis.get_minor_locator(), log_ticks.MarkedMinorLocator)
    marks = [a for a in ax.get_children() if isinstance(a, log_ticks._MinorMarks)]
    assert [m.axis for m in marks] == [ax.xaxis, ax.yaxis]
    ax.set_yscale("log")                                 # again: no second artist
    assert len([a for a in ax.get_children() if isinstance(a, log_ticks._MinorMarks)]) == 2
    assert ax.get_lines() and all(not isinstance(a, log_ticks._MinorMarks) for a in ax.get_lines())
    copy = pickle.loads(pickle.dumps(fig))
    (copied,) = copy.axes
    assert [m.axis for m in copied.get_children() if isinstance(m, log_ticks._MinorMarks)] == [
        copied.xaxis, copied.yaxis]
    plt.close(fig)
    plt.close(copy)
