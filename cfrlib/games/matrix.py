"""Two-player zero-sum matrix (normal-form) games, such as rock-paper-scissors.

A matrix game is given by player 0's payoff matrix ``A``: player 0 picks a row ``i``, player 1
picks a column ``j`` at the same time, and player 0 receives ``A[i, j]`` (player 1 receives
``-A[i, j]``). Regret matching (chapter 1) works on the matrix directly; the same game is also an
extensive-form game in which player 1 moves without seeing player 0's choice, so every tool of
the later chapters (best response, exploitability, CFR) applies to it unchanged. Infoset keys are
``"P0"`` and ``"P1"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import GameError
from ..game import TERMINAL, Game, State


class MatrixGame(Game):
    """A zero-sum game given by player 0's payoff matrix (rows: player 0's actions)."""

    def __init__(self, payoffs: ArrayLike, row_actions: Sequence[str] | None = None,
                 column_actions: Sequence[str] | None = None, name: str = "matrix") -> None:
        A = np.array(payoffs, dtype=float)
        if A.ndim != 2 or A.size == 0:
            raise GameError(f"{name}: the payoff matrix must be a non-empty 2-D array, got shape {A.shape}")
        if not np.all(np.isfinite(A)):
            raise GameError(f"{name}: the payoff matrix has non-finite entries")
        rows = list(row_actions) if row_actions is not None else [f"r{i}" for i in range(A.shape[0])]
        cols = list(column_actions) if column_actions is not None else [f"c{j}" for j in range(A.shape[1])]
        if len(rows) != A.shape[0] or len(cols) != A.shape[1]:
            raise GameError(f"{name}: {len(rows)} row and {len(cols)} column names for a "
                            f"{A.shape[0]}x{A.shape[1]} payoff matrix")
        self.payoffs: NDArray[np.float64] = A
        self.payoffs.flags.writeable = False
        self.row_actions, self.column_actions = rows, cols
        self.name = name

    @property
    def actions(self) -> tuple[list[str], list[str]]:
        """Each player's action names."""
        return self.row_actions, self.column_actions

    def initial_state(self) -> MatrixState:
        return MatrixState(self, ())

    def __repr__(self) -> str:
        return f"MatrixGame({self.name!r}, {self.payoffs.shape[0]}x{self.payoffs.shape[1]})"


class MatrixState(State):
    """A history of a matrix game: the actions chosen so far (row first)."""

    __slots__ = ("game", "moves")

    def __init__(self, game: MatrixGame, moves: tuple[str, ...]) -> None:
        self.game, self.moves = game, moves

    def current_player(self) -> int:
        return TERMINAL if len(self.moves) == 2 else len(self.moves)

    def legal_actions(self) -> list[str]:
        return [] if len(self.moves) == 2 else list(self.game.actions[len(self.moves)])

    def child(self, action: str) -> MatrixState:
        return MatrixState(self.game, self.moves + (action,))

    def infoset_key(self) -> str:
        return f"P{len(self.moves)}"

    def returns(self) -> tuple[float, float]:
        i = self.game.row_actions.index(self.moves[0])
        j = self.game.column_actions.index(self.moves[1])
        u0 = float(self.game.payoffs[i, j])
        return u0, -u0


def matrix_game(payoffs: ArrayLike, row_actions: Sequence[str] | None = None,
                column_actions: Sequence[str] | None = None, name: str = "matrix") -> MatrixGame:

    """A zero-sum matrix game from player 0's payoff matrix."""
    return MatrixGame(payoffs, row_actions, column_actions, name)


def rps() -> MatrixGame:
    """Rock-paper-scissors: win +1, lose -1, draw 0; unique equilibrium (1/3, 1/3, 1/3)."""
    return MatrixGame([[0, -1, 1], [1, 0, -1], [-1, 1, 0]],
                      ["rock", "paper", "scissors"], ["rock", "paper", "scissors"],
                      name="rps")
