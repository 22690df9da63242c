"""The local regret minimizer as a plug of the full-width engine: the presets are regret matching
with discounts, a new minimizer is a small class, and Hedge-CFR equals a readable recursive
reference to 1e-12 (CFR's regret decomposition: any regret minimizer at every infoset)."""

import math

import numpy as np
import pytest

import cfrlib
from cfrlib.errors import SolverError
from cfrlib.solvers import SOLVERS, Solver
from cfrlib.solvers.fullwidth import CFR, DCFR, CFRPlus, FullWidthCFR, HedgeCFR, PredictiveCFRPlus
from cfrlib.solvers.regret_minimizers import Hedge, RegretMatching, RegretMinimizer
from cfrlib.textbook.cfr import TextbookCFR


def same_run(a, b, iterations=25):
    a.iterate(iterations), b.iterate(iterations)
    return (np.array_equal(a.cumulative_regret(), b.cumulative_regret())
            and np.array_equal(a.average_strategy().probs, b.average_strategy().probs)
            and np.array_equal(a.current_strategy().probs, b.current_strategy().probs))


# ------------------------------------------------------------------ presets are minimizers

@pytest.mark.parametrize("alternating", [True, False])
def test_presets_are_the_engine_with_a_named_minimizer_bit_for_bit(leduc, alternating):
    assert same_run(CFR(leduc, alternating), FullWidthCFR(leduc, alternating=alternating, regret_minimizer="rm"))
    assert same_run(CFRPlus(leduc, alternating=alternating),
                    FullWidthCFR(leduc, gamma=1, alternating=alternating, regret_minimizer="rm+"))
    assert same_run(PredictiveCFRPlus(leduc, alternating=alternating),
                    FullWidthCFR(leduc, gamma=2, alternating=alternating, regret_minimizer="prm+"))
    assert same_run(DCFR(leduc, alternating=alternating),
                    FullWidthCFR(leduc, gamma=2, alternating=alternating,
                                 regret_minimizer=RegretMatching(alpha=1.5, beta=0.0)))


class ClippedRegretMatching(RegretMinimizer):
    """RM+ written from scratch as a new variant: clip the sum at 0, then match positive parts."""

    def update(self, R, r, t):
        np.maximum(R + r, 0.0, out=R)

    def strategy(self, R, r, t, mask):
        total = R.sum(axis=1, keepdims=True)
        return np.where(total > 0.0, R / np.where(total > 0.0, total, 1.0), mask / mask.sum(axis=1, keepdims=True))


def test_a_new_minimizer_is_a_small_class(leduc):
    """Ten lines of RM+ give CFR+'s run exactly, and the engine saves and reloads it."""
    custom = FullWidthCFR(leduc, gamma=1, regret_minimizer=ClippedRegretMatching())
    assert same_run(CFRPlus(leduc), custom, 30)
    assert "ClippedRegretMatching" in repr(custom)


# ------------------------------------------------------------------ Hedge-CFR

class TextbookHedgeCFR(TextbookCFR):
    """The readable recursive CFR of chapter 4 with Hedge instead of regret matching: only
    ``update`` changes. ``sigma^{t+1}(I, a) = exp(eta_t R^t(I, a)) / sum_b exp(eta_t R^t(I, b))``,
    ``eta_t = sqrt(8 ln|A(I)| / t) / payoff_range``."""

    def __init__(self, game, payoff_range):
        super().__init__(game)
        self.payoff_range = payoff_range

    def update(self, player):
        for (p, _), info in self.infosets.items():
            if p != player:
                continue
            for a in info.actions:
                info.strategy_sum[a] += info.reached[a]
                info.regret[a] += info.instant[a]
            eta = math.sqrt(8 * math.log(len(info.actions)) / self.t) / self.payoff_range
            top = max(info.regret.values())
            weight = {a: math.exp(eta * (info.regret[a] - top)) for a in info.actions}
            total = sum(weight.values())
            info.strategy = {a: weight[a] / total for a in info.actions}
            info.instant = {a: 0.0 for a in info.actions}
            info.reached = {a: 0.0 for a in info.actions}


@pytest.mark.parametrize("name, iterations", [("kuhn", 40), pytest.param("leduc", 8, marks=pytest.mark.slow)])
def test_hedge_cfr_equals_the_recursive_reference(name, iterations, request):
    game = request.getfixturevalue(name)
    engine = HedgeCFR(game).iterate(iterations)
    span = {"kuhn": 4.0, "leduc": 26.0}[name]  # max u - min u: Kuhn -2..2, Leduc -13..13
    assert engine.payoff_range == span
    reference = TextbookHedgeCFR(game, span).iterate(iterations)
    for mine, theirs in ((engine.average_strategy(), reference.average_strategy()),
                         (engine.current_strategy(), reference.current_strategy())):
        expected = cfrlib.Strategy.from_dict(game, theirs).probs
        assert np.abs(mine.probs - expected).max() < 1e-12
    assert reference.nodes_touched == engine.nodes_touched


@pytest.mark.parametrize("name", ["kuhn", pytest.param("leduc", marks=pytest.mark.slow)])
def test_hedge_cfr_exploitability_falls(name, request):
    game = request.getfixturevalue(name)
    solver = HedgeCFR(game)
    values = [cfrlib.exploitability(game, cfrlib.uniform_strategy(game))]
    for n in (10, 100, 1000):
        solver.iterate(n - solver.iterations)
        values.append(solver.exploitability())
    assert all(later < earlier for earlier, later in zip(values, values[1:]))
    # with a larger learning rate (a tenth of Kuhn's payoff range) it falls faster
    faster = HedgeCFR(game, payoff_range=0.4 if name == "kuhn" else 2.6).iterate(1000).exploitability()
    assert faster < values[-1]


def test_hedge_is_exponential_weights_on_the_regrets():
    R = np.array([[1.0, 2.0, 0.0], [5.0, -1.0, 7.0], [3.0, 0.0, 0.0]])
    mask = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    sigma = Hedge(2.0).strategy(R, None, 4, mask)
    eta3, eta2 = math.sqrt(8 * math.log(3) / 4) / 2, math.sqrt(8 * math.log(2) / 4) / 2
    row0 = np.exp(eta3 * R[0]) / np.exp(eta3 * R[0]).sum()
    row1 = np.exp(eta2 * R[1, :2]) / np.exp(eta2 * R[1, :2]).sum()
    assert np.allclose(sigma[0], row0, rtol=1e-14, atol=0)
    assert np.allclose(sigma[1], [*row1, 0.0], rtol=1e-14, atol=0)
    assert np.array_equal(sigma[2], [1.0, 0.0, 0.0])  # one action: eta = 0, no nan from padding
    huge = Hedge(1.0).strategy(np.array([[1e6, 0.0]]), None, 1, np.ones((1, 2)))
    assert np.array_equal(huge, [[1.0, 0.0]])  # no overflow


def test_hedge_cfr_is_registered_and_resumes(leduc, tmp_path):
    assert SOLVERS["hedge-cfr"] is HedgeCFR and cfrlib.HedgeCFR is HedgeCFR
    for make in (lambda: HedgeCFR(leduc, 5.0, alternating=False),
                 lambda: FullWidthCFR(leduc, gamma=1.0, regret_minimizer=Hedge(3.0)),
                 lambda: FullWidthCFR(leduc, regret_minimizer=RegretMatching(2.0, -1.0, predictive=True))):
        straight = make().iterate(6)
        first = make().iterate(4)
        first.save(tmp_path / "state.npz")
        resumed = Solver.load(tmp_path / "state.npz", leduc).iterate(2)
        assert repr(resumed) == repr(straight)
        assert np.array_equal(resumed.average_strategy().probs, straight.average_strategy().probs)
        assert np.array_equal(resumed.cumulative_regret(), straight.cumulative_regret())


# ------------------------------------------------------------------ bad input

def test_bad_minimizers(kuhn):
    with pytest.raises(SolverError, match="no regret minimizer 'adam'"):
        FullWidthCFR(kuhn, regret_minimizer="adam")
    with pytest.raises(SolverError, match="regret_minimizer must be"):
        FullWidthCFR(kuhn, regret_minimizer=3)
    with pytest.raises(SolverError, match="either alpha, beta and predictive"):
        FullWidthCFR(kuhn, alpha=1.0, regret_minimizer="hedge")
    with pytest.raises(SolverError, match="payoff_range must be a positive number"):
        HedgeCFR(kuhn, payoff_range=-1.0)
    with pytest.raises(SolverError, match="beta must be in"):
        RegretMatching(beta=math.nan)
