"""Card abstraction (cfrlib.abstraction): abstract games, lifted strategies, rank buckets.

The infoset counts below are derived by hand from Leduc's rules (Southey et al. 2005, as
implemented in cfrlib.games.leduc). In a betting round with at most 2 raises the decision points
are "", "c", "r", "cr", "rr", "crr" (6, three per player), and 5 betting sequences continue to
the next round ("cc", "rc", "crc", "rrc", "crrc"). So

    infosets = 6 * (round-1 private buckets) + 5 * 6 * (distinct round-2 keys' card parts),

where the card part of a round-2 key is (round-1 bucket, board rank, strength bucket).

Leduc with suit isomorphism (ranks J, Q, K; two of each, so the board may pair any card):
* k = 3, the identity: 3 * 6 + 30 * (3 private ranks * 3 boards) = 18 + 270 = 288, the real game.
* k = 2: round-1 buckets {J, Q} and {K}; the strength s (0..2, pair = 2) goes to bucket s*2//3,
  so only the pair is told apart from the rest. Card parts: board J: J -> (JQ, pair),
  Q -> (JQ, s0), K -> (K, s0); board Q: J -> (JQ, s0), K -> (K, s0), Q -> (JQ, pair);
  board K: J and Q -> (JQ, s0), K -> (K, pair). 3 + 3 + 2 = 8 parts: 2 * 6 + 30 * 8 = 252.
* k = 1: one bucket; the card part is the board only: 1 * 6 + 30 * 3 = 96.

Six ranks (8 9 T J Q K), suit isomorphism, Leduc's betting:
* k = 1: 1 * 6 + 30 * 6 boards = 186.
* k = 2: round-1 buckets {8, 9, T} and {J, Q, K}; strength buckets s // 3 (s = 0..5, pair 5).
  Boards 8, 9, T give 4 parts each ((low, s0), (high, s0), (high, s1), (low, pair)); boards
  J, Q, K give 2 ((low, s0), (high, s1), the pair being (high, s1) too). 3*4 + 3*2 = 18 parts:
  2 * 6 + 30 * 18 = 552.
"""

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.abstraction import AbstractGame, abstract_game, lift_strategy, rank_buckets
from cfrlib.errors import AbstractionError
from cfrlib.tree import build_tree, walk_states


@pytest.fixture(scope="module")
def leduc288():
    return games.leduc(suit_isomorphism=True)


@pytest.fixture(scope="module")
def leduc6():
    return games.leduc(ranks=6, suit_isomorphism=True)


def test_public_names_are_exported():
    for name in ("abstract_game", "lift_strategy", "rank_buckets", "AbstractionError"):
        assert name in cfrlib.__all__ and hasattr(cfrlib, name)


@pytest.mark.parametrize("k, expected", [(1, 96), (2, 252), (3, 288)])
def test_infoset_counts_on_leduc(leduc288, k, expected):
    abstract = abstract_game(leduc288, rank_buckets(leduc288, k))
    assert abstract.tree().num_infosets == expected
    assert abstract.tree().num_nodes == leduc288.tree().num_nodes  # same histories


@pytest.mark.parametrize("k, expected", [(1, 186), (2, 552)])
def test_infoset_counts_on_six_ranks(leduc6, k, expected):
    assert abstract_game(leduc6, rank_buckets(leduc6, k)).tree().num_infosets == expected


@pytest.mark.slow
def test_coarser_abstractions_have_fewer_infosets(leduc6):
    counts = [abstract_game(leduc6, rank_buckets(leduc6, k)).tree().num_infosets for k in range(1, 7)]
    assert counts == sorted(counts) and len(set(counts)) == 6
    assert counts[-1] == leduc6.tree().num_infosets == 1116


def test_bucket_keys_read_as_documented():
    buckets = rank_buckets(games.leduc(), 2)
    assert buckets.groups == [["J", "Q"], ["K"]]
    assert buckets("Qh|r") == "JQ|r"
    # board K: J is the weakest (s = 0), Q next (s = 1), a pair strongest (s = 2); two buckets
    # split 0..2 as {0, 1} and {2}.
    assert buckets("Qh|rc|Ks|r") == "JQ|rc|K|s0|r"
    assert buckets("Kh|rc|Ks|") == "K|rc|K|s1|"
    assert buckets("Jh|cc|Js|c") == "JQ|cc|J|s1|c"


@pytest.mark.parametrize("ranks", [3, 6])
def test_identity_abstraction_reproduces_the_game(ranks):
    game = games.leduc(ranks=ranks, suit_isomorphism=True)
    buckets = rank_buckets(game, ranks)
    abstract = abstract_game(game, buckets)
    assert abstract.tree().num_infosets == game.tree().num_infosets
    assert abstract.tree().num_terminals == game.tree().num_terminals
    real = cfrlib.CFRPlus(game).iterate(200)
    small = cfrlib.CFRPlus(abstract).iterate(200)
    lifted = lift_strategy(small.average_strategy(), game, buckets)
    expected = cfrlib.exploitability(game, real.average_strategy())
    assert cfrlib.exploitability(game, lifted) == pytest.approx(expected, abs=1e-12)
    assert np.abs(lifted.probs - real.average_strategy().probs).max() <= 1e-12


def test_merging_suits_loses_nothing_on_standard_leduc():
    # On the 936-infoset game, k = 3 merges exactly the cards that differ only in suit: the
    # abstract game has the infosets of the suit-isomorphic game, and its solution, lifted, is as
    # good as that game's (the two solves add the same numbers in a different order).
    leduc = games.leduc()
    buckets = rank_buckets(leduc, 3)
    abstract = abstract_game(leduc, buckets)
    assert abstract.tree().num_infosets == 288
    lifted = lift_strategy(cfrlib.CFRPlus(abstract).iterate(100).average_strategy(), leduc, buckets)
    iso = games.leduc(suit_isomorphism=True)
    direct = cfrlib.CFRPlus(iso).iterate(100).exploitability()
    assert cfrlib.exploitability(leduc, lifted) == pytest.approx(direct, abs=1e-9)


def test_lifted_strategy_is_valid_and_constant_on_buckets(leduc6):
    buckets = rank_buckets(leduc6, 3)
    abstract = abstract_game(leduc6, buckets)
    lifted = lift_strategy(cfrlib.CFRPlus(abstract).iterate(50).average_strategy(), leduc6, buckets)
    tree = leduc6.tree()
    assert isinstance(lifted, cfrlib.Strategy) and lifted.game is leduc6
    np.testing.assert_allclose(lifted.probs.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(lifted.probs >= 0) and np.all(lifted.probs[~tree.action_mask] == 0)
    rows_of = {}
    for I, key in enumerate(tree.infoset_keys):
        rows_of.setdefault((int(tree.infoset_player[I]), buckets(key)), []).append(I)
    assert len(rows_of) == abstract.tree().num_infosets
    merged = 0
    for rows in rows_of.values():
        assert np.array_equal(lifted.probs[rows], np.repeat(lifted.probs[rows[:1]], len(rows), 0))
        merged += len(rows) > 1
    assert merged > 0  # the abstraction really merges infosets
    # A uniform abstract strategy lifts to the uniform strategy.
    uniform = lift_strategy(cfrlib.uniform_strategy(abstract), leduc6, buckets)
    assert uniform == cfrlib.uniform_strategy(leduc6)


def test_a_strategy_as_a_mapping_lifts_too(leduc288):
    buckets = rank_buckets(leduc288, 1)
    abstract = abstract_game(leduc288, buckets)
    mapping = {(p, key): dist for p in (0, 1)
               for key, dist in cfrlib.uniform_strategy(abstract).player(p).items()}
    assert lift_strategy(mapping, leduc288, buckets) == cfrlib.uniform_strategy(leduc288)


def test_one_bucket_function_per_player(leduc288):
    pair = (rank_buckets(leduc288, 1), str)  # player 0 sees no card, player 1 is unabstracted
    abstract = abstract_game(leduc288, pair)
    tree, real = abstract.tree(), leduc288.tree()
    assert tree.num_infosets_of(1) == real.num_infosets_of(1) == 144
    assert tree.num_infosets_of(0) == 96 // 2  # half of k = 1's infosets are player 0's
    lifted = lift_strategy(cfrlib.CFRPlus(abstract).iterate(20).average_strategy(), leduc288, pair)
    np.testing.assert_allclose(lifted.probs.sum(axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize("k", [0, 4, -1])
def test_abstraction_size_out_of_range(leduc288, k):
    with pytest.raises(AbstractionError, match=r"k must be from 1 to the number of ranks \(3"):
        rank_buckets(leduc288, k)


@pytest.mark.parametrize("k", [2.0, "2", True, None])
def test_abstraction_size_must_be_an_integer(leduc288, k):
    with pytest.raises(AbstractionError, match="must be an integer"):
        rank_buckets(leduc288, k)


def test_rank_buckets_refuses_other_games():
    with pytest.raises(AbstractionError, match="Leduc"):
        rank_buckets(games.kuhn(), 2)


def test_forgetting_the_first_round_breaks_perfect_recall(leduc288):
    buckets = rank_buckets(leduc288, 2)

    def forgetful(key):  # round 2 keeps the board and the betting, not the round-1 bucket
        parts = key.split("|")
        return buckets(key) if len(parts) == 2 else f"{parts[2]}|{parts[1]}|{parts[3]}"

    with pytest.raises(AbstractionError, match="breaks perfect recall") as err:
        abstract_game(leduc288, forgetful)
    assert isinstance(err.value, cfrlib.GameError)


def test_bad_bucket_functions(leduc288):
    with pytest.raises(AbstractionError, match="must be callable"):
        abstract_game(leduc288, "rank")
    with pytest.raises(AbstractionError, match="must be callable"):
        abstract_game(leduc288, (str,))
    with pytest.raises(AbstractionError, match="must return a string"):
        abstract_game(leduc288, len)
    with pytest.raises(AbstractionError, match="merges infosets that cannot be one"):
        abstract_game(leduc288, lambda key: key.split("|")[0])  # forgets the betting
    with pytest.raises(AbstractionError, match="not a Leduc infoset key"):
        abstract_game(games.kuhn(), rank_buckets(leduc288, 2))


def test_lift_refuses_strategies_of_other_games(leduc288, leduc6):
    with pytest.raises(AbstractionError, match="needs a strategy of an abstract game"):
        lift_strategy(cfrlib.uniform_strategy(leduc288), leduc288, rank_buckets(leduc288, 2))
    other = abstract_game(leduc6, rank_buckets(leduc6, 2))
    with pytest.raises(AbstractionError, match="abstraction of"):
        lift_strategy(cfrlib.uniform_strategy(other), leduc288, rank_buckets(leduc288, 2))


@pytest.mark.parametrize("bucket_of", [
    lambda g: rank_buckets(g, 2), lambda g: (rank_buckets(g, 1), str), lambda g: (str, rank_buckets(g, 3)),
    lambda g: lambda key: key], ids=["k=2", "k=1 and unabstracted", "unabstracted and k=3", "the identity"])
def test_the_node_table_is_the_walk_of_the_abstract_states(leduc6, bucket_of):
    """``AbstractGame.node_table`` relabels the real game's table (a bucket asked once per real
    infoset): the same histories, keys numbered in the same order, the same compiled tree."""
    abstract = AbstractGame(leduc6, bucket_of(leduc6))
    fast, walked = abstract.node_table(), walk_states(abstract)
    assert fast.equals(walked) and fast.keys == walked.keys and np.array_equal(fast.key, walked.key)
    one, other = build_tree(abstract, fast), build_tree(abstract, walked)
    assert one.infoset_keys == other.infoset_keys and one.infoset_actions == other.infoset_actions
    for field in ("parent", "player", "infoset", "action", "chance_prob", "payoff", "first_child"):
        assert np.array_equal(getattr(one, field), getattr(other, field)), field


def test_abstract_game_delegates_to_the_real_one(leduc288):
    abstract = abstract_game(leduc288, rank_buckets(leduc288, 2), name="leduc, 2 buckets")
    assert isinstance(abstract, AbstractGame) and abstract.name == "leduc, 2 buckets"
    state = abstract.initial_state().child("K").child("Q")
    assert state.current_player() == 0 and state.legal_actions() == ["call", "raise"]
    assert state.infoset_key() == "K|" and state.real.infoset_key() == "K|"
    end = state.child("call").child("call").child("J").child("raise").child("fold")
    assert end.is_terminal() and end.returns() == (1.0, -1.0)
