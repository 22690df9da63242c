"""What the three sampling solvers share: the choice of backend, the seeded generator, the
tables of regrets and average-strategy sums (``cfrlib.solvers.sampling.tables``), strategies,
and saving and resuming.

Two backends hold the same numbers behind one interface (``TreeTables`` and ``StateTables``):

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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...checks import check_seed
from ...errors import SolverError
from ...game import Game
from ...strategy import Strategy
from ...textbook.sampling import InfosetTable
from ..base import Solver
from .tables import StateTables, TableStrategy, TreeTables, UniformStream

__all__ = ["SamplingSolver", "TableStrategy", "UniformStream", "choose_backend",
           "estimate_num_nodes"]

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


class SamplingSolver(Solver):
    """Base of the sampling solvers: a seeded generator ``rng`` (its state is saved with the
    solver) and the tables of the chosen backend (``tables``).

    Every sampling solver takes ``(game, *, seed=0, backend="auto", ...)`` with its own options
    after those, all by keyword. Subclasses implement ``_tree_iterations(tables, n)`` (``n``
    iterations with the compiled walk on a ``TreeTables``, returns the nodes touched) and
    ``_traverse_states(table, rng)`` (one iteration with the textbook recursions, counting in
    the ``InfosetTable``).
    """

    sampled = True

    def __init__(self, game: Game, *positional: object, seed: int = 0, backend: str = "auto") -> None:
        if positional:
            raise SolverError(f"{type(self).__name__} takes its options by keyword only "
                              f"(seed=, backend=, ...), got the positional {positional!r}")
        super().__init__(game)
        self.seed = check_seed(seed)
        self.rng = np.random.default_rng(self.seed)
        self.backend = choose_backend(game, backend)
        if self.backend == "tree":
            self.tables: TreeTables | StateTables = TreeTables(game, self.rng)
        else:
            self.tables = StateTables(game, self.rng,
                                      lambda: choose_backend(game, "auto") == "tree")
        self.batch = self.tables.batch

    def _tree_iterations(self, t: TreeTables, n: int) -> int:
        """``n`` iterations with the compiled walk on ``t``; returns the nodes touched."""
        raise NotImplementedError

    def _traverse_states(self, table: InfosetTable, rng: np.random.Generator) -> None:
        """One iteration with the textbook recursions, counting in ``table``."""
        raise NotImplementedError

    def _iterations(self, n: int) -> None:
        self.nodes_touched += self.tables.run(self, n)

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
        assert isinstance(self.tables, StateTables)
        return self.tables.table

    @property
    def regret(self) -> list[list[float]]:
        """``R^T(I, a)`` of the tree backend, one list per infoset in the tree's order."""
        return self._rows("regret")

    @property
    def strategy_sum(self) -> list[list[float]]:
        """``S(I, a)`` of the tree backend, one list per infoset in the tree's order."""
        return self._rows("strategy_sum")

    def _rows(self, field: str) -> list[list[float]]:
        if self.backend != "tree":
            raise SolverError(f"solver.{field} is the tree backend's; with the states backend "
                              "read solver.table")
        assert isinstance(self.tables, TreeTables)
        return self.tables.rows(getattr(self.tables, field))

    # --------------------------------------------------------------- save / resume
    def _params(self) -> dict[str, Any]:
        return {"seed": self.seed, "backend": self.backend}

    def _arrays(self) -> dict[str, NDArray[Any]]:
        return self.tables.arrays()

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        self.tables.restore(arrays)
