"""The sampling family: chance-sampled CFR, external-sampling and outcome-sampling MCCFR, and
public chance sampling (``cfrlib.solvers.sampling.public``, numpy vectors over the private hands).

Each solver runs on the compiled tree when the game fits (``TreeWalk`` running the
compiled walks of ``cfrlib.solvers.sampling.kernels``) and on the state API otherwise
(``StateWalk`` running the textbook recursions of ``cfrlib.textbook.sampling``);
``cfrlib.solvers.sampling.common`` holds what they share.
"""

from .chance import ChanceSamplingCFR
from .external import ExternalSamplingMCCFR
from .outcome import OutcomeSamplingMCCFR
from .public import PublicChanceSamplingCFR
from .walk import TableStrategy

__all__ = ["ChanceSamplingCFR", "ExternalSamplingMCCFR", "OutcomeSamplingMCCFR", "PublicChanceSamplingCFR",
           "TableStrategy"]
