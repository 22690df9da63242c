"""Game trees drawn for a phone (issue 39, finding 6): chapters 3, 4 and 7's tree explorers draw
their phone frames with the trees' own phone layouts (cfrbook.plotting.draw_game_tree and
cfrbook.trees.draw_tree on their side, cfrbook.trees.draw_public_tree as an outline), which fit
a phone's column with every label legible and apart, every node drawn; and a figure that carries
its own phone drawing (cfrbook.phone_figures.set_phone_drawing) gets it as its phone rendering."""

from __future__ import annotations

import figure_layout
import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from cfrbook import phone_figures, plotting, trees  # noqa: E402
from cfrlib import CfrlibError, games  # noqa: E402

KUHN = games.kuhn()
KUHN_ORDER = ["J", "Q", "K", "Jp", "Qp", "Kp", "Jb", "Qb", "Kb", "Jpb", "Qpb", "Kpb"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _walk():   # chapters 3 and 4: a history on the tree
    return trees.draw_history(KUHN, ("J", "K", "pass", "bet"), phone=True)


def _reach():   # chapter 3: a number beside every node, an infoset ringed
    placed = trees.place(KUHN)
    return trees.draw_tree(KUHN, node_text={n: "0.083" for n in range(placed.tree.num_nodes)},
                           ringed=[trees.node_index(placed, (c, "Q", "bet")) for c in "JK"],
                           title="Kuhn's equilibrium, ω = 1/3:\ncounterfactual reach of player 1",
                           phone=True)


def _traversal():   # chapter 7: the nodes a traversal touched, the current one ringed
    placed = trees.place(KUHN)
    lit = [trees.node_index(placed, ("K", "Q", "bet")[:k]) for k in range(4)]
    return trees.draw_tree(KUHN, lit=lit, current=lit[-1], phone=True,
                           lit_style={**plotting.VARIANT_STYLES["ES-MCCFR"],
                                      "label": "external sampling"},
                           title="external sampling, step 4")


def _betting():   # chapter 4: regrets and strategies in the boxes of the public tree
    return trees.draw_public_tree(KUHN, lambda key: ["+0.033", "-0.312", "0.19"],
                                  ["R(p)/T", "R(b)/T", "σ̄(b)"], bar=lambda key: 0.4,
                                  bar_label="σ(b)", order=KUHN_ORDER,
                                  title="Kuhn poker after T = 1000 iterations of CFR", phone=True)


DRAWINGS = {"walk": _walk, "reach": _reach, "traversal": _traversal, "betting": _betting}


def _texts(figure):
    """The texts the figure draws with their boxes in pixels at the explorers' phone dpi."""
    figure.set_dpi(100)
    with phone_figures.drawn_texts() as texts:
        figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    return [(t, t.get_window_extent(renderer)) for t in texts]


@pytest.mark.parametrize("name", DRAWINGS)
@pytest.mark.slow  # a phone rendering: make test only
def test_a_phone_tree_fits_the_column_its_labels_legible_and_apart(name):
    figure = DRAWINGS[name]().figure
    assert figure.get_size_inches()[0] == phone_figures.PHONE_WIDTH
    texts = _texts(figure)
    # the smallest text, shown in the narrowest phone column (320 px for 360 px of figure)
    shown = phone_figures.PHONE_COLUMN_PX / (phone_figures.PHONE_WIDTH * 72)   # px a point
    smallest = min(phone_figures.smallest_font_pt(t) for t, _ in texts)
    assert smallest == pytest.approx(phone_figures.PHONE_TEXT_PT, abs=0.01)
    assert smallest * shown >= phone_figures.PHONE_MIN_PX
    for k, (a, box_a) in enumerate(texts):
        assert box_a.x0 >= 0 and box_a.x1 <= 360 + 1, a.get_text()   # inside the image
        for b, box_b in texts[k + 1:]:
            dx = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            dy = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            assert dx <= 1 or dy <= 1, f"{a.get_text()!r} overlaps {b.get_text()!r}"


@pytest.mark.slow   # the book's figure check on four drawings (about 4 s): make test only
@pytest.mark.parametrize("name", DRAWINGS)
def test_a_phone_tree_passes_the_books_figure_check_in_the_phone_column(name):
    figure = DRAWINGS[name]().figure
    figure.page_column = (phone_figures.PHONE_COLUMN_PX, phone_figures.PHONE_MIN_PX)
    assert figure_layout.problems(figure, format="png", dpi=100) == []


@pytest.mark.parametrize("name", ["walk", "reach", "traversal"])
def test_a_phone_tree_draws_every_node_with_its_key(name):
    ax = DRAWINGS[name]()
    tree = KUHN.tree()
    offsets = np.concatenate([c.get_offsets() for c in ax.collections if c.get_gid() == "nodes"])
    placed = trees.place(KUHN)
    assert sorted(map(tuple, offsets)) == sorted(zip(placed.x, placed.y))   # each node once
    keys = [t.get_text() for t in ax.texts]
    # each infoset's two nodes (a card is also the name of a chance move)
    assert all(keys.count(key) == 2 + 3 * (len(key) == 1) for key in tree.infoset_keys)
    assert keys.count("p") == keys.count("b") == 24
    assert all(f"{v:+g}" in keys for v in tree.payoff[tree.terminal_node])


def test_the_phone_walk_marks_its_history_as_the_column_does():
    ax = _walk()
    placed = trees.place(KUHN)
    node = trees.node_index(placed, ("J", "K", "pass", "bet"))
    ring, = [c for c in ax.collections if c.get_gid() == "chosen-node"]
    assert tuple(ring.get_offsets()[0]) == pytest.approx((placed.x[node], placed.y[node]))
    thick, = [c for c in ax.collections if c.get_label() == "history"]
    assert len(thick.get_segments()) == 4
    root = trees.draw_history(KUHN, (), phone=True)
    ring, = [c for c in root.collections if c.get_gid() == "chosen-node"]
    assert tuple(ring.get_offsets()[0]) == pytest.approx((placed.x[0], placed.y[0]))


def test_the_phone_outline_gives_each_infoset_one_row_under_its_parent():
    ax = _betting()
    texts = {t.get_text(): t.get_position() for t in ax.texts}
    assert all(key in texts for key in KUHN.tree().infoset_keys)
    # a walk down the tree, each box indented under its parent: root, p, p-b, then b
    assert texts["J"][1] > texts["Jp"][1] > texts["Jpb"][1] > texts["Jb"][1]
    assert texts["J"][0] < texts["Jp"][0] < texts["Jpb"][0]
    assert texts["Jp"][0] == pytest.approx(texts["Jb"][0])


def test_a_figure_with_its_own_phone_drawing_gets_it_and_the_type_sizes_come_back():
    fig = _walk().figure   # stands for a column figure
    size = matplotlib.rcParams["font.size"]
    phone_figures.set_phone_drawing(fig, _reach)
    phone = phone_figures.phone_figure(fig)
    assert phone.axes[0].get_title().startswith("Kuhn's equilibrium")
    assert phone.page_column == (phone_figures.PHONE_COLUMN_PX, phone_figures.PHONE_MIN_PX)
    assert matplotlib.rcParams["font.size"] == size
    assert phone not in map(plt.figure, plt.get_fignums())   # closed from pyplot: the caller's
    # with_phone: the same drawing function, called again with phone=True
    column = phone_figures.with_phone(trees.draw_history, KUHN, ("Q",))
    assert column.get_size_inches()[0] > phone_figures.PHONE_WIDTH
    drawn = phone_figures.phone_figure(column)
    assert drawn.get_size_inches()[0] == phone_figures.PHONE_WIDTH
    assert [c for c in drawn.axes[0].collections if c.get_gid() == "chosen-node"]
    phone_figures.set_phone_drawing(fig, lambda: plotting.new_figure(width=6)[1])
    with pytest.raises(CfrlibError, match="6 inches wide"):
        phone_figures.phone_figure(fig)


@pytest.mark.slow  # a phone rendering: make test only
def test_an_explorer_of_a_tree_carries_the_trees_own_phone_drawing():
    """The wiring of chapters 3, 4 and 7: an explorer whose drawing gives its figure a phone
    drawing (phone_figures.with_phone) carries that drawing as each frame's phone frame, 360 px
    wide, where rescaling the column's type was refused by the figure check."""
    import base64
    import json
    import re
    import struct

    import ipywidgets as widgets

    from cfrbook import interactive

    figure_layout.install()   # as tools/execute-notebooks does: a refused rendering is left out

    def show(T):
        phone_figures.with_phone(trees.draw_public_tree, KUHN, lambda key: [f"{T:+.3f}"],
                                 ["R(b)/T"], order=KUHN_ORDER, title=f"T = {T}")

    page = interactive.Explorer(show, {"T": widgets.IntSlider(value=1, min=1, max=2)}).static_html("all")
    data = json.loads(re.search(r'cfrlib-explorer-data">(.*?)</script>', page).group(1))
    assert len(data["phone"]["images"]) == 2
    for png in data["phone"]["images"]:
        width, height = struct.unpack(">II", base64.b64decode(png)[16:24])
        assert width == round(phone_figures.PHONE_WIDTH * interactive.PHONE_DPI)
    assert data["phone"]["images"][0] != data["phone"]["images"][1]
