"""No-limit Leduc (cfrlib.games.no_limit_leduc) and off-tree actions (cfrlib.off_tree).

The pseudo-harmonic mapping: Ganzfried and Sandholm (2013), "Action Translation in Extensive-Form
Games with Large Action Spaces: Axioms, Paradoxes, and the Pseudo-Harmonic Mapping",
f(x) = (B - x)(1 + A) / ((B - A)(1 + x)) for A <= x <= B (bets as fractions of the pot). Nested
safe solving after an off-tree action: Brown and Sandholm (2017), section 6; the reach-maxmargin
gadget never raises the opponent's counterfactual values, so the result is no more exploitable than
the strategy it starts from.
"""

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.errors import GameError, SubgameError
from cfrlib.games.no_limit_leduc import raise_action
from cfrlib.off_tree import nested_solving, pseudo_harmonic, translate, translated_strategy
from cfrlib.subgame import subgames_after


def play(game, *actions):
    state = game.initial_state()
    for a in actions:
        state = state.child(a)
    return state


def test_no_limit_leduc_rules():
    game = games.no_limit_leduc((0.5, 2))
    tree = game.tree()
    assert (tree.num_nodes, tree.num_terminals, tree.num_infosets) == (9_457, 5_520, 936)
    s = play(game, "Js", "Kh")
    assert s.legal_actions() == ["call", "raise 0.5", "raise 2"]
    assert play(game, "Js", "Kh", "raise 0.5").chips == (2.0, 1)  # match 1, add half the pot of 2
    s = play(game, "Js", "Kh", "raise 0.5", "call", "Qs")
    assert s.chips == (2.0, 2.0) and s.current_player() == 0
    s = play(game, "Js", "Kh", "raise 0.5", "call", "Qs", "call", "raise 2")
    assert s.chips == (2.0, 10.0) and s.legal_actions() == ["fold", "call"]  # one raise a round
    assert s.infoset_key() == "Js|r0.5 c|Qs|c r2"
    assert play(game, "Js", "Kh", "raise 0.5", "call", "Qs", "call", "raise 2", "fold").returns() == (-2.0, 2.0)
    assert play(game, "Js", "Kh", "call", "call", "Ks", "call", "call").returns() == (-1.0, 1.0)
    with pytest.raises(GameError, match="not legal"):
        play(game, "Js", "Kh", "raise 1")
    for bad in ((), (0.5, -1), (1, 1.0)):
        with pytest.raises(GameError, match="bet_sizes|repeat"):
            games.no_limit_leduc(bad)


def test_the_pseudo_harmonic_mapping():
    assert pseudo_harmonic(0.5, 0.5, 2) == 1.0 and pseudo_harmonic(2, 0.5, 2) == 0.0
    assert pseudo_harmonic(1.0, 0.5, 2) == pytest.approx(0.5)  # (2 - 1)(1.5) / ((1.5)(2))
    assert translate(1.0, (2, 0.5)) == [(0.5, pytest.approx(0.5)), (2, pytest.approx(0.5))]
    assert translate(3.0, (0.5, 2)) == [(2, 1.0)] and translate(0.25, (0.5, 2)) == [(0.5, 1.0)]
    with pytest.raises(GameError, match="pseudo_harmonic"):
        pseudo_harmonic(3, 0.5, 2)


@pytest.fixture(scope="module")
def blueprint():
    """The LP's equilibrium with half-pot and two-pot bets, on four cards of one suit (on two ranks of
    two suits translation costs nothing: the game is too plain)."""
    abstract = games.no_limit_leduc((0.5, 2), ranks=4, suits=1)
    return abstract, cfrlib.solve_lp(abstract).strategy


def test_translation_into_the_same_game_is_the_blueprint(blueprint):
    abstract, strategy = blueprint
    same = translated_strategy(games.no_limit_leduc((0.5, 2), ranks=4, suits=1), abstract, strategy)
    assert np.allclose(same.probs, strategy.probs, atol=1e-12)
    with pytest.raises(GameError, match="lacks the bet sizes"):
        translated_strategy(games.no_limit_leduc((0.5,), ranks=4, suits=1), abstract, strategy)


@pytest.mark.slow  # solves nested subgames: make test only
def test_translation_and_nested_solving_of_a_pot_sized_bet(blueprint):
    abstract, strategy = blueprint
    game = games.no_limit_leduc((0.5, 1, 2), ranks=4, suits=1)
    translated = translated_strategy(game, abstract, strategy)
    tree = game.tree()
    for I in range(tree.num_infosets):  # the blueprint never bets the size it does not know
        actions = tree.infoset_actions[I]
        if "raise 1" in actions:
            assert translated.probs[I, actions.index("raise 1")] == 0.0
    # after a pot-sized bet, the translation is a mixture of the answers to half-pot and two-pot bets
    key = "Ks|r1"
    answer = translated[key]
    f = pseudo_harmonic(1, 0.5, 2)
    for a in ("fold", "call"):
        assert answer[a] == pytest.approx(f * strategy["Ks|r0.5"][a] + (1 - f) * strategy["Ks|r2"][a])
    parts = subgames_after(game, [raise_action(1)])
    # the first round's two lines with the bet, and the second round's after an on-tree first round
    assert {part.label for part in parts if len(part.roots) == 12} == {"? ? raise 1", "? ? call raise 1"}
    assert all(part.label.endswith("raise 1") for part in parts)
    nested = nested_solving(game, translated, [1])
    e_translation, e_nested = cfrlib.exploitability(game, translated), cfrlib.exploitability(game, nested)
    assert e_translation > 0.01
    assert e_nested <= e_translation + 1e-9
    with pytest.raises(SubgameError, match="no history with an action"):
        subgames_after(abstract, [raise_action(1)])
