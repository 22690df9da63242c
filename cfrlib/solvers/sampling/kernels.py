"""The sampling walks on the compiled tree, compiled to machine code by numba.

A sampling iteration visits a few dozen nodes one at a time: numpy's vectorisation does not
apply (a numpy call per node costs more than the work), and a Python loop costs about a
microsecond a node. These functions are the textbook recursions of
``cfrlib.textbook.sampling`` over the arrays of a ``KernelTree``, with the same arithmetic in
the same order, so that with the same draws they give the same numbers, bit for bit.

Draws: one uniform per sampled node, in traversal order, from ``rng`` (the solver's
``numpy.random.Generator``: numba draws from its bit generator exactly what ``rng.random()``
would) after the ``pending`` draws restored from a save file (``pending[:count[0]]``, next draw
last). ``cache=True`` keeps the machine code on disk (``NUMBA_CACHE_DIR`` when set, else the
``__pycache__`` next to this file, else numba's user-wide cache, else ``cache_fallback``), so only
the first use on a machine pays the compile (some seconds); later processes load it.
``nogil=True`` lets the interpreter's other threads run during a walk: a Dask client's
communication thread in the same process, for one, which otherwise gets the interpreter lock only
between two compiled calls (a solver's batch, up to 1,000 iterations) at every step of its work,
and so falls behind and delays the next distributed round (Bluff 1x1: 0.11-0.18 s of fixed cost a
round with the lock held, about 0.08 s without).

Tables (``num_infosets x max_actions``, zero beyond an infoset's ``num_actions[I]`` legal
actions): ``regret`` ``R(I, a)``, ``strategy_sum`` ``S(I, a)`` and ``sigma``, regret matching on
``regret`` kept up to date after every regret update.

The local rule is data, not code: every walk takes a ``Rule`` (how positive and negative
regrets are discounted each iteration) and its ``Lazy`` state, and calls ``settle`` on an
infoset's row before adding to it (RM+, whose only discount is the floor at zero, is applied
at once instead: ``clip`` after the row's update). Discounting applies to every infoset at every iteration,
sampled or not, as in the full-width engine: with ``r~^t(I, a)`` the sampled regret of
iteration ``t`` (zero where ``I`` was not sampled),

    ``R^t(I, a) = d_t(R^{t-1}(I, a) + r~^t(I, a))``,
    ``d_t(x) = x t^alpha / (t^alpha + 1)`` if ``x >= 0``, ``x t^beta / (t^beta + 1)`` if ``x < 0``

(``alpha = inf``/``beta = inf``: factor 1, ``beta = -inf``: factor 0, RM+). An infoset left
alone from iteration ``tau`` to ``t - 1`` only needs the product of those factors, and a
positive factor keeps a regret's sign, so the row is brought up to date when next touched
(lazily): ``R <- R prod_{s=tau}^{t-1} f_s = R P(t-1) / P(tau-1)`` with ``P(t) = prod_{s<=t} f_s``
(the factors of the sign of ``R``); the factor itself when ``tau = t - 1``. ``P`` only falls
(``f = 1/2`` every iteration when ``beta = 0``), so it is kept in a frame that is multiplied by
``2^512`` whenever ``P`` drops below ``2^-512``, the marks ``P(tau - 1)`` with it: scaling by a
power of two is exact, so every ratio is what it would be without the frame (a mark pushed past
the largest float is infinite, and its ratio, below ``2^-1000``, zero). Regret matching ignores a
positive factor common to the positive regrets, so the strategies are those of discounting every
row every iteration; only the stored numbers lag (``settled`` gives them as of now). The default rule (``alpha = beta =
inf``) skips all of this, and the walk is plain regret matching, bit for bit.
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
from numpy.typing import NDArray

from ...game import CHANCE, TERMINAL
from ...tree import Tree

KEEP, ZERO, DISCOUNT = 0, 1, 2
"""What a ``Rule`` does to regrets of one sign at the end of an iteration: keep them (exponent
``inf``), reset them to 0 (``-inf``), or multiply them by ``s^e / (s^e + 1)``."""

_CACHE: WeakKeyDictionary[Tree, KernelTree] = WeakKeyDictionary()


def _writable(folder: str | os.PathLike[str]) -> bool:
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
    if numba.config.CACHE_DIR or _writable(Path(__file__).parent / "__pycache__"):  # type: ignore[attr-defined]
        return None
    if _writable(AppDirs(appname="numba", appauthor=False).user_cache_dir):
        return None
    return os.path.join(tempfile.gettempdir(), "cfrlib-numba-cache")


if (_FALLBACK := cache_fallback()) is not None:
    numba.config.CACHE_DIR = _FALLBACK  # type: ignore[attr-defined]


class KernelTree(NamedTuple):
    """Per node: ``player``, ``infoset``, ``first_child``, ``num_children``, ``utility`` (``2 x num_nodes``: each
    player's payoff at terminals), ``chance_prob`` (of the edge into the node), ``chance_cum``
    (running sum of the chance probabilities of the node and its elder siblings) and
    ``chance_last`` (at a chance node, its last child of positive probability, picked by a
    uniform beyond a rounded-down total). Per infoset: ``num_actions``. ``depth``: the number of
    levels."""

    player: NDArray[np.int64]
    infoset: NDArray[np.int64]
    first_child: NDArray[np.int64]
    num_children: NDArray[np.int64]
    utility: NDArray[np.float64]
    chance_prob: NDArray[np.float64]
    chance_cum: NDArray[np.float64]
    chance_last: NDArray[np.int64]
    num_actions: NDArray[np.int64]
    depth: int


def kernel_tree(tree: Tree) -> KernelTree:
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


class Rule(NamedTuple):
    """The discounts of a local rule: ``positive`` and ``negative`` (``KEEP``, ``ZERO`` or
    ``DISCOUNT``) for regrets ``>= 0`` and ``< 0``, their exponents ``alpha`` and ``beta``;
    ``clips`` for RM+ (``KEEP`` and ``ZERO``: negative regrets set to 0 as each row is updated,
    :func:`clip`) and ``discounts`` for every other rule but plain regret matching (the lazy
    discounts of :func:`settle`)."""

    discounts: bool
    clips: bool
    positive: int
    negative: int
    alpha: float
    beta: float


class Lazy(NamedTuple):
    """The state of lazy discounting: per infoset ``stamp`` (``tau(I)``, the last iteration that
    touched its row, 0 for none) and ``mark`` (``P_+(tau - 1)`` and ``P_-(tau - 1)``); ``now`` is
    ``[P_+(t - 1), P_-(t - 1), f_+(t - 1), f_-(t - 1)]`` in iteration ``t`` (``P`` in the
    rescaled frame of the module docstring)."""

    stamp: NDArray[np.int64]
    mark: NDArray[np.float64]
    now: NDArray[np.float64]


RESCALE = 2.0 ** 512
"""The factor of the frame of ``P`` (see the module docstring)."""


@njit(cache=True, nogil=True, inline="always")
def advance(rule, lazy, t):
    """Enter iteration ``t``: multiply ``P`` in ``lazy.now`` by iteration ``t - 1``'s factors
    ``f = 1 / (1 + s^-e) = s^e / (s^e + 1)``, rescaling the frame when ``P`` gets small."""
    if t < 2:
        return
    s = float(t - 1)
    now = lazy.now
    for j in range(2):
        if (rule.positive if j == 0 else rule.negative) == DISCOUNT:
            f = 1.0 / (1.0 + s ** -(rule.alpha if j == 0 else rule.beta))
            now[2 + j] = f
            now[j] *= f
            if 0.0 < now[j] < 1.0 / RESCALE:
                now[j] *= RESCALE
                for I in range(lazy.mark.shape[0]):
                    lazy.mark[I, j] *= RESCALE


@njit(cache=True, nogil=True, inline="always")
def _carried(mode, lazy, I, j, tau, t):
    """The product of the factors of iterations ``tau`` to ``t - 1`` for sign ``j``."""
    if mode == KEEP:
        return 1.0
    if mode == ZERO:
        return 0.0
    if tau == t - 1:
        return lazy.now[2 + j]
    before = lazy.mark[I, j]
    if before == 0.0:                     # a factor 0 before tau: the later ones are 0 too
        return 0.0
    return lazy.now[j] / before


@njit(cache=True, nogil=True, inline="always")
def settle(rule, lazy, regret, I, k, t):
    """Bring the row ``R(I, .)`` to the start of iteration ``t`` (the discounts it missed since
    ``tau(I)``, see the module docstring) before iteration ``t`` adds to it; nothing for a rule
    without discounts."""
    if not rule.discounts:
        return
    tau = lazy.stamp[I]
    if tau == t:
        return
    if tau > 0:
        up = _carried(rule.positive, lazy, I, 0, tau, t)
        down = _carried(rule.negative, lazy, I, 1, tau, t)
        for b in range(k):
            r = regret[I, b]
            regret[I, b] = r * (up if r >= 0.0 else down)
    lazy.stamp[I] = t
    lazy.mark[I, 0] = lazy.now[0]
    lazy.mark[I, 1] = lazy.now[1]


@njit(cache=True, nogil=True, inline="always")
def clip(rule, regret, I, k):
    """RM+: ``R(I, a) <- max(R(I, a), 0)`` right after the row's update, which is what the lazy
    factor 0 of :func:`settle` would do when the row is next touched, without its bookkeeping."""
    if rule.clips:
        for b in range(k):
            if regret[I, b] < 0.0:
                regret[I, b] = 0.0


@njit(cache=True, nogil=True)
def settled(rule, lazy, regret, num_actions, t):
    """``R^t`` after ``t`` iterations: a copy of ``regret`` with every row brought up to date
    (``lazy`` and ``regret`` are left as they are)."""
    out = regret.copy()
    if rule.discounts:
        ahead = Lazy(lazy.stamp.copy(), lazy.mark.copy(), lazy.now.copy())
        advance(rule, ahead, t + 1)
        for I in range(num_actions.shape[0]):
            settle(rule, ahead, out, I, num_actions[I], t + 1)
    return out


@njit(cache=True, nogil=True)
def regret_match(regret, sigma, I, k):
    """``sigma(I, a) = R+(I, a) / sum_b R+(I, b)``, uniform when no regret is positive: the numba
    form of regret matching (``cfrlib.textbook.regret_matching.regret_matching`` on one row,
    summed left to right as Python's ``sum`` does; ARCHITECTURE.md, "One primitive per idea")."""
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


@njit(cache=True, nogil=True)
def regret_match_all(regret, sigma, num_actions):
    """``regret_match`` at every infoset (after restoring ``regret``)."""
    for I in range(num_actions.shape[0]):
        regret_match(regret, sigma, I, num_actions[I])


@njit(cache=True, nogil=True)
def draw(rng, pending, count):
    """The next uniform: the restored ``pending`` draws first (last first), then ``rng``."""
    if count[0] > 0:
        count[0] -= 1
        return pending[count[0]]
    return rng.random()


@njit(cache=True, nogil=True)
def chance_child(t, n, u):
    """The child of chance node ``n`` that ``u`` picks: the first whose running sum exceeds
    ``u``, or the last of positive probability."""
    f = t.first_child[n]
    for a in range(t.num_children[n]):
        if u < t.chance_cum[f + a]:
            return f + a
    return f + t.chance_last[n]


@njit(cache=True, nogil=True)
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
@njit(cache=True, nogil=True, inline="always")
def _cs_walk(t, updating, regret, strategy_sum, sigma, stack, rng, pending, count, rule, lazy,
             iteration):
    """One traversal of ``chance_sampling_cfr`` updating player ``updating`` (2: both), the
    recursion unrolled: going down, every decision node not pruned pushes a frame (``stack.node``,
    the action being walked ``stack.action``, the reaches ``stack.reach`` ``(pi_0, pi_1)`` of
    the node and the values ``stack.q`` of the children done); chance nodes pass their child's
    value up unchanged. Returns the number of nodes touched."""
    touched, depth, n, r0, r1 = 0, 0, 0, 1.0, 1.0
    while True:
        while True:                                             # down to a value
            touched += 1
            p = t.player[n]
            if p == TERMINAL:
                v = t.utility[0, n]
                break
            if p == CHANCE:
                n = chance_child(t, n, draw(rng, pending, count))
                continue
            if r0 == 0.0 and r1 == 0.0:
                v = 0.0
                break
            stack.node[depth], stack.action[depth] = n, 0
            stack.reach[depth, 0], stack.reach[depth, 1] = r0, r1
            depth += 1
            if p == 0:
                r0 = r0 * sigma[t.infoset[n], 0]
            else:
                r1 = r1 * sigma[t.infoset[n], 0]
            n = t.first_child[n]
        while depth > 0:                                        # up, finishing nodes
            d = depth - 1
            m, a = stack.node[d], stack.action[d]
            I, p = t.infoset[m], t.player[m]
            k = t.num_actions[I]
            stack.q[d, a] = v
            r0, r1 = stack.reach[d, 0], stack.reach[d, 1]
            if a + 1 < k:                                       # next child of m
                stack.action[d] = a + 1
                if p == 0:
                    r0 = r0 * sigma[I, a + 1]
                else:
                    r1 = r1 * sigma[I, a + 1]
                n = t.first_child[m] + a + 1
                break
            v = 0.0
            for b in range(k):
                v += sigma[I, b] * stack.q[d, b]
            if updating == p or updating == 2:
                if rule.discounts:
                    settle(rule, lazy, regret, I, k, iteration)
                for b in range(k):
                    if p == 0:
                        regret[I, b] += r1 * (stack.q[d, b] - v)
                        strategy_sum[I, b] += r0 * sigma[I, b]
                    else:
                        regret[I, b] += r0 * (v - stack.q[d, b])
                        strategy_sum[I, b] += r1 * sigma[I, b]
                clip(rule, regret, I, k)
                regret_match(regret, sigma, I, k)
            depth -= 1
        if depth == 0:
            return touched


@njit(cache=True, nogil=True)
def chance_sampling(t, done, iterations, alternating, regret, strategy_sum, sigma, rng, pending,
                    count, rule, lazy):
    """Iterations ``done + 1`` to ``done + iterations`` of chance-sampled CFR, as in
    ``cfrlib.textbook.sampling.chance_sampling_cfr``: a walk for player 0 then one for player 1,
    or one walk for both when not ``alternating``. Returns the number of nodes touched."""
    stack = _stack(t.depth, regret.shape[1])
    touched = 0
    first, last = (0, 1) if alternating else (2, 2)      # the updating players, 2 for both
    for it in range(done + 1, done + iterations + 1):
        if rule.discounts:
            advance(rule, lazy, it)
        for updating in range(first, last + 1):
            touched += _cs_walk(t, updating, regret, strategy_sum, sigma, stack, rng, pending,
                                count, rule, lazy, it)
    return touched


class Stack(NamedTuple):
    """The frames of an unrolled recursion, one per level: ``node``, ``action`` (the child being
    walked), ``reach`` (``pi_0, pi_1``) and ``q`` (the values of the children done)."""

    node: np.ndarray
    action: np.ndarray
    reach: np.ndarray
    q: np.ndarray


@njit(cache=True, nogil=True)
def _stack(depth, width):
    return Stack(np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
                 np.zeros((depth, 2)), np.zeros((depth, width)))


# ---------------------------------------------------------------------- external sampling
@njit(cache=True, nogil=True, inline="always")
def _es_walk(t, i, regret, strategy_sum, sigma, stack, rng, pending, count, rule, lazy, iteration):
    """One traversal of ``external_sampling`` for player ``i``, the recursion unrolled: the
    traverser's nodes push a frame (``stack.node``, ``stack.action``, ``stack.q``) while their
    children are walked one after the other; chance and opponent nodes sample one child and
    pass its value up unchanged. Returns the number of nodes touched."""
    touched, depth, n = 0, 0, 0
    while True:
        while True:                                             # down to a terminal
            touched += 1
            p = t.player[n]
            if p == i:
                stack.node[depth], stack.action[depth] = n, 0
                depth += 1
                n = t.first_child[n]
                continue
            if p == TERMINAL:
                break
            u = draw(rng, pending, count)
            if p == CHANCE:
                n = chance_child(t, n, u)
                continue
            I = t.infoset[n]
            k = t.num_actions[I]
            for a in range(k):
                strategy_sum[I, a] += sigma[I, a]               # simple average update
            n = t.first_child[n] + pick(sigma, I, k, u)
        v = t.utility[i, n]
        while depth > 0:                                        # up, finishing i's nodes
            d = depth - 1
            m, a = stack.node[d], stack.action[d]
            I = t.infoset[m]
            k = t.num_actions[I]
            stack.q[d, a] = v
            if a + 1 < k:
                stack.action[d] = a + 1
                n = t.first_child[m] + a + 1
                break
            v = 0.0
            for b in range(k):
                v += sigma[I, b] * stack.q[d, b]
            if rule.discounts:
                settle(rule, lazy, regret, I, k, iteration)
            for b in range(k):
                regret[I, b] += stack.q[d, b] - v
            clip(rule, regret, I, k)
            regret_match(regret, sigma, I, k)
            depth -= 1
        if depth == 0:
            return touched


@njit(cache=True, nogil=True)
def external_sampling(t, done, iterations, regret, strategy_sum, sigma, rng, pending, count, rule,
                      lazy):
    """Iterations ``done + 1`` to ``done + iterations`` of external-sampling MCCFR, as in
    ``cfrlib.textbook.sampling.external_sampling``: a walk for player 0 then one for player 1.
    Returns the number of nodes touched."""
    stack = _stack(t.depth, regret.shape[1])
    touched = 0
    for it in range(done + 1, done + iterations + 1):
        if rule.discounts:
            advance(rule, lazy, it)
        for i in range(2):
            touched += _es_walk(t, i, regret, strategy_sum, sigma, stack, rng, pending, count,
                                rule, lazy, it)
    return touched


# ----------------------------------------------------------------------- outcome sampling
@njit(cache=True, nogil=True, inline="always")
def _os_walk(t, i, epsilon, regret, strategy_sum, sigma, xi, path_node, path_action, path_xi,
             path_w, rng, pending, count, rule, lazy, iteration, baseline, rate):
    """One trajectory for player ``i``: down the sampled path in a loop, then the values and
    regret updates back up it. Returns the number of nodes touched.

    With a ``baseline`` (``2 x num_nodes``, ``b_i(h, a)`` stored at the child ``ha``; zero rows
    for none) the values going up are baseline-corrected (Schmid et al. 2019): at ``h`` with
    the sampled ``a*``, ``c(a) = b(h, a)`` for ``a != a*`` and ``c(a*) = b(h, a*) + (u(ha*) -
    b(h, a*)) / xi(h, a*)``, and ``u(h) = sum_a p(h, a) c(a)`` (``p`` is ``sigma`` or chance's
    probabilities); at chance and opponent nodes ``xi = p``, so that is ``sum_a p(h, a) b(h, a)
    + u(ha*) - b(h, a*)``. Then ``b(h, a*) <- (1 - rate) b(h, a*) + rate u(ha*)``. Without one,
    ``c(a) = 0`` off the path and chance and opponent nodes pass ``u`` up unchanged: plain
    outcome sampling, the arithmetic of ``b = 0`` term by term."""
    n, pi_o, q, touched, depth = 0, 1.0, 1.0, 0, 0
    keep = 1.0 - epsilon
    learned = baseline.shape[0] > 0
    while True:
        touched += 1
        p = t.player[n]
        if p == TERMINAL:
            break
        u = draw(rng, pending, count)
        path_node[depth] = n
        if p == CHANCE:
            child = chance_child(t, n, u)
            pr = t.chance_prob[child]
            pi_o *= pr
            q *= pr
            path_action[depth] = child - t.first_child[n]
            depth += 1
            n = child
            continue
        I = t.infoset[n]
        k = t.num_actions[I]
        w = pi_o / q
        if p == i:
            e = epsilon / k
            for b in range(k):
                xi[0, b] = e + keep * sigma[I, b]
            a = pick(xi, 0, k, u)
            path_xi[depth], path_w[depth] = xi[0, a], w
            q *= xi[0, a]
        else:
            for b in range(k):
                strategy_sum[I, b] += w * sigma[I, b]
            a = pick(sigma, I, k, u)
            pi_o *= sigma[I, a]
            q *= sigma[I, a]
        path_action[depth] = a
        depth += 1
        n = t.first_child[n] + a
    v = t.utility[i, n]
    for d in range(depth - 1, -1, -1):
        m, a = path_node[d], path_action[d]
        f, p = t.first_child[m], t.player[m]
        if p == i:
            I = t.infoset[m]
            k = t.num_actions[I]
            for b in range(k):
                xi[0, b] = baseline[i, f + b] if learned else 0.0
            xi[0, a] = xi[0, a] + (v - xi[0, a]) / path_xi[d]
            value = 0.0
            for b in range(k):
                value += sigma[I, b] * xi[0, b]
            if rule.discounts:
                settle(rule, lazy, regret, I, k, iteration)
            w = path_w[d]
            for b in range(k):
                regret[I, b] += w * (xi[0, b] - value)
            clip(rule, regret, I, k)
            regret_match(regret, sigma, I, k)
        elif learned:
            value = 0.0
            for b in range(t.num_children[m]):
                value += (t.chance_prob[f + b] if p == CHANCE else sigma[t.infoset[m], b]) \
                    * baseline[i, f + b]
            value += v - baseline[i, f + a]
        else:
            continue
        if learned:
            baseline[i, f + a] = (1.0 - rate) * baseline[i, f + a] + rate * v
        v = value
    return touched


@njit(cache=True, nogil=True)
def outcome_sampling(t, done, iterations, epsilon, regret, strategy_sum, sigma, rng, pending, count,
                     rule, lazy, baseline, rate):
    """Iterations ``done + 1`` to ``done + iterations`` of outcome-sampling MCCFR, as in
    ``cfrlib.textbook.sampling.outcome_sampling``: a trajectory for player 0 then one for
    player 1, the traverser exploring with ``epsilon``; with a learned ``baseline`` (``2 x
    num_nodes``, else ``0 x 0``) and its step ``rate``, VR-MCCFR (see ``_os_walk``). Returns the
    number of nodes touched."""
    xi = np.zeros((1, regret.shape[1]))
    path_node = np.zeros(t.depth, dtype=np.int64)
    path_action = np.zeros(t.depth, dtype=np.int64)
    path_xi, path_w = np.zeros(t.depth), np.zeros(t.depth)
    touched = 0
    for it in range(done + 1, done + iterations + 1):
        if rule.discounts:
            advance(rule, lazy, it)
        for i in range(2):
            touched += _os_walk(t, i, epsilon, regret, strategy_sum, sigma, xi, path_node,
                                path_action, path_xi, path_w, rng, pending, count, rule, lazy, it,
                                baseline, rate)
    return touched
