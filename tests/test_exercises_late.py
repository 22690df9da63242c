"""The implement-it-yourself exercises of chapters 7 to 11, run as the chapters show them, and
the variant palette of the figures.

The folded solution of chapter 7's exercise is executed exactly as printed in the notebook
(tests/notebook_code.py) and must reproduce cfrlib's external-sampling solver bit for bit with
the same seed: both draw one uniform number per chance and opponent node, in the same order.
"""

import itertools

import notebook_cache
import numpy as np
import pytest

import cfrlib
from cfrbook import comparison, plotting
from cfrlib import games
from cfrlib.errors import CfrlibError
from notebook_code import run_solution, solution_code

CH6 = "07_monte_carlo_cfr.ipynb"


@pytest.fixture(scope="module")
def external_sampling_solution():
    return run_solution(CH6, "ch7-implement-es")


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
    # The tables themselves, exactly (no tolerance): regrets and average-strategy sums, each
    # {action: value} in the game's order of the actions.
    actions = dict(zip(keys, kuhn.tree().infoset_actions))
    assert {k: list(regret[k].items()) for k in keys} == {
        k: list(zip(actions[k], row)) for k, row in zip(keys, solver.regret)}
    assert {k: list(strategy_sum[k].items()) for k in keys} == {
        k: list(zip(actions[k], row)) for k, row in zip(keys, solver.strategy_sum)}
    # And the average strategy the exercise's checker compares.
    average = ns["es_train"](kuhn, 1000, seed)
    probs = solver.average_strategy().probs
    for I, key in enumerate(keys):
        assert average[key] == dict(zip(actions[key], probs[I, :len(actions[key])].tolist())), key


def test_chapter6_solution_reproduces_cfrlib_on_leduc_where_infosets_met_so_far(
        external_sampling_solution):
    leduc = games.leduc()
    average = external_sampling_solution["es_train"](leduc, 30, 3)
    solver, keys = _reference_tables(leduc, 30, 3)
    probs = solver.average_strategy().probs
    assert 0 < len(average) < leduc.tree().num_infosets
    for I, (key, actions) in enumerate(zip(keys, leduc.tree().infoset_actions)):
        # Infosets the walk never met are uniform in cfrlib's average strategy.
        expected = average.get(key, {a: 1.0 / len(actions) for a in actions})
        assert expected == dict(zip(actions, probs[I, :len(actions)].tolist())), key


def test_chapter6_skeleton_is_not_the_solution():
    # The cell the reader fills in raises until it is written; the checker reports that.
    from notebook_code import CHAPTERS
    cells = notebook_cache.read(CHAPTERS / CH6).cells
    skeleton = next(c for c in cells if c.cell_type == "code" and "def es_walk" in c.source)
    assert "raise NotImplementedError" in skeleton.source
    checker = next(c for c in cells if c.cell_type == "code"
                   and "check_external_sampling(es_train)" in c.source)
    printed = "".join(o.get("text", "") for o in checker.outputs)
    assert printed.startswith("not implemented yet")
    assert "raise NotImplementedError" not in solution_code(CH6, "ch7-implement-es")


def test_every_variant_of_the_comparison_has_its_own_colour_line_style_and_marker():
    # Chapter 14's re-solved strategies share a figure only with their blueprint, CFR+: they are
    # checked as a family of their own.
    # Chapter 15's Deep CFR runs share one with tabular external sampling.
    subgame_methods = {"unsafe", "re-solve", "maxmargin", "reach"}
    deep_cfr = {"Deep CFR", "Deep CFR, unweighted", "Deep CFR, exact average", "Deep CFR, exact fit",
                "Deep CFR, small reservoir", "Deep CFR, sliding window", "Deep CFR, tuned",
                "Deep CFR, warm-started", "Deep CFR, 125 an iteration", "ES-MCCFR",
                "ES-MCCFR, suits merged"}
    # Chapters 1 and 4 draw Hedge beside regret matching, RM+ and predictive RM+ (as CFR's looks).
    spine = {"CFR alt.", "CFR+", "PCFR+", "Hedge-CFR"}
    # Chapter 6 draws public chance sampling beside chance sampling and CFR; chapter 7 VR-MCCFR
    # beside outcome sampling.
    samplers = {"public chance sampling", "chance sampling", "CFR alt.", "VR-MCCFR", "OS-MCCFR"}
    # Chapter 13 draws the last-iterate methods' current strategies beside every variant's.
    last_iterate = {"ExRM+", "SPRM+", "MMD"}
    assert set(plotting.VARIANT_STYLES) == (set(comparison.VARIANTS) | set(comparison.FRONTIER_VARIANTS)
                                            | subgame_methods | deep_cfr | spine | samplers | last_iterate)
    for family in (set(comparison.VARIANTS) | set(comparison.FRONTIER_VARIANTS) | last_iterate,
                   subgame_methods | {"CFR+"},
                   deep_cfr, spine, samplers):
        _one_look_each({name: plotting.VARIANT_STYLES[name] for name in family})
    for a, b in (("DCFR alt.", "Linear CFR"), ("CFR+", "PCFR+")):
        # The pairs that used to look alike (near-identical hues) now differ in colour and style.
        assert plotting.VARIANT_STYLES[a]["color"] != plotting.VARIANT_STYLES[b]["color"]
        assert plotting.VARIANT_STYLES[a]["ls"] != plotting.VARIANT_STYLES[b]["ls"]
    assert set(s["color"] for s in plotting.VARIANT_STYLES.values()) <= set(
        plotting.PALETTE.values())


def test_chapter12_draws_every_variant_of_its_runs_in_a_hue_of_its_own():
    """Issue 39: the frontier figures show CFR+, DCFR, PCFR+ and the frontier's variants together,
    so no two of them share a colour (nor a marker)."""
    from cfrbook.datasets import load_json
    names = load_json("frontier_curves")["variants"]
    styles = [plotting.variant_style(name) for name in names]
    assert len({s["color"] for s in styles}) == len({s["marker"] for s in styles}) == len(names)


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
    """Chapter 13's exercise computed by hand: R^4 = (3, 0, 1); CFR+ plays (3/4, 0, 1/4), PCFR+
    (0, 0, 1), SAPCFR+ (3/5, 0, 2/5); DCFR+'s factor d_4 = 8/9. The folded solution's code, run as
    printed, gives these numbers from cfrlib's own regret minimizers."""
    ns = run_solution("13_frontier.ipynb", "ch13-by-hand")
    assert ns["R"][0].tolist() == [3.0, 0.0, 1.0]
    assert ns["cfr_plus"] == pytest.approx([3 / 4, 0, 1 / 4], abs=1e-15)
    assert ns["pcfr_plus"] == pytest.approx([0, 0, 1], abs=1e-15)
    assert ns["sapcfr_plus"] == pytest.approx([3 / 5, 0, 2 / 5], abs=1e-15)
    assert ns["d4"] == pytest.approx(8 / 9, abs=1e-15)


@pytest.mark.parametrize("baseline, sent_up", [((0.0, 0.0), {3.0, -1.0}), ((2.5, -0.5), {1.5, 0.5}),
                                               ((3.0, -1.0), {1.0})])
def test_ch6_baseline_exercise(baseline, sent_up):
    """Exercise ch7-baseline: player 0 picks x (to player 1's node o, uniform, ending at 3 or -1)
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
        solver.set_state({"regret": np.zeros(shape), "strategy_sum": np.zeros(shape), "uniforms": np.zeros(0),
                         "baseline": table})
        solver.iterate(1)
        value = solver.tables.regret[tree.infoset_index(0, "I"), 0]
        if value != 0.0:
            seen.add(value)
    assert seen == sent_up


def test_ch6_outcome_sampling_by_hand():
    """Exercise ch7-os-by-hand: on Kuhn with epsilon = 0.6 and sigma(K) = (1/4, 3/4), the
    traversal K, Q, bet, call has xi(K) = (2/5, 3/5), q(z) = 1/20, w = 1 at K and 5/3 at Qb; K
    sends up 5/2, its regrets move by (-5/2, +5/6), and S(Qb) by (5/6, 5/6). Computed here in
    exact fractions from the game's own probabilities and payoff, then by cfrlib's textbook walk."""
    from fractions import Fraction

    from cfrlib.textbook.sampling import InfosetNode, InfosetTable, outcome_sampling

    h = games.kuhn().initial_state()
    chance = Fraction(1)
    for card in ("K", "Q"):
        chance *= Fraction(dict(h.chance_outcomes())[card]).limit_denominator(10)
        h = h.child(card)
    epsilon, sigma_k, sigma_qb = Fraction(3, 5), Fraction(3, 4), Fraction(1, 2)   # bet, call
    xi_bet = epsilon / 2 + (1 - epsilon) * sigma_k
    z = h.child("bet").child("bet")
    u = Fraction(z.returns()[0])
    q_z = chance * xi_bet * sigma_qb
    sent_up = chance * (sigma_k * sigma_qb) * u / q_z            # pi_-0(h) pi(h -> z) u(z) / q(z)
    w_k, w_qb = chance / chance, chance / (chance * xi_bet)
    c_bet = u / xi_bet
    assert (xi_bet, q_z, sent_up, w_k, w_qb) == (Fraction(3, 5), Fraction(1, 20), Fraction(5, 2),
                                                 1, Fraction(5, 3))
    assert (w_k * (0 - sent_up), w_k * (c_bet - sent_up)) == (Fraction(-5, 2), Fraction(5, 6))

    class Draws:
        def __init__(self, *uniforms):
            self.uniforms = list(uniforms)

        def random(self):
            return self.uniforms.pop(0)

    table = InfosetTable()
    table[(0, "K")] = InfosetNode(["pass", "bet"])
    table[(0, "K")].regret = {"pass": 1.0, "bet": 3.0}
    value = outcome_sampling(games.kuhn().initial_state(), 0, 1.0, 1.0, table,
                             Draws(0.9, 0.7, 0.5, 0.9), 0.6)
    assert value == pytest.approx(float(sent_up), abs=1e-12)
    assert table[(0, "K")].regret == pytest.approx({"pass": 1 - 5 / 2, "bet": 3 + 5 / 6}, abs=1e-12)
    assert table[(1, "Qb")].strategy_sum == pytest.approx({"pass": float(w_qb * sigma_qb),
                                                           "bet": float(w_qb * sigma_qb)}, abs=1e-12)


def test_ch8_dcfr_discounts_by_hand():
    """Exercise ch9-by-hand: regrets 2, -4, 1, 3 give R^4 = 22/9 under DCFR(1.5, 0, 2) (factors
    1/2, 1/2, 1/2, 8/9), 4 under CFR+ and 2 under CFR; with gamma = 2 iterations 1 and 4 get 1/30
    and 8/15 of the average's weight. The recursion is written out here, then cfrlib's minimizer
    run on it."""
    import math

    from cfrlib.solvers import regret_minimizers as rm

    def by_hand(alpha, beta):
        R = 0.0
        for t, r in enumerate([2.0, -4.0, 1.0, 3.0], start=1):
            x = R + r
            e = alpha if x >= 0 else beta
            R = x * (1.0 if e == math.inf else 0.0 if e == -math.inf else t ** e / (t ** e + 1))
        return R

    expected = {(1.5, 0.0): 22 / 9, (math.inf, -math.inf): 4.0, (math.inf, math.inf): 2.0}
    for (alpha, beta), value in expected.items():
        assert by_hand(alpha, beta) == pytest.approx(value, abs=1e-12)
        R = np.zeros((1, 1))
        for t, r in enumerate([2.0, -4.0, 1.0, 3.0], start=1):
            rm.RegretMatching(alpha, beta).update(R, np.array([[r]]), t)
        assert R[0, 0] == pytest.approx(value, abs=1e-12)
    weights = [t ** 2 for t in range(1, 5)]
    assert (weights[0] / sum(weights), weights[3] / sum(weights)) == pytest.approx((1 / 30, 8 / 15))


def test_ch9_budget_from_the_tree():
    """Exercise ch10-budget-by-hand: Kuhn has |H| = 1 + 3 + 6 * 9 = 58 nodes, counted here on the
    state API; the first iteration touches 116 (CFR alt.), 58 (CFR simult.) and 2 * (2 + 9) = 22
    (chance sampling) nodes; the committed budget is at most 116,000 and buys chance sampling at
    least 116,000 / 22 iterations, CFR simult. at least 2,000."""
    from cfrbook import datasets

    def count(state):
        if state.is_terminal():
            return 1
        children = ([o for o, _ in state.chance_outcomes()] if state.is_chance()
                    else state.legal_actions())
        return 1 + sum(count(state.child(a)) for a in children)

    kuhn = games.kuhn()
    root = kuhn.initial_state()
    one_deal = root.child("K").child("Q")
    assert count(one_deal) == 9
    assert count(root) == 1 + 3 + 6 * 9 == 58 == kuhn.tree().num_nodes
    for name, nodes in (("CFR alt.", 116), ("CFR simult.", 58), ("chance sampling", 2 * (2 + 9))):
        assert comparison.make_solver(name, kuhn, 0).iterate(1).nodes_touched == nodes, name
    data = datasets.load_json("comparison")
    budget = data["games"]["kuhn"]["node_budget"]
    assert budget <= 1000 * 116
    logs = data["games"]["kuhn"]["logs"]
    assert logs["chance sampling"]["iteration"][-1] >= budget / 22
    assert logs["CFR simult."]["iteration"][-1] >= budget / 58


def test_ch11_abstract_infosets_by_hand():
    """Exercise ch12-count-infosets: six-rank Leduc has 6 * 6 + 6 * 6 * 5 * 6 = 1,116 infosets
    and its one-bucket abstraction 6 + 6 * 5 * 6 = 186, counted here from the real game's infoset
    keys mapped through the bucket function, and by cfrlib's compiled abstract game."""
    from cfrlib.abstraction import abstract_game, rank_buckets

    six = games.leduc(ranks=6, suit_isomorphism=True)
    tree = six.tree()
    real = set(zip(tree.infoset_player.tolist(), tree.infoset_keys))
    bucket = rank_buckets(six, 1)
    abstract = {(p, bucket(key)) for p, key in real}
    assert len(real) == 6 * 6 + 6 * 6 * 5 * 6 == 1116
    assert len(abstract) == 6 + 6 * 5 * 6 == 186
    assert abstract_game(six, bucket).tree().num_infosets == 186
