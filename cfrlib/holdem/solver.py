"""Range-vector CFR: the CFR family run on a range game's public tree, one pass a player and
iteration, every hand of both players at once.

The pass for the traverser ``p`` carries the opponent's reach ``pi_{-p}`` as a vector over its
hands (chance included) and returns ``p``'s counterfactual values ``v(h)`` as a vector over its
hands:

* at a terminal, ``v(h) = u * sum of pi_{-p}(h')`` over the opponent's hands ``h'`` that share no
  card with ``h`` (a fold), or ``u * (reach that h beats - reach that beats h)`` (a showdown),
  with ``u = amount + pot / 2``: :mod:`cfrlib.holdem.showdown`'s O(n) kernels;
* at a chance node, the sum over the cards ``c`` still in the deck of the child's values, the
  opponent's hands holding ``c`` given zero reach and ``p``'s hands holding ``c`` left out, times
  ``1 / (deck - |board| - 2k)``;
* at the opponent's node, the sum over actions of the children's values, each child getting
  ``pi_{-p} * sigma(a | h')``;
* at ``p``'s node, ``v = sum_a sigma(a | h) v_a``, and the local rule updates the regrets
  ``r(a, h) = v_a(h) - v(h)`` and the average.

Values are zero-sum here (each terminal's payoff minus half the starting pot: the constant
changes no regret); reported values add it back. The local rule is the full-width engine's
discounted regret matching (:class:`~cfrlib.solvers.regret_minimizers.RegretMatching`:
``R^t = (R^{t-1} + r^t) * (t^alpha / (t^alpha + 1) or t^beta / (t^beta + 1))`` by sign, CFR,
CFR+ and DCFR as settings), with the average weighted by ``t^gamma``, kept as
``S^t = S^{t-1} ((t - 1) / t)^gamma + pi_p sigma^t``. ``schedule="postflop"`` runs
postflop-solver's variant instead, for side-by-side comparisons: ``R^t = R^{t-1} d + r^t`` with
``d = (t-1)^1.5 / ((t-1)^1.5 + 1)`` where ``R^{t-1} >= 0`` and 1/2 elsewhere, and
``S^t = S^{t-1} ((t - q) / (t - q + 1))^3 + sigma^t`` with ``q`` the largest power of 4 not above
``t`` (the average restarts at 1, 4, 16, 64, ...), ``t`` counted from 0; postflop-solver adds
``sigma^t`` itself, not weighted by the player's own reach ``pi_p`` as CFR's average is. Regrets and sums are
float32 tables (rows = node and action, columns = hands); the arithmetic is float64.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..checks import check_exponent, check_iterations, check_tolerance
from ..errors import SolverError, SpotError
from ..solvers.base import ConvergenceLog
from ..solvers.regret_minimizers import RegretMatching
from .game import ACTOR, AMOUNT, BOARD, CARD, COUNT, FIRST, KIND, ROW, RangeGame
from .showdown import (PASS_KERNEL, fold_values, fold_values_into, prepare_fold, prepare_showdown, showdown_values,
                       showdown_values_into)
from .tree import CHANCE, FOLD, PLAYER, PublicNode

FloatArray = NDArray[np.float64]

UPDATE, BEST_RESPONSE, AVERAGE = 0, 1, 2
"""Modes of a pass: a CFR iteration for the traverser, its best response to the opponent's
average strategy, or both players' average strategies."""

SCHEDULES = ("cfrlib", "postflop")

_pass_kernel = njit(**PASS_KERNEL)


@_pass_kernel
def _apply_lock(lock_row, lock_table, row, n_actions, out):  # type: ignore[no-untyped-def]
    """Overwrite ``out`` (actions, hands) with the lock of the node whose rows start at ``row``,
    for the hands it locks: ``lock_row[row + a]`` is the row of ``lock_table`` holding action
    ``a``'s probabilities (-1: no lock at this node), NaN for a hand left free."""
    if lock_row[row] < 0:
        return
    first = lock_table[lock_row[row]]
    for h in range(first.shape[0]):
        if not np.isnan(first[h]):
            for a in range(n_actions):
                out[a, h] = lock_table[lock_row[row + a], h]


@_pass_kernel
def _strategy(regret, sums, lock_row, lock_table, row, n_actions, use_average, out, total):  # type: ignore[no-untyped-def]
    """Regret matching on the rows ``row .. row + n_actions`` (uniform where no regret is positive),
    or the normalised average sums (uniform where they are all 0), into ``out[:n_actions, :n]``
    (``n`` the table's hands; ``total`` a scratch row); locked hands play their lock
    (:func:`_apply_lock`). Loops run along the rows (the hands), which numba vectorizes; nodes of
    two or three actions (nearly all) take one pass (:func:`_normalise_few`)."""
    table = sums if use_average else regret
    if 2 <= n_actions <= 3:
        _normalise_few(table, row, n_actions, not use_average, out)
        _apply_lock(lock_row, lock_table, row, n_actions, out)
        return
    n = table.shape[1]
    for h in range(n):
        total[h] = 0.0
    for a in range(n_actions):
        for h in range(n):
            x = float(table[row + a, h])
            x = x if use_average else max(x, 0.0)
            out[a, h] = x
            total[h] += x
    uniform = 1.0 / n_actions
    for h in range(n):  # one division a hand; a hand with no positive entry plays uniformly
        total[h] = 1.0 / total[h] if total[h] > 0.0 else 0.0
    for a in range(n_actions):
        for h in range(n):
            out[a, h] = out[a, h] * total[h] if total[h] > 0.0 else uniform
    _apply_lock(lock_row, lock_table, row, n_actions, out)


@_pass_kernel
def _normalise_few(table, row, n_actions, positive, out):  # type: ignore[no-untyped-def]
    """:func:`_strategy` for two or three actions in one pass over the hands (the same sums in the
    same order, so the same result to the bit): ``x_a = max(table[row + a], 0)`` (``positive``)
    or ``table[row + a]``, ``out[a] = x_a / sum_b x_b``, uniform where the sum is 0."""
    three = n_actions == 3
    uniform = 1.0 / n_actions
    first, second, third = table[row], table[row + 1], table[row + 2 if three else row + 1]
    for h in range(table.shape[1]):
        x0, x1, x2 = float(first[h]), float(second[h]), float(third[h]) if three else 0.0
        if positive:
            x0, x1, x2 = max(x0, 0.0), max(x1, 0.0), max(x2, 0.0)
        t = x0 + x1 + x2
        inverse = 1.0 / t if t > 0.0 else 0.0
        out[0, h] = x0 * inverse if t > 0.0 else uniform
        out[1, h] = x1 * inverse if t > 0.0 else uniform
        if three:
            out[2, h] = x2 * inverse if t > 0.0 else uniform


@_pass_kernel
def _terminal(i, p, opp_reach, out, tree, scratch):  # type: ignore[no-untyped-def]
    """``out =`` the traverser ``p``'s values at the terminal ``i``: a fold or a showdown."""
    nodes, prepared, half_pot, folds = tree[0], tree[3], tree[4], tree[5]
    payoff = nodes[i, AMOUNT] + half_pot
    if nodes[i, KIND] == FOLD:  # by nodes[i, ACTOR]
        fold_values_into(folds[p], opp_reach, payoff if nodes[i, ACTOR] == 1 - p else -payoff, out, scratch)
    else:
        b, mine = nodes[i, BOARD], prepared[p]
        showdown_values_into((mine[0][b], mine[1][b], mine[2][b], mine[3][b], mine[4][b], mine[5][b], mine[6][b]),
                             opp_reach, payoff, out, scratch)


# Rows of a depth's block of the walk's workspace (``levels[d]``), each as wide as the larger range
# (a node uses the first n entries, n its player's hands): the reaches its children get (``OPP``,
# ``OWN``), a child's values (``CHILD``), regret matching's scratch (``TOTAL``), then sigma's rows
# and the traverser's action values. Columns of the walk's stack: the node, the child last
# entered (-1 before the first), the levels holding its opponent and own reach (rows ``OPP`` and
# ``OWN``), and the level and row its values go to.
OPP, OWN, CHILD, TOTAL, SIGMA = 0, 1, 2, 3, 4
NODE, LAST, OPP_AT, OWN_AT, OUT_AT, OUT_ROW = range(6)


@_pass_kernel
def _walk(start, p, mode, opp_reach, own_reach, out, tree, tables, params, split, work):  # type: ignore[no-untyped-def]
    """``out = `` the traverser ``p``'s counterfactual values at node ``start`` (see the module
    docstring), by a depth-first walk with an explicit stack (no recursion, no allocation).

    ``tree = (nodes, cards, holds, prepared, half_pot, folds)`` (``folds[p]``, ``prepared[p][board]``:
    the showdown module's preparations for traverser ``p``), ``tables = (regrets, sums, lock_rows,
    lock_tables)`` (each a pair, one a player), ``params`` the rule's factors (:meth:`RangeSolver._params`).
    ``split = (stage, slot, slot_opp, slot_own, slot_first, task_out)`` cuts the pass at the first
    chance nodes (``slot[i] >= 0``) so that their children can run on threads: stage 1 stores
    the reaches there and updates nothing, stage 2 reads the children's values from ``task_out``
    (rows ``slot_first[slot[i]]`` on) and updates; stage 0 walks the whole subtree.
    ``work = (levels, scratch, stack)`` (:func:`workspace`): the node at stack depth ``d`` keeps its
    vectors in ``levels[d]`` (level 0 holds the start's reaches and values), the terminals'
    kernels use ``scratch``."""
    nodes, cards, holds = tree[0], tree[1], tree[2]
    regrets, sums, lock_rows, lock_tables = tables
    levels, scratch, stack = work
    o = 1 - p
    n, m = cards[p].shape[0], cards[o].shape[0]
    _copy(opp_reach, levels[0, OPP], m)
    _copy(own_reach, levels[0, OWN], n)
    stack[1, NODE], stack[1, LAST], stack[1, OPP_AT], stack[1, OWN_AT], stack[1, OUT_AT], stack[1, OUT_ROW] = (
        start, -1, 0, 0, 0, CHILD)
    d = 1
    while d > 0:
        i, last = stack[d, NODE], stack[d, LAST]
        opp, own = levels[stack[d, OPP_AT], OPP], levels[stack[d, OWN_AT], OWN]
        dest = levels[stack[d, OUT_AT], stack[d, OUT_ROW]]
        kind = nodes[i, KIND]
        if kind >= FOLD:  # a terminal
            _terminal(i, p, opp, dest, tree, scratch)
            d -= 1
            continue
        level = levels[d]
        first, count = nodes[i, FIRST], nodes[i, COUNT]
        if kind == CHANCE:  # each card still in the deck
            if last == -1:
                for h in range(n):
                    dest[h] = 0.0
                stage, slot, slot_opp, slot_own, slot_first, task_out = split
                s = slot[i] if stage != 0 else -1
                if s >= 0:  # the cut: stage 1 leaves the reaches to the tasks, stage 2 sums their values
                    if stage == 1:
                        _copy(opp, slot_opp[s], m)
                        _copy(own, slot_own[s], n)
                    else:
                        for k in range(count):
                            held, values = holds[p][nodes[first + k, CARD]], task_out[slot_first[s] + k]
                            for h in range(n):
                                dest[h] += 0.0 if held[h] else values[h]
                    d -= 1
                    continue
            else:
                held, child_out = holds[p][nodes[first + last, CARD]], level[CHILD]
                for h in range(n):
                    dest[h] += 0.0 if held[h] else child_out[h]
            k = last + 1
            if k == count:
                d -= 1
                continue
            stack[d, LAST] = k
            _deal(nodes[first + k, CARD], chance_weight(count, cards[p].shape[1]), opp, own, holds[o], holds[p],
                  level[OPP], level[OWN])
            d = _push(stack, d, first + k, d, d, d, CHILD)
            continue
        q = nodes[i, ACTOR]
        row = nodes[i, ROW]
        sigma = level[SIGMA:SIGMA + count]
        if last == -1:
            _strategy(regrets[q], sums[q], lock_rows[q], lock_tables[q], row, count, mode != UPDATE, sigma,
                      level[TOTAL])
        k = last + 1
        if q != p:  # the opponent's node: its values are the sum of its children's under pi_{-p} sigma(a)
            if last > 0:
                child_out = level[CHILD]
                for h in range(n):
                    dest[h] += child_out[h]
            if k == count:
                d -= 1
                continue
            stack[d, LAST] = k
            child_opp, sigma_k = level[OPP], sigma[k]
            for h in range(m):
                child_opp[h] = opp[h] * sigma_k[h]
            if k == 0:  # the first child writes straight into this node's values
                d = _push(stack, d, first, d, stack[d, OWN_AT], stack[d, OUT_AT], stack[d, OUT_ROW])
            else:
                d = _push(stack, d, first + k, d, stack[d, OWN_AT], d, CHILD)
            continue
        if k < count:  # the traverser's node: each action's values into its row
            stack[d, LAST] = k
            own_at = stack[d, OWN_AT]
            if mode == UPDATE and params[5] != 0.0:  # only an average weighted by pi_p needs p's reach
                child_own, sigma_k = level[OWN], sigma[k]
                for h in range(n):
                    child_own[h] = own[h] * sigma_k[h]
                own_at = d
            d = _push(stack, d, first + k, stack[d, OPP_AT], own_at, d, SIGMA + count + k)
            continue
        d -= 1
        values = level[SIGMA + count:SIGMA + 2 * count]
        if mode == BEST_RESPONSE:
            for h in range(n):
                best = values[0, h]
                for a in range(1, count):
                    best = max(best, values[a, h])
                dest[h] = best
            continue
        for h in range(n):
            dest[h] = sigma[0, h] * values[0, h]
        for a in range(1, count):
            for h in range(n):
                dest[h] += sigma[a, h] * values[a, h]
        if mode != UPDATE or split[0] == 1:
            continue
        _update(regrets[p], sums[p], row, count, sigma, values, dest, own, params, n)
        if lock_rows[p][row] >= 0:  # a locked hand's average is its lock
            _apply_lock(lock_rows[p], lock_tables[p], row, count, sums[p][row:row + count])
    _copy(levels[0, CHILD], out, n)


@_pass_kernel
def _copy(source, target, n):  # type: ignore[no-untyped-def]
    """``target[:n] = source[:n]`` (a slice assignment would need numba's reference counting)."""
    for h in range(n):
        target[h] = source[h]


@_pass_kernel
def _push(stack, d, node, opp_at, own_at, out_at, out_row):  # type: ignore[no-untyped-def]
    """Put ``node`` on the walk's stack above depth ``d``; the new depth."""
    d += 1
    stack[d, NODE], stack[d, LAST], stack[d, OPP_AT], stack[d, OWN_AT], stack[d, OUT_AT], stack[d, OUT_ROW] = (
        node, -1, opp_at, own_at, out_at, out_row)
    return d


@_pass_kernel
def _update(regret, total, row, count, sigma, values, out, own_reach, params, n):  # type: ignore[no-untyped-def]
    """The local rule at the traverser's node: ``R(a) = (R(a) * pre(sign) + v_a - v) * post(sign)``
    and ``S(a) = S(a) * decay + w sigma(a)`` (``w`` the own reach or 1) on the rows from ``row``."""
    pre_positive, pre_negative, post_positive, post_negative, decay = params[0], params[1], params[2], params[3], params[4]
    own_weighted = params[5] != 0.0
    for a in range(count):
        regret_a, total_a, values_a, sigma_a = regret[row + a], total[row + a], values[a], sigma[a]
        for h in range(n):
            r = float(regret_a[h])
            r = r * (pre_positive if r >= 0.0 else pre_negative) + values_a[h] - out[h]
            regret_a[h] = r * (post_positive if r >= 0.0 else post_negative)
        if own_weighted:
            for h in range(n):
                total_a[h] = float(total_a[h]) * decay + own_reach[h] * sigma_a[h]
        else:
            for h in range(n):
                total_a[h] = float(total_a[h]) * decay + sigma_a[h]


@_pass_kernel
def chance_weight(children, cards_per_hand):  # type: ignore[no-untyped-def]
    """``1 / (deck - |board| - 2k)``: each card's probability once both hands are dealt."""
    return 1.0 / (children - 2 * cards_per_hand)


@_pass_kernel
def _deal(card, weight, opp_reach, own_reach, opp_holds, own_holds, child_opp, child_own):  # type: ignore[no-untyped-def]
    """The reaches below a chance node after ``card``: hands holding it at 0, the opponent's times
    ``weight`` (the holds' lengths are the hands')."""
    opp_held, own_held = opp_holds[card], own_holds[card]
    for h in range(opp_held.shape[0]):
        child_opp[h] = 0.0 if opp_held[h] else opp_reach[h] * weight
    for h in range(own_held.shape[0]):
        child_own[h] = 0.0 if own_held[h] else own_reach[h]


@njit(cache=True, nogil=True, error_model="numpy")
def workspace(depth, width, actions, scratch):  # type: ignore[no-untyped-def]
    """:func:`_walk`'s ``work``: ``levels`` (``depth`` blocks of ``SIGMA + 2 * actions`` rows of
    ``width``), ``scratch`` floats for the terminals' kernels and the stack (``depth`` rows)."""
    return (np.zeros((depth, SIGMA + 2 * actions, width)), np.zeros(scratch),
            np.zeros((depth, OUT_ROW + 1), dtype=np.int64))


@njit(cache=True, nogil=True, error_model="numpy")
def _walk_tasks(p, mode, tasks, start, step, tree, tables, params, split, shape):  # type: ignore[no-untyped-def]
    """Stage 0 passes below the cut for the tasks ``start, start + step, ...``, one a (chance node,
    card): ``tasks[t] = (child, slot, children of the chance node, depth of the child)``, values
    into ``split``'s ``task_out[t]``, with a workspace of ``shape`` (:func:`workspace`'s arguments)
    of its own. The tasks' tables are disjoint, so threads (each running this function without
    the GIL on its own tasks) need no locks, and the result does not depend on their number."""
    nodes, cards, holds = tree[0], tree[1], tree[2]
    slot_opp, slot_own, task_out = split[2], split[3], split[5]
    # stage 0 as an int64, the type a call from Python gives it (a literal 0 compiled _walk twice)
    whole = (np.int64(0), split[1], slot_opp, slot_own, split[4], task_out)
    work = workspace(shape[0], shape[1], shape[2], shape[3])
    child_opp, child_own = np.empty(slot_opp.shape[1]), np.empty(slot_own.shape[1])
    for t in range(start, tasks.shape[0], step):
        child, s, count = tasks[t, 0], tasks[t, 1], tasks[t, 2]
        _deal(nodes[child, CARD], chance_weight(count, cards[p].shape[1]), slot_opp[s], slot_own[s], holds[1 - p],
              holds[p], child_opp, child_own)
        _walk(child, p, mode, child_opp, child_own, task_out[t], tree, tables, params, whole, work)


class RangeSolver:
    """Range-vector CFR on ``game`` (a :class:`~cfrlib.holdem.game.RangeGame`): DCFR by default
    (``alpha = 1.5``, ``beta = 0``, ``gamma = 2``, Brown and Sandholm 2019), CFR with
    ``alpha = beta = inf, gamma = 0``, CFR+ with ``alpha = inf, beta = -inf, gamma = 1``;
    ``schedule="postflop"`` for postflop-solver's DCFR (see the module docstring). Alternating
    updates. Deterministic: no randomness, and the threads (``threads``, default all cores) take
    the cards dealt at the first chance nodes, whose subtrees' tables are disjoint."""

    def __init__(self, game: RangeGame, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0, *,
                 schedule: str = "cfrlib", threads: int | None = None) -> None:
        if not isinstance(game, RangeGame):
            raise SolverError(f"RangeSolver needs a RangeGame, got {game!r}")
        if schedule not in SCHEDULES:
            raise SolverError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")
        self.game = game
        self.rule = RegretMatching(alpha, beta)
        self.gamma = check_exponent(gamma, "gamma", 0.0, math.inf)
        self.schedule = schedule
        self.threads = (os.cpu_count() or 1) if threads is None else check_iterations(threads, "threads")
        if self.threads < 1:
            raise SolverError(f"threads must be at least 1, got {threads!r}")
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None
        self.iteration = 0
        self.seconds = 0.0
        """Wall-clock seconds spent iterating."""
        self.nodes_touched = 0
        """Game-tree nodes visited by the iterations (every node twice an iteration)."""
        tree = game.game_tree
        n = [len(h) for h in game.hands]
        self._nodes = tree.nodes
        self._cards = (game.hands[0], game.hands[1])
        self._half_pot = game.starting_pot / 2.0
        self.regrets = (np.zeros((tree.rows[0], n[0]), np.float32), np.zeros((tree.rows[1], n[1]), np.float32))
        self.sums = (np.zeros((tree.rows[0], n[0]), np.float32), np.zeros((tree.rows[1], n[1]), np.float32))
        self.lock_rows = (np.full(tree.rows[0], -1, np.int64), np.full(tree.rows[1], -1, np.int64))
        self.lock_tables = (np.zeros((1, n[0])), np.zeros((1, n[1])))
        self._folds = tuple(prepare_fold(self._cards[p], self._cards[1 - p], game.deck_size) for p in range(2))
        self._tree = (tree.nodes, self._cards, (game.holds[0], game.holds[1]), self._prepare(), self._half_pot,
                      self._folds)
        self._tables = (self.regrets, self.sums, self.lock_rows, self.lock_tables)
        self._tasks, self._splits = self._cut(n)
        self._shape = self._workspace_shape()
        self._work = workspace(*self._shape)

    def _cut(self, n: list[int]) -> tuple[NDArray[np.int64], list[tuple[Any, ...]]]:
        """The first chance nodes (no chance node above them) and one task a card dealt there:
        ``tasks[t] = (child, slot of the chance node, its number of children)``; per traverser the
        arrays of ``_walk``'s ``split``."""
        nodes = self._nodes
        below_chance = np.zeros(len(nodes), dtype=bool)
        slot = np.full(len(nodes), -1, dtype=np.int64)
        slot_first: list[int] = []
        tasks: list[tuple[int, int, int]] = []
        for i in range(len(nodes)):
            first, count = nodes[i, FIRST], nodes[i, COUNT]
            below_chance[first:first + count] = below_chance[i] or nodes[i, KIND] == CHANCE
            if nodes[i, KIND] == CHANCE and not below_chance[i]:
                slot[i] = len(slot_first)
                slot_first.append(len(tasks))
                tasks.extend((c, int(slot[i]), int(count)) for c in range(first, first + count))
        slots = max(len(slot_first), 1)
        first_task = np.array(slot_first or [0], dtype=np.int64)
        splits = [(0, slot, np.zeros((slots, n[1 - p])), np.zeros((slots, n[p])), first_task,
                   np.zeros((max(len(tasks), 1), n[p]))) for p in range(2)]
        return np.array(tasks, dtype=np.int64).reshape(-1, 3), splits

    def _workspace_shape(self) -> tuple[int, int, int, int]:
        """:func:`workspace`'s arguments: the game tree's depth + 1, the larger range, the most
        actions at a node, and the floats the largest showdown or fold needs."""
        nodes = self._nodes
        depth = np.zeros(len(nodes), dtype=np.int64)
        for i in range(len(nodes)):  # children come after their parent
            depth[nodes[i, FIRST]:nodes[i, FIRST] + nodes[i, COUNT]] = depth[i] + 1
        player = nodes[:, KIND] == PLAYER
        actions = int(nodes[player, COUNT].max()) if player.any() else 1
        scratch = max([self.game.deck_size + 2] + [side[0].shape[1] + 1 + side[3].shape[1] for side in self._tree[3]])
        return int(depth.max()) + 2, max(len(c) for c in self._cards), actions, scratch

    @staticmethod
    def memory_bytes(game: RangeGame) -> int:
        """Bytes of the regret and average tables (float32) that a solver of ``game`` allocates."""
        rows = game.game_tree.rows
        return sum(2 * 4 * rows[p] * len(game.hands[p]) for p in range(2))

    def _prepare(self) -> tuple[tuple[NDArray[np.int32], ...], ...]:
        """Per traverser, :func:`~cfrlib.holdem.showdown.prepare_showdown`'s fields of every river
        board stacked along a first axis (board ``b`` at index ``b``: every board gives each field
        the same shape), so that the pass reads them without a list."""
        game = self.game
        # numba needs the arrays' types even when no showdown exists: a board of ties then
        boards: list[tuple[int, ...] | None] = [*game.game_tree.boards] or [None]
        out: list[list[tuple[Any, ...]]] = [[], []]
        for board in boards:
            if board is None:
                s = [np.zeros(len(game.hands[p]), np.int64) for p in range(2)]
            else:
                s = [np.asarray(game.strengths(board, game.hands[p]), dtype=np.int64) for p in range(2)]
            for p in range(2):
                out[p].append(prepare_showdown(game.hands[p], s[p], game.hands[1 - p], s[1 - p], game.deck_size))
        return tuple(tuple(np.stack(field) for field in zip(*out[p])) for p in range(2))

    def _params(self, t: int) -> FloatArray:
        """(pre-discount of positive and negative regrets, post-discount of both, average decay,
        1 if the average weights ``sigma`` by the player's own reach else 0) for 1-based iteration ``t``."""
        if self.schedule == "postflop":
            t0 = t - 1
            power = 0 if t0 == 0 else 1 << ((t0.bit_length() - 1) & ~1)
            lag = max(t0 - 1, 0) ** 1.5
            decay = ((t0 - power) / (t0 - power + 1.0)) ** 3
            return np.array([lag / (lag + 1.0), 0.5, 1.0, 1.0, decay, 0.0])
        positive, negative = self.rule.discounts(t)
        return np.array([1.0, 1.0, positive, negative, ((t - 1) / t) ** self.gamma, 1.0])

    def _pass(self, p: int, mode: int, params: FloatArray) -> FloatArray:
        """The traverser ``p``'s root values (zero-sum part, weights not normalised)."""
        game = self.game
        out = np.zeros(len(game.hands[p]))
        opp, own = game.weights[1 - p], game.weights[p]
        split = self._splits[p]
        if not len(self._tasks):
            _walk(0, p, mode, opp, own, out, self._tree, self._tables, params, split, self._work)
            return out
        _walk(0, p, mode, opp, own, out, self._tree, self._tables, params, (1,) + split[1:], self._work)
        step = min(self.threads, len(self._tasks))
        jobs = [] if self._pool is None else [
            self._pool.submit(_walk_tasks, p, mode, self._tasks, k, step, self._tree, self._tables, params, split,
                              self._shape) for k in range(1, step)]
        _walk_tasks(p, mode, self._tasks, 0, step, self._tree, self._tables, params, split, self._shape)
        for job in jobs:
            job.result()
        _walk(0, p, mode, opp, own, out, self._tree, self._tables, params, (2,) + split[1:], self._work)
        return out

    def iterate(self, iterations: int = 1) -> RangeSolver:
        """Run ``iterations`` iterations (alternating: OOP's pass, then IP's)."""
        start = time.perf_counter()
        for _ in range(check_iterations(iterations)):
            self.iteration += 1
            params = self._params(self.iteration)
            for p in range(2):
                self._pass(p, UPDATE, params)
        self.seconds += time.perf_counter() - start
        self.nodes_touched += 2 * len(self._nodes) * iterations
        return self

    def run(self, iterations: int, eval_every: int | None = None, *, target_exploitability: float | None = None,
            log: ConvergenceLog | None = None) -> ConvergenceLog:
        """Iterate up to ``iterations`` more times, noting the exploitability (chips) every
        ``eval_every`` iterations (default: once, at the end) in a
        :class:`~cfrlib.solvers.base.ConvergenceLog` (``seconds`` count the iterations alone);
        stop at the first evaluation at or below ``target_exploitability``. Appends to ``log``
        when given, so that a resumed run continues it."""
        n = check_iterations(iterations)
        every = n if eval_every is None else check_iterations(eval_every, "eval_every")
        if every == 0 and n > 0:
            raise SolverError("eval_every must be a positive integer")
        if target_exploitability is not None:
            check_tolerance(target_exploitability, "target_exploitability")
        log = log if log is not None else ConvergenceLog("range-vector DCFR")
        if not log.rows or log.rows[-1][0] != self.iteration:
            log.append(self.iteration, self.nodes_touched, self.seconds, self.exploitability())
        end = self.iteration + n
        while self.iteration < end:
            self.iterate(min(every, end - self.iteration))
            value = self.exploitability()
            log.append(self.iteration, self.nodes_touched, self.seconds, value)
            if target_exploitability is not None and value <= target_exploitability:
                break
        return log

    def _root_value(self, p: int, mode: int) -> float:
        """Player ``p``'s expected payoff (starting pot included) in ``mode``."""
        values = self._pass(p, mode, self._params(max(self.iteration, 1)))
        return float(self.game.weights[p] @ values) / self.game.pair_weight + self._half_pot

    def best_response_value(self, p: int) -> float:
        """What player ``p`` gets by best-responding to the other's average strategy."""
        return self._root_value(p, BEST_RESPONSE)

    def game_value(self, p: int = 0) -> float:
        """Player ``p``'s expected payoff when both play their average strategies."""
        return self._root_value(p, AVERAGE)

    def exploitability(self) -> float:
        """``(BR_0 + BR_1 - starting pot) / 2`` in chips, NashConv / 2."""
        return (self.best_response_value(0) + self.best_response_value(1) - self.game.starting_pot) / 2.0

    def exploitability_percent(self) -> float:
        """The exploitability in % of the starting pot."""
        return 100.0 * self.exploitability() / self.game.starting_pot

    def save(self, path: str | Path) -> None:
        """The tables, the locks and the iteration count, as ``.npz``."""
        arrays = {f"{name}{p}": getattr(self, name)[p] for name in ("regrets", "sums", "lock_rows", "lock_tables")
                  for p in range(2)}
        np.savez(path, iteration=self.iteration, **arrays)

    def load(self, path: str | Path) -> RangeSolver:
        """Restore what :meth:`save` wrote (the solver must be of the same game)."""
        with np.load(path) as data:
            for p in range(2):
                for name in ("regrets", "sums", "lock_rows"):
                    mine, saved = getattr(self, name)[p], data[f"{name}{p}"]
                    if saved.shape != mine.shape:
                        raise SolverError(f"{path} holds tables of another game ({name}{p} has shape "
                                          f"{saved.shape}, this game's {mine.shape})")
                    mine[...] = saved
            self.lock_tables = (data["lock_tables0"], data["lock_tables1"])
            self.iteration = int(data["iteration"])
        self._tables = (self.regrets, self.sums, self.lock_rows, self.lock_tables)
        return self

    # Queries: a node is named by its path from the root, actions as printed ("Bet(120)",
    # "Call") and dealt cards as ints.

    def node_index(self, path: list[str | int] | tuple[str | int, ...] = ()) -> int:
        """The game-tree node reached by ``path``."""
        nodes, public = self._nodes, self.game.game_tree.public
        i = 0
        for step in path:
            first, count = nodes[i, FIRST], nodes[i, COUNT]
            if nodes[i, KIND] == CHANCE:
                cards = list(nodes[first:first + count, CARD])
                if step not in cards:
                    raise SpotError(f"after {list(path)[:list(path).index(step)]}: card {step!r} cannot be dealt")
                i = first + cards.index(step)
            elif nodes[i, KIND] == PLAYER:
                names = [repr(a) for a in public[i].actions]
                if step not in names:
                    raise SpotError(f"no action {step!r} at {list(path)[:list(path).index(step)]}; "
                                    f"the actions are {names}")
                i = first + names.index(step)
            else:
                raise SpotError(f"the path {list(path)} goes past a terminal")
        return i

    def _player_node(self, path: list[str | int] | tuple[str | int, ...]) -> tuple[int, PublicNode]:
        i = self.node_index(path)
        if self._nodes[i, KIND] != PLAYER:
            raise SpotError(f"the node at {list(path)} is not a player's")
        return i, self.game.game_tree.public[i]

    def actions(self, path: list[str | int] | tuple[str | int, ...] = ()) -> list[str]:
        """The actions at the player node ``path``, as printed."""
        return [repr(a) for a in self._player_node(path)[1].actions]

    def strategy(self, path: list[str | int] | tuple[str | int, ...] = ()) -> FloatArray:
        """The average strategy at the player node ``path``: (actions, hands of the acting player)."""
        i, node = self._player_node(path)
        q = node.player
        out = np.empty((len(node.actions), len(self.game.hands[q])))
        _strategy(self.regrets[q], self.sums[q], self.lock_rows[q], self.lock_tables[q], self._nodes[i, ROW],
                  len(node.actions), True, out, np.empty(out.shape[1]))
        return out

    def lock(self, path: list[str | int] | tuple[str | int, ...], strategy: FloatArray,
             hands: NDArray[np.int64] | None = None) -> None:
        """Fix the acting player's strategy at ``path``: ``strategy`` is (actions, hands) for the
        hands ``hands`` (indices into the player's kept hands; all when None). The solver then
        plays it there and best-responds to it elsewhere."""
        i, node = self._player_node(path)
        q = node.player
        chosen = np.arange(len(self.game.hands[q])) if hands is None else np.asarray(hands, dtype=np.int64)
        probs = np.asarray(strategy, dtype=np.float64)
        if probs.shape != (len(node.actions), len(chosen)):
            raise SpotError(f"a lock at {list(path)} needs a ({len(node.actions)}, {len(chosen)}) array "
                            f"(actions, hands), got shape {probs.shape}")
        if np.any(probs < 0) or not np.allclose(probs.sum(axis=0), 1.0, atol=1e-9):
            raise SpotError(f"a lock at {list(path)} must give each hand probabilities summing to 1")
        row, k = self._nodes[i, ROW], len(node.actions)
        rows, table = self.lock_rows[q], self.lock_tables[q]
        if rows[row] < 0:  # the node's first lock: k new rows, every hand free
            rows[row:row + k] = len(table) + np.arange(k)
            table = np.concatenate([table, np.full((k, table.shape[1]), np.nan)])
        table[rows[row:row + k][:, None], chosen[None, :]] = probs
        self.lock_tables = (table, self.lock_tables[1]) if q == 0 else (self.lock_tables[0], table)
        self._tables = (self.regrets, self.sums, self.lock_rows, self.lock_tables)

    def _reaches(self, path: list[str | int] | tuple[str | int, ...]) -> tuple[int, list[FloatArray]]:
        """The node at ``path`` and both players' reach vectors there (average strategies; weights
        times the probabilities of their own actions, hands holding a dealt card at 0)."""
        reach = [w.copy() for w in self.game.weights]
        i = 0
        for k in range(len(path) + 1):
            if k == len(path):
                return i, reach
            j = self.node_index(path[:k + 1])
            if self._nodes[i, KIND] == PLAYER:
                q = self._nodes[i, ACTOR]
                reach[q] = reach[q] * self.strategy(path[:k])[j - self._nodes[i, FIRST]]
            elif self._nodes[i, KIND] == CHANCE:
                for p in range(2):
                    reach[p][self.game.holds[p][self._nodes[j, CARD]]] = 0.0
            i = j
        return i, reach

    def _unblocked(self, p: int, opp_reach: FloatArray) -> FloatArray:
        """For each hand of ``p``, the opponent's reach over hands sharing no card with it."""
        out = np.empty(len(self.game.hands[p]))
        fold_values(self._folds[p], opp_reach, 1.0, out)
        return out

    def hand_values(self, p: int, path: list[str | int] | tuple[str | int, ...] = ()) -> FloatArray:
        """Each hand's expected payoff for ``p`` at ``path`` when both play their average strategies
        from there, starting pot included (NaN for hands that cannot be there)."""
        i, reach = self._reaches(path)
        out = np.zeros(len(self.game.hands[p]))
        _walk(i, p, AVERAGE, reach[1 - p], reach[p], out, self._tree, self._tables, self._params(1), self._splits[p],
              self._work)
        mass = self._unblocked(p, reach[1 - p])
        mass[np.isin(self._cards[p], self.game.game_tree.board_at[i]).any(axis=1)] = 0.0
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(mass > 0, out / mass + self._half_pot, np.nan)

    def equity(self, p: int, path: list[str | int] | tuple[str | int, ...] = ()) -> FloatArray:
        """Each hand's share of the pot at a showdown against the opponent's hands that reach
        ``path``, averaged over the cards still to come (ties count half)."""
        i, reach = self._reaches(path)
        game = self.game
        board = game.game_tree.board_at[i]
        rest = [c for c in range(game.deck_size) if c not in board]
        missing = game.board_size - len(board)
        won = np.zeros(len(game.hands[p]))
        mass = np.zeros(len(game.hands[p]))
        scratch = np.empty(len(game.hands[p]))
        for runout in combinations(rest, missing):
            full = tuple(sorted(board + runout))
            opp = reach[1 - p].copy()
            mine = ~np.isin(game.hands[p], board).any(axis=1)
            for c in runout:
                opp[game.holds[1 - p][c]] = 0.0
                mine &= ~game.holds[p][c]
            s = [np.asarray(game.strengths(full, game.hands[q]), dtype=np.int64) for q in (p, 1 - p)]
            prepared = prepare_showdown(game.hands[p], s[0], game.hands[1 - p], s[1], game.deck_size)
            showdown_values(prepared, opp, 0.5, scratch)
            total = self._unblocked(p, opp)
            won += np.where(mine, scratch + 0.5 * total, 0.0)
            mass += np.where(mine, total, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(mass > 0, won / mass, np.nan)

    def grid(self, path: list[str | int] | tuple[str | int, ...] = ()) -> tuple[FloatArray, FloatArray]:
        """The acting player's strategy at ``path`` on the 13x13 grid of hold'em hand classes:
        ``(mix, weight)`` with ``mix[a, r, c]`` the frequency of action ``a`` over the class's hands
        weighted by how often each reaches the node, and ``weight[r, c]`` that reach. Rows and
        columns run A, K, ..., 2; pairs on the diagonal, suited hands above it (row = the higher
        card), offsuit below."""
        if self.game.cards_per_hand != 2 or self.game.deck_size != 52:
            raise SpotError("the 13x13 grid is for hold'em hands (two cards of a 52-card deck)")
        i, reach = self._reaches(path)
        q = int(self._nodes[i, ACTOR])
        hands = self.game.hands[q]
        ranks, suits = hands // 4, hands % 4
        high, low = 12 - ranks.max(axis=1), 12 - ranks.min(axis=1)
        suited = suits[:, 0] == suits[:, 1]
        rows, cols = np.where(suited, high, low), np.where(suited, low, high)
        live = reach[q] * ~np.isin(hands, self.game.game_tree.board_at[i]).any(axis=1)
        probs = self.strategy(path)
        weight = np.zeros((13, 13))
        np.add.at(weight, (rows, cols), live)
        mix = np.zeros((len(probs), 13, 13))
        for a in range(len(probs)):
            np.add.at(mix[a], (rows, cols), live * probs[a])
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(weight > 0, mix / weight, np.nan), weight
