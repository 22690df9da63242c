"""The solvers, one interface (:class:`Solver`): the full-width CFR family as one engine
(:mod:`cfrlib.solvers.fullwidth`) and the sampling family (:mod:`cfrlib.solvers.sampling`)."""

from .base import SOLVERS, ConvergenceLog, Solver, solver_class
from .fullwidth import CFR, DCFR, CFRPlus, FullWidthCFR, HedgeCFR, LinearCFR, PredictiveCFRPlus
from .regret_minimizers import (Hedge, PredictiveRegretMatchingPlus, RegretMatching,
                                RegretMatchingPlus, RegretMinimizer)
from .sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

__all__ = ["SOLVERS", "solver_class", "ConvergenceLog", "Solver", "FullWidthCFR", "CFR", "CFRPlus", "LinearCFR", "DCFR",
           "PredictiveCFRPlus", "ChanceSamplingCFR", "ExternalSamplingMCCFR",
           "OutcomeSamplingMCCFR", "HedgeCFR", "RegretMinimizer", "RegretMatching",
           "RegretMatchingPlus", "PredictiveRegretMatchingPlus", "Hedge"]
