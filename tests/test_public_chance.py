"""Public chance sampling (``PublicChanceSamplingCFR``): the expected update of one pass is
full-width CFR's exactly, it converges on Leduc, save/load, bad input and the games it refuses."""

import numpy as np
import pytest
from test_sampling import expected_increments
from toy_games import TupleGame

from cfrlib import games
from cfrlib.errors import SolverError
from cfrlib.regret_matching import matched_strategy
from cfrlib.solvers import PublicChanceSamplingCFR

LEDUC = games.leduc()


@pytest.mark.parametrize("updating", [(0,), (1,), (0, 1)])
def test_the_expected_update_is_full_width_cfr_exactly(updating):
    """From random regrets, the passes over each public outcome (Leduc's six board cards)
    averaged with their probabilities ``rho(b)`` change the regrets by the counterfactual
    regrets and the sums by ``pi_c``-weighted own reach times ``sigma`` (as chance sampling's
    expectation), to rounding (1e-15 on entries up to 0.5)."""
    tree = LEDUC.tree()
    mask = tree.action_mask
    start = np.where(mask, np.random.default_rng(1).normal(size=mask.shape), 0.0)
    solver = PublicChanceSamplingCFR(LEDUC)
    assert len(solver.rho) == 6 and np.allclose(solver.rho, 1 / 6)
    regret, sums = np.zeros(mask.shape), np.zeros(mask.shape)
    for b, rho in enumerate(solver.rho):
        solver.set_state({"regret": start, "strategy_sum": np.zeros(mask.shape)})
        solver._pass(updating, b)
        regret += rho * (solver.regret - start)
        sums += rho * solver.strategy_sum
    expected = expected_increments(tree, matched_strategy(start, mask),
                                   None if len(updating) == 2 else updating[0], "cs")
    assert np.abs(regret - expected[0]).max() < 1e-15 and np.abs(sums - expected[1]).max() < 1e-15
    assert np.abs(expected[0]).max() > 0.2


@pytest.mark.slow
def test_converges_on_leduc():
    """Exploitability after 200 and 1,000 iterations (seed 0: 0.46 and 0.15, uniform play
    2.37): each pass walks one board's 1,957 of Leduc's 9,457 histories."""
    solver = PublicChanceSamplingCFR(LEDUC, seed=0).iterate(200)
    early = solver.exploitability()
    assert solver.nodes_touched == 200 * 2 * 1957
    late = solver.iterate(800).exploitability()
    assert late < 0.25 and late < 0.5 * early, (early, late)


def test_save_and_load_resume_exactly(tmp_path):
    straight = PublicChanceSamplingCFR(LEDUC, seed=4, alternating=False).iterate(30)
    first = PublicChanceSamplingCFR(LEDUC, seed=4, alternating=False).iterate(12)
    first.save(tmp_path / "pcs.npz")
    resumed = PublicChanceSamplingCFR.load(tmp_path / "pcs.npz", LEDUC).iterate(18)
    assert np.array_equal(straight.regret, resumed.regret)
    assert np.array_equal(straight.strategy_sum, resumed.strategy_sum)


def _leaf(u):
    return ("terminal", u, -u)


def _p1(name, sign):
    return ("player", 1, name, [("a", _leaf(sign)), ("b", _leaf(-sign))])


def test_the_games_it_refuses():
    with pytest.raises(SolverError, match="kuhn has no chance event after a decision"):
        PublicChanceSamplingCFR(games.kuhn())
    hidden = TupleGame(("player", 0, "p0", [("l", ("chance", [("x", 0.5, _p1("p1", 1)), ("y", 0.5, _p1("p1", -1))])),
                                            ("r", _leaf(0))]))
    with pytest.raises(SolverError, match="not public .*player 1's infoset 'p1'"):
        PublicChanceSamplingCFR(hidden)
    again = ("chance", [("x", 0.5, _leaf(1)), ("y", 0.5, _leaf(-1))])
    twice = TupleGame(("player", 0, "p0", [("l", ("chance", [("x", 0.5, ("player", 1, "p1x", [("a", again), ("b", _leaf(0))])),
                                                             ("y", 0.5, _p1("p1y", 1))])),
                                           ("r", _leaf(0))]))
    with pytest.raises(SolverError, match="two chance events after decisions on one path"):
        PublicChanceSamplingCFR(twice)


def test_bad_input():
    with pytest.raises(SolverError, match="alternating must be True or False"):
        PublicChanceSamplingCFR(LEDUC, alternating=1)
    with pytest.raises(SolverError, match="by keyword only"):
        PublicChanceSamplingCFR(LEDUC, 3)
    with pytest.raises(SolverError, match="seed must be an integer"):
        PublicChanceSamplingCFR(LEDUC, seed=1.5)
    with pytest.raises(SolverError, match="saved tables have shape"):
        PublicChanceSamplingCFR(LEDUC).set_state({"regret": np.zeros((2, 2)), "strategy_sum": np.zeros((2, 2))})


@pytest.mark.slow
def test_recorded_runs_agree_with_a_short_rerun():
    """cfrbook/data/public_chance.json (benchmarks/public_chance.py): seed 0 of both methods to
    the first budget again, as the script runs them; nodes exactly, exploitability to rounding
    (the seconds are the machine's)."""
    from cfrbook import datasets
    from cfrlib.solvers import ChanceSamplingCFR

    recorded = datasets.load_json("public_chance")["games"]["leduc"]
    budget = recorded["budgets"][0]
    for name, klass, step in (("public chance sampling", PublicChanceSamplingCFR, 1),
                              ("chance sampling", ChanceSamplingCFR, 20)):
        solver = klass(games.leduc(), seed=recorded["seeds"][0])
        while solver.nodes_touched < budget:
            solver.iterate(step)
        nodes, _, value = recorded["runs"][name][0][0]
        assert solver.nodes_touched == nodes, name
        assert solver.exploitability() == pytest.approx(value, rel=1e-9), name
