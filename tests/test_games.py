"""The games follow their rules and have the reference sizes.

Node, terminal and infoset counts are those of OpenSpiel 2.0.2's kuhn_poker, leduc_poker (and
its suit-isomorphic variant) and liars_dice(numdice=1, dice_sides=4 or 6) game trees, which deal
chance the same way (one private card or die at a time); infoset counts do not depend on that
layout. Leduc's rules: Southey et al. (2005), "Bayes' bluff".
"""

import math

import pytest

import cfrlib
from cfrlib import games
from cfrlib.game import CHANCE, TERMINAL


def play(game, *actions):
    """Follow ``actions`` (chance outcomes included) from the root."""
    state = game.initial_state()
    for a in actions:
        assert a in state.legal_actions(), (a, state.legal_actions())
        state = state.child(a)
    return state


@pytest.mark.parametrize("make, nodes, terminals, infosets", [
    (games.kuhn, 58, 30, 12),
    (games.leduc, 9_457, 5_520, 936),
    (lambda: games.leduc(suit_isomorphism=True), 1_939, 1_116, 288),
    (lambda: games.bluff(sides=4), 8_181, 4_080, 1_024),
    (games.bluff, 294_883, 147_420, 24_576),
])
def test_sizes_match_the_reference(make, nodes, terminals, infosets):
    tree = make().tree()
    assert (tree.num_nodes, tree.num_terminals, tree.num_infosets) == (nodes, terminals, infosets)


def test_kuhn_rules():
    kuhn = games.kuhn()
    root = kuhn.initial_state()
    assert root.is_chance() and root.chance_outcomes() == [("J", 1 / 3), ("Q", 1 / 3), ("K", 1 / 3)]
    assert play(kuhn, "K").chance_outcomes() == [("J", 0.5), ("Q", 0.5)]
    s = play(kuhn, "K", "J")
    assert s.current_player() == 0 and s.legal_actions() == ["pass", "bet"] and s.infoset_key() == "K"
    assert play(kuhn, "K", "J", "pass").infoset_key() == "Jp"
    assert play(kuhn, "K", "J", "pass", "bet").infoset_key() == "Kpb"
    cases = {
        ("K", "J", "pass", "pass"): 1, ("J", "K", "pass", "pass"): -1,
        ("J", "Q", "pass", "bet", "pass"): -1, ("K", "Q", "pass", "bet", "bet"): 2,
        ("Q", "J", "bet", "pass"): 1, ("J", "Q", "bet", "bet"): -2, ("Q", "K", "bet", "pass"): 1,
    }
    for path, u0 in cases.items():
        z = play(kuhn, *path)
        assert z.is_terminal() and z.returns() == (u0, -u0), path


def test_leduc_rules():
    leduc = games.leduc()
    assert play(leduc).chance_outcomes()[0] == ("Js", 1 / 6)
    s = play(leduc, "Js", "Kh")
    assert s.legal_actions() == ["call", "raise"] and s.infoset_key() == "Js|"
    assert play(leduc, "Js", "Kh", "raise").legal_actions() == ["fold", "call", "raise"]
    # at most two raises a round
    assert play(leduc, "Js", "Kh", "raise", "raise").legal_actions() == ["fold", "call"]
    # folding loses what one has put in: ante 1 + raise 2 (player 1 re-raised to 5)
    z = play(leduc, "Js", "Kh", "raise", "raise", "fold")
    assert z.returns() == (-3.0, 3.0)
    # after the round the board is dealt from the four remaining cards
    s = play(leduc, "Js", "Kh", "call", "call")
    assert s.is_chance() and [c for c, _ in s.chance_outcomes()] == ["Jh", "Qs", "Qh", "Ks"]
    s = play(leduc, "Js", "Kh", "raise", "call", "Jh")
    assert s.current_player() == 0 and s.infoset_key() == "Js|rc|Jh|"
    # a pair beats a higher card; round-2 raises are 4
    z = play(leduc, "Js", "Kh", "raise", "call", "Jh", "raise", "call")
    assert z.returns() == (7.0, -7.0)
    z = play(leduc, "Js", "Kh", "call", "call", "Qs", "call", "call")
    assert z.returns() == (-1.0, 1.0)
    z = play(leduc, "Js", "Jh", "call", "call", "Qs", "call", "raise", "call")
    assert z.returns() == (0.0, 0.0)


def test_leduc_variants_and_isomorphism():
    iso = games.leduc(suit_isomorphism=True)
    assert play(iso).chance_outcomes() == [("J", 1 / 3), ("Q", 1 / 3), ("K", 1 / 3)]
    assert play(iso, "J").chance_outcomes() == [("J", 0.2), ("Q", 0.4), ("K", 0.4)]
    assert [c for c, _ in play(iso, "J", "J", "call", "call").chance_outcomes()] == ["Q", "K"]
    big = games.leduc(ranks=6, max_raises=3, raise_sizes=(1, 3), ante=2)
    assert len(big.cards) == 12 and big.cards[0] == "8s"
    s = play(big, "8s", "Kh", "raise", "raise", "raise")
    assert s.legal_actions() == ["fold", "call"]
    assert play(big, "8s", "Kh", "raise", "fold").returns() == (2.0, -2.0)  # the ante is 2


@pytest.mark.parametrize("kwargs, message", [
    (dict(ranks=1), "ranks must be an integer from 2 to 13, got 1"),
    (dict(suits=0), "suits must be an integer from 1 to 4, got 0"),
    (dict(ranks=14), "ranks must be an integer from 2 to 13, got 14"),
    (dict(ranks=2, suits=1), "ranks=2 and suits=1 make a deck of 2 cards; it needs at least 3"),
    (dict(ante=0), "ante must be a positive number, got 0"),
    (dict(raise_sizes=(2,)), r"raise_sizes must be two positive numbers \(one per round\), got \(2,\)"),
    (dict(raise_sizes=3), "raise_sizes must be two positive numbers"),
    (dict(raise_sizes=(2, "4")), "raise_sizes must be two positive numbers"),
    (dict(max_raises=-1), "max_raises must be a non-negative integer or two .*, got -1$"),
    (dict(max_raises=2.0), "max_raises must be a non-negative integer or two .*, got 2.0$"),
])
def test_leduc_rejects_bad_options(kwargs, message):
    with pytest.raises(cfrlib.GameError, match="^leduc: " + message):
        games.leduc(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(dice=(1,)), r"dice must be two positive integers \(player 0's, player 1's\), got \(1,\)"),
    (dict(dice=2), "dice must be two positive integers"),
    (dict(dice=(1, 0)), r"dice must be .*, got \(1, 0\)"),
    (dict(sides=10), "sides must be an integer from 2 to 9, got 10"),
])
def test_bluff_rejects_bad_options(kwargs, message):
    with pytest.raises(cfrlib.GameError, match="^bluff: " + message):
        games.bluff(**kwargs)


def test_bluff_rules():
    bluff = games.bluff()
    s = play(bluff, "3", "6")
    assert s.infoset_key() == "3|" and s.legal_actions()[:3] == ["1-1", "1-2", "1-3"]
    assert "liar" not in s.legal_actions() and len(s.legal_actions()) == 12
    s = play(bluff, "3", "6", "1-5", "2-2")
    assert s.current_player() == 0 and s.infoset_key() == "3|1-5,2-2"
    assert s.legal_actions() == ["2-3", "2-4", "2-5", "2-6", "liar"]
    # 6 is wild: a 3 and a 6 make two 3s, so calling "2-3" a lie loses
    assert play(bluff, "3", "6", "2-3", "liar").returns() == (1.0, -1.0)
    # two 4s do not exist: the bidder loses
    assert play(bluff, "3", "6", "1-1", "2-4", "liar").returns() == (1.0, -1.0)
    # two 6s need two real sixes: player 0's bid fails with one, holds with two
    assert play(bluff, "6", "3", "2-6", "liar").returns() == (-1.0, 1.0)
    assert play(bluff, "6", "6", "2-6", "liar").returns() == (1.0, -1.0)


def test_bluff_with_more_dice_rolls_multisets():
    bluff = games.bluff(dice=(2, 1), sides=3)
    rolls = dict(bluff.initial_state().chance_outcomes())
    assert rolls == pytest.approx({"11": 1 / 9, "12": 2 / 9, "13": 2 / 9, "22": 1 / 9, "23": 2 / 9, "33": 1 / 9})
    s = play(bluff, "12", "3", "3-1", "liar")
    assert s.returns() == (-1.0, 1.0)  # a 1 and a wild 3 make two 1s, not three: the bidder loses
    assert math.isclose(sum(p for _, p in play(bluff, "12").chance_outcomes()), 1.0)


def test_rps_is_a_matrix_game_with_an_extensive_form():
    rps = games.rps()
    assert rps.payoffs.tolist() == [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    s = play(rps, "paper")
    assert s.current_player() == 1 and s.infoset_key() == "P1"  # player 1 does not see the row
    assert play(rps, "paper", "rock").returns() == (1.0, -1.0)
    with pytest.raises(cfrlib.GameError, match="2 row and 2 column names for a 2x3"):
        games.matrix_game([[1, 2, 3], [4, 5, 6]], ["a", "b"], ["x", "y"])


def test_state_api_predicates():
    z = play(games.kuhn(), "K", "J", "bet", "pass")
    assert z.current_player() == TERMINAL and z.is_terminal() and not z.is_chance()
    assert games.kuhn().initial_state().current_player() == CHANCE
    with pytest.raises(cfrlib.GameError, match=r"chance_outcomes: KuhnState\('KJ', ''\) is not a chance node"):
        play(games.kuhn(), "K", "J").chance_outcomes()
