"""Sampled evaluation by play agrees with exact evaluation and refuses bad strategies clearly."""

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.errors import CfrlibError, SolverError, StrategyError
from cfrlib.playouts import head_to_head, play_games


def _pure(game, choice):
    """Every infoset plays the action named by ``choice(player, key)``."""
    tree = game.tree()
    return {(int(p), key): {a: float(a == choice(int(p), key)) for a in actions}
            for p, key, actions in zip(tree.infoset_player, tree.infoset_keys, tree.infoset_actions)}


def _seated(game, mine, theirs, player):
    """The profile where ``player`` follows ``mine`` and the other player ``theirs``."""
    own = game.tree().infoset_player == player
    return cfrlib.Strategy(game, np.where(own[:, None], mine.probs, theirs.probs))


def test_pure_strategies_without_chance_give_the_exact_payoff_with_zero_error():
    rps = games.rps()
    rock = _pure(rps, lambda p, key: "rock")
    paper = _pure(rps, lambda p, key: "paper")
    result = play_games(rps, rock, paper, games=50, seed=3)
    assert result == (-1.0, 0.0, 50)
    assert head_to_head(rps, paper, rock, games=20) == (1.0, 0.0, 40)


@pytest.mark.slow
def test_the_mean_payoff_agrees_with_the_exact_expected_value_on_leduc():
    leduc = games.leduc()
    trained = cfrlib.CFR(leduc).iterate(30).average_strategy()
    exact = cfrlib.expected_value(leduc, trained)
    result = play_games(leduc, trained, trained, games=20_000, seed=7)
    assert result.games == 20_000
    assert 0.02 < result.stderr < 0.04          # payoffs of several chips, 20,000 games
    assert abs(result.mean - exact) < 4 * result.stderr


@pytest.mark.slow  # 40,000 games: make test only
def test_head_to_head_averages_both_seats_like_the_exact_values():
    kuhn = games.kuhn()
    trained = cfrlib.CFR(kuhn).iterate(200).average_strategy()
    uniform = cfrlib.uniform_strategy(kuhn)
    exact = (cfrlib.expected_value(kuhn, _seated(kuhn, trained, uniform, 0))
             - cfrlib.expected_value(kuhn, _seated(kuhn, trained, uniform, 1))) / 2
    result = head_to_head(kuhn, trained, None, games=20_000, seed=11)
    assert result.games == 40_000
    assert exact > 0.1                           # a trained strategy beats uniform play
    assert abs(result.mean - exact) < 4 * result.stderr


def test_the_same_seed_repeats_and_another_seed_differs():
    kuhn = games.kuhn()
    first = play_games(kuhn, None, None, games=500, seed=5)
    assert play_games(kuhn, None, None, games=500, seed=5) == first
    assert play_games(kuhn, None, None, games=500, seed=6) != first


def test_a_sampling_solvers_states_strategy_plays_and_missing_infosets_are_handled():
    kuhn = games.kuhn()
    solver = cfrlib.ExternalSamplingMCCFR(kuhn, seed=0, backend="states").iterate(1)
    learned = solver.average_strategy()               # a Strategy, uniform where not met
    met = {key: learned[key] for key in solver.table}  # {(player, key): {action: p}}
    assert isinstance(learned, cfrlib.Strategy) and 0 < len(met) < len(learned)
    assert play_games(kuhn, met, None, games=300, seed=2) == play_games(
        kuhn, learned, None, games=300, seed=2)
    partial = {(0, "K"): {"pass": 0.0, "bet": 1.0}}
    with pytest.raises(StrategyError, match=r"player 0's strategy has no entry for the infoset '[JQ]'"):
        play_games(kuhn, partial, None, games=100, seed=0, missing="error")


@pytest.mark.parametrize("bad, message", [
    ({"K": {"pass": 0.5, "raise": 0.5}}, r"infoset 'K': unknown action\(s\) \['raise'\]"),
    ({"K": {"pass": 0.7, "bet": 0.7}}, r"infoset 'K': probabilities \[0.7, 0.7\] must be"),
    ({"K": {"pass": -0.5, "bet": 1.5}}, r"infoset 'K': probabilities"),
    ({"K": [0.5, 0.5]}, r"infoset 'K': expected \{action: probability\}"),
])
def test_bad_probabilities_raise_a_strategy_error_naming_the_infoset(bad, message):
    with pytest.raises(StrategyError, match=message):
        play_games(games.kuhn(), bad, None, games=200, seed=0)


def test_bad_arguments_raise_clear_errors():
    kuhn = games.kuhn()
    with pytest.raises(CfrlibError, match="games must be a positive integer, got 0"):
        play_games(kuhn, None, None, games=0)
    with pytest.raises(SolverError, match="games must be a non-negative integer"):
        play_games(kuhn, None, None, games=2.5)
    with pytest.raises(SolverError, match="seed must be an integer"):
        play_games(kuhn, None, None, seed="a")
    with pytest.raises(CfrlibError, match="missing must be 'uniform' or 'error'"):
        play_games(kuhn, None, None, missing="skip")
    with pytest.raises(StrategyError, match="player 1's strategy must be a Strategy"):
        play_games(kuhn, None, [0.5, 0.5])
