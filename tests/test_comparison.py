"""The comparison study of chapter 10 (``cfrbook.comparison``, ``benchmarks/comparison.py``).

What is checked: the samplers' runs with the further seeds on Kuhn reproduce the committed data
(the study's own runs are re-run by chapter 10, which prints for Kuhn and Leduc with 288 infosets
that every variant's iterations, nodes touched and exploitability are those committed, a line
strict nbval compares);
the evaluation schedule makes shorter runs prefixes of longer ones; the node budget stops a
run where it should; the committed data keep their own promises (budgets, game sizes, the
1000-iteration point); rankings and readings; clear errors on bad input.
"""

import json

import numpy as np
import pytest

from cfrbook import comparison, datasets
from cfrlib import games
from cfrlib.errors import GameError, SolverError
from cfrlib.solvers import ConvergenceLog, OutcomeSamplingMCCFR
from cfrlib.solvers.fullwidth import CFR
from cfrlib.solvers.sampling.common import SamplingSolver

DATA = datasets.source_path("comparison")


@pytest.fixture(scope="module")
def data():
    return json.loads(DATA.read_text())


def test_the_samplers_further_seeds_reproduce_the_committed_data(data):
    settings = data["settings"]
    entry = data["games"]["kuhn"]
    samplers = list(settings["sampler_caps"]["kuhn"])
    assert [int(seed) for seed in entry["sampler_seeds"]] == settings["sampler_seeds"]
    assert settings["seed"] not in settings["sampler_seeds"]
    for key in data["games"]:  # every game holds every seed of every sampler, to the budget
        for seed, logs in data["games"][key]["sampler_seeds"].items():
            assert list(logs) == samplers, (key, seed)
            assert all(log["nodes_touched"][-1] >= data["games"][key]["node_budget"]
                       for log in logs.values()), (key, seed)
    seed = settings["sampler_seeds"][0]
    logs = comparison.run_study("kuhn", settings["iterations"], variants=samplers, seed=seed)
    for name, log in logs.items():
        fresh, committed = log.to_dict(), entry["sampler_seeds"][str(seed)][name]
        for column in ("iteration", "nodes_touched", "exploitability"):
            assert fresh[column] == committed[column], (name, column)


def test_the_anchors_were_timed_in_the_same_run(data):
    anchors = data["anchors"]
    assert anchors["game"] == "leduc" and anchors["openspiel_game"] == "leduc_poker"
    for library in ("cfrlib", "openspiel"):
        for name, value in anchors["ms"][library].items():
            assert value == sorted(anchors["ms_all"][library][name])[anchors["rounds"] // 2], name
    assert anchors["machine"]["cpu"] and anchors["machine"]["cores"]


def test_schedule_is_a_prefix_of_longer_schedules():
    long = comparison.schedule(10**5)
    for limit in (1, 7, 100, 999, 1000, 2000):
        assert comparison.schedule(limit) == [k for k in long if k <= limit]
    assert comparison.schedule(1000)[:8] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {1, 10, 100, 1000, 10**4, 10**5} <= set(long)
    assert all(b > a for a, b in zip(long, long[1:]))
    assert comparison.schedule(0) == []


@pytest.mark.slow  # two studies: make test only
def test_curves_of_shorter_runs_are_prefixes():
    short = comparison.run_study("kuhn", 100, equal_nodes=False)
    long = comparison.run_study("kuhn", 1000, equal_nodes=False)
    for name in comparison.VARIANTS:
        assert short[name].iteration[-1] == 100
        prefix = long[name].rows[:len(short[name].rows)]
        assert [r[:2] + r[3:] for r in short[name].rows] == [r[:2] + r[3:] for r in prefix], name


def test_curve_evaluates_on_the_schedule_and_at_the_end():
    log = comparison.convergence_curve(CFR(games.kuhn()), 37)
    assert log.iteration.tolist() == [0] + comparison.schedule(37) + [37]
    assert log.nodes_touched.tolist() == [2 * 58 * k for k in log.iteration]
    again = CFR(games.kuhn()).iterate(37)
    assert log.exploitability[-1] == again.exploitability()


def test_node_budget_stops_the_run_where_it_is_reached():
    kuhn = games.kuhn()
    budget = 5000
    log = comparison.convergence_curve(OutcomeSamplingMCCFR(kuhn, seed=3), 10**6, nodes=budget)
    nodes = log.nodes_touched
    assert nodes[-1] >= budget and nodes[-2] < budget
    # at most one outcome-sampling iteration (two paths of at most depth + 1 nodes) too many
    assert nodes[-1] - budget < 2 * (kuhn.tree().depth_max + 1)
    # stepping towards the budget changes nothing: the same iterations in one go agree
    plain = OutcomeSamplingMCCFR(kuhn, seed=3).iterate(int(log.iteration[-1]))
    assert plain.nodes_touched == nodes[-1]
    assert plain.exploitability() == log.exploitability[-1]
    capped = comparison.convergence_curve(OutcomeSamplingMCCFR(kuhn, seed=3), 50, nodes=10**9)
    assert capped.iteration[-1] == 50


def test_node_budget_is_alternating_cfr_work_counted_as_its_walk_touches_nodes():
    for game, T in ((games.kuhn(), 1000), (games.leduc(), 50)):
        budget = comparison.node_budget(game, T)
        assert budget == CFR(game, count_pruned=True).iterate(T).nodes_touched
        # one walk of the |H| histories per player and iteration, less the cut subtrees
        full = 2 * game.tree().num_nodes * T
        assert full > budget > (0.99 * full if game.name == "kuhn" else 0.5 * full), game.name


def test_every_variant_counts_its_nodes_by_the_same_rule():
    """Full-width variants count the walk with unreachable subtrees cut, as samplers do."""
    leduc = games.leduc()
    for name in comparison.VARIANTS:
        solver = comparison.make_solver(name, leduc)
        if not isinstance(solver, SamplingSolver):
            assert solver.count_pruned, name


def test_equal_nodes_runs_reach_the_budget_and_t_iterations():
    logs = comparison.run_study("leduc288", 20, variants=["CFR alt.", "CFR simult.", "CFR+"])
    budget = comparison.node_budget(comparison.make_game("leduc288"), 20)
    assert logs["CFR alt."].iteration[-1] == 20 and logs["CFR alt."].nodes_touched[-1] == budget
    for log in logs.values():
        assert 20 in log.iteration.tolist() and log.nodes_touched[-1] >= budget
    # simultaneous updates cut more (a subtree goes once both players' reaches are 0)
    assert logs["CFR simult."].iteration[-1] > 40


def test_committed_data_keep_their_budgets(data):
    iterations = data["settings"]["iterations"]
    assert list(data["games"]) == list(comparison.GAMES)
    for key, entry in data["games"].items():
        budget = entry["node_budget"]
        assert budget == entry["logs"]["CFR alt."]["nodes_touched"][-1]
        assert budget <= 2 * entry["nodes"] * iterations
        caps = data["settings"]["sampler_caps"][key]
        cap = data["settings"]["full_width_cap"] * iterations
        for name, raw in entry["logs"].items():
            log = ConvergenceLog.from_dict(raw)
            assert iterations in log.iteration.tolist(), (key, name)
            assert np.all(np.diff(log.iteration) > 0) and np.all(np.diff(log.nodes_touched) > 0)
            reached = log.nodes_touched[-1] >= budget
            assert reached or log.iteration[-1] == caps.get(name, cap), (key, name)
            assert log.nodes_touched[-2] < budget or log.iteration[-1] == iterations, (key, name)


@pytest.mark.parametrize("key", ["kuhn", "leduc288", "leduc"])
def test_committed_game_sizes(data, key):
    tree = comparison.make_game(key).tree()
    entry = data["games"][key]
    assert (entry["nodes"], entry["infosets"]) == (tree.num_nodes, tree.num_infosets)
    assert entry["name"] == comparison.make_game(key).name


def test_short_deck_size_is_the_one_the_chapter_states(data):
    entry = data["games"]["short_deck"]
    assert entry["infosets"] == 31_872
    assert entry["name"] == games.leduc(ranks=6, suits=2, max_raises=7).name


def test_ranking_and_reading_a_log_at_a_budget():
    log_a = ConvergenceLog("a", [(0, 0, 0.0, 1.0), (10, 100, 0.1, 0.5), (20, 200, 0.2, 0.1)])
    log_b = ConvergenceLog("b", [(0, 0, 0.0, 1.0), (10, 50, 0.3, 0.3), (30, 150, 0.9, 0.2)])
    logs = {"a": log_a, "b": log_b}
    assert log_a.row_at(150, "nodes_touched") == (10, 100, 0.1, 0.5)
    assert log_a.row_at(5.0, "seconds") == (20, 200, 0.2, 0.1)
    assert log_b.exploitability_at(149) == 0.3
    assert [n for n, _ in comparison.ranking(logs, "iteration", 10)] == ["b", "a"]
    assert [n for n, _ in comparison.ranking(logs)] == ["a", "b"]
    assert [n for n, _ in comparison.ranking(logs, None, 120)] == ["a", "b"]
    assert [n for n, _ in comparison.ranking(logs, None, 60)] == ["b", "a"]   # (30, 150) vs (10, 100)
    assert [n for n, _ in comparison.ranking(logs, "nodes_touched", 150)] == ["b", "a"]
    with pytest.raises(SolverError, match="'b' was not evaluated at iteration 20"):
        comparison.ranking(logs, "iteration", 20)
    with pytest.raises(SolverError, match="no evaluation with nodes_touched <= -1"):
        log_a.row_at(-1, "nodes_touched")
    with pytest.raises(SolverError, match="column must be one of"):
        log_a.row_at(1, "exploitability")
    with pytest.raises(SolverError, match="ranking: column='seconds' needs a budget"):
        comparison.ranking(logs, "seconds")


def test_bad_input_is_named():
    with pytest.raises(GameError, match="unknown game 'holdem'.*'kuhn'"):
        comparison.make_game("holdem")
    with pytest.raises(SolverError, match=r"unknown variant 'CFR\+\+'.*'CFR\+'"):
        comparison.run_study("kuhn", 10, variants=["CFR++"])
    with pytest.raises(SolverError, match="iterations must be a non-negative integer"):
        comparison.run_study("kuhn", 2.5)
    with pytest.raises(SolverError, match="growth must be a number above 1"):
        comparison.schedule(10, growth=1.0)


def test_thesis_variants_and_styles_cover_the_study():
    assert set(comparison.THESIS_RANKING) == set(comparison.THESIS_VARIANTS)
    assert set(comparison.STYLES) == set(comparison.VARIANTS)
