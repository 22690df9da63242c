"""The public tree reproduces postflop-solver's action rules on its own example."""

from cfrlib.holdem.spot import TreeConfig
from cfrlib.holdem.tree import CHANCE, FOLD, PLAYER, SHOWDOWN, PublicTree


def basic_turn_config():
    """postflop-solver's examples/basic.rs: turn Td9d6h Qc, pot 200, stacks 900, bets
    "60%, e, a" and raises "2.5x" on every street, river donk 50%, thresholds 1.5, 0.15, 0.1."""
    sizes = ("60%, e, a", "2.5x")
    return TreeConfig("turn", 200, 900, {"flop": sizes, "turn": sizes, "river": sizes}, river_donk="50%",
                      add_allin_threshold=1.5, force_allin_threshold=0.15, merging_threshold=0.1)


def test_root_and_facing_a_bet_have_basic_rs_actions():
    # examples/basic.rs asserts these two lists from running postflop-solver
    tree = PublicTree(basic_turn_config())
    assert repr(tree.root.actions) == "[Check, Bet(120), Bet(216), AllIn(900)]"
    assert repr(tree.root.child("Bet(120)").actions) == "[Fold, Call, Raise(300)]"


def test_the_river_after_a_call_and_the_donk_bet():
    tree = PublicTree(basic_turn_config())
    chance = tree.root.child("Bet(120)").child("Call")
    assert chance.kind == CHANCE and chance.amount == 120
    # OOP bet and was called: no donk; the pot is 440, 60% is 264, the geometric size is the stack
    assert repr(chance.children[0].actions) == "[Check, Bet(264), AllIn(780)]"
    donk = tree.root.child("Check").child("Bet(120)").child("Call").children[0]
    # IP bet, OOP called: the 50% donk only (all-in, 780, is more than 1.5 pots of 440)
    assert repr(donk.actions) == "[Check, Bet(220)]"


def test_terminals_and_amounts_add_up():
    tree = PublicTree(basic_turn_config())
    fold = tree.root.child("AllIn(900)").child("Fold")
    assert (fold.kind, fold.player, fold.amount) == (FOLD, 1, 0)
    called = tree.root.child("AllIn(900)").child("Call")
    assert called.kind == CHANCE and called.children[0].kind == SHOWDOWN and called.children[0].amount == 900
    for node in tree.nodes():
        assert node.amount <= 900
        if node.kind == PLAYER:
            assert len(node.actions) == len(node.children) >= 2
