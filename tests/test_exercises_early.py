"""The implement-it-yourself exercises of chapters 1 and 4, chapter 5's by hand, and cfrbook.theory
behind their proofs.

Each exercise's folded solution (the first ```python block of its ``{solution}``) is run exactly as
the chapter shows it (tests/notebook_code.py) and compared with cfrlib: both are deterministic, so
they must agree to 1e-12. The theory checks compare two independent computations: the identities
of chapter 5's proof sketches (Zinkevich et al. 2007; Burch, Moravcik and Schmid 2019) and the
zero-sum special case of the general-sum regret-matching run with cfrlib.run_regret_matching.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import cfrlib
from cfrbook import theory
from cfrlib import games
from cfrlib.errors import CfrlibError, NotZeroSumError, SolverError
from cfrlib.textbook.cfr import TextbookCFR
from cfrlib.textbook.regret_matching import regret_matching as textbook_regret_matching

from notebook_code import run_solution
from toy_games import TupleGame

TOL = 1e-12


# ----------------------------------------------------------------------------- chapter 1
@pytest.fixture(scope="module")
def ch1():
    return run_solution("01_regret_matching.ipynb", "ch1-implement")


@pytest.mark.parametrize("regrets", [[2.0, -1.0, 1.0], [-2.0, -1.0, 0.0], [0.0, 3.0, 0.0],
                                     [1e-300, 0.0, -5.0], [4.0, 4.0]])
def test_ch1_regret_matching_matches_textbook(ch1, regrets):
    mine = np.asarray(ch1["regret_matching"](np.array(regrets)), dtype=float)
    expected = list(textbook_regret_matching(dict(enumerate(regrets))).values())
    np.testing.assert_allclose(mine, expected, rtol=0, atol=TOL)


@pytest.mark.parametrize("start, T", [([0.5, 0.3, 0.2], 1000), ([0.1, 0.1, 0.8], 333),
                                      ([1 / 3, 1 / 3, 1 / 3], 50)])
def test_ch1_self_play_matches_cfrlib_on_rps(ch1, start, T):
    rps = games.rps()
    mine = ch1["self_play"](rps.payoffs, T, np.array(start))
    reference = cfrlib.run_regret_matching(rps, T, initial=(start, None))
    for i in (0, 1):
        np.testing.assert_allclose(mine[i], reference.average[i][-1], rtol=0, atol=TOL)


def test_ch1_self_play_matches_cfrlib_on_an_asymmetric_game(ch1):
    payoffs = np.array([[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-2.0, 1.0, 0.0]])
    mine = ch1["self_play"](payoffs, 400, np.array([0.6, 0.2, 0.2]))
    reference = cfrlib.run_regret_matching(payoffs, 400, initial=([0.6, 0.2, 0.2], None))
    for i in (0, 1):
        np.testing.assert_allclose(mine[i], reference.average[i][-1], rtol=0, atol=TOL)


# ----------------------------------------------------------------------------- chapter 4
@pytest.fixture(scope="module")
def ch4():
    return run_solution("04_vanilla_cfr.ipynb", "ch4-implement")


def _largest_gap(mine, expected):
    assert set(mine) == set(expected), "the two solvers met different infosets"
    return max(abs(mine[key][a] - p) for key, dist in expected.items() for a, p in dist.items())


@pytest.mark.parametrize("make, iterations", [(games.kuhn, 100), (games.kuhn, 1),
                                              pytest.param(games.leduc, 3, marks=pytest.mark.slow)])
def test_ch4_cfr_matches_textbook_cfr(ch4, make, iterations):
    game = make()
    mine = ch4["MyCFR"](game).iterate(iterations).average_strategy()
    expected = TextbookCFR(game).iterate(iterations).average_strategy()
    assert _largest_gap(mine, expected) <= TOL


def test_ch4_cfr_matches_the_fast_engine_on_kuhn(ch4):
    kuhn = games.kuhn()
    mine = ch4["MyCFR"](kuhn).iterate(200).average_strategy()
    fast = cfrlib.CFR(kuhn).iterate(200).average_strategy()
    gap = max(abs(p - fast[key][a]) for (_, key), dist in mine.items() for a, p in dist.items())
    assert gap <= TOL


# ----------------------------------------------------------------------------- chapter 5
def test_ch5_mixed_to_behaviour_by_hand():
    """Chapter 5's exercise computed by hand: the mixture (1/2 bets the king, 1/3 passes and calls,
    1/6 passes and folds) plays bet at K with probability 1/2 and, given that it passed the king,
    calls with probability (1/3) / (1/2) = 2/3. The folded solution's code, run as printed, gives
    these numbers from cfrlib's realization plans."""
    ns = run_solution("05_why_cfr_works.ipynb", "ch5-mixed-to-behaviour")
    assert ns["bet_at_K"] == pytest.approx(1 / 2, abs=1e-15)
    assert ns["bet_at_Kpb"] == pytest.approx(2 / 3, abs=1e-15)


def test_ch5_weak_duality_by_hand():
    """Chapter 5's duality exercise: max 3 x1 + 2 x2 (x1 + x2 <= 4, x1 + 3 x2 <= 6, x >= 0) has the
    value 12 at x = (4, 0), certified by the dual point y = (3, 0); the folded solution's code
    solves both LPs and prints 12 twice."""
    ns = run_solution("05_why_cfr_works.ipynb", "ch5-weak-duality")
    assert -ns["primal"].fun == pytest.approx(12.0, abs=1e-9)
    assert ns["dual"].fun == pytest.approx(12.0, abs=1e-9)
    np.testing.assert_allclose(ns["primal"].x, [4.0, 0.0], atol=1e-9)


# ----------------------------------------------------------------------------- cfrbook.theory
def test_regret_matching_bound_values():
    assert theory.regret_matching_bound(2.0, 3, 12) == pytest.approx(12.0, abs=1e-12)
    np.testing.assert_allclose(theory.regret_matching_bound(1.0, 4, [1, 4, 9]), [2.0, 4.0, 6.0])
    with pytest.raises(CfrlibError, match="num_actions must be positive"):
        theory.regret_matching_bound(1.0, 0, 10)


def test_cfr_regret_bound_on_kuhn():
    # Kuhn: payoffs from -2 to 2 (Delta = 4), 6 infosets per player, 2 actions each.
    assert theory.cfr_regret_bound(games.kuhn(), 0, 100) == pytest.approx(6 * 4 * math.sqrt(200))
    with pytest.raises(CfrlibError, match="player must be 0 or 1"):
        theory.cfr_regret_bound(games.kuhn(), 2, 100)


@pytest.fixture(scope="module", params=[True, False], ids=["alternating", "simultaneous"])
def kuhn_trace(request):
    return theory.cfr_regret_trace(games.kuhn(), 300, checkpoints=[1, 2, 10, 77, 300],
                                   alternating=request.param)


def test_trace_average_strategy_is_cfrlibs(kuhn_trace):
    kuhn = games.kuhn()
    solver = cfrlib.CFR(kuhn, alternating=kuhn_trace.alternating).iterate(300)
    assert kuhn_trace.nash_conv[-1] == pytest.approx(cfrlib.nash_conv(kuhn, solver.average_strategy()),
                                                     abs=TOL)


def test_trace_regret_decomposition_and_average_plan(kuhn_trace):
    assert np.all(kuhn_trace.overall_regret <= kuhn_trace.infoset_regret + TOL)
    assert kuhn_trace.plan_gap.max() <= TOL
    # Kuhn: player 1 acts once on every path, so the decomposition is an equality for player 1.
    np.testing.assert_allclose(kuhn_trace.overall_regret[:, 1], kuhn_trace.infoset_regret[:, 1],
                               rtol=0, atol=1e-10)


def test_trace_folk_theorem(kuhn_trace):
    T = kuhn_trace.iteration
    regret_sum = kuhn_trace.overall_regret.sum(axis=1)
    np.testing.assert_allclose(kuhn_trace.nash_conv_faced, (regret_sum - kuhn_trace.improvement) / T,
                               rtol=0, atol=TOL)
    assert np.all(kuhn_trace.improvement >= 0.0)
    if kuhn_trace.alternating:
        assert kuhn_trace.improvement[-1] > 0.0
        assert np.all(kuhn_trace.nash_conv_faced <= regret_sum / T + TOL)
    else:
        np.testing.assert_array_equal(kuhn_trace.improvement, 0.0)
        np.testing.assert_allclose(kuhn_trace.nash_conv, regret_sum / T, rtol=0, atol=TOL)


def test_trace_rejects_bad_input():
    with pytest.raises(SolverError, match=r"checkpoints must lie in 1\.\.5"):
        theory.cfr_regret_trace(games.kuhn(), 5, checkpoints=[0, 3])
    constant_sum = TupleGame(("player", 0, "A", [("l", ("terminal", 2.0, 0.0)),
                                                 ("r", ("terminal", 0.0, 2.0))]), constant_sum=2.0)
    with pytest.raises(NotZeroSumError, match="not zero-sum"):
        theory.cfr_regret_trace(constant_sum, 2)


def test_bimatrix_run_agrees_with_zero_sum_regret_matching():
    rps = games.rps()
    A = rps.payoffs
    start = ([0.5, 0.3, 0.2], None)
    general = theory.regret_matching_bimatrix(A, -A, 500, initial=start)
    zero_sum = cfrlib.run_regret_matching(rps, 500, initial=start)
    for i in (0, 1):
        np.testing.assert_allclose(general.average[i], zero_sum.average[i], rtol=0, atol=TOL)
    # The CCE gap of the joint play is the larger of the two average regrets.
    np.testing.assert_allclose(general.cce_gap, np.maximum(zero_sum.regret[0], zero_sum.regret[1]),
                               rtol=0, atol=TOL)
    # In a zero-sum game the Nash gap is at most NashConv = twice the exploitability.
    assert np.all(general.nash_gap <= 2 * zero_sum.exploitability + TOL)


def test_shapley_game_cce_gap_shrinks_but_averages_do_not_converge():
    A = np.eye(3)
    B = np.roll(np.eye(3), 1, axis=1)
    run = theory.regret_matching_bimatrix(A, B, 5000, initial=([0.5, 0.3, 0.2], None))
    assert run.cce_gap[-1] <= 2 * math.sqrt(3 / 5000)          # the regret bound, Delta = 1
    assert run.cce_gap[-1] < run.cce_gap[99] / 10
    assert run.nash_gap[-1] > 0.1                              # far from the uniform equilibrium
    assert run.joint.sum() == pytest.approx(1.0, abs=TOL)


def test_bimatrix_rejects_bad_input():
    with pytest.raises(CfrlibError, match="one shape"):
        theory.regret_matching_bimatrix(np.eye(3), np.eye(2), 10)
    with pytest.raises(CfrlibError, match=r"initial\[0\] must be 3 non-negative probabilities"):
        theory.regret_matching_bimatrix(np.eye(3), np.eye(3), 10, initial=([0.5, 0.5], None))


def test_ch5_board_weight_exercise():
    """Exercise ch6-board-weight: every pass of public chance sampling on Leduc weights each
    deal's board edge by P(b | deal) / rho(b) = (1/4) / (1/6) = 1.5."""
    solver = cfrlib.PublicChanceSamplingCFR(games.leduc())
    assert np.allclose(solver.rho, 1 / 6)
    for s in solver.subtrees:
        board = (s.mover == 2) & (s.parent >= 0)
        board &= s.mover[np.maximum(s.parent, 0)] != 2     # chance edges below a decision
        assert board.sum() > 0 and np.allclose(s.chance[board], 1.5)
