"""The solvers, one interface (:class:`Solver`): the full-width CFR family as one engine
(:mod:`cfrlib.solvers.fullwidth`) and the sampling family (:mod:`cfrlib.solvers.sampling`)."""

from .base import SOLVERS, ConvergenceLog, Solver, solver_class
from .fullwidth import CFR, DCFR, CFRPlus, FullWidthCFR, LinearCFR, PredictiveCFRPlus
from .sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

__all__ = ["SOLVERS", "solver_class", "ConvergenceLog", "Solver", "FullWidthCFR", "CFR", "CFRPlus", "LinearCFR", "DCFR",
           "PredictiveCFRPlus", "ChanceSamplingCFR", "ExternalSamplingMCCFR",
           "OutcomeSamplingMCCFR"]
