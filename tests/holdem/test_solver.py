"""The range-vector solver against answers that cannot be tuned: the clairvoyance game's formulas,
Kuhn's and Leduc's game values, an explicit game tree solved by cfrlib's full-width CFR, and node
locking."""

import numpy as np
import pytest

import cfrlib
from cfrlib.errors import SolverError, SpotError
from cfrlib.game import CHANCE as EXPLICIT_CHANCE
from cfrlib.game import TERMINAL
from cfrlib.games.explicit import ExplicitGame
from cfrlib.games.explicit import Node as ExplicitNode
from cfrlib.holdem import toys
from cfrlib.holdem.game import RangeGame
from cfrlib.holdem.solver import RangeSolver
from cfrlib.holdem.spot import TreeConfig
from cfrlib.holdem.tree import CHANCE, FOLD, PLAYER, PublicTree
from tests.test_lp import LEDUC_VALUE


@pytest.mark.slow  # seconds of solving: make test only
@pytest.mark.parametrize("bet", [50, 100])
def test_clairvoyance_game_bluffs_and_calls_as_the_formulas_say(bet):
    b = bet / 100
    solver = RangeSolver(toys.clairvoyance(bet)).iterate(2000)
    check, bets = solver.strategy()  # OOP's hands: air, nuts
    assert bets[1] == pytest.approx(1.0, abs=1e-3)
    assert bets[0] / (bets[0] + bets[1]) == pytest.approx(b / (1 + 2 * b), abs=1e-3)
    fold, call = solver.strategy([f"Bet({bet})"])[:, 0]
    assert call == pytest.approx(1 / (1 + b), abs=1e-3)
    assert solver.exploitability() < 1e-3 * 100


def test_kuhn_as_a_range_game_has_value_minus_one_eighteenth():
    solver = RangeSolver(toys.kuhn()).iterate(1000)
    # the values include the starting pot of 2: player 0's share is 1 - 1/18 (Kuhn 1950)
    assert solver.game_value(0) - 1 == pytest.approx(-1 / 18, abs=1e-4)
    assert solver.game_value(1) - 1 == pytest.approx(1 / 18, abs=1e-4)
    assert solver.exploitability() < 1e-3


@pytest.mark.slow  # seconds of solving: make test only
def test_leduc_as_a_range_game_has_its_known_value():
    solver = RangeSolver(toys.leduc()).iterate(300)
    assert solver.game_value(0) - 1 == pytest.approx(LEDUC_VALUE, abs=2e-3)
    assert solver.exploitability() < 2e-3


def explicit_game(game: RangeGame) -> ExplicitGame:
    """``game`` written out as an explicit tree: chance deals the pair of hands, each player's
    infoset is its hand and the public actions and cards so far."""
    nodes: list = []
    z = game.pair_weight
    half = game.starting_pot / 2

    def add(node, hands, history, board):
        index = len(nodes)
        nodes.append(None)
        if node.kind in (PLAYER, CHANCE):
            if node.kind == PLAYER:
                children = [add(child, hands, history + (repr(a),), board) for a, child in zip(node.actions, node.children)]
                key = f"{game.hands[node.player][hands[node.player]].tolist()}|{'/'.join(history)}"
                nodes[index] = ExplicitNode(node.player, key, tuple(repr(a) for a in node.actions), tuple(children))
            else:
                used = set(board) | {int(c) for p in range(2) for c in game.hands[p][hands[p]]}
                cards = [c for c in range(game.deck_size) if c not in used]
                children = [add(node.children[0], hands, history + (str(c),), board + (c,)) for c in cards]
                nodes[index] = ExplicitNode(EXPLICIT_CHANCE, None, tuple(map(str, cards)), tuple(children),
                                            tuple([1 / len(cards)] * len(cards)))
            return index
        if node.kind == FOLD:
            u0 = -node.amount if node.player == 0 else game.starting_pot + node.amount
        else:
            s = [game.strengths(tuple(sorted(board)), game.hands[p][hands[p]:hands[p] + 1])[0] for p in range(2)]
            u0 = half if s[0] == s[1] else (game.starting_pot + node.amount if s[0] > s[1] else -node.amount)
        nodes[index] = ExplicitNode(TERMINAL, payoffs=(u0, game.starting_pot - u0))
        return index

    pairs = [(i, j) for i in range(len(game.hands[0])) for j in range(len(game.hands[1]))
             if not set(game.hands[0][i].tolist()) & set(game.hands[1][j].tolist())]
    nodes.append(None)
    children = [add(game.tree.root, pair, (), game.board) for pair in pairs]
    probs = tuple(game.weights[0][i] * game.weights[1][j] / z for i, j in pairs)
    nodes[0] = ExplicitNode(EXPLICIT_CHANCE, None, tuple(f"{i},{j}" for i, j in pairs), tuple(children), probs)
    return ExplicitGame(nodes, "range game")


def small_river_game() -> RangeGame:
    """A river with card removal: a deck of 6 one-card hands, uneven ranges, a bet, a raise and an all-in."""
    tree = PublicTree(TreeConfig("river", 10, 30, {"river": ("50%, a", "2x")}))
    hands = np.arange(6, dtype=np.int64)[:, None]
    return RangeGame(tree, (), [hands, hands], [np.array([1, 0.5, 1, 0, 2, 1.0]), np.array([0.3, 1, 1, 1, 0.5, 1.0])],
                     6, lambda board, h: h[:, 0] // 2, 0)


def explicit_strategy(solver: RangeSolver, explicit: ExplicitGame) -> cfrlib.Strategy:
    """The range solver's average strategy as a strategy of the explicit game."""
    game = solver.game
    mapping = {}

    def visit(i, history):
        node = game.game_tree.public[i]
        if node.kind == PLAYER:
            probs = solver.strategy(history)
            for h in range(len(game.hands[node.player])):
                if set(game.hands[node.player][h].tolist()) & set(game.game_tree.board_at[i]):
                    continue  # a hand holding a dealt card: no such infoset
                key = f"{game.hands[node.player][h].tolist()}|{'/'.join(map(str, history))}"
                mapping[(node.player, key)] = {repr(a): float(probs[k, h]) for k, a in enumerate(node.actions)}
            for a in node.actions:
                visit(solver.node_index(history + [repr(a)]), history + [repr(a)])
        elif node.kind == CHANCE:
            first, count = game.game_tree.nodes[i, 3], game.game_tree.nodes[i, 4]
            for card in game.game_tree.nodes[first:first + count, 5]:
                visit(solver.node_index(history + [int(card)]), history + [int(card)])

    visit(0, [])
    return cfrlib.Strategy.from_dict(explicit, mapping, missing="uniform")


@pytest.mark.slow  # seconds of solving: make test only
@pytest.mark.parametrize("make", [small_river_game, toys.leduc])
def test_range_solver_agrees_with_full_width_cfr_on_the_explicit_tree(make):
    game = make()
    explicit = explicit_game(game)
    solver = RangeSolver(game).iterate(60)
    # the same strategy, evaluated by cfrlib's exact evaluation of the explicit tree
    strategy = explicit_strategy(solver, explicit)
    assert cfrlib.expected_value(explicit, strategy) == pytest.approx(solver.game_value(0), abs=1e-9)
    assert cfrlib.exploitability(explicit, strategy) == pytest.approx(solver.exploitability(), abs=1e-9)
    # and the game value that the existing DCFR finds
    reference = cfrlib.DCFR(explicit).iterate(400)
    assert cfrlib.expected_value(explicit, reference.average_strategy()) == pytest.approx(
        RangeSolver(game).iterate(400).game_value(0), abs=2e-3 * game.starting_pot)


def test_locking_the_bettor_into_never_bluffing_makes_the_caller_fold():
    solver = RangeSolver(toys.clairvoyance(100))
    solver.lock([], np.array([[1.0], [0.0]]), hands=np.array([0]))  # air: always check
    solver.iterate(500)
    assert solver.strategy()[:, 0].tolist() == [1.0, 0.0]
    fold, call = solver.strategy(["Bet(100)"])[:, 0]
    assert call < 1e-2
    # the nuts, unlocked, still bet and win the pot when called
    assert solver.strategy()[1, 1] == pytest.approx(1.0, abs=1e-3)


@pytest.mark.slow  # seconds of solving: make test only
def test_cfr_and_cfr_plus_and_the_postflop_schedule_converge_too():
    for options in (dict(alpha=np.inf, beta=np.inf, gamma=0.0), dict(alpha=np.inf, beta=-np.inf, gamma=1.0),
                    dict(schedule="postflop")):
        assert RangeSolver(toys.kuhn(), **options).iterate(500).exploitability() < 5e-3


def test_save_and_load_round_trip(tmp_path):
    solver = RangeSolver(toys.leduc())
    solver.lock(["Check"], np.array([[0.25], [0.75]]), hands=np.array([3]))  # Qh bets 3/4 after a check
    solver.iterate(20)
    assert solver.strategy(["Check"])[:, 3].tolist() == [0.25, 0.75]
    solver.save(tmp_path / "leduc.npz")
    again = RangeSolver(toys.leduc()).load(tmp_path / "leduc.npz")
    assert again.iteration == 20
    assert np.array_equal(again.strategy(["Check"]), solver.strategy(["Check"]))
    assert again.strategy(["Check"])[:, 3].tolist() == [0.25, 0.75]
    assert again.iterate(5).exploitability() == solver.iterate(5).exploitability()
    with pytest.raises(SolverError, match="another game"):
        RangeSolver(toys.kuhn()).load(tmp_path / "leduc.npz")


def test_bad_paths_locks_and_options_are_refused():
    solver = RangeSolver(toys.kuhn())
    with pytest.raises(SpotError, match="Raise"):
        solver.strategy(["Raise(3)"])
    with pytest.raises(SpotError, match="shape"):
        solver.lock([], np.ones((2, 2)))
    with pytest.raises(SolverError, match="schedule"):
        RangeSolver(toys.kuhn(), schedule="pio")


def test_per_hand_values_and_equity_on_kuhn():
    solver = RangeSolver(toys.kuhn()).iterate(1000)
    ev = solver.hand_values(0)
    assert ev.mean() - 1 == pytest.approx(-1 / 18, abs=1e-4)
    assert ev[0] == pytest.approx(0.0, abs=1e-3)  # the jack never wins: it loses its ante
    assert solver.equity(0).tolist() == [0.0, 0.5, 1.0]


def test_threads_change_nothing():
    # Leduc's board card is a chance node: its six cards are tasks shared out between the threads
    one = RangeSolver(toys.leduc(), threads=1).iterate(30)
    two = RangeSolver(toys.leduc(), threads=2).iterate(30)
    # five first-round lines reach the board card (check-check, bet-call, bet-raise-call and the
    # same after a check), times six cards
    assert len(two._tasks) == 5 * 6
    for p in range(2):
        assert np.array_equal(one.regrets[p], two.regrets[p]) and np.array_equal(one.sums[p], two.sums[p])
    with pytest.raises(SolverError, match="threads"):
        RangeSolver(toys.kuhn(), threads=0)


def test_run_logs_exploitability_and_stops_at_the_target():
    solver = RangeSolver(toys.kuhn())
    log = solver.run(400, eval_every=50, target_exploitability=0.01)
    assert log.iteration[0] == 0 and log.exploitability[-1] <= 0.01 < log.exploitability[-2]
    assert solver.iteration == log.iteration[-1] < 400
    assert log.nodes_touched[-1] == 2 * 9 * solver.iteration  # Kuhn's public tree has 9 nodes
