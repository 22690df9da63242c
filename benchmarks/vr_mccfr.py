"""VR-MCCFR against plain outcome sampling on Leduc: exploitability at equal iterations and the
variance of the regret updates, over several seeds (issue 23).

Run from the repository root: ``python benchmarks/vr_mccfr.py [--quick]``. Every run is
``OutcomeSamplingMCCFR(leduc, seed=s)`` (plain OS, the zero baseline) or the same with
``baseline="learned"`` (VR-MCCFR, rate 0.5), epsilon 0.6 for both; an iteration samples one
trajectory per player for both, so equal iterations are equal samples (and nearly equal nodes).
Exploitability is evaluated at ``CHECKPOINTS``. At ``VARIANCE_AT``, a copy of each run (saved
and loaded, so the run itself draws on undisturbed) measures ``solver.regret_variance(SAMPLES)``,
the variance of one iteration's regret update per (infoset, action), summed over entries: for
plain OS at its own state, for VR-MCCFR with its learned baseline, and for VR-MCCFR's state with
the baseline set to zero (plain OS's estimator on the same regrets). The numbers go to
``cfrbook/data/vr_mccfr.json`` (``{"games": {"leduc": {"seeds", "iterations", "exploitability":
{method: [[per seed] per checkpoint]}, "variance": {"iterations", "samples", method: [[per seed]
per point]}}}, "machine"}``); the script prints the medians over seeds.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import tempfile
from pathlib import Path

import numpy as np

from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.solvers import OutcomeSamplingMCCFR
import provenance

METHODS = {"OS": "none", "VR-MCCFR": "learned"}
SEEDS = (0, 1, 2, 3, 4)
CHECKPOINTS = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
VARIANCE_AT = (1_000, 10_000, 100_000, 1_000_000)
SAMPLES = 1000


def variances(solver):
    """``{method: summed variance}`` measured on a copy of ``solver`` (see the module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "copy.npz"
        solver.save(path)
        copy = OutcomeSamplingMCCFR.load(path, solver.game)
    if copy.baseline == "none":
        return {"OS": float(copy.regret_variance(SAMPLES).sum())}
    learned = float(copy.regret_variance(SAMPLES).sum())
    copy.tables.baseline[:] = 0.0
    return {"VR-MCCFR": learned, "zero baseline at VR-MCCFR's state": float(copy.regret_variance(SAMPLES).sum())}


def run(baseline, seed, checkpoints, variance_at):
    """Exploitability at ``checkpoints`` and ``variances`` at ``variance_at`` of one run."""
    solver = OutcomeSamplingMCCFR(games.leduc(), seed=seed, baseline=baseline)
    values, spread = [], []
    for n in checkpoints:
        solver.iterate(n - solver.iterations)
        values.append(solver.exploitability())
        if n in variance_at:
            spread.append(variances(solver))
    return values, spread


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="two seeds, to 30,000 iterations, not saved")
    args = parser.parse_args()
    seeds, checkpoints = (SEEDS[:2], CHECKPOINTS[:4]) if args.quick else (SEEDS, CHECKPOINTS)
    variance_at = [n for n in VARIANCE_AT if n in checkpoints]
    runs = {name: [run(baseline, s, checkpoints, variance_at) for s in seeds]
            for name, baseline in METHODS.items()}
    exploitability = {name: [[r[0][k] for r in runs[name]] for k in range(len(checkpoints))]
                      for name in METHODS}
    variance = {key: [[r[1][k][key] for r in runs[name]] for k in range(len(variance_at))]
                for name in METHODS for key in runs[name][0][1][0]}
    print("median over seeds " + ", ".join(map(str, seeds)))
    print(f"{'iterations':>10} {'OS':>10} {'VR-MCCFR':>10} ratio")
    for k, n in enumerate(checkpoints):
        os_, vr = (statistics.median(exploitability[name][k]) for name in METHODS)
        print(f"{n:>10} {os_:>10.4g} {vr:>10.4g} {os_ / vr:.2f}")
    print("summed variance of one iteration's regret update")
    for k, n in enumerate(variance_at):
        print(f"{n:>10} " + "  ".join(f"{key}: {statistics.median(v[k]):.4g}" for key, v in variance.items()))
    if args.quick:
        return
    data = {"machine": {"python": platform.python_version(), "numpy": np.__version__,
                        "machine": platform.machine()},
            "games": {"leduc": {"epsilon": 0.6, "baseline_rate": 0.5, "seeds": list(seeds),
                                "iterations": list(checkpoints), "exploitability": exploitability,
                                "variance": {"iterations": variance_at, "samples": SAMPLES, **variance}}}}
    source_path("vr_mccfr").write_text(json.dumps(data, indent=1))
    provenance.stamp("vr_mccfr")


if __name__ == "__main__":
    main()
