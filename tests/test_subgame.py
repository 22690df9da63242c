"""Coin Toss and subgame solving (cfrlib.subgame).

Coin Toss and the argument that re-solving its Play subgame alone can be exploited: Brown and
Sandholm (2017), "Safe and Nested Subgame Solving for Imperfect-Information Games", Section 2
(P2's unique equilibrium guess is heads 1/4; the subgame alone is indifferent between guesses,
and a 50/50 guess lets P1 sell on heads and play on tails for +1/4). The safe methods' guarantee
(no opponent infoset gains against the re-solved strategy): Burch, Johanson and Bowling (2014,
re-solve), Moravcik et al. (2016, maxmargin), Brown and Sandholm (2017, reach).
"""

import numpy as np
import pytest

import cfrlib
from cfrbook.datasets import load_json
from cfrlib import games
from cfrlib.errors import GameError, SolverError, SubgameError
from cfrlib.subgame import (METHODS, SubgameSolver, blueprint_study, chance_subgames, resolve_subgames,
                            subgames)

PLAY = [("H", "play"), ("T", "play")]


def coin_blueprint(game, heads, play=0.5):
    """Player 0 plays with probability ``play`` on either coin; player 1 guesses heads with ``heads``."""
    return cfrlib.Strategy.from_dict(game, {
        "H": {"sell": 1 - play, "play": play}, "T": {"sell": 1 - play, "play": play},
        "play": {"heads": heads, "tails": 1 - heads}})


def test_coin_toss_value_and_equilibrium():
    game = games.coin_toss()
    tree = game.tree()
    assert (tree.num_nodes, tree.num_terminals, tree.num_infosets) == (11, 6, 3)
    solution = cfrlib.solve_lp(game)
    assert solution.value == pytest.approx(0.0, abs=1e-12)
    assert solution.strategy["play"]["heads"] == pytest.approx(0.25, abs=1e-9)
    for play in (0.0, 0.5, 1.0):  # player 0 plays equally often on heads and tails
        assert cfrlib.nash_conv(game, coin_blueprint(game, 0.25, play)) == pytest.approx(0.0, abs=1e-15)
    # P1's gain against a guess of heads with probability p is |p - 1/4| (the Sell branch pins it)
    for p in (0.0, 0.1, 0.5, 1.0):
        gain = cfrlib.best_response_value(game, coin_blueprint(game, p), 0)
        assert gain == pytest.approx(abs(p - 0.25), abs=1e-15)


def test_coin_toss_with_the_sell_values_swapped_guesses_heads_three_quarters():
    game = games.coin_toss(sell=(-0.5, 0.5))
    assert cfrlib.solve_lp(game).strategy["play"]["heads"] == pytest.approx(0.75, abs=1e-9)
    with pytest.raises(GameError, match="sell must be two numbers"):
        games.coin_toss(sell=(1.0,))


def test_coin_toss_unsafe_is_exploitable_and_the_safe_methods_are_not():
    game = games.coin_toss()
    parts = subgames(game, PLAY)
    assert [p.label for p in parts] == ["? play"]
    solver = SubgameSolver(game, coin_blueprint(game, 0.25), parts)
    # the Play subgame alone, with 50/50 beliefs: CFR+ stays at its uniform start, 50/50
    unsafe = solver.solve("unsafe", iterations=10)
    assert unsafe["play"]["heads"] == 0.5
    assert cfrlib.best_response_value(game, unsafe, 0) == pytest.approx(0.25, abs=1e-15)
    assert cfrlib.exploitability(game, unsafe) == pytest.approx(0.125, abs=1e-15)
    for method in METHODS[1:]:
        assert solver.solve(method)["play"]["heads"] == pytest.approx(0.25, abs=1e-9)
        assert cfrlib.exploitability(game, solver.solve(method)) == pytest.approx(0.0, abs=1e-9)


def test_coin_toss_reach_uses_the_gift_of_playing_heads():
    """Blueprint guess 0.3: playing on heads earns P1 1 - 2 * 0.3 = 0.4 < 0.5 for selling, a gift
    of 0.1 a heads coin; reach lets heads' value rise to 0.5 and balances the margins at 0.275."""
    game = games.coin_toss()
    parts = subgames(game, PLAY)
    solver = SubgameSolver(game, coin_blueprint(game, 0.3), parts)
    assert solver.alternatives(parts[0], "resolve", 0) == pytest.approx({"H play": 0.4, "T play": -0.4})
    assert solver.alternatives(parts[0], "reach", 0) == pytest.approx({"H play": 0.5, "T play": -0.4})
    expected = {"blueprint": 0.025, "resolve": 0.025, "maxmargin": 0.025, "reach": 0.0125}
    found = solver.exploitabilities()
    assert {k: found[k] for k in expected} == pytest.approx(expected, abs=1e-9)
    assert solver.solve("reach")["play"]["heads"] == pytest.approx(0.275, abs=1e-9)
    # the gadget is a game like any other: CFR+ approaches the LP's answer
    approx = solver.solve("reach", iterations=2000)["play"]["heads"]
    assert approx == pytest.approx(0.275, abs=2e-3)


@pytest.fixture(scope="module")
def leduc_parts():
    game = games.leduc()
    return game, chance_subgames(game)


def test_leduc_second_round_subgames(leduc_parts):
    game, parts = leduc_parts
    # 5 round-1 betting sequences end in a call (cc, rc, crc, rrc, crrc), times 6 board cards;
    # each has 5 * 4 deals of the private cards
    assert len(parts) == 30
    assert all(len(p.roots) == 20 for p in parts)
    assert sorted({p.label.rsplit(" ", 1)[0] for p in parts}) == [
        "? ? call call", "? ? call raise call", "? ? call raise raise call",
        "? ? raise call", "? ? raise raise call"]


@pytest.mark.slow  # three Leduc blueprints and their resolvings: make test only
@pytest.mark.parametrize("iterations", [10, 30, 100])
def test_leduc_safe_methods_never_raise_a_best_response(leduc_parts, iterations):
    game, parts = leduc_parts
    blueprint = cfrlib.CFRPlus(game).iterate(iterations).average_strategy()
    solver = SubgameSolver(game, blueprint, parts)
    before = [cfrlib.best_response_value(game, blueprint, o) for o in (0, 1)]
    found = {}
    for method in METHODS[1:]:
        combined = solver.solve(method)
        for o in (0, 1):  # each player's part is safe on its own
            assert cfrlib.best_response_value(game, combined, o) <= before[o] + 1e-8, (method, o)
        found[method] = cfrlib.exploitability(game, combined)
        assert found[method] <= cfrlib.exploitability(game, blueprint) + 1e-8
    assert found["reach"] <= found["resolve"] + 1e-8


@pytest.mark.slow
def test_leduc_resolving_an_equilibrium_keeps_it_one(leduc_parts):
    game, parts = leduc_parts
    equilibrium = cfrlib.solve_lp(game).strategy
    solver = SubgameSolver(game, equilibrium, parts)
    for method in METHODS[1:]:
        assert cfrlib.exploitability(game, solver.solve(method)) < 1e-7


def test_resolve_subgames_is_the_solver_shorthand():
    game = games.coin_toss()
    parts = subgames(game, PLAY)
    blueprint = coin_blueprint(game, 0.3)
    assert resolve_subgames(game, blueprint, parts, "reach") == SubgameSolver(game, blueprint, parts).solve("reach")


def test_unreached_subgames_keep_the_blueprint():
    game = games.coin_toss()
    never = coin_blueprint(game, 0.3, play=0.0)  # player 0 always sells: no belief in Play
    solver = SubgameSolver(game, never, subgames(game, PLAY))
    assert solver.solve("unsafe") == never
    with pytest.raises(SubgameError, match="never reaches"):
        solver.gadget(solver.parts[0], "unsafe")



def test_each_gadget_is_solved_once(monkeypatch):
    import cfrlib.subgame as module

    game = games.coin_toss()
    fresh = SubgameSolver(game, coin_blueprint(game, 0.3), subgames(game, PLAY)).solve("reach")
    solved = []
    solve = module._solve
    monkeypatch.setattr(module, "_solve", lambda game, iterations: solved.append(
        (game.name, iterations)) or solve(game, iterations))
    solver = SubgameSolver(game, coin_blueprint(game, 0.3), subgames(game, PLAY))
    assert solver.solve("reach") == solver.solve("reach") == fresh
    assert len(solved) == 2                        # one gadget per refined player, solved once
    solver.solve("reach", iterations=10)           # another solve: solved anew
    solver.solve("reach", players=(1,))            # player 1's gadget of the first call, kept
    assert len(solved) == 4 and solved[2:] == [(name, 10) for name, _ in solved[:2]]


def test_bad_input():
    game = games.coin_toss()
    blueprint = coin_blueprint(game, 0.3)
    with pytest.raises(SubgameError, match="has no action 'fold'"):
        subgames(game, [("H", "fold")])
    with pytest.raises(SubgameError, match="not closed.*'play' has 1 of its 2"):
        subgames(game, [("H", "play")])
    with pytest.raises(SubgameError, match="terminal"):
        subgames(game, [("H", "sell")])
    with pytest.raises(SubgameError, match="below one another"):
        subgames(game, [("H",), ("T",), ("H", "play"), ("T", "play")])
    with pytest.raises(SubgameError, match="given twice"):
        subgames(game, PLAY + PLAY[:1])
    with pytest.raises(SubgameError, match="no subgame roots"):
        subgames(game, [])
    with pytest.raises(SubgameError, match="no chance node after"):
        chance_subgames(games.kuhn())
    solver = SubgameSolver(game, blueprint, subgames(game, PLAY))
    with pytest.raises(SubgameError, match="method must be one of"):
        solver.solve("safe")
    with pytest.raises(SubgameError, match="method must be one of"):
        solver.alternatives(solver.parts[0], "unsafe", 0)
    with pytest.raises(SubgameError, match="player must be 0 or 1"):
        solver.gadget(solver.parts[0], "resolve", 2)
    with pytest.raises(SolverError, match="iterations"):
        solver.solve("reach", iterations=-1)
    with pytest.raises(SubgameError, match="no subgames"):
        SubgameSolver(game, blueprint, [])
    with pytest.raises(SubgameError, match="not a subgame of coin_toss"):
        SubgameSolver(game, blueprint, chance_subgames(games.leduc())[:1])
    with pytest.raises(SubgameError, match="overlap"):
        SubgameSolver(game, blueprint, subgames(game, PLAY) * 2)


@pytest.mark.slow
def test_a_short_rerun_agrees_with_the_recorded_study():
    """benchmarks/subgame_study.py's data: the first blueprints again, and the guarantees on every row."""
    recorded = load_json("subgame_study")["games"]["leduc"]
    rows = blueprint_study(games.leduc(), recorded["checkpoints"][:2])
    for row, saved in zip(rows, recorded["rows"]):
        assert row == pytest.approx(saved, rel=1e-6, abs=1e-9)
    for saved in recorded["rows"]:
        for method in METHODS[1:]:
            assert saved[method] <= saved["blueprint"] + 1e-8
    with pytest.raises(SubgameError, match="increasing"):
        blueprint_study(games.leduc(), [10, 5])


def test_the_chapter_exercises_computed_by_hand():
    """Chapter 14: swapped Sell payoffs make the guess 3/4; reach against q = 0.4 guesses 0.325."""
    assert cfrlib.solve_lp(games.coin_toss(sell=(-0.5, 0.5))).strategy["play"]["heads"] == pytest.approx(0.75)
    game = games.coin_toss()
    reach = SubgameSolver(game, coin_blueprint(game, 0.4), subgames(game, PLAY)).solve("reach")
    assert reach["play"]["heads"] == pytest.approx(0.325, abs=1e-9)
    assert cfrlib.exploitability(game, reach) == pytest.approx(0.0375, abs=1e-9)


@pytest.fixture(scope="module")
def two_rank_abstractions():
    """Leduc with two ranks and one raise a round, its LP blueprints abstracted to 1 bucket (the
    player cannot tell its cards apart) and to 2 (every rank its own bucket: nothing is lost)."""
    from cfrlib.abstraction import abstract_game, lift_strategy, rank_buckets

    game = games.leduc(ranks=2, max_raises=1)
    out = {}
    for k in (1, 2):
        buckets = rank_buckets(game, k)
        abstract = cfrlib.solve_lp(abstract_game(game, buckets)).strategy
        out[k] = (abstract, lift_strategy(abstract, game, buckets))
    return game, chance_subgames(game), out


def test_the_gifts_are_the_best_response_action_values(two_rank_abstractions):
    """CBV(J, b) summed from the node values equals the sequence-form best-response pass."""
    from cfrlib.evaluation import counterfactual_values
    from cfrlib.subgame import _action_sums

    game, parts, found = two_rank_abstractions
    tree, blueprint = game.tree(), found[1][1]
    solver = SubgameSolver(game, blueprint, parts)
    for o in (0, 1):
        q, _ = counterfactual_values(tree, blueprint.probs, o, best_response=True)
        mine = (tree.infoset_player == o)[:, None] & tree.action_mask
        summed = _action_sums(tree, o, solver._cbv(o))
        assert np.allclose(summed[mine], q[:-1].reshape(tree.action_mask.shape)[mine], atol=1e-12)


def test_estimated_values_from_an_abstraction(two_rank_abstractions):
    """Values estimated in the abstraction: the opponent best responds knowing only its buckets, so
    at every root infoset it gets at most its real best response's value; with every rank its own
    bucket the estimates are the exact values."""
    game, parts, found = two_rank_abstractions
    for k, (abstract, lifted) in found.items():
        exact, estimated = SubgameSolver(game, lifted, parts), SubgameSolver(game, lifted, parts, values=abstract)
        gaps = [exact.alternatives(part, method, o)[g] - value
                for part in parts for o in (0, 1) for method in ("resolve", "reach")
                for g, value in estimated.alternatives(part, method, o).items()]
        if k == 1:
            assert min(gaps) >= -1e-12 and max(gaps) > 0.1
        else:
            assert np.allclose(gaps, 0.0, atol=1e-12)
    same = SubgameSolver(game, found[1][1], parts, values=found[1][1])
    assert same.alternatives(parts[0], "reach", 0) == SubgameSolver(game, found[1][1], parts).alternatives(parts[0], "reach", 0)
    with pytest.raises(SubgameError, match="values must be a strategy of"):
        SubgameSolver(game, found[1][1], parts, values=cfrlib.uniform_strategy(games.kuhn()))


@pytest.mark.parametrize("game", [games.kuhn(), games.leduc(), games.bluff(sides=4)], ids=lambda g: g.name)
def test_each_players_reach_is_the_product_of_their_own_moves_from_the_root(game):
    """``_reaches(tree, probs)[p, h]``, read off ``p``'s realization plan, is the product of ``p``'s
    action probabilities on the path to ``h`` taken from the root down, bit for bit."""
    from cfrlib.subgame import _reaches
    tree = game.tree()
    rng = np.random.default_rng(1)
    probs = np.where(tree.action_mask, rng.random(tree.action_mask.shape), 0.0)
    probs[rng.random(probs.shape) < 0.2] = 0.0
    probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-300)
    reach = _reaches(tree, probs)
    expected = np.ones((2, tree.num_nodes))
    for h in range(1, tree.num_nodes):  # parents come before their children
        up = tree.parent[h]
        expected[:, h] = expected[:, up]
        if tree.player[up] in (0, 1):
            expected[tree.player[up], h] = expected[tree.player[up], up] * probs[tree.infoset[up], tree.action[h]]
    assert np.array_equal(reach, expected)
