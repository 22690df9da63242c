"""cfrlib: Counterfactual Regret Minimization, from regret matching to DCFR."""

from . import games
from .game import CHANCE, TERMINAL, Game, State

__version__ = "0.1.0"
from .errors import (CfrlibError, ChanceProbabilityError, GameError, GameFormatError,
                     ImperfectRecallError, InfosetMismatchError, NotZeroSumError, SolverError,
                     StrategyError)
from .evaluation import (BestResponse, best_response, best_response_value, exploitability,
                         expected_value, nash_conv)
from .strategy import Strategy, uniform_strategy
from .solvers.sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from .solvers.fullwidth import CFR, DCFR, CFRPlus, FullWidthCFR, LinearCFR, PredictiveCFRPlus
from .regret_matching import RegretMatchingRun, run_regret_matching
