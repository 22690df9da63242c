"""cfrlib: Counterfactual Regret Minimization, from regret matching to DCFR.

The library behind the book. Games (:mod:`cfrlib.games`) are written as their rules and
compiled once into flat arrays (:mod:`cfrlib.tree`); strategies (:mod:`cfrlib.strategy`) are
evaluated exactly (:mod:`cfrlib.evaluation`); the solvers share one interface
(:mod:`cfrlib.solvers`): the full-width CFR family as one engine and the sampling family. Short
recursive versions of every algorithm, for reading, live in :mod:`cfrlib.textbook`.
"""

from typing import TYPE_CHECKING, Any

from . import games
from .abstraction import abstract_game, lift_strategy, rank_buckets
from .errors import (AbstractionError, CfrlibError, ChanceProbabilityError, GameError,
                     GameFormatError, ImperfectRecallError, InfosetMismatchError, NotZeroSumError,
                     SolverError, StrategyError)
from .evaluation import (BestResponse, best_response, best_response_value, exploitability,
                         expected_value, nash_conv)
from .game import CHANCE, TERMINAL, Game, State
from .playouts import head_to_head, play_games
from .purification import purify, threshold
from .regret_matching import RegretMatchingRun, run_regret_matching
from .solvers import (CFR, DCFR, CFRPlus, ChanceSamplingCFR, ConvergenceLog,
                      ExternalSamplingMCCFR, FullWidthCFR, LinearCFR, OutcomeSamplingMCCFR,
                      PredictiveCFRPlus, PublicChanceSamplingCFR, Solver)
from .solvers import (Hedge, HedgeCFR, PredictiveRegretMatchingPlus, RegretMatching,
                      RegretMatchingPlus, RegretMinimizer)
from .solvers import (APCFRPlus, AsymmetricPredictiveRegretMatchingPlus, DCFRPlus,
                      OffsetDiscountedRegretMatchingPlus, PDCFRPlus, RTCFRPlus, SAPCFRPlus)
from .solvers import MMD, ExRMPlus, SPRMPlus
from .strategy import Strategy, uniform_strategy

if TYPE_CHECKING:  # at run time loaded on first use, by __getattr__
    from .lp import LPSolution, solve_lp

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``solve_lp`` and ``LPSolution`` on first use: the LP needs scipy.optimize, about 50 MB of
    memory that a run which never calls it should not pay (Bluff's peak stays under 300 MB)."""
    if name in ("solve_lp", "LPSolution"):
        from . import lp

        return getattr(lp, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "games", "Game", "State", "CHANCE", "TERMINAL",
    "abstract_game", "lift_strategy", "rank_buckets", "AbstractionError",
    "Strategy", "uniform_strategy", "purify", "threshold",
    "expected_value", "best_response", "best_response_value", "BestResponse", "nash_conv",
    "exploitability",
    "solve_lp", "LPSolution",
    "Solver", "ConvergenceLog", "FullWidthCFR", "CFR", "CFRPlus", "LinearCFR", "DCFR",
    "PredictiveCFRPlus", "ChanceSamplingCFR", "ExternalSamplingMCCFR", "OutcomeSamplingMCCFR",
    "PublicChanceSamplingCFR", "HedgeCFR", "RegretMinimizer", "RegretMatching", "RegretMatchingPlus",
    "PredictiveRegretMatchingPlus", "Hedge",
    "DCFRPlus", "PDCFRPlus", "SAPCFRPlus", "APCFRPlus", "RTCFRPlus", "ExRMPlus", "SPRMPlus", "MMD",
    "AsymmetricPredictiveRegretMatchingPlus", "OffsetDiscountedRegretMatchingPlus",
    "run_regret_matching", "RegretMatchingRun", "play_games", "head_to_head",
    "CfrlibError", "GameError", "ChanceProbabilityError", "NotZeroSumError",
    "InfosetMismatchError", "ImperfectRecallError", "StrategyError", "SolverError",
    "GameFormatError",
]
