"""Regret-based pruning (Brown and Sandholm 2015) in the full-width engine: the bound that makes a
pruning safe holds, the regrets it holds back are caught up exactly, the nodes it skips are
counted, the guarantee holds, and the default path is unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cfrlib
from cfrbook import theory
from cfrlib import games
from cfrlib.errors import SolverError
from cfrlib.evaluation import counterfactual_regrets
from cfrlib.solvers.fullwidth import CFR, CFRPlus, FullWidthCFR, _closure

DATA = Path(__file__).parent / "data"


def played_regrets(game, solver, iterations):
    """Run ``solver`` and add up, independently of it, the instantaneous regrets
    ``r^t(I, a) = q(I, a) - v(I)`` of the profiles it plays (alternating: player 0 against
    ``sigma_1^t``, player 1 against ``sigma_0^{t+1}``), checking on the way that a pruned action
    is never played and that its bound is above its true regret."""
    total = np.zeros(game.tree().action_mask.shape)
    for _ in range(iterations):
        before = solver.current_strategy().probs
        solver.iterate(1)
        after = solver.current_strategy().probs
        player1 = game.tree().infoset_player == 1
        total += counterfactual_regrets(game, before, 0)
        total += counterfactual_regrets(game, np.where(player1[:, None], before, after), 1)
        true = solver.cumulative_regret() + solver._to_tree([p.pending for p in solver._pruning])
        for state, block in zip(solver._pruning, solver._form.players):
            rows = block.rows_of(true)
            assert np.all(block.rows_of(after)[state.pruned] == 0.0)
            assert np.all(rows[state.pruned] <= state.bound[state.pruned] + 1e-12)
            waiting = _closure(block, state.pruned)[0]  # rows below a pruning are checked when it ends
            assert np.all(state.bound[state.pruned & ~waiting[:, None]] <= 0.0)
    return total, true


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_held_regrets_are_caught_up_exactly(name):
    """With CFR's additive update, every regret (those held back included) equals the sum of the
    instantaneous regrets of the profiles the pruned run played, computed without the engine."""
    game = getattr(games, name)()
    solver = CFR(game, regret_pruning=True)
    total, true = played_regrets(game, solver, 60)
    np.testing.assert_allclose(true, total, rtol=0, atol=1e-10)
    assert sum(p.pruned.sum() for p in solver._pruning) > 0


def test_cfr_plus_bound_holds():
    played_regrets(games.leduc(), CFRPlus(games.leduc(), regret_pruning=True), 40)


def test_kuhn_pruned_run_is_the_unpruned_one():
    """In Kuhn every infoset below a pruned action keeps a pure current strategy while it waits
    (a K always calls, and player 1 acts once), so freezing it changes nothing: the pruned run
    is CFR to rounding, and its count is the two-phase count less what it skipped plus what the
    catch-up walks touched."""
    kuhn = games.kuhn()
    plain, pruned = CFR(kuhn, count_pruned=True).iterate(500), CFR(kuhn, regret_pruning=True).iterate(500)
    np.testing.assert_allclose(pruned.average_strategy().probs, plain.average_strategy().probs, rtol=0, atol=1e-12)
    assert pruned.nodes_skipped > pruned.nodes_caught_up > 0
    assert pruned.nodes_touched == plain.nodes_touched - pruned.nodes_skipped + pruned.nodes_caught_up


@pytest.mark.slow  # runs to a guarantee on Leduc: make test only
@pytest.mark.parametrize("make", [CFR, CFRPlus])
def test_leduc_guarantee_and_savings(make):
    """The guarantee RBP keeps is CFR's (Brown and Sandholm 2015): exploitability at most
    ``(R_0 + R_1) / (2T)`` with ``R_i <= Delta |I_i| sqrt(|A|) sqrt(T)``. The runs differ (the
    pruned one freezes subtrees), but both meet it, and measured they stay within 15% of each other."""
    leduc, T = games.leduc(), 500
    plain, pruned = make(leduc, count_pruned=True).iterate(T), make(leduc, regret_pruning=True).iterate(T)
    bound = (theory.cfr_regret_bound(leduc, 0, T) + theory.cfr_regret_bound(leduc, 1, T)) / (2 * T)
    assert pruned.exploitability() <= bound and plain.exploitability() <= bound
    assert pruned.exploitability() == pytest.approx(plain.exploitability(), rel=0.15)
    assert pruned.exploitability() == pytest.approx(cfrlib.exploitability(leduc, pruned.average_strategy()), abs=1e-12)
    assert pruned.nodes_skipped > pruned.nodes_caught_up > 0
    assert pruned.nodes_touched < plain.nodes_touched


def test_default_path_unchanged():
    """CFR and CFR+ on Leduc after 30 iterations: the arrays the engine had before regret-based
    pruning existed (saved from that version; equal to 1e-13, numpy's SIMD kernels differ between
    machines in the last bit), and a run with ``regret_pruning=False`` is the default bit for bit."""
    leduc = games.leduc()
    saved = np.load(DATA / "fullwidth_leduc_30.npz")
    for name, make in (("cfr", CFR), ("cfrplus", CFRPlus)):
        default, off = make(leduc).iterate(30), make(leduc, regret_pruning=False).iterate(30)
        assert default.nodes_touched == off.nodes_touched == 30 * 2 * leduc.tree().num_nodes
        for key, array in default.state().items():
            np.testing.assert_array_equal(array, off.state()[key])
            np.testing.assert_allclose(array, saved[f"{name}_{key}"], rtol=0, atol=1e-13)


def test_save_and_resume(tmp_path):
    leduc = games.leduc()
    solver = CFR(leduc, regret_pruning=True).iterate(20)
    solver.save(tmp_path / "rbp.npz")
    resumed = CFR.load(tmp_path / "rbp.npz", leduc).iterate(15)
    solver.iterate(15)
    assert resumed.regret_pruning and resumed.nodes_touched == solver.nodes_touched
    assert (resumed.nodes_skipped, resumed.nodes_caught_up) == (solver.nodes_skipped, solver.nodes_caught_up)
    np.testing.assert_array_equal(resumed.average_strategy().probs, solver.average_strategy().probs)
    assert "regret_pruning" in repr(solver)


@pytest.mark.parametrize("make", [
    lambda g: FullWidthCFR(g, 1.5, 0.0, 2.0, regret_pruning=True),
    lambda g: FullWidthCFR(g, predictive=True, beta=-np.inf, regret_pruning=True),
    lambda g: CFR(g, alternating=False, regret_pruning=True),
    lambda g: FullWidthCFR(g, regret_minimizer="hedge", regret_pruning=True),
])
def test_unsupported_settings(make):
    with pytest.raises(SolverError, match="regret_pruning needs"):
        make(games.kuhn())


def test_flag_must_be_a_bool():
    with pytest.raises(SolverError, match="regret_pruning must be True or False"):
        CFR(games.kuhn(), regret_pruning="yes")


@pytest.mark.slow
@pytest.mark.parametrize("name, make", [("CFR", CFR), ("CFR+", CFRPlus)])
def test_recorded_leduc_curves_agree_with_a_short_rerun(name, make):
    """cfrbook/data/regret_pruning.json (benchmarks/bench_regret_pruning.py): the first
    checkpoints on Leduc again, nodes exactly, exploitability to rounding."""
    from cfrbook import datasets

    leduc = games.leduc()
    recorded = datasets.load_json("regret_pruning")["games"]["Leduc"][name]
    plain, pruned = make(leduc, count_pruned=True), make(leduc, regret_pruning=True)
    rows = [r for r in zip(recorded["unpruned"], recorded["two-phase"], recorded["regret-based"])
            if r[0][0] <= 40]
    assert len(rows) >= 5
    for (T, unpruned, value), (_, two_phase, _), (_, rbp_nodes, rbp_value) in rows:
        plain.iterate(T - plain.iterations)
        pruned.iterate(T - pruned.iterations)
        assert unpruned == 2 * leduc.tree().num_nodes * T
        assert (plain.nodes_touched, pruned.nodes_touched) == (two_phase, rbp_nodes), T
        assert plain.exploitability() == pytest.approx(value, rel=1e-9)
        assert pruned.exploitability() == pytest.approx(rbp_value, rel=1e-9)
