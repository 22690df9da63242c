"""Compile cfrlib's numba code into numba's on-disk cache: ``python -m cfrlib.compile_cache``.

The sampling walks (``cfrlib.solvers.sampling.kernels``) and the exact best response
(``cfrlib.sequence_form``) are compiled on first use, about 15 s in all on a cold cache, and kept
on disk (``cache=True``) for every later process of this installation. ``make venv`` runs this
once, so that the test workers and notebook kernels that start together do not each compile
the same code.
"""

from __future__ import annotations

import time

from . import exploitability, games
from .solvers.sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR


def compile_all() -> float:
    """Run every compiled walk and the exact evaluation once on Kuhn; the seconds it took."""
    start = time.perf_counter()
    kuhn = games.kuhn()
    for solver in (ChanceSamplingCFR(kuhn, seed=0), ExternalSamplingMCCFR(kuhn, seed=0),
                   OutcomeSamplingMCCFR(kuhn, seed=0)):
        exploitability(kuhn, solver.iterate(2).average_strategy())
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"cfrlib: numba code compiled and cached in {compile_all():.1f} s")
