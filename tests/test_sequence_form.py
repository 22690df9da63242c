"""One numbering and one pass: the per-player blocks of cfrlib.sequence_form, shared by the
evaluation and the full-width engine, checked directly against each other and the tree."""

import gc
import weakref

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib import sequence_form as sf
from cfrlib.evaluation import counterfactual_regrets, counterfactual_values, realization_plan
from cfrlib.solvers.fullwidth import CFR, CFRPlus, DCFR
from toy_games import RandomGame, TupleGame, random_strategy


@pytest.fixture(scope="module")
def leduc():
    return games.leduc()


def test_one_cached_view_per_tree_shared_by_evaluation_and_engine(leduc):
    tree = leduc.tree()
    form = sf.sequence_form(tree)
    assert sf.sequence_form(tree) is form
    assert CFR(leduc)._form is form and CFRPlus(leduc)._form is form
    # kept on its tree: it goes with the tree
    game = games.kuhn()
    kept = weakref.ref(sf.sequence_form(game.tree()))
    assert kept() is not None
    del game
    gc.collect()
    assert kept() is None


@pytest.mark.parametrize("make", [games.kuhn, games.leduc, lambda: RandomGame(4)], ids=["kuhn", "leduc", "random"])
def test_blocks_number_every_sequence_once_and_levels_point_up(make):
    tree = make().tree()
    form = sf.sequence_form(tree)
    for p, block in enumerate(form.players):
        assert sorted(block.rows) == list(np.flatnonzero(tree.infoset_player == p))
        assert np.array_equal(tree.infoset_own_depth[block.rows], np.sort(tree.infoset_own_depth[block.rows]))
        # tree_sequence and block_of_tree are inverse on this player's sequences
        assert np.array_equal(block.block_of_tree[block.tree_sequence], np.arange(block.size + 1))
        assert np.array_equal(block.mask, tree.action_mask[block.rows, :block.width])
        for d, level in enumerate(block.levels):
            assert level.lo == (0 if d == 0 else block.levels[d - 1].hi)
            assert np.all((level.parent >= level.above_lo) & (level.parent < level.above_hi))
            assert np.array_equal(level.local_parent, level.parent - level.above_lo)
            expected = block.block_of_tree[tree.infoset_parent_seq[block.rows[level.lo:level.hi]]]
            assert np.array_equal(level.parent, expected)
        # each terminal's last sequence, renumbered
        assert np.array_equal(block.tree_sequence[form.terminal_seq[p]], tree.terminal_seq[p])


def test_the_engine_regrets_are_the_evaluation_regrets(leduc):
    """The engine's instantaneous regret is cfrlib.evaluation.counterfactual_regrets of its current
    profile: the same pass, up to the order of the additions (see sequence_form.counterfactual_values)."""
    for solver in (CFR(leduc).iterate(7), DCFR(leduc, alternating=False).iterate(4)):
        sigma = solver.current_strategy()
        for i in (0, 1):
            engine = solver._to_tree([solver._accumulate(i, 0.0) if p == i else np.zeros_like(solver._regret[p])
                                      for p in (0, 1)])
            assert np.abs(engine - counterfactual_regrets(leduc, sigma, i)).max() < 1e-15


def test_solver_exploitability_is_the_public_one_bit_for_bit(leduc):
    solver = CFRPlus(leduc).iterate(30)
    assert solver.exploitability() == cfrlib.exploitability(leduc, solver.average_strategy())


@pytest.mark.parametrize("make", [games.kuhn, games.leduc, lambda: games.bluff(dice=(1, 1), sides=3)]
                         + [lambda seed=seed: RandomGame(seed) for seed in range(4)],
                         ids=["kuhn", "leduc", "bluff-1x1-3"] + [f"random{seed}" for seed in range(4)])
def test_one_call_nash_conv_is_the_two_best_responses_bit_for_bit(make):
    """SequenceForm.nash_conv (one compiled call on the packed tables) does the arithmetic of the
    two per-player best-response passes, in their order, on random profiles."""
    game = make()
    form = sf.sequence_form(game.tree())
    for seed in range(3):
        probs = random_strategy(game, seed)
        gains = (sf.best_response_value(form, form.players[1].rows_of(probs), 0)
                 + sf.best_response_value(form, form.players[0].rows_of(probs), 1))
        assert form.nash_conv(probs) == gains - form.constant_sum
        assert cfrlib.nash_conv(game, probs) == gains - form.constant_sum


def _numpy_values_pass(block, q, sigma, sequential):
    """counterfactual_values with ``sigma`` as numpy computes it, level by level: the order of
    additions the recorded data were made with (before the pass was compiled)."""
    v = np.empty(block.num_rows)
    grid = q[:-1].reshape(block.num_rows, block.width)
    for level in reversed(block.levels):
        lo, hi = level.lo, level.hi
        np.einsum("ij,ij->i", sigma[lo:hi], grid[lo:hi], out=v[lo:hi])
        if sequential:
            np.add.at(q, level.parent, v[lo:hi])
        else:
            q[level.above_lo:level.above_hi] += np.bincount(level.local_parent, weights=v[lo:hi],
                                                            minlength=level.above_hi - level.above_lo)
    return v


@pytest.mark.parametrize("make", [games.kuhn, games.leduc,
                                  pytest.param(lambda: games.bluff(dice=(1, 1), sides=6), marks=pytest.mark.slow),
                                  lambda: RandomGame(2)], ids=["kuhn", "leduc", "bluff-1x1", "random"])
def test_compiled_passes_add_up_as_numpy_does_bit_for_bit(make):
    """The compiled sums over terminals and backward pass give numpy's bits (np.bincount,
    np.add.at, np.einsum's two-lane order, eight terms at a time from width 8: Bluff 1x1 has 12
    actions), so the published numbers do not move: values spread over twelve orders of magnitude,
    of both signs, where every order of additions rounds differently."""
    game = make()
    form = sf.sequence_form(game.tree())
    rng = np.random.default_rng(0)
    for i, block in enumerate(form.players):
        opponent_size = form.players[1 - i].size + 1
        for _ in range(5):
            wide = rng.standard_normal(block.mask.shape) * 10.0 ** rng.integers(-6, 6, block.mask.shape)
            sigma = wide * block.mask
            x_opp = rng.random(opponent_size) * 10.0 ** rng.integers(-6, 6, opponent_size)
            weights = x_opp[form.terminal_seq[1 - i]] * form.chance_utility[i]
            q = np.bincount(form.terminal_seq[i], weights=weights, minlength=block.size + 1)
            assert np.array_equal(sf.terminal_values(form, i, weights), q)
            assert np.array_equal(sf.opponent_values(form, x_opp, i), q)
            for sequential in (False, True):
                expected_q, compiled_q = q.copy(), q.copy()
                expected_v = _numpy_values_pass(block, expected_q, sigma, sequential)
                compiled_v = sf.counterfactual_values(block, compiled_q, sigma, sequential=sequential)
                assert np.array_equal(compiled_v, expected_v) and np.array_equal(compiled_q, expected_q)


@pytest.mark.parametrize("seed", range(4))
def test_block_passes_against_tree_order_on_random_games(seed):
    """Realization plan, counterfactual and best-response values in the block, mapped back to
    the tree's numbering, against a direct per-infoset computation in tree order."""
    game = RandomGame(seed)
    tree = game.tree()
    probs = random_strategy(game, seed)
    for p in (0, 1):
        x = realization_plan(tree, probs, p)
        grid = x[:-1].reshape(tree.action_mask.shape)
        for I in np.flatnonzero(tree.infoset_player == p):
            assert np.allclose(grid[I], x[tree.infoset_parent_seq[I]] * probs[I], rtol=0, atol=1e-15)
        for best in (False, True):
            q, v = counterfactual_values(tree, probs, p, best_response=best)
            qgrid = q[:-1].reshape(tree.action_mask.shape)
            mine = np.flatnonzero(tree.infoset_player == p)
            expected = (np.where(tree.action_mask[mine], qgrid[mine], -np.inf).max(axis=1) if best
                        else (probs[mine] * qgrid[mine]).sum(axis=1))
            assert np.allclose(v[mine], expected, rtol=0, atol=1e-12)
            assert not qgrid[~tree.action_mask].any()


def test_a_player_without_decisions():
    """Player 1 never acts: an empty block, and everything still works."""
    game = TupleGame(("chance", [("x", 0.4, ("player", 0, "A", [("l", ("terminal", 1.0, -1.0)),
                                                                   ("r", ("terminal", -2.0, 2.0))])),
                                 ("y", 0.6, ("terminal", 0.5, -0.5))]))
    form = sf.sequence_form(game.tree())
    assert form.players[1].num_rows == 0 and form.players[1].size == 0
    uniform = cfrlib.uniform_strategy(game)
    # player 0 should play l: 0.4 * 1 + 0.6 * 0.5 = 0.7, against 0.4 * (-0.5) + 0.3 = 0.1 uniformly
    assert cfrlib.best_response_value(game, uniform, 0) == pytest.approx(0.7, abs=1e-15)
    assert cfrlib.exploitability(game, uniform) == pytest.approx(0.3, abs=1e-15)
    assert form.nash_conv(uniform.probs) == pytest.approx(0.6, abs=1e-15)
    assert cfrlib.exploitability(game, CFRPlus(game).iterate(1).current_strategy()) == 0.0  # RM+ plays l at once
