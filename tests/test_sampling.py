"""The sampling family: chance-sampled CFR, external-sampling and outcome-sampling MCCFR.

What is checked: the expected update of one iteration equals the full-width counterfactual one
(unbiasedness), convergence within a budget of nodes touched, reproducibility bit for bit, the
compiled walks against the textbook recursions (same draws, same numbers), save/load resume,
bad input, and the state backend on a game too large to compile.
"""

import copy
import json
import os
import re

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.errors import SolverError
from cfrlib.evaluation import counterfactual_values, realization_plan
from cfrlib.regret_matching import matched_strategy
from cfrlib.solvers import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR, Solver
from cfrlib.solvers.sampling import TableStrategy
from cfrlib.textbook import sampling as textbook
from cfrlib.textbook.regret_matching import regret_matching

KUHN, LEDUC = games.kuhn(), games.leduc()

# name -> constructor(game, seed, backend)
SOLVERS = {
    "cs": lambda game, seed=0, backend="auto": ChanceSamplingCFR(game, seed=seed, backend=backend),
    "cs-simultaneous": lambda game, seed=0, backend="auto": ChanceSamplingCFR(
        game, seed=seed, alternating=False, backend=backend),
    "es": lambda game, seed=0, backend="auto": ExternalSamplingMCCFR(game, seed=seed, backend=backend),
    "os": lambda game, seed=0, backend="auto": OutcomeSamplingMCCFR(game, seed=seed, backend=backend),
    "os-eps1": lambda game, seed=0, backend="auto": OutcomeSamplingMCCFR(
        game, epsilon=1.0, seed=seed, backend=backend),
}

# the textbook's walks per compiled traversal where they differ: simultaneous chance sampling
# walks once per player against sigma^t in the textbook, once for both when compiled
WALKS = {"cs-simultaneous": 2}


def tables(solver):
    """Cumulative regrets and average-strategy sums as arrays in the compiled tree's order,
    whatever the backend."""
    if solver.backend == "states":
        return table_arrays(solver.game.tree(), solver.table)
    return solver.tables.regret.copy(), solver.tables.strategy_sum.copy()


def table_arrays(tree, table):
    """An :class:`InfosetTable` as arrays in the tree's order (infosets not met are zero)."""
    regret, sums = np.zeros(tree.action_mask.shape), np.zeros(tree.action_mask.shape)
    for (p, key), node in table.items():
        I = tree.infoset_index(p, key)
        k = len(node.actions)
        regret[I, :k], sums[I, :k] = list(node.regret.values()), list(node.strategy_sum.values())
    return regret, sums


# --------------------------------------------------------------------------- unbiasedness
def expected_increments(tree, probs, traverser, kind):
    """What one traversal adds in expectation, from the full-width definitions, as
    ``(regret, strategy_sum)`` arrays (``traverser`` None: both players, simultaneous CS).

    Regrets of the updating player ``i``: the counterfactual regret
    ``r(I, a) = sum_{h in I} pi_{-i}(h) (u_i(ha) - u_i(h))`` (chance included). Average sums of
    the player ``j`` whose average the traversal updates (the traverser for CS, the opponent for
    ES and OS): ``pi_c(I) pi_j(I) sigma(I, a)`` where ``pi_c(I) = sum_{h in I} pi_c(h)`` is chance's
    share of ``I``, a constant of ``I`` that the normalised average does not see.
    """
    regret, sums = np.zeros(probs.shape), np.zeros(probs.shape)
    decision = tree.infoset >= 0
    chance_share = np.bincount(tree.infoset[decision], weights=tree.chance_reach[decision],
                               minlength=tree.num_infosets)
    updating = (0, 1) if traverser is None else (traverser,)
    for i in updating:
        q, v = counterfactual_values(tree, probs, i)
        mine = tree.infoset_player == i
        r = q[:-1].reshape(probs.shape) - v[:, None]
        regret[mine] = np.where(tree.action_mask, r, 0.0)[mine]
        j = i if kind == "cs" else 1 - i
        theirs = tree.infoset_player == j
        own_reach = realization_plan(tree, probs, j)[tree.infoset_parent_seq]
        sums[theirs] = (chance_share * own_reach)[theirs, None] * probs[theirs]
    return regret, sums


@pytest.mark.slow  # 3,000 sampled iterations a rule: make test only
@pytest.mark.parametrize("name", ["cs", "cs-simultaneous", "es", "os"])
def test_one_iteration_is_unbiased_on_kuhn(name):
    """Over many independent iterations from the same random regrets, the mean change of every
    regret and average-strategy sum equals the full-width expectation within 5 standard errors
    (per entry: a false alarm has probability about 6e-7 under a normal approximation, which
    the 3,000 samples justify; a missing or extra chance factor moves the mean by a factor 6).
    The second traversal of an alternating iteration already sees player 0's new strategy, so
    its expectation is computed per sample from that strategy."""
    tree = KUHN.tree()
    mask = tree.action_mask
    start = np.where(mask, np.random.default_rng(11).normal(size=mask.shape), 0.0)
    base = {"regret": start, "strategy_sum": np.zeros(mask.shape), "uniforms": np.zeros(0)}
    probs = matched_strategy(start, mask)
    kind = name.split("-")[0]
    solver = SOLVERS[name](KUHN, seed=2024, backend="tree")
    samples = 3000
    residuals = np.zeros((samples, 2) + mask.shape)
    first = np.array(expected_increments(tree, probs, None if name == "cs-simultaneous" else 0, kind))
    for k in range(samples):
        solver.set_state(base)  # the regrets of `start`; the random stream goes on
        solver.iterate(1)
        regret, sums = tables(solver)
        expected = first
        if name != "cs-simultaneous":
            # player 1's traversal plays player 0's new strategy against player 1's old one
            mixed = np.where((tree.infoset_player == 0)[:, None], matched_strategy(regret, mask), probs)
            expected = first + np.array(expected_increments(tree, mixed, 1, kind))
        residuals[k] = np.array([regret - start, sums]) - expected
    mean = residuals.mean(axis=0)
    error = residuals.std(axis=0, ddof=1) / np.sqrt(samples)
    assert np.all(np.abs(mean) <= 5 * error + 1e-12), (name, np.abs(mean / (error + 1e-300)).max())
    assert error.max() > 0  # the updates really are random


# ---------------------------------------------------------------------------- convergence
@pytest.mark.parametrize("name", ["cs", "cs-simultaneous", "es", "os"])
def test_low_exploitability_on_kuhn(name):
    """Within 400,000 nodes touched (about 3,500 iterations of full-width CFR on Kuhn's 58
    nodes) each reaches exploitability below 0.02, 4% of the uniform strategy's 0.4583. Over
    seeds 1 to 5 the four ended between 0.001 and 0.012, so the bound leaves a margin of
    about 2 for sampling noise while still demanding a strategy close to equilibrium."""
    solver = SOLVERS[name](KUHN, seed=1)
    while solver.nodes_touched < 400_000:
        solver.iterate(100)
    assert solver.exploitability() < 0.02


@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_decreasing_exploitability_on_leduc(name):
    """On Leduc, the exploitability at 0.1, 0.4 and 1.6 million nodes touched (1.6 million is
    about 85 full-width CFR iterations) decreases at each step, ends below 0.6 (uniform play:
    2.37) and at most half the first value. The 1/sqrt(T) rate predicts a quarter over a
    sixteen-fold budget; measured (seeds 3 and 4): CS 0.18, ES 0.14, OS 0.48 at the end, ratios
    0.17, 0.16 and 0.34, so the bounds leave room for noise and catch a solver that stalls."""
    solver = SOLVERS[name](LEDUC, seed=3)
    values = []
    for budget in (100_000, 400_000, 1_600_000):
        while solver.nodes_touched < budget:
            solver.iterate(50)
        values.append(solver.exploitability())
    assert values[0] > values[1] > values[2]
    assert values[2] < 0.6 and values[2] <= 0.5 * values[0], values


def test_run_logs_nodes_and_exploitability():
    solver = ExternalSamplingMCCFR(KUHN, seed=0)
    log = solver.run(200, eval_every=50, progress=False)
    assert log.iteration.tolist() == [0, 50, 100, 150, 200]
    assert np.all(np.diff(log.nodes_touched) > 0)
    assert log.exploitability[0] == pytest.approx(0.458333, abs=1e-6)  # uniform before any update
    assert log.exploitability[-1] < log.exploitability[0]


# --------------------------------------------------------------------------- reproducibility
@pytest.mark.parametrize("name", list(SOLVERS))
def test_same_seed_same_strategy_bit_for_bit(name):
    runs = [SOLVERS[name](LEDUC, seed=s).iterate(150) for s in (7, 7, 8)]
    a, b, c = (r.average_strategy().probs for r in runs)
    assert np.array_equal(a, b) and runs[0].nodes_touched == runs[1].nodes_touched
    assert np.array_equal(runs[0].current_strategy().probs, runs[1].current_strategy().probs)
    assert not np.array_equal(a, c)


def test_the_generator_is_the_solvers_own():
    """Global random state is neither used nor disturbed."""
    np.random.seed(0)
    before = np.random.random()
    np.random.seed(0)
    solver = OutcomeSamplingMCCFR(KUHN, seed=1).iterate(50)
    assert np.random.random() == before
    assert isinstance(solver.rng, np.random.Generator)


# ------------------------------------------------------------------ textbook and backends
def both_against_sigma_t(game, table, rng):
    """Simultaneous chance sampling from chapter 6's walk: player 1 walks a copy of the table taken
    before player 0's walk, with a generator restarted where player 0's started (same deal)."""
    before, start = copy.deepcopy(table), copy.deepcopy(rng.bit_generator.state)
    textbook.chance_sampling_cfr(game.initial_state(), 0, (1.0, 1.0), table, rng)
    again = np.random.default_rng()
    again.bit_generator.state = start
    touched = before.nodes_touched
    textbook.chance_sampling_cfr(game.initial_state(), 1, (1.0, 1.0), before, again)
    table.update({key: node for key, node in before.items() if key[0] == 1})
    table.nodes_touched += before.nodes_touched - touched


def run_textbook(name, game, seed, iterations, after_iteration=None):
    """The textbook recursions driven by a plain seeded Generator, one ``rng.random()`` a draw;
    ``after_iteration(t, table)``, if given, runs after each iteration ``t`` (from 1)."""
    table, rng = textbook.InfosetTable(), np.random.default_rng(seed)
    for t in range(1, iterations + 1):
        if name == "cs-simultaneous":
            both_against_sigma_t(game, table, rng)
        for i in (0, 1):
            if name == "cs":
                textbook.chance_sampling_cfr(game.initial_state(), i, (1.0, 1.0), table, rng)
            elif name == "es":
                textbook.external_sampling(game.initial_state(), i, table, rng)
            elif name == "os":
                textbook.outcome_sampling(game.initial_state(), i, 1.0, 1.0, table, rng, 0.6)
            elif name == "os-eps1":
                textbook.outcome_sampling(game.initial_state(), i, 1.0, 1.0, table, rng, 1.0)
        if after_iteration is not None:
            after_iteration(t, table)
    return table


@pytest.mark.parametrize("game", [KUHN, LEDUC, games.bluff(sides=4)], ids=lambda g: g.name)
@pytest.mark.parametrize("name", list(SOLVERS))
def test_compiled_walk_equals_textbook_recursion(name, game):
    """Same seed, same draws, same numbers: the compiled walk and the textbook recursion give
    identical regrets, average sums and node counts, bit for bit (simultaneous chance sampling
    walks twice in the textbook, once in the compiled walk)."""
    iterations = 60 if game is KUHN else 25
    fast = SOLVERS[name](game, seed=42, backend="tree").iterate(iterations)
    table = run_textbook(name, game, 42, iterations)
    for got, want in zip(table_arrays(game.tree(), table), tables(fast)):
        assert np.array_equal(got, want)
    assert table.nodes_touched == WALKS.get(name, 1) * fast.nodes_touched
    assert np.any(tables(fast)[0] != 0) and np.any(tables(fast)[1] != 0)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_states_backend_equals_tree_backend(name):
    """Same tables, node counts (up to WALKS), strategies (both of type Strategy, equal bit for bit: infosets
    the states backend has not met are uniform, as unvisited ones are on the tree) and
    exploitability."""
    tree_run = SOLVERS[name](LEDUC, seed=9, backend="tree").iterate(30)
    state_run = SOLVERS[name](LEDUC, seed=9, backend="states").iterate(30)
    for got, want in zip(tables(state_run), tables(tree_run)):
        assert np.array_equal(got, want)
    assert state_run.nodes_touched == WALKS.get(name, 1) * tree_run.nodes_touched
    assert 0 < len(state_run.table) < LEDUC.tree().num_infosets
    for strategy in ("average_strategy", "current_strategy"):
        got, want = getattr(state_run, strategy)(), getattr(tree_run, strategy)()
        assert type(got) is type(want) is cfrlib.Strategy
        assert got == want
    assert state_run.exploitability() == tree_run.exploitability()
    assert cfrlib.expected_value(LEDUC, state_run.average_strategy()) == cfrlib.expected_value(
        LEDUC, tree_run.average_strategy())


@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_both_backends_save_run_and_plot_alike(name, tmp_path):
    """The states backend's strategy saves and loads as a Strategy, and its convergence log
    (what the plots take) is the tree backend's, exploitability for exploitability."""
    logs = {}
    for backend in ("tree", "states"):
        solver = SOLVERS[name](KUHN, seed=4, backend=backend)
        logs[backend] = solver.run(60, eval_every=20, progress=False)
        solver.average_strategy().save(tmp_path / f"{backend}.json")
        assert cfrlib.Strategy.load(tmp_path / f"{backend}.json", KUHN) == solver.average_strategy()
    assert logs["states"].exploitability.tolist() == logs["tree"].exploitability.tolist()
    assert logs["states"].nodes_touched.tolist() == logs["tree"].nodes_touched.tolist()
    assert (tmp_path / "states.json").read_text() == (tmp_path / "tree.json").read_text()


def test_textbook_helpers():
    node = textbook.InfosetNode(["pass", "bet"])
    assert list(node.regret.items()) == list(node.strategy_sum.items()) == [("pass", 0.0), ("bet", 0.0)]
    assert [textbook.sample([0.25, 0.0, 0.75], u) for u in (0.0, 0.2499, 0.25, 0.99)] == [0, 0, 2, 2]
    assert textbook.sample([0.5, 0.5, 0.0], 1.0) == 1  # beyond the total: last positive action


# ------------------------------------------------------------------------- save and resume
@pytest.mark.parametrize("backend", ["tree", "states"])
@pytest.mark.parametrize("name", ["cs", "cs-simultaneous", "es", "os"])
def test_save_load_resumes_bit_identically(name, backend, tmp_path):
    game = games.leduc() if backend == "tree" else games.kuhn()
    straight = SOLVERS[name](game, seed=5, backend=backend).iterate(80)
    first = SOLVERS[name](game, seed=5, backend=backend).iterate(37)
    first.save(tmp_path / "solver.npz")
    resumed = Solver.load(tmp_path / "solver.npz", game)
    assert type(resumed) is type(first) and resumed.backend == backend
    assert resumed.iterations == 37 and resumed.nodes_touched == first.nodes_touched
    resumed.iterate(43)
    for got, want in zip(tables(resumed), tables(straight)):
        assert np.array_equal(got, want)
    assert resumed.nodes_touched == straight.nodes_touched
    assert resumed.rng.bit_generator.state == straight.rng.bit_generator.state


def test_load_keeps_parameters(tmp_path):
    OutcomeSamplingMCCFR(KUHN, epsilon=0.3, seed=4).iterate(5).save(tmp_path / "os.npz")
    ChanceSamplingCFR(KUHN, alternating=False).iterate(5).save(tmp_path / "cs.npz")
    assert OutcomeSamplingMCCFR.load(tmp_path / "os.npz", KUHN).epsilon == 0.3
    assert ChanceSamplingCFR.load(tmp_path / "cs.npz", KUHN).alternating is False
    with pytest.raises(SolverError, match="not a ExternalSamplingMCCFR"):
        ExternalSamplingMCCFR.load(tmp_path / "os.npz", KUHN)


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("epsilon", [0, 0.0, -0.1, 1.5, float("nan"), "0.5", None, True])
def test_epsilon_outside_zero_one(epsilon):
    with pytest.raises(SolverError, match="epsilon must be a number in \\(0, 1\\]"):
        OutcomeSamplingMCCFR(KUHN, epsilon=epsilon)


@pytest.mark.parametrize("seed", [1.5, "3", None, True])
@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_seed_must_be_an_integer(name, seed):
    with pytest.raises(SolverError, match="seed must be an integer"):
        SOLVERS[name](KUHN, seed=seed)


@pytest.mark.parametrize("iterations", [-1, 2.5, "10", None])
def test_iteration_counts(iterations):
    solver = ExternalSamplingMCCFR(KUHN)
    with pytest.raises(SolverError, match="iterations must be a non-negative integer"):
        solver.iterate(iterations)
    assert solver.iterations == 0 and solver.nodes_touched == 0


def test_bad_backend_and_alternating():
    with pytest.raises(SolverError, match="backend must be one of"):
        ExternalSamplingMCCFR(KUHN, backend="gpu")
    with pytest.raises(SolverError, match="alternating must be True or False"):
        ChanceSamplingCFR(KUHN, alternating="yes")
    with pytest.raises(SolverError, match="is not a game"):
        OutcomeSamplingMCCFR("kuhn")


# ------------------------------------------------------------------ games too large to compile
@pytest.mark.slow  # a game of 13 million histories: make test only
def test_states_backend_on_a_game_too_large_to_compile(tmp_path):
    """Bluff with two four-sided dice each has about 13 million histories: ``auto`` picks the
    state API, which runs and stores only the infosets it meets; the strategies are
    ``TableStrategy`` objects (a ``Strategy`` of the infosets met) that read, save and play
    like a ``Strategy``; exact exploitability and the full array are refused with a clear
    error, never silently computed by compiling the game."""
    game = games.bluff(dice=(2, 2), sides=4)
    for solver in (ExternalSamplingMCCFR(game, seed=1), OutcomeSamplingMCCFR(game, seed=1)):
        assert solver.backend == "states"
        solver.iterate(30)
        # each infoset stored was met at one of the histories touched, at least
        assert 0 < len(solver.table) <= solver.nodes_touched < 1_000_000
        strategy, current = solver.average_strategy(), solver.current_strategy()
        assert isinstance(strategy, cfrlib.Strategy) and isinstance(strategy, TableStrategy)
        assert len(strategy) == len(solver.table) and sorted(strategy) == sorted(k for _, k in solver.table)
        (p, key), node = next(iter(solver.table.items()))
        assert list(strategy[(p, key)]) == node.actions and key.count("|") == 1
        total = sum(node.strategy_sum.values())
        assert strategy[(p, key)] == {a: (s / total if total > 0 else 1 / len(node.actions))
                                      for a, s in node.strategy_sum.items()}
        for table in (strategy, current):
            for q in (0, 1):
                assert all(abs(sum(d.values()) - 1.0) < 1e-12 for d in table.player(q).values())
            assert len(table.player(0)) + len(table.player(1)) == len(solver.table)
        assert current[(p, key)] == regret_matching(node.regret)
        with pytest.raises(KeyError, match="was not met"):
            strategy[(p, "no such infoset")]
        with pytest.raises(cfrlib.errors.StrategyError, match="too large to compile"):
            strategy.probs
        with pytest.raises(SolverError, match="too large to compile"):
            solver.exploitability()
        strategy.save(tmp_path / "met.json")
        saved = json.loads((tmp_path / "met.json").read_text())
        assert saved["players"] == [strategy.player(0), strategy.player(1)]
        assert key in strategy.format() and repr(strategy).endswith(f"{len(solver.table)} infosets met>")
        played = cfrlib.head_to_head(game, strategy, None, games=200, seed=3)
        assert played == cfrlib.head_to_head(game, dict(strategy.items()), None, games=200, seed=3)
    assert "_compiled_tree" not in game.__dict__


def test_auto_compiles_games_that_fit():
    assert ExternalSamplingMCCFR(LEDUC).backend == "tree"
    assert OutcomeSamplingMCCFR(games.bluff(sides=4)).backend == "tree"


@pytest.mark.parametrize("game, nodes", [(KUHN, 58), (LEDUC, 9457), (games.bluff(sides=4), 8181)],
                         ids=["kuhn", "leduc", "bluff4"])
def test_size_estimate(game, nodes):
    from cfrlib.solvers.sampling.common import estimate_num_nodes

    assert nodes / 2 < estimate_num_nodes(game) < 2 * nodes


# -------------------------------------------------------------------- one surface for all
@pytest.mark.parametrize("make, old", [
    (lambda: ChanceSamplingCFR(KUHN, 3, False), "(3, False)"),
    (lambda: ExternalSamplingMCCFR(KUHN, 3), "(3,)"),
    (lambda: OutcomeSamplingMCCFR(KUHN, 0.3, 4), "(0.3, 4)"),
])
def test_options_are_keyword_only_with_a_clear_error(make, old):
    """The three used to take different positional orders (outcome sampling: epsilon first);
    now all take ``seed=``, ``backend=`` and their own options by keyword, and a positional
    call says so instead of silently reading an epsilon as a seed."""
    with pytest.raises(SolverError, match=f"takes its options by keyword only .*{re.escape(old)}"):
        make()


@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_tree_save_format(name, tmp_path):
    """What other code reads from a saved tree-backend solver: ``regret`` and ``strategy_sum``
    as padded float arrays ``num_infosets x max_actions`` (zero beyond the legal actions) and
    the draws pending (none: the compiled walks draw straight from the generator)."""
    solver = SOLVERS[name](LEDUC, seed=1, backend="tree").iterate(40)
    solver.save(tmp_path / "s.npz")
    tree = LEDUC.tree()
    with np.load(tmp_path / "s.npz") as data:
        for key in ("regret", "strategy_sum"):
            saved = data[f"state_{key}"]
            assert saved.shape == tree.action_mask.shape and saved.dtype == np.float64
            assert np.array_equal(saved, getattr(solver.tables, key))
            assert not saved[~tree.action_mask].any() and saved[tree.action_mask].any()
        assert data["state_uniforms"].shape == (0,)
    assert [row[:len(a)] for row, a in zip(solver.tables.regret.tolist(), tree.infoset_actions)] == solver.regret


@pytest.mark.parametrize("name", ["cs", "es", "os"])
def test_restored_pending_draws_come_first(name):
    """A save file may hold draws already fetched from the generator (the states backend's
    ``UniformStream`` does, and files of earlier versions did for both backends): the compiled
    walks use them, next draw last, before drawing again, so the stream of uniforms is the one
    of the generator alone."""
    plain = SOLVERS[name](KUHN, seed=3, backend="tree").iterate(400)
    fetched = SOLVERS[name](KUHN, seed=3, backend="tree")
    block = fetched.rng.random(512)[::-1]
    fetched.set_state({"regret": np.zeros(fetched.tables.regret.shape),
                      "strategy_sum": np.zeros(fetched.tables.regret.shape), "uniforms": block})
    fetched.iterate(400)
    for got, want in zip(tables(fetched), tables(plain)):
        assert np.array_equal(got, want)
    assert plain.nodes_touched > 0 and fetched.tables.count[0] == 0


def test_batched_iterations_equal_single_ones():
    """``iterate(n)`` runs the compiled walk in batches; one iteration at a time gives the same."""
    many = OutcomeSamplingMCCFR(LEDUC, seed=2).iterate(2500)
    single = OutcomeSamplingMCCFR(LEDUC, seed=2)
    assert single.batch == 1000
    for _ in range(2500):
        single.iterate(1)
    assert single.iterations == many.iterations == 2500
    assert single.nodes_touched == many.nodes_touched
    assert single.average_strategy() == many.average_strategy()


def test_numba_cache_falls_back_to_the_temporary_directory(monkeypatch):
    """With ``NUMBA_CACHE_DIR`` unset and neither the package's ``__pycache__`` nor the user's
    cache directory writable (a read-only install and home), the walks cache in the temporary
    directory instead of failing to import; otherwise numba's own choice stands."""
    import tempfile

    import numba

    from cfrlib.solvers.sampling import kernels

    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    assert kernels.cache_fallback() is None                     # this checkout is writable
    monkeypatch.setattr(kernels, "_writable", lambda folder: False)
    assert kernels.cache_fallback() == os.path.join(tempfile.gettempdir(), "cfrlib-numba-cache")
    monkeypatch.setattr(numba.config, "CACHE_DIR", "/somewhere/chosen")
    assert kernels.cache_fallback() is None


def test_table_strategy_lookups():
    """Plain keys when one player has the infoset, ``(player, key)`` pairs always; a clear
    ``KeyError`` for a name both players share or an infoset not met; never equal to a full
    Strategy."""
    rows = {(0, "a"): {"x": 0.25, "y": 0.75}, (1, "a"): {"x": 1.0, "y": 0.0},
            (1, "b"): {"x": 0.5, "y": 0.5}}
    strategy = TableStrategy(KUHN, rows)
    assert strategy["b"] == rows[(1, "b")] and strategy[(0, "a")] == rows[(0, "a")]
    assert list(strategy) == ["a", "a", "b"] and len(strategy) == 3
    assert strategy.player(1) == {"a": rows[(1, "a")], "b": rows[(1, "b")]}
    with pytest.raises(KeyError, match="both players have an infoset 'a'"):
        strategy["a"]
    with pytest.raises(KeyError, match="the infoset 'c' was not met"):
        strategy["c"]
    assert strategy.get((0, "b")) is None
    assert strategy == TableStrategy(KUHN, dict(rows))
    assert strategy != cfrlib.uniform_strategy(KUHN) and cfrlib.uniform_strategy(KUHN) != strategy


@pytest.mark.slow
def test_external_sampling_regrets_are_unbiased_on_leduc():
    """Chapter 7 shows external sampling's regret estimates at six Leduc infosets from 3,000
    traversals, one of them 3.3 standard errors off; this is the same check with 40,000, over every
    infoset of player 0: the mean of player 0's regret update (made by the iteration's first
    traversal) equals the exact counterfactual regret within 5 standard errors at every entry."""
    tree = LEDUC.tree()
    mask = tree.action_mask
    start = np.where(mask, np.random.default_rng(6).normal(size=mask.shape), 0.0)
    base = {"regret": start, "strategy_sum": np.zeros(mask.shape), "uniforms": np.zeros(0)}
    expected = expected_increments(tree, matched_strategy(start, mask), 0, "es")[0]
    mine = tree.infoset_player == 0
    solver = SOLVERS["es"](LEDUC, seed=1, backend="tree")
    samples = 40_000
    total, squares = np.zeros(mask.shape), np.zeros(mask.shape)
    for _ in range(samples):
        solver.set_state(base)
        solver.iterate(1)
        residual = tables(solver)[0] - start - expected
        total += residual
        squares += residual ** 2
    mean = total / samples
    error = np.sqrt((squares / samples - mean ** 2) * samples / (samples - 1) / samples)
    z = np.abs(mean[mine]) / (error[mine] + 1e-300)
    assert np.all(np.abs(mean[mine]) <= 5 * error[mine] + 1e-12), z.max()
    assert error[mine].max() > 0
