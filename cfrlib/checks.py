"""Checks of the arguments users pass to cfrlib: counts, seeds, flags, epsilons, exponents,
tolerances and probability distributions, each refused with a message that names the argument.

This module sits just above :mod:`cfrlib.errors`, below the games, the compiled tree and the
solvers, so that every layer can use it. It also holds the one probability tolerance of the library.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import CfrlibError, SolverError

PROBABILITY_TOLERANCE = 1e-6
"""How far probabilities may miss summing to 1, per outcome: a distribution over ``n``
outcomes is accepted when ``|sum - 1| <= n * PROBABILITY_TOLERANCE`` (files and hand-written
strategies round 1/3 to 0.333333). The one tolerance of chance nodes, strategies and mixes."""


def check_iterations(n: object, name: str = "iterations") -> int:
    """``n`` as an int, or a :class:`~cfrlib.errors.SolverError` if it is not a non-negative integer."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise SolverError(f"{name} must be a non-negative integer, got {n!r}")
    return int(n)


def check_seed(seed: object) -> int:
    """``seed`` as an int, or a :class:`~cfrlib.errors.SolverError` if it is not an integer."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise SolverError(f"seed must be an integer, got {seed!r}")
    return int(seed)


def check_flag(value: object, name: str, error: type[CfrlibError] = SolverError) -> bool:
    """``value`` as a bool (Python's or numpy's), else ``error`` saying that ``name`` must be True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_probability(p: Any, name: str, *, positive: bool = False) -> float:
    """``p`` as a float in ``[0, 1]`` (``(0, 1]`` with ``positive``), else a :class:`~cfrlib.errors.SolverError`;
    for example an exploration ``epsilon``."""
    interval = "(0, 1]" if positive else "[0, 1]"
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) or not (0.0 < p if positive else 0.0 <= p) \
            or not p <= 1.0:
        raise SolverError(f"{name} must be a number in {interval}, got {p!r}")
    return float(p)


def check_exponent(x: object, name: str, low: float, high: float, allow_inf: tuple[float, ...] = ()) -> float:
    """``x`` as a float in ``[low, high]``, an infinite end allowed only if it is in ``allow_inf``,
    else a :class:`~cfrlib.errors.SolverError` (a discount or averaging exponent, a weight)."""
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise SolverError(f"{name} must be a number, got {x!r}")
    value = float(x)
    if math.isnan(value) or not low <= value <= high or (math.isinf(value) and value not in allow_inf):
        allowed = f"[{low}, {high}]".replace("inf", "infinity")
        raise SolverError(f"{name} must be in {allowed}, got {value!r}")
    return value


def check_tolerance(x: Any, name: str) -> float:
    """``x`` as a positive finite float, else a :class:`~cfrlib.errors.SolverError` (a target, a tolerance)."""
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)) or not (0.0 < x < math.inf):
        raise SolverError(f"{name} must be positive and finite, got {x!r}")
    return float(x)


def sums_to_one(total: ArrayLike, n: ArrayLike) -> NDArray[np.bool_]:
    """Whether a sum of ``n`` probabilities is 1 by the ``PROBABILITY_TOLERANCE`` rule
    (works elementwise on arrays)."""
    return np.abs(np.asarray(total) - 1.0) <= PROBABILITY_TOLERANCE * np.asarray(n)
