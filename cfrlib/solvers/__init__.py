"""The solvers: the full-width CFR family and the sampling family, one interface."""

from .base import ConvergenceLog, Solver
from .sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

__all__ = ["ConvergenceLog", "Solver", "ChanceSamplingCFR", "ExternalSamplingMCCFR",
           "OutcomeSamplingMCCFR"]
from .fullwidth import CFR, DCFR, CFRPlus, FullWidthCFR, LinearCFR, PredictiveCFRPlus  # noqa: E402
__all__ += ["CFR", "CFRPlus", "DCFR", "FullWidthCFR", "LinearCFR", "PredictiveCFRPlus"]
