"""The full-width CFR family: time per iteration, time to a target, memory, pruning (issue 4).

Run from the repository root: ``python benchmarks/bench_fullwidth.py [--markdown] [--quick]``.
Times are medians over repeats (the machine is shared). Memory is the peak resident size of a
fresh subprocess that compiles Bluff and runs CFR+ on it. When OpenSpiel (``pyspiel``) is
importable, its C++ and Python CFR and CFR+ run on the same games in this process and the
table shows the ratios; the "published" column quotes OpenSpiel 2.0.2 timed on this kind of
machine (one core) when this project started, for when pyspiel is missing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np

from common import print_table, time_per_call

from cfrlib import games
from cfrlib.solvers.fullwidth import CFR, DCFR, CFRPlus, LinearCFR, PredictiveCFRPlus

PRESETS = {"CFR": CFR, "CFR+": CFRPlus, "CFR+ quadratic": lambda g: CFRPlus(g, "quadratic"),
           "Linear CFR": LinearCFR, "DCFR": DCFR, "PCFR+": PredictiveCFRPlus}


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
    """Would pruning pay inside the vectorized engine? After CFR+ ``iterations``, time the
    terminal scatter-add over every terminal against the same over the terminals that player 1
    (with chance) reaches with positive probability (find them, gather them, add them)."""
    solver = CFRPlus(game).iterate(iterations)
    layout = solver._layout
    reach = solver._realization_plan(1)[layout.terminal_seq[1]] * layout.chance_utility[0]
    seq, size = layout.terminal_seq[0], layout.players[0].size + 1

    def full():
        return np.bincount(seq, weights=reach, minlength=size)

    def skipping():
        live = np.flatnonzero(reach)
        return np.bincount(seq[live], weights=reach[live], minlength=size)

    assert np.array_equal(full(), skipping())
    timing = {name: time_per_call(lambda n, fn=fn: [fn() for _ in range(n)], 1, repeat)[0] * 1e3
              for name, fn in (("full", full), ("skipping", skipping))}
    return float(np.mean(reach == 0.0)), timing["full"], timing["skipping"]


def openspiel_ms(game_name, algorithm, iterations):
    """Milliseconds per iteration of OpenSpiel's C++ and Python solvers (after one warm-up
    iteration), or ``None`` each. OpenSpiel's ``liars_dice`` is Bluff 1x1 with 6 sides."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import cfr as os_cfr
    except ImportError:
        return None, None
    game = pyspiel.load_game(game_name)
    cpp = {"CFR": pyspiel.CFRSolver, "CFR+": pyspiel.CFRPlusSolver}[algorithm](game)
    python = {"CFR": os_cfr.CFRSolver, "CFR+": os_cfr.CFRPlusSolver}[algorithm](game)
    out = []
    for solver in (cpp, python):
        solver.evaluate_and_update_policy()
        step = lambda n, s=solver: [s.evaluate_and_update_policy() for _ in range(n)]  # noqa: E731
        out.append(time_per_call(step, iterations, repeat=1)[0] * 1e3)
    return tuple(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    kuhn, leduc, bluff = games.kuhn(), games.leduc(), games.bluff()
    for g in (kuhn, leduc, bluff):
        g.tree()

    speed = []  # (what, cfrlib ms, target, published OpenSpiel C++ ms, OpenSpiel C++ now, Python now)
    for label, game, os_name, algorithm, its, target, published in [
            ("Kuhn CFR", kuhn, "kuhn_poker", "CFR", 2000, None, 0.040),
            ("Kuhn CFR+", kuhn, "kuhn_poker", "CFR+", 2000, None, 0.035),
            ("Leduc CFR", leduc, "leduc_poker", "CFR", 200, None, 11.4),
            ("Leduc CFR+", leduc, "leduc_poker", "CFR+", 200, 0.5, 12.4),
            ("Bluff 1x1 CFR", bluff, "liars_dice", "CFR", 10, 10.0, 125),
            ("Bluff 1x1 CFR+", bluff, "liars_dice", "CFR+", 10, 10.0, 156)]:
        make = CFR if algorithm == "CFR" else CFRPlus
        ms, _ = ms_per_iteration(make, game, its, repeat)
        cpp, python = openspiel_ms(os_name, algorithm, {"Kuhn": 200, "Leduc": 10, "Bluff": 2}[label.split()[0]])
        speed.append((f"{label}, ms per iteration", ms, target, published, cpp, python))

    to_target = []
    for name, make in PRESETS.items():
        seconds, iterations = seconds_to_target(make, leduc, 1e-3, max(1, repeat // 2))
        to_target.append((name, seconds, iterations))

    pruning = []
    for label, game, its in (("Leduc", leduc, 200), ("Bluff 1x1", bluff, 10)):
        off, _ = ms_per_iteration(CFRPlus, game, its, repeat, warmup=100 if game is leduc else 20)
        on, solver = ms_per_iteration(lambda g: CFRPlus(g, pruning=True), game, its, repeat,
                                      warmup=100 if game is leduc else 20)
        before = solver.nodes_touched
        solver.iterate(1)
        share = 1 - (solver.nodes_touched - before) / (2 * game.tree().num_nodes)
        zero, full, skipping = skipping_zero_reach(game, 100 if game is leduc else 20)
        pruning.append((label, off, on, share, zero, full, skipping))

    after_compile, peak = peak_memory_mb()
    print_report(speed, to_target, pruning, after_compile, peak, args.markdown)


def print_report(speed, to_target, pruning, after_compile, peak, markdown):
    def table(header, rows):
        print_table(header, rows, markdown)

    def num(x, fmt="{:.3f}"):
        return "-" if x is None else fmt.format(x)

    table(("measurement", "cfrlib ms", "target ms", "OpenSpiel C++ ms (published)", "ratio to published",
           "OpenSpiel C++ ms (here)", "OpenSpiel Python ms (here)", "ratio to C++ here"),
          [(what, num(ms), num(target, "{:g}"), num(pub, "{:g}"), f"{pub / ms:.2g}x",
            "not installed" if cpp is None else num(cpp), "not installed" if python is None else num(python),
            "-" if cpp is None else f"{cpp / ms:.2g}x")
           for what, ms, target, pub, cpp, python in speed])
    best = min(to_target, key=lambda r: r[1])
    table(("Leduc to exploitability 0.001", "seconds (with evaluations every 10)", "iterations"),
          [(name + (" (best)" if name == best[0] else ""), f"{s:.3f}", its) for name, s, its in to_target])
    table(("pruning, CFR+ alternating", "off ms/it", "on ms/it", "nodes cut", "terminals at zero opponent reach",
           "scatter-add all ms", "skipping zeros ms"),
          [(label, f"{off:.3f}", f"{on:.3f}", f"{share:.0%}", f"{zero:.0%}", f"{full:.3f}", f"{skip:.3f}")
           for label, off, on, share, zero, full, skip in pruning])
    table(("memory, Bluff 1x1 6 sides", "MB", "target MB"),
          [("peak RSS after compiling the tree", f"{after_compile:.0f}", "-"),
           ("peak RSS after 20 CFR+ iterations and one exploitability", f"{peak:.0f}", "300")])


if __name__ == "__main__":
    main()
