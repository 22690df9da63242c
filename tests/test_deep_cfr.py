"""cfrlib.deep_cfr: features, reservoir, networks, and that Deep CFR learns on Kuhn and Leduc."""

import math

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrbook.datasets import load_json
from cfrlib.deep_cfr import (MLP, DeepCFR, ExactFitDeepCFR, Reservoir, SlidingWindow, fit, feature_names,
                             infoset_features, regret_matching)
from cfrlib.errors import CfrlibError, DeepCFRError

TINY = dict(traversals=100, hidden=(16, 16), advantage_steps=150, policy_steps=400, batch_size=64)


@pytest.fixture(scope="module")
def kuhn_run():
    solver = DeepCFR(games.kuhn(), seed=0, **TINY)
    return solver, solver.run([10])


def _policy(game, net):
    """A network's softmax policy over the legal actions, as a Strategy."""
    tree = game.tree()
    z = np.where(tree.action_mask, net(infoset_features(game)).astype(float), -np.inf)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return cfrlib.Strategy(game, e / e.sum(axis=1, keepdims=True))


@pytest.mark.slow  # trains networks: make test only
def test_a_tiny_kuhn_run_learns_what_no_untrained_network_knows(kuhn_run):
    game, (solver, log) = games.kuhn(), kuhn_run
    # After 10 iterations seeds 0-7 end between 0.04 and 0.13 (another CPU may take another
    # seed's path: float32 sums differ in the last bits); networks at their random
    # initialisation (seeds 0-19) between 0.30 and 0.85; uniform play: 0.458; equilibrium: 0.
    bound = 0.2
    assert log[-1].exploitability < bound
    assert log[-1].exploitability == pytest.approx(cfrlib.exploitability(game, solver.average_strategy()))
    assert cfrlib.exploitability(game, DeepCFR(game, **TINY).average_strategy()) > bound
    for seed in range(5):                          # networks at their random initialisation
        untrained = MLP(solver.sizes, np.random.default_rng(seed))
        assert cfrlib.exploitability(game, _policy(game, untrained)) > bound


@pytest.mark.slow  # trains networks (the fixture): make test only
def test_the_policy_is_a_strategy_of_the_compiled_tree(kuhn_run):
    solver, _ = kuhn_run
    tree = games.kuhn().tree()
    for strategy in (solver.average_strategy(), solver.current_strategy()):
        probs = strategy.probs
        assert probs.shape == (tree.num_infosets, tree.max_actions)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)
        assert (probs >= 0).all()



def _own_reach(tree, sigma, player):
    """pi_player(I) by walking the nodes: the product of player's probabilities above a node."""
    node_reach = np.ones(tree.num_nodes)
    for n in range(1, tree.num_nodes):
        m = tree.parent[n]
        node_reach[n] = node_reach[m] * (sigma[tree.infoset[m], tree.action[n]]
                                         if tree.player[m] == player else 1.0)
    reach = np.zeros(tree.num_infosets)
    for n in range(tree.num_nodes):
        if tree.player[n] == player:
            reach[tree.infoset[n]] = node_reach[n]
    return reach


@pytest.mark.parametrize("linear", [True, False])
def test_the_iterates_average_is_the_reach_weighted_mean_of_the_strategies_played(linear):
    game, sums = games.kuhn(), np.zeros((12, 2))
    solver, played = DeepCFR(game, seed=1, linear=linear, **TINY), []
    sigma_of = solver._sigma
    solver._sigma = lambda: played.append(sigma_of()) or played[-1]
    solver.iterate(3)
    tree = game.tree()
    for k, sigma in enumerate(played):        # iteration k // 2 + 1, traverser k % 2
        t, q = k // 2 + 1, 1 - k % 2
        rows = tree.infoset_player == q
        sums[rows] += (t if linear else 1) * _own_reach(tree, sigma, q)[rows, None] * sigma[rows]
    total = sums.sum(axis=1, keepdims=True)
    assert (total == 0).any()                          # some infosets were never reached: uniform
    expected = np.where(total > 0, sums / np.where(total > 0, total, 1), 0.5)
    np.testing.assert_allclose(solver.iterates_average_strategy().probs, expected, rtol=1e-12)
    assert not np.allclose(played[0], played[-1])      # the networks did change the strategy

def test_the_same_seed_gives_the_same_run():
    a = DeepCFR(games.kuhn(), seed=3, **TINY).iterate(2)
    b = DeepCFR(games.kuhn(), seed=3, **TINY).iterate(2)
    assert a.advantage_loss == b.advantage_loss and a.nodes_touched == b.nodes_touched


def _row(game, key):
    names, x = feature_names(game), infoset_features(game)
    return {names[j] for j in np.flatnonzero(x[game.tree().infoset_keys.index(key)])}


def test_features_of_hand_chosen_infosets():
    kuhn, leduc = games.kuhn(), games.leduc()
    assert infoset_features(kuhn).shape == (12, 7) and infoset_features(leduc).shape == (936, 20)
    assert _row(kuhn, "K") == {"private=K"}
    assert _row(kuhn, "Jpb") == {"private=J", "round1.action1=pass", "round1.action2=bet"}
    assert _row(leduc, "Qh|") == {"private=Q"}
    assert _row(leduc, "Ks|rc|Qh|c") == {"private=K", "board=Q", "round1.action1=raise",
                                         "round1.action2=call", "round2.action1=call"}
    assert _row(leduc, "Js|crrc|Jh|rr") == {"private=J", "board=J", "round1.action1=call",
                                            "round1.action2=raise", "round1.action3=raise",
                                            "round1.action4=call", "round2.action1=raise",
                                            "round2.action2=raise"}
    x = infoset_features(leduc)                      # suits are left out, nothing else
    assert len(np.unique(x, axis=0)) == games.leduc(suit_isomorphism=True).tree().num_infosets


@pytest.mark.slow  # 4,000 seeded reservoirs: make test only
def test_reservoir_keeps_every_item_with_probability_capacity_over_offers():
    capacity, batches, runs = 4, (3, 5, 4), 4000
    offers = sum(batches)
    kept = np.zeros(offers)
    for r in range(runs):
        memory, rng, start = Reservoir(capacity, 1), np.random.default_rng(r), 0
        for size in batches:
            items = np.arange(start, start + size)
            memory.add(items, 1, items[:, None].astype(float), rng)
            start += size
        assert len(memory) == capacity and len(set(memory.infoset)) == capacity
        assert (memory.target[:, 0] == memory.infoset).all()
        kept[memory.infoset] += 1
    p = capacity / offers
    # each count is Binomial(runs, p); z = 5.4 makes the chance that any of the 12 counts
    # leaves its band by chance (normal approximation) about 12 * 6.7e-8 < 1e-6
    assert np.abs(kept - runs * p).max() <= 5.4 * math.sqrt(runs * p * (1 - p))


def test_a_sliding_window_keeps_the_last_items_offered():
    memory, rng = SlidingWindow(4, 1), np.random.default_rng(0)
    for start, size in ((0, 3), (3, 2), (5, 6)):          # the last batch alone overflows it
        items = np.arange(start, start + size)
        memory.add(items, start, items[:, None].astype(float), rng)
        kept = sorted(memory.infoset[:len(memory)].tolist())
        assert kept == list(range(max(0, start + size - 4), start + size))
    assert (memory.target[:, 0] == memory.infoset).all() and len(memory) == 4 and memory.seen == 11


def test_the_exact_fit_predicts_the_weighted_mean_of_the_memory_per_feature_vector():
    """On Leduc (suits merged by the features): after two iterations each advantage prediction is
    the t-weighted mean of the stored regrets over the infosets sharing its feature vector."""
    game = games.leduc()
    solver = ExactFitDeepCFR(game, seed=0, traversals=20).iterate(2)
    x, memory = solver.features, solver.advantage_memory[1]
    n = len(memory)
    weight = memory.iteration[:n].astype(float)
    for infoset in np.unique(memory.infoset[:n])[:25]:
        same = (x[memory.infoset[:n]] == x[infoset]).all(axis=1)
        expected = (weight[same, None] * memory.target[:n][same]).sum(axis=0) / weight[same].sum()
        np.testing.assert_allclose(solver.advantage[1](x[[infoset]])[0], expected, rtol=1e-5, atol=1e-6)
    assert 0 < cfrlib.exploitability(game, solver.average_strategy()) < 4


def test_a_warm_start_trains_from_the_previous_network():
    options = {**TINY, "traversals": 10, "advantage_steps": 2, "learning_rate": 1e-12}
    solver = DeepCFR(games.kuhn(), seed=0, warm_start=True, **options)
    solver.iterate(1)
    before = [w.copy() for w in solver.advantage[0].params]
    solver.iterate(1)                      # a learning rate of 1e-12 leaves the weights as they were
    assert all(np.allclose(a, b, atol=1e-6) for a, b in zip(before, solver.advantage[0].params))
    cold = DeepCFR(games.kuhn(), seed=0, **options).iterate(2)
    assert not all(np.allclose(a, b, atol=1e-6) for a, b in zip(before, cold.advantage[0].params))


def test_regret_matching_on_advantages():
    mask = np.array([[True, True, True], [True, True, False], [True, True, True]])
    v = np.array([[1.0, 3.0, -2.0], [-1.0, -3.0, 9.0], [0.0, 0.0, 0.0]])
    np.testing.assert_allclose(regret_matching(v, mask), [[0.25, 0.75, 0], [1, 0, 0], [1 / 3] * 3])


@pytest.mark.slow  # trains a network: make test only
def test_fit_finds_the_weighted_mean_of_its_targets():
    rng = np.random.default_rng(0)
    x = np.eye(2, dtype=np.float32)[[0, 0, 1, 1]]
    y = np.array([[1, 0], [0, 1], [2, 2], [4, 0]], dtype=np.float32)
    w = np.array([3, 1, 1, 1], dtype=np.float32)
    mask = np.ones((4, 2), dtype=bool)
    net = MLP([2, 16, 2], rng)
    fit(net, x, y, mask, w, loss="mse", steps=1500, batch_size=256, learning_rate=3e-3, rng=rng)
    np.testing.assert_allclose(net(np.eye(2, dtype=np.float32)), [[0.75, 0.25], [3, 1]], atol=0.05)
    policy = MLP([2, 16, 2], rng)
    fit(policy, x, y / y.sum(axis=1, keepdims=True), mask, w, loss="xent", steps=1500,
        batch_size=256, learning_rate=3e-3, rng=rng)
    z = policy(np.eye(2, dtype=np.float32))
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(p, [[0.75, 0.25], [(0.5 + 1) / 2, (0.5 + 0) / 2]], atol=0.03)


@pytest.mark.parametrize("schedule, moved", [("linear", 1.5), ("constant", 2.0)])
def test_the_learning_rate_schedule(schedule, moved):
    """Adam moves each weight by the learning rate when every step sees the same gradient sign
    (m / sqrt(v) = 1 after bias correction): two steps move it by lr (1 + 1/2) with the linear
    decay, by 2 lr at a constant rate."""
    net, lr = MLP([1, 1], np.random.default_rng(0)), 1e-3
    before = [p.copy() for p in net.params]
    x, y = np.ones((4, 1), dtype=np.float32), np.full((4, 1), 100.0, dtype=np.float32)
    fit(net, x, y, np.ones((4, 1), dtype=bool), np.ones(4, dtype=np.float32), loss="mse", steps=2,
        batch_size=4, learning_rate=lr, rng=np.random.default_rng(0), schedule=schedule)
    for after, start in zip(net.params, before):
        np.testing.assert_allclose(after - start, moved * lr, rtol=1e-3)
    with pytest.raises(DeepCFRError, match="schedule"):
        fit(net, x, y, np.ones((4, 1), dtype=bool), np.ones(4, dtype=np.float32), loss="mse", steps=2,
            batch_size=4, learning_rate=lr, rng=np.random.default_rng(0), schedule="cosine")


@pytest.mark.parametrize("options", [
    {"traversals": 0}, {"traversals": 1.5}, {"hidden": (16, 0)}, {"hidden": "16"},
    {"advantage_steps": -1}, {"batch_size": True}, {"learning_rate": 0}, {"learning_rate": math.inf},
    {"memory": 0}, {"linear": 1}, {"seed": "0"}, {"seed": -1}, {"features": np.zeros((3, 2))},
    {"buffer": "fifo"}, {"warm_start": "yes"},
])
def test_bad_options_raise_a_cfrlib_error(options):
    with pytest.raises(DeepCFRError):
        DeepCFR(games.kuhn(), **options)


def test_games_without_features_and_bad_checkpoints_are_refused():
    with pytest.raises(CfrlibError, match="features="):
        infoset_features(games.coin_toss())
    with pytest.raises(DeepCFRError):
        DeepCFR(games.kuhn(), **TINY).run([3, 2])


def test_nothing_in_cfrlib_imports_deep_cfr_but_the_learned_value_function():
    """ARCHITECTURE.md's one exception: cfrlib.depth_limited's value network is this module's MLP
    (the front layer, which may import every application, aside)."""
    from architecture import names, table
    from test_layers import import_graph

    layers = table("Layers and the imports allowed between them")
    front = {m for row in layers if row[0] == "front" for m in names(row[1])}
    assert front >= {"cfrlib.compile_cache"}
    users = [m for m, uses in import_graph().items() if "cfrlib.deep_cfr" in uses and m not in front]
    assert users == ["cfrlib.depth_limited"]


@pytest.mark.slow
def test_a_short_rerun_agrees_with_the_recorded_leduc_run():
    """benchmarks/deep_cfr.py's data: its first checkpoint again, with the recorded configuration,
    up to the average of the advantage networks' iterates. The policy network (3,000 of the
    checkpoint's 4,200 training steps) is trained by the same code with another loss, which
    ``kuhn_run`` runs on Kuhn poker."""
    recorded = load_json("deep_cfr")["games"]["leduc"]
    seeds, first = recorded["runs"]["Deep CFR"], recorded["rerun"]["checkpoints"][0]
    run = seeds[0]
    again = DeepCFR(games.leduc(), **run["config"]).iterate(first)
    j = run["iteration"].index(first)
    # Iteration 1 plays uniformly (no network yet): its traversals are the same on any machine.
    assert (again.traversals, again.nodes_touched) == (run["traversals"][j], run["nodes_touched"][j])
    # The networks are trained in float32: another CPU can differ in the last bits of a sum, which
    # training amplifies up to what another seed would give. The tolerance is the spread of the
    # iterates' exploitability over the recorded seeds at this checkpoint (this machine repeats
    # it bit for bit).
    values = [r["iterates_exploitability"][j] for r in seeds]
    iterates = cfrlib.exploitability(games.leduc(), again.iterates_average_strategy())
    assert abs(iterates - values[0]) <= max(values) - min(values), (iterates, values)


def test_every_recorded_run_has_its_studys_configuration_and_checkpoints():
    """benchmarks/deep_cfr.py's data: each run of each seed was made with the configuration and
    at the checkpoints the script gives its name, and a run with fewer traversals an iteration
    (125) is checked at the traversals of the recorded configuration, so that the chapter's
    curves share their x values."""
    from deep_cfr import config_of

    runs = load_json("deep_cfr")["games"]["leduc"]["runs"]
    traversals = runs["Deep CFR"][0]["traversals"]
    assert any(run[0]["config"]["traversals"] == 125 for run in runs.values())
    for name, seeds in runs.items():
        config, checkpoints = config_of(name)
        for run in seeds:
            assert {k: v for k, v in run["config"].items() if k in config} == config, name
            assert tuple(run["iteration"]) == checkpoints, name
            if len(checkpoints) == len(traversals):
                assert run["traversals"] == traversals, name


def test_the_fit_study_reach_is_the_product_of_chance_and_both_players_reach():
    """benchmarks/deep_cfr_fit_study.py's P(I), against pi_c(h) pi_0(h) pi_1(h) summed over I."""
    from deep_cfr_fit_study import reach_of_infosets
    from cfrlib.subgame import _reaches
    tree = games.leduc().tree()
    rng = np.random.default_rng(0)
    sigma = np.where(tree.action_mask, rng.random(tree.action_mask.shape), 0.0)
    sigma /= sigma.sum(axis=1, keepdims=True)
    own = _reaches(tree, sigma)
    decision = np.flatnonzero(tree.infoset >= 0)
    expected = np.zeros(tree.num_infosets)
    np.add.at(expected, tree.infoset[decision], (tree.chance_reach * own[0] * own[1])[decision])
    np.testing.assert_allclose(reach_of_infosets(tree, sigma), expected, rtol=1e-12)
    first = tree.infoset_own_depth == 0        # each player's first decision: reached with probability 1
    np.testing.assert_allclose(reach_of_infosets(tree, sigma)[first & (tree.infoset_player == 0)].sum(), 1.0)


@pytest.mark.slow
def test_a_piece_of_the_fit_study_agrees_with_the_recorded_data():
    """benchmarks/deep_cfr_fit_study.py: the recorded configuration's advantage networks at the
    study's first point, training seed 0, again."""
    from deep_cfr_fit_study import study
    recorded = load_json("deep_cfr")["games"]["leduc"]["fit_study"]
    t = recorded["points"][0]
    rows = [r for r in recorded["rows"] if r["config"] == "recorded" and r["iteration"] == t]
    again = study((t,), ["recorded"], (rows[0]["seed"],))["rows"][0]
    # Float32 training on another CPU can differ in the last bits; the tolerance is the spread over
    # the study's training seeds (this machine repeats the numbers bit for bit).
    for column in ("distance", "excess_loss"):
        values = [r[column] for r in rows]
        assert abs(again[column] - rows[0][column]) <= max(values) - min(values), column
