"""Sampling with a local rule as data: time per iteration of each rule against the default walk and against the walk before rules existed (issue 24).

Run from the repository root: ``python benchmarks/bench_sampling_rules.py [--markdown] [--quick]
[--baseline DIR]``. ``DIR`` is a checkout of cfrlib before the change (for example
``git archive 8fa7fe3 | tar -x -C DIR``); without it the ratios are to this checkout's default
walk only. Each version runs in a process of its own (its own numba cache), every solver built
and warmed up once; then, repeat after repeat, each configuration runs the same number of
iterations in the baseline and in this checkout one after the other, so both see the same load
on a shared machine. Figures are medians over the repeats of the ms per iteration, and the
ratio of each rule's median to the baseline's default walk (below 1.25 is the target), per
iteration and per node touched.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from common import print_table

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("kuhn", "leduc")
SOLVERS = {"external sampling": "ExternalSamplingMCCFR", "outcome sampling": "OutcomeSamplingMCCFR",
           "chance sampling": "ChanceSamplingCFR"}
RULES = {"default": None, "RM+": "'rm+'", "DCFR (1.5, 0)": "RegretMatching(1.5, 0.0)"}
ITERATIONS = {  # per timed run: about 0.1 s on an idle machine
    ("kuhn", "external sampling"): 250_000, ("kuhn", "outcome sampling"): 250_000,
    ("kuhn", "chance sampling"): 150_000, ("leduc", "external sampling"): 100_000,
    ("leduc", "outcome sampling"): 150_000, ("leduc", "chance sampling"): 40_000}

WORKER = """
import json, sys, time
from cfrlib import games, solvers
from cfrlib.solvers.regret_minimizers import RegretMatching
solvers_built = []
for game, solver, rule, warmup in json.loads(sys.argv[1]):
    options = {} if rule is None else {"regret_minimizer": eval(rule)}
    built = getattr(solvers, solver)(getattr(games, game)(), seed=0, backend="tree", **options)
    solvers_built.append(built.iterate(warmup))
print("ready", flush=True)
for line in sys.stdin:                      # "k n": time n iterations of configuration k
    k, n = map(int, line.split())
    nodes, start = solvers_built[k].nodes_touched, time.perf_counter()
    solvers_built[k].iterate(n)
    seconds = time.perf_counter() - start
    print(json.dumps([seconds / n * 1e3, seconds / (solvers_built[k].nodes_touched - nodes) * 1e9]),
          flush=True)
"""


class Worker:
    """A process of the cfrlib found in ``root`` holding the solvers of ``configs`` (``[game,
    solver class, rule expression or None, warm-up iterations]``)."""

    def __init__(self, root, configs):
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.process = subprocess.Popen([sys.executable, "-c", WORKER, json.dumps(configs)], cwd=root,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the worker of {root} failed to start")

    def timed(self, k, n):
        self.process.stdin.write(f"{k} {n}\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter runs")
    parser.add_argument("--baseline", type=Path, help="a checkout of cfrlib before rules existed")
    args = parser.parse_args()
    repeat, scale = (3, 0.25) if args.quick else (9, 1.0)
    cases = [(g, s) for g in GAMES for s in SOLVERS]
    new_configs = [[g, SOLVERS[s], RULES[r], 20_000] for g, s in cases for r in RULES]
    new = Worker(ROOT, new_configs)
    old = None if args.baseline is None else Worker(args.baseline, [[g, SOLVERS[s], None, 20_000]
                                                                      for g, s in cases])
    times = {}
    for _ in range(repeat):
        for c, (g, s) in enumerate(cases):
            n = max(1000, int(ITERATIONS[(g, s)] * scale))
            if old is not None:
                times.setdefault((g, s, "before"), []).append(old.timed(c, n))
            for j, r in enumerate(RULES):
                times.setdefault((g, s, r), []).append(new.timed(c * len(RULES) + j, n))
    for worker in (new, old):
        if worker is not None:
            worker.close()
    base = "before" if old is not None else "default"
    header = ["game", "solver"] + (["before: ms/it"] if old is not None else []) + \
        [f"{r}: ms/it, ratio (per node)" for r in RULES]
    rows = []
    for g, s in cases:
        reference = [statistics.median(m) for m in zip(*times[(g, s, base)])]
        row = [g, s] + ([f"{reference[0]:.5f}"] if old is not None else [])
        for r in RULES:
            per_iteration, per_node = (statistics.median(m) for m in zip(*times[(g, s, r)]))
            row.append(f"{per_iteration:.5f}, {per_iteration / reference[0]:.2f}x "
                       f"({per_node / reference[1]:.2f}x)")
        rows.append(row)
    print(f"ms per iteration, median of {repeat} interleaved runs; ratio to the "
          f"{'walk before rules (--baseline)' if old is not None else 'default walk'} per "
          "iteration and, in parentheses, per node touched (a rule changes the strategies, so "
          "the nodes an iteration touches)\n")
    print_table(header, rows, args.markdown)


if __name__ == "__main__":
    main()
