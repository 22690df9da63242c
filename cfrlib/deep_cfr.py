"""Deep CFR (Brown, Lerer, Gross and Sandholm 2019): CFR with its regret tables replaced by networks.

An iteration ``t`` runs, for each player ``p``, ``K`` external-sampling traversals of the compiled
tree (``game.tree()``) in which both players play ``sigma^t``: regret matching on their advantage
networks. At the traverser's infosets the sampled instantaneous regrets

    r~^t(I, a) = v(I, a) - sum_b sigma^t(I, b) v(I, b)

go into ``p``'s advantage memory ``M_V,p``; at the opponent's infosets ``sigma^t(I)`` goes into the
strategy memory ``M_Pi``; both memories are reservoirs (every item ever offered is kept with the
same probability). Then ``p``'s advantage network is trained *from scratch* on

    L(theta_p) = E_{(I, t', r~) ~ M_V,p} [ w(t') sum_{a in A(I)} (r~(a) - V(I, a | theta_p))^2 ],

with the linear-CFR weight ``w(t') = t'`` (1 when ``linear=False``). Its minimiser is, infoset by
infoset, the weighted mean of the sampled regrets, proportional to Linear CFR's cumulative regret,
so regret matching on it plays what Linear MCCFR would. The average strategy is the policy network
``Pi`` trained on ``M_Pi`` with the weighted cross-entropy ``E[w(t') sum_a -sigma^{t'}(a) log
Pi(I, a)]``, whose minimiser is the ``w``-weighted mean of the stored strategies.

To tell the two networks' errors apart, the solver also keeps, exactly on the tree, the average
of the strategies its advantage networks played (:meth:`DeepCFR.iterates_average_strategy`): what
the policy network would learn with unlimited samples and capacity.

The networks see an infoset only through its feature vector (:func:`infoset_features`). Nothing in
``cfrlib`` imports this module; it needs numpy and numba only: the networks are small multilayer
perceptrons with hand-written backpropagation and Adam (:class:`MLP`, :func:`fit`). Every random
draw comes from a generator keyed by ``(seed, purpose, iteration, player)``, so a run is
reproducible and evaluating it at checkpoints does not change it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits

from .checks import check_flag, check_iterations
from .errors import DeepCFRError
from .game import CHANCE, TERMINAL, Game
from .games import Kuhn, Leduc
from .evaluation import exploitability
from .sequence_form import realization_plan, sequence_form
from .solvers.sampling.kernels import KernelTree, Stack, chance_child, kernel_tree, pick
from .strategy import Strategy

__all__ = ["DeepCFR", "ExactFitDeepCFR", "FeatureMeans", "MLP", "Reservoir", "SlidingWindow", "fit",
           "infoset_features", "feature_names", "regret_matching"]

Array = NDArray[np.float64]


# ------------------------------------------------------------------------------ features
def _slots(keys: Sequence[str], split: Callable[[str], list[str]]) -> list[int]:
    """The most actions seen before a decision, per betting round, over ``keys``."""
    rounds = [split(k) for k in keys]
    return [max(len(r[j]) for r in rounds if len(r) > j) for j in range(max(map(len, rounds)))]


def _encoder(game: Game) -> tuple[list[str], Callable[[str], list[int]]]:
    """The feature names of ``game`` and a function from an infoset key to the indices of its ones."""
    keys = game.tree().infoset_keys
    if isinstance(game, Kuhn):
        ranks, letters, actions = ["J", "Q", "K"], "pb", ("pass", "bet")
        def cards(key: str) -> tuple[str, str | None]:
            return key[0], None
        def split(key: str) -> list[str]:
            return [key[1:]]
    elif isinstance(game, Leduc):
        ranks = sorted({c[0] for c in game.cards}, key=[c[0] for c in game.cards].index)
        letters, actions = "cr", ("call", "raise")
        def cards(key: str) -> tuple[str, str | None]:
            parts = key.split("|")
            return parts[0][0], parts[2][0] if len(parts) > 2 else None
        def split(key: str) -> list[str]:
            parts = key.split("|")
            return [parts[1]] + parts[3:4]
    else:
        raise DeepCFRError(f"no built-in infoset features for {game.name}; pass features= (a "
                           "num_infosets x d array, one row per infoset of game.tree())")
    slots = _slots(keys, split)
    names = [f"private={r}" for r in ranks]
    if isinstance(game, Leduc):
        names += [f"board={r}" for r in ranks]
    offsets = []
    for j, n in enumerate(slots):
        offsets.append(len(names))
        names += [f"round{j + 1}.action{s + 1}={a}" for s in range(n) for a in actions]

    def ones(key: str) -> list[int]:
        private, board = cards(key)
        on = [ranks.index(private)] + ([len(ranks) + ranks.index(board)] if board else [])
        for j, history in enumerate(split(key)):
            on += [offsets[j] + 2 * s + letters.index(c) for s, c in enumerate(history)]
        return on

    return names, ones


def feature_names(game: Game) -> list[str]:
    """The name of each column of :func:`infoset_features` (``"private=K"``, ``"board=Q"``,
    ``"round2.action1=raise"``, ...)."""
    return _encoder(game)[0]


def infoset_features(game: Game) -> NDArray[np.float32]:
    """One row of 0/1 features per infoset of ``game.tree()``, for Kuhn and Leduc (any variant).

    The private card's rank, one-hot; on Leduc also the board card's rank (zeros before the deal);
    then each betting round as a fixed number of slots, the most actions the round holds in any
    infoset key (Leduc's first round up to ``crrc``), each slot one-hot over (pass, bet) in Kuhn or
    (call, raise) in Leduc, zeros for slots not reached (a fold ends the game, so it never
    precedes a decision).
    Suits are left out: Leduc has no flushes, so infosets that differ only in suits are the same
    decision and get the same vector (the network learns them as one; a table learns each).
    Standard Leduc: 3 + 3 + 4 * 2 + 3 * 2 = 20 features; Kuhn: 3 + 2 * 2 = 7.
    """
    names, ones = _encoder(game)
    keys = game.tree().infoset_keys
    x = np.zeros((len(keys), len(names)), dtype=np.float32)
    for I, key in enumerate(keys):
        x[I, ones(key)] = 1.0
    return x


# ---------------------------------------------------------------------------- regret matching
def regret_matching(advantages: Array, mask: NDArray[np.bool_]) -> Array:
    """``sigma(I, a) = V+(I, a) / sum_b V+(I, b)`` over the legal actions (``mask``), row by row;
    where no advantage is positive, the legal action(s) of highest advantage, ties split evenly
    (the paper's choice rather than uniform; all zeros, as before any training, give uniform)."""
    v = np.where(mask, advantages, -np.inf)
    plus = np.maximum(v, 0.0)
    total = plus.sum(axis=1, keepdims=True)
    best = mask & (v == v.max(axis=1, keepdims=True))
    fallback = best / best.sum(axis=1, keepdims=True)
    return np.where(total > 0.0, plus / np.where(total > 0.0, total, 1.0), fallback)


# ---------------------------------------------------------------------------------- networks
class MLP:
    """A multilayer perceptron in float32: ``x -> W_L relu(W_{L-1} relu(W_1 x + b_1) + b_{L-1}) + b_L``
    with L layers (two hidden layers shown).

    ``sizes`` lists the widths, input first. Weights start He-normal (``N(0, 2 / fan_in)``),
    biases at zero. :meth:`forward` keeps what :meth:`backward` needs."""

    def __init__(self, sizes: Sequence[int], rng: np.random.Generator) -> None:
        self.sizes = list(sizes)
        self.params: list[NDArray[np.float32]] = []
        for n_in, n_out in zip(self.sizes, self.sizes[1:]):
            self.params.append((rng.standard_normal((n_in, n_out)) * math.sqrt(2.0 / n_in)).astype(np.float32))
            self.params.append(np.zeros(n_out, dtype=np.float32))

    @property
    def num_params(self) -> int:
        """The number of weights and biases."""
        return sum(p.size for p in self.params)

    def forward(self, x: NDArray[np.float32]) -> tuple[NDArray[np.float32], list[NDArray[np.float32]]]:
        """The output and the input of every layer (after its ReLU)."""
        inputs = [x]
        for j in range(0, len(self.params), 2):
            x = x @ self.params[j] + self.params[j + 1]
            if j + 2 < len(self.params):
                x = np.maximum(x, 0.0)
                inputs.append(x)
        return x, inputs

    def __call__(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        return self.forward(x)[0]

    def backward(self, inputs: list[NDArray[np.float32]], grad: NDArray[np.float32]) -> list[NDArray[np.float32]]:
        """Gradients of the loss for every parameter, given ``grad``, its gradient for the output:
        ``dW_l = h_{l-1}^T g_l``, ``db_l = sum g_l``, ``g_{l-1} = (g_l W_l^T) * [h_{l-1} > 0]``."""
        grads: list[NDArray[np.float32]] = []
        for j in range(len(self.params) - 2, -1, -2):
            h = inputs[j // 2]
            grads += [grad.sum(axis=0), h.T @ grad]
            if j:
                grad = (grad @ self.params[j].T) * (h > 0.0)
        return grads[::-1]


def fit(net: MLP, x: NDArray[np.float32], y: NDArray[np.float32], mask: NDArray[np.bool_],
        weight: NDArray[np.float32], *, loss: str, steps: int, batch_size: int,
        learning_rate: float, rng: np.random.Generator, schedule: str = "linear") -> float:
    """Train ``net`` in place with Adam (``beta = (0.9, 0.999)``, gradient norm clipped to 1, as in
    the paper; with ``schedule="linear"`` the learning rate falls linearly from ``learning_rate``
    to 0 over the steps, so that the last minibatches move the network least; ``"constant"`` keeps
    it, as the paper does) on minibatches drawn uniformly with replacement from the rows of ``x``:

    * ``loss="mse"``: ``w sum_{a legal} (y_a - f_a(x))^2`` (the advantage networks);
    * ``loss="xent"``: ``-w sum_{a legal} y_a log softmax_legal(f(x))_a`` (the policy network).

    Returns the mean training loss over the last tenth of the steps. BLAS runs on one thread: the
    matrices are small, and OpenBLAS's threads spin-wait for each other, so on a busy machine a
    step took a hundred times longer with two."""
    if schedule not in ("linear", "constant"):
        raise DeepCFRError(f"schedule must be 'linear' or 'constant', got {schedule!r}")
    with threadpool_limits(limits=1, user_api="blas"):
        return _fit(net, x, y, mask, weight, loss, steps, batch_size, learning_rate, rng, schedule == "linear")


def _fit(net: MLP, x: NDArray[np.float32], y: NDArray[np.float32], mask: NDArray[np.bool_],
         weight: NDArray[np.float32], loss: str, steps: int, batch_size: int,
         learning_rate: float, rng: np.random.Generator, decay: bool) -> float:
    # Adam runs on one flat vector of every parameter (the network reads views of it): a step is
    # then 20 numpy calls instead of 84, with the same arithmetic on each element.
    originals, (b1, b2, eps) = net.params, (0.9, 0.999, 1e-8)
    flat = np.concatenate([p.ravel() for p in originals])
    net.params = _views(flat, originals)
    flat_grad = np.empty_like(flat)
    grad_views = _views(flat_grad, originals)
    m, v = np.zeros_like(flat), np.zeros_like(flat)
    tail, tail_steps = 0.0, max(1, steps // 10)
    try:
        for step in range(1, steps + 1):
            rows = rng.integers(len(x), size=batch_size)
            out, inputs = net.forward(x[rows])
            w, legal, target = weight[rows, None], mask[rows], y[rows]
            if loss == "mse":
                diff = np.where(legal, out - target, 0.0)
                value = float((w * diff * diff).sum()) / batch_size
                grad = 2.0 * w * diff / batch_size
            else:
                z = np.where(legal, out, -np.inf)
                z = z - z.max(axis=1, keepdims=True)
                logp = np.where(legal, z - np.log(np.exp(z).sum(axis=1, keepdims=True)), 0.0)
                value = float(-(w * target * logp).sum()) / batch_size
                grad = w * np.where(legal, np.exp(logp) * target.sum(axis=1, keepdims=True) - target, 0.0) / batch_size
            grads = net.backward(inputs, grad.astype(np.float32))
            for view, g in zip(grad_views, grads):
                view[...] = g
            norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
            scale = min(1.0, 1.0 / norm) if norm > 0 else 1.0
            lr = learning_rate * (1 - (step - 1) / steps if decay else 1.0) * math.sqrt(1 - b2 ** step) / (1 - b1 ** step)
            clipped = flat_grad * scale
            m *= b1
            m += (1 - b1) * clipped
            v *= b2
            v += (1 - b2) * clipped * clipped
            flat -= (lr * m / (np.sqrt(v) + eps)).astype(np.float32)
            if step > steps - tail_steps:
                tail += value / tail_steps
    finally:
        for original, view in zip(originals, net.params):
            original[...] = view
        net.params = originals
    return tail


def _views(flat: NDArray[np.float32], like: list[NDArray[np.float32]]) -> list[NDArray[np.float32]]:
    """``flat`` cut into arrays of the shapes of ``like``, in order (views, not copies)."""
    ends = np.cumsum([p.size for p in like])
    return [part.reshape(p.shape) for part, p in zip(np.split(flat, ends[:-1]), like)]


# ---------------------------------------------------------------------------------- memories
class Reservoir:
    """A memory of at most ``capacity`` items ``(infoset, iteration, target row)`` kept by
    reservoir sampling (Vitter's algorithm R): the ``n``-th item offered is stored while the memory
    has room, else it replaces a uniformly drawn slot with probability ``capacity / n``, so after
    ``N`` offers every item is in the memory with probability ``min(1, capacity / N)``."""

    def __init__(self, capacity: int, width: int) -> None:
        self.capacity, self.seen = capacity, 0
        self.infoset = np.zeros(capacity, dtype=np.int32)
        self.iteration = np.zeros(capacity, dtype=np.int32)
        self.target = np.zeros((capacity, width), dtype=np.float32)

    def __len__(self) -> int:
        return min(self.seen, self.capacity)

    def add(self, infoset: NDArray[Any], iteration: int, target: NDArray[Any], rng: np.random.Generator) -> None:
        """Offer the rows of ``infoset`` and ``target`` (all from ``iteration``), in order."""
        n = np.arange(self.seen + 1, self.seen + len(infoset) + 1)    # each item's offer number
        slot = np.where(n <= self.capacity, n - 1, np.floor(rng.random(len(n)) * n).astype(np.int64))
        keep = np.flatnonzero(slot < self.capacity)
        # a later item replaces an earlier one in the same slot: keep each slot's last writer
        last = keep[::-1][np.unique(slot[keep][::-1], return_index=True)[1]]
        self.infoset[slot[last]] = infoset[last]
        self.iteration[slot[last]] = iteration
        self.target[slot[last]] = target[last]
        self.seen += len(infoset)


class SlidingWindow(Reservoir):
    """A first-in-first-out memory of the last ``capacity`` items offered: the ``n``-th item goes
    to slot ``(n - 1) mod capacity``. Its mean is over a window of recent iterations, not over all
    of them: the ablation of the reservoir (Brown et al. 2019, section 5)."""

    def add(self, infoset: NDArray[Any], iteration: int, target: NDArray[Any], rng: np.random.Generator) -> None:
        """Offer the rows of ``infoset`` and ``target`` (all from ``iteration``), in order."""
        keep = slice(max(0, len(infoset) - self.capacity), None)   # only the last capacity rows stay
        slot = (self.seen + np.arange(len(infoset))[keep]) % self.capacity
        self.infoset[slot] = infoset[keep]
        self.iteration[slot] = iteration
        self.target[slot] = target[keep]
        self.seen += len(infoset)


MEMORIES: dict[str, type[Reservoir]] = {"reservoir": Reservoir, "window": SlidingWindow}


# -------------------------------------------------------------------------------- traversals
@njit(cache=True, nogil=True)
def _traverse(t: KernelTree, i: int, sigma: Array, traversals: int, stack: Stack,
              rng: np.random.Generator, adv_I: NDArray[np.int64], adv_r: Array,
              strat_I: NDArray[np.int64], counts: NDArray[np.int64], reserve: int) -> int:
    """Up to ``traversals`` external-sampling traversals for player ``i``, all players playing
    ``sigma``: the traverser's nodes explore every action (a frame on ``stack``), chance and the
    opponent sample one. Records ``(I, r~(I, .))`` at the traverser's infosets into ``adv_I``,
    ``adv_r`` and ``I`` at the opponent's into ``strat_I``; ``counts`` holds (samples of each kind,
    nodes touched). Stops early when fewer than ``reserve`` rows are left in a buffer; returns the
    traversals done."""
    for done in range(traversals):
        if counts[0] + reserve > adv_I.shape[0] or counts[1] + reserve > strat_I.shape[0]:
            return done
        depth, n = 0, 0
        while True:
            while True:                                              # down to a terminal
                counts[2] += 1
                p = t.player[n]
                if p == i:
                    stack.node[depth], stack.action[depth] = n, 0
                    depth += 1
                    n = t.first_child[n]
                    continue
                if p == TERMINAL:
                    break
                u = rng.random()
                if p == CHANCE:
                    n = chance_child(t, n, u)
                    continue
                I = t.infoset[n]
                strat_I[counts[1]] = I
                counts[1] += 1
                n = t.first_child[n] + pick(sigma, I, t.num_actions[I], u)
            v = t.utility[i, n]
            while depth > 0:                                         # up, finishing i's nodes
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
                adv_I[counts[0]] = I
                for b in range(k):
                    adv_r[counts[0], b] = stack.q[d, b] - v
                counts[0] += 1
                depth -= 1
            if depth == 0:
                break
    return traversals


# ---------------------------------------------------------------------------------- Deep CFR
@dataclass(frozen=True)
class Checkpoint:
    """Where a run stood at a checkpoint.

    After ``iteration`` iterations: traversals per player, nodes touched, seconds spent (wall
    clock, and this process's CPU time), the exact exploitability of the policy network and its
    training loss, and the exact exploitability of the average of the networks' iterates
    (:meth:`DeepCFR.iterates_average_strategy`, what the policy network approximates)."""

    iteration: int
    traversals: int
    nodes_touched: int
    seconds: float
    cpu_seconds: float
    exploitability: float
    policy_loss: float
    iterates_exploitability: float


class DeepCFR:
    """Deep CFR on ``game`` (two players, compiled tree), all options by keyword.

    ``traversals`` (``K``) per player and iteration; ``hidden`` the hidden widths of every network;
    ``advantage_steps`` and ``policy_steps`` Adam steps of ``batch_size`` rows at
    ``learning_rate`` to train an advantage network (every iteration, from scratch unless
    ``warm_start``) and the policy network (when :meth:`average_strategy` is called); ``memory``
    the capacity of each memory; ``linear`` weights iteration ``t``'s samples by ``t`` (else 1);
    ``buffer`` the kind of every memory (``"reservoir"``, or ``"window"``: a
    :class:`SlidingWindow`); ``warm_start`` trains each advantage network from its previous weights
    rather than from scratch (OpenSpiel's ``reinitialize_advantage_networks=False``); ``features``
    a ``num_infosets x d`` array (default :func:`infoset_features`); ``seed`` keys every random
    draw. The defaults
    are the configuration recorded on Leduc (``benchmarks/deep_cfr.py``). Iterations alternate as
    in the paper's Algorithm 1: player 1's traversals of iteration ``t`` already meet player 0's
    network of iteration ``t``.
    """

    def __init__(self, game: Game, *, traversals: int = 250, hidden: Sequence[int] = (64, 64, 64),
                 advantage_steps: int = 600, policy_steps: int = 3000, batch_size: int = 1024,
                 learning_rate: float = 3e-3, memory: int = 1_000_000, linear: bool = True,
                 buffer: str = "reservoir", warm_start: bool = False,
                 features: NDArray[Any] | None = None, seed: int = 0) -> None:
        for name, value in (("traversals", traversals), ("advantage_steps", advantage_steps),
                            ("policy_steps", policy_steps), ("batch_size", batch_size),
                            ("memory", memory), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or value < (0 if name == "seed" else 1):
                raise DeepCFRError(f"{name} must be a {'non-negative' if name == 'seed' else 'positive'} "
                                   f"integer, got {value!r}")
        if isinstance(hidden, (str, bytes)) or not isinstance(hidden, Sequence) or not all(
                isinstance(h, (int, np.integer)) and not isinstance(h, bool) and h > 0 for h in hidden):
            raise DeepCFRError(f"hidden must be a sequence of positive layer widths, got {hidden!r}")
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float)) \
                or not 0.0 < learning_rate < math.inf:
            raise DeepCFRError(f"learning_rate must be positive and finite, got {learning_rate!r}")
        linear = check_flag(linear, "linear", DeepCFRError)
        warm_start = check_flag(warm_start, "warm_start", DeepCFRError)
        if buffer not in MEMORIES:
            raise DeepCFRError(f"buffer must be one of {sorted(MEMORIES)}, got {buffer!r}")
        self.game, self.tree = game, game.tree()
        self.seed = int(seed)
        x = infoset_features(game) if features is None else np.asarray(features, dtype=np.float32)
        if x.ndim != 2 or x.shape[0] != self.tree.num_infosets or not np.isfinite(x).all():
            raise DeepCFRError(f"features must be a finite array with one row per infoset "
                               f"({self.tree.num_infosets}), got shape {x.shape}")
        self.features = x
        self.config: dict[str, Any] = {"traversals": int(traversals), "hidden": [int(h) for h in hidden],
                       "advantage_steps": int(advantage_steps), "policy_steps": int(policy_steps),
                       "batch_size": int(batch_size), "learning_rate": float(learning_rate),
                       "memory": int(memory), "linear": linear, "buffer": buffer,
                       "warm_start": warm_start, "seed": self.seed}
        self.sizes = [x.shape[1], *self.config["hidden"], self.tree.max_actions]
        self.mask = self.tree.action_mask
        width = self.tree.max_actions
        kind = MEMORIES[buffer]
        self.advantage_memory = [kind(memory, width), kind(memory, width)]
        self.strategy_memory = kind(memory, width)
        self.advantage: list[MLP | None] = [None, None]
        self._iterate_sums = np.zeros(self.mask.shape)
        self.iterations = self.traversals = self.nodes_touched = 0
        self.advantage_loss: list[list[float]] = [[], []]
        self._kernel = kernel_tree(self.tree)
        depth = self._kernel.depth
        self._stack = Stack(np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
                            np.zeros((depth, 2)), np.zeros((depth, width)))
        self._reserve = int((self.tree.player >= 0).sum())      # decision nodes: a traversal's bound

    def _rng(self, purpose: int, *key: int) -> np.random.Generator:
        return np.random.default_rng([self.seed, purpose, *key])

    def _sigma(self) -> Array:
        """``sigma^t``: regret matching on each player's advantage network, every infoset."""
        sigma = np.zeros(self.mask.shape)
        for p, net in enumerate(self.advantage):
            rows = self.tree.infoset_player == p
            v = np.zeros((int(rows.sum()), self.mask.shape[1])) if net is None else net(self.features[rows])
            sigma[rows] = regret_matching(v.astype(np.float64), self.mask[rows])
        return sigma

    def _collect(self, p: int, sigma: Array, rng: np.random.Generator) -> tuple[NDArray[Any], ...]:
        """``K`` traversals for ``p``: the advantage samples ``(I, r~)`` and the opponent's infosets."""
        size = 16 * self.config["traversals"] + 2 * self._reserve
        adv_I, strat_I = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
        adv_r = np.zeros((size, self.mask.shape[1]))
        counts = np.zeros(3, dtype=np.int64)
        left = self.config["traversals"]
        while left:
            left -= _traverse(self._kernel, p, sigma, left, self._stack, rng, adv_I, adv_r,
                              strat_I, counts, self._reserve)
            if left:                                                 # buffers full: grow them
                adv_I, strat_I = np.resize(adv_I, 2 * len(adv_I)), np.resize(strat_I, 2 * len(strat_I))
                adv_r = np.resize(adv_r, (2 * len(adv_r), adv_r.shape[1]))
        self.nodes_touched += int(counts[2])
        return adv_I[:counts[0]], adv_r[:counts[0]], strat_I[:counts[1]]

    def _weights(self, memory: Reservoir) -> NDArray[np.float32]:
        it = memory.iteration[:len(memory)].astype(np.float32)
        w = it if self.config["linear"] else np.ones_like(it)
        return w / w.mean()

    def _train(self, memory: Reservoir, loss: str, steps: int, rng: np.random.Generator,
               start: MLP | None = None) -> tuple[MLP, float]:
        n = len(memory)
        net = MLP(self.sizes, rng)
        if start is not None:
            net.params = [w.copy() for w in start.params]
        rows = memory.infoset[:n]
        value = fit(net, self.features[rows], memory.target[:n], self.mask[rows], self._weights(memory),
                    loss=loss, steps=steps, batch_size=self.config["batch_size"],
                    learning_rate=self.config["learning_rate"], rng=rng)
        return net, value

    # Shown in the book: chapter 15.
    def iterate(self, iterations: int = 1) -> DeepCFR:
        """Run ``iterations`` more Deep CFR iterations; returns the solver."""
        for _ in range(check_iterations(iterations)):
            t = self.iterations + 1
            for p in (0, 1):
                sigma = self._sigma()
                adv_I, adv_r, strat_I = self._collect(p, sigma, self._rng(0, t, p))
                memory_rng = self._rng(1, t, p)
                self.advantage_memory[p].add(adv_I, t, adv_r, memory_rng)
                self.strategy_memory.add(strat_I, t, sigma[strat_I], memory_rng)
                self._add_iterate(1 - p, sigma, t)
                start = self.advantage[p] if self.config["warm_start"] else None
                net, value = self._train(self.advantage_memory[p], "mse",
                                         self.config["advantage_steps"],
                                         self._rng(2, t, p), start)
                self.advantage[p] = net
                self.advantage_loss[p].append(value)
            self.iterations, self.traversals = (
                t, self.traversals + self.config["traversals"])
        return self

    def _add_iterate(self, q: int, sigma: Array, t: int) -> None:
        """Add ``w(t) pi_q^sigma(I) sigma(I, .)`` at ``q``'s infosets: the exact expectation of what
        ``q``'s traversal samples offer to the strategy memory (up to a factor per infoset)."""
        block = sequence_form(self.tree).players[q]
        reach = realization_plan(block, block.rows_of(sigma))[block.row_parent]
        weight = t if self.config["linear"] else 1
        self._iterate_sums[block.rows] += weight * reach[:, None] * sigma[block.rows]

    def iterates_average_strategy(self) -> Strategy:
        """The average of the networks' iterates, computed exactly on the tree:

            sigma_bar(I, a) = sum_t w(t) pi_q^{sigma^t}(I) sigma^t(I, a) / sum_t w(t) pi_q^{sigma^t}(I),

        the strategy the policy network is trained to approximate (and what Single Deep CFR,
        Steinberger 2019, plays by sampling one stored network per game). A table of the game's
        size: a measurement for games whose table fits, not part of the algorithm."""
        sums = self._iterate_sums
        total = sums.sum(axis=1, keepdims=True)
        return Strategy(self.game, np.where(total > 0, sums / np.where(total > 0, total, 1.0), self.tree.uniform()))

    def current_strategy(self) -> Strategy:
        """``sigma^{T+1}``: regret matching on the advantage networks."""
        return Strategy(self.game, self._sigma())

    def average_strategy(self) -> Strategy:
        """The policy network, trained from scratch on the strategy memory (uniform before any
        iteration), as a ``Strategy``: ``softmax`` of its outputs over each infoset's legal actions."""
        return self.policy()[0]

    def policy(self) -> tuple[Strategy, float]:
        """:meth:`average_strategy` and the policy network's training loss."""
        if not len(self.strategy_memory):
            return Strategy(self.game, self.tree.uniform()), math.nan
        net, value = self._train(self.strategy_memory, "xent", self.config["policy_steps"],
                                 self._rng(3, self.iterations))
        z = np.where(self.mask, net(self.features).astype(np.float64), -np.inf)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return Strategy(self.game, e / e.sum(axis=1, keepdims=True)), value

    def run(self, checkpoints: Sequence[int],
            progress: Callable[[Checkpoint], None] | None = None) -> list[Checkpoint]:
        """Iterate up to each of the increasing iteration counts ``checkpoints`` and measure the
        policy network's exact exploitability there; ``progress`` sees each checkpoint."""
        if list(checkpoints) != sorted(set(checkpoints)) or not checkpoints or checkpoints[0] < self.iterations:
            raise DeepCFRError(f"checkpoints must be increasing iteration counts from {self.iterations}, "
                               f"got {list(checkpoints)!r}")
        log, start, cpu = [], time.perf_counter(), time.process_time()
        for c in checkpoints:
            self.iterate(c - self.iterations)
            strategy, value = self.policy()
            log.append(Checkpoint(self.iterations, self.traversals, self.nodes_touched,
                                  time.perf_counter() - start, time.process_time() - cpu,
                                  exploitability(self.game, strategy), value,
                                  exploitability(self.game, self.iterates_average_strategy())))
            if progress:
                progress(log[-1])
        return log


class FeatureMeans:
    """What a network of unlimited capacity fitted exactly predicts: for each distinct feature
    vector, the ``w``-weighted mean of the memory's targets over the items whose infoset has it."""

    def __init__(self, means: NDArray[np.float32], row_of: dict[bytes, int]) -> None:
        self.means, self.row_of = means, row_of

    def __call__(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        return self.means[[self.row_of[row.tobytes()] for row in x]]


class ExactFitDeepCFR(DeepCFR):
    """Deep CFR with every network replaced by :class:`FeatureMeans`, the minimiser of its loss
    (for the policy network, the log of the weighted mean strategy): the same traversals, memories
    and weights, with no fitting error: where a Deep CFR run of the same configuration is headed as
    its fits improve (not a bound: a network's errors can happen to lower the exploitability). A
    measurement, not a method for large games (the means are a table over the distinct feature
    vectors). ``hidden``, the step counts and the
    learning rate are not used."""

    def _train(self, memory: Reservoir, loss: str, steps: int, rng: np.random.Generator,
               start: MLP | None = None) -> tuple[Any, float]:
        vectors, group = np.unique(self.features, axis=0, return_inverse=True)
        n = len(memory)
        rows, weight = group.ravel()[memory.infoset[:n]], self._weights(memory).astype(np.float64)
        total = np.bincount(rows, weights=weight, minlength=len(vectors))
        sums = np.stack([np.bincount(rows, weights=weight * memory.target[:n, a], minlength=len(vectors))
                         for a in range(memory.target.shape[1])], axis=1)
        means = sums / np.maximum(total, 1e-300)[:, None]
        if loss == "xent":
            means = np.log(np.maximum(means, 1e-300))
        row_of = {v.tobytes(): j for j, v in enumerate(vectors)}
        return FeatureMeans(means.astype(np.float32), row_of), math.nan
