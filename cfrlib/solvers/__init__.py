"""The solvers, one interface (:class:`Solver`): the full-width CFR family as one engine
(:mod:`cfrlib.solvers.fullwidth`) and the sampling family (:mod:`cfrlib.solvers.sampling`)."""

from .base import SOLVERS, ConvergenceLog, Solver, solver_class
from .fullwidth import (CFR, DCFR, MMD, APCFRPlus, CFRPlus, DCFRPlus, ExRMPlus, FullWidthCFR, HedgeCFR, LinearCFR,
                        PDCFRPlus, PredictiveCFRPlus, RTCFRPlus, SAPCFRPlus, SPRMPlus)
from .regret_minimizers import (AsymmetricPredictiveRegretMatchingPlus, Hedge, OffsetDiscountedRegretMatchingPlus,
                                PredictiveRegretMatchingPlus, RegretMatching, RegretMatchingPlus, RegretMinimizer)
from .sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR, PublicChanceSamplingCFR

__all__ = ["SOLVERS", "solver_class", "ConvergenceLog", "Solver", "FullWidthCFR", "CFR", "CFRPlus", "LinearCFR", "DCFR",
           "PredictiveCFRPlus", "ChanceSamplingCFR", "ExternalSamplingMCCFR",
           "OutcomeSamplingMCCFR", "PublicChanceSamplingCFR", "HedgeCFR", "RegretMinimizer", "RegretMatching",
           "RegretMatchingPlus", "PredictiveRegretMatchingPlus", "Hedge", "DCFRPlus", "PDCFRPlus", "SAPCFRPlus",
           "RTCFRPlus", "APCFRPlus", "AsymmetricPredictiveRegretMatchingPlus", "OffsetDiscountedRegretMatchingPlus",
           "ExRMPlus", "SPRMPlus", "MMD"]
