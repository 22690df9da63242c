"""The sampling walks on the compiled tree, compiled to machine code by numba.

A sampling iteration visits a few dozen nodes one at a time: numpy's vectorisation does not
apply (a numpy call per node costs more than the work), and a Python loop costs about a
microsecond a node. These functions are the textbook recursions of
``cfrlib.textbook.sampling`` over the arrays of a ``KernelTree``, with the same arithmetic in
the same order, so that with the same draws they give the same numbers, bit for bit.

Draws: one uniform per sampled node, in traversal order, from ``rng`` (the solver's
``numpy.random.Generator``: numba draws from its bit generator exactly what ``rng.random()``
would) after the ``pending`` draws restored from a save file (``pending[:count[0]]``, next draw
last). ``cache=True`` keeps the machine code on disk (numba's ``__pycache__`` next to this file,
or its user-wide fallback when the package directory is read-only), so only the first import on
a machine pays the compile.

Tables (``num_infosets x max_actions``, zero beyond an infoset's ``num_actions[I]`` legal
actions): ``regret`` ``R^T(I, a)``, ``strategy_sum`` ``S(I, a)`` and ``sigma``, regret matching on
``regret`` kept up to date after every regret update.
"""

from __future__ import annotations

import os
import tempfile
from itertools import accumulate
from pathlib import Path
from typing import NamedTuple
from weakref import WeakKeyDictionary

import numba
import numpy as np
from numba import njit
from numba.misc.appdirs import AppDirs

from ...game import CHANCE, TERMINAL

_CACHE: WeakKeyDictionary = WeakKeyDictionary()


def _writable(folder) -> bool:
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return True
    except OSError:
        return False


def cache_fallback() -> str | None:
    """Where numba's cache goes when neither of its own places is writable: numba writes next
    to the source (``__pycache__``), else into the user's cache directory, and refuses to load
    a ``cache=True`` function when both are read-only; then (and unless ``NUMBA_CACHE_DIR`` says
    otherwise) this module points numba at a folder of the temporary directory."""
    if numba.config.CACHE_DIR or _writable(Path(__file__).parent / "__pycache__"):
        return None
    if _writable(AppDirs(appname="numba", appauthor=False).user_cache_dir):
        return None
    return os.path.join(tempfile.gettempdir(), "cfrlib-numba-cache")


if (_FALLBACK := cache_fallback()) is not None:
    numba.config.CACHE_DIR = _FALLBACK


class KernelTree(NamedTuple):
    """Per node: ``player``, ``infoset``, ``first_child``, ``utility`` (``2 x num_nodes``: each
    player's payoff at terminals), ``chance_prob`` (of the edge into the node), ``chance_cum``
    (running sum of the chance probabilities of the node and its elder siblings) and
    ``chance_last`` (at a chance node, its last child of positive probability, picked by a
    uniform beyond a rounded-down total). Per infoset: ``num_actions``. ``depth``: the number of
    levels."""

    player: np.ndarray
    infoset: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    utility: np.ndarray
    chance_prob: np.ndarray
    chance_cum: np.ndarray
    chance_last: np.ndarray
    num_actions: np.ndarray
    depth: int


def kernel_tree(tree) -> KernelTree:
    """The ``KernelTree`` of ``tree``, built once and cached while the tree lives."""
    found = _CACHE.get(tree)
    if found is None:
        cum = np.zeros(tree.num_nodes)
        last = np.full(tree.num_nodes, -1, dtype=np.int64)
        probs = tree.chance_prob.tolist()
        for n in np.flatnonzero(tree.player == CHANCE).tolist():
            f, k = int(tree.first_child[n]), int(tree.num_children[n])
            edge = probs[f:f + k]
            cum[f:f + k] = list(accumulate(edge))       # the textbook's running sum, exactly
            last[n] = max(a for a, q in enumerate(edge) if q > 0.0)
        found = _CACHE[tree] = KernelTree(
            tree.player.astype(np.int64), tree.infoset.astype(np.int64),
            tree.first_child.astype(np.int64), tree.num_children.astype(np.int64),
            np.stack([tree.payoff, tree.constant_sum - tree.payoff]).astype(np.float64),
            tree.chance_prob.astype(np.float64), cum, last,
            tree.infoset_num_actions.astype(np.int64), int(tree.depth.max()) + 1)
    return found


@njit(cache=True)
def regret_match(regret, sigma, I, k):
    """``sigma(I, a) = R+(I, a) / sum_b R+(I, b)``, uniform when no regret is positive (the
    textbook's ``regret_matching``, summed left to right as Python's ``sum`` does)."""
    total = 0.0
    for a in range(k):
        if regret[I, a] > 0.0:
            total += regret[I, a]
    if total > 0.0:
        for a in range(k):
            r = regret[I, a]
            sigma[I, a] = (r if r > 0.0 else 0.0) / total
    else:
        for a in range(k):
            sigma[I, a] = 1.0 / k


@njit(cache=True)
def draw(rng, pending, count):
    """The next uniform: the restored ``pending`` draws first (last first), then ``rng``."""
    if count[0] > 0:
        count[0] -= 1
        return pending[count[0]]
    return rng.random()


@njit(cache=True)
def chance_child(t, n, u):
    """The child of chance node ``n`` that ``u`` picks: the first whose running sum exceeds
    ``u``, or the last of positive probability."""
    f = t.first_child[n]
    for a in range(t.num_children[n]):
        if u < t.chance_cum[f + a]:
            return f + a
    return f + t.chance_last[n]


@njit(cache=True)
def pick(probs, I, k, u):
    """The action ``a`` of ``probs[I]`` with ``sum_{b<a} p_b <= u < sum_{b<=a} p_b`` (the last
    of positive probability beyond the total)."""
    total = 0.0
    for a in range(k):
        total += probs[I, a]
        if u < total:
            return a
    for a in range(k - 1, -1, -1):
        if probs[I, a] > 0.0:
            return a
    return 0


# ------------------------------------------------------------------------ chance sampling
@njit(cache=True)
def _cs_walk(t, n, r0, r1, updating, regret, strategy_sum, sigma, work, level,
             rng, pending, count, touched):
    touched[0] += 1
    p = t.player[n]
    if p == TERMINAL:
        return t.utility[0, n]
    if p == CHANCE:
        child = chance_child(t, n, draw(rng, pending, count))
        return _cs_walk(t, child, r0, r1, updating, regret, strategy_sum, sigma, work,
                        level, rng, pending, count, touched)
    if r0 == 0.0 and r1 == 0.0:
        return 0.0
    I = t.infoset[n]
    k = t.num_actions[I]
    f = t.first_child[n]
    q = work[level]
    for a in range(k):
        s = sigma[I, a]
        if p == 0:
            q[a] = _cs_walk(t, f + a, r0 * s, r1, updating, regret, strategy_sum, sigma,
                            work, level + 1, rng, pending, count, touched)
        else:
            q[a] = _cs_walk(t, f + a, r0, r1 * s, updating, regret, strategy_sum, sigma,
                            work, level + 1, rng, pending, count, touched)
    v = 0.0
    for a in range(k):
        v += sigma[I, a] * q[a]
    if updating == p or updating == 2:
        for a in range(k):
            if p == 0:
                regret[I, a] += r1 * (q[a] - v)
                strategy_sum[I, a] += r0 * sigma[I, a]
            else:
                regret[I, a] += r0 * (v - q[a])
                strategy_sum[I, a] += r1 * sigma[I, a]
        regret_match(regret, sigma, I, k)
    return v


@njit(cache=True)
def chance_sampling(t, iterations, alternating, regret, strategy_sum, sigma, rng, pending, count):
    """``iterations`` iterations of chance-sampled CFR (``cfrlib.textbook.sampling.
    chance_sampling_cfr``): a walk for player 0 then one for player 1, or one walk for both
    when not ``alternating``. Returns the number of nodes touched."""
    touched = np.zeros(1, dtype=np.int64)
    work = np.zeros((t.depth, regret.shape[1]))
    root, level = np.int64(0), np.int64(0)
    schedule = np.array([0, 1]) if alternating else np.array([2])
    for _ in range(iterations):
        for updating in schedule:
            _cs_walk(t, root, 1.0, 1.0, updating, regret, strategy_sum, sigma, work, level,
                     rng, pending, count, touched)
    return touched[0]


# ---------------------------------------------------------------------- external sampling
@njit(cache=True)
def _es_walk(t, n, i, regret, strategy_sum, sigma, work, level, rng, pending, count, touched):
    touched[0] += 1
    p = t.player[n]
    if p == i:
        I = t.infoset[n]
        k = t.num_actions[I]
        f = t.first_child[n]
        q = work[level]
        for a in range(k):
            q[a] = _es_walk(t, f + a, i, regret, strategy_sum, sigma, work, level + 1,
                            rng, pending, count, touched)
        v = 0.0
        for a in range(k):
            v += sigma[I, a] * q[a]
        for a in range(k):
            regret[I, a] += q[a] - v
        regret_match(regret, sigma, I, k)
        return v
    if p == TERMINAL:
        return t.utility[i, n]
    u = draw(rng, pending, count)
    if p == CHANCE:
        return _es_walk(t, chance_child(t, n, u), i, regret, strategy_sum, sigma, work,
                        level + 1, rng, pending, count, touched)
    I = t.infoset[n]
    k = t.num_actions[I]
    for a in range(k):
        strategy_sum[I, a] += sigma[I, a]
    return _es_walk(t, t.first_child[n] + pick(sigma, I, k, u), i, regret, strategy_sum, sigma,
                    work, level + 1, rng, pending, count, touched)


@njit(cache=True)
def external_sampling(t, iterations, regret, strategy_sum, sigma, rng, pending, count):
    """``iterations`` iterations of external-sampling MCCFR (``cfrlib.textbook.sampling.
    external_sampling``), a walk for player 0 then one for player 1. Returns the number of
    nodes touched."""
    touched = np.zeros(1, dtype=np.int64)
    work = np.zeros((t.depth, regret.shape[1]))
    root, level = np.int64(0), np.int64(0)
    for _ in range(iterations):
        for i in range(2):
            _es_walk(t, root, np.int64(i), regret, strategy_sum, sigma, work, level,
                     rng, pending, count, touched)
    return touched[0]


# ----------------------------------------------------------------------- outcome sampling
@njit(cache=True)
def _os_walk(t, i, epsilon, regret, strategy_sum, sigma, xi, path_infoset, path_action,
             path_xi, path_w, rng, pending, count):
    """One trajectory for player ``i``: down the sampled path in a loop, then the regret
    updates back up it. Returns the number of nodes touched."""
    n, pi_o, q, touched, depth = 0, 1.0, 1.0, 0, 0
    keep = 1.0 - epsilon
    while True:
        touched += 1
        p = t.player[n]
        if p == TERMINAL:
            break
        u = draw(rng, pending, count)
        if p == CHANCE:
            n = chance_child(t, n, u)
            pr = t.chance_prob[n]
            pi_o *= pr
            q *= pr
            continue
        I = t.infoset[n]
        k = t.num_actions[I]
        w = pi_o / q
        if p == i:
            e = epsilon / k
            for b in range(k):
                xi[0, b] = e + keep * sigma[I, b]
            a = pick(xi, 0, k, u)
            path_infoset[depth], path_action[depth] = I, a
            path_xi[depth], path_w[depth] = xi[0, a], w
            depth += 1
            q *= xi[0, a]
        else:
            for b in range(k):
                strategy_sum[I, b] += w * sigma[I, b]
            a = pick(sigma, I, k, u)
            pi_o *= sigma[I, a]
            q *= sigma[I, a]
        n = t.first_child[n] + a
    v = t.utility[i, n]
    for d in range(depth - 1, -1, -1):
        I, a, w = path_infoset[d], path_action[d], path_w[d]
        k = t.num_actions[I]
        c = v / path_xi[d]
        v = sigma[I, a] * c
        for b in range(k):
            regret[I, b] += w * ((c if b == a else 0.0) - v)
        regret_match(regret, sigma, I, k)
    return touched


@njit(cache=True)
def outcome_sampling(t, iterations, epsilon, regret, strategy_sum, sigma, rng, pending, count):
    """``iterations`` iterations of outcome-sampling MCCFR (``cfrlib.textbook.sampling.
    outcome_sampling``), a trajectory for player 0 then one for player 1, the traverser
    exploring with ``epsilon``. Returns the number of nodes touched."""
    xi = np.zeros((1, regret.shape[1]))
    path_infoset = np.zeros(t.depth, dtype=np.int64)
    path_action = np.zeros(t.depth, dtype=np.int64)
    path_xi, path_w = np.zeros(t.depth), np.zeros(t.depth)
    touched = 0
    for _ in range(iterations):
        for i in range(2):
            touched += _os_walk(t, i, epsilon, regret, strategy_sum, sigma, xi, path_infoset,
                                path_action, path_xi, path_w, rng, pending, count)
    return touched
