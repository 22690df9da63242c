"""Draw the family tree of the algorithms in the book into chapters/images/family_tree.svg.

Regret matching leads to CFR; CFR branches into the Monte Carlo variants (chance, external and
outcome sampling) and into the line of faster full-width variants (CFR+, Linear CFR, DCFR,
predictive CFR+). Run from anywhere: ``python tools/make_family_tree.py [output.svg]``. The
output is deterministic (no date, fixed SVG ids), so re-running it gives no diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "chapters" / "images" / "family_tree.svg"

# name: (x, y, label, where the book treats it); families share a colour. Top to bottom: regret
# matching, CFR, then the sampling family (left) and the full-width family (middle, right), so
# that the figure fits the text column with its text at least 9 px high (tests/test_family_tree.py).
NODES = {
    "rm": (0.0, 3.5, "Regret matching\nHart & Mas-Colell 2000", "chapter 1"),
    "cfr": (0.0, 2.2, "CFR\nZinkevich et al. 2007", "chapter 4"),
    "cs": (-3.4, 0.8, "Chance sampling\nZinkevich et al. 2007", "chapter 6"),
    "es": (-3.4, -0.5, "External sampling\nLanctot et al. 2009", "chapter 7"),
    "os": (-3.4, -1.8, "Outcome sampling\nLanctot et al. 2009", "chapter 7"),
    "plus": (0.0, 0.8, "CFR+\nTammelin 2014", "chapter 8"),
    "linear": (0.0, -0.5, "Linear CFR\nBrown & Sandholm 2019", "chapter 8"),
    "dcfr": (0.0, -1.8, "DCFR\nBrown & Sandholm 2019", "chapter 9"),
    "pcfr": (3.6, 0.8, "Predictive CFR+\nFarina et al. 2021", "chapters 9, 10"),
}
FAMILY = {"rm": "#eeeeee", "cfr": "#d6e4f5", "cs": "#fde2c8", "es": "#fde2c8", "os": "#fde2c8",
          "plus": "#d9f0d3", "linear": "#d9f0d3", "dcfr": "#d9f0d3", "pcfr": "#d9f0d3"}
# (from, to, label, where the label goes: x, y, horizontal and vertical alignment)
EDGES = [
    ("rm", "cfr", "at every information set", (0.15, 2.85, "left", "center")),
    ("cfr", "cs", "", None),
    ("cfr", "es", "", None),
    ("cfr", "os", "", None),
    ("cfr", "plus", "regret matching+,\nlinear average", (0.15, 1.5, "left", "center")),
    ("plus", "linear", "weight iteration t by t", (0.15, 0.15, "left", "center")),
    ("linear", "dcfr", "discount by (\u03b1, \u03b2, \u03b3)", (0.15, -1.15, "left", "center")),
    ("plus", "pcfr", "predict the\nnext regret", (1.8, 0.88, "center", "bottom")),
]
BOX_W, BOX_H = 2.5, 0.8


def _edge_points(start, end):
    """Where the segment between two box centres leaves the first box and enters the second."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    half_w, half_h = BOX_W / 2 + 0.08, BOX_H / 2 + 0.08
    t = min(half_w / abs(dx) if dx else float("inf"), half_h / abs(dy) if dy else float("inf"))
    return (x0 + t * dx, y0 + t * dy), (x1 - t * dx, y1 - t * dy)


def draw(output: Path) -> Path:
    """Render the figure to ``output`` (SVG) and return the path."""
    plt.rcParams.update({"svg.hashsalt": "cfrlib-family-tree", "svg.fonttype": "path",
                         "font.size": 10})
    xlim, ylim, inches_per_unit = (-4.75, 4.95), (-2.75, 4.0), 1.0
    fig = plt.figure(figsize=((xlim[1] - xlim[0]) * inches_per_unit,
                              (ylim[1] - ylim[0]) * inches_per_unit))
    ax = fig.add_axes((0, 0, 1, 1))
    for key, (x, y, label, where) in NODES.items():
        ax.add_patch(FancyBboxPatch((x - BOX_W / 2, y - BOX_H / 2), BOX_W, BOX_H,
                                    boxstyle="round,pad=0.04,rounding_size=0.1",
                                    fc=FAMILY[key], ec="#444444", lw=1.0))
        ax.text(x, y, label, ha="center", va="center", fontsize=11, linespacing=1.4)
        ax.text(x - BOX_W / 2 + 0.05, y - BOX_H / 2 - 0.08, where, ha="left", va="top", fontsize=10,
                color="#555555", style="italic")
    for start, end, label, place in EDGES:
        a, b = _edge_points(NODES[start][:2], NODES[end][:2])
        if end in ("cs", "es", "os"):  # from CFR's left side down the gap between the columns
            a = (NODES[start][0] - BOX_W / 2 - 0.08, NODES[start][1])
            b = (NODES[end][0] + BOX_W / 2 + 0.08, NODES[end][1])
        ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=14, lw=1.2,
                                     color="#444444", shrinkA=0, shrinkB=0))
        if label:
            x, y, ha, va = place
            ax.text(x, y, label, ha=ha, va=va, fontsize=10, color="#333333", linespacing=1.2)
    ax.text(-3.4, 2.2, "Monte Carlo CFR:\nsample part of the tree\neach iteration", ha="center",
            va="center", fontsize=10.5, color="#a0522d", linespacing=1.3)
    ax.text(1.7, -2.55, "full width, faster convergence", ha="center", fontsize=10.5,
            color="#2e7d32")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.axis("off")
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return output


if __name__ == "__main__":
    print(draw(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUTPUT))
