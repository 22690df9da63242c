"""What the three sampling solvers share: the random stream, the choice of backend, the tables
of regrets and average-strategy sums, strategies, and saving and resuming.

Two backends hold the same numbers:

* ``"tree"``: the game compiled once (``cfrlib.Game.tree``); regrets, average-strategy sums
  and the current strategy are lists per infoset index, walked by the compiled walks of each
  algorithm (modules ``chance``, ``external`` and ``outcome``);
* ``"states"``: the state API walked by the textbook recursions of
  ``cfrlib.textbook.sampling``, storing only the infosets met, in an
  ``cfrlib.textbook.sampling.InfosetTable`` keyed by ``(player, infoset key)``. This is for
  games too large to compile; there the exact exploitability (which needs the whole tree) is not
  available, only sampled evaluation such as playing the strategy against others.

Both draw one uniform per sampled node, in the same traversal order, from the same
``UniformStream``, so that on a game both can run they give the same numbers, bit for bit.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cached_property
from itertools import accumulate

import numpy as np

from ...errors import SolverError
from ...evaluation import exploitability
from ...strategy import Strategy
from ...textbook.sampling import InfosetNode, InfosetTable, regret_matching
from ..base import Solver, check_seed
from .compiled import flat_tree

BACKENDS = ("auto", "tree", "states")
MAX_TREE_NODES = 2_000_000
"""``backend="auto"`` compiles games estimated to have at most this many histories (Bluff with
one six-sided die each has 294,883 and compiles in about a second; much larger trees take
minutes and gigabytes)."""


class UniformStream:
    """Uniform draws in [0, 1) from a seeded ``numpy.random.Generator``, fetched in blocks.

    ``random`` returns the same sequence as calling ``rng.random()`` once per draw (numpy
    fills a block with the same doubles one by one), at a tenth of the cost. The draws fetched
    but not yet used are part of the solver's state (``buffer``, next draw last).
    """

    block = 512

    def __init__(self, rng):
        self.rng = rng
        self.buffer = []

    def random(self) -> float:
        if not self.buffer:
            self.refill()
        return self.buffer.pop()

    def refill(self):
        self.buffer.extend(self.rng.random(self.block)[::-1].tolist())


def estimate_num_nodes(game, width=1024, seed=0) -> float:
    """An unbiased estimate of the number of histories, level by level (Knuth's estimator with
    resampling): ``width`` sampled nodes stand for the level they come from; the number of
    children of the level is the sum of their branching factors times the number of nodes
    each stands for, and ``width`` children drawn uniformly among those stand for the next
    level. Some tens of milliseconds; within a factor of about 2 on Kuhn, Leduc and Bluff."""
    rng = np.random.default_rng(seed)
    level, weight, total = [game.initial_state()], 1.0, 1.0
    while level:
        actions = [state.legal_actions() for state in level]
        ends = list(accumulate(len(a) for a in actions))
        if ends[-1] == 0:
            break
        total += weight * ends[-1]
        chosen = []
        for k in rng.integers(ends[-1], size=width).tolist():
            j = bisect_right(ends, k)
            chosen.append(level[j].child(actions[j][k - (ends[j - 1] if j else 0)]))
        level, weight = chosen, weight * ends[-1] / width
    return total


def choose_backend(game, backend) -> str:
    """``"tree"`` or ``"states"``: ``"auto"`` compiles the game when it is already compiled or
    estimated (``estimate_num_nodes``) to have at most ``MAX_TREE_NODES`` histories."""
    if backend not in BACKENDS:
        raise SolverError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend != "auto":
        return backend
    if "_compiled_tree" in game.__dict__ or estimate_num_nodes(game) <= MAX_TREE_NODES:
        return "tree"
    return "states"


class SamplingSolver(Solver):
    """Base of the sampling solvers: a seeded generator ``rng`` (its state is saved with the
    solver), the uniform stream drawn from it, and the tables of the chosen backend.

    Subclasses implement ``_compile()`` (returns a function that runs one iteration on the
    compiled tree and returns the number of nodes it touched) and ``_traverse_states()`` (one
    iteration with the textbook recursions, counting in ``self.table``).
    """

    sampled = True

    def __init__(self, game, seed=0, backend="auto"):
        super().__init__(game)
        self.seed = check_seed(seed)
        self.rng = np.random.default_rng(self.seed)
        self.uniforms = UniformStream(self.rng)
        self.backend = choose_backend(game, backend)
        if self.backend == "tree":
            self.tree = game.tree()
            self.flat = flat_tree(self.tree)
            widths = self.flat.num_actions
            self.regret = [[0.0] * k for k in widths]
            self.strategy_sum = [[0.0] * k for k in widths]
            self.sigma = [regret_matching(r) for r in self.regret]
            self._step = self._compile()
        else:
            self.table = InfosetTable()

    def _iteration(self):
        if self.backend == "tree":
            self.nodes_touched += self._step()
        else:
            before = self.table.nodes_touched
            self._traverse_states()
            self.nodes_touched += self.table.nodes_touched - before

    # ------------------------------------------------------------------ strategies
    def average_strategy(self):
        """``sigma-bar(I, a) = S(I, a) / sum_b S(I, b)`` (uniform where ``S`` is still zero).

        A ``cfrlib.Strategy`` with the tree backend; with the states backend a dict
        ``{(player, infoset key): {action: probability}}`` over the infosets met, which
        ``Strategy.from_dict(game, d, missing="uniform")`` turns into a full strategy.
        """
        if self.backend == "tree":
            sums = _padded(self.strategy_sum, self.tree.max_actions)
            return Strategy(self.game, _normalise(sums, self.tree.action_mask))
        return {key: dict(zip(node.actions, _normalise(np.array([node.strategy_sum]))[0].tolist()))
                for key, node in self.table.items()}

    def current_strategy(self):
        """``sigma^{T+1}``: regret matching on the cumulative regrets (same types as
        ``average_strategy``)."""
        if self.backend == "tree":
            return Strategy(self.game, _padded(self.sigma, self.tree.max_actions))
        return {key: dict(zip(node.actions, regret_matching(node.regret)))
                for key, node in self.table.items()}

    def exploitability(self) -> float:
        """Exploitability of the average strategy. With the states backend the game must still
        be small enough to compile (infosets not met count as uniform); otherwise a
        ``SolverError`` says so."""
        if self.backend == "tree":
            return super().exploitability()
        if not self._compilable:
            raise SolverError(f"{self.game.name} is too large to compile, and exact exploitability "
                              "needs the whole tree; evaluate the strategy by sampling instead")
        avg = Strategy.from_dict(self.game, self.average_strategy(), missing="uniform")
        return exploitability(self.game, avg)

    @cached_property
    def _compilable(self) -> bool:
        return choose_backend(self.game, "auto") == "tree"

    # --------------------------------------------------------------- save / resume
    def _params(self) -> dict:
        return {"seed": self.seed, "backend": self.backend}

    def _arrays(self) -> dict:
        arrays = {"uniforms": np.array(self.uniforms.buffer, dtype=float)}
        if self.backend == "tree":
            width = self.tree.max_actions
            arrays["regret"] = _padded(self.regret, width)
            arrays["strategy_sum"] = _padded(self.strategy_sum, width)
            return arrays
        nodes = list(self.table.values())
        arrays["players"] = np.array([p for p, _ in self.table], dtype=np.int8)
        arrays["keys"] = np.array([k for _, k in self.table], dtype=str)
        arrays["num_actions"] = np.array([len(n.actions) for n in nodes], dtype=np.int64)
        arrays["actions"] = np.array([a for n in nodes for a in n.actions], dtype=str)
        arrays["regret"] = np.array([r for n in nodes for r in n.regret], dtype=float)
        arrays["strategy_sum"] = np.array([s for n in nodes for s in n.strategy_sum], dtype=float)
        return arrays

    def _restore(self, arrays):
        self.uniforms.buffer[:] = arrays["uniforms"].tolist()
        if self.backend == "tree":
            shape = (self.tree.num_infosets, self.tree.max_actions)
            if arrays["regret"].shape != shape or arrays["strategy_sum"].shape != shape:
                raise SolverError(f"saved tables have shape {arrays['regret'].shape}, "
                                  f"expected {shape} for {self.game.name}")
            widths = self.flat.num_actions
            self.regret[:] = [row[:k] for row, k in zip(arrays["regret"].tolist(), widths)]
            self.strategy_sum[:] = [row[:k] for row, k in zip(arrays["strategy_sum"].tolist(), widths)]
            self.sigma[:] = [regret_matching(r) for r in self.regret]
            return
        self.table.clear()
        ends = np.cumsum(arrays["num_actions"]).tolist()
        actions, regret, sums = (arrays[k].tolist() for k in ("actions", "regret", "strategy_sum"))
        start = 0
        for p, key, end in zip(arrays["players"].tolist(), arrays["keys"].tolist(), ends):
            node = self.table[(p, key)] = InfosetNode(actions[start:end])
            node.regret, node.strategy_sum = regret[start:end], sums[start:end]
            start = end


def _padded(rows, width) -> np.ndarray:
    """Lists of different lengths as one array, padded with zeros to ``width`` columns."""
    out = np.zeros((len(rows), width))
    for I, row in enumerate(rows):
        out[I, :len(row)] = row
    return out


def _normalise(sums, legal=None) -> np.ndarray:
    """Each row divided by its total; rows that are still all zero become uniform over their
    ``legal`` entries (all entries by default)."""
    legal = np.ones(sums.shape, dtype=bool) if legal is None else legal
    uniform = legal / legal.sum(axis=1, keepdims=True)
    totals = sums.sum(axis=1, keepdims=True)
    return np.divide(sums, totals, out=uniform, where=totals > 0)
