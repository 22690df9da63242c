"""The implement-it-yourself exercises of chapters 6 to 10, run as the chapters show them, and
the variant palette of the figures.

The folded solution of chapter 6's exercise is executed exactly as printed in the notebook
(tests/notebook_code.py) and must reproduce cfrlib's external-sampling solver bit for bit with
the same seed: both draw one uniform number per chance and opponent node, in the same order.
"""

import itertools

import numpy as np
import pytest

import cfrlib
from cfrbook import comparison, plotting
from cfrlib import games
from cfrlib.errors import CfrlibError
from notebook_code import run_solution, solution_code

CH6 = "06_monte_carlo_cfr.ipynb"


@pytest.fixture(scope="module")
def external_sampling_solution():
    return run_solution(CH6, "ch6-implement-es")


def _reference_tables(game, iterations, seed):
    solver = cfrlib.ExternalSamplingMCCFR(game, seed=seed, backend="tree").iterate(iterations)
    tree = game.tree()
    keys = [(int(p), k) for p, k in zip(tree.infoset_player, tree.infoset_keys)]
    return solver, keys


@pytest.mark.parametrize("seed", [0, 7])
def test_chapter6_solution_reproduces_cfrlib_external_sampling_on_kuhn(
        external_sampling_solution, seed):
    ns = external_sampling_solution
    kuhn = games.kuhn()
    rng = np.random.default_rng(seed)
    regret, strategy_sum = {}, {}
    for _ in range(1000):
        for i in (0, 1):
            ns["es_walk"](kuhn.initial_state(), i, regret, strategy_sum, rng)
    solver, keys = _reference_tables(kuhn, 1000, seed)
    # The tables themselves, exactly (no tolerance): regrets and average-strategy sums.
    assert {k: regret[k] for k in keys} == dict(zip(keys, solver.regret))
    assert {k: strategy_sum[k] for k in keys} == dict(zip(keys, solver.strategy_sum))
    # And the average strategy the exercise's checker compares.
    average = ns["es_train"](kuhn, 1000, seed)
    probs = solver.average_strategy().probs
    for I, key in enumerate(keys):
        assert average[key] == probs[I, :len(solver.regret[I])].tolist(), key


def test_chapter6_solution_reproduces_cfrlib_on_leduc_where_infosets_met_so_far(
        external_sampling_solution):
    leduc = games.leduc()
    average = external_sampling_solution["es_train"](leduc, 30, 3)
    solver, keys = _reference_tables(leduc, 30, 3)
    probs = solver.average_strategy().probs
    assert 0 < len(average) < leduc.tree().num_infosets
    for I, key in enumerate(keys):
        width = len(solver.regret[I])
        # Infosets the walk never met are uniform in cfrlib's average strategy.
        expected = average.get(key, [1.0 / width] * width)
        assert expected == probs[I, :width].tolist(), key


def test_chapter6_skeleton_is_not_the_solution():
    # The cell the reader fills in raises until it is written; the checker reports that.
    import nbformat

    from notebook_code import CHAPTERS
    cells = nbformat.read(CHAPTERS / CH6, as_version=4).cells
    skeleton = next(c for c in cells if c.cell_type == "code" and "def es_walk" in c.source)
    assert "raise NotImplementedError" in skeleton.source
    checker = next(c for c in cells if c.cell_type == "code"
                   and "check_external_sampling(es_train)" in c.source)
    printed = "".join(o.get("text", "") for o in checker.outputs)
    assert printed.startswith("not implemented yet")
    assert "raise NotImplementedError" not in solution_code(CH6, "ch6-implement-es")


def test_every_variant_of_the_comparison_has_its_own_colour_line_style_and_marker():
    # Chapter 13's re-solved strategies share a figure only with their blueprint, CFR+: they are
    # checked as a family of their own.
    # Chapter 14's Deep CFR runs share one with tabular external sampling.
    subgame_methods = {"unsafe", "re-solve", "maxmargin", "reach"}
    deep_cfr = {"Deep CFR", "Deep CFR, unweighted", "Deep CFR, exact average", "ES-MCCFR",
                "ES-MCCFR, suits merged"}
    assert set(plotting.VARIANT_STYLES) == (set(comparison.VARIANTS) | set(comparison.FRONTIER_VARIANTS)
                                            | subgame_methods | deep_cfr)
    for family in (set(comparison.VARIANTS) | set(comparison.FRONTIER_VARIANTS), subgame_methods | {"CFR+"},
                   deep_cfr):
        _one_look_each({name: plotting.VARIANT_STYLES[name] for name in family})
    for a, b in (("DCFR alt.", "Linear CFR"), ("CFR+", "PCFR+")):
        # The pairs that used to look alike (near-identical hues) now differ in colour and style.
        assert plotting.VARIANT_STYLES[a]["color"] != plotting.VARIANT_STYLES[b]["color"]
        assert plotting.VARIANT_STYLES[a]["ls"] != plotting.VARIANT_STYLES[b]["ls"]
    assert set(s["color"] for s in plotting.VARIANT_STYLES.values()) <= set(
        plotting.OKABE_ITO.values())


def _one_look_each(styles):
    looks = {name: (s["color"], str(s["ls"]), s["marker"]) for name, s in styles.items()}
    for a, b in itertools.combinations(looks, 2):
        assert looks[a] != looks[b], (a, b)
    # Markers alone tell every variant apart (grey print, colour-blind readers) ...
    assert len({marker for _, _, marker in looks.values()}) == len(looks)
    # ... and so do (colour, line style) pairs, without the markers.
    assert len({(c, ls) for c, ls, _ in looks.values()}) == len(looks)


def test_variant_style_draws_and_names_a_bad_variant():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    line, = ax.plot([1, 2, 3], [3, 2, 1], **plotting.variant_style("PCFR+", lw=3))
    assert line.get_marker() == "X" and line.get_linewidth() == 3
    assert line.get_color() == plotting.OKABE_ITO["sky blue"]
    assert comparison.STYLES["CFR simult."]["ls"] == "--"   # simultaneous updates: dashed
    plt.close(fig)
    with pytest.raises(CfrlibError, match="no style for 'CFR\\+\\+'"):
        plotting.variant_style("CFR++")


def test_chapter12_step_by_hand_is_what_cfrlib_computes():
    """Chapter 12's exercise computed by hand: R^4 = (3, 0, 1); CFR+ plays (3/4, 0, 1/4), PCFR+
    (0, 0, 1), SAPCFR+ (3/5, 0, 2/5); DCFR+'s factor d_4 = 8/9. The folded solution's code, run as
    printed, gives these numbers from cfrlib's own regret minimizers."""
    ns = run_solution("12_frontier.ipynb", "ch12-by-hand")
    assert ns["R"][0].tolist() == [3.0, 0.0, 1.0]
    assert ns["cfr_plus"] == pytest.approx([3 / 4, 0, 1 / 4], abs=1e-15)
    assert ns["pcfr_plus"] == pytest.approx([0, 0, 1], abs=1e-15)
    assert ns["sapcfr_plus"] == pytest.approx([3 / 5, 0, 2 / 5], abs=1e-15)
    assert ns["d4"] == pytest.approx(8 / 9, abs=1e-15)


@pytest.mark.parametrize("baseline, sent_up", [((0.0, 0.0), {3.0, -1.0}), ((2.5, -0.5), {1.5, 0.5}),
                                               ((3.0, -1.0), {1.0})])
def test_ch6_baseline_exercise(baseline, sent_up):
    """Exercise ch6-baseline: player 0 picks x (to player 1's node o, uniform, ending at 3 or -1)
    or y (0) uniformly (epsilon = 1); when x is drawn, the regret R(I, x) after player 0's
    trajectory is exactly the value o sent up, 2v - v. Over 40 seeds, both draws of o appear."""
    from toy_games import TupleGame

    game = TupleGame(("player", 0, "I", [("x", ("player", 1, "o", [("a", ("terminal", 3.0, -3.0)),
                                                                      ("b", ("terminal", -1.0, 1.0))])),
                                         ("y", ("terminal", 0.0, 0.0))]))
    tree = game.tree()
    o = tree.infoset_node[tree.infoset_index(1, "o")]
    table = np.zeros((2, tree.num_nodes))
    table[0, tree.first_child[o]:tree.first_child[o] + 2] = baseline
    seen = set()
    for seed in range(40):
        solver = cfrlib.OutcomeSamplingMCCFR(game, seed=seed, epsilon=1.0, baseline="learned")
        shape = tree.action_mask.shape
        solver._restore({"regret": np.zeros(shape), "strategy_sum": np.zeros(shape), "uniforms": np.zeros(0),
                         "baseline": table})
        solver.iterate(1)
        value = solver.tables.regret[tree.infoset_index(0, "I"), 0]
        if value != 0.0:
            seen.add(value)
    assert seen == sent_up
