"""cfrlib.distributed: external-sampling MCCFR on a Dask LocalCluster of two worker processes.

One cluster serves the module (starting one takes a few seconds); one test starts its own to check
that the solver closes what it started.
"""

import os

import numpy as np
import pytest

import cfrlib
from cfrlib import SolverError, games
from cfrlib.distributed import DistributedExternalSampling, _run_shard, local_cluster
from cfrlib.solvers import ConvergenceLog


KUHN = games.kuhn()


@pytest.fixture(scope="module", autouse=True)
def environment_restored():
    """Dask's nannies write their pre-spawn settings into the environment of the process that
    starts them (MALLOC_TRIM_THRESHOLD_, OMP_NUM_THREADS=1, PYTHONHASHSEED, ...) and leave them
    there: the test worker's environment is put back after this module, for the tests and the
    notebook kernels it runs next."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture(scope="module")
def client():
    with local_cluster(2) as cluster:
        with cluster.get_client() as c:
            yield c


@pytest.mark.slow
def test_converges_on_kuhn_like_the_serial_solver(client):
    # 20 rounds of 1000 iterations = 20,000 iterations; the serial solver, same count, reaches
    # about 0.004 (seed 0); uniform random play is 0.4583 (Kuhn 1950, by hand).
    with DistributedExternalSampling(KUHN, client=client, iterations_per_round=1000, seed=0) as solver:
        log = solver.run(20, eval_every=5)
        assert solver.iterations == 20_000 and solver.rounds == 20
        assert 0 < solver.compute_seconds < solver.seconds and 0 < solver.cpu_seconds
        assert isinstance(solver.average_strategy(), cfrlib.Strategy)
    serial = cfrlib.ExternalSamplingMCCFR(KUHN, seed=0).iterate(20_000).exploitability()
    assert list(log.iteration) == [0, 5000, 10_000, 15_000, 20_000]
    assert log.exploitability[0] == pytest.approx(11 / 24)       # uniform: NashConv 11/12
    assert log.exploitability[-1] < 0.01
    assert log.exploitability[-1] < 2.5 * serial
    assert np.all(np.diff(log.nodes_touched) > 0)
    # the value of the game is -1/18 (Kuhn 1950)
    assert cfrlib.expected_value(KUHN, solver.average_strategy()) == pytest.approx(-1 / 18, abs=0.01)
    # adding the shards' increments instead of averaging them overshoots: about 0.03 here
    with DistributedExternalSampling(KUHN, client=client, iterations_per_round=1000, merge="sum") as summed:
        summed.iterate(20)
        assert summed.exploitability() > 4 * log.exploitability[-1]


@pytest.mark.slow
def test_same_seed_same_strategy_bit_for_bit(client):
    def probs(seed):
        with DistributedExternalSampling(KUHN, client=client, iterations_per_round=300, seed=seed) as s:
            return s.iterate(3).average_strategy().to_array()

    first, again, other = probs(7), probs(7), probs(8)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


@pytest.mark.slow
def test_a_round_is_the_mean_of_the_shards_increments(client):
    # the driver's merge, redone here from the shards computed in this process
    solver = DistributedExternalSampling(KUHN, client=client, workers=2, iterations_per_round=101, seed=3)
    solver.iterate(1)
    shard_seeds = np.random.SeedSequence(3).spawn(1)[0].spawn(2)
    regret = np.zeros((12, 2))
    shards = [_run_shard(KUHN, "local", regret, n, s) for n, s in zip((51, 50), shard_seeds)]
    assert np.array_equal(solver._regret, (shards[0][0] + shards[1][0]) / 2)
    assert np.array_equal(solver._strategy_sum, shards[0][1] + shards[1][1])
    assert solver.nodes_touched == shards[0][2] + shards[1][2]
    solver.close()


@pytest.mark.slow
def test_one_shard_is_the_serial_solver(client):
    # one worker, one round: exactly the serial solver seeded with the shard's seed sequence
    solver = DistributedExternalSampling(KUHN, client=client, workers=1, iterations_per_round=500, seed=5)
    solver.iterate(1)
    serial = cfrlib.ExternalSamplingMCCFR(KUHN, backend="tree")
    seed = np.random.SeedSequence(5).spawn(1)[0].spawn(1)[0]
    serial.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
    serial.iterate(500)
    assert np.array_equal(solver.average_strategy().probs, serial.average_strategy().probs)
    assert np.array_equal(solver.current_strategy().probs, serial.current_strategy().probs)
    assert solver.nodes_touched == serial.nodes_touched
    solver.close()


@pytest.mark.slow
def test_it_is_a_solver_whose_run_counts_rounds_and_whose_save_continues_bit_for_bit(client, tmp_path):
    # Solver.run's loop, in rounds: evaluations and checkpoints every 2 rounds of 200 iterations
    solver = DistributedExternalSampling(KUHN, client=client, iterations_per_round=200, seed=4)
    assert isinstance(solver, cfrlib.Solver) and solver.step == "round"
    log = solver.run(4, eval_every=2, progress=False, checkpoint_every=2,
                     checkpoint=lambda s: s.save(tmp_path / f"round{s.rounds}.npz"))
    assert list(log.iteration) == [0, 400, 800] and solver.rounds == 4
    assert log.name == "distributed external-sampling MCCFR (2 workers)"
    # loaded after round 2 (on any client), it runs rounds 3 and 4 as the first run did
    loaded = cfrlib.Solver.load(tmp_path / "round2.npz", KUHN, client=client)
    assert type(loaded) is DistributedExternalSampling and loaded.rounds == 2
    assert (loaded.iterations, loaded.nodes_touched) == (400, log.nodes_touched[1])
    assert loaded.compute_seconds > 0 and loaded.client is client
    resumed = loaded.run(2, eval_every=2, progress=False, log=ConvergenceLog(log.name, log.rows[:2]))
    assert np.array_equal(resumed.exploitability, log.exploitability)
    assert np.array_equal(resumed.nodes_touched, log.nodes_touched)
    for table in ("regret", "strategy_sum"):
        assert np.array_equal(loaded.state()[table], solver.state()[table])
    assert np.array_equal(loaded.current_strategy().probs, solver.current_strategy().probs)
    for s in (solver, loaded):
        s.close()


@pytest.mark.slow
def test_a_client_passed_in_stays_open_and_the_workers_forget_the_run(client):
    with DistributedExternalSampling(KUHN, client=client, iterations_per_round=10) as solver:
        solver.iterate(1)
        token = solver._token
        assert all(client.run(lambda: len(_cached(token))).values())
    assert client.status == "running"
    assert solver.client is None
    assert not any(client.run(lambda: len(_cached(token))).values())
    solver.close()  # closing twice is harmless


def _cached(token):
    from cfrlib.distributed import _WORKER_SOLVERS

    return [k for k in _WORKER_SOLVERS if k[0] == token]


@pytest.mark.slow
def test_without_a_client_it_starts_and_closes_its_own_cluster():
    # one worker process (each costs about 2 s of CPU to start); the module's cluster has two
    with DistributedExternalSampling(KUHN, workers=1, iterations_per_round=200) as solver:
        own = solver.client
        assert len(own.nthreads()) == 1 and set(own.nthreads().values()) == {1}
        assert own.scheduler.address.startswith("tcp://127.0.0.1:")
        solver.iterate(2)
        memory = solver.worker_peak_memory_mb()
        assert len(memory) == 1 and all(20 < mb < 2000 for mb in memory.values())
    assert own.status == "closed"


@pytest.mark.parametrize("kwargs, message", [
    ({"workers": 0}, "workers must be a positive integer, got 0"),
    ({"workers": "two"}, "workers must be a positive integer, got 'two'"),
    ({"workers": True}, "workers must be a positive integer, got True"),
    ({"iterations_per_round": 0}, "iterations_per_round (0) must be at least the number of workers (2): "
                                     "every shard runs at least one iteration"),
    ({"iterations_per_round": 2.5}, "iterations_per_round must be a non-negative integer, got 2.5"),
    ({"seed": "x"}, "seed must be an integer, got 'x'"),
    ({"merge": "median"}, "merge must be one of ('mean', 'sum'), got 'median'"),
    ({"client": 42}, "client must be None (start a LocalCluster), a distributed.Client or a scheduler "
                     "address string, got 42"),
])
def test_bad_arguments_give_clear_errors_before_any_cluster_starts(kwargs, message):
    with pytest.raises(SolverError) as err:
        DistributedExternalSampling(KUHN, **kwargs)
    assert str(err.value) == message


@pytest.mark.slow
def test_bad_round_counts(client):
    with DistributedExternalSampling(KUHN, client=client, iterations_per_round=2) as solver:
        with pytest.raises(SolverError, match="rounds must be a non-negative integer, got -1"):
            solver.iterate(-1)
        with pytest.raises(SolverError, match="eval_every must be a positive integer"):
            solver.run(2, eval_every=0)


def test_not_a_game():
    with pytest.raises(SolverError, match="is not a game"):
        DistributedExternalSampling(object())


@pytest.mark.slow  # threads racing: make test only
def test_the_compiled_walk_lets_other_threads_run():
    """The sampling kernels release the interpreter lock (numba ``nogil=True``), so the Dask
    client's thread in the driver is not kept waiting while the driver walks: a Python loop in
    this thread keeps counting while one compiled call of a few tenths of a second walks in
    another. (Measured: about 950,000 counts with the lock released, 19,000 with it held, all of
    those before and after the call.)"""
    import threading

    solver = cfrlib.ExternalSamplingMCCFR(games.leduc(), seed=0)
    solver.iterate(10)  # loads the compiled walk before anything is counted
    solver.batch = 300_000  # one compiled call for the whole walk
    walk = threading.Thread(target=solver.iterate, args=(300_000,))
    counted = 0
    walk.start()
    while walk.is_alive():
        counted += 1
    walk.join()
    assert solver.iterations == 300_010
    assert counted > 100_000, counted
