"""Regret matching on matrix games (chapter 1): histories, convergence, agreement, bad input."""

import numpy as np
import pytest

from cfrlib import games
from cfrlib.errors import SolverError, StrategyError
from cfrlib.regret_matching import matched_strategy, run_regret_matching
from cfrlib.solvers.fullwidth import CFR, CFRPlus
from cfrlib.solvers.regret_minimizers import RegretMatching
from cfrlib.textbook.regret_matching import regret_matching as match, self_play

START = ([0.5, 0.3, 0.2], [0.1, 0.1, 0.8])


def test_history_shapes_and_first_row():
    run = run_regret_matching(games.rps(), 50, initial=START)
    assert run.iterations == 50
    for i in (0, 1):
        assert run.current[i].shape == run.average[i].shape == run.cumulative_regret[i].shape == (50, 3)
        assert np.array_equal(run.current[i][0], START[i]) and np.array_equal(run.average[i][0], START[i])
        assert np.allclose(run.current[i].sum(axis=1), 1.0) and np.allclose(run.average[i].sum(axis=1), 1.0)
    # The average is the running mean of the current strategies.
    assert np.allclose(run.average[0], np.cumsum(run.current[0], axis=0) / np.arange(1, 51)[:, None])


def test_uniform_start_in_rps_is_already_the_equilibrium():
    run = run_regret_matching(games.rps(), 20)
    assert np.all(run.current[0] == 1 / 3) and np.all(run.exploitability == 0.0)


@pytest.mark.slow  # thousands of iterations: make test only
@pytest.mark.parametrize("plus", [False, True])
def test_self_play_converges_to_the_equilibrium_of_rps(plus):
    run = run_regret_matching(games.rps(), 5000, plus=plus, initial=START)
    assert np.allclose(run.average[0][-1], 1 / 3, atol=0.01)
    assert run.exploitability[-1] < 0.02 < run.exploitability[9]
    # The measured average regret vanishes like 1/sqrt(T) or faster.
    for i in (0, 1):
        assert run.regret[i][-1] < 2.0 / np.sqrt(5000)


def test_the_current_strategy_of_rm_cycles_but_the_average_settles():
    run = run_regret_matching(games.rps(), 3000, initial=START)
    assert np.ptp(run.current[0][-1000:], axis=0).min() > 0.9   # swings between nearly pure actions
    assert np.ptp(run.average[0][-1000:], axis=0).max() < 0.05


def test_against_a_biased_opponent_learns_the_best_response():
    run = run_regret_matching(games.rps(), 2000, opponent={"rock": 0.5, "paper": 0.25, "scissors": 0.25})
    assert np.all(run.current[1] == [0.5, 0.25, 0.25])
    assert run.average_strategy(0)["paper"] > 0.99
    assert 0 < run.regret[0][-1] < 0.01


def test_rm_plus_keeps_clipped_regrets_and_linear_averaging_weights_t():
    run = run_regret_matching(games.rps(), 40, plus=True, averaging="linear", initial=START)
    assert min(r.min() for r in run.cumulative_regret) == 0.0
    weights = np.arange(1, 41)[:, None]
    assert np.allclose(run.average[1], np.cumsum(weights * run.current[1], axis=0) / np.cumsum(weights, axis=0))


@pytest.mark.parametrize("plus", [False, True])
def test_textbook_agrees(plus):
    rng = np.random.default_rng(7)
    game = games.matrix_game(rng.normal(size=(3, 4)))
    run = run_regret_matching(game, 200, plus=plus)
    textbook = self_play(game, 200, plus=plus)
    for i in (0, 1):
        assert np.allclose([textbook[i][a] for a in game.actions[i]], run.average[i][-1], rtol=0, atol=1e-12)


def test_simultaneous_cfr_on_the_matrix_game_is_regret_matching():
    """A matrix game is an extensive-form game with one infoset a player: CFR there is RM."""
    rng = np.random.default_rng(3)
    game = games.matrix_game(rng.normal(size=(4, 3)))
    run = run_regret_matching(game, 60)
    cfr = CFR(game, alternating=False).iterate(60)
    plus = run_regret_matching(game, 60, plus=True, averaging="linear")
    cfr_plus = CFRPlus(game, alternating=False).iterate(60)
    for i, key in ((0, "P0"), (1, "P1")):
        n = len(game.actions[i])
        assert np.allclose(list(cfr.average_strategy().player(i)[key].values())[:n], run.average[i][-1], atol=1e-12)
        assert np.allclose(list(cfr_plus.average_strategy().player(i)[key].values())[:n], plus.average[i][-1],
                           atol=1e-12)


def test_textbook_regret_matching():
    assert match({"a": 2.0, "b": -1.0, "c": 6.0}) == {"a": 0.25, "b": 0.0, "c": 0.75}
    assert match({"a": -2.0, "b": 0.0}) == {"a": 0.5, "b": 0.5}


def test_the_numpy_form_on_rows_and_tables():
    """``matched_strategy`` along the last axis: a row is the dictionary form's numbers; a table
    is row by row, uniform over the legal actions of ``mask`` where no regret is positive, and
    ``RegretMatching.strategy`` is it, after its predictive shift."""
    assert matched_strategy(np.array([2.0, -1.0, 6.0])).tolist() == [0.25, 0.0, 0.75]
    assert matched_strategy(np.array([-2.0, 0.0])).tolist() == [0.5, 0.5]
    R = np.array([[2.0, -1.0, 6.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    mask = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
    assert matched_strategy(R, mask).tolist() == [[0.25, 0.0, 0.75], [0.5, 0.5, 0.0], [1 / 3] * 3]
    assert matched_strategy(R).tolist()[1] == [1 / 3] * 3           # every action legal by default
    rng = np.random.default_rng(3)
    for _ in range(20):
        row = rng.normal(size=int(rng.integers(1, 12)))
        expected = list(match(dict(enumerate(row.tolist()))).values())
        np.testing.assert_allclose(matched_strategy(row), expected, rtol=1e-15, atol=0)
    r = rng.normal(size=R.shape)
    assert np.array_equal(RegretMatching().strategy(R, r, 1, mask), matched_strategy(R, mask))
    assert np.array_equal(RegretMatching(predictive=True).strategy(R, r, 1, mask),
                          matched_strategy(R + r, mask))


def _numpy_matched_strategy(R, mask=None):
    """Regret matching in five numpy calls: what ``matched_strategy`` computes in compiled code."""
    positive = np.maximum(R, 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    none = total <= 0.0
    legal = np.ones(positive.shape) if mask is None else np.broadcast_to(mask, positive.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(none, legal, positive) / np.where(none, legal.sum(axis=-1, keepdims=True), total)


@pytest.mark.parametrize("width", [1, 2, 3, 7, 8, 9, 13, 16, 17, 25, 127, 128, 129, 136, 300, 1031])
def test_the_compiled_rows_give_numpys_numbers_bit_for_bit(width):
    """Row sums in numpy's order (left to right below eight actions, pairwise from eight, in halves
    above 128), ``-0.0`` regrets read as 0, NaN kept, 0 / 0 where nothing is legal; on tables,
    single rows and a 3-d stack, with the legal actions as floats, booleans, one row for all, or
    none."""
    rng = np.random.default_rng(width)
    R = rng.standard_normal((40, width)) * 10.0 ** rng.integers(-12, 12, (40, width))
    R[rng.random(R.shape) < 0.3] = -0.0
    R[rng.random(40) < 0.2] = -1.0                       # rows without a positive regret
    R[0, 0] = np.nan
    mask = rng.random(R.shape) < 0.8
    mask[:, 0] = True
    mask[5], R[5] = False, -1.0                          # nothing legal, nothing positive: 0 / 0
    for m in (None, mask.astype(float), mask, mask[1]):
        expected = _numpy_matched_strategy(R, m)
        got = matched_strategy(R, m)
        assert np.array_equal(got, expected, equal_nan=True)
        assert np.array_equal(np.signbit(got), np.signbit(expected))
    assert np.array_equal(matched_strategy(R[3]), _numpy_matched_strategy(R[3]))
    stack = R[1:].reshape(3, 13, width)
    assert np.array_equal(matched_strategy(stack), _numpy_matched_strategy(stack))
    assert np.isnan(matched_strategy(R)[0]).all() and not np.isnan(matched_strategy(R)[1:]).any()
    assert np.isnan(matched_strategy(R, mask)[5]).all()


def test_the_numpy_form_needs_an_axis_of_actions():
    with pytest.raises(StrategyError, match="needs regrets along an axis of actions, got a number"):
        matched_strategy(np.float64(1.0))
    assert matched_strategy(np.zeros((0, 3))).shape == (0, 3)


@pytest.mark.parametrize("opponent, message", [
    ([0.5, 0.4], "expected 3 probabilities"),
    ([0.5, 0.4, 0.2], "sum to 1.1, not 1"),
    ([1.2, -0.2, 0.0], "finite and non-negative"),
    ([np.nan, 0.5, 0.5], "finite and non-negative"),
    ({"rock": 0.5, "lizard": 0.5}, "unknown action"),
    ("rock", "not a list of probabilities")])
def test_bad_opponent_mixes(opponent, message):
    with pytest.raises(StrategyError, match=message):
        run_regret_matching(games.rps(), 10, opponent=opponent)


def test_bad_arguments():
    with pytest.raises(SolverError, match="non-negative integer"):
        run_regret_matching(games.rps(), -1)
    with pytest.raises(SolverError, match="non-negative integer"):
        run_regret_matching(games.rps(), 2.5)
    with pytest.raises(StrategyError, match="conflicts with opponent"):
        run_regret_matching(games.rps(), 5, opponent=[1, 0, 0], initial=(None, [0, 1, 0]))
    with pytest.raises(StrategyError, match=r"initial\[0\]"):
        run_regret_matching(games.rps(), 5, initial=([1, 1, 0], None))
    with pytest.raises(SolverError, match="averaging must be 'uniform' or 'linear', got 'quadratic'"):
        run_regret_matching(games.rps(), 5, averaging="quadratic")


def test_a_payoff_matrix_is_accepted_and_zero_iterations_give_empty_histories():
    run = run_regret_matching([[1.0, -1.0], [-1.0, 1.0]], 0)
    assert run.iterations == 0 and run.current[0].shape == (0, 2)
