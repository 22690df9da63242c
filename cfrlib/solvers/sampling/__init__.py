"""The sampling family: chance-sampled CFR, external-sampling and outcome-sampling MCCFR.

Each solver runs on the compiled tree when the game fits (fast walks over plain lists, one
module per algorithm) and on the state API otherwise (the textbook recursions of
``cfrlib.textbook.sampling``); ``cfrlib.solvers.sampling.common`` holds what they share.
"""

from .chance import ChanceSamplingCFR
from .external import ExternalSamplingMCCFR
from .outcome import OutcomeSamplingMCCFR

__all__ = ["ChanceSamplingCFR", "ExternalSamplingMCCFR", "OutcomeSamplingMCCFR"]
