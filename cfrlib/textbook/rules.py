"""The local rules of the CFR variants, for :class:`cfrlib.textbook.cfr.TextbookCFR`.

Every variant of CFR is vanilla CFR with another rule at each information set ``I``: how the
stored regret absorbs this iteration's counterfactual regret ``r^t(I, a)``, which strategy is
played from it, and the weight ``w_t`` of iteration ``t`` in the average strategy. A rule is
three small functions; a variant is a few lines:

* vanilla CFR: ``R^t = R^{t-1} + r^t``, regret matching, ``w_t = 1``;
* CFR+: regret matching+ on ``Q^t = max(Q^{t-1} + r^t, 0)``, ``w_t = t``;
* Linear CFR: ``R^T = sum_t t r^t``, ``w_t = t``;
* DCFR(alpha, beta, gamma): after adding ``r^t``, positive regrets are multiplied by
  ``t^alpha / (t^alpha + 1)``, negative ones by ``t^beta / (t^beta + 1)``; ``w_t = t^gamma``;
* predictive CFR+: CFR+'s regrets, but regret matching on ``Q^t + r^t`` (the last regret as the
  prediction of the next), ``w_t = t^2``.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .regret_matching import regret_matching

Regrets = dict[str, float]


class LocalRule(NamedTuple):
    """What a CFR variant does at every infoset (the rest of the algorithm is shared)."""

    regret: Callable[[float, float, int], float]        # (R^{t-1}(I,a), r^t(I,a), t) -> R^t
    strategy: Callable[[Regrets, Regrets], Regrets]     # (R^t(I,.), r^t(I,.)) -> sigma^{t+1}
    weight: Callable[[int], float]                      # t -> w_t


# Shown in the book: chapter 4.
def add(R: float, r: float, t: int) -> float:
    """Vanilla CFR: ``R^t(I, a) = R^{t-1}(I, a) + r^t(I, a)``."""
    return R + r


# Shown in the book: chapter 4.
def matching(regret: Regrets, instant: Regrets) -> Regrets:
    """Regret matching on ``R^t(I, .)``: ``sigma^{t+1}(I, a)`` proportional to
    ``R^{t,+}(I, a)``, uniform when no regret is positive."""
    return regret_matching(regret)


# Shown in the book: chapter 4.
def uniform(t: int) -> float:
    """``w_t = 1``: every iteration counts the same in the average strategy."""
    return 1.0


# Shown in the book: chapter 8.
def clip(Q: float, r: float, t: int) -> float:
    """Regret matching+ (CFR+):
    ``Q^t(I, a) = max(Q^{t-1}(I, a) + r^t(I, a), 0)``."""
    return max(Q + r, 0.0)


# Shown in the book: chapter 8.
def linear_regret(R: float, r: float, t: int) -> float:
    """Linear CFR: iteration ``t``'s regret counts ``t`` times,
    ``R^T = sum_t t r^t``."""
    return R + r * t


# Shown in the book: chapter 9.
def discounted(alpha: float, beta: float) -> Callable[[float, float, int], float]:
    """DCFR's regret: add ``r^t``, then multiply a positive result by
    ``t^alpha / (t^alpha + 1)`` and a negative one by ``t^beta / (t^beta + 1)``."""
    def regret(R: float, r: float, t: int) -> float:
        R = R + r
        e = alpha if R >= 0.0 else beta
        return R * (t ** e / (t ** e + 1.0))
    return regret


def predicted(regret: Regrets, instant: Regrets) -> Regrets:
    """Predictive regret matching: play regret matching on ``R^t + r^t``, the last
    regret taken as the prediction of the next."""
    return regret_matching({a: regret[a] + instant[a] for a in regret})


# Shown in the book: chapter 8.
def power(gamma: float) -> Callable[[int], float]:
    """``w_t = t^gamma`` (1 linear, 2 quadratic)."""
    return lambda t: t ** gamma


VANILLA = LocalRule(add, matching, uniform)


# Shown in the book: chapter 8.
def cfr_plus(gamma: float = 1) -> LocalRule:
    """CFR+: regret matching+ and the weights ``t^gamma`` (linear by default)."""
    return LocalRule(clip, matching, power(gamma))


# Shown in the book: chapter 8.
def linear_cfr() -> LocalRule:
    """Linear CFR: regrets and average both weighted by ``t``."""
    return LocalRule(linear_regret, matching, power(1))


# Shown in the book: chapter 9.
def dcfr(alpha: float = 1.5, beta: float = 0.0, gamma: float = 2) -> LocalRule:
    """Discounted CFR with the paper's recommended (1.5, 0, 2) by default."""
    return LocalRule(discounted(alpha, beta), matching, power(gamma))


def pcfr_plus(gamma: float = 2) -> LocalRule:
    """Predictive CFR+: regret matching+ on the predicted regrets, quadratic average."""
    return LocalRule(clip, predicted, power(gamma))

