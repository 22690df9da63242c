"""VR-MCCFR: outcome sampling with baselines (``OutcomeSamplingMCCFR(baseline="learned")``).

What is checked: the zero baseline is plain outcome sampling bit for bit, the baseline-corrected
update is unbiased whatever the baseline, a learned baseline lowers the variance of the regret
updates on Leduc, save/load resumes exactly, bad input, and the recorded measurements
(``benchmarks/vr_mccfr.py``) against a short re-run.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from test_sampling import expected_increments

from cfrlib import games
from cfrlib.errors import SolverError
from cfrlib.regret_matching import matched_strategy
from cfrlib.solvers import OutcomeSamplingMCCFR

KUHN, LEDUC = games.kuhn(), games.leduc()


@pytest.mark.parametrize("epsilon", [0.6, 1.0])
def test_the_zero_baseline_is_plain_outcome_sampling_bit_for_bit(epsilon):
    """``baseline_rate=0`` keeps ``b = 0`` while running the baseline arithmetic (chance and
    opponent nodes included): the tables equal plain OS's, byte for byte, after 3,000 Leduc
    iterations."""
    plain = OutcomeSamplingMCCFR(LEDUC, seed=3, epsilon=epsilon).iterate(3000)
    zero = OutcomeSamplingMCCFR(LEDUC, seed=3, epsilon=epsilon, baseline="learned",
                                baseline_rate=0.0).iterate(3000)
    assert not zero.tables.baseline.any()
    for name in ("regret", "strategy_sum"):
        assert getattr(plain.tables, name).tobytes() == getattr(zero.tables, name).tobytes()
    assert plain.nodes_touched == zero.nodes_touched


def test_one_iteration_is_unbiased_on_kuhn_whatever_the_baseline():
    """From random regrets and a random baseline, the mean change of every regret and
    average-strategy sum over 3,000 independent iterations equals the full-width expectation
    within 5 standard errors (as ``test_sampling.test_one_iteration_is_unbiased_on_kuhn``;
    chance and opponent nodes that forget to subtract ``b(h, a*)`` miss by 19). Each traversal uses its own player's row of the baseline, as it was
    before the traversal, so the baseline is fixed for it."""
    tree = KUHN.tree()
    mask = tree.action_mask
    rng = np.random.default_rng(11)
    start = np.where(mask, rng.normal(size=mask.shape), 0.0)
    baseline = rng.normal(scale=2.0, size=(2, tree.num_nodes))
    base = {"regret": start, "strategy_sum": np.zeros(mask.shape), "uniforms": np.zeros(0),
            "baseline": baseline}
    probs = matched_strategy(start, mask)
    solver = OutcomeSamplingMCCFR(KUHN, seed=2024, baseline="learned")
    samples = 3000
    residuals = np.zeros((samples, 2) + mask.shape)
    first = np.array(expected_increments(tree, probs, 0, "os"))
    for k in range(samples):
        solver.set_state(base)
        solver.iterate(1)
        regret, sums = solver.tables.regret.copy(), solver.tables.strategy_sum.copy()
        mixed = np.where((tree.infoset_player == 0)[:, None], matched_strategy(regret, mask), probs)
        expected = first + np.array(expected_increments(tree, mixed, 1, "os"))
        residuals[k] = np.array([regret - start, sums]) - expected
    mean = residuals.mean(axis=0)
    error = residuals.std(axis=0, ddof=1) / np.sqrt(samples)
    assert np.all(np.abs(mean) <= 5 * error + 1e-12), np.abs(mean / (error + 1e-300)).max()
    assert error.max() > 0


@pytest.mark.slow  # trains a baseline: make test only
def test_a_learned_baseline_lowers_the_variance_on_leduc():
    """After 100,000 VR-MCCFR iterations on Leduc (seed 0), the summed variance of one
    iteration's regret updates (2,000 samples) is at least 3 times smaller with the learned
    baseline than with the zero baseline (plain OS) from the same regrets. Measured over seeds
    0-3: 5.5 to 8.2 times (the median entry: 12 to 17 times)."""
    solver = OutcomeSamplingMCCFR(LEDUC, seed=0, baseline="learned").iterate(100_000)
    learned = solver.regret_variance(2000).sum()
    solver.tables.baseline[:] = 0.0     # the zero baseline: plain OS (test above)
    plain = solver.regret_variance(2000).sum()
    assert plain > 3 * learned, (plain, learned)


def test_regret_variance_leaves_the_solver_as_it_was():
    solver = OutcomeSamplingMCCFR(KUHN, seed=1, baseline="learned").iterate(200)
    before = solver.state()
    variance = solver.regret_variance(50)
    after = solver.state()
    assert variance.shape == KUHN.tree().action_mask.shape and variance.max() > 0
    assert all(np.array_equal(before[k], after[k]) for k in before)
    with pytest.raises(SolverError, match="samples must be an integer >= 2, got 1"):
        solver.regret_variance(1)


def test_save_and_load_resume_exactly(tmp_path):
    """300 iterations, saved, loaded and 200 more equal 500 straight, baseline included."""
    straight = OutcomeSamplingMCCFR(LEDUC, seed=5, baseline="learned", baseline_rate=0.3).iterate(500)
    first = OutcomeSamplingMCCFR(LEDUC, seed=5, baseline="learned", baseline_rate=0.3).iterate(300)
    first.save(tmp_path / "vr.npz")
    resumed = OutcomeSamplingMCCFR.load(tmp_path / "vr.npz", LEDUC)
    assert (resumed.baseline, resumed.baseline_rate) == ("learned", 0.3)
    resumed.iterate(200)
    for name in ("regret", "strategy_sum", "baseline"):
        assert np.array_equal(getattr(straight.tables, name), getattr(resumed.tables, name))


def test_bad_input():
    with pytest.raises(SolverError, match=r"baseline must be one of \('none', 'learned'\), got 'oracle'"):
        OutcomeSamplingMCCFR(KUHN, baseline="oracle")
    for rate in (-0.1, 1.5, True, "0.5", float("nan")):
        with pytest.raises(SolverError, match=r"baseline_rate must be a number in \[0, 1\]"):
            OutcomeSamplingMCCFR(KUHN, baseline="learned", baseline_rate=rate)
    with pytest.raises(SolverError, match="needs backend=\"tree\""):
        OutcomeSamplingMCCFR(KUHN, baseline="learned", backend="states")
    solver = OutcomeSamplingMCCFR(KUHN, baseline="learned").iterate(5)
    arrays = solver.state()
    del arrays["baseline"]
    with pytest.raises(SolverError, match="saved learned baseline is missing"):
        solver.set_state(arrays)


@pytest.mark.slow  # a re-run of recorded data: make test only
def test_recorded_measurements_agree_with_a_short_rerun():
    """``cfrbook/data/vr_mccfr.json`` (``benchmarks/vr_mccfr.py``): seed 0's first two
    exploitability checkpoints of both methods and its first variance point again (the walks are
    exact; evaluation's sums may differ in the last bits on another CPU)."""
    from cfrbook.datasets import load_json

    spec = importlib.util.spec_from_file_location("vr_mccfr", Path(__file__).parents[1] / "benchmarks" / "vr_mccfr.py")
    vr_mccfr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vr_mccfr)
    recorded = load_json("vr_mccfr")["games"]["leduc"]
    assert recorded["seeds"][0] == 0 and recorded["variance"]["samples"] == vr_mccfr.SAMPLES
    for name, baseline in vr_mccfr.METHODS.items():
        values, spread = vr_mccfr.run(baseline, 0, recorded["iterations"][:2], recorded["variance"]["iterations"][:1])
        assert values == pytest.approx([row[0] for row in recorded["exploitability"][name][:2]], rel=1e-9)
        for key, value in spread[0].items():
            assert value == pytest.approx(recorded["variance"][key][0][0], rel=1e-9)
