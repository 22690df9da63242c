"""Exploitability against iterations, nodes touched and seconds: the sampling family against
vanilla CFR on Leduc and Bluff 1x1 (the data of chapters 6 and 7).

Every solver's nodes touched count the nodes its walk visits: the samplers skip what they do not
sample, and CFR is counted as a walk that skips subtrees no player reaches (``count_pruned=True``),
the one rule of chapters 6 and 7 for work.

Run from the repository root: ``python benchmarks/sampling_curves.py [--quick]``. Each solver
runs for a fixed number of iterations per game (about the same time on an idle machine, so the
curves are the same on every run except for the seconds), with evaluations at the iteration
counts of ``cfrbook.comparison.schedule`` (the time of the evaluations is not counted in ``seconds``). The curves
go to ``cfrbook/data/sampling_curves.json`` (``{"games": {game: {solver:
ConvergenceLog.to_dict()}}, "comparison": ..., "machine": ...}``) and the script prints, for
chance sampling against vanilla CFR, the exploitability each reached at the same number of
iterations, of nodes touched and of seconds: does the finding of the Rust CFR
blog post among the book's sources (chance sampling converges faster on Bluff) hold?
"""

from __future__ import annotations

import argparse
import json
import os
import platform

import numpy as np

from cfrbook.comparison import convergence_curve
from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.solvers import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from cfrlib.solvers.fullwidth import CFR

SOLVERS = {
    "CFR": lambda g: CFR(g, count_pruned=True),
    "chance sampling": lambda g: ChanceSamplingCFR(g, seed=0),
    "external sampling": lambda g: ExternalSamplingMCCFR(g, seed=0),
    "outcome sampling": lambda g: OutcomeSamplingMCCFR(g, epsilon=0.6, seed=0),
}
GAMES = {"leduc": games.leduc, "bluff11": games.bluff}
ITERATIONS = {  # per game and solver: about 5 s on Leduc and 20 s on Bluff, idle machine
    "leduc": {"CFR": 20_000, "chance sampling": 50_000, "external sampling": 150_000,
              "outcome sampling": 300_000},
    "bluff11": {"CFR": 3_000, "chance sampling": 6_000, "external sampling": 50_000,
                "outcome sampling": 700_000},
}
OUT = source_path("sampling_curves")


def compare(logs, a="chance sampling", b="CFR", fractions=(0.01, 0.1, 1.0)):
    """Per axis, the exploitability of ``a`` and ``b`` at ``fractions`` of the largest budget
    both reached: ``{axis: [{"budget": x, a: ..., b: ...}, ...]}``."""
    out = {}
    for column in ("iteration", "nodes_touched", "seconds"):
        common = min(getattr(logs[a], column)[-1], getattr(logs[b], column)[-1])
        out[column] = [{"budget": float(f * common), a: logs[a].exploitability_at(f * common, column),
                        b: logs[b].exploitability_at(f * common, column)} for f in fractions]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    data = {"machine": {"python": platform.python_version(), "numpy": np.__version__,
                        "cores": os.cpu_count(), "load_average": os.getloadavg()},
            "games": {}, "comparison": {}}
    for name, make_game in GAMES.items():
        game = make_game()
        game.tree()
        logs = {}
        for solver_name, make in SOLVERS.items():
            logs[solver_name] = convergence_curve(make(game), ITERATIONS[name][solver_name] // scale)
            last = logs[solver_name].rows[-1]
            print(f"{name:8} {solver_name:18} {last[0]:>9,} it  {last[1]:>14,} nodes  "
                  f"{last[2]:6.2f} s  exploitability {last[3]:.4g}", flush=True)
        data["games"][name] = {k: log.to_dict() for k, log in logs.items()}
        data["comparison"][name] = compare(logs)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1))
    print(f"\nwrote {OUT}\n\nchance sampling against vanilla CFR at 1%, 10% and 100% of the "
          "largest budget both reached (exploitability; the lower wins):")
    for name, axes in data["comparison"].items():
        for column, rows in axes.items():
            for row in rows:
                cs, cfr = row["chance sampling"], row["CFR"]
                winner = "tie" if cs == cfr else "chance sampling" if cs < cfr else "CFR"
                print(f"  {name:8} {column:14} {row['budget']:>14,.6g}: chance sampling {cs:.4g}, "
                      f"CFR {cfr:.4g} -> {winner}")


if __name__ == "__main__":
    main()
