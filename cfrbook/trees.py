"""Small game trees drawn with numbers on them: one drawing helper for every chapter's tree.

* :func:`draw_tree` draws a game's whole tree on its side (the root on the left, one column a
  depth, the terminal histories one under the other), so that every node has room for a number:
  its reach probability (chapter 3), whether a sampled traversal touched it (chapter 7), or its
  public state (chapter 14). The nodes of one information set share a fill colour and their key.
* :func:`draw_public_tree` draws the tree of public histories of a game whose chance moves are
  all private (Kuhn poker, Coin Toss): one box a public history, listing the information sets of
  the player to act there, one row each with the numbers the caller gives (chapter 4's regrets
  and strategies).
* each draws for a phone's column too (``phone=True``: 3.6 inches wide, text 7.1 points):
  :func:`draw_tree` narrower, :func:`draw_public_tree` as an outline, one public history a line;
  :func:`draw_history` draws a history on the tree, upright for the column
  (:func:`cfrbook.plotting.draw_game_tree`) and on its side for a phone;
* :func:`node_index` and :func:`node_path` translate between a history (its moves from the root)
  and the compiled tree's node; :class:`RecordingState` records which histories a recursion over
  the state API visits, in order (chapter 7's traversals).

Both drawings take their positions from :func:`cfrbook.plotting.tree_layout` and their colours
from :data:`cfrbook.plotting.PLAYER_COLORS` and :data:`cfrbook.plotting.OKABE_ITO`, as
:func:`cfrbook.plotting.draw_game_tree` does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from cfrlib.errors import CfrlibError
from cfrlib.game import CHANCE, TERMINAL, Game, State

from cfrlib.tree import History

from .plotting import (NODE_RING, OKABE_ITO, PLAYER_COLORS, depth_axis, draw_game_tree, draw_nodes,
                       infoset_fills, mark_history, new_figure, path_nodes, tree_layout)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

MAX_NODES = 80
"""Most nodes :func:`draw_tree` draws: each leaf needs a line of the figure."""

LEAF_INCHES = 0.24
"""Height of a line of the figure (one terminal history) in :func:`draw_tree`."""

PHONE_LEAF_INCHES = 0.2
"""Height of a line in :func:`draw_tree`'s drawing for a phone (its text 7.1 points high)."""

PHONE_COLUMN_INCHES = 0.44
"""Width of a column of numbers in :func:`draw_public_tree`'s drawing for a phone ("+0.033"
at 7.1 points is 0.37 inches)."""


@dataclass(frozen=True)
class Placed:
    """A game's compiled tree with the drawing's positions: ``x`` the column (depth), ``y`` the
    line (terminal histories one a line, an inner node level with the middle of its children),
    ``edge_labels[n]`` the move into node ``n`` and ``paths[n]`` the moves from the root."""

    tree: Any
    x: NDArray[np.float64]
    y: NDArray[np.float64]
    edge_labels: list[str]
    paths: list[tuple[str, ...]]


def place(game: Game) -> Placed:
    """The positions of ``game``'s nodes on its side: depth along x, leaves one a line."""
    tree, across, down, edge_labels = tree_layout(game)
    paths: list[tuple[str, ...]] = [()] * tree.num_nodes
    for node in range(1, tree.num_nodes):  # level order: the parent's path is known
        paths[node] = paths[int(tree.parent[node])] + (edge_labels[node],)
    return Placed(tree, -down, -across, edge_labels, paths)


def node_index(placed: Placed, path: Sequence[str]) -> int:
    """The node of history ``path`` (moves from the root)."""
    node = 0
    for step, name in enumerate(path):
        tree = placed.tree
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        names = placed.edge_labels[first:first + count]
        if name not in names:
            raise CfrlibError(f"node_index: move {step} of {tuple(path)} is {name!r}, but the "
                              f"moves there are {names}")
        node = first + names.index(name)
    return node


def node_path(placed: Placed, node: int) -> tuple[str, ...]:
    """The moves from the root to ``node``."""
    return placed.paths[node]


def draw_tree(game: Game, ax: Axes | None = None, *,
              node_text: Mapping[int, str] | None = None,
              lit: Collection[int] | None = None, lit_style: Mapping[str, Any] | None = None,
              current: int | None = None, ringed: Collection[int] = (),
              groups: Sequence[tuple[Collection[int], str]] = (),
              history: History | None = None, title: str = "",
              payoffs: bool = True, width: float = 6.5, line: float = LEAF_INCHES,
              phone: bool = False) -> Axes:
    """Draw ``game``'s tree on its side, each node with an optional number beside it.

    Markers as in ``draw_game_tree``: chance a grey diamond, player 0 a circle, player 1 a
    square, terminals dots; a decision node is filled with its information set's colour and
    labelled with the infoset's key. ``node_text[n]`` is written beside node ``n`` (right of a
    terminal, above the others). ``lit`` (nodes) draws the edges between lit nodes thick in
    ``lit_style`` (``ax.plot`` keywords with a ``label``, e.g. a variant's style) and fades the
    nodes not lit; ``current`` is circled as the node being visited. ``ringed`` nodes get a black
    ring (an information set picked out); each of ``groups`` is ``(roots, label)``: each root and
    the nodes below it in a shaded box, the label under the lowest (a subgame). ``history``
    (moves from the root) is marked as ``draw_game_tree`` marks it: its path thick, its last
    node ringed. ``payoffs`` writes player 0's payoff right of each terminal; ``title`` goes
    above the legend. When ``ax`` is None the figure is ``width`` inches wide and ``line``
    inches high a terminal history (the title's lines added, so that they take no room from
    the tree); for a phone (``phone``) it is :data:`~cfrbook.phone_figures.PHONE_WIDTH` inches
    wide, :data:`PHONE_LEAF_INCHES` a line, with smaller markers and its text
    :data:`~cfrbook.phone_figures.PHONE_TEXT_PT` points.
    Returns ``ax``.
    """
    import matplotlib as mpl
    from matplotlib.collections import LineCollection
    from matplotlib.patches import FancyBboxPatch

    placed = place(game)
    tree, x, y = placed.tree, placed.x, placed.y
    if tree.num_nodes > MAX_NODES:
        raise CfrlibError(f"draw_tree: {game.name} has {tree.num_nodes} nodes, more than "
                          f"{MAX_NODES}; draw a smaller game")
    leaves = int(np.count_nonzero(tree.num_children == 0))
    if ax is None:
        line = PHONE_LEAF_INCHES if phone else line
        lines = title.count("\n") + 1 if title else 0
        _, ax = new_figure(width=width, height=line * leaves + 0.9 + 0.2 * lines, phone=phone)
    ring = {**NODE_RING, "s": 150 if phone else 330}
    node_text = dict(node_text or {})
    lit_nodes = None if lit is None else np.isin(np.arange(tree.num_nodes), list(lit))

    children = np.flatnonzero(tree.parent >= 0)
    parents = tree.parent[children]
    segments = np.stack([np.column_stack([x[parents], y[parents]]),
                         np.column_stack([x[children], y[children]])], axis=1)
    on = (np.zeros(children.size, bool) if lit_nodes is None
          else lit_nodes[children] & lit_nodes[parents])
    ax.add_collection(LineCollection(list(segments[~on]), colors="#b0b0b0", linewidths=0.8,
                                     zorder=1))
    if lit_nodes is not None:
        style = dict(lit_style or {"color": OKABE_ITO["black"], "label": "touched"})
        look = {k: style[k] for k in ("color", "ls") if k in style}
        for (x0, y0), (x1, y1) in segments[on]:
            ax.plot([x0, x1], [y0, y1], lw=3.0, zorder=2, solid_capstyle="round", **look)
        # the legend's entry, from the first lit node on: the line with the style's marker, as
        # the style draws it elsewhere
        ax.plot([], [], lw=3.0, **{k: v for k, v in style.items()
                                   if k in ("color", "ls", "marker", "mfc", "label")})
    if history is not None:
        mark_history(ax, tree, x, y, path_nodes(tree, placed.edge_labels, history),
                     ring_size=ring["s"])

    # the move into each node, on its edge nearer the child (the parent's number is beside
    # it, and on a phone's narrower columns takes more of the edge). Every label of a tree has
    # its point inside the axes: annotation_clip=False skips matplotlib's test of that point,
    # which took a fifth of the time to save a tree's figure.
    along = 0.78 if phone and node_text else 0.6
    for c, p in zip(children, parents):
        ax.annotate(_short(placed.edge_labels[c]), ((1 - along) * x[p] + along * x[c],
                                                    (1 - along) * y[p] + along * y[c]),
                    ha="center", va="center", fontsize="small", color="#444444", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.9),
                    annotation_clip=False)

    for roots, label in groups:
        boxes = []
        for root in roots:
            below = _subtree(tree, int(root))
            x0, x1 = x[below].min() - 0.3, x[below].max() + 0.3
            y0, y1 = y[below].min() - 0.4, y[below].max() + 0.4
            ax.add_patch(FancyBboxPatch((x0, y0), x1 - x0, y1 - y0, boxstyle="round,pad=0.05",
                                        fc="#f2e6c9", ec="#b08d3c", lw=1.0, zorder=0))
            boxes.append((x0, x1, y0))
        x0, x1, y0 = min(boxes, key=lambda box: box[2])
        ax.annotate(label, ((x0 + x1) / 2, y0), xytext=(0, -3), textcoords="offset points",
                    ha="center", va="top", fontsize="small", color="#7a5a10", zorder=3,
                    annotation_clip=False)

    faded = np.zeros(tree.num_nodes, bool) if lit_nodes is None else ~lit_nodes
    draw_nodes(ax, tree, x, y, infoset_fills(tree), faded, size=55 if phone else 90,
               linewidth=1.1 if phone else 1.4)
    if len(ringed):
        members = np.asarray(list(ringed), dtype=int)
        ax.scatter(x[members], y[members], **{**ring, "edgecolors": OKABE_ITO["black"],
                                              "linewidths": 2.0}, zorder=5)
    if current is not None:
        ax.scatter([x[current]], [y[current]], **ring, zorder=5, label="visited now")

    above = 7.5 if phone else 9   # points between a node and its key
    for decision in np.flatnonzero(tree.infoset >= 0).tolist():
        ax.annotate(tree.infoset_keys[tree.infoset[decision]], (x[decision], y[decision]),
                    xytext=(0, above), textcoords="offset points", ha="center", va="bottom",
                    fontsize="small",
                    color=PLAYER_COLORS[int(tree.player[decision])], zorder=6,
                    alpha=0.45 if faded[decision] else 1.0, annotation_clip=False)
    gap = 5 if phone else 7   # points between a node and the text right of it
    for node, text in node_text.items():
        terminal = tree.num_children[node] == 0
        ax.annotate(text, (x[node], y[node]), xytext=(gap, 0) if terminal else (gap - 1, -5),
                    textcoords="offset points", ha="left", va="center" if terminal else "top",
                    fontsize="small", zorder=6, color="#222222",
                    bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85),
                    annotation_clip=False)
    if payoffs:
        size = 0.9 * mpl.rcParams["font.size"]
        for node in tree.terminal_node:
            # right of the node's number, whose characters are about 0.62 of its font size, or
            # of a ring round the node
            text = node_text.get(int(node), "")
            words = 0.62 * 0.833 * float(mpl.rcParams["font.size"]) * len(text)
            shift = gap + (words + gap if text else gap - 1)
            ax.annotate(f"{tree.payoff[node]:+g}", (x[node], y[node]), xytext=(shift, 0),
                        textcoords="offset points", ha="left", va="center", fontsize=size,
                        color="#555555", zorder=6, annotation_clip=False)

    ax.set_xlim(-0.35, x.max() + (1.25 if node_text or not phone else 0.7))
    ax.set_ylim(y.min() - 0.8, 0.8)
    depth_axis(ax, tree.depth_max, "x")
    legend = ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=3,
                       handletextpad=0.3, columnspacing=1.0)
    if title:   # above the legend's rows
        rows = -(-len(legend.get_texts()) // 3)
        ax.set_title(title, pad=4 + rows * 2.0 * float(legend.get_texts()[0].get_fontsize()))
    return ax


def draw_history(game: Game, history: History | None, phone: bool = False) -> Axes:
    """``game``'s tree with ``history`` (moves from the root; None: none) marked, its path
    thick and its last node ringed: upright with its infosets' arcs for the book's column
    (:func:`cfrbook.plotting.draw_game_tree`), on its side for a phone's (:func:`draw_tree`), so
    that an explorer of histories draws both with one call
    (:func:`cfrbook.phone_figures.with_phone`)."""
    if phone:
        return draw_tree(game, history=history, phone=True)
    return draw_game_tree(game, highlight=history)


def _subtree(tree: Any, root: int) -> NDArray[np.int64]:
    """``root`` and every node below it."""
    nodes, frontier = [root], [root]
    while frontier:
        node = frontier.pop()
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        nodes.extend(range(first, first + count))
        frontier.extend(range(first, first + count))
    return np.array(nodes, dtype=np.int64)


def _short(name: str) -> str:
    """A move as the tree writes it: ``pass`` and ``bet`` as Kuhn's infoset keys do."""
    return {"pass": "p", "bet": "b"}.get(name, name)


# ----------------------------------------------------------------------------- public trees
def public_histories(game: Game) -> dict[tuple[str, ...], list[int]]:
    """The public histories of ``game`` (the players' moves, chance's left out) and the nodes of
    each, in the order of the tree. Right only where every chance move is private (Kuhn poker,
    Coin Toss): a public chance move (a board card) would merge histories it tells apart."""
    placed = place(game)
    tree = placed.tree
    groups: dict[tuple[str, ...], list[int]] = {}
    for node in range(tree.num_nodes):
        if tree.player[node] == CHANCE:
            continue
        moves = tuple(placed.edge_labels[n] for n in _ancestors(tree, node)
                      if tree.player[tree.parent[n]] != CHANCE)
        groups.setdefault(moves, []).append(node)
    return groups


def _ancestors(tree: Any, node: int) -> list[int]:
    """The nodes from the root's child down to ``node``."""
    path = []
    while node > 0:
        path.append(node)
        node = int(tree.parent[node])
    return path[::-1]


def draw_public_tree(game: Game, rows: Callable[[str], Sequence[str]], header: Sequence[str],
                     bar: Callable[[str], float] | None = None, bar_label: str = "",
                     title: str = "", order: Sequence[str] = (), column: float = 0.52,
                     phone: bool = False) -> Axes:
    """Draw the tree of ``game``'s public histories (see :func:`public_histories`) from the top
    down, each decision as a box holding the acting player's information sets, one row each.

    ``rows(key)`` gives the cells of infoset ``key``'s row after the key, under the column names
    ``header``, each ``column`` inches wide; ``bar(key)``, a number in [0, 1] (a probability), is
    drawn as a bar at the row's end, under the column name ``bar_label``. Terminal public
    histories are dots named by their moves. A box lists its infosets in the order of ``order``
    (infoset keys; the tree's order for those it leaves out). The figure is as wide as the tree
    needs, its data coordinates in inches. For a phone (``phone``) the tree is drawn as an
    outline instead: one public history a line (a box or a dot) in the order of a walk down
    the tree, each indented by its depth under its parent, the figure
    :data:`~cfrbook.phone_figures.PHONE_WIDTH` inches wide with its text
    :data:`~cfrbook.phone_figures.PHONE_TEXT_PT` points (columns :data:`PHONE_COLUMN_INCHES`
    wide). Returns its axes."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch, Rectangle

    from .phone_figures import PHONE_WIDTH
    from .plotting import style

    tree = place(game).tree
    groups = public_histories(game)
    public = list(groups)
    kids: dict[tuple[str, ...], list[tuple[str, ...]]] = {h: [] for h in public}
    for h in public:
        if h:
            kids[h[:-1]].append(h)
    if phone:
        line, key_width, bar_width, column = 0.16, 0.55, 0.36, PHONE_COLUMN_INCHES
    else:
        line, key_width, bar_width = 0.2, 0.55, 0.45  # inches
    box_width = 0.2 + key_width + column * len(header) + (bar_width + 0.1 if bar else 0)

    def box_height(h: tuple[str, ...]) -> float:
        return line * (len({int(tree.infoset[n]) for n in groups[h]}) + 1) + 0.12

    most = max(box_height(h) for h in public if kids[h])
    margin = 0.1
    top_room = 0.35 if title else 0.05
    # each public history's place: its box's (or dot's) left edge and middle
    left: dict[tuple[str, ...], float] = {}
    middle: dict[tuple[str, ...], float] = {}
    if phone:
        indent, dot_line = 0.3, 0.22
        below = top_room

        def walk(h: tuple[str, ...]) -> None:
            nonlocal below
            own = box_height(h) + 0.08 if kids[h] else dot_line
            left[h], middle[h] = margin + indent * len(h), -(below + own / 2)
            below += own
            for k in kids[h]:
                walk(k)

        walk(())
        size = (PHONE_WIDTH, below + 0.05)
        if margin + indent * max(len(h) for h in public if kids[h]) + box_width > PHONE_WIDTH:
            raise CfrlibError(f"draw_public_tree: boxes {box_width:.2f} inches wide, indented "
                              f"{indent} a level, do not fit a phone's {PHONE_WIDTH} inches; "
                              "give fewer columns")
    else:
        level = most + 0.5  # a box and the gap below it

        def span(h: tuple[str, ...]) -> float:
            # inches a public history's subtree needs across: its box (or dot) or its children's
            own = box_width + 0.15 if kids[h] else 0.5
            return max(own, sum(span(k) for k in kids[h]))

        def put(h: tuple[str, ...], start: float) -> None:
            centre = start + span(h) / 2
            left[h] = centre - (box_width / 2 if kids[h] else 0)
            middle[h] = -(top_room + most / 2) - len(h) * level
            start = centre - sum(span(k) for k in kids[h]) / 2
            for k in kids[h]:
                put(k, start)
                start += span(k)

        put((), margin)
        size = (span(()) + 2 * margin, top_room + max(map(len, public)) * level + most / 2 + 0.3)
    style(phone)
    fig = plt.figure(figsize=size)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, size[0])
    ax.set_ylim(-size[1], 0)
    ax.set_axis_off()
    if title:
        ax.text(size[0] / 2, -0.08, title, ha="center", va="top", fontsize="large")

    def anchor(h: tuple[str, ...]) -> float:
        # where a box's (or dot's) edges start: its middle, or a phone's spine near its left
        return left[h] + (0.12 if phone else box_width / 2 if kids[h] else 0)

    fills = infoset_fills(tree)
    for h in public:
        if not h:
            continue
        p = h[:-1]
        if phone:   # down the parent's spine, then across to the child
            xs = [anchor(p), anchor(p), left[h]]
            ys = [middle[p] - box_height(p) / 2, middle[h], middle[h]]
            at = ((anchor(p) + left[h]) / 2, middle[h])
        else:
            xs, ys = [anchor(p), anchor(h)], [middle[p], middle[h]]
            at = ((xs[0] + xs[1]) / 2, (ys[0] + ys[1]) / 2)
        ax.plot(xs, ys, color="#9a9a9a", lw=1.0, zorder=1)
        ax.annotate(_short(h[-1]), at, ha="center", va="center", fontsize="small",
                    color="#444444", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.12", fc="white", ec="none"),
                    annotation_clip=False)
    rank = {key: k for k, key in enumerate(order)}
    for h in public:
        nodes = groups[h]
        who = int(tree.player[nodes[0]])
        if who == TERMINAL:
            moves = " ".join(_short(m) for m in h)
            if phone:
                ax.plot(left[h] + 0.03, middle[h], marker="o", ms=3.5,
                        color=PLAYER_COLORS[TERMINAL], zorder=4)
                ax.annotate(moves, (left[h] + 0.03, middle[h]), xytext=(5, 0),
                            textcoords="offset points", ha="left", va="center", fontsize="small",
                            annotation_clip=False)
            else:
                ax.plot(left[h], middle[h], marker="o", ms=4, color=PLAYER_COLORS[TERMINAL],
                        zorder=4)
                ax.annotate(moves, (left[h], middle[h]), xytext=(0, -5),
                            textcoords="offset points", ha="center", va="top", fontsize="small",
                            annotation_clip=False)
            continue
        infosets = sorted({int(tree.infoset[n]) for n in nodes},
                          key=lambda I: (rank.get(tree.infoset_keys[I], len(rank)), I))
        half = box_height(h) / 2
        top = middle[h] + half
        ax.add_patch(FancyBboxPatch((left[h], middle[h] - half), box_width, 2 * half,
                                    boxstyle="round,pad=0.02", fc="white",
                                    ec=PLAYER_COLORS[who], lw=1.6, zorder=3))
        x0 = left[h] + 0.1
        starts = [x0, *(x0 + key_width + column * k for k in range(len(header)))]
        names = [f"player {who}", *header]
        if bar:
            starts.append(x0 + key_width + column * len(header))
            names.append(bar_label)
        for k, (name, start) in enumerate(zip(names, starts)):
            ax.text(start, top - 0.06, name, ha="left", va="top", fontsize="small", zorder=4,
                    color=PLAYER_COLORS[who] if k == 0 else "#555555")
        for r, I in enumerate(infosets):
            row_top = top - 0.06 - line * (r + 1)
            key = tree.infoset_keys[I]
            for k, (cell, start) in enumerate(zip([key, *rows(key)], starts)):
                ax.text(start, row_top, cell, ha="left", va="top", fontsize="small", zorder=4,
                        color=PLAYER_COLORS[who] if k == 0 else "#222222",
                        fontweight="bold" if k == 0 else "normal")
            if bar:
                share = float(np.clip(bar(key), 0.0, 1.0))
                for fraction, look in ((1.0, {"fc": "#eeeeee", "ec": "#999999", "lw": 0.6}),
                                       (share, {"fc": fills[I], "ec": "none"})):
                    ax.add_patch(Rectangle((starts[-1], row_top - 0.7 * line), bar_width * fraction,
                                           0.6 * line, zorder=4, **look))
    return ax


# ----------------------------------------------------------------------------- recording walks
class RecordingState:
    """A :class:`~cfrlib.game.State` that appends its history (moves from the root) to ``log``
    each time a recursion asks whether it is terminal, which the book's recursions do once on
    entering a node; every other method is the wrapped state's. Its children record too."""

    def __init__(self, state: State, log: list[tuple[str, ...]],
                 path: tuple[str, ...] = ()) -> None:
        self._state, self._log, self._path = state, log, path

    def is_terminal(self) -> bool:
        self._log.append(self._path)
        return self._state.is_terminal()

    def child(self, action: str) -> RecordingState:
        return RecordingState(self._state.child(action), self._log, self._path + (action,))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)
