"""What the three sampling solvers share: the choice of backend, the seeded generator, the
local rule, the walk that owns the tables (``cfrlib.solvers.sampling.walk``), strategies, and
saving and resuming. A solver is configuration: its options make a ``Scheme``, and the walk
does the rest.

Two backends hold the same numbers behind one interface (``TreeWalk`` and ``StateWalk``):

* ``"tree"``: the game compiled once (``cfrlib.Game.tree``), walked by the compiled walks of
  ``cfrlib.solvers.sampling.kernels``;
* ``"states"``: the state API walked by the textbook recursions of
  ``cfrlib.textbook.sampling``, storing only the infosets met. This is for games too large to
  compile; there the exact exploitability (which needs the whole tree) is not available, only
  sampled evaluation such as playing the strategy against others.

Both draw one uniform per sampled node, in the same traversal order, from the same seeded
generator, so that on a game both can run they give the same numbers, bit for bit, and the same
types: a ``cfrlib.Strategy`` from ``average_strategy()`` and ``current_strategy()`` (a
``TableStrategy`` of the infosets met for a game too large to compile).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ...checks import check_seed
from ...errors import SolverError
from ...game import Game
from ...strategy import Strategy
from ...textbook.sampling import InfosetTable
from ..base import Solver
from ..regret_minimizers import RegretMatching, RegretMinimizer, minimizer_from
from .walk import Scheme, StateWalk, TableStrategy, TreeWalk, UniformStream

__all__ = ["SamplingSolver", "TableStrategy", "UniformStream", "choose_backend",
           "estimate_num_nodes", "sampling_minimizer"]

BACKENDS = ("auto", "tree", "states")
MAX_TREE_NODES = 2_000_000
"""``backend="auto"`` compiles games estimated to have at most this many histories (Bluff with
one six-sided die each has 294,883 and compiles in about a second; much larger trees take
minutes and gigabytes)."""


def estimate_num_nodes(game: Game, width: int = 1024, seed: int = 0) -> float:
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


def choose_backend(game: Game, backend: str) -> str:
    """``"tree"`` or ``"states"``: ``"auto"`` compiles the game when it is already compiled or
    estimated (``estimate_num_nodes``) to have at most ``MAX_TREE_NODES`` histories."""
    if backend not in BACKENDS:
        raise SolverError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend != "auto":
        return backend
    if "_compiled_tree" in game.__dict__ or estimate_num_nodes(game) <= MAX_TREE_NODES:
        return "tree"
    return "states"


def sampling_minimizer(spec: RegretMinimizer | str | None) -> RegretMatching:
    """The local rule of a sampling solver from ``regret_minimizer=`` (``None``: regret
    matching): a :class:`~cfrlib.solvers.regret_minimizers.RegretMatching` with its discounts
    ``alpha`` and ``beta`` (``"rm"``, ``"rm+"``, DCFR's ``RegretMatching(1.5, 0)``, ...), which
    the walks apply as data. Refused, with a ``SolverError``:

    * predictive regret matching (``"prm+"``, ``predictive=True``): its prediction of iteration
      ``t + 1`` is ``r^t``, which sampling replaces by ``r~^t``, zero at every infoset not sampled
      at ``t``; an infoset's strategy would change at the end of every iteration that skips it
      (the walks keep each infoset's strategy until its next update), and the predictive bound,
      in ``sum_t ||r^t - r^{t-1}||^2``, is dominated by the sampling variance;
    * Hedge (``"hedge"``): its learning rate ``eta_t`` changes every strategy at every ``t``, and
      its safe rate assumes regrets within the payoff range, which importance-weighted sampled
      regrets exceed;
    * any other minimizer, including a subclass of ``RegretMatching`` that changes its update
      or strategy (the walks would not run its code).
    """
    if spec is None:
        return RegretMatching()
    minimizer = minimizer_from(spec)
    kind = type(minimizer)
    if (not isinstance(minimizer, RegretMatching) or kind.update is not RegretMatching.update
            or kind.strategy is not RegretMatching.strategy):
        raise SolverError(f"the sampling solvers take regret matching with discounts (\"rm\", "
                          f"\"rm+\", RegretMatching(alpha, beta)), not {minimizer!r}: its strategy "
                          "is not regret matching on the sampled regrets")
    if minimizer.predictive:
        raise SolverError(f"the sampling solvers refuse predictive regret matching ({minimizer!r}): "
                          "its prediction, the last sampled regret, is zero at every infoset not "
                          "sampled, and sampling noise swamps what predicting could gain")
    return minimizer


def _is_plain(minimizer: RegretMatching) -> bool:
    """Whether ``minimizer`` is the default, vanilla regret matching."""
    return type(minimizer) is RegretMatching and minimizer.params() == RegretMatching().params()


class SamplingSolver(Solver):
    """Base of the sampling solvers: a seeded generator ``rng`` (its state is saved with the
    solver), the local rule ``regret_minimizer`` and the walk of the chosen backend, which owns
    the tables (``tables``).

    Every sampling solver takes ``(game, *, seed=0, backend="auto", regret_minimizer=None, ...)``
    with its own options after those, all by keyword; ``regret_minimizer`` is checked by
    :func:`sampling_minimizer` and needs the tree backend unless it is plain regret matching.
    A subclass is configuration: ``_scheme()`` says what to walk.
    """

    sampled = True

    def __init__(self, game: Game, *positional: object, seed: int = 0, backend: str = "auto",
                 regret_minimizer: RegretMinimizer | str | None = None) -> None:
        if positional:
            raise SolverError(f"{type(self).__name__} takes its options by keyword only "
                              f"(seed=, backend=, ...), got the positional {positional!r}")
        super().__init__(game)
        self.seed = check_seed(seed)
        self.regret_minimizer = sampling_minimizer(regret_minimizer)
        self.rng = np.random.default_rng(self.seed)
        self.backend = choose_backend(game, backend)
        scheme = self._scheme()
        if self.backend == "tree":
            self.tables: TreeWalk | StateWalk = TreeWalk(game, self.rng, scheme)
        elif _is_plain(self.regret_minimizer):
            self.tables = StateWalk(game, self.rng, scheme,
                                    lambda: choose_backend(game, "auto") == "tree")
        else:
            raise SolverError(f"{self.regret_minimizer!r} needs the compiled tree (backend=\"tree\"); "
                              f"the states backend{' chosen for ' + game.name if backend == 'auto' else ''} "
                              "runs the textbook recursions, plain regret matching only")
        self.batch = self.tables.batch

    def _scheme(self) -> Scheme:
        """What this solver walks, from its options."""
        raise NotImplementedError

    def _iterations(self, n: int) -> None:
        self.nodes_touched += self.tables.run(n, self.iterations)

    # ------------------------------------------------------------------ strategies
    def average_strategy(self) -> Strategy:
        """``sigma-bar(I, a) = S(I, a) / sum_b S(I, b)`` (uniform where ``S`` is still zero), a
        ``cfrlib.Strategy`` (a ``TableStrategy`` of the infosets met when the game is too large
        to compile)."""
        return self.tables.average_strategy()

    def current_strategy(self) -> Strategy:
        """``sigma^{T+1}``: regret matching on the cumulative regrets (same types as
        ``average_strategy``)."""
        return self.tables.current_strategy()

    def exploitability(self) -> float:
        """Exploitability of the average strategy; a ``SolverError`` for a game too large to
        compile."""
        if not self.tables.compilable:
            raise SolverError(f"{self.game.name} is too large to compile, and exact exploitability "
                              "needs the whole tree; evaluate the strategy by sampling instead")
        return super().exploitability()

    # ------------------------------------------------------- the tables, read directly
    @property
    def table(self) -> InfosetTable:
        """The ``InfosetTable`` of the states backend (infosets met so far)."""
        if self.backend != "states":
            raise SolverError("only the states backend has an InfosetTable; with the tree backend "
                              "read solver.regret and solver.strategy_sum")
        assert isinstance(self.tables, StateWalk)
        return self.tables.table

    @property
    def regret(self) -> list[list[float]]:
        """``R^T(I, a)`` of the tree backend, one list per infoset in the tree's order (with a
        discounting rule, every row discounted up to iteration ``T``)."""
        walk = self._walk("regret")
        return walk.rows(walk.settled_regret(self.iterations))

    @property
    def strategy_sum(self) -> list[list[float]]:
        """``S(I, a)`` of the tree backend, one list per infoset in the tree's order."""
        walk = self._walk("strategy_sum")
        return walk.rows(walk.strategy_sum)

    def regret_variance(self, samples: int = 1000) -> NDArray[np.float64]:
        """``Var[R^{T+1}(I, a) - R^T(I, a)]``, the variance of one iteration's sampled regret
        update from the current tables, per entry (``num_infosets x max_actions``, zero beyond
        the legal actions), estimated from ``samples`` independent iterations ``T + 1`` (tree
        backend). The tables are put back afterwards; the generator moves on."""
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
            raise SolverError(f"samples must be an integer >= 2, got {samples!r}")
        walk, done = self._walk("regret_variance()"), self.iterations
        saved = walk.arrays()
        start = walk.settled_regret(done)
        fresh = {**saved, "uniforms": np.zeros(0)}   # every sample draws anew
        changes = np.empty((int(samples),) + start.shape)
        for k in range(int(samples)):
            walk.restore(fresh)
            walk.run(1, done)
            changes[k] = walk.settled_regret(done + 1) - start
        walk.restore(saved)
        return cast(NDArray[np.float64], changes.var(axis=0, ddof=1))

    def _walk(self, field: str) -> TreeWalk:
        if not isinstance(self.tables, TreeWalk):
            raise SolverError(f"solver.{field} is the tree backend's; with the states backend "
                              "read solver.table")
        return self.tables

    # --------------------------------------------------------------- save / resume
    def _params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"seed": self.seed, "backend": self.backend}
        if not _is_plain(self.regret_minimizer):
            params["regret_minimizer"] = [type(self.regret_minimizer).__name__,
                                          self.regret_minimizer.params()]
        return params

    def _arrays(self) -> dict[str, NDArray[Any]]:
        return self.tables.arrays()

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        self.tables.restore(arrays)
