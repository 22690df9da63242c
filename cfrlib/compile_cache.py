"""Compile cfrlib's numba code into numba's on-disk cache: ``python -m cfrlib.compile_cache``.

The sampling walks (``cfrlib.solvers.sampling.kernels``), the sequence-form passes of the
full-width engine and of the exact evaluation (``cfrlib.sequence_form``), the hold'em layer's
kernels (``cfrlib.holdem``: the range-vector pass, the showdown kernels, the evaluator) and Deep
CFR's traversal are compiled on first use, about 40 s of CPU in all on a cold cache, and kept on
disk (``cache=True``) for every later process of this installation. ``make venv`` runs this once,
so that the test workers and notebook kernels that start together do not each compile the same
code. The jobs go to as many processes as there are cores, hold'em's (the longest) first.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from . import CFR, best_response_value, expected_value, exploitability, games, holdem
from .deep_cfr import DeepCFR
from .evaluation import counterfactual_regrets
from .holdem import toys
from .solvers.sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

SOLVERS = {"chance sampling": ChanceSamplingCFR, "external sampling": ExternalSamplingMCCFR,
           "outcome sampling": OutcomeSamplingMCCFR}
RANGE_VECTOR = "range-vector CFR"
FULL_WIDTH = "full-width CFR"
DEEP_CFR = "Deep CFR"


def compile_one(name: str) -> str:
    """Run the walk of sampling solver ``name`` twice on Kuhn (every rule runs the same compiled
    walk), read its regrets (``settled``), set its state and run the exact evaluation once; for
    ``FULL_WIDTH``, iterate the full-width engine and evaluate its strategy on Kuhn every way (its
    own exploitability, a best response, counterfactual regrets); for ``DEEP_CFR``, one iteration
    of Deep CFR on Kuhn with the smallest networks; for ``RANGE_VECTOR``, iterate, query and
    evaluate the range-vector solver on Leduc (with threads) and on a hold'em river, and the hand
    evaluator's entry points."""
    if name == RANGE_VECTOR:
        ranges = holdem.RangeSolver(toys.leduc(), threads=2).iterate(2)
        ranges.hand_values(0, ["Check"])
        ranges.equity(0)
        river = holdem.holdem_game(holdem.TreeConfig("river", 100, 100, {"river": ("a", "")}), "Td9d6hQc2s",
                                   ["AA", "KK"])
        holdem.RangeSolver(river, threads=1).iterate(2).exploitability()
        hands = np.array([[0, 1], [2, 3]])
        holdem.evaluator.river_strengths("Td9d6hQc", hands)
        holdem.evaluator.strengths("Td9d6hQc2s", hands)
        holdem.evaluator.evaluate(np.arange(7))
        return name
    kuhn = games.kuhn()
    if name == FULL_WIDTH:
        cfr = CFR(kuhn).iterate(2)
        expected_value(kuhn, cfr.average_strategy())
        cfr.exploitability()
        best_response_value(kuhn, cfr.average_strategy(), 0)
        counterfactual_regrets(kuhn, cfr.average_strategy(), 0)
        return name
    if name == DEEP_CFR:
        DeepCFR(kuhn, traversals=2, hidden=(2,), advantage_steps=1, policy_steps=1,
                batch_size=2).iterate(1)
        return name
    solver = SOLVERS[name](kuhn, seed=0).iterate(2)
    _ = solver.regret
    solver.set_state(solver.state())
    exploitability(kuhn, solver.average_strategy())
    return name


def compile_all(processes: int | None = None) -> float:
    """Compile every job of :func:`compile_one`, ``processes`` at once (default: the number of
    cores); the seconds it took."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=processes or os.cpu_count() or 1) as pool:
        list(pool.map(compile_one, [RANGE_VECTOR, FULL_WIDTH, *SOLVERS, DEEP_CFR]))
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"cfrlib: numba code compiled and cached in {compile_all():.1f} s")
