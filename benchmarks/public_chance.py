"""Public chance sampling against chance sampling on Leduc, at equal nodes touched and equal
time, over several seeds (issue 23).

Run from the repository root: ``python benchmarks/public_chance.py [--quick]``. Every run is
``PublicChanceSamplingCFR(leduc, seed=s)`` or ``ChanceSamplingCFR(leduc, seed=s)`` (alternating
updates, regret matching, the tree backend's compiled walk), evaluated whenever its nodes
touched pass one of ``BUDGETS``; each evaluation records the nodes touched, the seconds spent
iterating (evaluation excluded) and the exploitability. The runs go to
``cfrbook/data/public_chance.json`` (``{"games": {"leduc": {"seeds", "budgets", "runs": {method:
[[[nodes, seconds, exploitability] per budget] per seed]}}}, "machine"}``); the script prints the medians over seeds
at each budget, with the seconds each method took to get there.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics

import numpy as np

from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.solvers import ChanceSamplingCFR, PublicChanceSamplingCFR
import provenance

METHODS = {"public chance sampling": PublicChanceSamplingCFR, "chance sampling": ChanceSamplingCFR}
SEEDS = (0, 1, 2, 3, 4)
BUDGETS = (100_000, 300_000, 1_000_000, 3_000_000, 10_000_000, 30_000_000)


def run(klass, seed, budgets):
    """``[nodes, seconds, exploitability]`` of one run at each of ``budgets`` nodes touched."""
    solver = klass(games.leduc(), seed=seed)
    solver.iterate(1)                               # numba loads its walk before the clock runs
    solver = klass(games.leduc(), seed=seed)
    step = 1 if klass is PublicChanceSamplingCFR else 20
    rows = []
    for budget in budgets:
        while solver.nodes_touched < budget:
            solver.iterate(step)
        rows.append([solver.nodes_touched, solver.seconds, solver.exploitability()])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="two seeds, to 1 million nodes, not saved")
    args = parser.parse_args()
    seeds, budgets = (SEEDS[:2], BUDGETS[:3]) if args.quick else (SEEDS, BUDGETS)
    runs = {name: [run(klass, s, budgets) for s in seeds] for name, klass in METHODS.items()}
    print("median over seeds " + ", ".join(map(str, seeds)) + ": exploitability (seconds)")
    print(f"{'nodes':>10} " + " ".join(f"{name:>26}" for name in METHODS))
    for k, budget in enumerate(budgets):
        cells = [(statistics.median(r[k][2] for r in runs[name]), statistics.median(r[k][1] for r in runs[name]))
                 for name in METHODS]
        print(f"{budget:>10} " + " ".join(f"{e:>17.4g} ({s:5.2f} s)" for e, s in cells))
    if args.quick:
        return
    data = {"machine": {"python": platform.python_version(), "numpy": np.__version__,
                        "machine": platform.machine()},
            "games": {"leduc": {"seeds": list(seeds), "budgets": list(budgets), "runs": runs}}}
    source_path("public_chance").write_text(json.dumps(data, indent=1))
    provenance.stamp("public_chance")


if __name__ == "__main__":
    main()
