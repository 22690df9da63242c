"""Depth-limited solving and continual re-solving (cfrlib.depth_limited).

Multi-valued leaves: Brown, Sandholm and Amos (2018), "Depth-Limited Solving for
Imperfect-Information Games" (the opponent picks one of several continuation strategies at the
depth limit; biased blueprints as continuations). Exact values over ranges: CFR-D, Burch, Johanson
and Bowling (2014), "Solving Imperfect Information Games Using Decomposition" (the first-round
average with the reach-weighted average of the leaf solutions converges to an equilibrium).
Continual re-solving: Moravcik et al. (2017), "DeepStack" (re-solving from the agent's range and
the opponent's carried counterfactual values loses nothing when each re-solve is exact). A value
function over ranges at the depth limit, exact or learned: DeepStack again (the network maps both
ranges at a public state to each hand's counterfactual values; in a zero-sum game the
range-weighted values of the two players sum to zero, the identity its outputs are corrected to).
"""

import numpy as np
import pytest

import cfrlib
from cfrbook.datasets import load_json
from cfrlib import games
from cfrlib.depth_limited import (BIAS, CONTINUATIONS, DepthLimitedSolver, ExactLeafValues, ExactValueCFR,
                                  ValueFunctionCFR, continual_resolving, expected_values, fit_value_network,
                                  search_study, value_samples)
from cfrlib.errors import SubgameError
from cfrlib.off_tree import off_tree_study
from cfrlib.subgame import SubgameSolver, chance_subgames, estimate_study, public_states


@pytest.fixture(scope="module")
def small():
    """Leduc with two ranks and one raise a round: 761 nodes, value 0."""
    return games.leduc(ranks=2, max_raises=1)


@pytest.fixture(scope="module")
def two_raises():
    """Leduc with two ranks and two raises a round: 1,985 nodes, value 0."""
    return games.leduc(ranks=2)


def test_expected_values_agree_with_the_evaluation(small):
    strategy = cfrlib.CFRPlus(small).iterate(5).average_strategy()
    values = expected_values(small.tree(), strategy.probs)
    assert values[0] == pytest.approx(cfrlib.expected_value(small, strategy), abs=1e-12)
    tree = small.tree()
    assert np.array_equal(values[tree.terminal_node], tree.terminal_payoff)


def test_the_depth_limit_and_the_public_states_of_leduc():
    leduc = games.leduc()
    tree = leduc.tree()
    leaves = chance_subgames(leduc, before_chance=True)
    assert [part.label for part in leaves] == ["? ? call call", "? ? raise call", "? ? call raise call",
                                               "? ? raise raise call", "? ? call raise raise call"]
    assert all(len(part.roots) == 30 and set(tree.player[list(part.roots)]) == {-1} for part in leaves)
    # their children are the 30 second-round subgames' roots
    after = {h for part in chance_subgames(leduc) for h in part.roots}
    below = {int(k) for part in leaves for h in part.roots
             for k in range(tree.first_child[h], tree.first_child[h] + tree.num_children[h])}
    assert after == below
    for player in (0, 1):
        states = public_states(leduc, player)
        roots = sorted(h for part in states for h in part.roots)
        assert roots == np.flatnonzero(tree.player == player).tolist()  # every decision node once
        depths = [np.searchsorted(tree.level_offsets, part.roots[0], side="right") for part in states]
        assert depths == sorted(depths)  # shallowest first
    assert public_states(leduc, 0)[0].label == "? ?"
    with pytest.raises(SubgameError, match="player must be 0 or 1"):
        public_states(leduc, 2)


def test_continuations_are_the_blueprint_biased_or_a_best_response(small):
    blueprint = cfrlib.uniform_strategy(small)
    solver = DepthLimitedSolver(small, blueprint)
    tree = small.tree()
    assert np.array_equal(solver.continuation("blueprint", 1), blueprint.probs)
    raised = solver.continuation("raise", 1)
    for I in range(tree.num_infosets):
        actions = tree.infoset_actions[I]
        n = len(actions)
        if solver.below[I] and tree.infoset_player[I] == 1 and "raise" in actions:
            # uniform over n actions, the raise weighted BIAS: BIAS / (n - 1 + BIAS)
            assert raised[I, actions.index("raise")] == pytest.approx(BIAS / (n - 1 + BIAS))
        else:
            assert np.array_equal(raised[I], blueprint.probs[I])
    best = solver.continuation("best response", 1)
    below = solver.below & (tree.infoset_player == 1)
    assert set(np.unique(best[below])) <= {0.0, 1.0}
    with pytest.raises(SubgameError, match="continuation must be one of"):
        solver.continuation("check", 1)
    with pytest.raises(SubgameError, match="at least one continuation"):
        solver.gadget(0, [])
    with pytest.raises(SubgameError, match="player must be 0 or 1"):
        solver.gadget(2, ["blueprint"])
    with pytest.raises(SubgameError, match="is not a subgame of"):
        ExactValueCFR(small, chance_subgames(games.leduc(), before_chance=True))
    with pytest.raises(SubgameError, match="no leaves"):
        DepthLimitedSolver(small, blueprint, [])


def test_depth_limited_solving_from_an_equilibrium(two_raises):
    """With an equilibrium blueprint the depth-limited game has the game's value once the opponent
    may pick a best response (the blueprint's first round guarantees it, the opponent's blueprint
    holds it); with the blueprint's values alone the solve is badly exploitable."""
    exact = cfrlib.solve_lp(two_raises)
    solver = DepthLimitedSolver(two_raises, exact.strategy)
    k_values = solver.gadget(0, CONTINUATIONS)
    # the first round's infosets, and player 1's choice at each leaf: 5 lines ending in a call, 4 cards
    trunk = int((~solver.below).sum())
    assert k_values.tree().num_infosets == trunk + 5 * 4
    for player in (0, 1):
        value = cfrlib.solve_lp(solver.gadget(player, ["blueprint", "best response"])).value
        assert value == pytest.approx(exact.value, abs=1e-9)
    found = {k: cfrlib.exploitability(two_raises, solver.solve(CONTINUATIONS[:k])) for k in (1, 4, 5)}
    assert found[1] == pytest.approx(2.575, abs=1e-6)
    assert found[1] > found[4] > found[5]
    assert found[5] == pytest.approx(0.0, abs=1e-9)


def test_exact_values_over_ranges_converge(small):
    solver = ExactValueCFR(small)
    solver.iterate(3)
    early = cfrlib.exploitability(small, solver.average_strategy())
    solver.iterate(27)
    late = cfrlib.exploitability(small, solver.average_strategy())
    assert solver.iterations == 30
    assert early == pytest.approx(0.0625, abs=1e-6)
    assert late < early / 50


@pytest.mark.slow  # a solve at every step: make test only
def test_continual_resolving_loses_nothing_when_each_solve_is_exact(small):
    assert cfrlib.exploitability(small, continual_resolving(small)) == pytest.approx(0.0, abs=1e-9)
    # with 10 CFR+ iterations a solve, the first decision plays CFR+'s average after 10 iterations
    agent = continual_resolving(small, 10)
    blueprint = cfrlib.CFRPlus(small).iterate(10).average_strategy()
    tree = small.tree()
    first = [int(tree.infoset[h]) for h in public_states(small, 0)[0].roots]
    assert np.allclose(agent.probs[first], blueprint.probs[first])
    assert cfrlib.exploitability(small, agent) > cfrlib.exploitability(small, blueprint)


def test_solving_one_player_keeps_the_others_blueprint(small):
    blueprint = cfrlib.CFRPlus(small).iterate(3).average_strategy()
    solver = SubgameSolver(small, blueprint, chance_subgames(small))
    one = solver.solve("resolve", players=(1,))
    zeros = small.tree().infoset_player == 0
    assert np.array_equal(one.probs[zeros], blueprint.probs[zeros])
    assert not np.array_equal(one.probs[~zeros], blueprint.probs[~zeros])
    with pytest.raises(SubgameError, match="players must be some of 0 and 1"):
        solver.solve("resolve", players=(2,))


def test_expected_values_below_given_nodes_are_left_out(small):
    tree = small.tree()
    probs = cfrlib.CFRPlus(small).iterate(3).average_strategy().probs
    leaves = chance_subgames(small, before_chance=True)
    roots = np.concatenate([np.array(part.roots) for part in leaves])
    full = expected_values(tree, probs)
    assert np.allclose(expected_values(tree, probs, roots, full[roots])[0], full[0], atol=1e-12)
    moved = expected_values(tree, probs, roots, full[roots] + 1.0)  # every leaf worth a chip more
    reach = tree.chance_reach * np.prod(SubgameSolver(small, probs, leaves).reach, axis=0)
    assert moved[0] == pytest.approx(full[0] + reach[roots].sum(), abs=1e-12)


def test_exact_leaf_values(small):
    """The exact value function: zero-sum, the same for any scale of the ranges' owner, and what
    ExactValueCFR's first iteration sees (the same regrets)."""
    exact = ExactLeafValues(small)
    rng = np.random.default_rng(0)
    r0, r1 = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    f = exact(1, r0, r1)
    assert f.shape == (2, 4)
    assert r0 @ f[0] + r1 @ f[1] == pytest.approx(0.0, abs=1e-12)
    # a card player 0 never holds still gets its best-response value (here: not zero)
    hole = exact(1, np.array([0.0, 0.5, 0.5, 0.0]), r1)
    assert hole[0, 0] != 0.0 and hole[0, 3] != 0.0
    ours = ValueFunctionCFR(small, exact).iterate(1)
    theirs = ExactValueCFR(small).iterate(1)
    trunk = ours.trunk
    assert np.allclose(ours.regret[trunk], theirs.regret[trunk], atol=1e-9)
    with pytest.raises(SubgameError, match="never bring the players together"):
        exact(0, np.array([1.0, 0, 0, 0]), np.array([1.0, 0, 0, 0]))
    from cfrlib.abstraction import abstract_game, rank_buckets

    with pytest.raises(SubgameError, match="private cards"):  # an abstract game has no cards
        ExactLeafValues(abstract_game(small, rank_buckets(small, 1)))


@pytest.mark.slow  # trains a network: make test only
def test_a_value_network_learns_the_leaf_values(small):
    rng = np.random.default_rng(1)
    x, y = value_samples(small, 60, rng)
    assert x.shape == (60, 3 + 4 + 4) and y.shape == (60, 8)  # 3 leaves, 4 cards
    net = fit_value_network(x, y, 3, rng, hidden=(32, 32), steps=1500, learning_rate=3e-3)
    assert np.abs(net.predict(x) - y).mean() < 0.2 * np.abs(y).mean()  # it fits what it was shown
    leaf = int(x[0, :3].argmax())
    assert np.allclose(net(leaf, x[0, 3:7], x[0, 7:]), net.predict(x[:1]).reshape(2, 4), atol=1e-6)
    agent = ValueFunctionCFR(small, net).iterate(5)
    assert agent.iterations == 5
    assert cfrlib.exploitability(small, agent.average_strategy()) < 1.0


@pytest.mark.slow
def test_a_short_rerun_agrees_with_the_recorded_study():
    """benchmarks/depth_limited_study.py's data: the first blueprint and its smallest search, the first iterations of exact
    values and the first off-tree size again."""
    recorded = load_json("depth_limited_study")["games"]["leduc"]
    leduc = games.leduc()
    first = recorded["rows"][0]
    (row,) = search_study(leduc, [first["iterations"]], ks=(1,))  # the smallest search of five
    assert row == pytest.approx({key: first[key] for key in row}, rel=1e-6, abs=1e-9)
    solver = ExactValueCFR(leduc).iterate(recorded["exact values"]["iterations"][0])
    assert cfrlib.exploitability(leduc, solver.average_strategy()) == pytest.approx(
        recorded["exact values"]["exploitability"][0], rel=1e-6)
    with pytest.raises(SubgameError, match="k must be between"):
        search_study(leduc, [1], ks=[0])
    off = recorded["off tree"]
    (row,) = off_tree_study(off["known sizes"], [off["rows"][0]["size"]])
    assert row == pytest.approx(off["rows"][0], rel=1e-6, abs=1e-9)
    for saved in off["rows"]:  # the reach gadget's guarantee
        assert saved["nested"] <= saved["translation"] + 1e-9
    # the learned values: the first training pairs again, and the recorded study's claims
    learned = recorded["learned values"]
    x, y = value_samples(leduc, 2, np.random.default_rng(0))
    for (xs, ys), a, b in zip(learned["first pairs"], x, y):
        assert np.allclose(a, xs, atol=1e-6) and np.allclose(b, ys, rtol=1e-5, atol=1e-7)
    sizes = [row["training pairs"] for row in learned["rows"]]
    assert sizes == sorted(sizes)
    # the estimated values: the coarsest abstraction again; the exact values are safe for each player
    estimates = recorded["estimated values"]["rows"]
    (row,) = estimate_study(leduc, [estimates[0]["k"]])
    assert _flat(row) == pytest.approx(_flat(estimates[0]), rel=1e-6, abs=1e-9)
    for saved in estimates:
        bounds = saved["exact best responses"]
        for method in ("resolve", "maxmargin", "reach"):
            assert saved["exact"][method] <= saved["blueprint"] + 1e-9
            assert all(a <= b + 1e-9 for a, b in zip(bounds[method], bounds["blueprint"]))


def _flat(value, key=""):
    """A nested record of dicts and lists as one dict of its numbers, keyed by their paths."""
    if isinstance(value, dict):
        return {k: v for name, item in value.items() for k, v in _flat(item, f"{key}/{name}").items()}
    if isinstance(value, list):
        return {k: v for n, item in enumerate(value) for k, v in _flat(item, f"{key}/{n}").items()}
    return {key: value}
