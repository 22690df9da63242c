"""External-sampling MCCFR on a distributed engine (Dask): the same solver on many processes or
machines.

A round: the driver sends the cumulative regrets ``R(I, a)`` to ``K = workers`` shards; shard
``k`` starts an ``cfrlib.ExternalSamplingMCCFR`` from them (and from zero average-strategy sums),
runs its share ``n_k`` of the round's iterations with its own seed (its strategy moves with its
own regrets during the round), and returns its increments ``Delta R_k(I, a)`` and
``Delta S_k(I, a)``. The driver merges them in shard order::

    R(I, a) += (Delta R_0(I, a) + ... + Delta R_{K-1}(I, a)) / K      (merge="mean")
    S(I, a) +=  Delta S_0(I, a) + ... + Delta S_{K-1}(I, a)

so ``R^T(I, a)`` is a sum over rounds of the shards' mean increment, and ``sigma-bar(I, a) =
S(I, a) / sum_b S(I, b)`` as in the serial solver. The mean, not the sum: every shard starts from
the same ``R`` and corrects the same errors of the strategy it was sent, so adding the K
corrections applies each one K times and the strategy overshoots (``merge="sum"`` does that, to
show it; with one iteration a round both are the same, up to a scale that regret matching
ignores).

Seeds come from ``numpy.random.SeedSequence(seed)``: round ``r`` uses its child number ``r``
(``spawn_key=(r,)``), which spawns one child per shard. Which process runs a shard does not
matter, so the same seed, shard count and round size give the same strategy bit for bit, on any
cluster, and a run saved after round ``r`` and loaded continues with round ``r + 1``'s seeds.

The solver is a ``cfrlib.Solver`` whose step is a round: ``iterate``, ``run`` (with its log,
target, progress bar and checkpoints) and ``save`` / ``load`` are the serial solvers', counted in
rounds, and its state is the two merged tables.

Each worker process compiles the game once (it is scattered once) and keeps one solver per run
between rounds; only the regret table travels to the workers each round, and only the two
increment tables come back.
"""

from __future__ import annotations

import logging
import resource
import sys
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Self

from .checks import check_iterations, check_seed
from .errors import SolverError
from .game import Game
from .solvers.base import ConvergenceLog, Solver
from .solvers.sampling import ExternalSamplingMCCFR
from .strategy import Strategy

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

Shard = tuple[NDArray[np.float64], NDArray[np.float64], int, float, float]
"""What a shard returns: ``(Delta R, Delta S, nodes touched, walking seconds, processor seconds)``."""

DEFAULT_ITERATIONS_PER_ROUND = 1_000_000
"""Iterations (one traversal per player each) per round, all shards together. A round's fixed
cost (scheduling, sending the regrets, loading them into each worker's solver and reading the
increments out) must stay small next to its walks: measured here, about 0.02 s a round on Leduc
and 0.05-0.08 s on Bluff 1x1. The compiled walk takes about 1 us an iteration on Leduc and 4 us
on Bluff 1x1, so this keeps each of two workers walking for about 0.5 s (Leduc) to 2 s (Bluff),
and the fixed cost near 3% of a round (with two workers here, rounds of 400,000 gave about 1.7x,
these about 1.8x). ``benchmarks/bench_distributed.py`` measures all of it; a faster walk needs
proportionally larger rounds."""

MERGES = ("mean", "sum")
"""How the driver merges the shards' regret increments (see the module's docstring)."""

_WORKER_SOLVERS: dict[tuple[str, int], ExternalSamplingMCCFR] = {}
"""On a worker: the solver of each run (and worker thread), kept between rounds."""


class DistributedExternalSampling(Solver):
    """External-sampling MCCFR whose iterations run on a Dask cluster, ``workers`` shards a round.

    ``client=None`` starts a ``distributed.LocalCluster`` of ``workers`` processes with one thread
    each, listening on the loopback interface only, without dashboard, and closes it in
    :meth:`close` (or at the end of a ``with`` block). A ``distributed.Client``, or a scheduler
    address such as ``"tcp://10.0.0.1:8786"``, runs on an existing cluster instead; a client
    passed in is left open. ``workers`` is the number of shards per round (on an existing
    cluster, at least its number of worker threads keeps them all busy); the shards share
    ``iterations_per_round`` iterations as evenly as possible. ``merge="mean"`` averages the
    shards' regret increments, ``"sum"`` adds them (it overshoots; see the module's docstring).
    The game must compile (``game.tree()``): the driver evaluates exactly, the workers walk the
    compiled tree.

    Its step is a round: :meth:`iterate` and :meth:`run` count rounds (``eval_every`` and
    ``checkpoint_every`` too), ``rounds`` says how many have run; ``iterations``,
    ``nodes_touched`` and ``seconds`` count like the serial solver's (iterations of one traversal
    per player, over all shards), so that logs of both compare at equal traversals.
    ``compute_seconds`` adds up, round by round, the longest time a shard spent walking;
    ``seconds - compute_seconds`` is the cost of distributing (scheduling, transfers, loading and
    reading the tables). ``cpu_seconds`` adds up the largest processor time of a shard (its walk
    and its tables), which other work on a shared machine does not inflate. :meth:`save` writes
    the merged tables, the counters and the settings (not the client);
    ``DistributedExternalSampling.load(path, game, client=...)`` continues the run bit for bit,
    on any cluster.
    """

    name = "distributed external-sampling MCCFR"
    sampled = True
    step = "round"

    def __init__(self, game: Game, client: Client | str | None = None, workers: int = 2,
                 iterations_per_round: int = DEFAULT_ITERATIONS_PER_ROUND, seed: int = 0,
                 merge: str = "mean") -> None:
        if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
            raise SolverError(f"workers must be a positive integer, got {workers!r}")
        per_round = check_iterations(iterations_per_round, "iterations_per_round")
        if per_round < workers:
            raise SolverError(f"iterations_per_round ({per_round}) must be at least the number of "
                              f"workers ({workers}): every shard runs at least one iteration")
        if merge not in MERGES:
            raise SolverError(f"merge must be one of {MERGES}, got {merge!r}")
        if not (client is None or isinstance(client, str) or _is_client(client)):
            raise SolverError("client must be None (start a LocalCluster), a distributed.Client or "
                              f"a scheduler address string, got {client!r}")
        self.seed = check_seed(seed)
        super().__init__(game)
        # the driver's solver holds the merged tables between rounds and evaluates them
        self._merged = ExternalSamplingMCCFR(game, seed=self.seed, backend="tree")
        self.workers = int(workers)
        self.merge = merge
        self.name = f"{self.name} ({self.workers} workers{', merge=sum' if merge == 'sum' else ''})"
        self.iterations_per_round = per_round
        self._shares = [per_round // workers + (k < per_round % workers) for k in range(workers)]
        shape = (game.tree().num_infosets, game.tree().max_actions)
        self._regret, self._strategy_sum = np.zeros(shape), np.zeros(shape)
        self._synced = True
        self.compute_seconds = self.cpu_seconds = 0.0
        self._token = uuid.uuid4().hex
        self._cluster: LocalCluster | None = None
        self._owns_client = not _is_client(client)
        if client is None:
            self._cluster = local_cluster(self.workers)
            connected = self._cluster.get_client()
        elif isinstance(client, str):
            connected = _dask().Client(client)
        else:
            connected = client
        self.client: Client | None = connected  # None once closed
        self._game_future = connected.scatter(game, broadcast=True, hash=False)

    # ------------------------------------------------------------------------- rounds
    @property
    def iterations_per_step(self) -> int:
        """A step is a round: ``iterations_per_round``."""
        return self.iterations_per_round

    @property
    def rounds(self) -> int:
        """The rounds run so far."""
        return self.iterations // self.iterations_per_round

    def run(self, iterations: int, eval_every: int | None = 1, *, progress: bool = False,
            **options: Any) -> ConvergenceLog:
        """:meth:`cfrlib.Solver.run` counted in rounds (``iterations`` rounds, an evaluation every
        ``eval_every`` rounds), with other defaults: an evaluation after every round, and no
        progress bar unless ``progress=True``."""
        return super().run(iterations, eval_every, progress=progress, **options)

    def _connected(self) -> Client:
        if self.client is None:
            raise SolverError(f"this {type(self).__name__} is closed")
        return self.client

    def _iteration(self) -> None:
        """One round: the shards' walks from the merged regrets, then the merge."""
        client = self._connected()
        seeds = np.random.SeedSequence(self.seed, spawn_key=(self.rounds,)).spawn(self.workers)
        regret = client.scatter(self._regret, broadcast=True, hash=False)
        # shard k goes to worker thread k (round robin), so that no thread idles while another
        # runs two shards; where a shard runs does not change its result
        slots = [w for w, threads in sorted(client.nthreads().items()) for _ in range(threads)]
        futures = [client.submit(_run_shard, self._game_future, self._token, regret, n, s,
                                      pure=False, workers=slots[k % len(slots)] if slots else None,
                                      allow_other_workers=True)
                   for k, (n, s) in enumerate(zip(self._shares, seeds))]
        results: list[Shard] = client.gather(futures)
        total = np.zeros_like(self._regret)
        for delta_regret, delta_sum, *_ in results:  # in shard order, whoever finished first
            total += delta_regret
            self._strategy_sum += delta_sum
        self._regret += total / self.workers if self.merge == "mean" else total
        self._synced = False
        self.nodes_touched += sum(r[2] for r in results)
        self.compute_seconds += max(r[3] for r in results)
        self.cpu_seconds += max(r[4] for r in results)

    # ---------------------------------------------------------------------- results
    def _solver(self) -> ExternalSamplingMCCFR:
        """The driver's serial solver, holding the merged tables."""
        if not self._synced:
            self._merged.set_state({"regret": self._regret, "strategy_sum": self._strategy_sum,
                                    "uniforms": np.empty(0)})
            self._synced = True
        return self._merged

    def average_strategy(self) -> Strategy:
        """``sigma-bar(I, a) = S(I, a) / sum_b S(I, b)`` over the merged sums, a ``cfrlib.Strategy``."""
        return self._solver().average_strategy()

    def current_strategy(self) -> Strategy:
        """``sigma^{T+1}``: regret matching on the merged regrets, a ``cfrlib.Strategy``."""
        return self._solver().current_strategy()

    def worker_peak_memory_mb(self) -> dict[str, float]:
        """``{worker address: peak resident memory in MB}`` of each worker process so far."""
        return dict(sorted(self._connected().run(_peak_rss_mb).items()))

    # --------------------------------------------------------------- save / load
    def _params(self) -> dict[str, Any]:
        return {"workers": self.workers, "iterations_per_round": self.iterations_per_round,
                "seed": self.seed, "merge": self.merge}

    def _arrays(self) -> dict[str, NDArray[Any]]:
        """The merged ``regret`` and ``strategy_sum``, and ``shard_seconds``: ``compute_seconds``
        and ``cpu_seconds``."""
        return {"regret": self._regret.copy(), "strategy_sum": self._strategy_sum.copy(),
                "shard_seconds": np.array([self.compute_seconds, self.cpu_seconds])}

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        shapes = {"regret": self._regret.shape, "strategy_sum": self._regret.shape,
                  "shard_seconds": (2,)}
        for name, shape in shapes.items():
            if arrays[name].shape != shape:
                raise SolverError(f"saved state {name!r} has shape {arrays[name].shape}, expected {shape}")
        self._regret[:], self._strategy_sum[:] = arrays["regret"], arrays["strategy_sum"]
        self.compute_seconds, self.cpu_seconds = arrays["shard_seconds"].tolist()
        self._synced = False

    # ---------------------------------------------------------------------- lifetime
    def close(self) -> None:
        """Drop this run's solvers from the workers; close the client and the LocalCluster if
        this solver started them (a client passed in stays open)."""
        if self.client is None:
            return
        if self.client.status == "running":
            self.client.run(_forget, self._token)
        if self._owns_client:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
        self.client = self._cluster = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} on {self.game.name}: {self.workers} workers, "
                f"{self.rounds} rounds of {self.iterations_per_round} iterations>")


def local_cluster(workers: int = 2) -> LocalCluster:
    """A ``distributed.LocalCluster`` of ``workers`` processes with one thread each, reachable on
    the loopback interface only, without dashboard, logging errors only. (The scheduler's small
    HTTP server, for health checks, takes a free loopback port rather than 8787, which another
    cluster may hold.) Close it when done, or use it in a ``with`` block."""
    return _dask().LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                host="127.0.0.1", dashboard_address=None,
                                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                silence_logs=logging.ERROR)


def _run_shard(game: Game, token: str, regret: NDArray[np.float64], iterations: int,
               seed_sequence: np.random.SeedSequence) -> Shard:
    """One shard of a round, on a worker: the serial solver from ``regret`` and zero sums, seeded
    from ``seed_sequence``, runs ``iterations`` iterations. Returns ``(Delta R, Delta S, nodes
    touched, seconds spent walking, processor seconds of the whole shard)``."""
    cpu = time.thread_time()
    key = (token, threading.get_ident())
    solver = _WORKER_SOLVERS.get(key)
    if solver is None:
        solver = _WORKER_SOLVERS[key] = ExternalSamplingMCCFR(game, seed=0, backend="tree")
    solver.set_state({"regret": regret, "strategy_sum": np.zeros_like(regret),
                      "uniforms": np.empty(0)})
    solver.rng.bit_generator.state = np.random.default_rng(seed_sequence).bit_generator.state
    before, start = solver.nodes_touched, time.perf_counter()
    solver.iterate(iterations)
    seconds = time.perf_counter() - start
    arrays = solver.state()
    delta_regret = arrays["regret"] - regret
    return (delta_regret, arrays["strategy_sum"], solver.nodes_touched - before, seconds,
            time.thread_time() - cpu)


def _forget(token: str) -> None:
    for key in [k for k in _WORKER_SOLVERS if k[0] == token]:
        del _WORKER_SOLVERS[key]


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _dask() -> Any:
    """Dask's ``distributed`` package, or a :class:`SolverError` that says how to install it."""
    try:
        import distributed
    except ImportError as err:
        raise SolverError("Dask is not installed: pip install distributed "
                          "(cfrlib's extra 'distributed')") from err
    return distributed


def _is_client(obj: object) -> bool:
    """Whether ``obj`` is a Dask client (none can exist unless Dask is imported)."""
    distributed = sys.modules.get("distributed")
    return distributed is not None and isinstance(obj, distributed.Client)
