"""The full-width CFR family as one engine on the compiled tree: CFR, CFR+, Linear CFR, DCFR, PCFR+.

Every variant runs the same iteration. For the updating player ``i`` and the current strategy
``sigma^t``, in the sequence form of :mod:`cfrlib.tree`:

1. the opponent's realization plan gives ``pi_{-i}(z) = pi_c(z) x_{-i}[seq_{-i}(z)]`` at every
   terminal (chance included);
2. counterfactual action values ``q(I, a)`` and infoset values ``v(I) = sum_a sigma^t(I, a) q(I, a)``
   come from one scatter-add over terminals and one step per level of ``i``'s own decisions,
   deepest first (see :func:`cfrlib.evaluation.counterfactual_values`);
3. the average strategy grows by ``w_t x_i[(I, a)] = w_t x_i[parent(I)] sigma^t(I, a)``,
   player ``i``'s own reach of the sequence;
4. the instantaneous regret ``r^t(I, a) = q(I, a) - v(I)`` is added to the cumulative regret,
   ``R^t = R^{t-1} + r^t``, which is then discounted: multiplied by ``t^alpha / (t^alpha + 1)``
   where it is ``>= 0`` and by ``t^beta / (t^beta + 1)`` where it is negative;
5. regret matching gives ``sigma^{t+1}(I, a) = [R^t(I, a)]^+ / sum_b [R^t(I, b)]^+`` (uniform when no
   regret is positive), or with ``predictive=True`` the same applied to ``R^t + r^t``, the last
   instantaneous regret serving as the prediction of the next one.

The variants differ only in ``alpha``, ``beta`` (the regret update), ``gamma`` (the averaging
weight ``w_t = t^gamma``), ``predictive`` and ``alternating``:

=================================  =====  =====  ========  ==========
preset                             alpha  beta   gamma     predictive
=================================  =====  =====  ========  ==========
CFR (Zinkevich et al. 2007)        inf    inf    0         no
CFR+ (Tammelin 2014)               inf    -inf   1 (or 2)  no
Linear CFR (Brown, Sandholm 2019)  1      1      1         no
DCFR (Brown, Sandholm 2019)        1.5    0      2         no
PCFR+ (Farina et al. 2021)         inf    -inf   2 (or 1)  yes
=================================  =====  =====  ========  ==========

Conventions (those of OpenSpiel 2.0.2, whose published numbers the tests reproduce):

* ``t`` counts iterations from 1; one iteration with alternating updates updates player 0 and
  then player 1, and player 1's pass already sees player 0's new strategy; with simultaneous
  updates both players' values are computed from ``sigma^t`` and both update afterwards.
* The average strategy is updated with ``sigma^t`` before the regrets of the same iteration.
* Regrets are discounted (or clipped, for RM+) after adding ``r^t`` and before computing
  ``sigma^{t+1}``; the sign test is ``R >= 0``.
* ``alpha = inf`` means "never discount positive regrets", ``beta = inf`` "never discount
  negative regrets" and ``beta = -inf`` "reset negative regrets to 0" (RM+). For finite ``alpha``
  the factor at ``t = 1`` is ``1 / 2`` whatever ``alpha`` is, so CFR is only the limit of finite
  settings; the infinite values are defined to hold at every ``t``, which makes CFR and CFR+
  exact members of the family. Linear CFR as a member is ``R^T = (sum_t t r^t) / (T + 1)``:
  the same strategies as weighting ``r^t`` by ``t``, up to rounding, since regret matching
  ignores a common positive factor.
* The average weight ``t^gamma`` is Brown and Sandholm's discount ``(t / (t + 1))^gamma`` of the
  accumulated average, undone: both give the same normalised average; ``t^gamma`` is exact for
  ``gamma`` in 0, 1, 2 (uniform, linear, quadratic).
* Reproducibility: on Leduc, CFR and CFR+ after 100 iterations equal OpenSpiel's to 1e-11.
  DCFR and Linear CFR after 100, and CFR+ after 1000, differ in the third or fourth digit from
  OpenSpiel and from :class:`cfrlib.textbook.cfr.TextbookCFR`, and so does this engine from
  itself when the regrets after iteration 1 are perturbed by one part in 1e14: regret matching
  jumps where every regret of an infoset is near 0, so these figures are only defined up to that
  rounding spread (see ``tests/test_fullwidth.py``).
* ``nodes_touched`` counts the nodes a recursive traversal touches: ``2 |H|`` an iteration with
  alternating updates (one walk per player), ``|H|`` with simultaneous updates (one walk that
  updates both). With ``pruning=True`` it counts the walk with the two-phase cut of Lanctot's
  thesis: a node of the updating player ``i`` where ``pi_{-i}(h) = 0`` (chance included) and
  ``pi_i(h) = 0`` is touched but its subtree is not; with simultaneous updates, any decision
  node where ``pi_0(h) = pi_1(h) = 0``. Cutting changes no number (everything below such a node
  is weighted by zero); the engine itself computes the same arrays either way, because on the
  compiled tree skipping the zero entries costs more than it saves
  (``benchmarks/bench_fullwidth.py`` measures it).
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ..errors import SolverError
from ..evaluation import terminal_utility
from ..strategy import Strategy
from .base import Solver, register

_LAYOUTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class _PlayerLayout:
    """One player's infosets as contiguous rows, grouped by own depth (shallowest first).

    Sequence ``(row, a)`` is ``row * width + a`` in a flat array whose last entry is the empty
    sequence, so each level of the realization plan or of the counterfactual values is a slice.
    """

    def __init__(self, tree, player):
        levels = tree.infoset_levels(player)
        self.rows = np.concatenate(levels, dtype=np.int64) if levels else np.zeros(0, np.int64)
        self.num_rows = len(self.rows)  # a player may have no decision at all
        self.width = int(tree.infoset_num_actions[self.rows].max(initial=1))
        self.size = self.num_rows * self.width  # the empty sequence's index
        self.mask_float = tree.action_mask[self.rows, :self.width].astype(float)
        self.num_actions = tree.infoset_num_actions[self.rows].astype(float)
        self.uniform = self.mask_float / self.num_actions[:, None]
        self.flat_of_tree_seq = self.flat_sequences(tree)
        parent = self.flat_of_tree_seq[tree.infoset_parent_seq[self.rows]]
        bounds = np.cumsum([0] + [len(level) for level in levels])
        # (lo, hi, parent flat index of each row, first and last flat index of the level above)
        self.levels = []
        for d, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
            above = (bounds[d - 1] * self.width, bounds[d] * self.width) if d else (self.size, self.size + 1)
            self.levels.append((int(lo), int(hi), parent[lo:hi], parent[lo:hi] - above[0], above))

    def flat_sequences(self, tree):
        """Map the tree's sequence numbers (``I * max_actions + a``, empty last) to this layout's
        (``-1`` for sequences of the other player)."""
        out = np.full(tree.num_sequences + 1, -1, dtype=np.int64)
        rows = np.arange(self.num_rows)
        for a in range(self.width):
            out[self.rows * tree.max_actions + a] = rows * self.width + a
        out[tree.empty_sequence] = self.size
        return out


class _Layout:
    """Per-tree index arrays shared by every full-width solver of a game (built once, cached)."""

    def __init__(self, tree):
        self.players = [_PlayerLayout(tree, p) for p in (0, 1)]
        self.terminal_seq = [self.players[p].flat_of_tree_seq[tree.terminal_seq[p]] for p in (0, 1)]
        # pi_c(z) u_i(z): the terminal weights that the opponent's reach multiplies.
        self.chance_utility = [tree.terminal_chance * terminal_utility(tree, p) for p in (0, 1)]
        self._cuts = {}  # no reference to the tree: it is this cache's weak key

    def cuts(self, tree, updating):
        """Index arrays for counting the two-phase cut (built on first use).

        ``updating`` is 0 or 1 (alternating) or ``None`` (simultaneous). Returns
        ``(nodes, seq0, seq1, chance, below)``: the decision nodes where a cut is tested, each
        player's last flat sequence before them, ``pi_c`` there, and how many nodes have that node
        as their deepest tested strict ancestor (the nodes the cut removes from the count).
        """
        if updating not in self._cuts:
            player = tree.player.astype(np.int64)
            tested = player == updating if updating is not None else player >= 0
            last_seq = self._node_sequences(tree)
            owner = np.full(tree.num_nodes, -1, dtype=np.int64)  # deepest tested strict ancestor
            offsets = tree.level_offsets
            for d in range(1, len(offsets) - 1):
                nodes = np.arange(offsets[d], offsets[d + 1])
                par = tree.parent[nodes]
                owner[nodes] = np.where(tested[par], par, owner[par])
            below = np.bincount(owner[owner >= 0], minlength=tree.num_nodes)
            nodes = np.flatnonzero(tested)
            self._cuts[updating] = (nodes, last_seq[0][nodes], last_seq[1][nodes],
                                    tree.chance_reach[nodes], below[nodes])
        return self._cuts[updating]

    def _node_sequences(self, tree):
        """Each player's last flat sequence before every node (empty sequence if none)."""
        out = []
        for p, layout in enumerate(self.players):
            seq = np.full(tree.num_nodes, layout.size, dtype=np.int64)
            offsets = tree.level_offsets
            for d in range(1, len(offsets) - 1):
                nodes = np.arange(offsets[d], offsets[d + 1])
                par = tree.parent[nodes]
                mine = tree.player[par] == p
                tree_seq = tree.infoset[par] * tree.max_actions + tree.action[nodes]
                own = layout.flat_of_tree_seq[np.where(mine, tree_seq, tree.empty_sequence)]
                seq[nodes] = np.where(mine, own, seq[par])
            out.append(seq)
        return out


def _layout(tree) -> _Layout:
    layout = _LAYOUTS.get(tree)
    if layout is None:
        layout = _LAYOUTS[tree] = _Layout(tree)
    return layout


def _check_exponent(name, value, low, high, allow_inf):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise SolverError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or not low <= value <= high or (math.isinf(value) and value not in allow_inf):
        allowed = f"[{low}, {high}]".replace("inf", "infinity")
        raise SolverError(f"{name} must be in {allowed}, got {value!r}")
    return value


def _discount(t, exponent):
    """``t^e / (t^e + 1)``, with ``e = inf`` meaning 1 and ``e = -inf`` meaning 0 at every ``t``."""
    if math.isinf(exponent):
        return 1.0 if exponent > 0 else 0.0
    try:
        power = float(t) ** exponent
    except OverflowError:  # t^e beyond the largest float: the factor rounds to 1
        return 1.0
    return power / (power + 1.0)


class FullWidthCFR(Solver):
    """The full-width engine: ``FullWidthCFR(game, alpha, beta, gamma, predictive, alternating, pruning)``.

    ``alpha`` in ``[0, inf]`` and ``beta`` in ``[-inf, inf]`` discount the positive and negative
    cumulative regrets by ``t^alpha / (t^alpha + 1)`` and ``t^beta / (t^beta + 1)`` after each
    iteration; ``gamma`` in ``[0, inf)`` weights iteration ``t``'s contribution to the average
    strategy by ``t^gamma``; ``predictive`` plays regret matching on ``R^t + r^t``. The defaults are
    vanilla CFR. See the module docstring for the conventions and the presets.
    """

    name = "CFR engine"
    _param_names = ("alpha", "beta", "gamma", "predictive", "alternating", "pruning")

    def __init__(self, game, alpha=math.inf, beta=math.inf, gamma=0.0, *, predictive=False,
                 alternating=True, pruning=False):
        super().__init__(game)
        self.alpha = _check_exponent("alpha", alpha, 0.0, math.inf, (math.inf,))
        self.beta = _check_exponent("beta", beta, -math.inf, math.inf, (math.inf, -math.inf))
        self.gamma = _check_exponent("gamma", gamma, 0.0, math.inf, ())
        for flag, value in (("predictive", predictive), ("alternating", alternating), ("pruning", pruning)):
            if not isinstance(value, (bool, np.bool_)):
                raise SolverError(f"{flag} must be True or False, got {value!r}")
        self.predictive, self.alternating, self.pruning = bool(predictive), bool(alternating), bool(pruning)
        self.tree = game.tree()
        self._layout = _layout(self.tree)
        players = self._layout.players
        self._regret = [np.zeros((pl.num_rows, pl.width)) for pl in players]
        self._strategy_sum = [np.zeros((pl.num_rows, pl.width)) for pl in players]
        self._sigma = [pl.uniform.copy() for pl in players]
        self._reach = [np.ones(pl.size + 1) for pl in players]  # x_p, flat, empty sequence last
        self._reach_is_current = [False, False]

    # ------------------------------------------------------------------- one iteration
    def _iteration(self):
        t = self.iterations + 1
        weight = self._average_weight(t)
        if self.alternating:
            for i in (0, 1):
                self.nodes_touched += self._touched(i) if self.pruning else self.tree.num_nodes
                self._update(i, self._accumulate(i, weight), t)
        else:
            self.nodes_touched += self._touched(None) if self.pruning else self.tree.num_nodes
            regrets = [self._accumulate(i, weight) for i in (0, 1)]
            for i in (0, 1):
                self._update(i, regrets[i], t)

    def _average_weight(self, t):
        """``w_t = t^gamma``, or a clear error once the average's running sum, which grows like
        ``t^(gamma + 1)``, would overflow."""
        try:
            weight = float(t) ** self.gamma
        except OverflowError:
            weight = math.inf
        if not math.isfinite(weight * t):
            raise SolverError(f"gamma={self.gamma:g} overflows the average-strategy weights at "
                              f"iteration {t}; use a smaller gamma")
        return weight

    def _realization_plan(self, p):
        """``x_p[(I, a)] = x_p[parent(I)] sigma^t(I, a)``, one slice per own depth (cached)."""
        x = self._reach[p]
        if not self._reach_is_current[p]:
            layout = self._layout.players[p]
            grid = x[:-1].reshape(layout.num_rows, layout.width)
            sigma = self._sigma[p]
            for lo, hi, parent, _, _ in layout.levels:
                np.multiply(x[parent][:, None], sigma[lo:hi], out=grid[lo:hi])
            self._reach_is_current[p] = True
        return x

    def _accumulate(self, i, weight):
        """Add ``w_t x_i`` to player ``i``'s average and return the instantaneous regret ``r^t``."""
        layout = self._layout.players[i]
        x_own = self._realization_plan(i)[:-1].reshape(layout.num_rows, layout.width)
        if weight == 1.0:
            self._strategy_sum[i] += x_own
        else:
            self._strategy_sum[i] += weight * x_own
        x_opp = self._realization_plan(1 - i)
        reach = x_opp[self._layout.terminal_seq[1 - i]]
        reach *= self._layout.chance_utility[i]
        q = np.bincount(self._layout.terminal_seq[i], weights=reach, minlength=layout.size + 1)
        grid = q[:-1].reshape(layout.num_rows, layout.width)
        sigma = self._sigma[i]
        value = np.empty(layout.num_rows)
        for lo, hi, _, local_parent, (above_lo, above_hi) in reversed(layout.levels):
            value[lo:hi] = np.einsum("ij,ij->i", sigma[lo:hi], grid[lo:hi])
            q[above_lo:above_hi] += np.bincount(local_parent, weights=value[lo:hi],
                                                minlength=above_hi - above_lo)
        regret = grid - value[:, None]
        regret *= layout.mask_float
        return regret

    def _update(self, i, regret, t):
        """``R^t = discount(R^{t-1} + r^t)`` and ``sigma^{t+1}`` by regret matching."""
        R = self._regret[i]
        R += regret
        positive, negative = _discount(t, self.alpha), _discount(t, self.beta)
        if positive == 1.0 and negative == 0.0:
            np.maximum(R, 0.0, out=R)
        elif positive == negative:
            if positive != 1.0:
                R *= positive
        else:
            R *= np.where(R >= 0.0, positive, negative)
        self._sigma[i] = self._regret_matching(i, R + regret if self.predictive else R)
        self._reach_is_current[i] = False

    def _regret_matching(self, i, R):
        """``sigma(I, a) = [R(I, a)]^+ / sum_b [R(I, b)]^+``, uniform where no regret is positive."""
        layout = self._layout.players[i]
        positive = np.maximum(R, 0.0)
        total = positive.sum(axis=1)
        none = total <= 0.0
        if none.any():
            positive[none] = layout.mask_float[none]
            total[none] = layout.num_actions[none]
        positive /= total[:, None]
        return positive

    def _touched(self, updating):
        """Nodes a recursive walk with the two-phase cut touches this pass (see the module docstring)."""
        nodes, seq0, seq1, chance, below = self._layout.cuts(self.tree, updating)
        x0, x1 = self._realization_plan(0), self._realization_plan(1)
        if updating is None:
            cut = (x0[seq0] == 0.0) & (x1[seq1] == 0.0)
        else:
            own, opp = (x0[seq0], x1[seq1]) if updating == 0 else (x1[seq1], x0[seq0])
            cut = (own == 0.0) & (chance * opp == 0.0)
        return self.tree.num_nodes - int(below[cut].sum())

    # ---------------------------------------------------------------------- strategies
    def current_strategy(self) -> Strategy:
        """``sigma^{T+1}``, the strategy the next iteration plays."""
        return Strategy(self.game, self._to_tree(self._sigma))

    def average_strategy(self) -> Strategy:
        """``sigma-bar^T(I, a) = sum_t w_t x_i^t[(I, a)] / sum_t w_t x_i^t[parent(I)]``, uniform where
        ``I`` was never reached."""
        probs = []
        for layout, total in zip(self._layout.players, self._strategy_sum):
            norm = total.sum(axis=1, keepdims=True)
            probs.append(np.where(norm > 0.0, total / np.where(norm > 0.0, norm, 1.0), layout.uniform))
        return Strategy(self.game, self._to_tree(probs))

    def cumulative_regret(self) -> np.ndarray:
        """``R^T(I, a)`` as a ``num_infosets x max_actions`` array in the tree's infoset order."""
        return self._to_tree(self._regret)

    def _to_tree(self, grids):
        out = np.zeros(self.tree.action_mask.shape)
        for layout, grid in zip(self._layout.players, grids):
            out[layout.rows, :layout.width] = grid
        return out

    # ---------------------------------------------------------------------- save / load
    def _params(self):
        return {name: getattr(self, name) for name in self._param_names}

    def _arrays(self):
        return {"regret": self._to_tree(self._regret), "strategy_sum": self._to_tree(self._strategy_sum),
                "current": self._to_tree(self._sigma)}

    def _restore(self, arrays):
        shape = self.tree.action_mask.shape
        for name in ("regret", "strategy_sum", "current"):
            if name not in arrays or arrays[name].shape != shape:
                raise SolverError(f"saved state {name!r} is missing or does not have shape {shape}")
        for p, layout in enumerate(self._layout.players):
            pick = np.ix_(layout.rows, np.arange(layout.width))
            self._regret[p] = arrays["regret"][pick].astype(float)
            self._strategy_sum[p] = arrays["strategy_sum"][pick].astype(float)
            self._sigma[p] = arrays["current"][pick].astype(float)
        self._reach_is_current = [False, False]

    def __repr__(self):
        return (f"<{type(self).__name__}(alpha={self.alpha:g}, beta={self.beta:g}, gamma={self.gamma:g}"
                f"{', predictive' if self.predictive else ''}, "
                f"{'alternating' if self.alternating else 'simultaneous'}"
                f"{', pruning' if self.pruning else ''}) on {self.game.name}: {self.iterations} iterations>")


_AVERAGING = {"uniform": 0.0, "linear": 1.0, "quadratic": 2.0}


def _averaging_power(averaging):
    if averaging not in _AVERAGING:
        raise SolverError(f"averaging must be one of {list(_AVERAGING)}, got {averaging!r}")
    return _AVERAGING[averaging]


@register("cfr")
class CFR(FullWidthCFR):
    """Vanilla CFR (Zinkevich et al. 2007): regret matching, uniform average (``alpha = beta = inf``,
    ``gamma = 0``)."""

    name = "CFR"
    _param_names = ("alternating", "pruning")

    def __init__(self, game, alternating=True, *, pruning=False):
        super().__init__(game, math.inf, math.inf, 0.0, alternating=alternating, pruning=pruning)


@register("cfr+")
class CFRPlus(FullWidthCFR):
    """CFR+ (Tammelin 2014): regret matching+ ``R^t = max(R^{t-1} + r^t, 0)``, alternating updates,
    average weighted by ``t`` (``"linear"``) or ``t^2`` (``"quadratic"``)."""

    name = "CFR+"
    _param_names = ("averaging", "alternating", "pruning")

    def __init__(self, game, averaging="linear", *, alternating=True, pruning=False):
        super().__init__(game, math.inf, -math.inf, _averaging_power(averaging),
                         alternating=alternating, pruning=pruning)
        self.averaging = averaging


@register("lcfr")
class LinearCFR(FullWidthCFR):
    """Linear CFR (Brown and Sandholm 2019): iteration ``t``'s regrets and average weighted by ``t``,
    as DCFR(1, 1, 1): ``R^T = sum_t t r^t / (T + 1)``."""

    name = "Linear CFR"
    _param_names = ("alternating", "pruning")

    def __init__(self, game, alternating=True, *, pruning=False):
        super().__init__(game, 1.0, 1.0, 1.0, alternating=alternating, pruning=pruning)


@register("dcfr")
class DCFR(FullWidthCFR):
    """Discounted CFR (Brown and Sandholm 2019), by default with their recommended (1.5, 0, 2)."""

    name = "DCFR"
    _param_names = ("alpha", "beta", "gamma", "alternating", "pruning")

    def __init__(self, game, alpha=1.5, beta=0.0, gamma=2.0, alternating=True, *, pruning=False):
        super().__init__(game, alpha, beta, gamma, alternating=alternating, pruning=pruning)


@register("pcfr+")
class PredictiveCFRPlus(FullWidthCFR):
    """Predictive CFR+ (Farina, Kroer and Sandholm 2021): RM+ regrets, next strategy by regret
    matching on ``R^t + r^t`` (the last instantaneous regret predicts the next), quadratic average
    by default."""

    name = "PCFR+"
    _param_names = ("averaging", "alternating", "pruning")

    def __init__(self, game, averaging="quadratic", *, alternating=True, pruning=False):
        super().__init__(game, math.inf, -math.inf, _averaging_power(averaging), predictive=True,
                         alternating=alternating, pruning=pruning)
        self.averaging = averaging
