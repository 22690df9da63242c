"""Local regret minimizers: what the full-width engine runs at every information set.

CFR's regret decomposition (Zinkevich et al. 2007) says the average overall regret is at most
the sum over infosets of each infoset's counterfactual regret, so *any* regret minimizer run at
every infoset on the counterfactual values ``q(I, .)`` gives an algorithm whose average strategy
converges to an equilibrium. A minimizer here is a small class with two methods, vectorized over
all of one player's infosets at once (rows = infosets, columns = actions, padded columns
masked):

* ``update(R, r, t)``: fold iteration ``t``'s instantaneous regret ``r^t(I, a)`` into the state
  ``R`` in place (``R^t = R^{t-1} + r^t``, then discounted or clipped);
* ``strategy(R, r, t, mask)``: the next strategy ``sigma^{t+1}`` from ``R^t`` (and ``r^t``, for
  the predictive ones), rows summing to 1 over the legal actions ``mask``.

:class:`FullWidthCFR(regret_minimizer=...) <cfrlib.solvers.fullwidth.FullWidthCFR>` takes one;
CFR, CFR+, Linear CFR, DCFR and PCFR+ are :class:`RegretMatching` with different discounts, and
:class:`Hedge` gives Hedge-CFR; so are the frontier's DCFR+ and PDCFR+ (fixed discounts;
:class:`OffsetDiscountedRegretMatchingPlus` for DCFR+ as its authors' code runs it) and
:class:`AsymmetricPredictiveRegretMatchingPlus` (SAPCFR+: a shorter step for the prediction;
APCFR+, which learns that step per infoset, keeps its sums in the solver,
:class:`~cfrlib.solvers.fullwidth.APCFRPlus`). :func:`chopped_projection` is the step of the smooth RM+ rules
of the last-iterate methods ExRM+ and SPRM+ (:class:`~cfrlib.solvers.fullwidth.ExRMPlus`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..checks import check_exponent, check_flag
from ..errors import SolverError
from ..regret_matching import matched_strategy
from ..tree import Tree

FloatArray = NDArray[np.float64]


# Shown in the book: chapter 9.
def _discount(t, exponent):
    """``t^e / (t^e + 1)``, with ``e = inf`` meaning 1 and ``e = -inf`` meaning 0
    at every ``t``."""
    if math.isinf(exponent):
        return 1.0 if exponent > 0 else 0.0
    try:
        power = float(t) ** exponent
    except OverflowError:  # t^e beyond the largest float: the factor rounds to 1
        return 1.0
    return power / (power + 1.0)


class RegretMinimizer:
    """The interface (see the module docstring). ``params()`` gives the constructor's keyword
    arguments, so that a solver using the minimizer can be saved and loaded."""

    name = "regret minimizer"

    def update(self, R: FloatArray, r: FloatArray, t: int) -> None:
        """``R^t = R^{t-1} + r^t``, in place."""
        R += r

    def strategy(self, R: FloatArray, r: FloatArray, t: int, mask: FloatArray) -> FloatArray:
        raise NotImplementedError

    def params(self) -> dict[str, Any]:
        return {}

    def for_game(self, tree: Tree) -> RegretMinimizer:
        """The minimizer to run on ``tree`` (itself, unless it reads a constant from the game)."""
        return self

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


class RegretMatching(RegretMinimizer):
    """Regret matching (Hart and Mas-Colell 2000) on discounted regrets.

    ``update``: ``R^t = R^{t-1} + r^t``, then multiplied by ``t^alpha / (t^alpha + 1)`` where
    ``R^t >= 0`` and by ``t^beta / (t^beta + 1)`` where it is negative (``alpha = beta = inf``:
    plain regret matching; ``beta = -inf``: RM+, negative regrets reset to 0).
    ``strategy``: ``sigma^{t+1}(I, a) = [R^t(I, a)]^+ / sum_b [R^t(I, b)]^+``, uniform where no
    regret is positive; with ``predictive=True`` the same on ``R^t + r^t`` (the last
    instantaneous regret predicts the next one).
    """

    name = "regret matching"

    def __init__(self, alpha: float = math.inf, beta: float = math.inf, predictive: bool = False) -> None:
        self.alpha = check_exponent(alpha, "alpha", 0.0, math.inf, (math.inf,))
        self.beta = check_exponent(beta, "beta", -math.inf, math.inf, (math.inf, -math.inf))
        self.predictive = check_flag(predictive, "predictive")

    prediction_weight = 1.0
    """``eta`` of the predictive strategy ``[R^t + eta r^t]^+`` (1: PCFR+'s)."""

    def discounts(self, t: int) -> tuple[float, float]:
        """The factors ``t^alpha / (t^alpha + 1)`` and ``t^beta / (t^beta + 1)`` of iteration ``t``."""
        return _discount(t, self.alpha), _discount(t, self.beta)

    # Shown in the book: chapter 9.
    def update(self, R: FloatArray, r: FloatArray, t: int) -> None:
        R += r
        positive, negative = self.discounts(t)
        if positive == 1.0 and negative == 0.0:
            np.maximum(R, 0.0, out=R)
        elif positive == negative:
            if positive != 1.0:
                R *= positive
        else:
            R *= np.where(R >= 0.0, positive, negative)

    # Shown in the book: chapter 13.
    def strategy(self, R: FloatArray, r: FloatArray, t: int,
                 mask: FloatArray) -> FloatArray:
        if self.predictive:
            R = (R + r if self.prediction_weight == 1.0
                 else R + self.prediction_weight * r)
        return matched_strategy(R, mask)

    def params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "beta": self.beta, "predictive": self.predictive}


class RegretMatchingPlus(RegretMatching):
    """RM+ (Tammelin 2014): ``R^t = max(R^{t-1} + r^t, 0)``, then regret matching."""

    name = "RM+"

    def __init__(self) -> None:
        super().__init__(math.inf, -math.inf)

    def params(self) -> dict[str, Any]:
        return {}


class PredictiveRegretMatchingPlus(RegretMatching):
    """Predictive RM+ (Farina, Kroer and Sandholm 2021): RM+ state, strategy by regret matching on
    ``R^t + r^t``."""

    name = "predictive RM+"

    def __init__(self) -> None:
        super().__init__(math.inf, -math.inf, predictive=True)

    def params(self) -> dict[str, Any]:
        return {}


class AsymmetricPredictiveRegretMatchingPlus(RegretMatching):
    """SAPCFR+'s rule (Meng et al., AAAI 2026, "Faster game solving via asymmetry of step sizes",
    sec. 4.2): the RM+ state ``R^t = [R^{t-1} + r^t]^+`` as in PCFR+, the strategy by regret matching
    on ``R^t + eta r^t`` with a fixed ``eta = 1 / (1 + alpha)`` in ``(0, 1]`` (the prediction's step
    shorter than the regret's; ``eta = 1`` is PCFR+). Default ``eta = 1/3``, the paper's fixed
    ``alpha = 2``. (Its worst-case bound grows with ``4 / (1 + alpha) + alpha``, which is smallest
    at ``alpha = 1``, ``eta = 1/2``; ``alpha = 2`` is the paper's choice, and also below PCFR+'s.)"""

    name = "asymmetric predictive RM+"

    def __init__(self, prediction_weight: float = 1.0 / 3.0) -> None:
        super().__init__(math.inf, -math.inf, predictive=True)
        self.prediction_weight = check_exponent(prediction_weight, "prediction_weight", 0.0, 1.0)
        if self.prediction_weight == 0.0:
            raise SolverError("prediction_weight must be in (0, 1], got 0.0 (that is RM+, no prediction)")

    def params(self) -> dict[str, Any]:
        return {"prediction_weight": self.prediction_weight}


class OffsetDiscountedRegretMatchingPlus(RegretMatching):
    """DCFR+'s regret rule with the discount's constant as a parameter: RM+ whose regrets are
    multiplied by ``t^alpha / (t^alpha + offset)`` after each iteration (``offset = 1`` is
    :class:`RegretMatching` ``(alpha, -inf)``, DCFR's form; see :class:`~cfrlib.solvers.fullwidth.DCFRPlus`
    for the ``1.5`` of its authors' code)."""

    name = "offset-discounted RM+"

    def __init__(self, alpha: float = 1.5, offset: float = 1.5) -> None:
        super().__init__(alpha, -math.inf)
        self.offset = check_exponent(offset, "offset", 0.0, math.inf)
        if self.offset == 0.0:
            raise SolverError("offset must be positive (0 never discounts), got 0.0")

    def discounts(self, t: int) -> tuple[float, float]:
        """``t^alpha / (t^alpha + offset)`` for the regrets (none negative after RM+'s clip)."""
        try:
            power = float(t) ** self.alpha
        except OverflowError:  # t^alpha beyond the largest float: the factor rounds to 1
            power = math.inf
        return (1.0 if math.isinf(power) else power / (power + self.offset)), 0.0

    def params(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "offset": self.offset}


class Hedge(RegretMinimizer):
    """Hedge (multiplicative weights; Freund and Schapire 1997) on the cumulative regrets.

    ``sigma^{t+1}(I, a) = exp(eta_t R^t(I, a)) / sum_b exp(eta_t R^t(I, b))`` with the anytime
    learning rate ``eta_t = sqrt(8 ln|A(I)| / t) / payoff_range``: Hedge's rate for losses in
    ``[0, 1]`` (Cesa-Bianchi and Lugosi 2006, th. 2.2, with ``t`` for the horizon), scaled because
    a counterfactual regret ``r^t(I, a)`` lies in ``[-payoff_range, payoff_range]`` times
    ``pi_{-i}(I) <= 1``. ``R^t`` is the plain sum of the ``r^t``; the strategy is shift invariant,
    so it equals exponential weights on the cumulative counterfactual values. ``payoff_range``
    is ``max u - min u`` over the terminals (the full-width solver fills it in from the game).
    """

    name = "Hedge"

    def __init__(self, payoff_range: float | None = None) -> None:
        if payoff_range is not None and (
                isinstance(payoff_range, bool) or not isinstance(payoff_range, (int, float, np.integer, np.floating))
                or not math.isfinite(payoff_range) or payoff_range <= 0):
            raise SolverError(f"payoff_range must be a positive number or None, got {payoff_range!r}")
        self.payoff_range = None if payoff_range is None else float(payoff_range)

    def for_game(self, tree: Tree) -> Hedge:
        """This minimizer with ``payoff_range`` filled in from ``tree`` when it was left None."""
        if self.payoff_range is not None:
            return self
        span = float(tree.terminal_payoff.max() - tree.terminal_payoff.min())
        return Hedge(span if span > 0 else 1.0)

    def learning_rate(self, t: int, mask: FloatArray) -> FloatArray:
        """``eta_t(I) = sqrt(8 ln|A(I)| / t) / payoff_range`` for every row."""
        payoff_range = cast(float, self.payoff_range)  # set by for_game before any iteration
        return np.sqrt(8.0 * np.log(mask.sum(axis=1)) / t) / payoff_range

    def strategy(self, R: FloatArray, r: FloatArray, t: int, mask: FloatArray) -> FloatArray:
        legal = mask > 0.0
        top = np.where(legal, R, -np.inf).max(axis=1, keepdims=True)
        # exp(eta (R - max R)): the same ratios as exp(eta R), without overflow
        weights = np.exp(self.learning_rate(t, mask)[:, None] * np.where(legal, R - top, 0.0))
        weights *= mask
        weights /= weights.sum(axis=1, keepdims=True)
        return weights

    def params(self) -> dict[str, Any]:
        return {"payoff_range": self.payoff_range}


def chopped_projection(Y: FloatArray, mask: FloatArray) -> FloatArray:
    """The Euclidean projection of each row of ``Y`` onto the chopped-off orthant
    ``{z >= 0, sum_a z(a) >= 1}`` over the row's legal actions ``mask`` (Farina et al., NeurIPS
    2023): ``[Y]^+`` where that sums to at least 1, else the projection onto the simplex."""
    legal = mask > 0.0
    Z = np.where(legal, np.maximum(Y, 0.0), 0.0)
    short = Z.sum(axis=1) < 1.0
    if short.any():
        Z[short] = _simplex_projection(Y[short], legal[short])
    return Z


def _simplex_projection(Y: FloatArray, legal: NDArray[np.bool_]) -> FloatArray:
    """Rows of ``Y`` projected onto ``{z >= 0, sum_a z(a) = 1}`` over the legal actions:
    ``z(a) = [Y(a) - theta]^+`` with ``theta`` from the ``k`` largest entries that stay positive
    (Duchi et al., ICML 2008)."""
    top = -np.sort(np.where(legal, -Y, np.inf), axis=1)  # legal entries, largest first, then -inf
    k = np.arange(1, Y.shape[1] + 1)
    sums = np.cumsum(np.where(np.isfinite(top), top, 0.0), axis=1)
    count = (np.isfinite(top) & (top - (sums - 1.0) / k > 0.0)).sum(axis=1)
    theta = (sums[np.arange(len(Y)), count - 1] - 1.0) / count
    return np.where(legal, np.maximum(Y - theta[:, None], 0.0), 0.0)


MINIMIZERS: dict[str, type[RegretMinimizer]] = {
    "rm": RegretMatching, "rm+": RegretMatchingPlus, "prm+": PredictiveRegretMatchingPlus, "hedge": Hedge}
"""Short names accepted by ``FullWidthCFR(regret_minimizer=...)``."""


def minimizer_from(spec: object) -> RegretMinimizer:
    """A :class:`RegretMinimizer` from an instance, a short name of :data:`MINIMIZERS`, or the
    ``[class name, params]`` pair that a saved solver holds."""
    if isinstance(spec, RegretMinimizer):
        return spec
    if isinstance(spec, str):
        if spec not in MINIMIZERS:
            raise SolverError(f"no regret minimizer {spec!r}; the names are {', '.join(MINIMIZERS)}, "
                              "or pass a RegretMinimizer instance")
        return MINIMIZERS[spec]()
    if isinstance(spec, (list, tuple)) and len(spec) == 2 and isinstance(spec[1], dict):
        klass = next((k for k in _subclasses(RegretMinimizer) if k.__name__ == spec[0]), None)
        if klass is None:
            raise SolverError(f"no regret minimizer class {spec[0]!r} is defined")
        return klass(**spec[1])
    raise SolverError(f"regret_minimizer must be a RegretMinimizer, one of {list(MINIMIZERS)}, "
                      f"or a [class name, params] pair, got {spec!r}")


def _subclasses(klass: type[RegretMinimizer]) -> Iterator[type[RegretMinimizer]]:
    for sub in klass.__subclasses__():
        yield sub
        yield from _subclasses(sub)
