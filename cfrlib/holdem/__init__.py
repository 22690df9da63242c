"""No-limit hold'em subgames solved by range-vector CFR.

The cards and their strengths (:mod:`~cfrlib.holdem.cards`, :mod:`~cfrlib.holdem.evaluator`), the
O(n) fold and showdown values with card removal (:mod:`~cfrlib.holdem.showdown`), the bet sizes
and tree configuration as players write them (:mod:`~cfrlib.holdem.spot`), the public tree
(:mod:`~cfrlib.holdem.tree`), range games and their game trees (:mod:`~cfrlib.holdem.game`), the
solver (:mod:`~cfrlib.holdem.solver`) and Kuhn, Leduc and the clairvoyance game as range games
(:mod:`~cfrlib.holdem.toys`).
"""

# The sampling kernels' module points numba's cache at a writable folder when the installation's own
# is read-only (cache_fallback); it must run before this package's kernels are decorated.
from ..solvers.sampling import kernels as _cache_fallback  # noqa: F401
from .game import RangeGame, holdem_game
from .solver import RangeSolver
from .spot import BetSize, BetSizes, TreeConfig, parse_bet_sizes
from .tree import Action, PublicTree

__all__ = ["Action", "BetSize", "BetSizes", "PublicTree", "RangeGame", "RangeSolver", "TreeConfig",
           "holdem_game", "parse_bet_sizes"]
