"""The full-width CFR family as one engine on the compiled tree: CFR, CFR+, Linear CFR, DCFR, PCFR+, Hedge-CFR
and the frontier (DCFR+, PDCFR+, SAPCFR+, APCFR+, RTCFR+).

Every variant runs the same iteration. For the updating player ``i`` and the current strategy
``sigma^t``, on each player's block of sequences (:mod:`cfrlib.sequence_form`, the numbering and
passes that :mod:`cfrlib.evaluation` uses too):

1. the opponent's realization plan gives ``pi_{-i}(z) = pi_c(z) x_{-i}[seq_{-i}(z)]`` at every
   terminal (chance included);
2. counterfactual action values ``q(I, a)`` and infoset values ``v(I) = sum_a sigma^t(I, a) q(I, a)``
   come from one scatter-add over terminals and one step per level of ``i``'s own decisions,
   deepest first (:func:`cfrlib.sequence_form.counterfactual_values`);
3. the average strategy grows by ``w_t x_i[(I, a)] = w_t x_i[parent(I)] sigma^t(I, a)``,
   player ``i``'s own reach of the sequence;
4. the instantaneous regret ``r^t(I, a) = q(I, a) - v(I)`` goes to the local regret minimizer
   of :mod:`cfrlib.solvers.regret_minimizers`, the same at every infoset and vectorized over
   them, which folds it into its state (``update``) and gives ``sigma^{t+1}`` (``strategy``). By
   default that is regret matching on discounted regrets: ``R^t = R^{t-1} + r^t`` multiplied by
   ``t^alpha / (t^alpha + 1)`` where it is ``>= 0`` and by ``t^beta / (t^beta + 1)`` where it is
   negative, then ``sigma^{t+1}(I, a) = [R^t(I, a)]^+ / sum_b [R^t(I, b)]^+`` (uniform when no
   regret is positive), or with ``predictive=True`` the same applied to ``R^t + r^t``, the last
   instantaneous regret serving as the prediction of the next one. ``regret_minimizer=`` puts
   any other minimizer there (Hedge gives :class:`~cfrlib.solvers.fullwidth.HedgeCFR`): CFR's
   regret decomposition bounds the overall regret by the sum of the local ones, whichever
   minimizer keeps them small.

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
DCFR+ (Xu et al. 2024), paper's    1.5    -inf   4         no
PDCFR+ (Xu et al. 2024)            2.3    -inf   5         yes
=================================  =====  =====  ========  ==========

The frontier adds rules the table cannot hold: DCFR+ as its authors' code runs it (the
discount's ``+ 1`` becomes ``+ 1.5``), SAPCFR+ (a shorter step ``eta`` for the prediction),
APCFR+ (that step learned per infoset) and RTCFR+ (a regularized game:
``_sequence_values``), each a few lines at the end of this module.

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
  updates both). With ``count_pruned=True`` it counts the walk with the two-phase cut of
  Lanctot's thesis: a node of the updating player ``i`` where ``pi_{-i}(h) = 0`` (chance
  included) and ``pi_i(h) = 0`` is touched but its subtree is not; with simultaneous updates,
  any decision node where ``pi_0(h) = pi_1(h) = 0``. Cutting
  changes no number (everything below such a node is weighted by zero). The engine computes the
  full arrays either way, because on the compiled tree skipping the zero entries costs more
  than it saves: on Bluff 1x1 after 20 CFR+ iterations, 85% of the terminals have zero opponent
  reach, yet the scatter-add over the live ones (found, gathered, added) takes twice as long as
  over all of them (``benchmarks/bench_fullwidth.py`` measures it); hence the name.
* ``regret_pruning=True`` (CFR and CFR+, alternating) is regret-based pruning (Brown and Sandholm,
  NeurIPS 2015), with the same split: the engine computes the arrays in full but follows the
  algorithm's arithmetic exactly, and ``nodes_touched`` counts the walk that skips. At the end of
  player ``i``'s pass, every action with ``sigma^{t+1}(I, a) = 0`` outside a pruned subtree is
  pruned, with the bound ``B(I, a) = R^t(I, a)``. While pruned, ``a`` is not played and its
  subtree is not walked for ``i``: the regrets of ``(I, a)`` and of ``i``'s infosets below it wait
  (their strategies stay fixed) and ``B`` grows by the largest regret ``a`` could have gained,
  ``pi_{-i}(I) U(I, a) - v_i(I)`` with ``U(I, a)`` the best ``u_i(z)`` below ``(I, a)``, by the
  regret update's own rule (CFR: added; CFR+: added, then clipped at 0, so CFR+ prunes only
  while ``a`` could not have gained at all). Since ``R(I, a) <= B(I, a)`` the pruning is safe
  while ``B <= 0``: it ends, at the first iteration where the regret could have become positive
  (or where regret matching would play ``a``, all other regrets at ``I`` being ``<= 0``), with a
  catch-up walk of the subtree that adds the waiting regrets, ``sum_t r^t`` over the pruned
  iterations (one walk against the sum of the opponent's plans, which the engine has added up
  iteration by iteration). Pruned subtrees inside are checked when that walk reaches them.
  Counted: the two-phase walk, less the subtrees below pruned actions in ``i``'s own pass
  (``nodes_skipped``), plus the catch-up walks, each its subtree down to the sequences still
  pruned (``nodes_caught_up``). It computes other numbers than CFR (it is another algorithm,
  with the same convergence guarantee); ``tests/test_regret_pruning.py`` checks the bound, the
  catch-up against regrets summed without the engine, and the savings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from .. import sequence_form as sf
from ..checks import check_exponent, check_flag
from ..errors import SolverError
from ..evaluation import profile_nash_conv
from ..game import Game
from ..sequence_form import PlayerBlock, SequenceForm
from ..strategy import Strategy
from ..tree import Tree
from .base import Solver, register
from .regret_minimizers import (AsymmetricPredictiveRegretMatchingPlus, Hedge, OffsetDiscountedRegretMatchingPlus,
                                RegretMatching, RegretMinimizer, chopped_projection, minimizer_from)


class Cuts(NamedTuple):
    """Where a recursive walk with the two-phase cut would stop, for one pass: the decision nodes
    where the cut is tested, each player's last flat sequence before them, ``pi_c`` there, and how
    many nodes have that node as their deepest tested strict ancestor (what a cut there saves)."""

    nodes: NDArray[np.intp]
    seq0: NDArray[np.int64]
    seq1: NDArray[np.int64]
    chance: NDArray[np.float64]
    below: NDArray[np.intp]
    below_action: NDArray[np.intp]
    """``below`` split by the action taken at the tested node (``(len(nodes), max_actions)``):
    what regret-based pruning of that action saves there."""


def _cuts(tree: Tree, form: SequenceForm, updating: int | None) -> Cuts:
    """The :class:`Cuts` of a pass updating player 0 or 1 (alternating) or both (``None``)."""
    player = tree.player.astype(np.int64)
    tested = player == updating if updating is not None else player >= 0
    offsets = tree.level_offsets
    owner = np.full(tree.num_nodes, -1, dtype=np.int64)  # deepest tested strict ancestor
    owner_action = np.zeros(tree.num_nodes, dtype=np.int64)  # the action taken there
    last_seq = [np.full(tree.num_nodes, block.size, dtype=np.int64) for block in form.players]
    for d in range(1, len(offsets) - 1):
        nodes = np.arange(offsets[d], offsets[d + 1])
        par = tree.parent[nodes]
        owner[nodes] = np.where(tested[par], par, owner[par])
        owner_action[nodes] = np.where(tested[par], tree.action[nodes], owner_action[par])
        tree_seq = tree.infoset[par] * tree.max_actions + tree.action[nodes]
        for p, block in enumerate(form.players):
            mine = tree.player[par] == p
            own = block.block_of_tree[np.where(mine, tree_seq, tree.empty_sequence)]
            last_seq[p][nodes] = np.where(mine, own, last_seq[p][par])
    below = np.bincount(owner[owner >= 0], minlength=tree.num_nodes)
    has = owner >= 0
    below_action = np.bincount(owner[has] * tree.max_actions + owner_action[has],
                               minlength=tree.num_nodes * tree.max_actions).reshape(tree.num_nodes, -1)
    nodes = np.flatnonzero(tested)
    return Cuts(nodes, last_seq[0][nodes], last_seq[1][nodes], tree.chance_reach[nodes], below[nodes],
                below_action[nodes])


def _closure(block: PlayerBlock, start: NDArray[np.bool_],
             stop: NDArray[np.bool_] | None = None) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Flags passed down player ``i``'s sequences, shallowest level first: a row is marked when its
    parent sequence is, a sequence ``(I, a)`` when ``start[I, a]`` or its row is, unless
    ``stop[I, a]``. Returns the rows' and the sequences' flags (``start`` = the pruned sequences:
    the rows below one, whose regrets wait, and the sequences a walk does not enter)."""
    flat = np.zeros(block.size + 1, dtype=bool)
    rows = np.zeros(block.num_rows, dtype=bool)
    grid = flat[:-1].reshape(block.num_rows, block.width)
    for level in block.levels:
        lo, hi = level.lo, level.hi
        rows[lo:hi] = flat[level.parent]
        grid[lo:hi] = start[lo:hi] | rows[lo:hi, None]
        if stop is not None:
            grid[lo:hi] &= ~stop[lo:hi]
    return rows, grid.copy()


_PRUNING_ARRAYS = ("pruned", "bound", "pending")


class _Pruning:
    """Regret-based pruning's state for player ``i``: the pruned sequences, the bound ``B(I, a)``
    on their regret, the regret ``r^t`` held back where updates wait, ``U(I, a) = max u_i(z)`` over
    the terminals below ``(I, a)``, and the row of each of ``i``'s decision nodes (``cuts.nodes``)."""

    def __init__(self, tree: Tree, form: SequenceForm, i: int, cuts: Cuts) -> None:
        block = form.players[i]
        shape = (block.num_rows, block.width)
        self.pruned = np.zeros(shape, dtype=bool)
        self.bound = np.zeros(shape)
        self.pending = np.zeros(shape)
        best = np.full(block.size + 1, -np.inf)
        np.maximum.at(best, form.terminal_seq[i], form.utility[i])
        grid = best[:-1].reshape(shape)
        for level in reversed(block.levels):  # deepest first: a row's best reaches its parent sequence
            np.maximum.at(best, level.parent, np.where(block.legal[level.lo:level.hi],
                                                       grid[level.lo:level.hi], -np.inf).max(axis=1))
        self.best = np.where(block.legal, grid, 0.0)
        row_of = np.zeros(tree.num_infosets, dtype=np.int64)
        row_of[block.rows] = np.arange(block.num_rows)
        self.node_rows = row_of[tree.infoset[cuts.nodes]]


class FullWidthCFR(Solver):
    """The full-width engine: ``FullWidthCFR(game, alpha, beta, gamma, predictive=, alternating=,
    count_pruned=, regret_minimizer=)``.

    ``alpha`` in ``[0, inf]`` and ``beta`` in ``[-inf, inf]`` discount the positive and negative
    cumulative regrets by ``t^alpha / (t^alpha + 1)`` and ``t^beta / (t^beta + 1)`` after each
    iteration; ``gamma`` in ``[0, inf)`` weights iteration ``t``'s contribution to the average
    strategy by ``t^gamma``; ``predictive`` plays regret matching on ``R^t + r^t``. The defaults are
    vanilla CFR. These three choose :class:`~cfrlib.solvers.regret_minimizers.RegretMatching`
    ``(alpha, beta, predictive)`` as the local regret minimizer; ``regret_minimizer`` replaces it
    by any :class:`~cfrlib.solvers.regret_minimizers.RegretMinimizer` (or a name: ``"rm"``,
    ``"rm+"``, ``"prm+"``, ``"hedge"``). ``count_pruned`` makes :attr:`nodes_touched` count the
    nodes a recursive walk with the two-phase cut would touch (the numbers computed do not change).
    ``regret_pruning`` runs regret-based pruning (CFR's or CFR+'s regret matching, alternating
    updates) and counts its walk, with :attr:`nodes_skipped` and :attr:`nodes_caught_up`.
    See the module docstring for the conventions.
    """

    name = "CFR engine"
    _param_names: tuple[str, ...] = ("alpha", "beta", "gamma", "predictive", "alternating", "count_pruned",
                                     "regret_pruning")

    def __init__(self, game: Game, alpha: float = math.inf, beta: float = math.inf, gamma: float = 0.0, *,
                 predictive: bool = False, alternating: bool = True, count_pruned: bool = False,
                 regret_minimizer: RegretMinimizer | str | None = None, regret_pruning: bool = False) -> None:
        super().__init__(game)
        self.alpha = check_exponent(alpha, "alpha", 0.0, math.inf, (math.inf,))
        self.beta = check_exponent(beta, "beta", -math.inf, math.inf, (math.inf, -math.inf))
        self.gamma = check_exponent(gamma, "gamma", 0.0, math.inf)
        self.predictive = check_flag(predictive, "predictive")
        self.alternating = check_flag(alternating, "alternating")
        self.count_pruned = check_flag(count_pruned, "count_pruned")
        self.tree = game.tree()
        if regret_minimizer is None:
            self.regret_minimizer: RegretMinimizer = RegretMatching(self.alpha, self.beta, self.predictive)
            self._custom_minimizer = False
        else:
            if (self.alpha, self.beta, self.predictive) != (math.inf, math.inf, False):
                raise SolverError("give either alpha, beta and predictive (regret matching) or a "
                                  "regret_minimizer, not both")
            self.regret_minimizer = minimizer_from(regret_minimizer).for_game(self.tree)
            self._custom_minimizer = True
        self._form = sf.sequence_form(self.tree)
        blocks = self._form.players
        self._regret = [np.zeros((b.num_rows, b.width)) for b in blocks]
        self._strategy_sum = [np.zeros((b.num_rows, b.width)) for b in blocks]
        self._sigma = [b.uniform.copy() for b in blocks]
        self._reach = [np.ones(b.size + 1) for b in blocks]  # x_p, flat, empty sequence last
        self._reach_is_current = [False, False]
        self._cuts: dict[int | None, Cuts] = {}
        self._values = [np.zeros(b.num_rows) for b in blocks]  # v(I) of the last pass
        self.regret_pruning = check_flag(regret_pruning, "regret_pruning")
        self.nodes_skipped = self.nodes_caught_up = 0
        if self.regret_pruning:
            if (self._custom_minimizer or self.alpha != math.inf or self.predictive
                    or self.beta not in (math.inf, -math.inf) or not self.alternating):
                raise SolverError("regret_pruning needs the regret matching of CFR or CFR+ (alpha = inf, "
                                  "beta = inf or -inf, not predictive) and alternating updates")
            self._cuts.update({i: _cuts(self.tree, self._form, i) for i in (0, 1)})
            self._pruning = [_Pruning(self.tree, self._form, i, self._cuts[i]) for i in (0, 1)]

    # ------------------------------------------------------------------- one iteration
    def _iteration(self) -> None:
        t = self.iterations + 1
        weight = self._average_weight(t)
        if self.regret_pruning:
            for i in (0, 1):
                self.nodes_touched += self._touched(i)
                self._update_pruned(i, self._accumulate(i, weight), t)
        elif self.alternating:
            for i in (0, 1):
                self.nodes_touched += self._touched(i) if self.count_pruned else self.tree.num_nodes
                self._update(i, self._accumulate(i, weight), t)
        else:
            self.nodes_touched += self._touched(None) if self.count_pruned else self.tree.num_nodes
            regrets = [self._accumulate(i, weight) for i in (0, 1)]
            for i in (0, 1):
                self._update(i, regrets[i], t)

    def _average_weight(self, t: int) -> float:
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

    def _realization_plan(self, p: int) -> NDArray[np.float64]:
        """``x_p`` of ``sigma^t`` (:func:`cfrlib.sequence_form.realization_plan`, cached)."""
        if not self._reach_is_current[p]:
            sf.realization_plan(self._form.players[p], self._sigma[p], out=self._reach[p])
            self._reach_is_current[p] = True
        return self._reach[p]

    def _accumulate(self, i: int, weight: float) -> NDArray[np.float64]:
        """Add ``w_t x_i`` to player ``i``'s average sum and return the instantaneous regret
        ``r^t(I, a) = q(I, a) - v(I)`` (:func:`cfrlib.sequence_form.counterfactual_values`)."""
        block = self._form.players[i]
        x_own = self._realization_plan(i)[:-1].reshape(block.num_rows, block.width)
        if weight == 1.0:
            self._strategy_sum[i] += x_own
        else:
            self._strategy_sum[i] += weight * x_own
        q = sf.opponent_values(self._form, self._realization_plan(1 - i), i)
        value = sf.counterfactual_values(block, self._sequence_values(i, q), self._values_strategy(i),
                                         values=self._values[i])
        regret = q[:-1].reshape(block.num_rows, block.width) - value[:, None]
        regret *= block.mask
        return regret

    def _sequence_values(self, i: int, q: NDArray[np.float64]) -> NDArray[np.float64]:
        """What player ``i`` earns per sequence before the backward pass: the terminals' ``q``
        (a regularized game adds its own term here)."""
        return q

    def _values_strategy(self, i: int) -> NDArray[np.float64]:
        """The strategy that weighs player ``i``'s action values into infoset values: ``sigma^t``."""
        return self._sigma[i]

    def _update(self, i, regret, t):
        """``R^t`` and ``sigma^{t+1}`` from ``r^t``, by the local regret
        minimizer."""
        minimizer = self.regret_minimizer
        minimizer.update(self._regret[i], regret, t)
        self._sigma[i] = minimizer.strategy(self._regret[i], regret, t,
                                            self._form.players[i].mask)
        self._reach_is_current[i] = False

    def _touched(self, updating: int | None) -> int:
        """Nodes a recursive walk with the two-phase cut touches this pass (see the module docstring)."""
        if updating not in self._cuts:
            self._cuts[updating] = _cuts(self.tree, self._form, updating)
        cuts = self._cuts[updating]
        x0, x1 = self._realization_plan(0), self._realization_plan(1)
        if updating is None:
            cut = (x0[cuts.seq0] == 0.0) & (x1[cuts.seq1] == 0.0)
        else:
            own, opp = (x0[cuts.seq0], x1[cuts.seq1]) if updating == 0 else (x1[cuts.seq1], x0[cuts.seq0])
            cut = (own == 0.0) & (cuts.chance * opp == 0.0)
        skipped = int(cuts.below[cut].sum())
        if self.regret_pruning and updating is not None:
            state = self._pruning[updating]
            blocked = _closure(self._form.players[updating], state.pruned)[1][state.node_rows]
            pruned = int(cuts.below_action[:, :blocked.shape[1]].sum(where=blocked & ~cut[:, None]))
            self.nodes_skipped += pruned
            skipped += pruned
        return self.tree.num_nodes - skipped

    def _update_pruned(self, i: int, regret: NDArray[np.float64], t: int) -> None:
        """``_update`` with regret-based pruning (see the module docstring): regrets below a pruned
        ``(I, a)`` wait in ``pending``, its bound grows by ``pi_{-i}(I) U(I, a) - v(I)`` (by the
        regret update's own rule); a pruning ends, with its waiting regrets added, once the bound
        is positive or regret matching would play ``a``; then every zero-probability action
        outside a pruned subtree is pruned."""
        block, state, minimizer, cuts = self._form.players[i], self._pruning[i], self.regret_minimizer, self._cuts[i]
        frozen = _closure(block, state.pruned)[0]
        held = state.pruned | frozen[:, None]
        state.pending += np.where(held, regret, 0.0)
        opp = cuts.seq1 if i == 0 else cuts.seq0
        reach = np.bincount(state.node_rows, weights=cuts.chance * self._realization_plan(1 - i)[opp],
                            minlength=block.num_rows)  # pi_{-i}(I)
        bound = reach[:, None] * state.best - self._values[i][:, None]
        minimizer.update(state.bound, np.where(state.pruned, bound, 0.0), t)
        minimizer.update(self._regret[i], np.where(held, 0.0, regret), t)
        ended = np.zeros_like(state.pruned)
        while True:
            sigma = minimizer.strategy(self._regret[i], regret, t, block.mask)
            end = state.pruned & ~frozen[:, None] & ((state.bound > 0.0) | (sigma > 0.0))
            if not end.any():
                break
            state.pruned &= ~end
            ended |= end
            still = _closure(block, state.pruned)[0]
            release = end | ((frozen & ~still)[:, None] & ~state.pruned)
            minimizer.update(self._regret[i], np.where(release, state.pending, 0.0), t)
            state.pending[release] = 0.0
            frozen = still
        if ended.any():  # the catch-up walk: the subtrees just opened, down to those still pruned
            opened = _closure(block, ended, state.pruned)[1][state.node_rows]
            caught = int(cuts.below_action[:, :opened.shape[1]].sum(where=opened))
            self.nodes_caught_up += caught
            self.nodes_touched += caught
        start = (sigma == 0.0) & block.legal & ~state.pruned & ~frozen[:, None]
        state.pruned |= start
        state.bound[start] = self._regret[i][start]
        self._sigma[i] = sigma
        self._reach_is_current[i] = False

    # ---------------------------------------------------------------------- strategies
    def current_strategy(self) -> Strategy:
        """``sigma^{T+1}``, the strategy the next iteration plays."""
        return Strategy(self.game, self._to_tree(self._sigma))

    def _average_blocks(self) -> list[NDArray[np.float64]]:
        """``sigma-bar^T(I, a) = sum_t w_t x_i^t[(I, a)] / sum_t w_t x_i^t[parent(I)]`` per block,
        uniform where ``I`` was never reached."""
        probs: list[NDArray[np.float64]] = []
        for block, total in zip(self._form.players, self._strategy_sum):
            norm = total.sum(axis=1, keepdims=True)
            probs.append(np.where(norm > 0.0, total / np.where(norm > 0.0, norm, 1.0), block.uniform))
        return probs

    def average_strategy(self) -> Strategy:
        """``sigma-bar^T(I, a) = sum_t w_t x_i^t[(I, a)] / sum_t w_t x_i^t[parent(I)]``, uniform where
        ``I`` was never reached."""
        return Strategy(self.game, self._to_tree(self._average_blocks()))

    def exploitability(self) -> float:
        """Exploitability of :meth:`average_strategy`, computed on the blocks directly."""
        return profile_nash_conv(self._form, self._average_blocks()) / 2.0

    def cumulative_regret(self) -> NDArray[np.float64]:
        """``R^T(I, a)`` as a ``num_infosets x max_actions`` array in the tree's infoset order."""
        return self._to_tree(self._regret)

    def _to_tree(self, grids: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
        out = np.zeros(self.tree.action_mask.shape)
        for block, grid in zip(self._form.players, grids):
            block.to_tree(grid, out)
        return out

    # ---------------------------------------------------------------------- save / load
    def _params(self) -> dict[str, Any]:
        params = {name: getattr(self, name) for name in self._param_names}
        if self._custom_minimizer and "regret_minimizer" not in params and type(self) is FullWidthCFR:
            params["regret_minimizer"] = [type(self.regret_minimizer).__name__, self.regret_minimizer.params()]
        return params

    def _arrays(self) -> dict[str, NDArray[Any]]:
        arrays = {"regret": self._to_tree(self._regret), "strategy_sum": self._to_tree(self._strategy_sum),
                  "current": self._to_tree(self._sigma)}
        if self.regret_pruning:
            arrays.update({name: self._to_tree([getattr(p, name) for p in self._pruning])
                           for name in _PRUNING_ARRAYS})
            arrays["pruning_counts"] = np.array([self.nodes_skipped, self.nodes_caught_up])
        return arrays

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        shape = self.tree.action_mask.shape
        for name in ("regret", "strategy_sum", "current"):
            if name not in arrays or arrays[name].shape != shape:
                raise SolverError(f"saved state {name!r} is missing or does not have shape {shape}")
        for p, block in enumerate(self._form.players):
            self._regret[p] = block.rows_of(arrays["regret"].astype(float))
            self._strategy_sum[p] = block.rows_of(arrays["strategy_sum"].astype(float))
            self._sigma[p] = block.rows_of(arrays["current"].astype(float))
        self._reach_is_current = [False, False]
        if self.regret_pruning:
            for name in (*_PRUNING_ARRAYS, "pruning_counts"):
                if name not in arrays:
                    raise SolverError(f"saved state {name!r} of regret-based pruning is missing")
            for state, block in zip(self._pruning, self._form.players):
                for name in _PRUNING_ARRAYS:
                    setattr(state, name, block.rows_of(arrays[name]).astype(getattr(state, name).dtype))
            self.nodes_skipped, self.nodes_caught_up = (int(n) for n in arrays["pruning_counts"])

    def __repr__(self) -> str:
        rule = (f"{self.regret_minimizer!r}" if self._custom_minimizer else
                f"alpha={self.alpha:g}, beta={self.beta:g}{', predictive' if self.predictive else ''}")
        return (f"<{type(self).__name__}({rule}, gamma={self.gamma:g}, "
                f"{'alternating' if self.alternating else 'simultaneous'}"
                f"{', count_pruned' if self.count_pruned else ''}"
                f"{', regret_pruning' if self.regret_pruning else ''}) on {self.game.name}: "
                f"{self.iterations} iterations>")


_AVERAGING = {"uniform": 0.0, "linear": 1.0, "quadratic": 2.0}


def _averaging_power(averaging: str) -> float:
    if averaging not in _AVERAGING:
        raise SolverError(f"averaging must be one of {list(_AVERAGING)}, got {averaging!r}")
    return _AVERAGING[averaging]


@register("cfr")
class CFR(FullWidthCFR):
    """Vanilla CFR (Zinkevich et al. 2007): regret matching, uniform average (``alpha = beta = inf``,
    ``gamma = 0``)."""

    name = "CFR"
    _param_names = ("alternating", "count_pruned", "regret_pruning")

    def __init__(self, game: Game, alternating: bool = True, *, count_pruned: bool = False,
                 regret_pruning: bool = False) -> None:
        super().__init__(game, math.inf, math.inf, 0.0, alternating=alternating,
                         count_pruned=count_pruned, regret_pruning=regret_pruning)


@register("cfr+")
class CFRPlus(FullWidthCFR):
    """CFR+ (Tammelin 2014): regret matching+ ``R^t = max(R^{t-1} + r^t, 0)``, alternating updates,
    average weighted by ``t`` (``"linear"``) or ``t^2`` (``"quadratic"``)."""

    name = "CFR+"
    _param_names = ("averaging", "alternating", "count_pruned", "regret_pruning")

    def __init__(self, game: Game, averaging: str = "linear", *, alternating: bool = True,
                 count_pruned: bool = False, regret_pruning: bool = False) -> None:
        super().__init__(game, math.inf, -math.inf, _averaging_power(averaging),
                         alternating=alternating, count_pruned=count_pruned, regret_pruning=regret_pruning)
        self.averaging = averaging


@register("lcfr")
class LinearCFR(FullWidthCFR):
    """Linear CFR (Brown and Sandholm 2019): iteration ``t``'s regrets and average weighted by ``t``,
    as DCFR(1, 1, 1): ``R^T = sum_t t r^t / (T + 1)``."""

    name = "Linear CFR"
    _param_names = ("alternating", "count_pruned")

    def __init__(self, game: Game, alternating: bool = True, *, count_pruned: bool = False) -> None:
        super().__init__(game, 1.0, 1.0, 1.0, alternating=alternating, count_pruned=count_pruned)


@register("dcfr")
class DCFR(FullWidthCFR):
    """Discounted CFR (Brown and Sandholm 2019), by default with their recommended (1.5, 0, 2)."""

    name = "DCFR"
    _param_names = ("alpha", "beta", "gamma", "alternating", "count_pruned")

    def __init__(self, game: Game, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0,
                 alternating: bool = True, *, count_pruned: bool = False) -> None:
        super().__init__(game, alpha, beta, gamma, alternating=alternating, count_pruned=count_pruned)


@register("pcfr+")
class PredictiveCFRPlus(FullWidthCFR):
    """Predictive CFR+ (Farina, Kroer and Sandholm 2021): RM+ regrets, next strategy by regret
    matching on ``R^t + r^t`` (the last instantaneous regret predicts the next), quadratic average
    by default."""

    name = "PCFR+"
    _param_names = ("averaging", "alternating", "count_pruned")

    def __init__(self, game: Game, averaging: str = "quadratic", *, alternating: bool = True,
                 count_pruned: bool = False) -> None:
        super().__init__(game, math.inf, -math.inf, _averaging_power(averaging), predictive=True,
                         alternating=alternating, count_pruned=count_pruned)
        self.averaging = averaging


@register("hedge-cfr")
class HedgeCFR(FullWidthCFR):
    """Hedge-CFR: Hedge (:class:`~cfrlib.solvers.regret_minimizers.Hedge`, learning rate
    ``eta_t = sqrt(8 ln|A(I)| / t) / payoff_range``) at every infoset instead of regret matching,
    uniform average. ``payoff_range`` defaults to the game's ``max u - min u``. At that safe rate it
    is slow on poker (Leduc: exploitability 2.27 after 1000 iterations, CFR 0.0118), since
    counterfactual regrets are mostly far smaller than the range; a smaller ``payoff_range`` (a
    larger rate) converges faster. Regret matching needs no rate at all."""

    name = "Hedge-CFR"
    _param_names = ("payoff_range", "alternating", "count_pruned")

    def __init__(self, game: Game, payoff_range: float | None = None, *, alternating: bool = True,
                 count_pruned: bool = False) -> None:
        super().__init__(game, alternating=alternating, count_pruned=count_pruned,
                         regret_minimizer=Hedge(payoff_range))
        self.payoff_range = cast(Hedge, self.regret_minimizer).payoff_range  # filled in from the game


# ----------------------------------------------------------------------------- the frontier
# Shown in the book: chapter 13.
@register("dcfr+")
class DCFRPlus(FullWidthCFR):
    """DCFR+ (Xu et al., IJCAI 2024): RM+ whose regrets are discounted like DCFR's
    positive ones, average weighted by ``t^gamma``, alternating updates; defaults
    ``alpha = 1.5``, ``gamma = 4`` (sec. 5 of the paper). ``offset`` is the
    constant of the discount ``d_t = t^alpha / (t^alpha + offset)``:

    * ``offset = 1.5`` (default), the authors' code, which made the paper's curves
      (github.com/rpSebastian/PDCFRPlus @ d810895, ``pdcfrplus/cfr/dcfr_plus.py``):
      ``R^t = [R^{t-1} (t-1)^alpha / ((t-1)^alpha + 1.5) + r^t]^+``;
    * ``offset = 1``, the paper's formula and DCFR's:
      ``R^t = [R^{t-1} (t-1)^alpha / ((t-1)^alpha + 1) + r^t]^+``, the member
      ``FullWidthCFR(alpha, -inf, gamma)`` of the family.

    The engine applies ``d_t`` after iteration ``t`` instead of ``d_{t-1}``
    before it, which regret matching cannot tell apart."""

    name = "DCFR+"
    _param_names = ("alpha", "gamma", "offset", "count_pruned")

    def __init__(self, game: Game, alpha: float = 1.5, gamma: float = 4.0,
                 offset: float = 1.5, *, count_pruned: bool = False) -> None:
        rule = OffsetDiscountedRegretMatchingPlus(alpha, offset)
        if rule.offset == 1.0:
            super().__init__(game, alpha, -math.inf, gamma,
                             count_pruned=count_pruned)
        else:
            super().__init__(game, gamma=gamma, count_pruned=count_pruned,
                             regret_minimizer=rule)
            self.alpha = rule.alpha
        self.offset = rule.offset


# Shown in the book: chapter 13.
@register("pdcfr+")
class PDCFRPlus(FullWidthCFR):
    """PDCFR+ (Xu et al., IJCAI 2024): DCFR+'s discounted RM+ regrets, next
    strategy by regret matching on ``[R^t t^alpha / (t^alpha + 1) + r^t]^+`` (the
    discounted ``R^t`` plus the prediction ``r^t``), average weighted by
    ``t^gamma``, alternating updates; defaults ``alpha = 2.3``, ``gamma = 5``.
    Checked line by line against the authors' code
    (github.com/rpSebastian/PDCFRPlus @ d810895, ``pdcfrplus/cfr/pdcfr_plus.py``,
    ``cfr.py``: the same discounts, prediction, average
    ``S^t = S^{t-1} ((t-1)/t)^gamma + x^t`` and alternation):
    ``FullWidthCFR(alpha, -inf, gamma, predictive=True)``."""

    name = "PDCFR+"
    _param_names = ("alpha", "gamma", "count_pruned")

    def __init__(self, game: Game, alpha: float = 2.3, gamma: float = 5.0, *,
                 count_pruned: bool = False) -> None:
        super().__init__(game, alpha, -math.inf, gamma, predictive=True,
                         count_pruned=count_pruned)


@register("sapcfr+")
class SAPCFRPlus(FullWidthCFR):
    """SAPCFR+ (Meng et al., AAAI 2026, sec. 4.2): PCFR+ with the prediction's step shortened to
    ``eta = 1 / (1 + alpha) = 1/3`` (the paper's fixed ``alpha = 2``; ``prediction_weight=0.5``
    minimizes its worst-case bound;
    :class:`~cfrlib.solvers.regret_minimizers.AsymmetricPredictiveRegretMatchingPlus`), alternating
    updates and the quadratic average of the paper's experiments (sec. 5)."""

    name = "SAPCFR+"
    _param_names = ("prediction_weight", "averaging", "count_pruned")

    def __init__(self, game: Game, prediction_weight: float = 1.0 / 3.0, averaging: str = "quadratic", *,
                 count_pruned: bool = False) -> None:
        super().__init__(game, gamma=_averaging_power(averaging), count_pruned=count_pruned,
                         regret_minimizer=AsymmetricPredictiveRegretMatchingPlus(prediction_weight))
        self.prediction_weight, self.averaging = float(prediction_weight), averaging


@register("rtcfr+")
class RTCFRPlus(FullWidthCFR):
    """RTCFR+ (Meng et al., NeurIPS 2025), a last-iterate method: CFR+ on a regularized game whose
    equilibrium moves towards the real one, with the paper's defaults (sec. 5 and Algorithm 1;
    the authors' github.com/menglinjian/NeurIPS-2025-RTCFR @ 695cf47, ``main.py``) ``mu = 1e-3``,
    ``perturbation = 1e-10`` (the paper's gamma), ``interval = 100`` (its ``T_u``), alternating
    updates. (The paper's Table 1 also lists per-game tuned values, e.g. Kuhn ``mu = 0.1``,
    ``interval = 10``.)

    Player ``i`` earns ``-mu (x_i[(I, a)] - r_i[(I, a)])`` more at each sequence (the gradient of
    ``-mu/2 ||x_i - r_i||^2`` in the sequence form, ``r`` a reference realization plan), so
    ``q(I, a)`` gains that term and the regularized values of ``I``'s children, which are weighed
    by the RM+ strategy ``sigma(I) = [R(I)]^+ / sum``; RM+ runs on ``q(I, a) - v(I)``. The strategy
    played is ``sigma-hat = (1 - eps |A(I)|) sigma + eps``. Every ``interval`` iterations,
    before the updates, the reference becomes the strategy played and ``eps`` halves. The
    current strategy ``sigma-hat`` is the output; the average is kept (uniform weights) to compare."""

    name = "RTCFR+"
    _param_names = ("mu", "perturbation", "interval", "count_pruned")

    def __init__(self, game: Game, mu: float = 1e-3, perturbation: float = 1e-10, interval: int = 100, *,
                 count_pruned: bool = False) -> None:
        self.mu = check_exponent(mu, "mu", 0.0, math.inf)
        if self.mu == 0.0:
            raise SolverError("mu must be positive (0 is CFR+ without regularization), got 0.0")
        if isinstance(interval, bool) or not isinstance(interval, (int, np.integer)) or interval < 1:
            raise SolverError(f"interval must be a positive whole number of iterations, got {interval!r}")
        self.interval = int(interval)
        super().__init__(game, math.inf, -math.inf, 0.0, count_pruned=count_pruned)
        widest = int(self.tree.action_mask.sum(axis=1).max())
        self.perturbation = check_exponent(perturbation, "perturbation", 0.0, 1.0)
        if self.perturbation * widest >= 1.0:
            raise SolverError(f"perturbation must be below 1/{widest} (the most actions at an infoset), "
                              f"got {perturbation!r}")
        self._unperturbed = [s.copy() for s in self._sigma]
        self._reference_sigma = [s.copy() for s in self._sigma]
        self._reference = [np.ones(b.size + 1) for b in self._form.players]
        self._set_reference(self._reference_sigma)

    def _set_reference(self, sigmas: Sequence[NDArray[np.float64]]) -> None:
        for p, block in enumerate(self._form.players):
            self._reference_sigma[p] = sigmas[p].copy()
            sf.realization_plan(block, self._reference_sigma[p], out=self._reference[p])

    def _iteration(self) -> None:
        if (self.iterations + 1) % self.interval == 0:
            self._set_reference(self._sigma)
        super()._iteration()

    # Shown in the book: chapter 13.
    def _sequence_values(self, i: int,
                         q: NDArray[np.float64]) -> NDArray[np.float64]:
        q[:-1] -= self.mu * (self._realization_plan(i)[:-1]
                             - self._reference[i][:-1])
        return q

    def _values_strategy(self, i: int) -> NDArray[np.float64]:
        return self._unperturbed[i]

    # Shown in the book: chapter 13.
    def _update(self, i: int, regret: NDArray[np.float64], t: int) -> None:
        """RM+ on ``r^t``, then
        ``sigma-hat^{t+1} = (1 - eps |A(I)|) sigma^{t+1} + eps`` (normalised),
        ``eps = perturbation / 2^floor(t / interval)``."""
        mask = self._form.players[i].mask
        self.regret_minimizer.update(self._regret[i], regret, t)
        sigma = self.regret_minimizer.strategy(self._regret[i], regret, t, mask)
        self._unperturbed[i] = sigma
        eps = self.perturbation / 2.0 ** (t // self.interval)
        played = ((1.0 - eps * mask.sum(axis=1, keepdims=True)) * sigma
                  + eps) * mask
        self._sigma[i] = played / played.sum(axis=1, keepdims=True)
        self._reach_is_current[i] = False

    def _arrays(self) -> dict[str, NDArray[Any]]:
        return {**super()._arrays(), "reference": self._to_tree(self._reference_sigma)}

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        super()._restore(arrays)
        if "reference" not in arrays or arrays["reference"].shape != self.tree.action_mask.shape:
            raise SolverError(f"saved state 'reference' is missing or does not have shape {self.tree.action_mask.shape}")
        self._set_reference([b.rows_of(arrays["reference"].astype(float)) for b in self._form.players])
        self._unperturbed = [self.regret_minimizer.strategy(R, R, self.iterations, b.mask)
                             for R, b in zip(self._regret, self._form.players)]


@register("apcfr+")
class APCFRPlus(FullWidthCFR):
    """APCFR+ (Meng et al., AAAI 2026, sec. 4.1): SAPCFR+ whose prediction step ``eta_I = 1 / (1 + alpha_I)``
    is learned at every infoset from the run so far, the paper's eq. (3):

    ``alpha_I = min(sqrt(sum_tau ||r^tau(I) - r^{tau-1}(I)||^2 / sum_tau ||R^tau(I) - R^{tau-1}(I)||^2), alpha_max)``

    over ``tau = 1 .. t`` (``r^0 = R^0 = 0``; ``alpha_max`` where no regret has moved yet), then
    ``R^t = [R^{t-1} + r^t]^+`` and ``sigma^{t+1} ∝ [R^t + eta_I r^t]^+``. The paper's ``alpha_max = 5``,
    alternating updates and the quadratic average of its experiments (sec. 5)."""

    name = "APCFR+"
    _param_names = ("alpha_max", "averaging", "count_pruned")

    def __init__(self, game: Game, alpha_max: float = 5.0, averaging: str = "quadratic", *,
                 count_pruned: bool = False) -> None:
        self.alpha_max = check_exponent(alpha_max, "alpha_max", 0.0, math.inf)
        super().__init__(game, math.inf, -math.inf, _averaging_power(averaging), count_pruned=count_pruned)
        self.averaging = averaging
        blocks = self._form.players
        self._last_regret = [np.zeros((b.num_rows, b.width)) for b in blocks]  # r^{t-1}
        self._prediction_error = [np.zeros(b.num_rows) for b in blocks]      # sum ||r^tau - r^{tau-1}||^2
        self._regret_change = [np.zeros(b.num_rows) for b in blocks]         # sum ||R^tau - R^{tau-1}||^2

    # Shown in the book: chapter 13.
    def asymmetry(self, i: int) -> NDArray[np.float64]:
        """``alpha_I`` of eq. (3) at each of player ``i``'s infosets, from the sums
        so far."""
        error, change = self._prediction_error[i], self._regret_change[i]
        ratio = np.divide(error, change, out=np.full_like(error, np.inf),
                          where=change > 0.0)
        return np.minimum(np.sqrt(ratio), self.alpha_max)

    # Shown in the book: chapter 13.
    def _update(self, i: int, regret: NDArray[np.float64], t: int) -> None:
        """RM+ on ``r^t``, the two sums of eq. (3), then regret matching on
        ``R^t + r^t / (1 + alpha_I)``."""
        R, rule = self._regret[i], self.regret_minimizer
        before = R.copy()
        rule.update(R, regret, t)
        self._regret_change[i] += np.square(R - before).sum(axis=1)
        self._prediction_error[i] += np.square(
            regret - self._last_regret[i]).sum(axis=1)
        self._last_regret[i] = regret
        step = 1.0 / (1.0 + self.asymmetry(i))
        self._sigma[i] = rule.strategy(R + step[:, None] * regret, regret, t,
                                       self._form.players[i].mask)
        self._reach_is_current[i] = False

    def _arrays(self) -> dict[str, NDArray[Any]]:
        sums = np.zeros((2, self.tree.num_infosets))
        for block, error, change in zip(self._form.players, self._prediction_error, self._regret_change):
            sums[:, block.rows] = error, change
        return {**super()._arrays(), "last_regret": self._to_tree(self._last_regret), "asymmetry_sums": sums}

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        super()._restore(arrays)
        shapes = {"last_regret": self.tree.action_mask.shape, "asymmetry_sums": (2, self.tree.num_infosets)}
        for name, shape in shapes.items():
            if name not in arrays or arrays[name].shape != shape:
                raise SolverError(f"saved state {name!r} of APCFR+ is missing or does not have shape {shape}")
        for p, block in enumerate(self._form.players):
            self._last_regret[p] = block.rows_of(arrays["last_regret"].astype(float))
            self._prediction_error[p], self._regret_change[p] = arrays["asymmetry_sums"][:, block.rows].astype(float)


# ------------------------------------------------------------ last-iterate methods
def _parameters_repr(solver: FullWidthCFR) -> str:
    """``<Name(param=value, ..., simultaneous) on game: T iterations>`` from ``_param_names``."""
    args = ", ".join(f"{name}={getattr(solver, name):g}" for name in solver._param_names)
    return (f"<{type(solver).__name__}({args}, simultaneous) on {solver.game.name}: "
            f"{solver.iterations} iterations>")


class _SmoothRMPlus(FullWidthCFR):
    """What ExRM+ and SPRM+ share: simultaneous updates and, at every infoset, a state ``z`` on
    the chopped-off orthant ``Z = {z >= 0, sum_a z(a) >= 1}``, moved by the step
    ``Pi_Z(z + eta r)`` (:func:`~cfrlib.solvers.regret_minimizers.chopped_projection`) and played
    as ``sigma = z / sum_a z(a)``; ``z`` starts at the uniform point ``1 / |A(I)|``. The average
    (uniform weights) is kept to compare; the output is the current strategy."""

    _param_names = ("eta",)

    def __init__(self, game: Game, eta: float = 1.0) -> None:
        self.eta = check_exponent(eta, "eta", 0.0, math.inf)
        if self.eta == 0.0:
            raise SolverError("eta (the step size) must be positive, got 0.0")
        super().__init__(game, alternating=False)
        self._regret = [b.uniform.copy() for b in self._form.players]

    def _smooth_step(self, z: NDArray[np.float64], regret: NDArray[np.float64],
                     i: int) -> NDArray[np.float64]:
        """``Pi_Z(z + eta r)`` at each of player ``i``'s infosets."""
        return chopped_projection(z + self.eta * regret, self._form.players[i].mask)

    def _play(self, z: Sequence[NDArray[np.float64]]) -> None:
        for i in (0, 1):
            self._sigma[i] = z[i] / z[i].sum(axis=1, keepdims=True)
            self._reach_is_current[i] = False

    __repr__ = _parameters_repr


# Shown in the book: chapter 13.
@register("exrm+")
class ExRMPlus(_SmoothRMPlus):
    """Extragradient RM+ (Cai et al. 2023; the smooth orthant of Farina et al.,
    NeurIPS 2023), per infoset on counterfactual regrets, simultaneous updates:

    ``z^{t+1/2} = Pi_Z(z^t + eta r(sigma^t))``,
    ``z^{t+1} = Pi_Z(z^t + eta r(sigma^{t+1/2}))``,

    ``sigma = z / sum_a z(a)``: two passes an iteration, the second at the
    half step's strategies."""

    name = "ExRM+"

    def _iteration(self) -> None:
        weight = self._average_weight(self.iterations + 1)
        self.nodes_touched += 2 * self.tree.num_nodes
        r = [self._accumulate(i, weight) for i in (0, 1)]  # at sigma^t
        self._play([self._smooth_step(self._regret[i], r[i], i)
                    for i in (0, 1)])
        r = [self._accumulate(i, 0.0) for i in (0, 1)]     # at sigma^{t+1/2}
        self._regret = [self._smooth_step(self._regret[i], r[i], i)
                        for i in (0, 1)]
        self._play(self._regret)


@register("sprm+")
class SPRMPlus(_SmoothRMPlus):
    """Smooth predictive RM+ (Farina et al., NeurIPS 2023; Cai et al. 2023), per
    infoset on counterfactual regrets, simultaneous updates:

    ``w^{t+1} = Pi_Z(w^t + eta r^t)``, ``z^{t+1} = Pi_Z(w^{t+1} + eta r^t)``,

    ``sigma^{t+1} = z^{t+1} / sum_a z^{t+1}(a)``: PCFR+ with a step size, on the
    chopped-off orthant. One pass an iteration. On a matrix game (one infoset a
    player) it is the ``SPRMSolver`` of Meng et al.'s public code
    (github.com/menglinjian/NeurIPS-2025-SOGRM @ 988ae3b, ``main.py``): the same
    uniform start, projection and prediction."""

    name = "SPRM+"

    def _iteration(self) -> None:
        weight = self._average_weight(self.iterations + 1)
        self.nodes_touched += self.tree.num_nodes
        r = [self._accumulate(i, weight) for i in (0, 1)]  # r^t, at sigma^t
        self._regret = [self._smooth_step(self._regret[i], r[i], i) for i in (0, 1)]
        self._play([self._smooth_step(self._regret[i], r[i], i) for i in (0, 1)])


@register("mmd")
class MMD(FullWidthCFR):
    """Magnetic mirror descent (Sokota et al., ICLR 2023) in the sequence form with the
    dilated entropy ``H(x) = sum_I x[parent(I)] sum_a sigma(I, a) log sigma(I, a)``, simultaneous
    updates, as OpenSpiel's ``MMDDilatedEnt`` runs it (open_spiel 2.0.2,
    ``python/algorithms/mmd_dilated.py``): with ``g_i`` player ``i``'s sequence-form gradient
    against ``x_{-i}^t`` (chance included),

    ``x_i^{t+1} = argmax_x <eta g_i, x> - eta lambda H(x) - D_H(x, x_i^t)``,

    which converges linearly to the quantal response equilibrium (QRE) of temperature ``lambda``
    (``temperature``), the paper's result for extensive-form games, with ``H`` as regularizer. Its closed form is a pass per infoset,
    deepest first (:meth:`_dilated_step`). ``eta`` defaults to OpenSpiel's ``lambda / L^2``, ``L``
    the largest entry of the sequence-form payoff matrix, ``|sum_z pi_c(z) u_0(z)|`` over the
    terminals of one pair of sequences."""

    name = "MMD"
    _param_names = ("temperature", "eta")

    def __init__(self, game: Game, temperature: float = 0.05, eta: float | None = None) -> None:
        super().__init__(game, alternating=False)
        self.temperature = check_exponent(temperature, "temperature", 0.0, math.inf)
        form = self._form
        pair = (form.terminal_seq[0].astype(np.int64) * (form.players[1].size + 1)
                + form.terminal_seq[1])
        _, pair = np.unique(pair, return_inverse=True)    # number the pairs that occur
        largest = float(np.abs(np.bincount(pair, weights=form.chance_utility[0])).max())
        self.eta = (self.temperature / largest ** 2 if eta is None
                    else check_exponent(eta, "eta", 0.0, math.inf))
        if self.eta == 0.0:
            raise SolverError("MMD needs a positive step eta (temperature 0 needs an explicit eta)")

    __repr__ = _parameters_repr

    def _iteration(self) -> None:
        weight = self._average_weight(self.iterations + 1)
        self.nodes_touched += self.tree.num_nodes
        grads = []
        for i, block in enumerate(self._form.players):
            plan = self._realization_plan(i)[:-1].reshape(block.num_rows, block.width)
            self._strategy_sum[i] += weight * plan
            grads.append(sf.opponent_values(self._form, self._realization_plan(1 - i), i))
        for i in (0, 1):
            self._sigma[i] = self._dilated_step(i, grads[i])
            self._reach_is_current[i] = False

    # Shown in the book: chapter 13.
    def _dilated_step(self, i: int,
                      g: NDArray[np.float64]) -> NDArray[np.float64]:
        """The closed form: deepest infosets first, ``s(I, a) = (eta g(I, a)
        + log sigma^t(I, a)) / (1 + eta lambda) + sum_J V(J)`` over the infosets
        ``J`` right below ``(I, a)``, ``sigma^{t+1}(I) = softmax s(I, .)`` and
        ``V(I) = log sum_a exp s(I, a)``."""
        block, eta = self._form.players[i], self.eta
        log_sigma = np.log(self._sigma[i], where=block.legal,
                           out=np.zeros_like(self._sigma[i]))
        s = ((eta * g + np.append(log_sigma.ravel(), 0.0))
             / (1.0 + eta * self.temperature))
        grid = s[:-1].reshape(block.num_rows, block.width)
        sigma = np.zeros_like(grid)
        for level in reversed(block.levels):
            rows = np.where(block.legal[level.lo:level.hi],
                            grid[level.lo:level.hi], -np.inf)
            top = rows.max(axis=1, keepdims=True)
            weights = np.exp(rows - top)
            total = weights.sum(axis=1, keepdims=True)
            sigma[level.lo:level.hi] = weights / total
            V = top[:, 0] + np.log(total[:, 0])
            s[level.above_lo:level.above_hi] += np.bincount(
                level.local_parent, weights=V,
                minlength=level.above_hi - level.above_lo)
        return sigma
