"""The full-width CFR family: time per iteration and to a target, with OpenSpiel and LiteEFG in the same run; memory; count_pruned (issues 4, 15, 16).

Run from the repository root: ``python benchmarks/bench_fullwidth.py [--markdown] [--quick]``.
Times are medians over repeats (the machine is shared). The anchors, OpenSpiel 2.0.2 (C++ CFR
and CFR+; its DCFR exists only in Python) and LiteEFG 1.0.0 (one thread), run in their own
interpreter (``anchors.py``, ``$CFRLIB_ANCHOR_PYTHON``, by default ``.venv-anchors/bin/python``)
within this run, on the same games; where they cannot run, the table says so and the "published"
column quotes OpenSpiel 2.0.2 timed on this kind of machine (one core) when this project
started. Memory is the peak resident size of a fresh subprocess that compiles Bluff and runs
CFR+ on it. LiteEFG's vanilla CFR baseline updates both players simultaneously (its CFR+ and
DCFR alternate, as cfrlib's and OpenSpiel's do).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np

from common import anchor_cell, print_table, run_anchors, time_per_call

from cfrlib import games, sequence_form
from cfrlib.solvers.fullwidth import CFR, DCFR, CFRPlus, LinearCFR, PredictiveCFRPlus

PRESETS = {"CFR": CFR, "CFR+": CFRPlus, "CFR+ quadratic": lambda g: CFRPlus(g, "quadratic"),
           "Linear CFR": LinearCFR, "DCFR": DCFR, "PCFR+": PredictiveCFRPlus}
ALGORITHMS = {"CFR": CFR, "CFR+": CFRPlus, "DCFR": DCFR}
GAMES = {"Kuhn": ("kuhn_poker", games.kuhn), "Leduc": ("leduc_poker", games.leduc),
         "Bluff 1x1": ("liars_dice", games.bluff)}
PUBLISHED = {("Kuhn", "CFR"): 0.040, ("Kuhn", "CFR+"): 0.035, ("Leduc", "CFR"): 11.4,
             ("Leduc", "CFR+"): 12.4, ("Bluff 1x1", "CFR"): 125, ("Bluff 1x1", "CFR+"): 156}
"""OpenSpiel 2.0.2 C++, ms per iteration, as first measured for this project (one core)."""


def ms_per_iteration(make, game, iterations, repeat, warmup=5):
    """Median over ``repeat`` runs of the milliseconds per iteration of a solver already warmed up."""
    solver = make(game).iterate(warmup)
    return time_per_call(solver.iterate, iterations, repeat)[0] * 1e3, solver


def seconds_to_target(make, game, target, repeat, eval_every=10):
    """Median wall-clock seconds (iterations plus the evaluations that check the target) and the
    iteration count at which the average strategy first reaches ``target``."""
    times, iterations = [], None
    for _ in range(repeat):
        solver = make(game)
        start = time.perf_counter()
        log = solver.run(100_000, eval_every=eval_every, target_exploitability=target, progress=False)
        times.append(time.perf_counter() - start)
        iterations = int(log.iteration[-1])
    return statistics.median(times), iterations


def peak_memory_mb():
    """Peak resident memory (``VmHWM``, which unlike ``ru_maxrss`` starts afresh at ``exec``) of a
    subprocess after compiling Bluff 1x1 and after 20 CFR+ iterations and one exploitability."""
    code = ("import json\n"
            "from cfrlib import games\n"
            "from cfrlib.solvers.fullwidth import CFRPlus\n"
            "def peak():\n"
            "    with open('/proc/self/status') as f:\n"
            "        return next(int(l.split()[1]) for l in f if l.startswith('VmHWM'))\n"
            "g = games.bluff(); g.tree(); compiled = peak()\n"
            "CFRPlus(g).iterate(20).exploitability()\n"
            "print(json.dumps([compiled, peak()]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    after_compile, after_solving = json.loads(out.stdout)
    return after_compile / 1024, after_solving / 1024  # kB to MB


def skipping_zero_reach(game, iterations, repeat=50):
    """Would pruning pay inside the vectorized engine (the measurement behind ``count_pruned``)? After CFR+ ``iterations``, time the
    terminal scatter-add over every terminal against the same over the terminals that player 1
    (with chance) reaches with positive probability (find them, gather them, add them)."""
    solver = CFRPlus(game).iterate(iterations)
    form = sequence_form.sequence_form(game.tree())
    reach = solver._realization_plan(1)[form.terminal_seq[1]] * form.chance_utility[0]  # pi_{-0}(z) u_0(z)
    seq, size = form.terminal_seq[0], form.players[0].size + 1

    def full():
        return np.bincount(seq, weights=reach, minlength=size)

    def skipping():
        live = np.flatnonzero(reach)
        return np.bincount(seq[live], weights=reach[live], minlength=size)

    assert np.array_equal(full(), skipping())
    timing = {name: time_per_call(lambda n, fn=fn: [fn() for _ in range(n)], 1, repeat)[0] * 1e3
              for name, fn in (("full", full), ("skipping", skipping))}
    return float(np.mean(reach == 0.0)), timing["full"], timing["skipping"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter budgets")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    budget = 10.0 if args.quick else 30.0  # seconds of iterating an anchor may spend on a target
    compiled = {label: make() for label, (_, make) in GAMES.items()}
    for game in compiled.values():
        game.tree()

    # ---- per iteration: cfrlib here, the anchors in their interpreter, same games
    cases = [(label, algorithm) for label in GAMES for algorithm in ALGORITHMS]
    ours = {case: ms_per_iteration(ALGORITHMS[case[1]], compiled[case[0]],
                                   {"Kuhn": 2000, "Leduc": 200, "Bluff 1x1": 10}[case[0]], repeat)[0]
            for case in cases}
    jobs = [{"kind": "iteration", "library": library, "game": GAMES[label][0], "algorithm": algorithm,
             "iterations": {"Kuhn": 200, "Leduc": 10, "Bluff 1x1": 2}[label],
             "repeat": 1 if label == "Bluff 1x1" or args.quick else 3}
            for label, algorithm in cases for library in ("openspiel", "liteefg")]

    # ---- to exploitability 1e-3, evaluating every 10 iterations, solving time only
    targets = [("Kuhn", "CFR"), ("Leduc", "CFR"), ("Leduc", "CFR+"), ("Leduc", "DCFR")]
    jobs += [{"kind": "target", "library": library, "game": GAMES[label][0], "algorithm": algorithm,
              "target": 1e-3, "eval_every": 10, "budget": budget}
             for label, algorithm in targets for library in ("openspiel", "liteefg")]
    anchors = iter(run_anchors(jobs))
    speed = [(case, ours[case], next(anchors), next(anchors)) for case in cases]
    to_target = []
    for label, algorithm in targets:
        log = ALGORITHMS[algorithm](compiled[label]).run(200_000, eval_every=10, target_exploitability=1e-3,
                                                        progress=False)
        to_target.append((label, algorithm, log.seconds[-1], int(log.iteration[-1]), next(anchors), next(anchors)))

    presets = []
    for name, make in PRESETS.items():
        seconds, iterations = seconds_to_target(make, compiled["Leduc"], 1e-3, max(1, repeat // 2))
        presets.append((name, seconds, iterations))

    pruning = []
    for label, its in (("Leduc", 200), ("Bluff 1x1", 10)):
        game = compiled[label]
        warmup = 100 if label == "Leduc" else 20
        off, _ = ms_per_iteration(CFRPlus, game, its, repeat, warmup=warmup)
        on, solver = ms_per_iteration(lambda g: CFRPlus(g, count_pruned=True), game, its, repeat, warmup=warmup)
        before = solver.nodes_touched
        solver.iterate(1)
        share = 1 - (solver.nodes_touched - before) / (2 * game.tree().num_nodes)
        zero, full, skipping = skipping_zero_reach(game, warmup)
        pruning.append((label, off, on, share, zero, full, skipping))

    after_compile, peak = peak_memory_mb()
    print_report(speed, to_target, presets, pruning, after_compile, peak, args.markdown)


def ratio(theirs, ours, key="ms"):
    return f"{theirs[key] / ours:.3g}x" if theirs.get("ok") and ours > 0 else "-"


def print_report(speed, to_target, presets, pruning, after_compile, peak, markdown):
    def table(header, rows):
        print_table(header, rows, markdown)

    table(("ms per iteration", "cfrlib", "OpenSpiel (here)", "LiteEFG (here)", "OpenSpiel / cfrlib",
           "LiteEFG / cfrlib", "OpenSpiel C++ (published)"),
          [(f"{label} {algorithm}", f"{ms:.3f}",
            anchor_cell(os_) + (" (Python)" if algorithm == "DCFR" and os_.get("ok") else ""),
            anchor_cell(le), ratio(os_, ms), ratio(le, ms),
            "-" if (label, algorithm) not in PUBLISHED else f"{PUBLISHED[label, algorithm]:g}")
           for (label, algorithm), ms, os_, le in speed])

    def reached(result):
        if not result.get("ok"):
            return "not run"
        if not result["reached"]:
            return f"not within {result['seconds']:.0f} s ({result['iterations']} it., {result['exploitability']:.2g})"
        return f"{result['seconds']:.3f} ({result['iterations']} it.)"

    table(("to exploitability 0.001 (seconds of solving, iterations)", "cfrlib", "OpenSpiel (here)",
           "LiteEFG (here)"),
          [(f"{label} {algorithm}", f"{seconds:.3f} ({its} it.)",
            reached(os_) + (" (Python)" if algorithm == "DCFR" and os_.get("ok") else ""), reached(le))
           for label, algorithm, seconds, its, os_, le in to_target])
    best = min(presets, key=lambda r: r[1])
    table(("cfrlib presets, Leduc to exploitability 0.001", "seconds (with evaluations every 10)", "iterations"),
          [(name + (" (best)" if name == best[0] else ""), f"{s:.3f}", its) for name, s, its in presets])
    table(("count_pruned, CFR+ alternating", "off ms/it", "on ms/it", "nodes a pruned walk cuts",
           "terminals at zero opponent reach", "scatter-add all ms", "skipping zeros ms"),
          [(label, f"{off:.3f}", f"{on:.3f}", f"{share:.0%}", f"{zero:.0%}", f"{full:.3f}", f"{skip:.3f}")
           for label, off, on, share, zero, full, skip in pruning])
    table(("memory, Bluff 1x1 6 sides", "MB", "target MB"),
          [("peak RSS after compiling the tree", f"{after_compile:.0f}", "-"),
           ("peak RSS after 20 CFR+ iterations and one exploitability", f"{peak:.0f}", "300")])


if __name__ == "__main__":
    main()
