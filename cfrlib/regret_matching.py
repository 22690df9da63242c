"""Regret matching on matrix games (chapter 1), keeping every iteration so that it can be plotted.

In a zero-sum matrix game with payoff matrix ``A`` (player 0 picks a row, player 1 a column,
player 0 receives ``A[a, b]``), each player ``i`` at iteration ``t`` plays ``sigma_i^t``, and
every action ``a`` has the instantaneous regret

    r_i^t(a) = u_i(a, sigma_{-i}^t) - u_i(sigma^t),

how much better ``a`` would have done against the other's mix. Regret matching plays
``sigma_i^{t+1}(a) = [R_i^t(a)]^+ / sum_b [R_i^t(b)]^+`` (uniform when no regret is positive) with
``R_i^t = R_i^{t-1} + r_i^t``; regret matching+ (RM+) clips instead, ``R_i^t = max(R_i^{t-1} + r_i^t, 0)``.
Both players update simultaneously. The current strategies may cycle; the average strategies
``sigma-bar_i^T = sum_t w_t sigma_i^t / sum_t w_t`` converge to an equilibrium, because the
average regret ``max_a (1/T) sum_t r_i^t(a)`` goes to 0 (at rate ``1/sqrt(T)``).

:mod:`cfrlib.textbook.regret_matching` is the same algorithm in a few readable lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .checks import check_iterations, sums_to_one
from .errors import SolverError, StrategyError
from .games.matrix import MatrixGame, matrix_game
from .jit import compiled

Mix = Union[Mapping[str, float], ArrayLike]
"""A mixed strategy of a matrix game, ``{action: probability}`` or one probability per action."""


@dataclass(frozen=True)
class RegretMatchingRun:
    """Every iteration of a regret-matching run; row ``t - 1`` of each array is iteration ``t``.

    ``current[i]`` (``T x |A_i|``): ``sigma_i^t``, the strategy played at iteration ``t``.
    ``average[i]``: ``sigma-bar_i^t``, the weighted average of ``sigma_i^1 .. sigma_i^t``.
    ``cumulative_regret[i]``: ``R_i^t(a)`` as regret matching keeps it (clipped for RM+).
    ``regret[i]`` (length ``T``): the measured average regret ``max_a (1/t) sum_{s<=t} r_i^s(a)``.
    ``exploitability`` (length ``T``): ``(max_a u_0(a, sigma-bar_1) - min_b u_0(sigma-bar_0, b)) / 2``,
    the exploitability of the average profile.
    """

    game: MatrixGame
    plus: bool
    opponent: NDArray[np.float64] | None
    current: tuple[NDArray[np.float64], NDArray[np.float64]]
    average: tuple[NDArray[np.float64], NDArray[np.float64]]
    cumulative_regret: tuple[NDArray[np.float64], NDArray[np.float64]]
    regret: tuple[NDArray[np.float64], NDArray[np.float64]]
    exploitability: NDArray[np.float64]

    @property
    def iterations(self) -> int:
        """``T``, the number of iterations run."""
        return len(self.exploitability)

    def average_strategy(self, player: int) -> dict[str, float]:
        """``{action: probability}`` of ``sigma-bar_i^T``."""
        return dict(zip(self.game.actions[player], self.average[player][-1].tolist()))


def run_regret_matching(game: MatrixGame | ArrayLike, iterations: int, *,
                        opponent: Mix | None = None, plus: bool = False,
                        averaging: Literal["uniform", "linear"] = "uniform",
                        initial: Sequence[Mix | None] | None = None) -> RegretMatchingRun:
    """Run regret matching (RM+ with ``plus=True``) on a matrix game for ``iterations`` rounds.

    ``game`` is a :class:`~cfrlib.games.MatrixGame` or player 0's payoff matrix. Without
    ``opponent`` both players learn (self-play); with ``opponent``, a mix over player 1's
    actions, player 1 keeps playing it and only player 0 learns. ``averaging="linear"`` weights
    iteration ``t`` by ``w_t = t`` in the average (``"uniform"``: ``w_t = 1``). ``initial`` is an
    optional pair of starting mixes ``(sigma_0^1, sigma_1^1)``, either of which may be ``None``
    (uniform).
    """
    if not isinstance(game, MatrixGame):
        game = matrix_game(game)
    T = check_iterations(iterations)
    if averaging not in ("uniform", "linear"):
        raise SolverError(f"averaging must be 'uniform' or 'linear', got {averaging!r}")
    A = game.payoffs
    sizes = A.shape
    start: list[Mix | None] = [None, None] if initial is None else list(initial)
    if len(start) != 2:
        raise StrategyError(f"initial must be a pair of mixes (player 0, player 1), got {initial!r}")
    fixed = None
    if opponent is not None:
        if start[1] is not None:
            raise StrategyError("initial[1] conflicts with opponent: player 1 plays the fixed mix")
        fixed = _check_mix(opponent, game.column_actions, "opponent")
        start[1] = fixed
    sigma = [_check_mix(s, acts, f"initial[{i}]") if s is not None else np.full(n, 1.0 / n)
             for i, (s, acts, n) in enumerate(zip(start, game.actions, sizes))]

    current = [np.empty((T, n)) for n in sizes]
    average = [np.empty((T, n)) for n in sizes]
    cumulative = [np.empty((T, n)) for n in sizes]
    regret = [np.empty(T) for _ in sizes]
    exploitability = np.empty(T)
    R = [np.zeros(n) for n in sizes]             # R_i^t as regret matching keeps it
    true_regret = [np.zeros(n) for n in sizes]   # sum_s r_i^s, never clipped
    weighted_sum = [np.zeros(n) for n in sizes]
    total_weight = 0.0
    for t in range(1, T + 1):
        values = (row_values(A, sigma[1]), -column_values(sigma[0], A))  # u_i(a, sigma_{-i}^t)
        weight = float(t) if averaging == "linear" else 1.0
        total_weight += weight
        for i in (0, 1):
            current[i][t - 1] = sigma[i]
            weighted_sum[i] += weight * sigma[i]
            average[i][t - 1] = weighted_sum[i] / total_weight
            r = values[i] - (sigma[i] * values[i]).sum()
            true_regret[i] += r
            regret[i][t - 1] = true_regret[i].max() / t
            R[i] = np.maximum(R[i] + r, 0.0) if plus else R[i] + r
            cumulative[i][t - 1] = R[i]
        exploitability[t - 1] = (row_values(A, average[1][t - 1]).max()
                                 - column_values(average[0][t - 1], A).min()) / 2.0
        sigma = [matched_strategy(R[0]), fixed if fixed is not None else matched_strategy(R[1])]
    return RegretMatchingRun(game, bool(plus), fixed, (current[0], current[1]),
                             (average[0], average[1]), (cumulative[0], cumulative[1]),
                             (regret[0], regret[1]), exploitability)


def row_values(A: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    """``A y``, the value of each row against the column mix ``y``, summed in a fixed order.

    Not ``A @ y``: BLAS picks its kernel by the CPU (AVX2, AVX-512, with or without fused
    multiply-add), so the last bit of ``A @ y`` can differ between machines, and regret
    matching+ in self-play turns such a bit into a different figure. A product then a sum over
    a short row rounds the same way everywhere.
    """
    return (A * y).sum(axis=1)


def column_values(x: NDArray[np.float64], A: NDArray[np.float64]) -> NDArray[np.float64]:
    """``x^T A``, the value of each column against the row mix ``x``, summed in a fixed order
    (see :func:`row_values`)."""
    return (x[:, None] * A).sum(axis=0)


def matched_strategy(R: ArrayLike, mask: ArrayLike | None = None) -> NDArray[np.float64]:
    """Regret matching's next strategy along the last axis of ``R`` (one row of regrets, or a
    table with one row per infoset): ``sigma(a) = [R(a)]^+ / sum_b [R(b)]^+``, and where no regret
    of a row is positive, uniform over that row's legal actions ``mask`` (all actions by default).

    The form of regret matching for numpy rows and tables; the dictionary form, written to be
    read, is :func:`cfrlib.textbook.regret_matching.regret_matching`, and the compiled walks'
    scalar form ``cfrlib.solvers.sampling.kernels.regret_match``. Its numbers are those of numpy's
    ``np.maximum(R, 0)``, its sum along the last axis and a division, bit for bit (a row's sum in
    numpy's order: left to right below eight actions, pairwise from eight), computed row by row
    in compiled code (:func:`_match_rows`): on Leduc's tables in under a third of the time of the
    numpy calls.
    """
    R = np.asarray(R, dtype=np.float64)
    if R.ndim == 0:
        raise StrategyError("matched_strategy needs regrets along an axis of actions, got a number")
    legal = (np.ones(R.shape) if mask is None else mask if np.shape(mask) == R.shape
             else np.broadcast_to(mask, R.shape))
    out = np.empty(R.shape)
    if R.size:
        width = R.shape[-1]
        _compile()
        _match_rows(np.ascontiguousarray(R).reshape(-1, width),
                    np.ascontiguousarray(legal, dtype=np.float64).reshape(-1, width),
                    out.reshape(-1, width))
    return out


def _match_rows(R: NDArray[np.float64], legal: NDArray[np.float64], out: NDArray[np.float64]) -> None:
    """``out = max(R, 0) / sum_a max(R, 0)`` row by row, ``legal / sum_a legal`` where the sum is not
    positive; as with numpy, a NaN stays NaN and a row with neither a positive regret nor a legal
    action is NaN (0 / 0, numba's numpy error model)."""
    rows, width = R.shape
    for r in range(rows):
        total = 0.0
        for a in range(width):
            x = R[r, a]
            out[r, a] = 0.0 if x <= 0.0 else x      # np.maximum(x, 0.0): +0.0 for -0.0, NaN kept
            total += out[r, a]                      # numpy's order below eight actions
        if width >= 8:
            total = _pairwise_sum(out[r])           # and from eight
        if total <= 0.0:                            # no positive regret: uniform over the legal ones
            total = 0.0
            for a in range(width):
                out[r, a] = legal[r, a]
                total += out[r, a]
            if width >= 8:
                total = _pairwise_sum(out[r])
        for a in range(width):
            out[r, a] /= total


def _pairwise_sum(row: NDArray[np.float64]) -> float:
    """``row.sum()`` in numpy's order for 8 or more terms, its pairwise summation: up to 128 terms
    as :func:`_block_sum` adds them; a longer row split in two halves, the first a multiple of 8,
    each summed so, then added. The halves are walked with a stack (allocated only for such rows)
    rather than by recursion, which numba cannot cache."""
    n = len(row)
    if n <= 128:
        return _block_sum(row)
    lo = 0
    right_lo, right_n = np.empty(64, np.int64), np.empty(64, np.int64)  # halves still to sum
    left, has_left = np.empty(64), np.zeros(64, np.bool_)             # their left halves' sums
    top = 0
    while True:
        while n > 128:  # down the left halves
            half = n // 2 - n // 2 % 8
            right_lo[top], right_n[top], has_left[top] = lo + half, n - half, False
            top += 1
            n = half
        total = _block_sum(row[lo:lo + n])
        while top > 0 and has_left[top - 1]:  # both halves of a split summed: add them
            top -= 1
            total = left[top] + total
        if top == 0:
            return total
        left[top - 1], has_left[top - 1] = total, True
        lo, n = right_lo[top - 1], right_n[top - 1]


def _block_sum(row: NDArray[np.float64]) -> float:
    """``row.sum()`` for 8 to 128 terms in numpy's order: eight running sums, combined as
    ``((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))``, then the remaining terms."""
    n = len(row)
    s0, s1, s2, s3, s4, s5, s6, s7 = row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
    k = 8
    while k < n - n % 8:
        s0, s1, s2, s3 = s0 + row[k], s1 + row[k + 1], s2 + row[k + 2], s3 + row[k + 3]
        s4, s5, s6, s7 = s4 + row[k + 4], s5 + row[k + 5], s6 + row[k + 6], s7 + row[k + 7]
        k += 8
    total = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    while k < n:
        total += row[k]
        k += 1
    return total


_COMPILED = False


def _compile() -> None:
    """Replace :func:`_match_rows` and the sums it calls by their numba-compiled versions
    (:func:`cfrlib.jit.compiled`), on first use."""
    global _COMPILED, _match_rows, _pairwise_sum, _block_sum
    if not _COMPILED:
        _block_sum = compiled(_block_sum)
        _pairwise_sum = compiled(_pairwise_sum)  # calls _block_sum, compiled
        _match_rows = compiled(_match_rows, error_model="numpy")  # x / 0 as numpy divides it
        _COMPILED = True


def _check_mix(mix: Mix, actions: Sequence[str], name: str) -> NDArray[np.float64]:

    """A probability vector over ``actions`` from a sequence or ``{action: probability}``."""
    if isinstance(mix, dict):
        unknown = [a for a in mix if a not in actions]
        if unknown:
            raise StrategyError(f"{name}: unknown action(s) {unknown}; the actions are {list(actions)}")
        mix = [mix.get(a, 0.0) for a in actions]
    try:
        p = np.array(mix, dtype=float)
    except (TypeError, ValueError):
        raise StrategyError(f"{name}: {mix!r} is not a list of probabilities") from None
    if p.shape != (len(actions),):
        raise StrategyError(f"{name}: expected {len(actions)} probabilities (one per action "
                            f"{list(actions)}), got {p.size if p.ndim == 1 else p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise StrategyError(f"{name}: probabilities {p.tolist()} must be finite and non-negative")
    if not sums_to_one(p.sum(), len(p)):
        raise StrategyError(f"{name}: probabilities {p.tolist()} sum to {p.sum():.6g}, not 1")
    return p
