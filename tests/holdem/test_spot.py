"""Bet sizes as players write them, with postflop-solver's meaning (its src/bet_size.rs), and
the tree configuration's checks."""

import math

import pytest

from cfrlib.errors import CfrlibError, SpotError
from cfrlib.holdem.spot import BetSize, BetSizes, TreeConfig, parse_bet_size, parse_bet_sizes


@pytest.mark.parametrize("token, raise_, size", [
    ("0%", False, BetSize("pot", 0.0)),
    ("75%", False, BetSize("pot", 0.75)),
    ("112.5%", False, BetSize("pot", 1.125)),
    ("1.001x", True, BetSize("previous", 1.001)),
    ("3.5X", True, BetSize("previous", 3.5)),
    ("123C", False, BetSize("chips", 123.0)),
    ("0c1r", True, BetSize("chips", 0.0, cap=1)),
    ("100C100R", True, BetSize("chips", 100.0, cap=100)),
    ("e", False, BetSize("geometric", math.inf, 0)),
    ("2e", False, BetSize("geometric", math.inf, 2)),
    ("E37.5%", False, BetSize("geometric", 0.375, 0)),
    ("100e.5%", False, BetSize("geometric", 0.005, 100)),
    ("A", False, BetSize("allin")),
])
def test_each_form_of_size_parses_to_its_meaning(token, raise_, size):
    assert parse_bet_size(token, raise_) == size


@pytest.mark.parametrize("token", ["", "0", "1.23", "%", "+42%", "-30%", "x", "0x", "1x", "c", "12.3c", "10c10",
                                   "42cr", "c3r", "0c0r", "123c101r", "1c2r3", "12c3.4r", "0e", "2.7e", "101e",
                                   "3e7", "E%", "1e2e3", "bet", "1a", "a1"])
def test_a_bad_token_is_refused_naming_it(token):
    with pytest.raises(SpotError) as err:
        parse_bet_size(token, raise_=True)
    assert repr(token) in str(err.value)
    assert isinstance(err.value, CfrlibError)


def test_raise_only_forms_are_refused_for_bets():
    with pytest.raises(SpotError, match="'2.5x'"):
        parse_bet_sizes("60%, 2.5x")
    with pytest.raises(SpotError, match="'50c2r'"):
        parse_bet_sizes("50c2r")


def test_lists_allow_a_trailing_comma_but_no_empty_size():
    assert BetSizes.parse("50c, e, a,", "25%, 2.5x, e200%") == BetSizes(
        (BetSize("chips", 50.0), BetSize("geometric", math.inf, 0), BetSize("allin")),
        (BetSize("pot", 0.25), BetSize("previous", 2.5), BetSize("geometric", 2.0, 0)))
    assert parse_bet_sizes("") == ()
    with pytest.raises(SpotError, match="empty"):
        parse_bet_sizes(",")


def test_tree_config_checks_its_numbers_and_streets():
    config = TreeConfig("turn", 200, 900, {"turn": ("60%", "2.5x"), "river": [("50%", ""), "75%"]})
    assert config.first_street == 1
    assert config.bets["river"][1].bet == (BetSize("pot", 0.75),)
    assert config.bets["flop"][0] == BetSizes()
    for bad, match in [(dict(street="preflop"), "street"), (dict(starting_pot=0), "starting_pot"),
                       (dict(effective_stack=1.5), "effective_stack"), (dict(bets={"river ": "a"}), "unknown"),
                       (dict(merging_threshold=-0.1), "merging_threshold")]:
        kwargs = dict(street="river", starting_pot=10, effective_stack=10) | bad
        with pytest.raises(SpotError, match=match):
            TreeConfig(**kwargs)
