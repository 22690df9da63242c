"""Sampling with any local rule (issue 24): the rule is data the compiled walks apply.

What is checked: the default walk is the one of before the rule existed (tables recorded from
``main`` before the change, bit for bit); each accepted rule in chance, external and outcome
sampling equals an independent reference, the textbook recursion followed, after every
iteration, by the full-width discount of every infoset met (eager where the walks are lazy);
ES with RM+ and with DCFR's discounts converge on Leduc; a solver with a rule saves and resumes
bit for bit; the refused minimizers and bad states say why.
"""

import hashlib
import math

import numpy as np
import pytest

from cfrlib import games
from cfrlib.errors import SolverError
from cfrlib.solvers import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR, Solver
from cfrlib.solvers.regret_minimizers import (Hedge, PredictiveRegretMatchingPlus, RegretMatching,
                                              RegretMatchingPlus, _discount)
from test_sampling import WALKS, run_textbook, table_arrays

KUHN, LEDUC = games.kuhn(), games.leduc()

MAKE = {
    "cs": lambda game, seed, rule, backend="tree": ChanceSamplingCFR(
        game, seed=seed, regret_minimizer=rule, backend=backend),
    "cs-simultaneous": lambda game, seed, rule, backend="tree": ChanceSamplingCFR(
        game, seed=seed, alternating=False, regret_minimizer=rule, backend=backend),
    "es": lambda game, seed, rule, backend="tree": ExternalSamplingMCCFR(
        game, seed=seed, regret_minimizer=rule, backend=backend),
    "os": lambda game, seed, rule, backend="tree": OutcomeSamplingMCCFR(
        game, seed=seed, regret_minimizer=rule, backend=backend),
}

# sha256 (first 16 hex digits) of regret and strategy_sum bytes, and nodes touched, after 3,000
# iterations with seed 11 on the tree backend, recorded on main at 8fa7fe3 before rules existed
RECORDED = {
    ("kuhn", "cs"): ("5f71a2bb84e7f3d4", 64958),
    ("kuhn", "cs-simultaneous"): ("c865cd8dfbca715f", 32634),
    ("kuhn", "es"): ("e22c8c2abc915e0d", 44048),
    ("kuhn", "os"): ("3a7eb139b52c08f1", 31891),
    ("leduc", "cs"): ("56f2de1e98b50b94", 435045),
    ("leduc", "cs-simultaneous"): ("63c0789007ffcb0f", 221201),
    ("leduc", "es"): ("b651eacd3756826c", 140019),
    ("leduc", "os"): ("e970c0ad766a4fa7", 48972),
}

RULES = {  # every kind of sign mode: keep, zero, discount
    "rm": "rm",
    "rm+": "rm+",
    "dcfr": RegretMatching(1.5, 0.0),
    "lcfr": RegretMatching(1.0, 1.0),
    "discounted rm+": RegretMatching(2.0, -math.inf),
    "negative only": RegretMatching(math.inf, 0.5),
}


@pytest.mark.parametrize("game, name", list(RECORDED), ids=[f"{g}-{n}" for g, n in RECORDED])
@pytest.mark.parametrize("rule", [None, "rm", RegretMatching()], ids=["default", "rm", "instance"])
def test_default_walk_is_unchanged_bit_for_bit(game, name, rule):
    solver = MAKE[name](KUHN if game == "kuhn" else LEDUC, 11, rule).iterate(3000)
    digest = hashlib.sha256(solver.tables.regret.tobytes() + solver.tables.strategy_sum.tobytes())
    assert (digest.hexdigest()[:16], solver.nodes_touched) == RECORDED[(game, name)]
    assert "regret_minimizer" not in solver._params()  # and saved as before


def reference(name, minimizer, game, seed, iterations):
    """The textbook recursion with plain draws from ``default_rng(seed)``, and after iteration
    ``t`` every infoset's row multiplied by ``_discount(t, alpha)`` where ``R >= 0`` and by
    ``_discount(t, beta)`` where ``R < 0``: ``R^t = d_t(R^{t-1} + r~^t)`` for all infosets."""
    def discount(t, table):
        up, down = _discount(t, minimizer.alpha), _discount(t, minimizer.beta)
        for node in table.values():
            node.regret = {a: r * (up if r >= 0.0 else down) for a, r in node.regret.items()}

    table = run_textbook(name, game, seed, iterations, after_iteration=discount)
    regret, sums = table_arrays(game.tree(), table)
    return regret, sums, table.nodes_touched


def assert_equals_the_eager_reference(name, rule, iterations):
    """``iterations`` of solver ``name`` with ``rule`` on Kuhn (seed 5) against ``reference``:
    bit for bit for the rules whose factors are 0 and 1 (RM, RM+), else to 1e-12."""
    solver = MAKE[name](KUHN, 5, RULES[rule]).iterate(iterations)
    regret, sums, touched = reference(name, solver.regret_minimizer, KUHN, 5, iterations)
    got = np.zeros(regret.shape)
    for I, row in enumerate(solver.regret):
        got[I, :len(row)] = row
    assert WALKS.get(name, 1) * solver.nodes_touched == touched
    if rule in ("rm", "rm+"):
        assert np.array_equal(got, regret) and np.array_equal(solver.tables.strategy_sum, sums)
    else:
        np.testing.assert_allclose(got, regret, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(solver.tables.strategy_sum, sums, rtol=1e-12, atol=1e-12)
        assert not np.array_equal(got, solver.tables.regret)  # some rows were still lagging
    assert np.any(regret != 0)
    return solver


@pytest.mark.parametrize("rule", list(RULES))
@pytest.mark.parametrize("name", list(MAKE))
def test_each_rule_equals_the_eager_reference_on_kuhn(name, rule):
    """Lazy discounting (each row brought up to date when next touched) against discounting
    every row every iteration: the same regrets and sums, the same nodes touched."""
    assert_equals_the_eager_reference(name, rule, 400)


def test_lazy_discounts_outlive_the_range_of_floats():
    """DCFR's ``beta = 0`` halves the negative regrets every iteration, so their running product
    ``P_-(t) = 2^-t`` leaves the range of doubles after 1,074 iterations; the walk keeps ``P`` in
    a frame multiplied by ``2^512`` when it falls below ``2^-512`` (twice in 1,200 iterations:
    ``P_-(1199)`` is held as ``2^-1199 2^1024``) and still equals the eager reference."""
    solver = assert_equals_the_eager_reference("es", "dcfr", 1200)
    assert solver.tables.lazy.now[1] == 2.0 ** -175


@pytest.mark.parametrize("rule, bound", [("rm+", 0.45), ("dcfr", 0.45), ("lcfr", 0.3)])
def test_external_sampling_converges_on_leduc_with_each_rule(rule, bound):
    """After 20,000 iterations (about 0.9 million nodes touched) ES on Leduc with RM+, DCFR's
    discounts (1.5, 0) and Linear CFR's (1, 1) is far below uniform play's 2.37; measured with
    seeds 0 to 2: RM+ 0.30-0.31, DCFR 0.30-0.31, LCFR 0.16-0.19 (RM: 0.18-0.21)."""
    solver = ExternalSamplingMCCFR(LEDUC, seed=1, regret_minimizer=RULES[rule]).iterate(20_000)
    assert solver.exploitability() < bound


@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_save_load_with_a_rule_resumes_bit_identically(name, tmp_path):
    rule = RegretMatching(1.5, 0.0)
    straight = MAKE[name](LEDUC, 5, rule).iterate(300)
    first = MAKE[name](LEDUC, 5, rule).iterate(137)
    first.save(tmp_path / "solver.npz")
    resumed = Solver.load(tmp_path / "solver.npz", LEDUC)
    assert resumed.regret_minimizer.params() == rule.params()
    resumed.iterate(163)
    assert resumed.regret == straight.regret and resumed.strategy_sum == straight.strategy_sum
    assert np.array_equal(resumed.tables.lazy.stamp, straight.tables.lazy.stamp)
    assert resumed.average_strategy() == straight.average_strategy()
    plus = MAKE[name](KUHN, 2, "rm+").iterate(10)
    plus.save(tmp_path / "plus.npz")
    assert type(Solver.load(tmp_path / "plus.npz", KUHN).regret_minimizer) is RegretMatchingPlus


class Doubled(RegretMatching):
    def update(self, R, r, t):
        R += 2 * r


@pytest.mark.parametrize("spec, message", [
    ("hedge", "not Hedge"), (Hedge(2.0), "not Hedge"), (Doubled(), "not Doubled"),
    ("prm+", "refuse predictive"), (RegretMatching(predictive=True), "refuse predictive"),
    (PredictiveRegretMatchingPlus(), "refuse predictive"), ("dcfr", "no regret minimizer 'dcfr'"),
    (3, "regret_minimizer must be"),
])
@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_refused_minimizers_say_why(name, spec, message):
    with pytest.raises(SolverError, match=message):
        MAKE[name](KUHN, 0, spec)


def test_rules_need_the_tree_and_their_saved_state(tmp_path):
    with pytest.raises(SolverError, match="needs the compiled tree"):
        ExternalSamplingMCCFR(KUHN, backend="states", regret_minimizer="rm+")
    ExternalSamplingMCCFR(KUHN, backend="states", regret_minimizer="rm")  # plain RM is fine
    solver = OutcomeSamplingMCCFR(KUHN, regret_minimizer=RegretMatching(1.0, 1.0))
    arrays = solver.state()
    del arrays["stamp"]
    with pytest.raises(SolverError, match="saved state 'stamp' .* is missing"):
        solver.set_state(arrays)


@pytest.mark.parametrize("rule", ["RM+", "DCFR (1.5, 0)"])
def test_recorded_leduc_curves_agree_with_a_short_rerun(rule):
    """``cfrbook/data/sampling_rules.json`` (``benchmarks/sampling_rules_curves.py``): seed 0's
    first two checkpoints again (the walk is exact; the evaluation's sums may differ in the
    last bits on another CPU)."""
    from cfrbook.datasets import load_json

    recorded = load_json("sampling_rules")["games"]["leduc"][rule]
    spec = {"RM+": "rm+", "DCFR (1.5, 0)": RegretMatching(1.5, 0.0)}[rule]
    solver = ExternalSamplingMCCFR(LEDUC, seed=recorded["seeds"][0], regret_minimizer=spec)
    for n, values in list(zip(recorded["iterations"], recorded["exploitability"]))[:2]:
        solver.iterate(n - solver.iterations)
        assert solver.exploitability() == pytest.approx(values[0], rel=1e-9)
