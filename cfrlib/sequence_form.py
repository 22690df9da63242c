"""Each player's sequences as one contiguous block: the single numbering of every sequence-form pass.

:mod:`cfrlib.tree` numbers the sequences of both players together, ``I * max_actions + a``.
The passes over them (realization plans, counterfactual values, best responses) run faster on
each player's own block: player ``i``'s infosets become rows ``0 .. n_i - 1`` grouped by own
depth (shallowest first), sequence ``(row, a)`` is ``row * width + a`` in a flat array whose
last entry is the empty sequence, and every level of the plan or of the values is then a slice.
:func:`sequence_form` builds this view once per compiled tree (cached, weakly keyed on the
tree); :mod:`cfrlib.evaluation` and the full-width engine (:mod:`cfrlib.solvers.fullwidth`)
both run the two passes below on it:

* :func:`realization_plan`: ``x_i[(I, a)] = x_i[parent(I)] sigma(I, a)``, shallowest level first;
* :func:`counterfactual_values`: from ``q[seq] = sum_{z: seq_i(z) = seq} pi_{-i}(z) u_i(z)``, each
  infoset (deepest first) adds its value ``v_i(I) = sum_a sigma(I, a) q(I, a)`` (or ``max_a q(I, a)``
  for a best response) to its parent sequence, which leaves ``q(I, a)`` the counterfactual value
  of every sequence and ``q[empty]`` the player's value of the game.

Both passes, and the sums over terminals, loop over rows in compiled code (numba): one call
instead of a few numpy calls per level, which was most of the cost on games the size of Leduc. They
do the arithmetic of the numpy code they replace in the same order, so every published number stays
the same, bit for bit: level by level; a level's values added to their parents one at a time in
row order, or summed per parent first and then added (``np.bincount``'s order); and
``sum_a sigma(I, a) q(I, a)`` in the order of ``np.einsum("ij,ij->i")``, which on every x86-64
CPU runs numpy's baseline SIMD loop of two lanes (:func:`_dot`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .jit import compiled
from .tree import Tree

_COMPILED = False


def _compile() -> None:
    """Replace :func:`_plan`, :func:`_best_response_pass`, :func:`_best_response_value`,
    :func:`_segment` and :func:`_nash_conv` by their numba-compiled versions
    (:func:`cfrlib.jit.compiled`), on first use. numba (about 100 MB of memory) is imported only
    then, so that its memory and the peak of compiling a large tree do not add up (Bluff 1x1
    compiled, then 20 CFR+ iterations and an exploitability: peak 289 MB, against 303 MB with numba
    imported first)."""
    global _COMPILED, _plan, _dot, _values_pass, _scatter, _opponent_scatter
    global _best_response_pass, _best_response_value, _segment, _nash_conv
    if _COMPILED:
        return
    _plan = compiled(_plan)
    _dot = compiled(_dot)
    _values_pass = compiled(_values_pass)  # calls _dot, compiled
    _scatter = compiled(_scatter)
    _opponent_scatter = compiled(_opponent_scatter)
    _best_response_pass = compiled(_best_response_pass)
    _best_response_value = compiled(_best_response_value)  # calls the two above, compiled
    _segment = compiled(_segment)
    _nash_conv = compiled(_nash_conv)  # calls _best_response_value and _segment, compiled
    _COMPILED = True


class Level(NamedTuple):
    """One own depth of a player's infosets: block rows ``lo:hi``, the flat index of each row's
    parent sequence, the same relative to ``above_lo``, and the flat range ``above_lo:above_hi``
    of the level above (the empty sequence alone for the first level)."""

    lo: int
    hi: int
    parent: NDArray[np.int64]
    local_parent: NDArray[np.int64]
    above_lo: int
    above_hi: int


class PlayerBlock:
    """Player ``i``'s infosets as contiguous rows grouped by own depth (see the module docstring).

    ``rows[k]`` is the tree's infoset index of row ``k``; ``gather`` the ``(rows, width)`` indices
    of those infosets' actions in a flattened ``num_infosets x max_actions`` array (so
    ``probs.take(gather)`` is ``sigma`` in this block's order); ``legal`` the legal actions and
    ``mask`` the same as floats; ``row_parent`` each row's parent sequence and ``level_bounds``
    where each level's rows start (level ``d`` is rows ``level_bounds[d]:level_bounds[d + 1]``);
    ``tree_sequence[s]`` the tree's number of flat sequence ``s`` (the empty sequence included, last).
    """

    def __init__(self, tree: Tree, player: int) -> None:
        levels = tree.infoset_levels(player)
        self.player = player
        self.rows = np.concatenate(levels, dtype=np.int64) if levels else np.zeros(0, np.int64)
        self.num_rows = len(self.rows)  # a player may have no decision at all
        self.width = int(tree.infoset_num_actions[self.rows].max(initial=1))
        self.size = self.num_rows * self.width  # the empty sequence's index
        self.gather = self.rows[:, None] * tree.max_actions + np.arange(self.width)
        legal = tree.action_mask[self.rows, :self.width]
        self.mask = legal.astype(float)
        self.uniform = tree.uniform()[self.rows, :self.width]
        self.tree_sequence = np.append(self.gather.ravel(), tree.empty_sequence)
        block_of_tree = np.full(tree.num_sequences + 1, -1, dtype=np.int64)  # -1: the other player's
        block_of_tree[self.tree_sequence] = np.arange(self.size + 1)
        self.block_of_tree = block_of_tree
        parent = block_of_tree[tree.infoset_parent_seq[self.rows]]
        bounds = np.cumsum([0] + [len(level) for level in levels])
        self.row_parent = parent  # flat index of each row's parent sequence
        self.level_bounds = bounds.astype(np.int64)  # rows level_bounds[d]:level_bounds[d + 1]
        self.legal = legal
        self.levels: list[Level] = []
        for d, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
            above_lo, above_hi = ((int(bounds[d - 1]) * self.width, int(bounds[d]) * self.width) if d
                                  else (self.size, self.size + 1))
            self.levels.append(Level(int(lo), int(hi), parent[lo:hi], parent[lo:hi] - above_lo,
                                     above_lo, above_hi))

    def rows_of(self, probs: ArrayLike) -> NDArray[np.float64]:
        """``sigma`` (a ``num_infosets x max_actions`` array) at this player's rows: ``(rows, width)``."""
        return np.ascontiguousarray(probs).take(self.gather)

    def to_tree(self, grid: ArrayLike, out: NDArray[np.float64]) -> None:
        """Write this block's ``(rows, width)`` ``grid`` into the tree-ordered array ``out``."""
        out[self.rows, :self.width] = grid


class SequenceForm:
    """Both players' blocks and the terminals in their numbering (build with :func:`sequence_form`).

    ``terminal_seq[i]`` is player ``i``'s last flat sequence before each terminal, ``utility[i]`` is
    ``u_i(z)``, ``terminal_chance`` is ``pi_c(z)`` and ``chance_utility[i]`` is ``pi_c(z) u_i(z)``,
    the terminal weights the opponent's reach multiplies.
    """

    def __init__(self, tree: Tree) -> None:
        self.players = (PlayerBlock(tree, 0), PlayerBlock(tree, 1))
        self.terminal_seq = tuple(block.block_of_tree[tree.terminal_seq[block.player]]
                                  for block in self.players)
        self.terminal_chance = tree.terminal_chance
        self.utility = tuple(terminal_utility(tree, p) for p in (0, 1))
        # read-only as player 0's (the tree's own): one compiled signature of the passes, not two
        self.utility[1].setflags(write=False)
        self.chance_utility = tuple(tree.terminal_chance * u for u in self.utility)
        self.constant_sum = tree.constant_sum
        self._packed: tuple[NDArray[np.int64], NDArray[np.float64]] | None = None

    def nash_conv(self, probs: NDArray[np.float64]) -> float:
        """``sum_i max u_i(., sigma_{-i}) - constant_sum`` of the profile ``probs`` (``num_infosets x
        max_actions``, the tree's order) in one compiled call: the same arithmetic, in the same
        order, as :func:`best_response_value` for player 0 plus the same for player 1 on this
        block's rows of ``probs``."""
        if self._packed is None:
            self._packed = _pack(self)
        _compile()
        # a writable copy (a Strategy's probs are read-only, an array passed in may not be): one
        # compiled signature, not two
        return float(_nash_conv(np.array(probs, dtype=np.float64), *self._packed))


def terminal_utility(tree: Tree, player: int) -> NDArray[np.float64]:
    """``u_i(z)`` for every terminal: player 0's payoff, or ``constant_sum - payoff`` for player 1."""
    return tree.terminal_payoff if player == 0 else tree.constant_sum - tree.terminal_payoff


def sequence_form(tree: Tree) -> SequenceForm:
    """The :class:`SequenceForm` of ``tree``, built on first use and kept on the tree (it goes
    with the tree)."""
    form: SequenceForm | None = tree.__dict__.get("_sequence_form")
    if form is None:
        form = tree.__dict__["_sequence_form"] = SequenceForm(tree)
    return form


def realization_plan(block: PlayerBlock, sigma: ArrayLike,
                     out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """``x_i[(I, a)] = x_i[parent(I)] sigma(I, a)`` over ``block``, shallowest level first.

    ``sigma`` is ``(rows, width)`` in the block's order; returns the flat plan of length
    ``size + 1`` (into ``out`` when given) whose last entry, the empty sequence, is 1.
    """
    x = np.empty(block.size + 1) if out is None else out
    _compile()
    _plan(np.ascontiguousarray(sigma, dtype=np.float64), block.row_parent, x)
    return x


def _plan(sigma: NDArray[np.float64], parent: NDArray[np.int64], x: NDArray[np.float64]) -> None:
    rows, width = sigma.shape
    x[rows * width] = 1.0
    for r in range(rows):  # rows come level by level: a parent's entry is set before its children's
        above = x[parent[r]]
        for a in range(width):
            x[r * width + a] = above * sigma[r, a]


def opponent_values(form: SequenceForm, x_opp: NDArray[np.float64], player: int) -> NDArray[np.float64]:
    """``q[seq] = sum_{z: seq_i(z) = seq} x_{-i}[seq_{-i}(z)] (pi_c(z) u_i(z))``, flat in player ``i``'s
    block, from the opponent's flat plan ``x_opp``: :func:`terminal_values` of the weights
    ``pi_{-i}(z) u_i(z)`` (the engine's order of the two products), in one compiled call."""
    _compile()
    return _opponent_scatter(x_opp, form.terminal_seq[1 - player], form.chance_utility[player],
                             form.terminal_seq[player], form.players[player].size + 1)


def _opponent_scatter(x_opp: NDArray[np.float64], seq_opp: NDArray[np.int64], chance_utility: NDArray[np.float64],
                      seq_own: NDArray[np.int64], size: int) -> NDArray[np.float64]:
    """``_scatter(seq_own, x_opp[seq_opp] * chance_utility, size)`` without the array of weights."""
    sums = np.zeros(size)
    for z in range(len(seq_own)):
        sums[seq_own[z]] += x_opp[seq_opp[z]] * chance_utility[z]
    return sums


def counterfactual_values(block: PlayerBlock, q: NDArray[np.float64], sigma: NDArray[np.float64] | None = None,
                          values: NDArray[np.float64] | None = None,
                          sequential: bool = False) -> NDArray[np.float64]:
    """The backward pass, in place on ``q``: deepest level first, ``v_i(I) = sum_a sigma(I, a) q(I, a)``
    (or ``max_a q(I, a)`` when ``sigma`` is None: a best response) is added to ``q[parent(I)]``.

    ``q`` enters holding ``sum_{z: seq_i(z) = seq} pi_{-i}(z) u_i(z)`` per flat sequence and leaves
    holding ``v_i(sigma_{I->a}, I)``, with ``q[-1]`` the value of the game for player ``i``. Returns ``v_i``
    per row (into ``values`` when given). A level's values reach their parents summed per parent
    first (``np.bincount``, the engine's order) or, with ``sequential=True``, added one at a time
    in row order (``np.add.at``, the evaluation's order); the two round differently in the last
    bit, and each is kept so that the figures published with it reproduce exactly. Best
    responses always go in the evaluation's order, in compiled code.
    """
    v = np.empty(block.num_rows) if values is None else values
    _compile()
    if sigma is None:
        _best_response_pass(q, block.row_parent, block.legal, block.level_bounds, v)
    else:
        _values_pass(q, np.ascontiguousarray(sigma, dtype=np.float64), block.row_parent, block.level_bounds, v,
                     sequential)
    return v


def _dot(sigma: NDArray[np.float64], q: NDArray[np.float64], r: int, width: int) -> float:
    """``sum_a sigma[r, a] q[r * width + a]`` as ``np.einsum("ij,ij->i")`` adds it up: two lanes (even
    and odd ``a``), eight terms at a time taken from the last pair back, then the rest pair by pair,
    then lane 0 plus lane 1 (numpy's baseline loop for two contiguous float64 operands)."""
    base = r * width
    even = odd = 0.0
    a = 0
    while width - a >= 8:
        for k in (6, 4, 2, 0):
            even = sigma[r, a + k] * q[base + a + k] + even
            odd = sigma[r, a + k + 1] * q[base + a + k + 1] + odd
        a += 8
    while a < width:
        even = sigma[r, a] * q[base + a] + even
        if a + 1 < width:
            odd = sigma[r, a + 1] * q[base + a + 1] + odd
        a += 2
    return 0.0 + (even + odd)


def _values_pass(q: NDArray[np.float64], sigma: NDArray[np.float64], parent: NDArray[np.int64],
                 bounds: NDArray[np.int64], v: NDArray[np.float64], sequential: bool) -> None:
    """Deepest level first: ``v(I) = sum_a sigma(I, a) q(I, a)`` (:func:`_dot`), added to ``q[parent(I)]``
    in row order (``sequential``) or summed per parent over the level, then added."""
    width = sigma.shape[1]
    sums = np.zeros(len(q))
    for d in range(len(bounds) - 2, -1, -1):
        for r in range(bounds[d], bounds[d + 1]):
            v[r] = _dot(sigma, q, r, width)
            if sequential:
                q[parent[r]] += v[r]
            else:
                sums[parent[r]] += v[r]
        if not sequential:  # the level above: the empty sequence alone for the first level
            lo, hi = (bounds[d - 1] * width, bounds[d] * width) if d else (len(q) - 1, len(q))
            for s in range(lo, hi):
                q[s] += sums[s]
                sums[s] = 0.0


def terminal_values(form: SequenceForm, player: int, weights: ArrayLike) -> NDArray[np.float64]:
    """``q[seq] = sum_{z: seq_i(z) = seq} weights(z)``, flat in player ``i``'s block, added in terminal
    order (the start of :func:`counterfactual_values`)."""
    _compile()
    return _scatter(form.terminal_seq[player], np.asarray(weights, dtype=np.float64), form.players[player].size + 1)


def _scatter(index: NDArray[np.int64], weights: NDArray[np.float64], size: int) -> NDArray[np.float64]:
    """``np.bincount(index, weights, minlength=size)``: each weight added to its bin in order."""
    sums = np.zeros(size)
    for z in range(len(index)):
        sums[index[z]] += weights[z]
    return sums


def _best_response_pass(q: NDArray[np.float64], parent: NDArray[np.int64], legal: NDArray[np.bool_ | np.int64],
                        bounds: NDArray[np.int64], v: NDArray[np.float64]) -> None:
    """Deepest level first, rows in order: ``v(I) = max_{a legal} q(I, a)``, added to ``q[parent(I)]``."""
    width = legal.shape[1]
    for d in range(len(bounds) - 2, -1, -1):
        for r in range(bounds[d], bounds[d + 1]):
            best = -np.inf
            for a in range(width):
                if legal[r, a]:
                    value = q[r * width + a] + 0.0  # -0.0 becomes 0.0, as in the numpy code it replaces
                    if value > best:
                        best = value
            v[r] = best
            q[parent[r]] += best


def _best_response_value(sigma_opp: NDArray[np.float64], opp_parent: NDArray[np.int64],
                         seq_opp: NDArray[np.int64], chance: NDArray[np.float64], utility: NDArray[np.float64],
                         seq_own: NDArray[np.int64], own_parent: NDArray[np.int64], legal: NDArray[np.bool_ | np.int64],
                         bounds: NDArray[np.int64], x: NDArray[np.float64], q: NDArray[np.float64],
                         v: NDArray[np.float64]) -> float:
    """Both passes and the terminals between them in one call, the opponent's plan into ``x``, the
    values into ``q`` and ``v``; returns ``q[empty]``."""
    _plan(sigma_opp, opp_parent, x)
    q[:] = 0.0
    for z in range(len(seq_own)):
        q[seq_own[z]] += x[seq_opp[z]] * chance[z] * utility[z]
    _best_response_pass(q, own_parent, legal, bounds, v)
    return q[len(q) - 1]


def _pack(form: SequenceForm) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """What :func:`_nash_conv` reads, in two flat arrays: passing an array to a compiled function
    costs about 0.1 us, and on a small game one call with 3 arguments instead of two calls of
    :func:`_best_response_value` with 12 each is most of the saving (Kuhn: 5.1 to 1.7 us).
    ``ints`` starts with the offsets of its 10 segments (11 numbers) and the two blocks' widths,
    then holds per player, as segments ``5 i`` to ``5 i + 4``: ``rows``, ``row_parent``,
    ``level_bounds``, ``legal`` (0 or 1, flat) and ``terminal_seq``. ``floats`` holds
    ``pi_c(z)``, ``u_0(z)``, ``u_1(z)`` and the constant sum."""
    segments = [np.asarray(array, dtype=np.int64).ravel()
                for block, seq in zip(form.players, form.terminal_seq)
                for array in (block.rows, block.row_parent, block.level_bounds, block.legal, seq)]
    start = len(segments) + 1 + 2
    offsets = start + np.cumsum([0] + [len(segment) for segment in segments])
    widths = [block.width for block in form.players]
    ints = np.concatenate([offsets, widths, *segments]).astype(np.int64)
    floats = np.concatenate([form.terminal_chance, *form.utility, [form.constant_sum]])
    return ints, floats


def _segment(ints: NDArray[np.int64], k: int) -> NDArray[np.int64]:
    """Segment ``k`` of the packed ``ints`` of :func:`_pack`."""
    return ints[ints[k]:ints[k + 1]]


def _nash_conv(probs: NDArray[np.float64], ints: NDArray[np.int64], floats: NDArray[np.float64]) -> float:
    """:func:`_best_response_value` for player 0, then for player 1, each against the other's rows
    of ``probs``; returns their sum minus the constant sum (tables packed by :func:`_pack`)."""
    terminals = (len(floats) - 1) // 3
    gains = 0.0
    for i in range(2):
        own, opp = 5 * i, 5 * (1 - i)
        rows = _segment(ints, opp)
        own_rows, own_width, opp_width = ints[own + 1] - ints[own], ints[11 + i], ints[12 - i]
        sigma_opp = np.empty((len(rows), opp_width))
        for r in range(len(rows)):  # the opponent's rows of probs, in its block's order: rows_of
            for a in range(opp_width):
                sigma_opp[r, a] = probs[rows[r], a]
        value = _best_response_value(
            sigma_opp, _segment(ints, opp + 1), _segment(ints, opp + 4), floats[:terminals],
            floats[(1 + i) * terminals:(2 + i) * terminals], _segment(ints, own + 4), _segment(ints, own + 1),
            _segment(ints, own + 3).reshape(own_rows, own_width), _segment(ints, own + 2),
            np.empty(sigma_opp.size + 1), np.empty(own_rows * own_width + 1), np.empty(own_rows))
        gains = value if i == 0 else gains + value
    return gains - floats[3 * terminals]


def best_response_value(form: SequenceForm, sigma_opp: ArrayLike, player: int) -> float:
    """``max_{sigma'_i} u_i(sigma'_i, sigma_{-i})`` from the opponent's ``(rows, width)`` strategy,
    in the evaluation's order: ``pi_{-i}(z) = pi_c(z) x_{-i}[seq_{-i}(z)]``, then times ``u_i(z)``,
    added up per sequence in terminal order, then :func:`counterfactual_values` without ``sigma``."""
    own, other = form.players[player], form.players[1 - player]
    x, q, v = np.empty(other.size + 1), np.empty(own.size + 1), np.empty(own.num_rows)
    _compile()
    return float(_best_response_value(np.ascontiguousarray(sigma_opp, dtype=np.float64), other.row_parent,
                                      form.terminal_seq[1 - player], form.terminal_chance, form.utility[player],
                                      form.terminal_seq[player], own.row_parent, own.legal, own.level_bounds,
                                      x, q, v))
