"""External sampling on Leduc with each local rule: RM, RM+, DCFR's discounts (1.5, 0) and
Linear CFR's (1, 1), exploitability at equal traversals over several seeds (issue 24).

Run from the repository root: ``python benchmarks/sampling_rules_curves.py [--quick]``. Every
run is ``ExternalSamplingMCCFR(leduc, seed=s, regret_minimizer=rule)`` (an iteration is one
traversal per player, so equal iterations are equal traversals; the simple average, uniform
over iterations, for every rule), evaluated at ``CHECKPOINTS``. The curves go to
``cfrbook/data/sampling_rules.json`` (``{"games": {"leduc": {rule: {"seeds": [...],
"iterations": [...], "exploitability": [[per seed] per checkpoint]}}}, "machine": ...}``);
the script prints the median over seeds at each checkpoint, and each rule's median over RM's.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics

import numpy as np

from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.solvers import ExternalSamplingMCCFR
from cfrlib.solvers.regret_minimizers import RegretMatching
import provenance

RULES = {"RM": "rm", "RM+": "rm+", "DCFR (1.5, 0)": RegretMatching(1.5, 0.0),
         "LCFR (1, 1)": RegretMatching(1.0, 1.0)}
SEEDS = (0, 1, 2, 3, 4)
CHECKPOINTS = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000)


def curve(rule, seed, checkpoints):
    """Exploitability of ES on Leduc with ``rule`` and ``seed`` at each of ``checkpoints``."""
    solver = ExternalSamplingMCCFR(games.leduc(), seed=seed, regret_minimizer=rule)
    values = []
    for n in checkpoints:
        solver.iterate(n - solver.iterations)
        values.append(solver.exploitability())
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="two seeds, to 30,000 iterations, not saved")
    args = parser.parse_args()
    seeds, checkpoints = (SEEDS[:2], CHECKPOINTS[:4]) if args.quick else (SEEDS, CHECKPOINTS)
    runs = {name: [curve(rule, s, checkpoints) for s in seeds] for name, rule in RULES.items()}
    print("median exploitability over seeds " + ", ".join(map(str, seeds)) + " (ratio to RM)")
    print(f"{'iterations':>10} " + " ".join(f"{name:>22}" for name in RULES))
    for k, n in enumerate(checkpoints):
        rm = statistics.median(run[k] for run in runs["RM"])
        cells = [statistics.median(run[k] for run in runs[name]) for name in RULES]
        print(f"{n:>10} " + " ".join(f"{c:>13.4g} ({c / rm:.2f}x)" for c in cells))
    if args.quick:
        return
    data = {"machine": {"python": platform.python_version(), "numpy": np.__version__,
                        "machine": platform.machine()},
            "games": {"leduc": {name: {"seeds": list(seeds), "iterations": list(checkpoints),
                                       "exploitability": [[run[k] for run in runs[name]]
                                                          for k in range(len(checkpoints))]}
                                for name in RULES}}}
    source_path("sampling_rules").write_text(json.dumps(data, indent=1))
    provenance.stamp("sampling_rules")


if __name__ == "__main__":
    main()
