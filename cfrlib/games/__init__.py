"""The games of the book, each written as its rules (see each module's docstring)."""

from .bluff import Bluff, bluff
from .kuhn import Kuhn, kuhn
from .leduc import Leduc, leduc
from .matrix import MatrixGame, matrix_game, rps

__all__ = ["Bluff", "Kuhn", "Leduc", "MatrixGame", "bluff", "kuhn", "leduc", "matrix_game", "rps"]
