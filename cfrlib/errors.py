"""The errors cfrlib raises on bad input.

Every error says what is wrong and where (an infoset key, a history, a line and column of a
file), so that a mistake in a game definition or a strategy never surfaces as a traceback from
deep inside numpy or as a silently wrong number.
"""


class CfrlibError(ValueError):
    """Base class of every error cfrlib raises on bad input."""


class GameError(CfrlibError):
    """A game that cannot be solved as defined (its rules or its tree are inconsistent)."""


class NoActionsError(GameError):
    """A decision node without actions or a chance node without outcomes."""


class ChanceProbabilityError(GameError):
    """Chance probabilities that are negative or do not sum to 1."""


class NotZeroSumError(GameError):
    """A terminal whose payoffs do not add up to the game's constant sum."""


class InfosetMismatchError(GameError):
    """Histories in one information set that disagree on the acting player or the legal actions."""


class ImperfectRecallError(GameError):
    """A player who forgets what they knew or did (CFR's guarantees need perfect recall)."""


class StrategyError(CfrlibError):
    """A strategy that does not fit its game (unknown infoset, wrong actions, bad probabilities)."""


class SolverError(CfrlibError):
    """Bad solver parameters (iteration counts, epsilon, DCFR exponents, seeds)."""


class GameFormatError(CfrlibError):
    """A game file that cannot be read; the message names the place in the file."""
