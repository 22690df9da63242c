"""The sampling family: milliseconds per iteration on Leduc (issue 5).

Run from the repository root: ``python benchmarks/bench_sampling.py [--markdown] [--quick]``.
For each solver: the compiled walk (``backend="tree"``) and the textbook recursion on the state
API (``backend="states"``), nodes touched per iteration, and OpenSpiel 2.0.2's published times
per iteration on Leduc (timed on this kind of machine, one core, when this project started:
Python outcome sampling 0.40 ms, external sampling 0.76 ms; C++ 0.019 and 0.043 ms) as ratios. When OpenSpiel (``pyspiel``) is importable
its C++ and Python MCCFR solvers also run here, in the same process, and get their own columns.
Times are medians over repeats (the machine is shared), after a warm-up: the cost of an
iteration depends on the strategy, which changes fastest in the first iterations.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from common import print_table, time_per_call

from cfrlib import games
from cfrlib.solvers import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

SOLVERS = {
    "chance sampling": (lambda g, b: ChanceSamplingCFR(g, seed=0, backend=b), None),
    "chance sampling (simultaneous)": (
        lambda g, b: ChanceSamplingCFR(g, seed=0, alternating=False, backend=b), None),
    "external sampling": (lambda g, b: ExternalSamplingMCCFR(g, seed=0, backend=b), "external"),
    "outcome sampling (epsilon 0.6)": (lambda g, b: OutcomeSamplingMCCFR(g, seed=0, backend=b), "outcome"),
}
PUBLISHED = {"outcome": (0.40, 0.019), "external": (0.76, 0.043)}  # OpenSpiel Python, C++ (ms)


def ms_per_iteration(step, iterations, repeat):
    """Median and minimum over ``repeat`` runs of the milliseconds per iteration of
    ``step(iterations)`` (the minimum is the least disturbed by other work on the machine)."""
    median, best = time_per_call(step, iterations, repeat)
    return median * 1e3, best * 1e3


def measure(make, game, backend, budget_ms, repeat, warmup):
    """(median ms per iteration, minimum, nodes touched per iteration) after ``warmup``
    iterations; each timed run takes about ``budget_ms``."""
    solver = make(game, backend).iterate(warmup)
    probe = time.perf_counter()
    solver.iterate(20)
    per = (time.perf_counter() - probe) / 20 * 1e3
    iterations = max(20, int(budget_ms / per))
    nodes, done = solver.nodes_touched, solver.iterations
    median, best = ms_per_iteration(solver.iterate, iterations, repeat)
    return median, best, (solver.nodes_touched - nodes) / (solver.iterations - done)


def openspiel(kind, repeat):
    """OpenSpiel's C++ and Python ms per iteration on Leduc, or None when it is not installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    if kind == "outcome":
        cpp = pyspiel.OutcomeSamplingMCCFRSolver(game)
        python = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    else:
        cpp = pyspiel.ExternalSamplingMCCFRSolver(game)
        python = external_sampling_mccfr.ExternalSamplingSolver(game)

    def run_cpp(n):
        for _ in range(n):
            cpp.run_iteration()

    def run_python(n):
        for _ in range(n):
            python.iteration()

    run_cpp(1000), run_python(100)
    return ms_per_iteration(run_cpp, 5000, repeat)[0], ms_per_iteration(run_python, 300, repeat)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter runs")
    args = parser.parse_args()
    repeat, budget = (3, 150) if args.quick else (9, 600)
    game = games.leduc()
    game.tree()
    rows = []
    for name, (make, kind) in SOLVERS.items():
        fast, best, nodes = measure(make, game, "tree", budget, repeat, warmup=1000)
        slow, _, _ = measure(make, game, "states", budget, max(3, repeat // 3), warmup=100)
        row = {"solver": name, "nodes/it": f"{nodes:.0f}", "tree ms/it": f"{fast:.4f}",
               "(min)": f"{best:.4f}", "us/node": f"{fast / nodes * 1e3:.2f}",
               "states ms/it": f"{slow:.3f}", "states/tree": f"{slow / fast:.1f}x"}
        if kind:
            py, cpp = PUBLISHED[kind]
            row["OpenSpiel Python (published) / ours"] = f"{py} ms / ours = {py / fast:.0f}x"
            row["OpenSpiel C++ (published) / ours"] = f"{cpp} ms / ours = {cpp / fast:.2f}x"
            measured = openspiel(kind, repeat)
            if measured is not None:
                row["OpenSpiel C++ here / ours"] = f"{measured[0]:.4f} ms / ours = {measured[0] / fast:.2f}x"
                row["OpenSpiel Python here / ours"] = f"{measured[1]:.3f} ms / ours = {measured[1] / fast:.0f}x"
        rows.append(row)
    header = list(dict.fromkeys(k for row in rows for k in row))
    print(f"Leduc, ms per iteration (median of {repeat}, and the minimum); Python "
          f"{platform.python_version()}, numpy {np.__version__}; an iteration is one traversal per "
          "player (OpenSpiel's too); a ratio above 1 means ours is faster\n")
    print_table(header, [[row.get(k, "") for k in header] for row in rows], args.markdown)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel (pyspiel) is not installed: only its published times are compared.")


if __name__ == "__main__":
    main()
