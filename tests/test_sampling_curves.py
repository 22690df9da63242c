"""The recorded curves of chapters 6 and 7 (``cfrbook/data/sampling_curves.json``) are what
``benchmarks/sampling_curves.py`` computes: a short re-run of every solver on every game gives the
recorded iterations, nodes touched and exploitability at the recorded evaluation points."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cfrbook import datasets

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "sampling_curves.py"
# How far to re-run, per solver (the recorded runs go 10 to 1,000 times further).
PREFIX = {"CFR": 12, "chance sampling": 40, "external sampling": 200, "outcome sampling": 2000}


def _script():
    spec = importlib.util.spec_from_file_location("sampling_curves", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game_name", ["leduc", pytest.param("bluff11", marks=pytest.mark.slow)])
def test_a_short_rerun_agrees_with_the_recorded_curves(game_name):
    script = _script()
    recorded = datasets.load_json("sampling_curves")["games"][game_name]
    game = script.GAMES[game_name]()
    assert set(recorded) == set(script.SOLVERS)
    for name, make in script.SOLVERS.items():
        solver = make(game)
        log = recorded[name]
        points = [k for k, it in enumerate(log["iteration"]) if it <= PREFIX[name]]
        assert len(points) >= 4, (name, log["iteration"][:5])
        for k in points:
            solver.iterate(log["iteration"][k] - solver.iterations)
            assert solver.nodes_touched == log["nodes_touched"][k], (game_name, name, k)
            assert solver.exploitability() == pytest.approx(log["exploitability"][k], rel=1e-9,
                                                            abs=1e-12), (game_name, name, k)


def test_cfr_is_counted_as_a_walk_that_prunes():
    # One rule for work in chapters 6 and 7: every solver counts the nodes its walk visits.
    # The first iteration walks everything (2|H|, each player's update); later ones skip the
    # subtrees that regret matching stopped reaching.
    log = datasets.load_json("sampling_curves")["games"]["bluff11"]["CFR"]
    histories = _script().GAMES["bluff11"]().tree().num_nodes
    assert log["nodes_touched"][1] == 2 * histories
    assert log["nodes_touched"][-1] < 0.5 * 2 * histories * log["iteration"][-1]


def test_the_cost_of_a_node_is_recorded_side_by_side():
    # Chapters 6 and 7 quote these timings: every solver on every game, the script's rounds.
    script = _script()
    per_node = datasets.load_json("sampling_curves")["per_node"]
    assert set(per_node) == set(script.GAMES)
    for game_name, costs in per_node.items():
        assert set(costs) == set(script.SOLVERS), game_name
        assert all(len(rounds) == script.ROUNDS and min(rounds) > 0 for rounds in costs.values())


def test_per_node_costs_take_turns_and_count_every_round():
    from cfrlib import games

    script = _script()
    game = games.kuhn()
    solvers = {name: make(game) for name, make in script.SOLVERS.items()}
    costs = script.per_node_costs(solvers, rounds=2, seconds=0.002)
    assert set(costs) == set(solvers) and all(len(c) == 2 and min(c) > 0 for c in costs.values())
