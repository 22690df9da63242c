"""The sequence-form linear program (cfrlib.lp) against known values and an independent solver.

Sources of the reference values: Kuhn poker's value -1/18 from Kuhn (1950), "A simplified
two-person poker"; Leduc hold'em's value -0.085606424078 (player 0) from Lanctot et al. (2017),
"A Unified Game-Theoretic Approach to Multiagent Reinforcement Learning", Appendix E.2, the
number OpenSpiel's own sequence-form LP reproduces in open_spiel/python/algorithms/
sequence_form_lp_test.py (to 6 places). The random games are checked against an independent
computation: their reduced normal form, enumerated pure strategy by pure strategy and solved as
a matrix game with a separate LP.
"""

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

import cfrlib
from cfrlib import games
from cfrlib.evaluation import realization_plan
from cfrlib.lp import count_sequences, linear_program, solve_lp
from toy_games import RandomGame, TupleGame

KUHN, LEDUC, LEDUC288 = games.kuhn(), games.leduc(), games.leduc(suit_isomorphism=True)
LEDUC_VALUE = -0.085606424078  # Lanctot et al. 2017, Appendix E.2 (see the module docstring)

# RandomGame seeds whose reduced normal forms are small enough to enumerate (at most 729 pure
# strategies a player) and non-trivial (both players have a choice), with their max_depth.
RANDOM_GAMES = [(0, 4), (2, 4), (4, 4), (6, 4), (8, 4), (12, 4), (14, 4), (18, 3), (26, 3), (28, 3)]


@pytest.fixture(scope="module")
def solved():
    return {g.name: (g, solve_lp(g)) for g in (KUHN, LEDUC, LEDUC288)}


def test_kuhn_value_is_minus_one_eighteenth(solved):
    assert solved["kuhn"][1].value == pytest.approx(-1 / 18, abs=1e-9)


def test_leduc_value_matches_the_published_value(solved):
    # Quoted to 12 digits; OpenSpiel checks its own LP against it to 6 places. Ours agrees to 1e-8.
    assert solved["leduc"][1].value == pytest.approx(LEDUC_VALUE, abs=1e-8)


def test_suit_isomorphism_does_not_change_the_value(solved):
    assert solved[LEDUC288.name][1].value == pytest.approx(solved["leduc"][1].value, abs=1e-10)


@pytest.mark.parametrize("name", ["kuhn", "leduc", LEDUC288.name])
def test_lp_strategy_is_an_equilibrium_with_the_lp_value(solved, name):
    game, solution = solved[name]
    assert cfrlib.expected_value(game, solution.strategy) == pytest.approx(solution.value, abs=1e-10)
    assert cfrlib.exploitability(game, solution.strategy) < 1e-8
    # each player's part guarantees the value on its own: the best responses meet at v*
    assert cfrlib.best_response_value(game, solution.strategy, 0) == pytest.approx(solution.value, abs=1e-8)
    assert -cfrlib.best_response_value(game, solution.strategy, 1) == pytest.approx(solution.value, abs=1e-8)


def test_kuhn_strategies_are_kuhns_equilibria(solved):
    # Kuhn (1950): player 1's equilibrium strategy is unique, so the dual must return exactly it;
    # player 0's is a member of the family omega in [0, 1/3] (the jack's bluff).
    strategy = solved["kuhn"][1].strategy
    omega = strategy["J"]["bet"]
    assert -1e-9 <= omega <= 1 / 3 + 1e-9
    reference = KUHN.equilibrium(min(max(omega, 0.0), 1 / 3))
    for p in (0, 1):
        for key, dist in strategy.player(p).items():
            assert dist == pytest.approx(reference.player(p)[key], abs=1e-9), key


def test_realization_plans_satisfy_the_constraints(solved):
    game, solution = solved["leduc"]
    form = solution.linear_program
    x, y = solution.realization_plans
    assert np.allclose(form.E @ x, form.e, atol=1e-9) and np.allclose(form.F @ y, form.f, atol=1e-9)
    assert x.min() >= 0 and y.min() >= 0
    assert float(x @ form.A @ y) == pytest.approx(solution.value, abs=1e-10)
    assert sum(solution.num_sequences) == count_sequences(game) == 2186


def test_sequence_form_payoff_matches_expected_value():
    # x^T A y with the plans of a random profile is u_0 of that profile.
    rng = np.random.default_rng(7)
    tree = LEDUC.tree()
    probs = rng.dirichlet(np.ones(tree.max_actions), size=tree.num_infosets) * tree.action_mask
    sigma = cfrlib.Strategy(LEDUC, probs / probs.sum(axis=1, keepdims=True))
    form = linear_program(LEDUC)
    plans = []
    for p in (0, 1):
        flat = realization_plan(tree, sigma.probs, p)
        plan = np.zeros(form.num_sequences[p])
        mapped = form.sequence_index[p] >= 0
        plan[form.sequence_index[p][mapped]] = flat[mapped]
        plans.append(plan)
    assert float(plans[0] @ form.A @ plans[1]) == pytest.approx(cfrlib.expected_value(LEDUC, sigma), abs=1e-12)


# ---------------------------------------------------------------- random games, normal form
def reduced_pure_strategies(tree, player):
    """Every reduced pure strategy of ``player``: a choice at each infoset its own earlier
    choices leave reachable, as ``{infoset: action}``."""
    children = {}
    for I in np.flatnonzero(tree.infoset_player == player):
        children.setdefault(int(tree.infoset_parent_seq[I]), []).append(int(I))

    def expand(active):
        if not active:
            yield {}
            return
        for choice in itertools.product(*[range(tree.infoset_num_actions[I]) for I in active]):
            below = [J for I, a in zip(active, choice)
                     for J in children.get(I * tree.max_actions + a, [])]
            for rest in expand(below):
                yield {**dict(zip(active, choice)), **rest}

    return list(expand(children.get(tree.empty_sequence, [])))


def normal_form_value(game):
    """The game value from the reduced normal form, solved as a matrix game by its own LP."""
    tree = game.tree()
    plans = []
    for p in (0, 1):
        rows = []
        for pure in reduced_pure_strategies(tree, p):
            probs = np.zeros(tree.action_mask.shape)
            probs[:, 0] = 1.0  # infosets the strategy leaves unreachable: any action
            for I, a in pure.items():
                probs[I] = 0.0
                probs[I, a] = 1.0
            rows.append(realization_plan(tree, probs, p)[tree.terminal_seq[p]])
        plans.append(np.array(rows))
    # M[j, k] = sum_z pi_c(z) [pure j reaches z] [pure k reaches z] u_0(z)
    M = (plans[0] * (tree.terminal_chance * tree.terminal_payoff)) @ plans[1].T
    m, n = M.shape
    # max v subject to sum_j p_j M[j, k] >= v for every column k, sum_j p_j = 1, p >= 0
    c = np.zeros(m + 1)
    c[-1] = -1.0
    res = linprog(c, A_ub=np.hstack([-M.T, np.ones((n, 1))]), b_ub=np.zeros(n),
                  A_eq=np.hstack([np.ones((1, m)), np.zeros((1, 1))]), b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0, res.message
    return -res.fun, (m, n)


@pytest.mark.parametrize("seed, depth", RANDOM_GAMES)
def test_random_game_value_matches_the_normal_form(seed, depth):
    game = RandomGame(seed, max_depth=depth)
    solution = solve_lp(game)
    value, (m, n) = normal_form_value(game)
    assert m > 1 and n > 1
    assert solution.value == pytest.approx(value, abs=1e-8)
    assert cfrlib.expected_value(game, solution.strategy) == pytest.approx(solution.value, abs=1e-9)
    assert cfrlib.exploitability(game, solution.strategy) < 1e-8


@pytest.mark.parametrize("method", ["highs-ds", "highs-ipm"])
def test_simplex_and_interior_point_agree(method):
    solution = solve_lp(LEDUC288, method=method)
    assert solution.value == pytest.approx(LEDUC_VALUE, abs=1e-8)
    assert cfrlib.exploitability(LEDUC288, solution.strategy) < 1e-8


def test_constant_sum_game_is_solved_like_its_zero_sum_twin():
    # matching pennies with payoffs shifted to sum to 1: player 0's value is 1/2
    def pennies(shift):
        return ("player", 0, "P0", [(a, ("player", 1, "P1", [
            (b, ("terminal", (1.0 if a == b else 0.0) + shift, (0.0 if a == b else 1.0) - shift))
            for b in ("heads", "tails")])) for a in ("heads", "tails")])
    game = TupleGame(pennies(0.0), name="pennies", constant_sum=1.0)
    solution = solve_lp(game)
    assert solution.value == pytest.approx(0.5, abs=1e-12)
    assert solution.strategy["P0"] == pytest.approx({"heads": 0.5, "tails": 0.5}, abs=1e-9)


def _decision_problem(player):
    """Chance deals a card (0.3 high, 0.7 low); only ``player`` acts, seeing the card, and the
    other player never decides: the game's value is the best pure plan's."""
    sign = 1.0 if player == 0 else -1.0

    def choose(card, stay, swap):
        return ("player", player, f"P{player}:{card}",
                [(a, ("terminal", -sign * u, sign * u)) for a, u in
                 (("stay", -stay), ("swap", -swap))])
    return TupleGame(("chance", [("high", 0.3, choose("high", 2.0, -1.0)),
                                 ("low", 0.7, choose("low", -1.0, 0.5))]),
                     name=f"decision problem of player {player}")


@pytest.mark.parametrize("player", [0, 1])
def test_a_player_without_decisions_leaves_a_decision_problem(player):
    game = _decision_problem(player)
    solution = solve_lp(game)
    best = 0.3 * 2.0 + 0.7 * 0.5             # stay on high, swap on low: the deciding player's gain
    assert solution.value == pytest.approx(best if player == 0 else -best, abs=1e-10)
    assert solution.num_sequences[1 - player] == 1   # the other player has the empty sequence only
    assert solution.strategy[f"P{player}:high"] == pytest.approx({"stay": 1.0, "swap": 0.0}, abs=1e-9)
    assert solution.strategy[f"P{player}:low"] == pytest.approx({"stay": 0.0, "swap": 1.0}, abs=1e-9)
    assert cfrlib.exploitability(game, solution.strategy) == pytest.approx(0.0, abs=1e-9)
    assert cfrlib.expected_value(game, solution.strategy) == pytest.approx(solution.value, abs=1e-10)


def test_a_game_without_any_decision_gets_the_solvers_error():
    game = TupleGame(("chance", [("a", 0.5, ("terminal", 1.0, -1.0)), ("b", 0.5, ("terminal", -1.0, 1.0))]),
                     name="no choice")
    with pytest.raises(cfrlib.GameError, match="no choice has no decision for either player") as lp:
        solve_lp(game)
    with pytest.raises(cfrlib.GameError) as cfr:
        cfrlib.CFRPlus(game)
    assert str(lp.value) == str(cfr.value)


# ------------------------------------------------------------------------------- errors
def test_three_players_are_refused():
    class ThreePlayers(TupleGame):
        num_players = 3

    game = ThreePlayers(("terminal", 0.0, 0.0), name="three")
    with pytest.raises(cfrlib.GameError, match="3 players.*two-player zero-sum"):
        solve_lp(game)
    third = TupleGame(("player", 0, "a", [("x", ("player", 2, "b", [("y", ("terminal", 1.0, -1.0))]))]),
                      name="third")
    with pytest.raises(cfrlib.GameError, match="current_player\\(\\) returned 2"):
        solve_lp(third)


def test_non_zero_sum_game_is_refused():
    game = TupleGame(("player", 0, "a", [("x", ("terminal", 1.0, -1.0)), ("y", ("terminal", 1.0, 1.0))]),
                     name="general-sum")
    with pytest.raises(cfrlib.NotZeroSumError, match="sum to 2.*constant-sum game with sum 0"):
        solve_lp(game)


def test_too_large_game_is_refused_with_its_size_and_the_limit():
    with pytest.raises(cfrlib.SolverError, match="leduc has 2,186 sequences.*max_sequences=1,000"):
        solve_lp(LEDUC, max_sequences=1000)


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, "many"])
def test_bad_limit_is_refused(bad):
    with pytest.raises(cfrlib.SolverError, match="max_sequences must be a positive integer"):
        solve_lp(KUHN, max_sequences=bad)


def test_solver_failure_reports_the_highs_status():
    with pytest.raises(cfrlib.SolverError, match="HiGHS did not solve.*leduc.*Iteration limit"):
        solve_lp(LEDUC, options={"maxiter": 1})


def test_unknown_method_is_refused():
    with pytest.raises(cfrlib.SolverError, match="method must be"):
        solve_lp(KUHN, method="simplex")
