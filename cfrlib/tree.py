"""Compiling a game into flat numpy arrays.

The game is walked once, breadth first, so that nodes come in *level order*: the root, then
every node at depth 1, then depth 2, and so on, and the children of a node are contiguous.
Information sets get dense indices ``0 .. num_infosets - 1`` and every array of the solvers is
indexed by ``(infoset, action)``, padded to ``max_actions`` columns with :attr:`Tree.action_mask`
marking the legal ones.

Besides the node arrays, the tree keeps the *sequence form* of the game, which is what makes the
solvers fast. A player's sequence is an (infoset, action) pair ``(I, a)``, numbered
``I * max_actions + a``; the empty sequence has the number :attr:`Tree.empty_sequence`. With
perfect recall every infoset ``I`` of player ``i`` has a unique parent sequence (the last action
``i`` took before reaching ``I``) and every terminal ``z`` has, for each player, a last sequence.
Reach probabilities then factor as

    pi^sigma(z) = pi_c(z) * x_0[seq_0(z)] * x_1[seq_1(z)],
    x_i[(I, a)] = x_i[parent(I)] * sigma(I, a)        (the realization plan of player i),

so a whole tree traversal becomes a few vectorized passes over terminals and over infosets,
one level of each player's own decisions at a time.

Compiling has two stages. :func:`~cfrlib.tree.walk_states` asks the state API about every history, once,
and records the answers in a :class:`~cfrlib.tree.NodeTable` (who acts, the names of the actions, the
infoset key, chance probabilities, payoffs): one short Python step per history and nothing
else. :func:`~cfrlib.tree.build_tree` then checks the table and derives every array with numpy, level by
level. A game may offer the same table faster (``Game.node_table``, vectorized); the tests
check that such a table equals the walk's. The checks (:func:`~cfrlib.tree.build_tree`) are cfrlib's one
structural validator, for built-in games and games read from files alike; each error names
the place with ``game.describe(history)``: the history by default, a line and column in a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

import numpy as np
from numpy.typing import NDArray

from .checks import sums_to_one
from .errors import (ChanceProbabilityError, GameError, ImperfectRecallError,
                     InfosetMismatchError, NoActionsError, NotZeroSumError)
from .players import CHANCE, TERMINAL

History = tuple[str, ...]
"""The names of the actions and chance outcomes from the root to a node, in order."""


class StateLike(Protocol):
    """What the compiler asks of a history: the state API of :class:`cfrlib.game.State`."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[str]: ...
    def chance_outcomes(self) -> list[tuple[str, float]]: ...
    def child(self, action: str) -> StateLike: ...
    def infoset_key(self) -> str: ...
    def returns(self) -> tuple[float, float]: ...


class GameLike(Protocol):
    """What the compiler asks of a game (every :class:`cfrlib.game.Game` has it). Used when
    present: ``describe(history)`` names a place in messages, ``node_table()`` is the fast path
    and ``player_scoped_infosets`` lets both players use one infoset name."""

    @property
    def name(self) -> str: ...
    @property
    def constant_sum(self) -> float: ...
    @property
    def sum_tolerance(self) -> float: ...
    def initial_state(self) -> StateLike: ...


@dataclass(eq=False)
class Tree:
    """A game compiled to arrays. Build it with ``game.tree()``.

    Node arrays (length :attr:`num_nodes`, level order, root first):
    ``parent`` (-1 at the root), ``depth``, ``player`` (0, 1, ``CHANCE`` or ``TERMINAL``),
    ``infoset`` (-1 off decision nodes), ``action`` (index of the edge from the parent in the
    parent's action list, -1 at the root), ``chance_prob`` (probability of that edge when the
    parent is a chance node, else 1), ``chance_reach`` (``pi_c(h)``), ``payoff`` (player 0's
    utility at terminals, 0 elsewhere), ``first_child`` and ``num_children``.
    ``level_offsets[d]:level_offsets[d + 1]`` are the nodes at depth ``d``.

    Infoset arrays (length :attr:`num_infosets`): ``infoset_player``, ``infoset_num_actions``,
    ``infoset_keys``, ``infoset_actions`` (action names), ``infoset_parent_seq``,
    ``infoset_own_depth`` (how many actions the player took before), ``infoset_node`` (one node
    of the infoset) and ``action_mask`` (``num_infosets x max_actions``).

    Terminal arrays (length :attr:`num_terminals`): ``terminal_node``, ``terminal_payoff``,
    ``terminal_chance`` (``pi_c(z)``) and ``terminal_seq`` (``2 x num_terminals``: each player's
    last sequence before ``z``).
    """

    game_name: str
    constant_sum: float
    parent: NDArray[np.int64]
    depth: NDArray[np.int32]
    player: NDArray[np.int8]
    infoset: NDArray[np.int64]
    action: NDArray[np.int64]
    chance_prob: NDArray[np.float64]
    chance_reach: NDArray[np.float64]
    payoff: NDArray[np.float64]
    first_child: NDArray[np.int64]
    num_children: NDArray[np.int64]
    level_offsets: NDArray[np.int64]
    infoset_player: NDArray[np.int8]
    infoset_num_actions: NDArray[np.int64]
    infoset_keys: list[str]
    infoset_actions: list[tuple[str, ...]]
    infoset_parent_seq: NDArray[np.int64]
    infoset_own_depth: NDArray[np.int32]
    infoset_node: NDArray[np.intp]
    action_mask: NDArray[np.bool_]
    terminal_node: NDArray[np.intp]
    terminal_payoff: NDArray[np.float64]
    terminal_chance: NDArray[np.float64]
    terminal_seq: NDArray[np.int64]
    _index: dict[tuple[int, str], int] = field(repr=False, default_factory=dict)

    # ----------------------------------------------------------------------------- sizes
    @property
    def num_nodes(self) -> int:
        """Number of histories, chance and terminal nodes included."""
        return len(self.parent)

    @property
    def num_infosets(self) -> int:
        """Number of information sets of both players."""
        return len(self.infoset_player)

    @property
    def num_terminals(self) -> int:
        """Number of terminal histories ``|Z|``."""
        return len(self.terminal_node)

    @property
    def max_actions(self) -> int:
        """Width of the ``(infoset, action)`` arrays: the largest ``|A(I)|``."""
        return self.action_mask.shape[1]

    @property
    def num_sequences(self) -> int:
        """Size of the sequence arrays without the empty sequence: ``num_infosets * max_actions``."""
        return self.action_mask.size

    @property
    def empty_sequence(self) -> int:
        """Index of the empty sequence (the last slot of every flat sequence array)."""
        return self.action_mask.size

    @property
    def depth_max(self) -> int:
        """Length of the longest history."""
        return len(self.level_offsets) - 2

    def num_infosets_of(self, player: int) -> int:
        """Number of information sets where ``player`` acts."""
        return int(np.count_nonzero(self.infoset_player == player))

    def infoset_index(self, player: int, key: str) -> int:
        """Dense index of ``player``'s infoset called ``key`` (``KeyError`` if there is none)."""
        return self._index[(player, key)]

    def has_infoset(self, player: int, key: str) -> bool:
        return (player, key) in self._index

    def uniform(self) -> NDArray[np.float64]:
        """The uniform strategy, a new ``num_infosets x max_actions`` array: ``sigma(I, a) = 1 / |A(I)|``
        at the legal actions, 0 elsewhere."""
        return self.action_mask / self.infoset_num_actions[:, None]

    def infoset_levels(self, player: int) -> list[NDArray[np.intp]]:
        """``player``'s infosets grouped by own depth, shallowest first (cached)."""
        cache: dict[int, list[NDArray[np.intp]]] = self.__dict__.setdefault("_levels", {})
        if player not in cache:
            mine = np.flatnonzero(self.infoset_player == player)
            depths = self.infoset_own_depth[mine]
            cache[player] = [mine[depths == d] for d in range(int(depths.max(initial=-1)) + 1)]
            cache[player] = [level for level in cache[player] if level.size]
        return cache[player]

    def node_sequences(self) -> NDArray[np.int64]:
        """``seqs[p, h]``: player ``p``'s last own sequence ``I * max_actions + a`` on the path to
        every node ``h`` (the empty sequence before ``p``'s first move), as :func:`build_tree` found
        them (cached, read-only)."""
        seqs: NDArray[np.int64] | None = self.__dict__.get("_node_sequences")
        if seqs is None:
            seqs = _last_sequences(self.player, self.parent, self.action, self.infoset,
                                   self.level_offsets.tolist(), self.empty_sequence, self.max_actions)
            seqs.setflags(write=False)
            self.__dict__["_node_sequences"] = seqs
        return seqs

    def __repr__(self) -> str:
        return (
            f"Tree({self.game_name}: {self.num_nodes:,} nodes, {self.num_terminals:,} terminals, "
            f"{self.num_infosets:,} infosets, depth {self.depth_max})"
        )


@dataclass(eq=False)
class NodeTable:
    """A game's histories in level order (breadth first), as the state API describes them.

    Per node (length ``num_nodes``): ``player`` (0, 1, ``CHANCE`` or ``TERMINAL``), ``labels``
    (index into :attr:`label_lists`, the names of the actions or chance outcomes, in order;
    -1 at terminals), ``key`` (index into :attr:`keys`, the infoset key, at decision nodes; -1
    elsewhere), ``chance_prob`` (probability of the edge from a chance parent, 1 elsewhere) and
    ``returns`` (``num_nodes x 2``, ``(u_0(z), u_1(z))`` at terminals, 0 elsewhere). The children
    of each node follow in order, so the parents are implied by the numbers of children. Equal
    action lists have one entry in :attr:`label_lists` and equal keys one in :attr:`keys`.
    """

    player: NDArray[np.int8]
    labels: NDArray[np.int64]
    key: NDArray[np.int64]
    chance_prob: NDArray[np.float64]
    returns: NDArray[np.float64]
    label_lists: list[tuple[str, ...]]
    keys: list[str]

    @property
    def num_children(self) -> NDArray[np.int64]:
        sizes = np.array([len(names) for names in self.label_lists] + [0], dtype=np.int64)
        return sizes[self.labels]  # labels -1 (terminals) picks the trailing 0

    @classmethod
    def from_lists(cls, game: GameLike, player: list[int], labels: list[int], keys_of: list[int],
                   probs: Sequence[Sequence[float]], payoffs: Sequence[Sequence[float]],
                   label_ids: dict[History, int], key_ids: dict[str, int]) -> NodeTable:
        """The table of a level-order walk: per node its ``player`` and ``labels`` id (-1 at
        terminals), per decision node its key id, per chance node its probabilities and per
        terminal its payoffs, in order; ``label_ids`` and ``key_ids`` number the distinct action
        lists and keys as first met. Probabilities and payoffs that are not numbers (or not two
        payoffs) raise a :class:`~cfrlib.errors.GameError` naming the node."""
        who = np.array(player, dtype=np.int8)
        key_of = np.full(len(who), -1, dtype=np.int64)
        key_of[who >= 0] = keys_of
        table = cls(who, np.array(labels, dtype=np.int64), key_of, np.ones(len(who)),
                    np.zeros((len(who), 2)), list(label_ids), list(key_ids))
        chance_children = np.repeat(who == CHANCE, table.num_children)
        table.chance_prob[1:][chance_children] = _floats(
            game, table, probs, np.flatnonzero(who == CHANCE), "chance probabilities", None)
        table.returns[who == TERMINAL] = _floats(
            game, table, payoffs, np.flatnonzero(who == TERMINAL), "returns()", 2)
        return table

    def equals(self, other: NodeTable) -> bool:
        """Whether two tables describe the same tree (same names, same numbers)."""
        return (all(np.array_equal(getattr(self, f), getattr(other, f))
                    for f in ("player", "chance_prob", "returns"))
                and _resolved(self.labels, self.label_lists) == _resolved(other.labels, other.label_lists)
                and _resolved(self.key, self.keys) == _resolved(other.key, other.keys))


def _resolved(ids: NDArray[np.int64], values: Sequence[object]) -> list[object]:
    return [values[i] if i >= 0 else None for i in ids.tolist()]


def walk_states(game: GameLike) -> NodeTable:
    """Ask ``game``'s state API about every history, breadth first, into a :class:`~cfrlib.tree.NodeTable`."""
    level = [game.initial_state()]
    player: list[int] = []
    labels: list[int] = []
    keys_of: list[int] = []
    probs: list[list[float]] = []
    payoffs: list[tuple[float, float]] = []
    label_ids: dict[History, int] = {}  # each distinct action list and infoset key, numbered
    key_ids: dict[str, int] = {}
    while level:  # one depth at a time: the walk keeps two levels of states alive
        below: list[StateLike] = []
        for state in level:
            p = state.current_player()
            player.append(p)
            if p == TERMINAL:
                payoffs.append(state.returns())
                labels.append(-1)
                continue
            if p == 0 or p == 1:
                key = state.infoset_key()
                try:
                    k = key_ids.get(key)
                except TypeError:
                    k = _unhashable(game, player, labels, label_ids, "infoset key", key)
                if k is None:
                    k = key_ids[key] = len(key_ids)
                keys_of.append(k)
                names = tuple(state.legal_actions())
            elif p == CHANCE:
                outcomes = state.chance_outcomes()
                names = tuple(name for name, _ in outcomes)
                probs.append([q for _, q in outcomes])
            else:
                raise GameError(f"{_describe(game, _partial(player, labels, label_ids), len(labels))}: "
                                f"current_player() returned {p!r}, expected 0, 1, CHANCE or TERMINAL")
            try:
                n = label_ids.get(names)
            except TypeError:
                n = _unhashable(game, player, labels, label_ids, "action names", names)
            if n is None:
                n = label_ids[names] = len(label_ids)
            labels.append(n)
            below.extend(map(state.child, names))
        level = below
    return NodeTable.from_lists(game, player, labels, keys_of, probs, payoffs, label_ids, key_ids)


def _floats(game: GameLike, table: NodeTable, values: Sequence[Sequence[float]], nodes: NDArray[np.intp],
            what: str, width: int | None) -> NDArray[np.float64]:
    """``values`` (one sequence per node of ``nodes``) as one float array, rows of ``width``
    (flattened when ``width`` is None), or a :class:`~cfrlib.errors.GameError` naming the first bad node."""
    try:
        if width is None:
            out = np.array([q for v in values for q in v], dtype=float)
            if out.ndim == 1:
                return out
        else:
            out = np.array(values, dtype=float)
            if out.shape == (len(values), width) or not values:
                return out.reshape(len(values), width)
    except (TypeError, ValueError):
        pass
    n, v = next((n, v) for n, v in zip(nodes, values) if not _is_row(v, width))
    expected = "two payoffs" if width == 2 else "numbers"
    raise GameError(f"{_describe(game, table, n)}: {what} gave {v!r}, expected {expected}")


def _is_row(values: object, width: int | None) -> bool:
    try:
        row = np.array(values, dtype=float)
    except (TypeError, ValueError):
        return False
    return row.ndim == 1 and (width is None or row.shape == (width,))


def _unhashable(game: GameLike, player: list[int], labels: list[int], label_ids: dict[History, int],
                what: str, value: object) -> NoReturn:
    raise GameError(f"{_describe(game, _partial(player, labels, label_ids), len(player) - 1)}: "
                    f"the {what} {value!r} must be strings")


def _partial(player: list[int], labels: list[int], label_ids: dict[History, int]) -> NodeTable:
    """The table of the nodes walked so far (for the error messages of an unfinished walk)."""
    n = len(labels)
    return NodeTable(np.array(player[:n], dtype=np.int8), np.array(labels, dtype=np.int64),
                     np.full(n, -1), np.ones(n), np.zeros((n, 2)), list(label_ids), [])


def history(table: NodeTable, n: int) -> History:
    """The action (and chance outcome) names from the root to node ``n``."""
    num_children = table.num_children
    first_child = 1 + np.cumsum(num_children) - num_children
    path = []
    while n > 0:
        parent = int(np.searchsorted(first_child, n, side="right")) - 1
        while num_children[parent] == 0:  # terminals share their successor's first_child
            parent -= 1
        path.append(table.label_lists[table.labels[parent]][n - first_child[parent]])
        n = parent
    return tuple(reversed(path))


def _describe(game: GameLike, table: NodeTable, n: int | np.integer) -> str:
    h = history(table, int(n))
    describe = getattr(game, "describe", None)
    return describe(h) if describe is not None else describe_history(h)


def describe_history(history: Iterable[object]) -> str:
    """The default description of a history in messages: ``history 'a b'`` or ``the root``."""
    return "history '" + " ".join(str(a) for a in history) + "'" if history else "the root"


def node_table(game: GameLike) -> NodeTable:
    """``game``'s :class:`~cfrlib.tree.NodeTable`: ``game.node_table()`` when the game offers
    one, else :func:`~cfrlib.tree.walk_states`. Its nodes are the compiled tree's, in the same
    order; it also has the names of the chance outcomes, which the tree does not keep."""
    fast = getattr(game, "node_table", None)
    table = fast() if fast is not None else None
    return table if table is not None else walk_states(game)


def compile_game(game: GameLike) -> Tree:
    """``game`` compiled to a :class:`~cfrlib.tree.Tree`: its :func:`~cfrlib.tree.node_table`,
    checked and turned into arrays by :func:`~cfrlib.tree.build_tree`."""
    return build_tree(game, node_table(game))


def build_tree(game: GameLike, table: NodeTable) -> Tree:
    """The :class:`~cfrlib.tree.Tree` of ``table``, after checking that it is a game cfrlib can solve.

    This is cfrlib's one structural validator. It raises a :class:`~cfrlib.errors.GameError`
    naming the place (``game.describe(history)``) for a repeated action name or an infoset key
    that is not a string, and its subclasses:
    :class:`~cfrlib.errors.NoActionsError` for a node without actions or outcomes;
    :class:`~cfrlib.errors.ChanceProbabilityError` unless each chance node's probabilities are
    finite, non-negative and sum to 1 within ``n * PROBABILITY_TOLERANCE``
    (:mod:`cfrlib.checks`; probabilities further from 1 than rounding are then rescaled);
    :class:`~cfrlib.errors.NotZeroSumError` unless every terminal's finite payoffs satisfy
    ``|u_0 + u_1 - constant_sum| <= sum_tolerance * max(1, |u_0| + |u_1|)``;
    :class:`~cfrlib.errors.InfosetMismatchError` when the histories of an infoset disagree on the
    acting player or the legal actions; :class:`~cfrlib.errors.ImperfectRecallError` when they
    follow different last own sequences of the acting player (perfect recall).
    """
    player, labels = table.player, table.labels
    num_children = table.num_children
    first_child = 1 + np.cumsum(num_children) - num_children
    chance_prob = _checked_nodes(game, table, first_child, num_children)
    decision = np.flatnonzero(player >= 0)
    terminal = np.flatnonzero(player == TERMINAL)
    parent, action, bounds = _links(first_child, num_children)
    depth = np.repeat(np.arange(len(bounds) - 1, dtype=np.int32), np.diff(bounds))
    chance_reach = _products_down(parent, chance_prob, bounds)
    infoset, infoset_of, infoset_node = _number_infosets(game, table, decision)
    num_infosets = len(infoset_node)
    width = int(num_children[infoset_node].max())
    inf_player = player[infoset_node]
    seqs = _last_sequences(player, parent, action, infoset, bounds, num_infosets * width, width)
    own_seq = seqs[player[decision].astype(np.int64), decision]
    parent_seq = own_seq[np.searchsorted(decision, infoset_node)]
    _check_infosets(game, table, decision, infoset_of, infoset_node, own_seq, parent_seq)
    own_depth = _own_depths(parent_seq, num_infosets, width)

    num_actions = num_children[infoset_node]
    payoff = table.returns[:, 0].copy()
    inf_keys = [table.keys[k] for k in table.key[infoset_node].tolist()]
    tree = Tree(
        game_name=game.name,
        constant_sum=float(game.constant_sum),
        parent=parent,
        depth=depth,
        player=player.copy(),
        infoset=infoset,
        action=action,
        chance_prob=chance_prob,
        chance_reach=chance_reach,
        payoff=payoff,
        first_child=first_child,
        num_children=num_children,
        level_offsets=np.array(bounds, dtype=np.int64),
        infoset_player=inf_player.copy(),
        infoset_num_actions=num_actions,
        infoset_keys=inf_keys,
        infoset_actions=[table.label_lists[n] for n in labels[infoset_node].tolist()],
        infoset_parent_seq=parent_seq,
        infoset_own_depth=own_depth,
        infoset_node=infoset_node,
        action_mask=np.arange(width)[None, :] < num_actions[:, None],
        terminal_node=terminal,
        terminal_payoff=payoff[terminal],
        terminal_chance=chance_reach[terminal],
        terminal_seq=seqs[:, terminal].copy(),
        _index=dict(zip(zip(inf_player.tolist(), inf_keys), range(num_infosets))),
    )
    for arr in (tree.parent, tree.depth, tree.player, tree.infoset, tree.action, tree.chance_prob,
                tree.chance_reach, tree.payoff, tree.first_child, tree.num_children, tree.level_offsets,
                tree.infoset_player, tree.infoset_num_actions, tree.infoset_parent_seq,
                tree.infoset_own_depth, tree.infoset_node, tree.action_mask, tree.terminal_node,
                tree.terminal_payoff, tree.terminal_chance, tree.terminal_seq):
        arr.flags.writeable = False
    return tree


def _links(first_child: NDArray[np.int64], num_children: NDArray[np.int64]
           ) -> tuple[NDArray[np.int64], NDArray[np.int64], list[int]]:
    """``(parent, action, bounds)`` of a level-order tree given by its ``first_child`` and
    ``num_children``: each node's parent (-1 at the root), the index of the action that leads to
    it (-1 at the root), and the node numbers where each level starts (and the end)."""
    num_nodes = len(num_children)
    parent = np.concatenate([[-1], np.repeat(np.arange(num_nodes, dtype=np.int64), num_children)])
    action = np.arange(num_nodes, dtype=np.int64) - first_child[np.maximum(parent, 0)]
    action[0] = -1
    bounds = [0, 1]
    while bounds[-1] < num_nodes:
        last = bounds[-1] - 1
        bounds.append(int(first_child[last] + num_children[last]))
    return parent, action, bounds


def _products_down(parent: NDArray[np.int64], factor: NDArray[np.float64], bounds: list[int]
                   ) -> NDArray[np.float64]:
    """``prod`` of ``factor`` along the path from the root to each node, level by level (the
    chance reach ``pi_c(h)`` for the chance probabilities)."""
    product = np.ones(len(parent))
    for lo, hi in zip(bounds[1:-1], bounds[2:]):
        product[lo:hi] = product[parent[lo:hi]] * factor[lo:hi]
    return product


def _number_infosets(game: GameLike, table: NodeTable, decision: NDArray[np.intp]
                     ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.intp]]:
    """Dense infoset numbers in order of first appearance: ``(infoset of every node, -1 off
    decisions; infoset of each decision node; the first node of each infoset)``. Each player
    names their own infosets when the game says so (``player_scoped_infosets``)."""
    scoped = bool(getattr(game, "player_scoped_infosets", False))
    ident = table.key[decision] * 2 + table.player[decision].astype(np.int64) if scoped else table.key[decision]
    _, first, inverse = np.unique(ident, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    infoset_of = rank[inverse.ravel()]
    infoset = np.full(len(table.player), -1, dtype=np.int64)
    infoset[decision] = infoset_of
    return infoset, infoset_of, decision[first[order]]


def _last_sequences(player: NDArray[Any], parent: NDArray[np.int64], action: NDArray[np.int64],
                    infoset: NDArray[np.int64], bounds: list[int], empty: int, width: int
                    ) -> NDArray[np.int64]:
    """``seqs[p, h]``: player ``p``'s last own sequence ``I * width + a`` on the path to ``h``
    (``empty`` before their first move), level by level."""
    seqs = np.full((2, len(player)), empty, dtype=np.int64)
    for lo, hi in zip(bounds[1:-1], bounds[2:]):
        up = parent[lo:hi]
        for p in (0, 1):
            seqs[p, lo:hi] = np.where(player[up] == p, infoset[up] * width + action[lo:hi], seqs[p, up])
    return seqs


def _own_depths(parent_seq: NDArray[np.int64], num_infosets: int, width: int) -> NDArray[np.int32]:
    """Each infoset's own depth: 0 without a parent sequence, else 1 + that of the parent
    sequence's infoset (iterated to a fixed point)."""
    own_depth = np.zeros(num_infosets, dtype=np.int32)
    has_parent = parent_seq != num_infosets * width
    while True:
        deeper = np.where(has_parent, own_depth[parent_seq // width % num_infosets] + 1, 0).astype(np.int32)
        if np.array_equal(deeper, own_depth):
            return own_depth
        own_depth = deeper


def _checked_nodes(game: GameLike, table: NodeTable, first_child: NDArray[np.int64],
                   num_children: NDArray[np.int64]) -> NDArray[np.float64]:
    """The checks of each node on its own (actions, keys, chance probabilities, payoffs);
    returns the chance probabilities, rounded ones rescaled."""
    where = lambda n: _describe(game, table, n)  # noqa: E731
    constant = float(game.constant_sum)
    player, labels = table.player, table.labels
    decision = np.flatnonzero(player >= 0)
    chance = np.flatnonzero(player == CHANCE)
    terminal = np.flatnonzero(player == TERMINAL)
    empty = np.flatnonzero((player != TERMINAL) & (num_children == 0))
    if empty.size:
        n = empty[0]
        what = "a chance node with no outcomes" if player[n] == CHANCE else f"player {player[n]} has no actions"
        raise NoActionsError(f"{where(n)}: {what}")
    for number, names in enumerate(table.label_lists):
        if len(set(names)) != len(names):
            repeated = sorted({a for a in names if names.count(a) > 1})
            raise GameError(f"{where(np.flatnonzero(labels == number)[0])}: repeated action name(s) {repeated}")
    answers: Sequence[object] = table.keys  # as the game gave them: its state API may break the contract
    for number, key in enumerate(answers):
        if not isinstance(key, str):
            n = np.flatnonzero(table.key == number)[0]
            raise GameError(f"{where(n)}: player {player[n]}'s infoset key must be a string, got {key!r}")
    chance_prob = table.chance_prob.copy()
    if chance.size:
        kids = _children(first_child, num_children, chance)
        q = chance_prob[kids]
        counts = num_children[chance]
        starts = np.cumsum(counts) - counts  # of each chance node's outcomes in q
        ok = np.isfinite(q) & (q >= 0)
        node_ok = np.minimum.reduceat(ok, starts)
        totals = np.add.reduceat(np.where(ok, q, 0.0), starts)
        bad = ~node_ok | ~sums_to_one(totals, counts)
        if bad.any():
            k = int(np.argmax(bad))
            n = chance[k]
            shown = [float(x) for x in chance_prob[first_child[n]:first_child[n] + num_children[n]]]
            problem = ("must be finite and non-negative" if not node_ok[k]
                       else f"sum to {totals[k]:.9g}, not 1")
            raise ChanceProbabilityError(f"{where(n)}: chance probabilities {shown} {problem}")
        # Rescale what is further from 1 than the rounding of a float sum (rounded files).
        rounded = np.abs(totals - 1.0) > counts * np.finfo(float).eps
        if rounded.any():
            chance_prob[kids] /= np.repeat(np.where(rounded, totals, 1.0), counts)
    u = table.returns[terminal]
    finite = np.isfinite(u).all(axis=1)
    if not finite.all():
        n = terminal[np.argmin(finite)]
        raise GameError(f"{where(n)}: a terminal needs two finite payoffs, got {tuple(table.returns[n].tolist())}")
    off = np.abs(u.sum(axis=1) - constant) > float(game.sum_tolerance) * np.maximum(1.0, np.abs(u).sum(axis=1))
    if off.any():
        k = int(np.argmax(off))
        u0, u1 = u[k]
        raise NotZeroSumError(
            f"{where(terminal[k])}: terminal payoffs ({u0:g}, {u1:g}) sum to {u0 + u1:g}, but "
            f"{game.name} is a constant-sum game with sum {constant:g}")
    if decision.size == 0:
        raise GameError(f"{game.name} has no decision for either player")
    return chance_prob


def _check_infosets(game: GameLike, table: NodeTable, decision: NDArray[np.intp], infoset_of: NDArray[np.intp],
                    infoset_node: NDArray[np.intp], own_seq: NDArray[np.int64],
                    parent_seq: NDArray[np.int64]) -> None:
    """The histories of each infoset agree on the acting player, the actions and (perfect
    recall) the acting player's last own sequence; the first history that does not is named."""
    where = lambda n: _describe(game, table, n)  # noqa: E731
    player, labels = table.player, table.labels
    inf_player = player[infoset_node]
    wrong_player = player[decision] != inf_player[infoset_of]
    wrong_actions = labels[decision] != labels[infoset_node[infoset_of]]
    forgets = own_seq != parent_seq[infoset_of]
    problems = wrong_player | wrong_actions | forgets
    if problems.any():
        k = int(np.argmax(problems))
        n, I = decision[k], infoset_of[k]
        other, key, p = infoset_node[I], table.keys[table.key[decision[k]]], player[decision[k]]
        if wrong_player[k]:
            raise InfosetMismatchError(
                f"infoset {key!r}: player {p} acts at {where(n)} but player {1 - p} acts at "
                f"{where(other)} (a game whose infoset names are per player sets "
                "player_scoped_infosets = True)")
        if wrong_actions[k]:
            raise InfosetMismatchError(
                f"player {p}'s infoset {key!r}: {where(n)} has {list(table.label_lists[labels[n]])} "
                f"but {where(other)} has {list(table.label_lists[labels[other]])}")
        raise ImperfectRecallError(
            f"player {p}'s infoset {key!r}: {where(n)} and {where(other)} follow different "
            f"earlier moves or observations of player {p}, who would have to forget them "
            "(perfect recall is required)")


def _children(first_child: NDArray[np.int64], num_children: NDArray[np.int64],
              nodes: NDArray[np.intp]) -> NDArray[np.int64]:
    """The children of ``nodes``, concatenated in order."""
    counts = num_children[nodes]
    starts = np.repeat(first_child[nodes] - (np.cumsum(counts) - counts), counts)
    return starts + np.arange(counts.sum())
