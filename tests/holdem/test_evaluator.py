"""The evaluator against counts that do not depend on it: every five-card hand of the deck, the
best of 21 subsets of seven cards, and hands whose order every player knows.

The nine category counts and the 7,462 distinct ranks are derived below by counting, independently
of the evaluator (the standard figures; see e.g. W. Feller, *An Introduction to Probability Theory
and Its Applications*, vol. 1, 3rd ed., Wiley 1968, ch. II, on poker hands, and B. Alspach,
"5-Card Poker Hands", 2000, for the classes)."""

from itertools import combinations
from math import comb

import numpy as np
import pytest
from numba import njit

from cfrlib.holdem.cards import HANDS, parse_board, parse_cards
from cfrlib.holdem.evaluator import (
    CATEGORIES,
    category,
    evaluate,
    river_boards,
    river_strengths,
    strengths,
)

# (hands, distinct ranks) of each category, high card first, counted by hand.
NO_STRAIGHT_RANK_SETS = comb(13, 5) - 10  # five different ranks not in a row
COUNTS = {
    "high card": (NO_STRAIGHT_RANK_SETS * (4**5 - 4), NO_STRAIGHT_RANK_SETS),
    "one pair": (13 * comb(4, 2) * comb(12, 3) * 4**3, 13 * comb(12, 3)),
    "two pair": (comb(13, 2) * comb(4, 2) ** 2 * 11 * 4, comb(13, 2) * 11),
    "three of a kind": (13 * comb(4, 3) * comb(12, 2) * 4**2, 13 * comb(12, 2)),
    "straight": (10 * (4**5 - 4), 10),
    "flush": (4 * NO_STRAIGHT_RANK_SETS, NO_STRAIGHT_RANK_SETS),
    "full house": (13 * comb(4, 3) * 12 * comb(4, 2), 13 * 12),
    "four of a kind": (13 * 48, 13 * 12),
    "straight flush": (10 * 4, 10),
}


@njit  # not cached: a cached caller would keep a stale copy of an edited evaluate
def every_five_card_hand():
    """The strength of each of the C(52, 5) five-card hands."""
    out = np.empty(2598960, dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    i = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, e
                        out[i] = evaluate(cards)
                        i += 1
    return out


def test_counts_by_hand_are_the_known_ones():
    assert [COUNTS[name][0] for name in CATEGORIES] == [
        1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
    assert sum(n for n, _ in COUNTS.values()) == comb(52, 5)
    assert sum(r for _, r in COUNTS.values()) == 7462


@pytest.mark.slow  # compiles its own kernel: make test only
def test_every_five_card_hand():
    values = every_five_card_hand()
    categories = values >> 20
    distinct = np.unique(values)
    for index, name in enumerate(CATEGORIES):
        hands, ranks = COUNTS[name]
        assert (categories == index).sum() == hands, name
        assert ((distinct >> 20) == index).sum() == ranks, name
    assert len(distinct) == 7462


@pytest.mark.slow  # the 21 five-card hands of 300 deals: make test only
def test_seven_cards_are_the_best_five():
    rng = np.random.default_rng(7)
    for _ in range(300):
        cards = rng.choice(52, size=7, replace=False).astype(np.int64)
        best = max(evaluate(np.array(five, dtype=np.int64)) for five in combinations(cards, 5))
        assert evaluate(cards) == best


def value(text):
    return evaluate(np.array(parse_cards(text), dtype=np.int64))


def test_hands_players_know():
    assert category(value("Ah2c3d4s5h")) == "straight" == category(value("Ac2c3d4s5hKhQh"))
    assert value("Ah2c3d4s5h") < value("2c3d4s5h6h") < value("TcJdQsKhAh")  # the wheel is lowest
    assert category(value("As2s3s4s5s")) == "straight flush"  # the steel wheel
    assert value("As2s3s4s5s") < value("2s3s4s5s6s") < value("TsJsQsKsAs")
    assert value("As2s3s4s5s") > value("AcAdAhAsKc")  # beats four aces
    assert category(value("As2s3s4s5s6s9d")) == "straight flush" and value(
        "As2s3s4s5s6s9d") == value("2s3s4s5s6s")  # the six-high, not the wheel
    assert value("AcAdKhQs9c") > value("AcAdKhQs8c")  # the third kicker decides
    assert value("AcAdKhQs9c2d3h") == value("AsAhKcQd9s")  # the two small cards do not play
    assert value("KcKdQhQs2c2d9h") == value("KhKsQcQd9c")  # the third pair is no kicker over 9
    assert value("KcKdQhQs2c2dAh") > value("KhKsQcQd9c")
    assert value("7c7d7h5s5c5dAh") == value("7s7h7c5h5s")  # two trips: a full house, A unplayed
    assert value("7c7d7h7s5c5dAh") == value("7c7d7h7sAd")  # quads take the best kicker
    assert category(value("2h5h9hJhKh3c4d")) == "flush" and value("2h5h9hJhKh3c4d") < value(
        "3h5h9hJhKh")
    assert value("AhKhQhJh9h8h7h") == value("AhKhQhJh9h")  # the five best of seven hearts


def test_strengths_of_a_board_and_its_rivers():
    board = "Td9d6hQc"
    rivers, table = river_strengths(board, HANDS)
    assert rivers.shape == (48, 5) and table.shape == (48, 1326)
    for i in (0, 17, 47):
        np.testing.assert_array_equal(table[i], strengths(rivers[i], HANDS))
    blocked = np.isin(HANDS, rivers[17]).any(axis=1)
    assert (table[17][blocked] == 0).all() and (table[17][~blocked] > 0).all()
    hand = 1000
    cards = np.concatenate([rivers[17], HANDS[hand]])
    assert table[17, hand] == evaluate(cards.astype(np.int64)) or blocked[hand]
    assert river_boards("Td9d6h").shape == (comb(49, 2), 5)
    np.testing.assert_array_equal(river_boards("Td9d6hQc2s"), [parse_board("Td9d6hQc2s")])
