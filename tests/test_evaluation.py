"""Exact evaluation against reference values, Kuhn's equilibrium family, and properties on random
games.

Sources of the reference values: uniform-random NashConv of Kuhn (11/12), Leduc (4.747222) and
Bluff 1x1 with 6 sides (1.561489) as computed by OpenSpiel 2.0.2's
open_spiel.python.algorithms.exploitability.nash_conv on kuhn_poker, leduc_poker and
liars_dice(numdice=1) (Kuhn's 11/12 also by hand: test_uniform_kuhn_exact_values); Kuhn's value
-1/18 and its equilibrium family from Kuhn (1950), "A simplified two-person poker".
"""

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.textbook import evaluation as textbook
from toy_games import RandomGame, random_strategy

KUHN, LEDUC, BLUFF = games.kuhn(), games.leduc(), games.bluff()


def first_action(game):
    probs = np.zeros(game.tree().action_mask.shape)
    probs[:, 0] = 1.0
    return cfrlib.Strategy(game, probs)


@pytest.mark.parametrize("game, nash_conv", [(KUHN, 11 / 12), (LEDUC, 4.747222), (BLUFF, 1.561489),
                                             (games.leduc(suit_isomorphism=True), 4.747222)],
                         ids=lambda x: getattr(x, "name", ""))
def test_uniform_strategy_matches_the_reference(game, nash_conv):
    uniform = cfrlib.uniform_strategy(game)
    assert cfrlib.nash_conv(game, uniform) == pytest.approx(nash_conv, abs=5e-7)
    assert cfrlib.exploitability(game, uniform) == pytest.approx(nash_conv / 2, abs=5e-7)


def test_uniform_kuhn_exact_values():
    uniform = cfrlib.uniform_strategy(KUHN)
    assert cfrlib.exploitability(KUHN, uniform) == pytest.approx(0.458333, abs=5e-7)
    assert cfrlib.expected_value(KUHN, uniform) == pytest.approx(1 / 8, abs=1e-15)


@pytest.mark.parametrize("game", [KUHN, LEDUC], ids=lambda g: g.name)
def test_always_first_action_has_nash_conv_two(game):
    assert cfrlib.nash_conv(game, first_action(game)) == pytest.approx(2.0, abs=1e-12)


def test_rps_uniform_is_the_equilibrium():
    rps = games.rps()
    assert cfrlib.exploitability(rps, cfrlib.uniform_strategy(rps)) == pytest.approx(0.0, abs=1e-15)
    rock = cfrlib.Strategy.from_dict(rps, {"P0": {"rock": 1.0}, "P1": {"rock": 1 / 3, "paper": 1 / 3, "scissors": 1 / 3}})
    br = cfrlib.best_response(rps, rock, 1)
    assert br.value == 1.0 and br.strategy["P1"] == {"rock": 0.0, "paper": 1.0, "scissors": 0.0}


@pytest.mark.parametrize("omega", np.linspace(0, 1 / 3, 7))
def test_kuhn_equilibrium_family(omega):
    eq = KUHN.equilibrium(omega)
    assert cfrlib.exploitability(KUHN, eq) < 1e-12
    assert cfrlib.expected_value(KUHN, eq) == pytest.approx(-1 / 18, abs=1e-14)


@pytest.mark.parametrize("infoset, change", [("J", 0.1), ("Q", 0.05), ("Kpb", -0.2), ("Qb", 0.1), ("Jp", -0.1)])
def test_strategies_off_the_family_are_exploitable(infoset, change):
    probs = KUHN.equilibrium(0.2).to_array()
    I = KUHN.tree().infoset_index(0 if len(infoset) % 2 else 1, infoset)
    probs[I] += [-change, change]
    assert cfrlib.exploitability(KUHN, cfrlib.Strategy(KUHN, probs)) > 1e-3


def test_a_bluff_outside_the_family_is_refused():
    with pytest.raises(cfrlib.StrategyError, match=r"bluff in \[0, 1/3\] of the time, got 0.5"):
        KUHN.equilibrium(0.5)


def test_best_response_profile_keeps_the_opponent():
    uniform = cfrlib.uniform_strategy(LEDUC)
    br = cfrlib.best_response(LEDUC, uniform, 1)
    tree = LEDUC.tree()
    mine = tree.infoset_player == 1
    assert np.array_equal(br.strategy.probs[~mine], uniform.probs[~mine])
    assert set(np.unique(br.strategy.probs[mine])) <= {0.0, 1.0}
    # playing the best response earns exactly its value
    assert -cfrlib.expected_value(LEDUC, br.strategy) == pytest.approx(br.value, abs=1e-12)
    assert br.value == pytest.approx(cfrlib.best_response_value(LEDUC, uniform, 1), abs=1e-15)


@pytest.mark.parametrize("seed", range(12))
def test_properties_on_random_games(seed):
    game = RandomGame(seed)
    sigma = cfrlib.Strategy(game, random_strategy(game, seed))
    u0 = cfrlib.expected_value(game, sigma)
    values = [cfrlib.best_response_value(game, sigma, p) for p in (0, 1)]
    assert values[0] >= u0 - 1e-12 and values[1] >= -u0 - 1e-12
    assert cfrlib.nash_conv(game, sigma) == pytest.approx(values[0] - u0 + values[1] + u0, abs=1e-12)
    assert cfrlib.exploitability(game, sigma) >= -1e-12
    # the recursive textbook evaluation agrees with the vectorized one
    assert textbook.expected_value(game, sigma) == pytest.approx(u0, abs=1e-12)
    for p in (0, 1):
        assert textbook.best_response_value(game, sigma, p) == pytest.approx(values[p], abs=1e-12)
    # a best response is a best response: no pure deviation at one infoset does better
    br = cfrlib.best_response(game, sigma, 0)
    assert cfrlib.expected_value(game, br.strategy) == pytest.approx(values[0], abs=1e-12)


def test_textbook_agrees_on_leduc():
    sigma = cfrlib.Strategy(LEDUC, random_strategy(LEDUC, 7))
    assert textbook.nash_conv(LEDUC, sigma) == pytest.approx(cfrlib.nash_conv(LEDUC, sigma), abs=1e-12)


def test_strategy_of_another_game_object_is_accepted_by_key():
    other = games.kuhn()
    assert cfrlib.exploitability(other, KUHN.equilibrium(0.1)) < 1e-12
    with pytest.raises(cfrlib.StrategyError, match="belongs to kuhn, not leduc"):
        cfrlib.exploitability(LEDUC, KUHN.equilibrium(0.1))


@pytest.mark.parametrize("game", [KUHN, LEDUC], ids=lambda g: g.name)
def test_counterfactual_regrets_are_what_one_cfr_iteration_adds(game):
    uniform = cfrlib.uniform_strategy(game)
    regrets = [cfrlib.evaluation.counterfactual_regrets(game, uniform, p) for p in (0, 1)]
    tree = game.tree()
    for p in (0, 1):
        assert not regrets[p][tree.infoset_player != p].any()
        # sum_a sigma(I, a) r(I, a) = 0: the strategy's own regret is zero
        assert np.allclose((uniform.probs * regrets[p]).sum(axis=1), 0.0, atol=1e-12)
    solver = cfrlib.CFR(game, alternating=False).iterate(1)
    assert np.allclose(solver.cumulative_regret(), regrets[0] + regrets[1], atol=1e-12)
    with pytest.raises(cfrlib.CfrlibError, match="player must be 0 or 1, got 2"):
        cfrlib.evaluation.counterfactual_regrets(game, uniform, 2)


def test_behaviour_strategy_inverts_the_realization_plan():
    from cfrlib.evaluation import behaviour_strategy, realization_plan

    tree = LEDUC.tree()
    probs = random_strategy(LEDUC, 3)
    for p in (0, 1):
        back = behaviour_strategy(tree, realization_plan(tree, probs, p), p)
        mine = tree.infoset_player == p
        np.testing.assert_allclose(back[mine], probs[mine], rtol=0, atol=1e-12)
        assert not back[~mine].any()
