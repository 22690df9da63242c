"""The compiled tree: structure, sequence form, and validation with clear errors."""

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.evaluation import realization_plan
from cfrlib.game import CHANCE, TERMINAL
from cfrlib.games.explicit import ExplicitGame, Node
from toy_games import RandomGame, TupleGame

T = lambda u: ("terminal", u, -u)  # noqa: E731


@pytest.mark.parametrize("game", [games.kuhn(), games.leduc(), games.bluff(sides=4), RandomGame(3)],
                         ids=lambda g: g.name)
def test_level_order_and_links(game):
    tree = game.tree()
    assert np.all(np.diff(tree.depth) >= 0), "nodes come in level order"
    assert tree.parent[0] == -1 and np.all(tree.parent[1:] < np.arange(1, tree.num_nodes))
    inner = np.flatnonzero(tree.num_children > 0)
    # children are contiguous and point back to their parent with consecutive action indices
    for n in inner[:: max(1, len(inner) // 200)]:
        kids = np.arange(tree.first_child[n], tree.first_child[n] + tree.num_children[n])
        assert np.all(tree.parent[kids] == n) and np.all(tree.action[kids] == np.arange(len(kids)))
    # chance probabilities of each chance node sum to 1, and under any strategy the reach
    # probabilities pi(z) = pi_c(z) x_0[seq_0(z)] x_1[seq_1(z)] of the terminals sum to 1
    chance = np.flatnonzero(tree.player == CHANCE)
    sums = np.bincount(tree.parent[1:], weights=tree.chance_prob[1:], minlength=tree.num_nodes)
    assert np.allclose(sums[chance], 1.0)
    probs = cfrlib.uniform_strategy(game).probs
    x0, x1 = (realization_plan(tree, probs, p) for p in (0, 1))
    reach = tree.terminal_chance * x0[tree.terminal_seq[0]] * x1[tree.terminal_seq[1]]
    assert np.isclose(reach.sum(), 1.0)
    assert np.all(tree.player[tree.terminal_node] == TERMINAL)


def test_infosets_group_histories_with_the_same_key_and_actions():
    game = games.leduc()
    tree = game.tree()
    decision = np.flatnonzero(tree.infoset >= 0)
    assert np.all(tree.infoset_player[tree.infoset[decision]] == tree.player[decision])
    assert np.all(tree.infoset_num_actions[tree.infoset[decision]] == tree.num_children[decision])
    assert tree.infoset_keys[tree.infoset_index(0, "Ks|rc|Qh|")] == "Ks|rc|Qh|"
    assert tree.infoset_actions[tree.infoset_index(0, "Ks|rc|Qh|")] == ("call", "raise")
    assert tree.num_infosets_of(0) + tree.num_infosets_of(1) == 936
    assert tree.action_mask.sum() == tree.infoset_num_actions.sum()


def test_sequence_form_parents():
    tree = games.kuhn().tree()
    A = tree.max_actions
    kpb = tree.infoset_index(0, "Kpb")
    assert tree.infoset_parent_seq[kpb] == tree.infoset_index(0, "K") * A + 0  # after K, pass
    assert tree.infoset_parent_seq[tree.infoset_index(1, "Qb")] == tree.empty_sequence
    assert [len(level) for level in tree.infoset_levels(0)] == [3, 3]
    # each terminal's last sequence of player 0 lies on its path
    z = tree.terminal_node[0]
    path = []
    while z > 0:
        parent = tree.parent[z]
        if tree.player[parent] == 0:
            path.append(tree.infoset[parent] * A + tree.action[z])
        z = parent
    assert tree.terminal_seq[0, 0] == (path[0] if path else tree.empty_sequence)


@pytest.mark.parametrize("game", [games.kuhn(), games.leduc(), RandomGame(3)], ids=lambda g: g.name)
def test_node_sequences_are_each_players_last_move_on_the_path(game):
    """``Tree.node_sequences()[p, h]``: walking up from ``h``, the first move of ``p`` met, as
    ``I * max_actions + a``, or the empty sequence; at the terminals, ``terminal_seq``; cached,
    read-only. With ``realization_plan`` it gives each player's reach (``cfrlib.subgame``)."""
    tree = game.tree()
    seqs = tree.node_sequences()
    assert seqs is tree.node_sequences() and not seqs.flags.writeable
    for h in range(tree.num_nodes):
        last = [tree.empty_sequence, tree.empty_sequence]
        child = h
        while child > 0:
            up = tree.parent[child]
            p = tree.player[up]
            if p in (0, 1) and last[p] == tree.empty_sequence:
                last[p] = tree.infoset[up] * tree.max_actions + tree.action[child]
            child = up
        assert seqs[:, h].tolist() == last, h
    assert np.array_equal(seqs[:, tree.terminal_node], tree.terminal_seq)


def test_tree_is_cached_and_read_only():
    game = games.kuhn()
    assert game.tree() is game.tree()
    with pytest.raises(ValueError):
        game.tree().payoff[0] = 1.0


def test_bad_chance_probabilities():
    game = TupleGame(("chance", [("a", 0.5, T(1)), ("b", 0.4, ("player", 0, "I", [("x", T(0))]))]))
    with pytest.raises(cfrlib.ChanceProbabilityError, match=r"^the root: chance probabilities \[0.5, 0.4\] sum to 0.9, not 1"):
        game.tree()
    negative = TupleGame(("player", 0, "I", [("x", ("chance", [("a", 1.5, T(0)), ("b", -0.5, T(0))]))]))
    with pytest.raises(cfrlib.ChanceProbabilityError, match=r"^history 'x': chance probabilities \[1.5, -0.5\] must be finite and non-negative"):
        negative.tree()


def test_not_zero_sum():
    game = TupleGame(("player", 0, "I", [("x", T(1)), ("y", ("terminal", 1, 1))]))
    with pytest.raises(cfrlib.NotZeroSumError, match=r"^history 'y': terminal payoffs \(1, 1\) sum to 2, but toy is a constant-sum game with sum 0"):
        game.tree()
    assert TupleGame(("player", 0, "I", [("y", ("terminal", 3, -1))]), constant_sum=2).tree().num_nodes == 2


def test_infoset_disagreeing_on_actions():
    game = TupleGame(("chance", [("a", 0.5, ("player", 0, "I", [("x", T(1)), ("y", T(0))])),
                                 ("b", 0.5, ("player", 0, "I", [("x", T(1))]))]))
    with pytest.raises(cfrlib.InfosetMismatchError, match=r"^player 0's infoset 'I': history 'b' has \['x'\] but history 'a' has \['x', 'y'\]"):
        game.tree()


def test_infoset_disagreeing_on_player():
    game = TupleGame(("chance", [("a", 0.5, ("player", 0, "I", [("x", T(1))])),
                                 ("b", 0.5, ("player", 1, "I", [("x", T(1))]))]))
    with pytest.raises(cfrlib.InfosetMismatchError, match="infoset 'I': player 1 acts at history 'b' but player 0 acts at history 'a'"):
        game.tree()
    game.player_scoped_infosets = True  # names per player, as in game files
    assert game.tree().num_infosets == 2


def test_imperfect_recall():
    # player 0 chooses x or y, then forgets the choice at J
    forgetful = ("player", 0, "I", [("x", ("player", 0, "J", [("l", T(1)), ("r", T(0))])),
                                    ("y", ("player", 0, "J", [("l", T(0)), ("r", T(1))]))])
    with pytest.raises(cfrlib.ImperfectRecallError, match="player 0's infoset 'J': history 'y' and history 'x' follow different"):
        TupleGame(forgetful).tree()


def test_player_without_actions_and_bad_player():
    with pytest.raises(cfrlib.GameError, match="^the root: player 0 has no actions"):
        TupleGame(("player", 0, "I", [])).tree()
    with pytest.raises(cfrlib.GameError, match=r"^the root: current_player\(\) returned 5"):
        TupleGame(("player", 5, "I", [("x", T(0))])).tree()


def test_games_name_places_their_own_way():
    class Described(TupleGame):
        def describe(self, history):
            return f"move {len(history)} ({'/'.join(history) or 'start'})"

    game = Described(("player", 0, "I", [("x", ("chance", [("a", 0.7, T(0)), ("b", 0.7, T(0))]))]))
    with pytest.raises(cfrlib.ChanceProbabilityError, match=r"^move 1 \(x\): chance probabilities \[0.7, 0.7\] sum to 1.4"):
        game.tree()


def test_answers_of_the_wrong_kind_are_named():
    three = [Node(0, "I", ("x",), (1,)), Node(TERMINAL, payoffs=(1.0, -1.0, 0.0))]
    with pytest.raises(cfrlib.GameError, match=r"^history 'x': returns\(\) gave \(1.0, -1.0, 0.0\), expected two payoffs"):
        ExplicitGame(three)
    with pytest.raises(cfrlib.GameError, match=r"^the root: chance probabilities gave \['half', 0.5\], expected numbers"):
        TupleGame(("chance", [("a", "half", T(0)), ("b", 0.5, T(0))])).tree()
    with pytest.raises(cfrlib.GameError, match=r"^the root: the infoset key \['I'\] must be strings"):
        TupleGame(("player", 0, ["I"], [("x", T(0))])).tree()
    with pytest.raises(cfrlib.GameError, match=r"^history 'x': player 1's infoset key must be a string, got 7"):
        TupleGame(("player", 0, "I", [("x", ("player", 1, 7, [("y", T(0))]))])).tree()
    with pytest.raises(cfrlib.GameError, match=r"^history 'x': a terminal needs two finite payoffs, got \(nan, 0.0\)"):
        TupleGame(("player", 0, "I", [("x", ("terminal", float("nan"), 0.0))])).tree()


def test_rounded_chance_probabilities_are_rescaled_and_exact_ones_kept():
    third = ("chance", [(c, 0.333333, ("player", 0, c, [("x", T(1))])) for c in "abc"])
    tree = TupleGame(third).tree()
    assert np.allclose(tree.chance_prob[1:4], 1 / 3, rtol=0, atol=1e-15)
    assert tree.chance_prob[1:4].sum() == pytest.approx(1.0, abs=1e-15)
    sixths = ("chance", [(str(k), 1 / 6, T(k)) for k in range(6)])  # sum 0.9999999999999999 as given
    assert list(TupleGame(("player", 0, "I", [("go", sixths)])).tree().chance_prob[2:]) == [1 / 6] * 6
    off = ("chance", [(c, 0.33333, T(0)) for c in "abc"])
    with pytest.raises(cfrlib.ChanceProbabilityError, match="sum to 0.99999, not 1"):
        TupleGame(off).tree()
