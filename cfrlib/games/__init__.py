"""The games of the book, each written as its rules (see each module's docstring)."""

from .bluff import Bluff, bluff
from .coin_toss import CoinToss, coin_toss
from .kuhn import Kuhn, kuhn
from .leduc import Leduc, leduc
from .no_limit_leduc import NoLimitLeduc, no_limit_leduc
from .matrix import MatrixGame, matrix_game, rps
from .explicit import ExplicitGame, explicit_from_game
from .formats import load, save
from .openspiel import OpenSpielGame, from_openspiel

__all__ = ["Bluff", "CoinToss", "ExplicitGame", "Kuhn", "Leduc", "MatrixGame", "NoLimitLeduc", "OpenSpielGame",
           "bluff", "coin_toss", "explicit_from_game", "from_openspiel", "kuhn", "leduc", "load", "matrix_game",
           "no_limit_leduc", "rps", "save"]
