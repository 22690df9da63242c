"""The sequence-form LP against CFR+ and DCFR: time and memory to exploitability 1e-3, 1e-6 and exact.

Run from the repository root: ``python benchmarks/bench_lp.py [--markdown] [--quick] [--write-data]``.
Every measurement (one method on one game) runs in a fresh Python process. It reports the
memory of the method itself (the peak resident memory while it ran, ``VmHWM`` after resetting
the mark through ``/proc/self/clear_refs``, above what was resident after compiling the tree),
the peak of the whole process (``ru_maxrss``, dominated by compiling the tree), and its
CPU seconds (``time.process_time``, robust to other work on a shared machine) and wall seconds.
The LP (:func:`cfrlib.solve_lp`, with HiGHS's dual simplex and with its interior-point method)
is timed from building its matrices to the solution; it reaches every target at once. CFR+ and DCFR(1.5, 0, 2) iterate until the exploitability of the
average strategy reaches each target, checked whenever the iteration count has grown by 10%;
their time counts iterations only (the checks are not counted, the overshoot of a check is at
most 10%) and a target not reached within the budget (CPU seconds, checks included) is
reported as such. "Exact" means exploitability <= 1e-12, where the LP's solutions land
(1e-15 to 1e-16) and floating-point evaluation stops being meaningful much below.
``--write-data`` writes the results to ``cfrbook/data/lp_vs_cfr.json`` (chapter 10 reads it).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

from cfrbook.datasets import source_path

HERE = Path(__file__).resolve().parent
DATA = source_path("lp_vs_cfr")
TARGETS = {"1e-3": 1e-3, "1e-6": 1e-6, "exact": 1e-12}
GAMES = {  # key: (label, budget CPU seconds, quick budget)
    "kuhn": ("Kuhn", 30.0, 5.0),
    "leduc": ("Leduc", 60.0, 10.0),
    "short_deck": ("Short Deck Big Leduc", 300.0, 20.0),
}
METHODS = {"LP, simplex": "highs-ds", "LP, interior point": "highs-ipm", "CFR+": None, "DCFR": None}
"""The LP twice, with HiGHS's dual simplex and with its interior-point method (with crossover)."""


def make_game(key):
    from cfrbook import comparison

    return comparison.make_game(key)  # the games of chapter 10's study, built the same way


def max_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def status_mb(field):
    """``VmRSS`` (resident now) or ``VmHWM`` (peak) of this process from /proc, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return None


def reset_peak():
    """Reset the kernel's peak-RSS mark (Linux >= 4.0), so VmHWM measures from here on."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def worker(key, method, budget):
    """Run one measurement in this (fresh) process and print its result as one JSON line."""
    import cfrlib

    game = make_game(key)
    start = time.perf_counter()
    tree = game.tree()
    out = {"game": key, "method": method, "budget_seconds": budget,
           "compile_seconds": time.perf_counter() - start, "infosets": tree.num_infosets,
           "rss_after_compile_mb": max_rss_mb()}
    gc.collect()
    resident = status_mb("VmRSS")
    can_reset = reset_peak()
    if METHODS[method]:
        cpu, wall = time.process_time(), time.perf_counter()
        solution = cfrlib.solve_lp(game, method=METHODS[method])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        reached = cfrlib.exploitability(game, solution.strategy)
        out.update(value=solution.value, exploitability=reached, iterations=None,
                   sequences=sum(solution.num_sequences), variables=solution.num_variables,
                   constraints=solution.num_constraints, nonzeros=solution.nonzeros,
                   targets={name: {"cpu_seconds": cpu, "seconds": wall, "iterations": None}
                            if reached <= target else None for name, target in TARGETS.items()})
    else:
        solver = cfrlib.CFRPlus(game) if method == "CFR+" else cfrlib.DCFR(game, 1.5, 0.0, 2.0)
        targets = {name: None for name in TARGETS}
        cpu_iterating, start, value = 0.0, time.process_time(), math.inf
        while time.process_time() - start < budget:
            step = max(1, math.ceil(solver.iterations * 0.1))
            cpu = time.process_time()
            solver.iterate(step)
            cpu_iterating += time.process_time() - cpu
            value = solver.exploitability()
            for name, target in TARGETS.items():
                if targets[name] is None and value <= target:
                    targets[name] = {"cpu_seconds": cpu_iterating, "seconds": solver.seconds,
                                     "iterations": solver.iterations}
            if targets["exact"] is not None:
                break
        out.update(value=cfrlib.expected_value(game, solver.average_strategy()),
                   exploitability=value, iterations=solver.iterations, targets=targets)
    out["peak_rss_mb"] = max_rss_mb()
    # the method's own memory: peak resident memory since the tree was compiled, above what was
    # resident then (the tree, Python, numpy and scipy)
    out["resident_before_mb"] = resident
    out["method_peak_mb"] = status_mb("VmHWM") - resident if can_reset else None
    print(json.dumps(out))


def measure(key, method, budget):
    command = [sys.executable, __file__, "--worker", key, method, str(budget)]
    result = subprocess.run(command, check=True, capture_output=True, text=True, cwd=HERE.parent)
    return json.loads(result.stdout.strip().splitlines()[-1])


def cell(result, name):
    hit = result["targets"][name]
    if hit is None:
        return f"not reached in {result['budget_seconds']:g} s"
    its = "" if hit["iterations"] is None else f" ({hit['iterations']:,} it.)"
    return f"{hit['cpu_seconds']:.3g} s{its}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="short budgets, Kuhn and Leduc only")
    parser.add_argument("--write-data", action="store_true", help=f"write {DATA.relative_to(HERE.parent)}")
    parser.add_argument("--worker", nargs=3, metavar=("GAME", "METHOD", "BUDGET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        key, method, budget = args.worker
        worker(key, method, float(budget))
        return

    keys = [k for k in GAMES if not (args.quick and k == "short_deck")]
    started = time.perf_counter()
    results = []
    for key in keys:
        label, budget, quick_budget = GAMES[key]
        for method in METHODS:
            results.append(measure(key, method, quick_budget if args.quick else budget))
            print(f"  {label} {method}: done", file=sys.stderr, flush=True)

    header = ("game", "method", *(f"to {name}" for name in TARGETS), "final exploitability", "method MB",
              "process peak MB")
    rows = []
    for r in results:
        rows.append((GAMES[r["game"]][0], r["method"], *(cell(r, name) for name in TARGETS),
                     f"{r['exploitability']:.1e}",
                     "-" if r["method_peak_mb"] is None else f"{r['method_peak_mb']:.1f}",
                     f"{r['peak_rss_mb']:.0f}"))
    lp_rows = [(GAMES[r["game"]][0], f"{r['sequences']:,}", f"{r['variables']:,}",
                f"{r['constraints']:,}", f"{r['nonzeros']:,}", f"{r['value']:.10f}")
               for r in results if r["method"] == "LP, simplex"]

    from common import print_table

    print("CPU seconds to each exploitability (CFR: iterations only; LP: build and solve); "
          "method MB: peak resident memory while the method ran, above what was resident after "
          "compiling the tree; process peak MB: the whole process, tree compilation included\n")
    print_table(header, rows, args.markdown)
    print_table(("game", "sequences", "LP variables", "LP constraints", "nonzeros", "value (player 0)"),
                lp_rows, args.markdown)
    if args.write_data:
        import numpy as np
        import scipy

        payload = {
            "about": "benchmarks/bench_lp.py --write-data: the sequence-form LP against CFR+ and "
                     "DCFR(1.5, 0, 2), time and peak memory to each exploitability target",
            "machine": {"date": str(datetime.date.today()), "cores": os.cpu_count(),
                        "python": platform.python_version(), "numpy": np.__version__,
                        "scipy": scipy.__version__,
                        "total_seconds": time.perf_counter() - started},
            "targets": TARGETS,
            "games": {key: {"label": GAMES[key][0], "budget_seconds": GAMES[key][1]} for key in keys},
            "results": results,
        }
        DATA.write_text(json.dumps(payload, indent=1) + "\n")
        print(f"data written to {DATA.relative_to(HERE.parent)}", file=sys.stderr)


if __name__ == "__main__":
    main()
