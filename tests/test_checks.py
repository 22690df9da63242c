"""The argument checks of cfrlib.checks: what they accept, what they refuse and how they say it."""

import numpy as np
import pytest

from cfrlib.checks import (PROBABILITY_TOLERANCE, check_iterations, check_probability, check_seed,
                           check_tolerance, sums_to_one)
from cfrlib.errors import SolverError


def test_counts_and_seeds():
    assert check_iterations(np.int64(3)) == 3 and type(check_iterations(np.int64(3))) is int
    assert check_iterations(0, "games") == 0
    for bad in (-1, 2.0, True, "3", None):
        with pytest.raises(SolverError, match=r"^games must be a non-negative integer, got "):
            check_iterations(bad, "games")
    assert check_seed(-7) == -7
    with pytest.raises(SolverError, match=r"^seed must be an integer, got 1.5"):
        check_seed(1.5)


def test_probabilities_and_tolerances():
    assert check_probability(0, "p") == 0.0 and check_probability(1, "epsilon", positive=True) == 1.0
    with pytest.raises(SolverError, match=r"^epsilon must be a number in \(0, 1\], got 0"):
        check_probability(0, "epsilon", positive=True)
    for bad in (1.5, -0.1, float("nan"), "0.5", True):
        with pytest.raises(SolverError, match=r"^p must be a number in \[0, 1\]"):
            check_probability(bad, "p")
    assert check_tolerance(1e-3, "tol") == 1e-3
    for bad in (0, -1.0, float("inf"), float("nan"), None):
        with pytest.raises(SolverError, match=r"^tol must be positive and finite, got "):
            check_tolerance(bad, "tol")


def test_one_tolerance_per_outcome():
    assert PROBABILITY_TOLERANCE == 1e-6
    assert sums_to_one(3 * 0.333333, 3)               # a file's six decimals
    assert not sums_to_one(3 * 0.333332, 3)            # 4e-6 off: more than 3 x 1e-6
    assert list(sums_to_one(np.array([1.0, 0.9, 1 + 1e-6]), np.array([2, 2, 2]))) == [True, False, True]
