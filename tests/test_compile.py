"""Compiling is fast and changes nothing: every array of the compiled tree equals the one of
the original, node-by-node compiler (kept readable in ``tree_reference.py``), and a game's
vectorized node table (``Game.node_table``) equals the walk of its state API."""

import re

import numpy as np
import pytest

from cfrlib import CFRPlus, games
from cfrlib.errors import GameError, ImperfectRecallError
from cfrlib.game import TERMINAL
from cfrlib.games.explicit import ExplicitGame, Node, explicit_from_game
from cfrlib.games.leduc import Leduc, LeducState
from cfrlib.games.formats import dumps
from cfrlib.subgame import SubgameSolver, chance_subgames
from cfrlib.tree import compile_game, walk_states
from toy_games import RandomGame
from tree_reference import reference_compile

ARRAYS = ("parent", "depth", "player", "infoset", "action", "chance_prob", "chance_reach", "payoff",
          "first_child", "num_children", "level_offsets", "infoset_player", "infoset_num_actions",
          "infoset_parent_seq", "infoset_own_depth", "infoset_node", "action_mask", "terminal_node",
          "terminal_payoff", "terminal_chance", "terminal_seq")

CHAIN_EFG = """EFG 2 R "outcomes on the path" { "a" "b" }
c "" 1 "deal" { "x" 1/3 "y" 2/3 } 1 "ante" { 1 -1 }
p "" 1 1 "i" { "l" "r" } 0
t "" 2 "win" { 2 -2 }
p "" 2 1 "j" { "u" "d" } 0
t "" 2
t "" 3 "lose" { -1 1 }
p "" 1 2 "k" { "l" "r" } 0
t "" 3
t "" 2
"""

GAMES = [games.kuhn(), games.leduc(), games.leduc(suit_isomorphism=True), games.bluff(sides=4),
         games.rps(), games.matrix_game([[1, -2, 0.5], [0, 3, -1]]), RandomGame(3), RandomGame(11),
         games.load(dumps(games.kuhn(), "efg")), games.load(CHAIN_EFG),
         games.load(dumps(games.leduc(ranks=4, max_raises=1), "json"))]


def same_arrays(new, old):
    for name in ARRAYS:
        a, b = getattr(new, name), getattr(old, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert new.infoset_keys == old.infoset_keys and new.infoset_actions == old.infoset_actions
    assert new._index == old._index
    assert (new.game_name, new.constant_sum) == (old.game_name, old.constant_sum)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_compiled_arrays_are_those_of_the_reference_compiler(game):
    same_arrays(compile_game(game), reference_compile(game))


@pytest.mark.parametrize("game", [games.bluff(sides=4), pytest.param(games.bluff(sides=6), marks=pytest.mark.slow),
                                  games.bluff(dice=(1, 2), sides=3),
                                  games.bluff(dice=(2, 1), sides=3), games.bluff(dice=(2, 2), sides=2)],
                         ids=lambda g: g.name)
def test_bluffs_vectorized_table_is_the_walk_of_its_states(game):
    fast = game.node_table()
    assert fast is not None and fast.equals(walk_states(game))
    assert len(fast.player) == {"bluff11_4sides": 8_181, "bluff11": 294_883}.get(game.name, len(fast.player))


def test_tables_that_differ_are_told_apart():
    table = games.bluff(sides=3).node_table()
    assert table.equals(walk_states(games.bluff(sides=3)))
    table.returns[-1, 0] += 1
    assert not table.equals(walk_states(games.bluff(sides=3)))
    assert not games.bluff(sides=3).node_table().equals(games.bluff(sides=4).node_table())


@pytest.mark.parametrize("game", [games.leduc(), games.leduc(suit_isomorphism=True), games.leduc(ranks=4, suits=3),
                                  pytest.param(games.leduc(ranks=4, suits=3, suit_isomorphism=True, ante=2,
                                                           raise_sizes=(1, 5), max_raises=(1, 3)),
                                               marks=pytest.mark.slow),
                                  games.leduc(ranks=2, suits=2, max_raises=0)], ids=lambda g: repr(g)[:40])
def test_leducs_vectorized_table_is_the_walk_of_its_states(game):
    fast = game.node_table()
    assert fast is not None and fast.equals(walk_states(game))


def same_table(game):
    """``game.node_table()`` is the walk's table, with the action lists and keys numbered in the
    same order, and every compiled array is the reference compiler's."""
    fast, walked = game.node_table(), walk_states(game)
    assert fast is not None and fast.equals(walked)
    assert (fast.label_lists, fast.keys) == (walked.label_lists, walked.keys)
    assert all(np.array_equal(getattr(fast, f), getattr(walked, f)) for f in ("labels", "key"))
    same_arrays(compile_game(game), reference_compile(game))


@pytest.mark.parametrize("game", [*GAMES[-3:], explicit_from_game(games.leduc())], ids=lambda g: g.name)
def test_an_explicit_games_table_is_the_walk_of_its_states(game):
    """``ExplicitGame.node_table`` reads the list of nodes level by level (games read from files)."""
    assert isinstance(game, ExplicitGame)
    same_table(game)


@pytest.fixture(scope="module")
def leduc_resolver():
    game = games.leduc()
    return SubgameSolver(game, CFRPlus(game).iterate(10).average_strategy(), chance_subgames(game))


@pytest.mark.parametrize("method", ["unsafe", "resolve", "reach"])
def test_a_gadgets_table_is_the_walk_of_its_states(leduc_resolver, method):
    """Explicit games built node by node, parents before children but not level by level: the
    re-solving gadgets of a Leduc subgame for the CFR+ blueprint after 10 iterations."""
    same_table(leduc_resolver.gadget(leduc_resolver.parts[3], method, 1))


@pytest.mark.parametrize("node, message", [
    (Node(5, "i", ("a",), (1,)), "current_player() returned 5"),
    (Node(0, ["i"], ("a",), (1,)), "infoset key"),
])
def test_an_explicit_game_the_fast_table_cannot_read_is_walked_and_refused_by_name(node, message):
    nodes = [node, Node(TERMINAL, payoffs=(1.0, -1.0))]
    with pytest.raises(GameError, match=re.escape(message)):
        ExplicitGame(nodes)
    assert type("Sub", (ExplicitGame,), {})(explicit_from_game(games.kuhn()).nodes).node_table() is None


def test_games_without_a_fast_path_are_walked():
    assert games.kuhn().node_table() is None and games.rps().node_table() is None


def test_subclasses_that_change_the_states_are_walked():
    class ForgetfulState(LeducState):  # forgets the first round in the second (chapter 3)
        __slots__ = ()

        def child(self, action):
            h = super().child(action)
            return ForgetfulState(h.game, h.cards, h.rounds, h.chips)

        def infoset_key(self):
            key = super().infoset_key()
            return key if len(self.rounds) == 1 else f"{self.cards[self.player]}|{key.split('|', 2)[2]}"

    class Forgetful(Leduc):
        def initial_state(self):
            return ForgetfulState(self, (), ("",), (self.ante, self.ante))

    assert Forgetful().node_table() is None
    with pytest.raises(ImperfectRecallError, match=re.escape("player 0's infoset 'Js|Qs|': history 'Js Jh raise call Qs'")):
        Forgetful().tree()
    assert type(games.bluff()).node_table is games.Bluff.node_table
    assert type("Sub", (games.Bluff,), {})().node_table() is None
