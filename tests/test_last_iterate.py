"""The last-iterate methods ExRM+, SPRM+ and MMD: the engine's presets equal the plain recursions of
cfrlib.textbook.last_iterate (and MMD equals OpenSpiel's MMDDilatedEnt), and each shows the
behaviour its paper states: ExRM+'s and SPRM+'s current strategies converge on 3 x 3 matrix games
where simultaneous RM+ and predictive RM+ cycle (Cai et al. 2023), MMD's converges to the quantal
response equilibrium of its temperature (Sokota et al., ICLR 2023)."""

from __future__ import annotations

import numpy as np
import pytest

import cfrlib
from cfrlib import Strategy, games
from cfrlib.errors import SolverError
from cfrlib.solvers import MMD, ExRMPlus, SPRMPlus
from cfrlib.solvers.regret_minimizers import chopped_projection
from cfrlib.textbook import last_iterate as textbook


@pytest.fixture(scope="module")
def kuhn():
    return games.kuhn()


def textbook_twin(solver):
    """The plain recursion that computes what ``solver`` computes."""
    if isinstance(solver, MMD):
        return textbook.TextbookMMD(solver.game, solver.temperature, solver.eta)
    klass = textbook.TextbookExRMPlus if isinstance(solver, ExRMPlus) else textbook.TextbookSPRMPlus
    return klass(solver.game, solver.eta)


@pytest.mark.parametrize("make", [lambda g: ExRMPlus(g), lambda g: SPRMPlus(g, eta=10.0),
                                  lambda g: MMD(g), lambda g: MMD(g, temperature=0.0, eta=2.0)],
                         ids=["ExRM+", "SPRM+ eta 10", "MMD", "MMD without magnet"])
@pytest.mark.parametrize("name, iterations", [("kuhn", 6), ("bluff13", 3),
                                              pytest.param("leduc", 2, marks=pytest.mark.slow)])
def test_engine_equals_the_plain_recursion(make, name, iterations):
    game = {"kuhn": games.kuhn, "bluff13": lambda: games.bluff(sides=3), "leduc": games.leduc}[name]()
    engine = make(game)
    twin = textbook_twin(engine)
    for _ in range(iterations):
        engine.iterate(1)
        twin.iterate(1)
        gap = np.abs(Strategy.from_dict(game, twin.sigma).probs - engine.current_strategy().probs).max()
        assert gap < 1e-10


def test_the_projection_onto_the_chopped_orthant():
    Y = np.array([[0.2, -1.0, 0.1], [3.0, 1.0, 0.0], [-1.0, -2.0, 0.0], [0.5, 0.5, 0.0]])
    mask = np.array([[1, 1, 1], [1, 1, 0], [1, 1, 0], [1, 1, 1]], dtype=float)
    Z = chopped_projection(Y, mask)
    # by hand: theta = (0.2 + 0.1 - 1) / 2 = -0.35; [Y]^+ already sums to 4; only "-1" stays; on the boundary
    assert np.allclose(Z, [[0.55, 0.0, 0.45], [3.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.5, 0.0]], atol=1e-15)
    for row, legal in zip(Y, mask):
        projected = textbook.project({a: v for a, (v, ok) in enumerate(zip(row, legal)) if ok})
        assert np.allclose([projected.get(a, 0.0) for a in range(3)], chopped_projection(row[None], legal[None])[0])


MATRICES = {"skewed rock-paper-scissors": [[0, -1, 2], [1, 0, -1], [-2, 1, 0]],
            "an asymmetric 3 x 3": [[3, 0, -3], [0, 3, -4], [0, 0, 1]]}


@pytest.mark.slow  # thousands of iterations each: make test only
@pytest.mark.parametrize("payoffs", list(MATRICES.values()), ids=list(MATRICES))
def test_smooth_rules_converge_in_the_last_iterate_where_rm_plus_cycles(payoffs):
    """Cai et al.: simultaneous RM+ and predictive RM+ need not converge in the last iterate on a
    3 x 3 game; ExRM+ and SPRM+ (small enough eta) do."""
    game = games.matrix_game(payoffs)
    for cycling in (cfrlib.CFRPlus(game, alternating=False), cfrlib.PredictiveCFRPlus(game, alternating=False)):
        tail = [cfrlib.exploitability(game, cycling.iterate(100).current_strategy()) for _ in range(10)]
        assert min(tail) > 0.1
    for converging in (ExRMPlus(game, eta=0.1), SPRMPlus(game, eta=0.1)):
        assert cfrlib.exploitability(game, converging.iterate(1500).current_strategy()) < 1e-10


def test_smooth_rules_current_strategy_solves_kuhn(kuhn):
    for solver in (ExRMPlus(kuhn), SPRMPlus(kuhn)):
        assert cfrlib.exploitability(kuhn, solver.iterate(1000).current_strategy()) < 1e-10


# Gambit's QRE of Kuhn poker at temperature 0.1, player 0's and player 1's realization plans in
# OpenSpiel's sequence order: the data of open_spiel 2.0.2's python/algorithms/mmd_dilated_test.py.
GAMBIT_QRE = [
    [1., 0.75364232, 0.64695966, 0.10668266, 0.24635768, 0.70309809, 0.25609184, 0.44700625,
     0.29690191, 0.47546799, 0.01290797, 0.46256001, 0.52453201],
    [1., 0.63415944, 0.36584056, 0.41154828, 0.58845172, 0.28438486, 0.71561514, 0.0620185,
     0.9379815, 0.65005434, 0.34994566, 0.79722767, 0.20277233]]


@pytest.mark.slow  # a long run: make test only
def test_mmd_equals_openspiel_and_converges_to_gambits_qre():
    pytest.importorskip("pyspiel", reason="OpenSpiel (open_spiel) is not installed")
    from open_spiel.python.algorithms import mmd_dilated
    game = games.from_openspiel("kuhn_poker")
    theirs = mmd_dilated.MMDDilatedEnt(game.openspiel_game, alpha=0.1)
    ours = MMD(game, temperature=0.1)
    assert ours.eta == pytest.approx(theirs.stepsize, rel=1e-15)       # alpha / L^2 = 0.9
    for _ in range(5):
        theirs.update_sequences()
        ours.iterate(1)
        policy = theirs.get_policies().action_probability_array
        assert np.abs(ours.current_strategy().to_openspiel_policy().action_probability_array - policy).max() < 1e-10
    theirs.sequences = [np.array(x) for x in GAMBIT_QRE]
    qre = theirs.get_policies().action_probability_array
    distance = []
    for _ in range(4):
        ours.iterate(100)
        distance.append(np.abs(ours.current_strategy().to_openspiel_policy().action_probability_array - qre).max())
    assert distance[-1] < 1e-6                  # Gambit's numbers carry 8 digits
    assert distance[1] < 0.2 * distance[0]      # linear convergence: a factor per 100 iterations


def test_mmd_current_strategy_settles_at_the_qre_not_at_an_equilibrium(kuhn):
    solver = MMD(kuhn)
    before = solver.iterate(2000).current_strategy().probs
    after = solver.iterate(1).current_strategy().probs
    assert np.abs(after - before).max() < 1e-12                        # a fixed point
    assert cfrlib.exploitability(kuhn, solver.current_strategy()) > 0.01


@pytest.mark.parametrize("make_game", [games.kuhn, games.leduc,
                                       pytest.param(games.bluff, marks=pytest.mark.slow)],
                         ids=["kuhn", "leduc", "bluff11"])
def test_mmd_default_step_is_the_temperature_over_the_largest_payoff_entry_squared(make_game):
    """``eta = lambda / L^2``, ``L`` the largest entry of the sequence-form payoff matrix, summed pair
    by pair here; Bluff 1x1 has 2e10 pairs of sequences, of which the matrix holds few."""
    game = make_game()
    solver = MMD(game)
    form, entries = solver._form, {}
    for a, b, u in zip(form.terminal_seq[0].tolist(), form.terminal_seq[1].tolist(),
                       form.chance_utility[0].tolist()):
        entries[a, b] = entries.get((a, b), 0.0) + u
    largest = max(map(abs, entries.values()))
    assert solver.eta == pytest.approx(solver.temperature / largest ** 2, rel=1e-12)


@pytest.mark.parametrize("make, word", [
    (lambda g: ExRMPlus(g, eta=0.0), "eta"), (lambda g: SPRMPlus(g, eta=-1.0), "eta"),
    (lambda g: MMD(g, temperature=-0.1), "temperature"), (lambda g: MMD(g, temperature=0.0), "eta"),
])
def test_bad_parameters_name_the_parameter(kuhn, make, word):
    with pytest.raises(SolverError, match=word):
        make(kuhn)


# --------------------------------------------------------------- recorded data (chapter 13)
@pytest.mark.parametrize("key", ["kuhn", "leduc"])
def test_recorded_curves_agree_with_a_short_rerun(key):
    """``benchmarks/last_iterate_curves.py``'s data: a 50-iteration re-run of each method gives the
    recorded prefix (current and average exploitability; seconds are not compared)."""
    from cfrbook import comparison, datasets
    data = datasets.load_json("last_iterate")
    game = games.kuhn() if key == "kuhn" else games.leduc()
    methods = {"ExRM+": ExRMPlus, "SPRM+": SPRMPlus, "MMD": MMD}
    assert data["iterations"] == 1000 and list(data["games"][key]) == data["methods"] == list(methods)
    points = comparison.schedule(50)
    for name, recorded in data["games"][key].items():
        solver = methods[name](game)
        assert recorded["iteration"][:len(points)] == points
        for k, target in enumerate(points):
            solver.iterate(target - solver.iterations)
            current = cfrlib.exploitability(game, solver.current_strategy())
            assert current == pytest.approx(recorded["current"][k], rel=1e-6, abs=1e-15), (name, target)
            assert solver.exploitability() == pytest.approx(recorded["average"][k], rel=1e-6, abs=1e-15)
