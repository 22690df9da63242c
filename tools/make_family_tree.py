"""Draw the family tree of the algorithms in the book into chapters/images/family_tree.svg.

Regret matching leads to CFR; CFR branches into the Monte Carlo variants (chance, external and
outcome sampling, then Deep CFR) and into the line of faster full-width variants (CFR+, Linear
CFR, DCFR, predictive CFR+ and the frontier's variants), subgame solving leads to hold'em spots; every other chapter has a box too, and
each box is a link to its chapter (the introduction inlines the SVG, so that the links work). Run from anywhere: ``python tools/make_family_tree.py [output.svg]``. The
output is deterministic (no date, fixed SVG ids), so re-running it gives no diff.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "chapters" / "images" / "family_tree.svg"

# name: (x, y, label, chapter); families share a colour. Top to bottom: the foundations, CFR,
# then the sampling family (left) and the full-width family (middle, right), then the chapters
# that go beyond and those that put it together, so that the figure fits the text column with its
# text at least 9 px high (tests/test_family_tree.py). Every chapter has a box, and each box links
# to its chapter. Boxes with a dashed outline are chapters about the games and the measurements
# rather than an algorithm.
NODES = {
    "kuhn": (-3.4, 5.0, "CFR on Kuhn poker\nyour first run", 2),
    "rm": (0.0, 5.0, "Regret matching\nHart & Mas-Colell 2000", 1),
    "games": (3.6, 5.0, "Games, best response\nand exploitability", 3),
    "cfr": (0.0, 3.7, "CFR\nZinkevich et al. 2007", 4),
    "why": (3.6, 3.7, "Why CFR works:\nthe bound and the LP", 5),
    "cs": (-3.4, 2.3, "Chance sampling\nZinkevich et al. 2007", 6),
    "os": (-3.4, 1.0, "Outcome sampling\nLanctot et al. 2009", 7),
    "es": (-3.4, -0.3, "External sampling\nLanctot et al. 2009", 7),
    "plus": (0.0, 2.3, "CFR+\nTammelin 2014", 8),
    "linear": (0.0, 1.0, "Linear CFR\nBrown & Sandholm 2019", 8),
    "dcfr": (0.0, -0.3, "DCFR\nBrown & Sandholm 2019", 9),
    "pcfr": (3.6, 2.3, "Predictive CFR+\nFarina et al. 2021", 9),
    "frontier": (3.6, -0.3, "DCFR+, PDCFR+, APCFR+,\nRTCFR+ (2021-2026)", 13),
    "deep": (-3.4, -2.0, "Deep CFR\nBrown et al. 2019", 15),
    "abstraction": (0.0, -2.0, "Abstraction and\ndistributed MCCFR", 12),
    "subgame": (3.6, -2.0, "Subgame solving\nBrown & Sandholm 2017", 14),
    "comparison": (-3.4, -3.5, "The comparison\nat equal work", 10),
    "own": (0.0, -3.5, "Your own game:\nJSON, Gambit, OpenSpiel", 11),
    "holdem": (3.6, -3.5, "Hold'em spots:\nrange-vector CFR", 16),
}
COMPANIONS = {"kuhn", "games", "why", "comparison", "own"}
FAMILY = {"rm": "#eeeeee", "cfr": "#d6e4f5", "kuhn": "#d6e4f5", "cs": "#fde2c8", "es": "#fde2c8",
          "os": "#fde2c8", "deep": "#fde2c8", "plus": "#d9f0d3", "linear": "#d9f0d3",
          "dcfr": "#d9f0d3", "pcfr": "#d9f0d3", "frontier": "#d9f0d3", "games": "#f4f4f4",
          "why": "#f4f4f4", "abstraction": "#fde2c8", "subgame": "#e8ddf0",
          "comparison": "#f4f4f4", "own": "#f4f4f4", "holdem": "#e8ddf0"}
# (from, to, label, where the label goes: x, y, horizontal and vertical alignment)
EDGES = [
    ("rm", "cfr", "at every information set", (0.15, 4.35, "left", "center")),
    ("cfr", "cs", "", None),
    ("cfr", "os", "", None),
    ("cfr", "es", "", None),
    ("cfr", "plus", "regret matching+", (0.15, 3.0, "left", "center")),
    ("plus", "linear", "weight iteration t by t", (0.15, 1.65, "left", "center")),
    ("linear", "dcfr", "discount by (\u03b1, \u03b2, \u03b3)", (0.15, 0.35, "left", "center")),
    ("plus", "pcfr", "predict the\nnext regret", (1.8, 2.38, "center", "bottom")),
    ("pcfr", "frontier", "", None),
    ("dcfr", "frontier", "", None),
    ("es", "deep", "networks in\nplace of tables", (-3.25, -1.15, "left", "center")),
    ("subgame", "holdem", "", None),
]
CHAPTER_FILES = {1: "01_regret_matching", 2: "02_cfr_on_kuhn_poker",
                 3: "03_games_and_exploitability", 4: "04_vanilla_cfr", 5: "05_why_cfr_works",
                 6: "06_chance_sampling", 7: "07_monte_carlo_cfr", 8: "08_cfr_plus",
                 9: "09_discounted_cfr", 10: "10_comparison", 11: "11_your_own_game",
                 12: "12_beyond_small_games", 13: "13_frontier", 14: "14_subgame_solving",
                 15: "15_deep_cfr", 16: "16_holdem"}
"""Chapter number -> its page (without the suffix), as the chapters directory names them."""
BOX_W, BOX_H = 2.5, 0.8


def chapter_link(chapter: int) -> str:
    """The link from the introduction's page to ``chapter``'s page (both in chapters/)."""
    return f"{CHAPTER_FILES[chapter]}.html"


def _edge_points(start, end):
    """Where the segment between two box centres leaves the first box and enters the second."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    half_w, half_h = BOX_W / 2 + 0.08, BOX_H / 2 + 0.08
    t = min(half_w / abs(dx) if dx else float("inf"), half_h / abs(dy) if dy else float("inf"))
    return (x0 + t * dx, y0 + t * dy), (x1 - t * dx, y1 - t * dy)


def draw(output: Path) -> Path:
    """Render the figure to ``output`` (SVG, each box a link to its chapter, sized by its
    ``viewBox`` so that it fills the width of the page it is inlined in) and return the path."""
    plt.rcParams.update({"svg.hashsalt": "cfrlib-family-tree", "svg.fonttype": "path",
                         "font.size": 10})
    xlim, ylim, inches_per_unit = (-4.75, 4.95), (-4.0, 5.55), 1.0
    fig = plt.figure(figsize=((xlim[1] - xlim[0]) * inches_per_unit,
                              (ylim[1] - ylim[0]) * inches_per_unit))
    ax = fig.add_axes((0, 0, 1, 1))
    for key, (x, y, label, chapter) in NODES.items():
        box = FancyBboxPatch((x - BOX_W / 2, y - BOX_H / 2), BOX_W, BOX_H,
                             boxstyle="round,pad=0.04,rounding_size=0.1", fc=FAMILY[key],
                             ec="#444444", lw=1.0, ls="--" if key in COMPANIONS else "-")
        ax.add_patch(box)
        text = ax.text(x, y, label, ha="center", va="center", fontsize=11, linespacing=1.4)
        where = ax.text(x - BOX_W / 2 + 0.05, y - BOX_H / 2 - 0.08, f"chapter {chapter}",
                        ha="left", va="top", fontsize=10, color="#1f5fa8", style="italic")
        for artist in (box, text, where):
            artist.set_url(chapter_link(chapter))
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
    ax.text(-3.4, 3.7, "Monte Carlo CFR:\nsample part of the tree\neach iteration", ha="center",
            va="center", fontsize=10.5, color="#a0522d", linespacing=1.3)
    ax.text(1.8, -1.25, "full width, faster convergence", ha="center", fontsize=10.5,
            color="#2e7d32")
    ax.text(0.0, -2.9, "dashed: the games, the measurements, your own game", ha="center",
            fontsize=10, color="#555555")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.axis("off")
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    output.write_text(_inline_ready(output.read_text()))
    return output


def _inline_ready(svg: str) -> str:
    """The SVG as the introduction inlines it: no fixed width and height (its ``viewBox`` sets
    the aspect ratio and the page's CSS the width), a title, and each link named by its
    chapter's box, since the text is drawn as paths that a screen reader cannot read."""
    svg = re.sub(r'(<svg [^>]*?)\s+width="[^"]*"\s+height="[^"]*"', r"\1", svg, count=1)
    svg = re.sub(r"(<svg [^>]*>)", r'\1\n <title>The algorithms of this book and how they descend '
                 r"from one another; each box links to its chapter</title>", svg, count=1)
    names = {chapter_link(c): html.escape(f"Chapter {c}: " + label.replace("\n", " "))
             for _, _, label, c in NODES.values()}

    def named(match: re.Match[str]) -> str:  # the link opens the chapter in this window
        href = match.group(1)
        return f'<a xlink:href="{href}"><title>{names[href]}</title>'

    return re.sub(r'<a xlink:href="([^"]+)"[^>]*>', named, svg)


if __name__ == "__main__":
    print(draw(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUTPUT))
