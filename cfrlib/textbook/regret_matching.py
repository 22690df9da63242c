"""Regret matching on a matrix game, written the way chapter 1 derives it.

Two players repeatedly play a zero-sum matrix game. After each round a player asks, for every
action ``a``: "how much better would ``a`` have done than what I actually played?" That is the
instantaneous regret ``r^t(a) = u(a, sigma^t_{-i}) - u(sigma^t)``. Regret matching plays each action
in proportion to its positive cumulative regret. The *average* of the strategies played
converges to an equilibrium. :mod:`cfrlib.regret_matching` does the same with numpy and keeps
every iteration for plotting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..games.matrix import MatrixGame


# Shown in the book: chapter 1.
def regret_matching(regret: Mapping[str, float]) -> dict[str, float]:
    """``sigma(a) = R+(a) / sum_b R+(b)``, or uniform when no regret is
    positive."""
    positive = {a: max(r, 0.0) for a, r in regret.items()}  # R+ = max(R, 0)
    total = sum(positive.values())
    if total > 0.0:
        return {a: r / total for a, r in positive.items()}
    return {a: 1.0 / len(regret) for a in regret}


# Shown in the book: chapter 1.
def self_play(game: MatrixGame, iterations: int, plus: bool = False,
              initial: Sequence[Mapping[str, float] | None] | None = None,
              ) -> list[dict[str, float]]:

    """Both players of the matrix ``game`` run regret matching (RM+ with ``plus``)
    against each other, updating simultaneously; returns their average strategies
    ``sigma-bar^T``.

    ``initial`` is an optional pair of starting strategies
    ``{action: probability}``.
    """
    actions = [game.row_actions, game.column_actions]
    payoff = {(a, b): game.payoffs[i, j]                                # u_0(a, b)
              for i, a in enumerate(actions[0]) for j, b in enumerate(actions[1])}
    strategy = [dict(s) if s else {a: 1.0 / len(acts) for a in acts}    # sigma^1
                for s, acts in zip(initial or (None, None), actions)]
    regret = [{a: 0.0 for a in acts} for acts in actions]               # R^0 = 0
    strategy_sum = [{a: 0.0 for a in acts} for acts in actions]

    for _ in range(iterations):
        # u_i(a, sigma_{-i}): what each action would have earned against the
        # other's mix.
        value = [
            {a: sum(strategy[1][b] * payoff[a, b] for b in actions[1])
             for a in actions[0]},
            {b: -sum(strategy[0][a] * payoff[a, b] for a in actions[0])
             for b in actions[1]},
        ]
        for i in (0, 1):
            # u_i(sigma^t)
            played = sum(strategy[i][a] * value[i][a] for a in actions[i])
            for a in actions[i]:
                strategy_sum[i][a] += strategy[i][a]
                regret[i][a] += value[i][a] - played        # R^t = R^{t-1} + r^t
                if plus:
                    regret[i][a] = max(regret[i][a], 0.0)   # RM+: clip at 0
        strategy = [regret_matching(regret[i]) for i in (0, 1)]  # sigma^{t+1}

    return [{a: s / iterations for a, s in strategy_sum[i].items()}
            for i in (0, 1)]
