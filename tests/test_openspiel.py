"""OpenSpiel interop (cfrlib.games.from_openspiel, Strategy.to/from_openspiel_policy): OpenSpiel's
games compile to the same trees as cfrlib's own, exploitability agrees with pyspiel's, and CFR
on an OpenSpiel game equals OpenSpiel's own CFR iterate by iterate."""

from __future__ import annotations

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.errors import GameError, StrategyError

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open_spiel) is not installed")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402
from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402


@pytest.fixture(scope="module")
def kuhn():
    return games.from_openspiel("kuhn_poker")


@pytest.fixture(scope="module")
def leduc():
    return games.from_openspiel("leduc_poker")


def test_openspiel_poker_games_have_the_sizes_and_values_of_cfrlibs_own(kuhn, leduc):
    for theirs, ours in ((kuhn, games.kuhn()), (leduc, games.leduc())):
        a, b = theirs.tree(), ours.tree()
        assert (a.num_nodes, a.num_infosets) == (b.num_nodes, b.num_infosets)
    # the game value of Kuhn poker for player 0 is -1/18 (Kuhn 1950)
    value = cfrlib.expected_value(kuhn, cfrlib.CFRPlus(kuhn).iterate(2000).average_strategy())
    assert value == pytest.approx(-1 / 18, abs=1e-3)
    assert set(kuhn.action_ids[(0, "0")]) == {"Pass", "Bet"}   # OpenSpiel's action strings


# Leduc is make test only (half a second of OpenSpiel's Python walks); the three small games cover
# the same comparison in make check.
@pytest.mark.parametrize("name", ["kuhn_poker", pytest.param("leduc_poker", marks=pytest.mark.slow),
                                  "liars_dice(dice_sides=3)",
                                  "goofspiel(num_cards=3,imp_info=True,points_order=descending)"])
def test_exploitability_equals_openspiels_on_the_same_policy(name):
    game = games.from_openspiel(name)
    strategy = cfrlib.CFR(game).iterate(7).average_strategy()
    policy = strategy.to_openspiel_policy()
    assert cfrlib.nash_conv(game, strategy) == pytest.approx(
        os_exploitability.nash_conv(game.openspiel_game, policy), abs=1e-12)
    assert cfrlib.exploitability(game, strategy) == pytest.approx(
        os_exploitability.exploitability(game.openspiel_game, policy), abs=1e-12)


def test_simultaneous_moves_are_made_turn_based():
    rps = games.from_openspiel("matrix_rps")
    value = cfrlib.expected_value(rps, cfrlib.CFRPlus(rps).iterate(500).average_strategy())
    assert value == pytest.approx(0.0, abs=1e-3)
    assert rps.tree().num_infosets == 2   # the second mover cannot tell the first's move


def test_policies_round_trip(leduc):
    strategy = cfrlib.CFRPlus(leduc).iterate(5).average_strategy()
    back = cfrlib.Strategy.from_openspiel_policy(strategy.to_openspiel_policy(), leduc)
    assert np.array_equal(back.probs, strategy.probs)
    uniform = cfrlib.Strategy.from_openspiel_policy(os_policy.UniformRandomPolicy(leduc.openspiel_game),
                                                    leduc)
    assert np.allclose(uniform.probs, cfrlib.uniform_strategy(leduc).probs)


# OpenSpiel's CFR runs in Python: on Leduc each iteration costs about 0.1 s of CPU, and by the
# second the alternating updates and the uniform average both shape the strategies compared.
@pytest.mark.parametrize("name, iterations", [("kuhn_poker", 10),
                                              pytest.param("leduc_poker", 4, marks=pytest.mark.slow)])
def test_cfr_equals_openspiels_cfr_iterate_by_iterate(name, iterations):
    game = games.from_openspiel(name)
    theirs = os_cfr.CFRSolver(game.openspiel_game)   # alternating updates, uniform average
    ours = cfrlib.CFR(game)
    for _ in range(iterations):
        theirs.evaluate_and_update_policy()
        ours.iterate(1)
        mine = ours.average_strategy()
        average = cfrlib.Strategy.from_openspiel_policy(theirs.average_policy(), game)
        assert np.max(np.abs(average.probs - mine.probs)) < 1e-12


def test_games_that_do_not_fit_are_refused_with_the_reason():
    with pytest.raises(GameError, match="3 players, not 2"):
        games.from_openspiel("kuhn_poker", players=3)
    with pytest.raises(GameError, match="its utility is GENERAL_SUM"):
        games.from_openspiel("matrix_pd")
    with pytest.raises(GameError, match="cannot load 'no_such_game'"):
        games.from_openspiel("no_such_game")
    with pytest.raises(GameError, match="more than max_nodes=100"):
        games.from_openspiel("leduc_poker", max_nodes=100)
    with pytest.raises(GameError, match="parameters .* for a game given by name"):
        games.from_openspiel(pyspiel.load_game("kuhn_poker"), players=2)


def test_policies_only_for_openspiel_games():
    strategy = cfrlib.uniform_strategy(games.kuhn())
    with pytest.raises(StrategyError, match="kuhn was not made by cfrlib.games.from_openspiel"):
        strategy.to_openspiel_policy()
