"""plot_spread (chapters 6 and 7) draws every seeded run, their median and the reference."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from cfrbook import plotting  # noqa: E402
from cfrlib.errors import CfrlibError  # noqa: E402
from cfrlib.solvers.base import ConvergenceLog  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _log(name, nodes, values, iterations=(10, 20, 30)):
    return ConvergenceLog(name, [(t, n, 0.1 * t, v) for t, n, v in zip(iterations, nodes, values)])


RUNS = [_log("cs", [100, 210, 290], [0.9, 0.5, 0.3]),
        _log("cs", [120, 190, 310], [0.7, 0.6, 0.2]),
        _log("cs", [110, 200, 300], [0.8, 0.4, 0.25])]


def test_spread_draws_each_run_their_median_and_the_reference_on_log_axes():
    cfr = _log("CFR", [1000, 2000, 3000], [0.5, 0.1, 0.05])
    ax = plotting.plot_spread(RUNS, x="nodes_touched", reference=cfr, label="chance sampling",
                              highlight=1)
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["_run 0", "_run 1", "_run 2",
                                                    "chance sampling (median of 3)", "CFR"]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_xlabel() == "nodes touched"
    assert ax.get_ylabel() == "exploitability (chips per game)"
    np.testing.assert_array_equal(lines[3].get_xdata(), [110, 200, 300])
    np.testing.assert_array_equal(lines[3].get_ydata(), [0.8, 0.5, 0.25])
    assert lines[1].get_linewidth() > lines[0].get_linewidth()      # the highlighted run
    for line, variant in ((lines[3], "chance sampling"), (lines[4], "CFR alt.")):   # their looks
        style = plotting.VARIANT_STYLES[variant]
        assert (line.get_color(), line.get_marker()) == (style["color"], style["marker"])
    assert lines[0].get_color() == plotting.VARIANT_STYLES["chance sampling"]["color"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["chance sampling (median of 3)", "CFR"]      # runs stay out of the legend


def test_spread_against_iterations_takes_a_mapping_of_references():
    refs = {"CFR": _log("", [1, 2, 3], [0.3, 0.2, 0.1]), "CFR+": _log("", [1, 2, 3], [0.2, 0.1, 0.01])}
    ax = plotting.plot_spread(RUNS[:2], x="iteration", reference=refs)
    assert ax.get_xlabel() == "iterations $T$"
    assert [line.get_label() for line in ax.get_lines()][-2:] == ["CFR", "CFR+"]
    np.testing.assert_array_equal(ax.get_lines()[2].get_ydata(), [0.8, 0.55, 0.25])


def test_spread_refuses_runs_it_cannot_compare():
    with pytest.raises(CfrlibError, match="non-empty list"):
        plotting.plot_spread([])
    with pytest.raises(CfrlibError, match="run 1 is evaluated at other iterations"):
        plotting.plot_spread([RUNS[0], _log("cs", [1, 2, 3], [0.5, 0.4, 0.3], (10, 20, 40))])
    with pytest.raises(CfrlibError, match="x='time'"):
        plotting.plot_spread(RUNS, x="time")
    with pytest.raises(CfrlibError, match="highlight=3"):
        plotting.plot_spread(RUNS, highlight=3)
