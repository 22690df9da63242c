"""The errors cfrlib raises on bad input.

Every error says what is wrong and where (an infoset key, a history, a line and column of a
file), so that a mistake in a game definition or a strategy never surfaces as a traceback from
deep inside numpy or as a silently wrong number. Every error class of cfrlib is defined here
(``tests/test_errors.py`` checks it); :mod:`cfrlib` exports the common ones and
:mod:`cfrlib.games.formats` those of game files.
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


class NotConstantSumError(NotZeroSumError):
    """Terminal payoffs of a game file whose sum ``u_0 + u_1`` varies by more than 0.1% of the range
    of ``u_0`` (see :mod:`cfrlib.games.explicit`)."""


class InfosetMismatchError(GameError):
    """Histories in one information set that disagree on the acting player or the legal actions."""


class ImperfectRecallError(GameError):
    """A player who forgets what they knew or did (CFR's guarantees need perfect recall)."""


class AbstractionError(GameError):
    """A bucket function or abstraction size that cannot make an abstract game."""


class StrategyError(CfrlibError):
    """A strategy that does not fit its game (unknown infoset, wrong actions, bad probabilities)."""


class InfosetKeyError(StrategyError, KeyError):
    """An infoset key that a strategy does not have, or that both players use (a ``(player, key)``
    pair tells them apart). Also a ``KeyError``, so that a strategy behaves as a mapping."""

    __str__ = StrategyError.__str__  # the message as written, not quoted as a KeyError's


class SolverError(CfrlibError):
    """Bad solver parameters (iteration counts, epsilon, DCFR exponents, seeds)."""


class CheckpointError(SolverError):
    """A checkpoint that the command line cannot resume: a missing or damaged file, one saved for
    another game, algorithm or parameters, or one with more iterations than the run asks for."""


class GameFormatError(CfrlibError):
    """A game file that cannot be read; the message names the place in the file."""


class JsonFormatError(GameFormatError):
    """Text that is not JSON, or JSON that is not a game tree (the message gives the line and
    column, or the JSON path such as ``$.chance.outcomes.single.state.player``)."""


class EfgParseError(GameFormatError):
    """A Gambit ``.efg`` file that cannot be read (the message gives the line and column)."""


class UnknownFormatError(GameFormatError):
    """Input that is neither JSON nor Gambit ``.efg`` text, or a format name cfrlib does not know."""


class DuplicateInfosetError(GameFormatError):
    """Two different information sets of one player with the same name, for example an unnamed
    infoset ``2`` (which gets the name ``"2"``) next to another infoset named ``"2"``."""


class CardError(CfrlibError):
    """Cards, a board, hole cards or a range that cannot be read (:mod:`cfrlib.holdem`): the
    message names the bad token (an unknown rank or suit, a card given twice, a board of the wrong
    length, a range token that is not hold'em notation)."""


class SubgameError(CfrlibError):
    """A subgame that cannot be re-solved: roots that are not histories of the game, nested or
    terminal roots, a set of roots that is not closed under the players' information (an infoset
    with histories inside and outside it), or an unknown re-solving method."""


class DeepCFRError(SolverError):
    """Bad Deep CFR options (:mod:`cfrlib.deep_cfr`): traversals, network widths, training steps,
    memory size, features that do not fit the game, or a game without built-in features."""



class SpotError(CfrlibError):
    """A poker spot that cannot be built (:mod:`cfrlib.holdem`): a bet size that does not parse
    (the message names the token), a pot or stack that is not positive, a threshold below 0,
    a board of the wrong length, or a node lock that does not fit its node."""
