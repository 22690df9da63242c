"""The shared solver interface: runs, logs, interruption, and argument checks."""

import os
import signal

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.solvers import ConvergenceLog


class InterruptedCFR(cfrlib.CFR):
    """CFR that receives Ctrl-C in the middle of iteration ``at`` (after its first half)."""

    def __init__(self, game, at):
        super().__init__(game)
        self.at = at

    def _iteration(self):
        if self.iterations + 1 == self.at:
            os.kill(os.getpid(), signal.SIGINT)  # arrives while the iteration is half done
        super()._iteration()


@pytest.fixture
def ctrl_c():
    """SIGINT raises KeyboardInterrupt, as in an interactive Python, for the test's duration
    (a test worker, or a background job of a shell, starts with SIGINT ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_after_a_whole_iteration(ctrl_c):
    kuhn = games.kuhn()
    solver = InterruptedCFR(kuhn, at=7)
    with pytest.raises(KeyboardInterrupt):
        solver.run(20, eval_every=5, progress=False)
    assert solver.iterations == 7
    reference = cfrlib.CFR(kuhn).iterate(7)
    assert solver.average_strategy() == reference.average_strategy()
    assert solver.nodes_touched == reference.nodes_touched
    # the solver goes on as if nothing happened
    solver.iterate(13)
    assert solver.average_strategy() == reference.iterate(13).average_strategy()


def test_an_ignored_ctrl_c_stays_ignored():
    """A process that ignores SIGINT is not stopped by one that lands inside an iteration: else
    whether it stops would depend on where the signal falls (inside an iteration or between)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        solver = InterruptedCFR(games.kuhn(), at=7)
        solver.run(20, eval_every=5, progress=False)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert solver.iterations == 20


def test_run_logs_resume_the_same_log():
    leduc = games.leduc()
    solver = cfrlib.CFRPlus(leduc)
    log = solver.run(30, eval_every=10, progress=False)
    assert log.iteration.tolist() == [0, 10, 20, 30]
    assert log.nodes_touched.tolist() == [0, *(2 * leduc.tree().num_nodes * np.array([10, 20, 30]))]
    assert np.all(np.diff(log.exploitability) < 0) and log.exploitability[0] == pytest.approx(2.373611, abs=1e-6)
    solver.run(15, eval_every=10, progress=False, log=log)
    assert log.iteration.tolist() == [0, 10, 20, 30, 40, 45]
    assert log.exploitability[-1] == pytest.approx(solver.exploitability(), abs=0)
    again = ConvergenceLog.from_dict(log.to_dict())
    assert again.rows == log.rows and again.name == "CFR+"
    assert "iteration" in repr(log) and "45" in repr(log)


def test_run_stops_at_a_target():
    solver = cfrlib.CFRPlus(games.kuhn())
    log = solver.run(10_000, eval_every=10, target_exploitability=1e-3, progress=False)
    assert log.exploitability[-1] <= 1e-3 < log.exploitability[-2]
    assert solver.iterations == log.iteration[-1] < 10_000


@pytest.mark.parametrize("kwargs, message", [
    (dict(iterations=-1), "iterations must be a non-negative integer, got -1"),
    (dict(iterations=2.5), "iterations must be a non-negative integer, got 2.5"),
    (dict(iterations=True), "got True"),
    (dict(iterations=10, eval_every=0), "eval_every must be a positive integer"),
    (dict(iterations=10, target_exploitability=0), "target_exploitability must be positive"),
])
def test_bad_run_arguments(kwargs, message):
    with pytest.raises(cfrlib.SolverError, match=message):
        cfrlib.CFR(games.kuhn()).run(progress=False, **kwargs)


def test_load_refuses_a_file_that_is_not_a_solver(tmp_path):
    saved = tmp_path / "cfr.npz"
    cfrlib.CFR(games.kuhn()).iterate(3).save(saved)
    whole = saved.read_bytes()
    for name, content in (("junk", b"not a zip file"), ("empty", b""), ("truncated", whole[:len(whole) // 2]),
                          ("bare", None)):
        path = tmp_path / f"{name}.npz"
        if content is None:   # a zip of numpy arrays without the solver's metadata
            np.savez(path, x=np.zeros(2))
        else:
            path.write_bytes(content)
        with pytest.raises(cfrlib.SolverError, match="not a saved cfrlib solver"):
            cfrlib.CFR.load(path, games.kuhn())


def test_logs_save_and_load_as_json(tmp_path):
    log = cfrlib.CFR(games.kuhn()).run(20, eval_every=5, progress=False)
    log.save(tmp_path / "log.json")
    again = ConvergenceLog.load(tmp_path / "log.json")
    assert again.rows == log.rows and again.name == log.name
    (tmp_path / "bad.json").write_text('{"name": "x", "iteration": [1, 2]}')
    with pytest.raises(cfrlib.SolverError, match="not a convergence log"):
        ConvergenceLog.load(tmp_path / "bad.json")
    (tmp_path / "short.json").write_text(
        '{"iteration": [1, 2], "nodes_touched": [1], "seconds": [0, 0], "exploitability": [1, 1]}')
    with pytest.raises(cfrlib.SolverError, match="of equal length"):
        ConvergenceLog.load(tmp_path / "short.json")


# ------------------------------------------------------------------------- the registry
def test_every_registered_solver_runs_saves_and_is_offered_by_the_command_line(tmp_path):
    """SOLVERS is the one list: each entry solves Kuhn from the command line, iterates from
    Python and survives a save/load round trip bit for bit."""
    from cfrlib import cli
    from cfrlib.solvers import SOLVERS

    assert set(SOLVERS) == {"cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "hedge-cfr", "cs", "es", "os",
                            "dcfr+", "pdcfr+", "sapcfr+", "apcfr+", "rtcfr+", "exrm+", "sprm+", "mmd"}
    kuhn = games.kuhn()
    for short_name, klass in SOLVERS.items():
        assert klass.short_name == short_name
        solver = klass(kuhn, seed=3) if klass.sampled else klass(kuhn)
        solver.iterate(20)
        path = tmp_path / f"{klass.__name__}.npz"
        solver.save(path)
        again = cfrlib.Solver.load(path, kuhn)
        assert type(again) is klass
        assert again.average_strategy().probs.tolist() == solver.average_strategy().probs.tolist()
        out = tmp_path / f"{klass.__name__}.json"
        assert cli.main(["solve", "kuhn", "-a", short_name, "-n", "20", "-o", str(out)]) == 0


def test_an_unknown_solver_name_lists_the_known_ones():
    from cfrlib.solvers import solver_class

    with pytest.raises(cfrlib.SolverError, match=r"no solver 'cfr\+\+'; the solvers are cfr, cfr\+"):
        solver_class("cfr++")


def test_run_calls_its_checkpoint_at_multiples_of_checkpoint_every_and_changes_nothing_else():
    kuhn = games.kuhn()
    plain = cfrlib.CFR(kuhn).run(25, eval_every=10, progress=False)
    seen = []
    solver = cfrlib.CFR(kuhn)
    log = solver.run(25, eval_every=10, progress=False, checkpoint=lambda s: seen.append(s.iterations),
                     checkpoint_every=4)
    assert seen == [4, 8, 12, 16, 20, 24]
    assert log.rows[0][0] == 0 and [row[0] for row in log.rows] == [row[0] for row in plain.rows]
    assert np.array_equal(log.exploitability, plain.exploitability)
    with pytest.raises(cfrlib.SolverError, match="checkpoint_every must be a positive integer"):
        solver.run(5, checkpoint=print, checkpoint_every=0, progress=False)


# ------------------------------------------------------------------------- the state
@pytest.mark.parametrize("make", [cfrlib.CFRPlus, lambda g: cfrlib.ExternalSamplingMCCFR(g, seed=2)],
                         ids=["cfr+", "es"])
def test_state_and_set_state_carry_a_run_over_to_another_solver_bit_for_bit(make):
    kuhn = games.kuhn()
    solver = make(kuhn).iterate(40)
    state = solver.state()
    assert {"regret", "strategy_sum"} <= set(state)
    state["regret"][:] = 7.0  # copies: the solver keeps its own tables
    assert not np.array_equal(solver.state()["regret"], state["regret"])
    other = make(kuhn)
    other.set_state(solver.state())
    # the counters and the generator are not part of the state
    assert other.iterations == 0
    other.iterations = solver.iterations
    if solver.sampled:
        other.rng.bit_generator.state = solver.rng.bit_generator.state
    solver.iterate(25)
    other.iterate(25)
    assert solver.state().keys() == other.state().keys()
    assert all(np.array_equal(v, other.state()[k]) for k, v in solver.state().items())
    assert np.array_equal(solver.average_strategy().probs, other.average_strategy().probs)


def test_set_state_names_a_missing_array():
    solver = cfrlib.ExternalSamplingMCCFR(games.kuhn(), seed=0)
    state = solver.state()
    del state["uniforms"]
    with pytest.raises(cfrlib.SolverError, match=r"set_state: no array 'uniforms'; the state of this "
                       r"ExternalSamplingMCCFR has \['regret', 'strategy_sum', 'uniforms'\]"):
        solver.set_state(state)


def test_load_refuses_an_option_that_the_save_holds(tmp_path):
    kuhn = games.kuhn()
    cfrlib.ExternalSamplingMCCFR(kuhn, seed=0).iterate(3).save(tmp_path / "es.npz")
    with pytest.raises(cfrlib.SolverError, match="seed is saved with the solver"):
        cfrlib.Solver.load(tmp_path / "es.npz", kuhn, seed=1)


def test_load_sets_the_counters_before_the_state(tmp_path, monkeypatch):
    """A solver's state may be read at the iteration it resumes (RTCFR+ recomputes its
    unperturbed strategy at ``t``), so ``load`` sets the counters first."""
    kuhn = games.kuhn()
    cfrlib.CFRPlus(kuhn).iterate(7).save(tmp_path / "cfr+.npz")
    seen, restore = [], cfrlib.CFRPlus._restore
    monkeypatch.setattr(cfrlib.CFRPlus, "_restore",
                        lambda self, arrays: (seen.append(self.iterations), restore(self, arrays))[-1])
    cfrlib.Solver.load(tmp_path / "cfr+.npz", kuhn)
    assert seen == [7]
