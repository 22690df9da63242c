"""The book's figure helpers draw what they say: axes, scales, lines, markers, arcs."""

import itertools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from cfrbook import plotting  # noqa: E402
from cfrlib import games  # noqa: E402
from cfrlib.errors import CfrlibError  # noqa: E402
from cfrlib.solvers.base import ConvergenceLog  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _log(name, exploitabilities):
    rows = [(10 * (k + 1), 58 * 10 * (k + 1), 0.01 * (k + 1), e)
            for k, e in enumerate(exploitabilities)]
    return ConvergenceLog(name, rows)


def _node_markers(ax):
    return {c.get_label(): len(c.get_offsets()) for c in ax.collections if c.get_gid() == "nodes"}


def test_convergence_plot_has_log_axes_labels_and_one_line_per_log():
    logs = [_log("CFR", [0.5, 0.2, 0.1]), _log("CFR+", [0.4, 0.05, 0.01])]
    ax = plotting.plot_convergence(logs, x="nodes_touched")
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_xlabel() == "nodes touched"
    assert ax.get_ylabel() == "exploitability (chips per game)"
    assert [line.get_label() for line in ax.get_lines()] == ["CFR", "CFR+"]
    np.testing.assert_array_equal(ax.get_lines()[1].get_xdata(), [580, 1160, 1740])
    np.testing.assert_array_equal(ax.get_lines()[1].get_ydata(), [0.4, 0.05, 0.01])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["CFR", "CFR+"]


def test_convergence_plot_accepts_a_mapping_and_drops_points_a_log_scale_cannot_show():
    ax = plotting.plot_convergence({"exact": _log("", [0.3, 0.0, 0.1])}, x="seconds")
    assert ax.get_xlabel() == "time (seconds)"
    line, = ax.get_lines()
    np.testing.assert_allclose(line.get_xdata(), [0.01, 0.03])
    np.testing.assert_allclose(line.get_ydata(), [0.3, 0.1])


def test_convergence_plot_refuses_unknown_columns_and_empty_logs():
    with pytest.raises(CfrlibError, match="x='time'"):
        plotting.plot_convergence(_log("a", [0.1]), x="time")
    with pytest.raises(CfrlibError, match="empty"):
        plotting.plot_convergence(ConvergenceLog("a"))
    with pytest.raises(CfrlibError, match="not a ConvergenceLog"):
        plotting.plot_convergence({"a": [0.1, 0.2]})


def test_loglog_checks_lengths():
    with pytest.raises(CfrlibError, match="'bound' has \\(2,\\) values for x of shape \\(3,\\)"):
        plotting.plot_loglog([1, 2, 3], {"bound": [1, 2]})


def test_kuhn_tree_has_a_marker_per_node_and_an_arc_per_infoset_neighbour():
    game = games.kuhn()
    ax = plotting.draw_game_tree(game)
    # 4 chance nodes (the two deals), 12 + 12 decision nodes, 30 terminals (58 nodes, as OpenSpiel 2.0.2 builds kuhn_poker).
    assert _node_markers(ax) == {"chance": 4, "player 0": 12, "player 1": 12, "terminal": 30}
    arcs = [line for line in ax.get_lines() if line.get_gid() == "infoset-arc"]
    # Each of Kuhn's 12 infosets holds two histories (two deals look alike): one arc each.
    assert len(arcs) == 12
    texts = [t.get_text() for t in ax.texts]
    assert {"K", "Qp", "Jpb", "Kb"} <= set(texts)
    # 54 edges: 9 chance outcomes, 24 x 2 actions shortened to the letters of the keys.
    assert texts.count("p") == 24 and texts.count("b") == 24
    full = [t.get_text() for t in plotting.draw_game_tree(game, action_labels="full").texts]
    assert full.count("pass") == 24 and "p" not in full
    with pytest.raises(CfrlibError, match="action_labels must be"):
        plotting.draw_game_tree(game, action_labels="long")


def test_tree_layout_puts_parents_above_the_middle_of_their_children():
    tree, x, y, labels = plotting.tree_layout(games.kuhn())
    assert labels[:4] == ["", "J", "Q", "K"]
    for node in np.flatnonzero(tree.num_children > 0):
        kids = slice(tree.first_child[node], tree.first_child[node] + tree.num_children[node])
        assert x[node] == pytest.approx(x[kids].mean())
        assert np.all(y[kids] == y[node] - 1)
    leaves = np.sort(x[tree.num_children == 0])
    np.testing.assert_array_equal(leaves, np.arange(30))


def test_highlighted_history_is_drawn_and_a_wrong_one_is_named():
    ax = plotting.draw_game_tree(games.kuhn(), highlight=("K", "Q", "pass", "bet"))
    thick = [c for c in ax.collections if c.get_label() == "history"]
    assert len(thick) == 1 and len(thick[0].get_segments()) == 4
    with pytest.raises(CfrlibError, match="step 2 .* 'raise'"):
        plotting.draw_game_tree(games.kuhn(), highlight=("K", "Q", "raise"))


def _chosen(ax):
    rings = [c for c in ax.collections if c.get_gid() == "chosen-node"]
    assert len(rings) == 1
    return tuple(rings[0].get_offsets()[0])


@pytest.mark.parametrize("history", [(), ("K",), ("K", "Q")])
def test_every_history_is_marked_down_to_the_root(history):
    """Chapter 4's walk ends at a deal ("K") and at the root (): each history, however short,
    has its node ringed and the legend names the history and the node (issue 39, finding 5)."""
    tree, x, y, labels = plotting.tree_layout(games.kuhn())
    ax = plotting.draw_game_tree(games.kuhn(), highlight=history)
    node = {(): 0, ("K",): 3, ("K", "Q"): labels.index("Q", tree.first_child[3])}[history]
    assert labels[node] == (history[-1] if history else "")
    assert _chosen(ax) == pytest.approx((x[node], y[node]))
    thick = [c for c in ax.collections if c.get_label() == "history"]
    assert len(thick) == 1 and len(thick[0].get_segments()) == len(history)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == ["history", "chosen node"]
    # no history asked for, none drawn
    plain = plotting.draw_game_tree(games.kuhn())
    assert not [c for c in plain.collections if c.get_gid() == "chosen-node"]


def test_big_trees_are_refused():
    with pytest.raises(CfrlibError, match="9,457 nodes"):
        plotting.draw_game_tree(games.leduc())


def test_simplex_maps_pure_strategies_to_corners_and_uniform_to_the_centre():
    xy = plotting.simplex_coordinates([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1 / 3, 1 / 3, 1 / 3]])
    np.testing.assert_allclose(xy[:3], [[0, 0], [1, 0], [0.5, np.sqrt(3) / 2]])
    np.testing.assert_allclose(xy[3], [0.5, np.sqrt(3) / 6])


def test_simplex_plot_draws_each_path_and_refuses_non_distributions():
    path = np.array([[0.6, 0.2, 0.2], [0.4, 0.3, 0.3], [1 / 3, 1 / 3, 1 / 3]])
    ax = plotting.plot_simplex({"average": path}, points={"equilibrium": [1 / 3] * 3})
    labels = [line.get_label() for line in ax.get_lines()]
    assert "average" in labels and "equilibrium" in labels
    average = ax.get_lines()[labels.index("average")]
    np.testing.assert_allclose(average.get_xdata(), plotting.simplex_coordinates(path)[:, 0])
    with pytest.raises(CfrlibError, match="row 1 is not .* \\[0.5, 0.6, 0.0\\]"):
        plotting.plot_simplex([[1, 0, 0], [0.5, 0.6, 0.0]])
    with pytest.raises(CfrlibError, match="3 actions"):
        plotting.simplex_coordinates([0.5, 0.5])


def test_new_figure_applies_the_book_style():
    fig, axes = plotting.new_figure(1, 2)
    assert axes.shape == (2,)
    assert matplotlib.rcParams["axes.spines.top"] is False
    assert fig.get_size_inches()[0] == pytest.approx(12.8)


def test_importing_the_plotting_module_does_not_load_matplotlib():
    import subprocess
    import sys

    code = "import sys, cfrbook.plotting; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_wide_figures_draw_their_text_larger_in_proportion():
    """The page shrinks a figure wider than its column; the text grows by the same factor."""
    import matplotlib.pyplot as plt

    from cfrbook import plotting

    sizes = {}
    for width in (5.0, plotting.COLUMN_WIDTH, 2 * plotting.COLUMN_WIDTH):
        fig, ax = plotting.new_figure(width=width, height=3.0)
        sizes[width] = ax.xaxis.label.get_fontsize(), ax.title.get_fontsize()
        plt.close(fig)
    assert sizes[5.0] == sizes[plotting.COLUMN_WIDTH]
    assert sizes[2 * plotting.COLUMN_WIDTH] == tuple(2 * s for s in sizes[5.0])


def test_figures_use_only_the_fonts_matplotlib_ships():
    """Text and math are drawn with matplotlib's own DejaVu files, whatever fonts the machine
    has (CI installs Chromium, and its fonts, while the notebooks run)."""
    import matplotlib as mpl
    from matplotlib import font_manager

    plotting.style()
    shipped = Path(mpl.get_data_path()).resolve()
    for weight in ("normal", "bold"):
        for style in ("normal", "italic"):
            found = font_manager.findfont(font_manager.FontProperties(
                family=mpl.rcParams["font.family"], weight=weight, style=style),
                fallback_to_default=False)
            assert Path(found).resolve().is_relative_to(shipped), found
    assert mpl.rcParams["mathtext.fontset"] == "dejavusans"


# Machado, Oliveira & Fernandes (2009), full severity, on linear RGB.
COLOUR_VISION_DEFICIENCIES = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}


def _seen_lab(hex_colour: str, deficiency: str) -> np.ndarray:
    """CIELAB (D65) of an sRGB colour as a reader with ``deficiency`` sees it."""
    c = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    linear = np.clip(np.array(COLOUR_VISION_DEFICIENCIES[deficiency]) @ linear, 0.0, 1.0)
    to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    x = (to_xyz @ linear) / (to_xyz @ np.ones(3))
    f = np.where(x > (6 / 29) ** 3, np.cbrt(x), x / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_variant_colours_stay_apart_under_colour_vision_deficiencies():
    """Every two colours the variants are drawn in stay at least 12 apart in CIELAB (Delta E 1976)
    as readers with protanopia, deuteranopia or tritanopia see them; matplotlib's default red and
    green fall to 7 for deuteranopia, its blue and purple to 6 for protanopia."""
    colours = sorted({style["color"] for style in plotting.VARIANT_STYLES.values()})
    for deficiency in COLOUR_VISION_DEFICIENCIES:
        for a, b in itertools.combinations(colours, 2):
            gap = np.linalg.norm(_seen_lab(a, deficiency) - _seen_lab(b, deficiency))
            assert gap >= 12, (deficiency, a, b, gap)
    for a, b, deficiency in (("#d62728", "#2ca02c", "deuteranopia"), ("#1f77b4", "#9467bd", "protanopia")):
        assert np.linalg.norm(_seen_lab(a, deficiency) - _seen_lab(b, deficiency)) < 12   # it can fail
