"""Cleaning a strategy after solving: purification and thresholding.

A CFR average strategy puts small probabilities on actions that an exact equilibrium would
never play: noise of the averaging. Ganzfried, Sandholm and Waugh ("Strategy purification and
thresholding: effective non-equilibrium approaches for playing large games", AAMAS 2012) and
Neller and Lanctot's CFR tutorial ("cleaning") remove it, at every infoset ``I``:

* :func:`purify`: play a most probable action, ``sigma'(I, a) = 1 / |M(I)|`` for ``a`` in
  ``M(I) = argmax_b sigma(I, b)`` and 0 elsewhere. Ties (actions within ``1e-12`` of the maximum)
  share the probability equally, so the result is pure wherever the maximum is unique;
* :func:`threshold`: ``sigma'(I, a) = sigma(I, a) [sigma(I, a) >= tau] / sum_b sigma(I, b)
  [sigma(I, b) >= tau]``; where every action is below ``tau`` the infoset is purified, so at least
  one action is kept.

Neither is an equilibrium method: the cleaned strategy can be more or less exploitable than the
original (the book measures both on Kuhn and Leduc), and it is often stronger against the weaker,
non-adaptive opponents of the first paper.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .errors import StrategyError
from .strategy import Strategy

__all__ = ["purify", "threshold"]

TIE = 1e-12
"""Actions whose probabilities are within this of the infoset's maximum count as tied."""


def _checked(strategy: object) -> Strategy:
    if not isinstance(strategy, Strategy):
        raise StrategyError(f"strategy must be a cfrlib.Strategy, got {type(strategy).__name__}")
    return strategy


def _most_probable(probs: NDArray[np.float64], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Rows ``1 / |M(I)|`` on the most probable legal actions ``M(I)``, 0 elsewhere."""
    top = np.where(mask, probs, -np.inf).max(axis=1, keepdims=True)
    tied = mask & (probs >= top - TIE)
    return tied / tied.sum(axis=1, keepdims=True)


def purify(strategy: Strategy) -> Strategy:
    """At every infoset, the most probable action with probability 1 (ties share it equally)."""
    strategy = _checked(strategy)
    return Strategy(strategy.game, _most_probable(strategy.probs, strategy.tree.action_mask))


def threshold(strategy: Strategy, tau: float) -> Strategy:
    """Zero every ``sigma(I, a) < tau`` and renormalise; an infoset with every action below ``tau``
    is purified. ``tau`` is in ``[0, 1)``; ``tau = 0`` returns the strategy unchanged."""
    strategy = _checked(strategy)
    if isinstance(tau, (bool, np.bool_)) or not isinstance(tau, (int, float, np.integer, np.floating)):
        raise StrategyError(f"tau must be a number in [0, 1), got {tau!r}")
    if not 0.0 <= float(tau) < 1.0:
        raise StrategyError(f"tau must be in [0, 1), got {tau!r}")
    probs, mask = strategy.probs, strategy.tree.action_mask
    dropped = (mask & (probs < tau)).any(axis=1, keepdims=True)  # rows left alone stay bit for bit
    kept = np.where(mask & (probs >= tau), probs, 0.0)
    total = kept.sum(axis=1, keepdims=True)
    renormalised = np.where(total > 0.0, kept / np.where(total > 0.0, total, 1.0), _most_probable(probs, mask))
    return Strategy(strategy.game, np.where(dropped, renormalised, probs))
