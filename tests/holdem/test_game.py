"""Range games: hands filtered by the board, the game tree's chance expansion, hold'em spots."""

import numpy as np
import pytest

from cfrlib.errors import CfrlibError, SpotError
from cfrlib.holdem.cards import HANDS, card
from cfrlib.holdem.game import KIND, holdem_game
from cfrlib.holdem.solver import RangeSolver
from cfrlib.holdem.spot import TreeConfig
from cfrlib.holdem.tree import CHANCE, SHOWDOWN


def pairs_and_suited_aces():
    w = np.zeros(len(HANDS))
    ranks, suits = HANDS // 4, HANDS % 4
    w[(ranks[:, 0] == ranks[:, 1]) | ((ranks[:, 1] == 12) & (suits[:, 0] == suits[:, 1]))] = 1.0
    return w


def test_basic_rs_ranges_keep_its_hand_counts():
    # examples/basic.rs asserts IP's 250 hands on Td9d6h Qc (its ranges, given as strings here)
    config = TreeConfig("turn", 200, 900, {"turn": ("60%", ""), "river": ("60%", "")})
    game = holdem_game(config, "Td9d6hQc", ["66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
                                             "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"])
    assert len(game.hands[1]) == 250
    assert game.names[1][:3] == ["2d2c", "2h2c", "2s2c"]


def test_turn_spot_expands_one_river_per_card_and_drops_blocked_hands():
    config = TreeConfig("turn", 200, 900, {"turn": ("60%, a", ""), "river": ("60%, a", "")})
    game = holdem_game(config, "Td9d6hQc", [pairs_and_suited_aces(), np.ones(len(HANDS))])
    # 1,326 hands minus those holding one of 4 board cards: C(48, 2) = 1,128
    assert len(game.hands[1]) == 1128
    assert not np.isin(game.hands[0], [card(c) for c in ("Td", "9d", "6h", "Qc")]).any()
    nodes = game.game_tree.nodes
    chance = np.flatnonzero(nodes[:, KIND] == CHANCE)
    assert all(nodes[i, 4] == 48 for i in chance)  # 52 - 4 cards
    assert len(game.game_tree.boards) == 48
    assert RangeSolver.memory_bytes(game) == 8 * sum(game.game_tree.rows[p] * len(game.hands[p]) for p in range(2))


def test_a_river_spot_converges_and_its_values_add_up_to_the_pot():
    config = TreeConfig("river", 100, 200, {"river": ("50%, a", "")})
    game = holdem_game(config, "Td9d6hQc2s", [pairs_and_suited_aces(), pairs_and_suited_aces()])
    assert (game.game_tree.nodes[:, KIND] == SHOWDOWN).any()
    solver = RangeSolver(game).iterate(200)
    assert solver.exploitability_percent() < 0.5
    assert solver.game_value(0) + solver.game_value(1) == pytest.approx(100.0, abs=1e-6)


def test_weights_must_cover_every_hand():
    config = TreeConfig("river", 100, 200)
    with pytest.raises(CfrlibError, match="1326"):
        holdem_game(config, "Td9d6hQc2s", [np.ones(10), np.ones(len(HANDS))])
    with pytest.raises(CfrlibError, match="QX"):
        holdem_game(config, "Td9d6hQc2s", ["QX", "AA"])
    with pytest.raises(SpotError, match="board of 4 cards"):
        holdem_game(config, "Td9d6hQc", [np.ones(len(HANDS))] * 2)


def test_the_grid_puts_pairs_on_the_diagonal_and_suited_hands_above_it():
    config = TreeConfig("river", 100, 200, {"river": ("50%, a", "")})
    weights = pairs_and_suited_aces()
    solver = RangeSolver(holdem_game(config, "Td9d6hQc2s", [weights, weights])).iterate(5)
    mix, weight = solver.grid()
    assert mix.shape == (3, 13, 13)  # Check, Bet(50), AllIn(200)
    # AA: 6 combinations; QQ: 3 (Qc on the board); AKs: 4 suits; AKo: not in the range
    assert (weight[0, 0], weight[2, 2], weight[0, 1], weight[1, 0]) == (6.0, 3.0, 4.0, 0.0)
    assert np.allclose(np.nansum(mix, axis=0)[weight > 0], 1.0)
    assert np.isnan(mix[:, 1, 0]).all()
