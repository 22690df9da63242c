"""The theorems of chapters 1 and 5 as computations: bounds, and the quantities they bound.

* :func:`regret_matching_bound`: ``max_a R^T(a) <= Delta sqrt(|A| T)`` for regret matching (and
  RM+) with payoffs in a range of width ``Delta`` (Hart and Mas-Colell 2000; the potential
  argument of chapter 1).
* :func:`cfr_regret_bound`: ``R_i^T <= Delta |I_i| sqrt(|A|) sqrt(T)``, the bound on player ``i``'s
  overall regret that CFR inherits from its per-infoset regrets (Zinkevich et al. 2007).
* :func:`cfr_regret_trace`: runs vanilla CFR and measures, at chosen iterations, each player's
  overall regret against the strategies it actually faced, the sum of its positive
  per-infoset regrets, the NashConv of the average profile, the improvement term of alternating
  updates (Burch, Moravcik and Schmid 2019) and how far the reach-weighted average strategy's
  realization plan is from the average of the realization plans played.
* :func:`regret_matching_bimatrix`: regret matching in self-play on a general-sum two-player
  matrix game (bimatrix ``A``, ``B``), with the coarse-correlated-equilibrium gap of the empirical
  joint play and the Nash gap of the average strategies.

Notation as in the book: ``sigma^t`` is the strategy of iteration ``t``, ``x_i^t`` player ``i``'s
realization plan under it, ``R^T(I, a)`` the cumulative counterfactual regret, ``u_i`` player
``i``'s expected payoff, ``R_i^T = max_{sigma'_i} sum_t u_i(sigma'_i, sigma_{-i}^t) - sum_t u_i(sigma^t)``
player ``i``'s overall regret.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cfrlib.checks import check_iterations, sums_to_one
from cfrlib.errors import CfrlibError, NotZeroSumError, SolverError
from cfrlib.evaluation import behaviour_strategy, counterfactual_values, nash_conv, realization_plan
from cfrlib.game import Game
from cfrlib.regret_matching import column_values, matched_strategy, row_values
from cfrlib.solvers.fullwidth import CFR
from cfrlib.strategy import Strategy


def _check_positive(name: str, value: ArrayLike) -> NDArray[np.float64]:
    value = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(value)) or np.any(value <= 0):
        raise CfrlibError(f"{name} must be positive and finite, got {value.tolist()!r}")
    return value


def regret_matching_bound(payoff_range: ArrayLike, num_actions: ArrayLike,
                          iterations: ArrayLike) -> np.float64 | NDArray[np.float64]:
    """``Delta sqrt(|A| T)``: the largest cumulative regret ``max_a R^T(a)`` regret matching (or RM+)
    can have after ``T`` rounds with ``|A|`` actions and payoffs in a range of width ``Delta``.

    ``iterations`` may be an array of ``T`` values; the result then has its shape.
    """
    delta = _check_positive("payoff_range", payoff_range)
    actions = _check_positive("num_actions", num_actions)
    T = _check_positive("iterations", iterations)
    return delta * np.sqrt(actions * T)


def cfr_regret_bound(game: Game, player: int,
                     iterations: ArrayLike) -> np.float64 | NDArray[np.float64]:
    """``Delta |I_i| sqrt(|A|) sqrt(T)``: Zinkevich et al.'s bound on player ``i``'s overall regret
    after ``T`` iterations of CFR, with ``Delta`` the game's payoff range, ``|I_i|`` the number of
    player ``i``'s infosets and ``|A|`` the largest number of actions at one of them."""
    if player not in (0, 1):
        raise CfrlibError(f"player must be 0 or 1, got {player!r}")
    tree = game.tree()
    mine = tree.infoset_player == player
    payoffs = tree.terminal_payoff
    delta = float(payoffs.max() - payoffs.min())
    actions = int(tree.infoset_num_actions[mine].max(initial=1))
    return float(np.count_nonzero(mine)) * regret_matching_bound(delta, actions, iterations)


@dataclass(frozen=True)
class CFRRegretTrace:
    """What :func:`cfr_regret_trace` measured; row ``k`` of each array is iteration ``iteration[k]``.

    ``overall_regret[k, i]``: ``R_i^T``, player ``i``'s regret against the opponent strategies its
    own walks faced (with alternating updates player 1 faces ``sigma_0^{t+1}``).
    ``infoset_regret[k, i]``: ``sum_{I in I_i} max_a R^{T,+}(I, a)``, the bound of the decomposition.
    ``nash_conv[k]``: NashConv of the solver's average profile ``sigma-bar^T``.
    ``nash_conv_faced[k]``: NashConv of the profile whose player 0 part averages the strategies
    player 1 faced (``sigma_0^2 .. sigma_0^{T+1}``, alternating) and whose player 1 part is
    ``sigma-bar_1^T``; with simultaneous updates it equals ``nash_conv``.
    ``improvement[k]``: ``sum_t [u_0(sigma_0^{t+1}, sigma_1^t) - u_0(sigma_0^t, sigma_1^t)]``, what player 0's
    updates gained against the strategy they answered (0 with simultaneous updates).
    ``plan_gap[k]``: the largest difference between the realization plan of ``sigma-bar^T`` and the
    average of the realization plans ``x_i^1 .. x_i^T``, over both players' sequences.
    """

    game_name: str
    alternating: bool
    iteration: NDArray[np.int64]
    overall_regret: NDArray[np.float64]
    infoset_regret: NDArray[np.float64]
    nash_conv: NDArray[np.float64]
    nash_conv_faced: NDArray[np.float64]
    improvement: NDArray[np.float64]
    plan_gap: NDArray[np.float64]


def cfr_regret_trace(game: Game, iterations: int, checkpoints: ArrayLike | None = None,
                     alternating: bool = True) -> CFRRegretTrace:
    """Run vanilla CFR (``cfrlib.CFR``) for ``iterations`` and measure the quantities of the
    regret decomposition and of the folk theorem at each iteration in ``checkpoints``
    (default: every iteration). The game must be two-player zero-sum. See
    :class:`CFRRegretTrace` for what is returned.

    With simultaneous updates the folk theorem is the identity
    ``NashConv(sigma-bar^T) = (R_0^T + R_1^T) / T``; with alternating updates it is
    ``NashConv_faced = (R_0^T + R_1^T - improvement) / T``.
    """
    T = check_iterations(iterations)
    if T == 0:
        raise SolverError("cfr_regret_trace: iterations must be at least 1")
    wanted = np.arange(1, T + 1) if checkpoints is None else np.unique(np.asarray(checkpoints, int))
    if wanted.size == 0 or wanted.min() < 1 or wanted.max() > T:
        raise SolverError(f"cfr_regret_trace: checkpoints must lie in 1..{T}, got {checkpoints!r}")
    tree = game.tree()
    if tree.constant_sum != 0:
        raise NotZeroSumError(f"cfr_regret_trace: {game.name} is constant-sum "
                              f"({tree.constant_sum:g}), not zero-sum")
    mine = [tree.infoset_player == p for p in (0, 1)]

    def plan(probs: NDArray[np.float64], p: int) -> NDArray[np.float64]:
        return realization_plan(tree, probs, p)

    def value(x0: NDArray[np.float64], x1: NDArray[np.float64]) -> float:   # u_0 of two plans
        return float(tree.terminal_chance * x0[tree.terminal_seq[0]] * x1[tree.terminal_seq[1]]
                     @ tree.terminal_payoff)

    def best_response_sum(p: int, opponent_plan_sum: NDArray[np.float64]) -> float:
        # max_sigma' sum_t u_p(sigma', faced_t)
        other = 1 - p
        reach = tree.terminal_chance * opponent_plan_sum[tree.terminal_seq[other]]
        q, _ = counterfactual_values(tree, None, p, opponent_reach=reach, best_response=True)
        return float(q[-1])

    solver = CFR(game, alternating=alternating)
    played_sum = [np.zeros(tree.num_sequences + 1) for _ in (0, 1)]   # sum_t x_i^t (own walks)
    faced_sum = [np.zeros(tree.num_sequences + 1) for _ in (0, 1)]    # sum_t x_{-i} faced by i
    earned = [0.0, 0.0]                                               # sum_t u_i in i's walks
    improvement = 0.0
    rows: list[tuple[int, list[float], list[float], float, float, float, float]] = []
    sigma = solver.current_strategy().probs
    x = [plan(sigma, 0), plan(sigma, 1)]
    for t in range(1, T + 1):
        solver.iterate(1)
        after = solver.current_strategy().probs
        x_after = [plan(after, 0), plan(after, 1)]
        # player 0's walk: (sigma_0^t, sigma_1^t); player 1's: (sigma_0^{t+1}, sigma_1^t) if alternating
        x0_faced_by_1 = x_after[0] if alternating else x[0]
        u_walk0 = value(x[0], x[1])
        u_walk1 = value(x0_faced_by_1, x[1])
        earned[0] += u_walk0
        earned[1] += -u_walk1
        improvement += u_walk1 - u_walk0
        played_sum[0] += x[0]
        played_sum[1] += x[1]
        faced_sum[0] += x[1]
        faced_sum[1] += x0_faced_by_1
        if t in wanted:
            R = solver.cumulative_regret()
            positive = np.maximum(np.where(tree.action_mask, R, -np.inf).max(axis=1), 0.0)
            overall = [best_response_sum(p, faced_sum[p]) - earned[p] for p in (0, 1)]
            average = solver.average_strategy()
            gap = max(float(np.abs(plan(average.probs, p) - played_sum[p] / t).max()) for p in (0, 1))
            faced_profile = np.where(mine[0][:, None], behaviour_strategy(tree, faced_sum[1] / t, 0),
                                     average.probs)
            rows.append((t, overall, [float(positive[m].sum()) for m in mine],
                         nash_conv(game, average), nash_conv(game, Strategy(game, faced_profile)),
                         improvement, gap))
        sigma, x = after, x_after
    cols = list(zip(*rows))
    return CFRRegretTrace(game.name, bool(alternating), np.array(cols[0]), np.array(cols[1]),
                          np.array(cols[2]), np.array(cols[3]), np.array(cols[4]),
                          np.array(cols[5]), np.array(cols[6]))


@dataclass(frozen=True)
class BimatrixRun:
    """Regret matching in self-play on the bimatrix game ``(A, B)``; row ``t - 1`` is iteration ``t``.

    ``average[i]`` (``T x |A_i|``): ``sigma-bar_i^t``, the average of the strategies played.
    ``joint`` (``|A_0| x |A_1|``): the empirical joint play after ``T`` rounds,
    ``(1/T) sum_t sigma_0^t (sigma_1^t)^T``.
    ``cce_gap`` (length ``T``): the most either player gains, against the empirical joint play
    of rounds ``1..t``, by committing to one action in advance; it equals the larger of the
    two players' average regrets, and it is 0 exactly at a coarse correlated equilibrium.
    ``nash_gap`` (length ``T``): the most either player gains by a best response to the other's
    average strategy ``sigma-bar^t``; 0 exactly when the averages form a Nash equilibrium.
    """

    A: NDArray[np.float64]
    B: NDArray[np.float64]
    average: tuple[NDArray[np.float64], NDArray[np.float64]]
    joint: NDArray[np.float64]
    cce_gap: NDArray[np.float64]
    nash_gap: NDArray[np.float64]


def regret_matching_bimatrix(A: ArrayLike, B: ArrayLike, iterations: int,
                             initial: Sequence[ArrayLike | None] | None = None) -> BimatrixRun:
    """Both players run regret matching (simultaneous updates) on the general-sum game where the
    row player receives ``A[a, b]`` and the column player ``B[a, b]``. ``initial`` is an optional
    pair of starting mixes (either may be ``None``, uniform). See :class:`BimatrixRun`."""
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    if A.ndim != 2 or A.shape != B.shape or 0 in A.shape:
        raise CfrlibError(f"regret_matching_bimatrix: A and B must be matrices of one shape, "
                          f"got {A.shape} and {B.shape}")
    if not (np.all(np.isfinite(A)) and np.all(np.isfinite(B))):
        raise CfrlibError("regret_matching_bimatrix: payoffs must be finite")
    T = check_iterations(iterations)
    start: list[ArrayLike | None] = [None, None] if initial is None else list(initial)
    if len(start) != 2:
        raise CfrlibError(f"initial must be a pair of mixes (row, column), got {initial!r}")
    sigma = []
    for i, (s, n) in enumerate(zip(start, A.shape)):
        p = np.full(n, 1.0 / n) if s is None else np.asarray(s, dtype=float)
        if p.shape != (n,) or np.any(p < 0) or not sums_to_one(p.sum(), n):
            raise CfrlibError(f"initial[{i}] must be {n} non-negative probabilities summing to 1, "
                              f"got {s!r}")
        sigma.append(p)
    average = [np.empty((T, n)) for n in A.shape]
    cce_gap, nash_gap = np.empty(T), np.empty(T)
    R = [np.zeros(n) for n in A.shape]
    played_sum = [np.zeros(n) for n in A.shape]
    joint = np.zeros(A.shape)
    for t in range(1, T + 1):
        values = (row_values(A, sigma[1]), column_values(sigma[0], B))  # u_i(a, sigma_{-i}^t)
        joint += np.outer(sigma[0], sigma[1])
        for i in (0, 1):
            played_sum[i] += sigma[i]
            average[i][t - 1] = played_sum[i] / t
            R[i] += values[i] - (sigma[i] * values[i]).sum()
        cce_gap[t - 1] = max(R[0].max(), R[1].max(), 0.0) / t
        x, y = average[0][t - 1], average[1][t - 1]
        row, column = row_values(A, y), column_values(x, B)
        nash_gap[t - 1] = max(row.max() - (x * row).sum(), column.max() - (column * y).sum())
        sigma = [matched_strategy(R[0]), matched_strategy(R[1])]
    return BimatrixRun(A, B, (average[0], average[1]), joint / T, cce_gap, nash_gap)


