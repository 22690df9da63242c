"""Range notation: combos of known ranges, the board's removal, round trips and errors."""

import numpy as np
import pytest

from cfrlib.errors import CardError
from cfrlib.holdem.cards import NUM_HANDS, hand_str, parse_hand
from cfrlib.holdem.ranges import Range

# postflop-solver's examples/basic.rs (its IP range; that example asserts 250 IP hands on Td9d6h Qc)
IP_RANGE = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"
OOP_RANGE = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"


@pytest.mark.parametrize("text, combos", [
    ("QQ-22", 66), ("22-QQ", 66), ("AKs", 4), ("AKo", 12), ("AK", 16), ("ATo+", 48), ("22+", 78),
    ("A2s+", 48), ("K9s+", 16), ("AQs-A2s", 44), ("T9s-54s", 24), ("AsKs", 1), ("KsAs", 1),
    ("AKo:0.5", 6), ("QQ-22,AQs-A2s,ATo+,K9s+,KQo", 66 + 44 + 48 + 16 + 12),
    ("AA, KK : 0.25 ,\n AsKs", 6 + 1.5 + 1), ("AA,AsAh:0", 5), ("", 0),
])
def test_combos(text, combos):
    assert Range.parse(text).combos == combos


def test_later_tokens_override():
    r = Range.parse("AA-22:0.5,KK,AcAd:0")
    assert r.weights[parse_hand("KsKh")] == 1.0 and r.weights[parse_hand("2s2h")] == 0.5
    assert r.weights[parse_hand("AcAd")] == 0.0 and r.weights[parse_hand("AsAd")] == 0.5


def test_the_board_removes_hands():
    ip = Range.parse(IP_RANGE).without("Td9d6hQc")
    assert len(ip.hands) == 250
    assert ip.weights[parse_hand("QcQd")] == 0 and ip.weights[parse_hand("QsQh")] == 1
    assert Range.parse("AsKs,QQ").without("KsQd2c").combos == 3  # 6 - 3 pairs holding the Qd


@pytest.mark.parametrize("text", [
    IP_RANGE, OOP_RANGE, "AKo:0.5", "AA:0.25,AsAh,KK-99:0.3333333333333333", "AhKd,72o:0.1,JTs-54s",
    "22", "AA-KK", "AKs+", "AQo-A2o,K2o+", "",
])
def test_round_trip(text):
    r = Range.parse(text)
    assert Range.parse(str(r)) == r
    assert str(Range.parse(str(r))) == str(r)


def test_canonical_form():
    assert str(Range.parse("  A2s +\n")) == "A2s+"
    assert str(Range.parse("AKs,AQs,AJs,KK,AA,QQ,55,44,A5s")) == "QQ+,55-44,AJs+,A5s"
    assert str(Range.parse(OOP_RANGE)) == OOP_RANGE
    assert str(Range.parse(IP_RANGE)) == IP_RANGE
    assert str(Range.parse("AA,AcAd:0")) == "AsAh,AsAd,AhAd,AsAc,AhAc"


def test_random_weights_round_trip():
    rng = np.random.default_rng(3)
    weights = rng.random(NUM_HANDS) * (rng.random(NUM_HANDS) < 0.3)
    r = Range(weights)
    assert Range.parse(str(r)) == r


@pytest.mark.parametrize("text, message", [
    ("AKx", "'AKx'"), ("QQ-22,A1s", "'A1s'"), ("AKs:2", "'AKs:2'.*between 0 and 1"),
    ("AKo:half", "'half' is not a number"), ("AAs", "pair cannot be suited"),
    ("AQs-K2s", "share the upper rank"), ("QQ-AKs", "both ends"), ("AA,,KK", "empty token"),
    ("AsAs", "given twice"), ("AsKx", "'AsKx'"),
])
def test_bad_tokens_are_named(text, message):
    with pytest.raises(CardError, match=message):
        Range.parse(text)


def test_bad_weights():
    with pytest.raises(CardError, match="shape"):
        Range(np.ones(10))
    weights = np.zeros(NUM_HANDS)
    weights[parse_hand("AsKs")] = 1.5
    with pytest.raises(CardError, match="AsKs has weight 1.5"):
        Range(weights)
    assert hand_str(parse_hand("AsKs")) == "AsKs"
