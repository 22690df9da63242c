"""The solvers, one interface (:class:`Solver`): the full-width CFR family as one engine
(:mod:`cfrlib.solvers.fullwidth`) and the sampling family (:mod:`cfrlib.solvers.sampling`)."""

from .base import ConvergenceLog, Solver
from .fullwidth import CFR, DCFR, CFRPlus, FullWidthCFR, LinearCFR, PredictiveCFRPlus
from .sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

__all__ = ["ConvergenceLog", "Solver", "FullWidthCFR", "CFR", "CFRPlus", "LinearCFR", "DCFR",
           "PredictiveCFRPlus", "ChanceSamplingCFR", "ExternalSamplingMCCFR",
           "OutcomeSamplingMCCFR"]
