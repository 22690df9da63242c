"""The O(n + m) fold and showdown kernels against the O(n m) double sums and a case by hand."""

import numpy as np
import pytest

from cfrlib.errors import SpotError
from cfrlib.holdem.showdown import (
    fold_values,
    fold_values_naive,
    prepare_fold,
    prepare_showdown,
    showdown_values,
    showdown_values_naive,
)


def all_pairs(deck_size):
    """Every two-card hand ``(c1, c2)``, ``c1 < c2``, of a deck."""
    first, second = np.triu_indices(deck_size, k=1)
    return np.stack([first, second], axis=1).astype(np.int64)


def both_ways(my_cards, my_strength, opp_cards, opp_strength, opp_reach, payoff, deck_size):
    """(fast, naive) fold values and (fast, naive) showdown values."""
    n = my_cards.shape[0]
    fold, fold_naive, show, show_naive = (np.full(n, np.nan) for _ in range(4))
    fold_values(prepare_fold(my_cards, opp_cards, deck_size), opp_reach, payoff, fold)
    fold_values_naive(my_cards, opp_cards, opp_reach, payoff, fold_naive)
    prepared = prepare_showdown(my_cards, my_strength, opp_cards, opp_strength, deck_size)
    showdown_values(prepared, opp_reach, payoff, show)
    showdown_values_naive(my_cards, my_strength, opp_cards, opp_strength, opp_reach, payoff, show_naive)
    return fold, fold_naive, show, show_naive


def assert_close(fast, naive):
    """Equal to 1e-9 of the largest value (a sum of ~1e3 terms of size ~1 keeps ~1e-13)."""
    scale = max(1.0, float(np.abs(naive).max()))
    np.testing.assert_allclose(fast, naive, rtol=0, atol=1e-9 * scale)


def test_three_hands_by_hand():
    """Cards 0..5; my hands (0,1) strength 3 and (2,3) strength 1; the opponent's (1,2) strength 2
    reach 0.5, (3,4) strength 3 reach 0.25, (4,5) strength 1 reach 2.
    (0,1): collides with (1,2); ties (3,4); beats (4,5): fold 0.25 + 2, showdown +2.
    (2,3): collides with (1,2) and (3,4); ties (4,5): fold 2, showdown 0."""
    my = np.array([[0, 1], [2, 3]], dtype=np.int64)
    opp = np.array([[1, 2], [3, 4], [4, 5]], dtype=np.int64)
    reach = np.array([0.5, 0.25, 2.0])
    fold, fold_naive, show, show_naive = both_ways(
        my, np.array([3, 1]), opp, np.array([2, 3, 1]), reach, 10.0, 6
    )
    np.testing.assert_array_equal(fold, [22.5, 20.0])
    np.testing.assert_array_equal(show, [20.0, 0.0])
    np.testing.assert_array_equal(fold_naive, fold)
    np.testing.assert_array_equal(show_naive, show)


def test_twin_removed_once():
    """My (0,1) against the opponent's (0,1) (the twin, in both card sums), (0,2) and (3,4):
    only (3,4) can be dealt beside it, whichever side of it the twin's strength falls."""
    my = np.array([[0, 1]], dtype=np.int64)
    opp = np.array([[0, 1], [0, 2], [3, 4]], dtype=np.int64)
    reach = np.array([1.0, 2.0, 4.0])
    for twin_strength in (0, 5, 9):
        fold, _, show, _ = both_ways(
            my, np.array([5]), opp, np.array([twin_strength, 9, 0]), reach, 1.0, 5
        )
        assert fold[0] == 4.0 and show[0] == 4.0


@pytest.mark.parametrize("seed", range(6))
def test_random_hold_em_ranges(seed):
    """Random boards, ranges with zero weights and board-blocked hands, coarse strengths (many
    ties), each player's own list of hands."""
    rng = np.random.default_rng(seed)
    hands = all_pairs(52)
    board = rng.choice(52, size=5, replace=False)
    for _ in range(3):
        mine = hands[rng.random(len(hands)) < rng.uniform(0.2, 1.0)]
        theirs = hands[rng.random(len(hands)) < rng.uniform(0.2, 1.0)]
        reach = rng.random(len(theirs)) * (rng.random(len(theirs)) < 0.8)
        reach[np.isin(theirs, board).any(axis=1)] = 0.0  # hands the board blocks
        levels = int(rng.integers(2, 400))
        my_strength = rng.integers(0, levels, size=len(mine))
        their_strength = rng.integers(0, levels, size=len(theirs))
        payoff = float(rng.uniform(-300, 300))
        fold, fold_naive, show, show_naive = both_ways(
            mine, my_strength, theirs, their_strength, reach, payoff, 52
        )
        assert_close(fold, fold_naive)
        assert_close(show, show_naive)


@pytest.mark.parametrize("deck_size", [3, 6, 10])
def test_one_card_toy_decks(deck_size):
    """Kuhn-like and Leduc-like decks of one-card hands, every card in both lists; Leduc's pairs
    of equal rank tie (strength = card // 2)."""
    rng = np.random.default_rng(deck_size)
    cards = np.arange(deck_size, dtype=np.int64)[:, None]
    for strength in (cards[:, 0], cards[:, 0] // 2):
        reach = rng.random(deck_size)
        fold, fold_naive, show, show_naive = both_ways(
            cards, strength, cards, strength, reach, -1.5, deck_size
        )
        assert_close(fold, fold_naive)
        assert_close(show, show_naive)


def test_small_deck_two_card_hands_all_ties():
    """Every hand of an 8-card deck against every other, all of one strength: showdowns are 0."""
    hands = all_pairs(8)
    reach = np.random.default_rng(1).random(len(hands))
    strength = np.zeros(len(hands), dtype=np.int64)
    fold, fold_naive, show, show_naive = both_ways(hands, strength, hands, strength, reach, 2.0, 8)
    assert_close(fold, fold_naive)
    np.testing.assert_array_equal(show, 0.0)
    np.testing.assert_array_equal(show_naive, 0.0)


def test_more_hands_than_the_int16_tables_hold_are_refused():
    """The showdown tables are int16: lists of hands whose card entries pass 32,767 slots (far
    beyond hold'em's 1,326 hands) get a SpotError, not wrapped indices."""
    hands = np.array([[i % 52, (i + 1) % 52] for i in range(20_000)], dtype=np.int64)
    strength = np.zeros(len(hands), dtype=np.int64)
    with pytest.raises(SpotError, match="int16"):
        prepare_showdown(hands, strength, hands, strength, 52)
