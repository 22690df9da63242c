"""Purification and thresholding (cfrlib.purification): the rules, exact exploitabilities on Kuhn
and Leduc computed two ways, and chapter 4's exercise computed by hand."""

from __future__ import annotations

import re

import notebook_cache
import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.errors import StrategyError
from cfrlib.purification import purify, threshold
from cfrlib.textbook import evaluation as textbook

from notebook_code import CHAPTERS


@pytest.fixture(scope="module", params=["kuhn", pytest.param("leduc", marks=pytest.mark.slow)])
def solved(request):
    game = getattr(games, request.param)()
    return game, cfrlib.CFR(game).iterate(300).average_strategy()


def test_rows_are_distributions_and_purify_is_pure(solved):
    game, average = solved
    mask = game.tree().action_mask
    for cleaned in (purify(average), threshold(average, 0.1), threshold(average, 0.9)):
        np.testing.assert_allclose(cleaned.probs.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        assert np.all(cleaned.probs[~mask] == 0.0) and np.all(cleaned.probs >= 0.0)
    pure = purify(average).probs
    top = np.where(mask, average.probs, -1).max(axis=1, keepdims=True)
    tied = mask & (average.probs >= top - 1e-12)
    np.testing.assert_array_equal(pure, tied / tied.sum(axis=1, keepdims=True))
    unique = tied.sum(axis=1) == 1  # pure wherever the maximum is unique (Leduc's unreached
    assert unique.mean() > 0.5      # infosets keep the uniform average: ties everywhere)
    assert set(np.unique(pure[unique])) == {0.0, 1.0}


def test_identities(solved):
    game, average = solved
    assert threshold(average, 0.0) == average
    assert threshold(average, 0) == average
    pure = purify(average)
    assert purify(pure) == pure
    assert threshold(pure, 0.5) == pure
    # a tau above every probability but the largest purifies
    assert threshold(average, 1.0 - 1e-9) == pure
    # thresholding only removes: every kept probability grows by the row's normalising factor
    cleaned = threshold(average, 0.2).probs
    kept = cleaned > 0
    ratio = np.where(kept, cleaned / np.where(kept, average.probs, 1.0), np.nan)
    assert np.allclose(np.nanmax(ratio, axis=1), np.nanmin(ratio, axis=1), rtol=1e-12)


def test_exploitability_two_ways(solved):
    """The exact evaluation on the compiled tree and the recursive textbook one agree."""
    game, average = solved
    for cleaned in (average, purify(average), threshold(average, 0.05), threshold(average, 0.15)):
        fast = cfrlib.exploitability(game, cleaned)
        slow = textbook.nash_conv(game, cleaned) / 2.0
        assert fast == pytest.approx(slow, abs=1e-12)
        assert fast >= -1e-12


def test_ties_share_the_probability():
    kuhn = games.kuhn()
    uniform = cfrlib.uniform_strategy(kuhn)
    assert purify(uniform) == uniform
    assert threshold(uniform, 0.6) == uniform
    eq = kuhn.equilibrium(1 / 6)  # K bets with 3 omega = 1/2: a tie
    assert purify(eq)[(0, "K")] == {"pass": 0.5, "bet": 0.5}


def test_purified_kuhn_equilibrium_by_hand():
    """Purifying Kuhn's alpha = 0 equilibrium gives: player 0 always checks and calls only with K;
    player 1 bets (after a check) and calls only with K. Best responses, card by card (each card
    1/3, the opponent's card 1/2 each of the other two):

    * player 0 against it: with J, bet (Q folds +1, K calls -2: -1/2) beats check (-1); with Q,
      check (J checks +1, K bets and Q folds -1: 0) beats bet (-1/2); with K, +1 either way.
      u_0 = (-1/2 + 0 + 1) / 3 = 1/6;
    * player 1 against it (player 0 always checks): the same three numbers, u_1 = 1/6.

    The profile's value is 0, so NashConv = 1/6 + 1/6 = 1/3 and the exploitability is 1/6.
    """
    kuhn = games.kuhn()
    pure = purify(kuhn.equilibrium(0.0))
    assert cfrlib.expected_value(kuhn, pure) == pytest.approx(0.0, abs=1e-15)
    assert cfrlib.best_response_value(kuhn, pure, 0) == pytest.approx(1 / 6, abs=1e-15)
    assert cfrlib.best_response_value(kuhn, pure, 1) == pytest.approx(1 / 6, abs=1e-15)
    assert cfrlib.exploitability(kuhn, pure) == pytest.approx(1 / 6, abs=1e-15)
    assert textbook.nash_conv(kuhn, pure) / 2 == pytest.approx(1 / 6, abs=1e-15)


def test_chapter_4_exercise_states_the_answer():
    """The folded solution of chapter 4's purification exercise gives 1/6 (checked above)."""
    cells = notebook_cache.read(CHAPTERS / "04_vanilla_cfr.ipynb").cells
    solution = next(c.source for c in cells if c.cell_type == "markdown"
                    and re.search(r"\{solution\}\s+ch4-purify\b", c.source))
    assert re.search(r"exploitability[^.]*\\frac\{1\}\{6\}", solution)


@pytest.mark.parametrize("tau", [-0.1, 1.0, 1.5, float("nan"), "0.1", True, None])
def test_bad_tau(tau):
    kuhn = games.kuhn()
    with pytest.raises(StrategyError, match="tau"):
        threshold(cfrlib.uniform_strategy(kuhn), tau)


@pytest.mark.parametrize("function", [purify, lambda s: threshold(s, 0.1)])
def test_bad_strategy(function):
    kuhn = games.kuhn()
    with pytest.raises(StrategyError, match="strategy must be a cfrlib.Strategy"):
        function(cfrlib.uniform_strategy(kuhn).player(0))
