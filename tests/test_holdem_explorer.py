"""cfrbook.holdem_explorer: the tables the page reads hold the solver's answers, and bad input is refused."""

import json
import re

import numpy as np
import pytest

from cfrbook.errors import ExplorerError
from cfrbook.holdem_explorer import SpotExplorer, action_colors, grid_cells
from cfrlib.holdem import RangeSolver, TreeConfig, holdem_game, toys
from cfrlib.holdem.cards import HANDS, card, parse_hand

SIZES = {street: ("60%, a", "2.5x") for street in ("turn", "river")}


@pytest.fixture(scope="module")
def solver():
    game = holdem_game(TreeConfig("turn", 100, 300, SIZES), "Td9d6hQc", ["QQ,99,AJs,KJs,87s", "TT,AQs,AKo:0.5,QJs"])
    return RangeSolver(game, threads=1).iterate(30)


@pytest.fixture(scope="module")
def explorer(solver):
    return SpotExplorer(solver, ("2s", "Jh"))


def test_grid_cells_follow_the_solvers_grid():
    hands = HANDS[[parse_hand(h) for h in ("AsAh", "AsKs", "AsKh", "3c2c", "2d2c", "3d2c")]]
    assert grid_cells(hands).tolist() == [0, 1, 13, 13 * 11 + 12, 168, 13 * 12 + 11]


def test_the_root_grid_is_the_solvers_grid(solver, explorer):
    root = explorer.tables["nodes"][0]
    cells = np.array(explorer.tables["cells"][0])
    reach = np.array(root["reach"]) / 10000
    weight = np.bincount(cells, reach, minlength=169)
    mix, expected_weight = solver.grid([])
    assert weight.reshape(13, 13) == pytest.approx(expected_weight, abs=1e-4 * len(reach))
    for a, row in enumerate(root["strategy"]):
        freq = np.bincount(cells, reach * np.array(row) / 1000, minlength=169).reshape(13, 13)
        seen = expected_weight > 0
        assert freq[seen] / weight.reshape(13, 13)[seen] == pytest.approx(mix[a][seen], abs=2e-3)


def test_every_node_holds_the_solvers_strategy_values_and_equities(solver, explorer):
    nodes = explorer.tables["nodes"]
    assert nodes[0]["path"] == [] and len(nodes) > 10
    for node in nodes:
        path = [card(step) if len(step) == 2 else step for step in node["path"]]  # dealt cards are "2s"
        assert node["actions"] == solver.actions(path)
        strategy = np.array(node["strategy"]) / 1000
        assert strategy == pytest.approx(solver.strategy(path), abs=5e-4)
        ev = np.array([np.nan if v is None else v / 10 for v in node["ev"]])
        assert ev == pytest.approx(solver.hand_values(node["player"], path), abs=0.05, nan_ok=True)
        equity = np.array([np.nan if v is None else v / 1000 for v in node["equity"]])
        assert equity == pytest.approx(solver.equity(node["player"], path), abs=5e-4, nan_ok=True)


def test_children_and_dealt_cards_lead_to_the_nodes_below(explorer):
    nodes = explorer.tables["nodes"]
    dealt = set()
    for node in nodes:
        for action, child in zip(node["actions"], node["children"]):
            if isinstance(child, int):
                assert nodes[child]["path"] == node["path"] + [action]
            elif isinstance(child, dict):
                assert set(child["deal"]) == {"2s", "Jh"}
                for card, below in child["deal"].items():
                    dealt.add(card)
                    if isinstance(below, int):
                        assert nodes[below]["path"] == node["path"] + [action, card]
                        assert nodes[below]["board"] == "Td9d6hQc" + card
            else:
                assert child == "showdown" or "folds" in child
    assert dealt == {"2s", "Jh"}


def test_the_page_is_one_fragment_with_its_data(explorer):
    page = explorer.static_html()
    assert page == explorer.static_html()
    data = re.search(r'<script type="application/json" class="cfrlib-spot-data">(.*?)</script>', page, re.S)
    assert json.loads(data.group(1)) == json.loads(json.dumps(explorer.tables))
    assert "</" not in data.group(1)
    assert "SpotExplorer(Td9d6hQc" in repr(explorer)


def test_bets_get_colours_by_size():
    colors = action_colors(["Fold", "Call", "Raise(300)", "Raise(500)", "AllIn(900)"])
    assert colors[1] == action_colors(["Check"])[0] and len(set(colors)) == 5


def test_bad_input_is_refused(solver):
    with pytest.raises(ExplorerError, match="on the board"):
        SpotExplorer(solver, ("Td",))
    with pytest.raises(ExplorerError, match="hold'em spot"):
        SpotExplorer(RangeSolver(toys.kuhn()))
