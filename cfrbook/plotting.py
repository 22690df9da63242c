"""The book's figures: one look for every chapter.

* :func:`new_figure` applies :func:`style` and returns ``(fig, axes)``;
* :func:`plot_loglog` and :func:`plot_convergence` draw error curves on log-log axes (a rate
  ``O(T^-k)`` is a straight line of slope ``-k``); :func:`plot_spread` draws several seeded
  runs of a sampling algorithm as thin lines with their median;
* :func:`draw_game_tree` draws a small extensive-form game with its information sets marked;
* :func:`plot_simplex` draws three-action strategies as points of the probability triangle;
* :data:`VARIANT_STYLES` and :func:`variant_style` give each CFR variant one colour, line style
  and marker for every figure (:func:`plot_convergence` uses them for curves named after a
  variant).

matplotlib is imported inside the functions, so ``import cfrbook.plotting`` does not load it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cfrlib.checks import sums_to_one
from cfrlib.errors import CfrlibError
from cfrlib.game import CHANCE, TERMINAL, Game
from cfrlib.tree import History, Tree

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType
    from typing_extensions import TypeIs

    from cfrlib.solvers.base import ConvergenceLog

PlotStyle = dict[str, Any]
"""Keyword arguments of matplotlib's ``ax.plot`` (``{"color": "#0072B2", "ls": "--"}``)."""
Column = Literal["iteration", "nodes_touched", "seconds", "exploitability"]
"""A column of a :class:`~cfrlib.solvers.base.ConvergenceLog` that a figure can show."""
Logs = Union["ConvergenceLog", Iterable["ConvergenceLog"], Mapping[str, "ConvergenceLog"]]
"""One convergence log, several (labelled by their ``name``), or ``{label: log}``."""

PLAYER_COLORS: dict[int, str] = {0: "#1f5fa8", 1: "#c0392b", CHANCE: "#7f7f7f", TERMINAL: "#222222"}
"""Colours of player 0, player 1, chance and terminal nodes, shared by every figure."""

OKABE_ITO = {"orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
             "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00",
             "reddish purple": "#CC79A7", "black": "#000000"}
"""The Okabe-Ito palette, eight colours that readers with any common form of colour-vision
deficiency can still tell apart (yellow is left out of line plots: too pale on white)."""

PALETTE = {**OKABE_ITO, "wine": "#882255"}
"""The colours of the figures: Okabe-Ito and, for chapter 13's eighth hue, Paul Tol's wine, which
stays apart from all of them for readers with protanopia, deuteranopia or tritanopia
(``tests/test_plotting.py`` measures it)."""

VARIANT_STYLES: dict[str, PlotStyle] = {
    "CFR simult.": {"color": OKABE_ITO["blue"], "ls": "--", "marker": "v", "mfc": "white"},
    "CFR alt.": {"color": OKABE_ITO["blue"], "ls": "-", "marker": "o"},
    "DCFR simult.": {"color": OKABE_ITO["vermillion"], "ls": "--", "marker": "<", "mfc": "white"},
    "DCFR alt.": {"color": OKABE_ITO["vermillion"], "ls": "-", "marker": "s"},
    "CFR+": {"color": OKABE_ITO["bluish green"], "ls": "-", "marker": "^"},
    "CFR+ quadratic": {"color": OKABE_ITO["bluish green"], "ls": ":", "marker": "D"},
    "OS-MCCFR": {"color": OKABE_ITO["black"], "ls": "-.", "marker": "x"},
    "chance sampling": {"color": PALETTE["wine"], "ls": "-", "marker": "P"},
    "ES-MCCFR": {"color": OKABE_ITO["reddish purple"], "ls": "-.", "marker": "*"},
    # chapter 6: public chance sampling beside chance sampling, in its hue
    "public chance sampling": {"color": PALETTE["wine"], "ls": "--", "marker": "s", "mfc": "white"},
    # chapter 7: outcome sampling with a baseline, beside outcome sampling
    "VR-MCCFR": {"color": OKABE_ITO["sky blue"], "ls": "-", "marker": "d"},
    "Linear CFR": {"color": OKABE_ITO["orange"], "ls": (0, (5, 1.5, 1, 1.5, 1, 1.5)),
                   "marker": ">"},
    "PCFR+": {"color": OKABE_ITO["sky blue"], "ls": (0, (8, 2, 2, 2)), "marker": "X"},
    # chapter 13: beside CFR+, DCFR and PCFR+, each frontier variant a hue of its own
    "DCFR+": {"color": OKABE_ITO["orange"], "ls": "-.", "marker": "h"},
    "PDCFR+": {"color": OKABE_ITO["reddish purple"], "ls": (0, (5, 1, 1, 1, 1, 1)), "marker": "p"},
    "SAPCFR+": {"color": OKABE_ITO["blue"], "ls": ":", "marker": "d", "mfc": "white"},
    "APCFR+": {"color": PALETTE["wine"], "ls": "--", "marker": "8"},
    "RTCFR+": {"color": OKABE_ITO["black"], "ls": "-", "marker": "1"},
    # chapter 13's last-iterate methods, all with simultaneous updates (dashed): ExRM+ in RM+'s
    # hue, SPRM+ in predictive RM+'s, MMD in DCFR's with a dotted line; markers no variant uses
    "ExRM+": {"color": OKABE_ITO["bluish green"], "ls": "--", "marker": "+"},
    "SPRM+": {"color": OKABE_ITO["sky blue"], "ls": "--", "marker": "H", "mfc": "white"},
    "MMD": {"color": OKABE_ITO["vermillion"], "ls": (0, (2, 1.5)), "marker": "2"},
    # chapters 1 and 4: Hedge as the local regret minimizer (called "Hedge" on a matrix game)
    "Hedge-CFR": {"color": OKABE_ITO["orange"], "ls": (0, (3, 1, 1, 1)), "marker": "4"},
    # subgame solving (chapter 14); the blueprint is drawn as "CFR+", the solver that made it
    "unsafe": {"color": OKABE_ITO["black"], "ls": ":", "marker": "x"},
    "re-solve": {"color": OKABE_ITO["blue"], "ls": "--", "marker": "s", "mfc": "white"},
    "maxmargin": {"color": OKABE_ITO["orange"], "ls": "-.", "marker": "D"},
    "reach": {"color": OKABE_ITO["reddish purple"], "ls": "-", "marker": "o"},
    # chapter 15: Deep CFR beside tabular external sampling (ES-MCCFR above)
    "Deep CFR": {"color": OKABE_ITO["orange"], "ls": "-", "marker": "o"},
    "Deep CFR, unweighted": {"color": OKABE_ITO["orange"], "ls": "--", "marker": "s", "mfc": "white"},
    "Deep CFR, exact average": {"color": OKABE_ITO["orange"], "ls": ":", "marker": "^", "mfc": "white"},
    "Deep CFR, exact fit": {"color": OKABE_ITO["black"], "ls": "--", "marker": "D", "mfc": "white"},
    "Deep CFR, small reservoir": {"color": OKABE_ITO["vermillion"], "ls": "-.", "marker": "v"},
    "Deep CFR, sliding window": {"color": OKABE_ITO["vermillion"], "ls": (0, (1, 1)), "marker": "x"},
    "Deep CFR, tuned": {"color": OKABE_ITO["orange"], "ls": (0, (5, 1)), "marker": "P"},
    "Deep CFR, warm-started": {"color": OKABE_ITO["orange"], "ls": "-.", "marker": "p"},
    "Deep CFR, 125 an iteration": {"color": OKABE_ITO["orange"], "ls": (0, (6, 1.5, 1, 1.5, 1, 1.5)),
                                   "marker": ">"},
    "ES-MCCFR, suits merged": {"color": OKABE_ITO["reddish purple"], "ls": ":", "marker": "d",
                               "mfc": "white"},
}
"""How every figure draws each CFR variant (``ax.plot`` keyword arguments, without the
marker spacing that :func:`variant_style` adds). A family shares a colour of
:data:`PALETTE`; within it, and across families, every variant has its own line style and
marker, so that curves stay apart in grey print and for colour-blind readers: dashed lines and
hollow markers for simultaneous updates, solid lines for the alternating originals."""


CHOSEN_STYLE: PlotStyle = {"color": OKABE_ITO["yellow"], "ls": "-", "lw": 7, "alpha": 0.8,
                           "solid_capstyle": "butt"}
"""The setting a reader chose in an explorer (chapters 8 and 9), drawn under the variants it is
compared with: a wide band in the one colour of :data:`OKABE_ITO` no variant is drawn in, pale as
a highlighter, so the thin lines of the variants stay visible on top of it."""


VARIANT_ALIASES: dict[str, str] = {
    "CFR": "CFR alt.", "CFR, pruned": "CFR alt.", "your CFR": "CFR alt.", "DCFR": "DCFR alt.",
    "external sampling": "ES-MCCFR", "outcome sampling": "OS-MCCFR", "OS": "OS-MCCFR",
    "OS, its own run": "OS-MCCFR",
    r"$\epsilon$ = 0.6": "OS-MCCFR",
    "Hedge": "Hedge-CFR", "blueprint": "CFR+",
    "regret matching": "CFR alt.", "regret matching+": "CFR+", "RM+": "CFR+",
    "predictive RM+": "PCFR+", "Single Deep CFR": "Deep CFR, exact average",
}
"""The names the chapters' figures give some variants, and the key of their style: plain "CFR"
and "DCFR" update alternately, as the book's solvers do by default; outcome sampling explores
with the book's epsilon = 0.6; on a matrix game (chapter 1) regret matching, RM+ and predictive
RM+ are drawn as the CFR variants they drive."""


def variant_style(name: str, markevery: float | None = 0.1, **overrides: Any) -> PlotStyle:
    """``ax.plot`` keyword arguments for the variant ``name`` (a key of
    :data:`VARIANT_STYLES` or of :data:`VARIANT_ALIASES`, as :func:`variant_of` reads a label): its colour, line style and marker,
    markers spaced ``markevery`` of the axes apart (a float, as in matplotlib), then
    ``overrides``."""
    key = variant_of(name)
    if key is None:
        raise CfrlibError(f"variant_style: no style for {name!r}; the variants are "
                          f"{list(VARIANT_STYLES)}, also called {list(VARIANT_ALIASES)}")
    return {**VARIANT_STYLES[key], "ms": 5, "markevery": markevery, **overrides}


def is_variant(name: str) -> bool:
    """Whether ``name`` is a variant :func:`variant_style` knows (a key or an alias)."""
    return variant_of(name) is not None


def variant_of(label: str) -> str | None:
    """The key of :data:`VARIANT_STYLES` that a figure's ``label`` names, or None: a key or an
    alias, alone or followed by a note in parentheses (``"chance sampling (median of 8)"``,
    ``"CFR (slope -0.98)"``). tools/figure_looks.py holds every figure to this reading."""
    name = re.sub(r"\s+\(.*\)$", "", " ".join(label.split()))
    key = VARIANT_ALIASES.get(name, name)
    return key if key in VARIANT_STYLES else None

AXIS_LABELS: dict[str, str] = {
    "iteration": "iterations $T$",
    "nodes_touched": "nodes touched",
    "seconds": "time (seconds)",
    "exploitability": "exploitability (chips per game)",
}
"""Axis labels (with units) of the columns of a :class:`~cfrlib.solvers.base.ConvergenceLog`."""

_STYLE: dict[RcKeyType, Any] = {
    # The fonts matplotlib ships (DejaVu, also for math): a figure does not depend on the fonts
    # a machine has installed, nor change when system fonts arrive.
    "font.family": ["DejaVu Sans"],
    "mathtext.fontset": "dejavusans",
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "legend.fontsize": 9,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "lines.linewidth": 1.8,
    "svg.hashsalt": "cfrlib",
}


COLUMN_WIDTH = 7.5
"""Inches of figure the book's pages show at full size (the text column at 1280 px, 100 dpi). A
wider figure is shrunk to fit the column, so :func:`new_figure` draws its text larger by the
same factor: every figure's text reads at the same size on the page."""

_TEXT_SIZES: tuple[RcKeyType, ...] = ("font.size", "axes.titlesize", "axes.labelsize", "legend.fontsize")

TICK_COLUMN_WIDTH = 6.5
"""Inches of figure the narrowest box of the column shows at full size (650 px at 1280 px). Tick
labels are drawn larger by ``width / TICK_COLUMN_WIDTH`` in figures wider than it: a log axis's
labels draw their exponent (``10^-4``) at 0.7 of their size, which in a figure 12.8 inches wide
scaled by ``COLUMN_WIDTH`` alone came out 8.4 px high on the page (tools/figure_layout.py)."""


def style(phone: bool = False) -> None:
    """Apply the book's matplotlib settings (sizes, fonts, grid, no top or right spine), without
    pyplot's redraw after each notebook cell (:func:`_no_post_cell_redraw`); for a figure drawn
    for a phone (``phone``, inside a figure's rendering) every text size scaled so that
    ``"small"`` text is :data:`~cfrbook.phone_figures.PHONE_TEXT_PT` points."""
    import matplotlib as mpl

    from . import log_ticks
    from .phone_figures import PHONE_TEXT_PT

    log_ticks.install()
    mpl.rcParams.update(_STYLE)
    if not phone:
        _no_post_cell_redraw()
        return
    scale = PHONE_TEXT_PT / (0.833 * _STYLE["font.size"])   # "small" is 0.833 of font.size
    mpl.rcParams.update({key: _STYLE[key] * scale
                         for key in (*_TEXT_SIZES, "xtick.labelsize", "ytick.labelsize")})


def _no_post_cell_redraw() -> None:
    """In a notebook with the inline backend, stop pyplot redrawing each figure left open at the
    end of a cell. pyplot's redraw (a hook after every cell, which refreshes windows in other
    backends) makes no image here: the inline backend then draws the figure again to show it.
    That wasted draw, constrained layout and all, was a third of such a figure's cost (a quarter of
    the kernels' matplotlib time under make test). Outside IPython, or with another backend,
    nothing changes."""
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    backend = mpl.get_backend()
    if "inline" in backend:
        plt.switch_backend(backend)   # loading the backend (else at the first figure) installs the hook
        plt.uninstall_repl_displayhook()


def new_figure(nrows: int = 1, ncols: int = 1, width: float | None = None,
               height: float | None = None, phone: bool = False,
               **kwargs: Any) -> tuple[Figure, Any]:
    """A styled figure: ``plt.subplots(nrows, ncols)`` after :func:`style`, in inches.

    Text is drawn ``width / COLUMN_WIDTH`` times larger in figures wider than the column, tick
    labels ``width / TICK_COLUMN_WIDTH`` times. A figure drawn for a phone (``phone``) is
    :data:`~cfrbook.phone_figures.PHONE_WIDTH` inches wide whatever ``width`` says, its text
    scaled so that ``"small"`` text is :data:`~cfrbook.phone_figures.PHONE_TEXT_PT` points.
    Returns ``(fig, ax)`` for one panel and ``(fig, axes)`` (an array) for several.
    """
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    from .phone_figures import PHONE_WIDTH

    style(phone)
    w, h = _STYLE["figure.figsize"]
    size = (PHONE_WIDTH if phone else width or w * min(ncols, 2),
            height or h * min(nrows, 2) * (0.85 if nrows > 1 else 1))
    if not phone:
        scale = max(1.0, size[0] / COLUMN_WIDTH)
        mpl.rcParams.update({key: _STYLE[key] * scale for key in _TEXT_SIZES})
        tick_size = _STYLE["font.size"] * max(1.0, size[0] / TICK_COLUMN_WIDTH)
        mpl.rcParams.update({"xtick.labelsize": tick_size, "ytick.labelsize": tick_size})
    return plt.subplots(nrows, ncols, figsize=size, layout="constrained", **kwargs)


# ----------------------------------------------------------------------------- log-log curves
def plot_loglog(x: ArrayLike | Mapping[str, ArrayLike], series: Mapping[str, ArrayLike],
                ax: Axes | None = None, xlabel: str = "", ylabel: str = "",
                styles: Mapping[str, PlotStyle] | None = None) -> Axes:
    """Draw ``series`` (``{label: y values}``) against ``x`` on log-log axes.

    ``x`` is one array shared by all series or ``{label: x values}``. Points where ``x`` or ``y``
    is not positive cannot be shown on a log scale and are left out. ``styles`` optionally maps
    a label to keyword arguments of ``ax.plot`` (``{"bound": {"ls": "--"}}``). Returns ``ax``.
    """
    if ax is None:
        _, ax = new_figure()
    if not isinstance(series, Mapping) or not series:
        raise CfrlibError("plot_loglog: series must be a non-empty {label: values} mapping")
    styles = styles or {}
    for label, y in series.items():
        xs = np.asarray(x[label] if isinstance(x, Mapping) else x, dtype=float)
        ys = np.asarray(y, dtype=float)
        if xs.shape != ys.shape or xs.ndim != 1:
            raise CfrlibError(f"plot_loglog: series {label!r} has {ys.shape} values for "
                              f"x of shape {xs.shape}; they must be 1-D and equally long")
        keep = (xs > 0) & (ys > 0)
        ax.plot(xs[keep], ys[keep], label=str(label), **styles.get(label, {}))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if len(series) > 1:
        ax.legend()
    return ax


def plot_convergence(logs: Logs, x: Column = "iteration", y: Column = "exploitability",
                     ax: Axes | None = None, labels: Sequence[str] | None = None,
                     styles: Mapping[str, PlotStyle] | None = None) -> Axes:
    """Exploitability of the average strategy against ``x`` for one or more convergence logs.

    ``logs`` is a :class:`~cfrlib.solvers.base.ConvergenceLog`, a list of them (labelled by
    their ``name``) or a ``{label: log}`` mapping; ``x`` is ``"iteration"``,
    ``"nodes_touched"`` or ``"seconds"``. A curve whose label names a variant is drawn in its
    :func:`variant_style`; ``styles`` (``{label: ax.plot keyword arguments}``) sets or
    overrides the style of any curve. Log-log axes. Returns ``ax``.
    """
    for column, role in ((x, "x"), (y, "y")):
        if column not in AXIS_LABELS:
            raise CfrlibError(f"plot_convergence: {role}={column!r} is not a column of a "
                              f"convergence log; use one of {sorted(AXIS_LABELS)}")
    if isinstance(logs, Mapping):
        named = dict(logs)
    else:
        logs = [logs] if _is_log(logs) else list(logs)
        names = labels or [getattr(log, "name", "") or f"run {k}" for k, log in enumerate(logs)]
        if len(names) != len(logs):
            raise CfrlibError(f"plot_convergence: {len(names)} labels for {len(logs)} logs")
        named = dict(zip(names, logs))
    if not named:
        raise CfrlibError("plot_convergence: no convergence log to plot")
    for label, log in named.items():
        if not hasattr(log, "rows"):
            raise CfrlibError(f"plot_convergence: {label!r} is a {type(log).__name__}, "
                              "not a ConvergenceLog")
        if len(log) == 0:
            raise CfrlibError(f"plot_convergence: the log {label!r} is empty; run the solver "
                              "with eval_every so that it records points")
    looks = {label: variant_style(label) for label in named if is_variant(label)}
    return plot_loglog({k: getattr(v, x) for k, v in named.items()},
                       {k: getattr(v, y) for k, v in named.items()},
                       ax=ax, xlabel=AXIS_LABELS[x], ylabel=AXIS_LABELS[y],
                       styles={**looks, **(styles or {})})


def _is_log(value: object) -> TypeIs[ConvergenceLog]:
    return hasattr(value, "rows")


# ----------------------------------------------------------------------------- game trees
def tree_layout(game: Game) -> tuple[Tree, NDArray[np.float64], NDArray[np.float64], list[str]]:
    """Positions and labels for drawing ``game``'s compiled tree.

    Leaves are spaced one unit apart in level order's left-to-right order; an inner node sits
    above the middle of its children; depth ``d`` is drawn at height ``-d``. Returns
    ``(tree, x, y, edge_labels)`` where ``edge_labels[n]`` names the action or chance outcome
    leading to node ``n`` (``""`` at the root).
    """
    tree = game.tree()
    n = tree.num_nodes
    edge_labels = [""] * n
    states = {0: game.initial_state()}
    for node in np.flatnonzero(tree.num_children > 0).tolist():
        state = states.pop(node)
        first, count = tree.first_child[node], tree.num_children[node]
        for k, name in enumerate(state.legal_actions()[:count]):
            edge_labels[first + k] = name
            if tree.num_children[first + k]:
                states[first + k] = state.child(name)
    x = np.zeros(n)
    leaves = tree.num_children == 0
    order = _leaf_order(tree)
    x[order] = np.arange(order.size, dtype=float)
    for node in range(n - 1, -1, -1):  # level order: children come after their parent
        if not leaves[node]:
            first, count = tree.first_child[node], tree.num_children[node]
            x[node] = x[first:first + count].mean()
    return tree, x, -tree.depth.astype(float), edge_labels


def _leaf_order(tree: Tree) -> NDArray[np.int64]:
    """Leaves in depth-first order (left to right in the drawing)."""
    order: list[int] = []
    stack = [0]
    while stack:
        node = stack.pop()
        count = tree.num_children[node]
        if count == 0:
            order.append(node)
        else:
            first = tree.first_child[node]
            stack.extend(range(first + count - 1, first - 1, -1))
    return np.array(order, dtype=np.int64)


def draw_game_tree(game: Game, ax: Axes | None = None, max_nodes: int = 400,
                   infoset_labels: bool = True, action_labels: Literal["short", "full"] | None = "short",
                   payoffs: bool = True, highlight: History | None = None) -> Axes:
    """Draw a small game tree with its information sets marked.

    Markers: chance nodes are grey diamonds, player 0's nodes circles, player 1's squares,
    terminals small dots with player 0's payoff below. The nodes of one information set share
    a fill colour and are joined by a dashed arc (one arc per pair of neighbours, so an infoset
    of ``k`` nodes has ``k - 1`` arcs); a player's infosets take the six colours of
    :data:`OKABE_ITO` other than yellow and black in turn, so that up to six infosets of one
    player are told apart. Edges carry the action names (``action_labels="full"``), their
    first letters where these tell the actions apart (``"short"``: ``p`` for ``pass``, the
    letters of Kuhn's infoset keys), or nothing (``None``), beside the edge's middle.
    ``highlight`` lists action names from the root (a history, e.g. ``("K", "Q", "pass")``, or
    ``()`` for the root): its path is drawn thick and its last node ringed. The figure it makes
    is as wide as the book's column for up to 30 leaves (for a phone's column the tree is drawn
    on its side: :func:`cfrbook.trees.draw_history`). Returns ``ax``.
    """
    import matplotlib as mpl
    from matplotlib.collections import LineCollection

    if action_labels not in ("short", "full", None):
        raise CfrlibError(f"draw_game_tree: action_labels must be 'short', 'full' or None, "
                          f"got {action_labels!r}")
    tree = game.tree()
    if tree.num_nodes > max_nodes:
        raise CfrlibError(f"draw_game_tree: {game.name} has {tree.num_nodes:,} nodes, more than "
                          f"max_nodes={max_nodes}; only small games can be drawn legibly")
    tree, x, y, edge_labels = tree_layout(game)
    if ax is None:
        leaves = int(np.count_nonzero(tree.num_children == 0))
        _, ax = new_figure(width=max(6.0, 0.25 * leaves), height=0.95 * (tree.depth_max + 1) + 0.6)
    children = np.flatnonzero(tree.parent >= 0)
    parents = tree.parent[children]
    segments = np.stack([np.column_stack([x[parents], y[parents]]),
                         np.column_stack([x[children], y[children]])], axis=1)
    ax.add_collection(LineCollection(list(segments), colors="#9a9a9a", linewidths=0.8, zorder=1))
    if highlight is not None:
        mark_history(ax, tree, x, y, path_nodes(tree, edge_labels, highlight))
    if action_labels:
        shown = _short_labels(tree, edge_labels) if action_labels == "short" else edge_labels
        for c, p in zip(children, parents):
            out = -1 if x[c] < x[p] else 1  # beside the edge, away from its siblings
            # (every label's point is inside the axes: annotation_clip=False skips that test)
            ax.annotate(shown[c], ((x[p] + x[c]) / 2, (y[p] + y[c]) / 2), xytext=(3 * out, 0),
                        textcoords="offset points", fontsize="large",
                        ha="right" if out < 0 else "left", va="center", color="#444444", zorder=3,
                        bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8),
                        annotation_clip=False)

    fills = infoset_fills(tree)
    for I in range(tree.num_infosets):
        members = np.flatnonzero(tree.infoset == I)
        members = members[np.argsort(x[members])]
        for a, b in zip(members[:-1], members[1:]):
            xs, ys = _arc(x[a], x[b], y[a])
            ax.plot(xs, ys, ls="--", lw=1.4, color=fills[I], zorder=2, gid="infoset-arc")
    draw_nodes(ax, tree, x, y, fills)
    if infoset_labels:
        for node in np.flatnonzero(tree.infoset >= 0):
            ax.annotate(tree.infoset_keys[tree.infoset[node]], (x[node], y[node]), xytext=(6, 6),
                        textcoords="offset points", fontsize="large", ha="left", va="bottom",
                        color=PLAYER_COLORS[int(tree.player[node])], zorder=5,
                        bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.8),
                        annotation_clip=False)
    if payoffs:
        for node in tree.terminal_node:
            ax.annotate(f"{tree.payoff[node]:+g}", (x[node], y[node]), xytext=(0, -5),
                        textcoords="offset points", fontsize=0.9 * mpl.rcParams["font.size"],
                        ha="center", va="top", zorder=5, annotation_clip=False)
    ax.set_xlim(x.min() - 0.6, x.max() + 0.6)
    ax.set_ylim(y.min() - 0.5, 0.3)
    depth_axis(ax, tree.depth_max, "y")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=6, handletextpad=0.3,
              columnspacing=1.2)
    return ax


HISTORY_STYLE: PlotStyle = {"color": OKABE_ITO["black"], "lw": 3.0}
"""The path of a history a figure picks out of a tree (:func:`mark_history`)."""

NODE_RING: PlotStyle = {"s": 330, "marker": "o", "facecolors": "none",
                        "edgecolors": OKABE_ITO["vermillion"], "linewidths": 2.4}
"""The ring around the node a figure picks out of a tree (``ax.scatter`` keywords)."""


def mark_history(ax: Axes, tree: Tree, x: NDArray[np.float64], y: NDArray[np.float64],
                 path: NDArray[np.int64], label: str = "history",
                 node_label: str = "chosen node", ring_size: float = 330) -> None:
    """Draw the edges between the nodes of ``path`` (root first) thick and ring its last node,
    both in the legend, also for a path of the root alone (no edge): every history is marked."""
    from matplotlib.collections import LineCollection

    edges = [((x[a], y[a]), (x[b], y[b])) for a, b in zip(path[:-1], path[1:])]
    ax.add_collection(LineCollection(edges, colors=HISTORY_STYLE["color"],
                                     linewidths=HISTORY_STYLE["lw"], zorder=2, label=label))
    end = int(path[-1])
    ax.scatter([x[end]], [y[end]], zorder=5, label=node_label, gid="chosen-node",
               **{**NODE_RING, "s": ring_size})


def infoset_fills(tree: Tree) -> list[str]:
    """A fill colour per information set: a player's infosets take the six colours of
    :data:`OKABE_ITO` other than yellow and black in turn, so that up to six infosets of one
    player are told apart."""
    palette = [c for name, c in OKABE_ITO.items() if name not in ("yellow", "black")]
    return [palette[int(np.count_nonzero(tree.infoset_player[:I] == tree.infoset_player[I]))
                    % len(palette)] for I in range(tree.num_infosets)]


_NODE_KINDS = ((CHANCE, "D", "chance"), (0, "o", "player 0"), (1, "s", "player 1"),
               (TERMINAL, ".", "terminal"))


def draw_nodes(ax: Axes, tree: Tree, x: NDArray[np.float64], y: NDArray[np.float64],
               fills: Sequence[str], faded: NDArray[np.bool_] | None = None,
               size: float = 110, linewidth: float = 1.6) -> None:
    """The tree's nodes as markers of ``size`` (chance a grey diamond, player 0 a circle,
    player 1 a square filled with its infoset's colour from ``fills``, terminals dots of a
    quarter of it) edged ``linewidth`` points, one legend entry a kind; ``faded`` nodes are
    drawn pale."""
    faded = np.zeros(tree.num_nodes, bool) if faded is None else faded
    for who, marker, label in _NODE_KINDS:
        for dim in (False, True):
            nodes = np.flatnonzero((tree.player == who) & (faded == dim))
            if nodes.size == 0:
                continue
            face = [fills[I] for I in tree.infoset[nodes]] if who in (0, 1) else PLAYER_COLORS[who]
            ax.scatter(x[nodes], y[nodes], s=size if who != TERMINAL else size / 4,
                       marker=marker, c=face, edgecolors=PLAYER_COLORS[who],
                       linewidths=linewidth, zorder=4,
                       alpha=0.3 if dim else 1.0, gid="nodes",
                       label=None if dim and np.any((tree.player == who) & ~faded) else label)


def depth_axis(ax: Axes, depth_max: int, along: Literal["x", "y"]) -> None:
    """A tree's one axis: the depth, 0 at the root, along ``x`` (growing to the right) or ``y``
    (growing downwards); the other axis, the grid and the spines but the depth's are hidden."""
    ticks = np.arange(depth_max + 1)
    labels = [str(d) for d in ticks]
    if along == "x":
        ax.set_xticks(ticks, labels)
        ax.set_xlabel("depth (moves from the root)")
        ax.set_yticks([])
    else:
        ax.set_yticks(-ticks, labels)
        ax.set_ylabel("depth (moves from the root)")
        ax.set_xticks([])
    ax.grid(False)
    for side in ("top", "right", "left" if along == "x" else "bottom"):
        ax.spines[side].set_visible(False)


def _short_labels(tree: Tree, edge_labels: list[str]) -> list[str]:
    """Decision edges named by their first letter when that tells the siblings apart."""
    short = list(edge_labels)
    for node in np.flatnonzero(tree.infoset >= 0):
        first, count = tree.first_child[node], tree.num_children[node]
        names = edge_labels[first:first + count]
        if len({name[:1] for name in names}) == len(names):
            short[first:first + count] = [name[:1] for name in names]
    return short


def _arc(x0: float, x1: float, height: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A shallow dashed-arc path above the nodes from ``x0`` to ``x1`` at depth ``height``."""
    t = np.linspace(0.0, 1.0, 30)
    bulge = 0.18 + 0.02 * abs(x1 - x0)
    return x0 + (x1 - x0) * t, height + 4 * bulge * t * (1 - t)


def path_nodes(tree: Tree, edge_labels: list[str], history: History) -> NDArray[np.int64]:
    """Nodes on the path of ``history`` (action names from the root), root included."""
    nodes, node = [0], 0
    for step, name in enumerate(history):
        first, count = tree.first_child[node], tree.num_children[node]
        names = edge_labels[first:first + count]
        if name not in names:
            raise CfrlibError(f"draw_game_tree: step {step} of the history {tuple(history)} is "
                              f"{name!r}, but the legal moves there are {names}")
        node = first + names.index(name)
        nodes.append(node)
    return np.array(nodes, dtype=np.int64)


# ----------------------------------------------------------------------------- the simplex
_CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]])


def simplex_coordinates(probs: ArrayLike) -> NDArray[np.float64]:
    """Map distributions ``(p_1, p_2, p_3)`` to the plane: ``sum_k p_k * corner_k``.

    The corners of the triangle are the pure strategies; the centre is ``(1/3, 1/3, 1/3)``.
    Raises :class:`~cfrlib.errors.CfrlibError` unless every row is a probability vector.
    """
    p = np.asarray(probs, dtype=float)
    if p.shape[-1:] != (3,):
        raise CfrlibError(f"simplex: expected probabilities over 3 actions (last axis of "
                          f"length 3), got an array of shape {p.shape}")
    good = np.isfinite(p).all(-1) & (p >= 0).all(-1) & sums_to_one(p.sum(-1), 3)
    if not good.all():
        where = tuple(int(i) for i in np.argwhere(~good)[0])
        raise CfrlibError(f"simplex: row {', '.join(map(str, where))} is not a probability "
                          f"vector (non-negative, summing to 1): {p[where].tolist()}")
    return p @ _CORNERS


def plot_simplex(trajectories: ArrayLike | Mapping[str, ArrayLike], ax: Axes | None = None,
                 vertex_labels: tuple[str, str, str] = ("rock", "paper", "scissors"),
                 points: Mapping[str, ArrayLike] | None = None,
                 styles: Mapping[str, PlotStyle] | None = None) -> Axes:
    """Three-action strategies on the probability triangle.

    ``trajectories`` maps a label to an array of shape ``(T, 3)`` (a path, drawn as a line
    with its last point marked) or is one such array. ``points`` maps a label to one
    distribution drawn as a star (an equilibrium, say). ``styles`` maps a label to keyword
    arguments of ``ax.plot``. Returns ``ax``.
    """
    if ax is None:
        _, ax = new_figure(width=4.8, height=4.4)
    if not isinstance(trajectories, Mapping):
        trajectories = {"strategy": trajectories}
    styles = styles or {}
    ax.plot(*np.vstack([_CORNERS, _CORNERS[:1]]).T, color="#aaaaaa", lw=0.8)
    for corner, name, (dx, dy, ha) in zip(_CORNERS, vertex_labels,
                                          ((-0.03, -0.05, "right"), (0.03, -0.05, "left"),
                                           (0.0, 0.04, "center"))):
        ax.text(corner[0] + dx, corner[1] + dy, name, ha=ha, va="center", fontsize=10)
    for label, path in trajectories.items():
        xy = simplex_coordinates(np.atleast_2d(path))
        line, = ax.plot(xy[:, 0], xy[:, 1], label=str(label), **styles.get(label, {}))
        ax.plot(xy[-1, 0], xy[-1, 1], "o", color=line.get_color(), ms=6)
    for label, p in (points or {}).items():
        xy = simplex_coordinates(p)
        ax.plot(xy[0], xy[1], "*", ms=14, color="#f1c40f", mec="black", label=str(label), zorder=5)
    ax.set_aspect("equal")
    ax.set_xlim(-0.12, 1.12)
    ax.set_ylim(-0.12, 0.98)
    ax.axis("off")
    ax.legend(loc="upper left", fontsize=8)
    return ax


# ----------------------------------------------------------------------------- seeded runs
def plot_spread(runs: Iterable[ConvergenceLog], x: Column = "nodes_touched",
                reference: ConvergenceLog | Mapping[str, ConvergenceLog] | None = None,
                ax: Axes | None = None, label: str = "sampled runs", highlight: int | None = None) -> Axes:
    """Several seeded runs of one sampling solver, on log-log axes: each run a thin line, their
    median a thick one, and ``reference`` logs (``{label: log}`` or one log, say full-width CFR)
    as dashed lines.

    ``runs`` are :class:`~cfrlib.solvers.base.ConvergenceLog` objects evaluated at the same
    iterations; at each evaluation the median is taken over the runs, for ``x`` as for the
    exploitability. A ``label`` that names a variant draws the runs in its colour and the
    median in its :func:`variant_style`, as a reference that names one is drawn. ``highlight``
    is the index of one run drawn dark. Returns ``ax``.
    """
    from matplotlib import colors as mpl_colors

    if x not in AXIS_LABELS:
        raise CfrlibError(f"plot_spread: x={x!r} is not a column of a convergence log; use one "
                          f"of {sorted(AXIS_LABELS)}")
    runs = list(runs)
    if not runs or not all(hasattr(r, "rows") and len(r) for r in runs):
        raise CfrlibError("plot_spread: runs must be a non-empty list of non-empty ConvergenceLogs")
    for k, run in enumerate(runs[1:], 1):
        if not np.array_equal(run.iteration, runs[0].iteration):
            raise CfrlibError(f"plot_spread: run {k} is evaluated at other iterations than run 0; "
                              "evaluate every run on the same schedule")
    if highlight is not None and not 0 <= highlight < len(runs):
        raise CfrlibError(f"plot_spread: highlight={highlight!r} is not the index of one of the "
                          f"{len(runs)} runs")
    median = f"{label} (median of {len(runs)})"
    look: PlotStyle = variant_style(label, lw=2.4) if is_variant(label) else {"color": "#2a9d8f", "lw": 2.4}
    color: str = look["color"]
    series = {f"_run {k}": r.exploitability for k, r in enumerate(runs)}
    xs = {f"_run {k}": getattr(r, x) for k, r in enumerate(runs)}
    styles: dict[str, PlotStyle] = {f"_run {k}": {"color": color, "lw": 0.8, "alpha": 0.35}
                                    for k in range(len(runs))}
    if highlight is not None:   # the runs' colour, darkened to half its brightness
        red, green, blue = mpl_colors.to_rgb(color)
        styles[f"_run {highlight}"] = {"color": (red / 2, green / 2, blue / 2), "lw": 1.4}
    series[median] = np.median([r.exploitability for r in runs], axis=0)
    xs[median] = np.median([getattr(r, x) for r in runs], axis=0)
    styles[median] = look
    if reference is not None:
        named = reference if isinstance(reference, Mapping) else {reference.name: reference}
        for name, log in named.items():
            series[name], xs[name] = log.exploitability, getattr(log, x)
            styles[name] = variant_style(name, lw=1.8) if is_variant(name) else {"ls": "--", "lw": 1.8}
    return plot_loglog(xs, series, ax=ax, xlabel=AXIS_LABELS[x],
                       ylabel=AXIS_LABELS["exploitability"], styles=styles)
