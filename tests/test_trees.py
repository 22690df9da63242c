"""cfrbook.trees: positions, histories and nodes, public histories, recorded traversals, and the
two drawings' contents."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("agg")

import matplotlib.pyplot as plt  # noqa: E402

import cfrlib  # noqa: E402
from cfrbook import trees  # noqa: E402
from cfrlib import CfrlibError, games  # noqa: E402
from cfrlib.textbook.sampling import (InfosetTable, chance_sampling_cfr,  # noqa: E402
                                      external_sampling, outcome_sampling)

KUHN = games.kuhn()


def test_every_node_is_found_again_from_its_history():
    placed = trees.place(KUHN)
    tree = placed.tree
    assert [trees.node_index(placed, placed.paths[n]) for n in range(tree.num_nodes)] == \
        list(range(tree.num_nodes))
    assert trees.node_path(placed, trees.node_index(placed, ("K", "Q", "pass", "bet"))) == \
        ("K", "Q", "pass", "bet")
    # depth runs along x, one terminal history a line
    assert np.array_equal(placed.x, tree.depth)
    leaves = np.flatnonzero(tree.num_children == 0)
    assert sorted(placed.y[leaves]) == [-k for k in range(leaves.size - 1, -1, -1)]
    with pytest.raises(CfrlibError, match="move 2 of .* is 'fold'"):
        trees.node_index(placed, ("K", "Q", "fold"))


def test_public_histories_of_kuhn_hold_one_infoset_per_card():
    groups = trees.public_histories(KUHN)
    tree = KUHN.tree()
    decisions = {h: sorted({tree.infoset_keys[tree.infoset[n]] for n in nodes})
                 for h, nodes in groups.items() if tree.infoset[nodes[0]] >= 0}
    assert decisions == {(): ["J", "K", "Q"], ("pass",): ["Jp", "Kp", "Qp"],
                         ("bet",): ["Jb", "Kb", "Qb"],
                         ("pass", "bet"): ["Jpb", "Kpb", "Qpb"]}
    # six deals below each public history, terminals included
    assert {len(nodes) for nodes in groups.values()} == {6}
    assert len(groups) == 9


def test_coin_toss_public_state_play_is_player_1s_infoset():
    coin = games.coin_toss()
    tree = coin.tree()
    play = trees.public_histories(coin)[("play",)]
    assert [tree.infoset_keys[tree.infoset[n]] for n in play] == ["play", "play"]


@pytest.mark.parametrize("walk", ["chance", "external", "outcome"])
def test_a_recorded_traversal_lists_the_nodes_it_touches_parents_first(walk):
    placed = trees.place(KUHN)
    visits: list[tuple[str, ...]] = []
    table = InfosetTable()
    rng = np.random.default_rng(3)
    root = trees.RecordingState(KUHN.initial_state(), visits)
    value = {"chance": lambda: chance_sampling_cfr(root, 0, (1.0, 1.0), table, rng),
             "external": lambda: external_sampling(root, 0, table, rng),
             "outcome": lambda: outcome_sampling(root, 0, 1.0, 1.0, table, rng, 0.6)}[walk]()
    # the recording changes nothing: the same value as the plain state with the same seed
    plain = InfosetTable()
    rng = np.random.default_rng(3)
    state = KUHN.initial_state()
    again = {"chance": lambda: chance_sampling_cfr(state, 0, (1.0, 1.0), plain, rng),
             "external": lambda: external_sampling(state, 0, plain, rng),
             "outcome": lambda: outcome_sampling(state, 0, 1.0, 1.0, plain, rng, 0.6)}[walk]()
    assert value == again
    assert len(visits) == table.nodes_touched == plain.nodes_touched
    nodes = [trees.node_index(placed, h) for h in visits]
    assert nodes[0] == 0 and len(set(nodes)) == len(nodes)
    parent = placed.tree.parent
    assert all(nodes.index(int(parent[n])) < k for k, n in enumerate(nodes) if k)
    terminals = sum(placed.tree.num_children[n] == 0 for n in nodes)
    if walk == "outcome":
        assert terminals == 1  # one sampled path
    elif walk == "chance":
        assert terminals == 5  # every betting sequence below one deal


def _texts(ax):
    return [t.get_text() for t in ax.texts]


def test_draw_tree_writes_each_nodes_number_and_rings_the_chosen_nodes():
    placed = trees.place(KUHN)
    numbers = {n: f"n{n}" for n in range(placed.tree.num_nodes)}
    ring = [trees.node_index(placed, (card, "Q", "bet")) for card in "JK"]
    ax = trees.draw_tree(KUHN, node_text=numbers, ringed=ring)
    texts = _texts(ax)
    assert all(f"n{n}" in texts for n in numbers)
    assert texts.count("Qb") == 2  # the key beside each of the infoset's two histories
    rings = [c for c in ax.collections if c.get_offsets().shape == (2, 2)
             and c.get_sizes()[0] == 330]
    assert len(rings) == 1
    assert np.allclose(sorted(map(tuple, rings[0].get_offsets())),
                       sorted((placed.x[n], placed.y[n]) for n in ring))
    plt.close(ax.figure)


def test_draw_tree_draws_the_lit_path_in_the_style_given():
    placed = trees.place(KUHN)
    lit = [trees.node_index(placed, ("K", "Q", "bet")[:k]) for k in range(4)]
    ax = trees.draw_tree(KUHN, lit=lit, current=lit[-1],
                         lit_style={"color": "#CC79A7", "ls": "-.", "marker": "*",
                                    "label": "external sampling"})
    thick = [line for line in ax.lines if line.get_linewidth() == 3.0 and len(line.get_xdata())]
    assert len(thick) == 3 and all(line.get_color() == "#CC79A7" for line in thick)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "external sampling" in legend and "visited now" in legend
    plt.close(ax.figure)
    # at the first step only the root is lit: no thick line yet, but the legend names the style
    ax = trees.draw_tree(KUHN, lit=[0], current=0, lit_style={"color": "#CC79A7",
                                                              "label": "external sampling"})
    assert "external sampling" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(ax.figure)


def test_draw_tree_refuses_a_large_game():
    with pytest.raises(CfrlibError, match="more than 80"):
        trees.draw_tree(games.leduc())


def test_draw_public_tree_gives_each_infoset_one_row():
    strategy = cfrlib.uniform_strategy(KUHN)
    ax = trees.draw_public_tree(KUHN, lambda key: [f"<{key}>"], ["cell"],
                                bar=lambda key: strategy[key]["bet"], bar_label="bet",
                                order=["K", "Q", "J"], title="uniform")
    texts = _texts(ax)
    keys = KUHN.tree().infoset_keys
    assert all(texts.count(key) == 1 and texts.count(f"<{key}>") == 1 for key in keys)
    assert texts.count("player 0") == 2 and texts.count("player 1") == 2
    # rows in the order asked: K above Q above J
    height = {t.get_text(): t.get_position()[1] for t in ax.texts}
    assert height["K"] > height["Q"] > height["J"]
    plt.close(ax.figure)
