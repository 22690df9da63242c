"""The sampling family against OpenSpiel's C++ MCCFR, per iteration and per node, same run.

Run from the repository root: ``python benchmarks/bench_sampling.py [--markdown] [--quick]``.
On Leduc and Kuhn, cfrlib's compiled walks (``backend="tree"``) and, for outcome and external
sampling, OpenSpiel 2.0.2's C++ solvers (``pyspiel.OutcomeSamplingMCCFRSolver(game)``, epsilon
0.6, and ``pyspiel.ExternalSamplingMCCFRSolver(game)``, whose default average is the "simple"
one cfrlib uses) timed in the same run on the same machine: an iteration is one traversal per
player for both. OpenSpiel runs in a subprocess of the anchor environment's python, found in
``CFRLIB_ANCHOR_PYTHON`` (default ``.venv-anchors/bin/python`` at the repository root); without
it the anchor columns say "not installed". OpenSpiel is driven as its Python users drive it, one
``run_iteration()`` call per iteration; cfrlib as its users do, ``solver.iterate(n)``.

Per node: cfrlib counts the histories its walks touch; OpenSpiel does not, and the same
estimator on the same game touches the same number of nodes per iteration in expectation, so
OpenSpiel's time per node is its time per iteration over cfrlib's nodes per iteration. The
textbook recursion (``backend="states"``) is timed too, as a ratio to the compiled walk.
Times are the median and the minimum over repeats, after a warm-up (the cost of an iteration
depends on the strategy, which changes fastest in the first iterations); the anchor and cfrlib
alternate, repeat by repeat, so both see the same load on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np

from common import print_table

from cfrlib import games
from cfrlib.solvers import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"leduc_poker": games.leduc, "kuhn_poker": games.kuhn}  # OpenSpiel name -> cfrlib
SOLVERS = {  # name -> (constructor, OpenSpiel class or None)
    "outcome sampling (epsilon 0.6)": (
        lambda g, b: OutcomeSamplingMCCFR(g, seed=0, backend=b), "OutcomeSamplingMCCFRSolver"),
    "external sampling": (
        lambda g, b: ExternalSamplingMCCFR(g, seed=0, backend=b), "ExternalSamplingMCCFRSolver"),
    "chance sampling": (lambda g, b: ChanceSamplingCFR(g, seed=0, backend=b), None),
}

ANCHOR = """
import json, sys, time
import pyspiel
game_name, solver_name, warmup, budget_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
solver = getattr(pyspiel, solver_name)(pyspiel.load_game(game_name))
run = solver.run_iteration
for _ in range(warmup):
    run()
start = time.perf_counter()
for _ in range(200):
    run()
iterations = max(200, int(budget_ms / ((time.perf_counter() - start) / 200 * 1e3)))
for line in sys.stdin:                      # one timed run per line received
    start = time.perf_counter()
    for _ in range(iterations):
        run()
    print(json.dumps((time.perf_counter() - start) / iterations * 1e3), flush=True)
"""


def anchor_python() -> Path | None:
    """The anchor environment's python, or None when it is not installed."""
    path = Path(os.environ.get("CFRLIB_ANCHOR_PYTHON", ROOT / ".venv-anchors" / "bin" / "python"))
    if not path.exists():
        return None
    probe = subprocess.run([str(path), "-c", "import pyspiel"], capture_output=True)
    return path if probe.returncode == 0 else None


class Anchor:
    """An OpenSpiel solver in a subprocess of ``python``: warmed up once, then ``timed()``
    returns the ms per iteration of one run of about ``budget_ms``."""

    def __init__(self, python, game, solver, warmup, budget_ms):
        self.process = subprocess.Popen(
            [str(python), "-c", ANCHOR, game, solver, str(warmup), str(budget_ms)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def timed(self) -> float:
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the OpenSpiel anchor failed: {self.process.stderr.read()[-2000:]}")
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def cfrlib_timer(make, game, backend, warmup, budget_ms):
    """``(timed, nodes_per_iteration)``: ``timed()`` returns the ms per iteration of one run
    sized to take about ``budget_ms``; ``nodes_per_iteration()`` over the runs so far."""
    solver = make(game, backend).iterate(warmup)
    start = time.perf_counter()
    solver.iterate(200)
    per = (time.perf_counter() - start) / 200 * 1e3
    iterations = max(200, int(budget_ms / per))
    nodes, done = solver.nodes_touched, solver.iterations

    def timed():
        start = time.perf_counter()
        solver.iterate(iterations)
        return (time.perf_counter() - start) / iterations * 1e3

    def nodes_per_iteration():
        return (solver.nodes_touched - nodes) / (solver.iterations - done)

    return timed, nodes_per_iteration


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter runs")
    args = parser.parse_args()
    repeat, budget, warmup = (3, 100, 2000) if args.quick else (9, 400, 20000)
    python = anchor_python()
    for game_name, make_game in GAMES.items():
        game = make_game()
        game.tree()
        rows = []
        for name, (make, anchor_class) in SOLVERS.items():
            timed, nodes = cfrlib_timer(make, game, "tree", warmup, budget)
            anchor = None
            if python is not None and anchor_class is not None:
                anchor = Anchor(python, game_name, anchor_class, warmup, budget)
            ours, theirs = [], []
            for _ in range(repeat):
                ours.append(timed())
                if anchor is not None:
                    theirs.append(anchor.timed())
            if anchor is not None:
                anchor.close()
            slow, _ = cfrlib_timer(make, game, "states", 100, budget / 4)
            textbook = statistics.median(slow() for _ in range(3))
            fast, best, per = statistics.median(ours), min(ours), nodes()
            row = {"solver": name, "nodes/it": f"{per:.1f}", "cfrlib ms/it": f"{fast:.5f}",
                   "cfrlib min": f"{best:.5f}", "cfrlib ns/node": f"{fast / per * 1e6:.1f}",
                   "textbook / compiled": f"{textbook / fast:.0f}x"}
            if anchor_class is not None:
                if theirs:
                    median, least = statistics.median(theirs), min(theirs)
                    row["OpenSpiel C++ ms/it"] = f"{median:.5f}"
                    row["OpenSpiel min"] = f"{least:.5f}"
                    row["OpenSpiel ns/node"] = f"{median / per * 1e6:.1f}"
                    row["OpenSpiel / cfrlib (median, min)"] = f"{median / fast:.1f}x, {least / best:.1f}x"
                else:
                    row["OpenSpiel C++ ms/it"] = "not installed"
            rows.append(row)
        header = list(dict.fromkeys(k for row in rows for k in row))
        print(f"{game_name}: ms per iteration, median of {repeat} runs of {budget} ms and their "
              f"minimum; Python {platform.python_version()}, numpy {np.__version__}; a ratio "
              "above 1 means cfrlib is faster\n")
        print_table(header, [[row.get(k, "") for k in header] for row in rows], args.markdown)
    if python is None:
        print("OpenSpiel: not installed (set CFRLIB_ANCHOR_PYTHON to a python with pyspiel, or "
              "install the anchors into .venv-anchors)")


if __name__ == "__main__":
    main()
