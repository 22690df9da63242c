"""Compile time and exact exploitability, with OpenSpiel's C++ and LiteEFG's in the same run (issues 3, 16).

Run from the repository root: ``python benchmarks/bench_evaluation.py [--markdown] [--quick]``.
Exploitability is timed on the average strategy of CFR+ after a few iterations, in each library
its own (the cost does not depend on the numbers): cfrlib's ``cfrlib.exploitability(game,
strategy)`` with its argument checks, OpenSpiel 2.0.2's C++ ``pyspiel.exploitability`` and LiteEFG
1.0.0's ``Environment.exploitability`` (one thread), the two anchors in their own interpreter
(``anchors.py``, ``$CFRLIB_ANCHOR_PYTHON``) within this run.
"""

from __future__ import annotations

import argparse

from common import anchor_cell, print_table, run_anchors, time_per_call

import cfrlib
from cfrlib import games
from cfrlib.solvers.fullwidth import CFRPlus
from cfrlib.tree import build_tree, walk_states


def repeated(fn):
    """``fn`` as a function of the number of calls, for :func:`common.time_per_call`."""
    def run(n):
        for _ in range(n):
            fn()
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()

    rows = []
    for label, make, target, repeat in [("Leduc", games.leduc, 0.02, 7),
                                        ("Bluff 1x1, 6 sides", games.bluff, 0.3, 3)]:
        repeat = 1 if args.quick else repeat
        seconds = time_per_call(repeated(lambda: make().tree()), repeat=repeat)[0]
        rows.append((f"compile {label}", seconds * 1e3, f"{target * 1e3:g}"))
        # the same game walked through its state API, without its vectorized node table
        seconds = time_per_call(repeated(lambda: build_tree(make(), walk_states(make()))),
                                repeat=repeat)[0]
        rows.append((f"compile {label} by walking its states", seconds * 1e3, "-"))
    print_table(("measurement", "cfrlib ms", "target ms"),
                [(name, f"{ms:.3f}", target) for name, ms, target in rows], args.markdown)

    cases = [("Kuhn", games.kuhn(), "kuhn_poker", 100, 200), ("Leduc", games.leduc(), "leduc_poker", 100, 50),
             ("Bluff 1x1, 6 sides", games.bluff(), "liars_dice", 10, 3)]
    rows = []
    for label, game, os_name, its, calls in cases:  # each case's three timings close together
        strategy = CFRPlus(game).iterate(its).average_strategy()
        ms = time_per_call(repeated(lambda: cfrlib.exploitability(game, strategy)), calls=calls,
                           repeat=3 if args.quick else 7)[0] * 1e3
        os_, le = run_anchors([{"kind": "exploitability", "library": library, "game": os_name,
                                "iterations": its, "calls": max(1, calls // 10) if library == "openspiel" else calls}
                               for library in ("openspiel", "liteefg")])
        rows.append((label, its, ms, os_, le))

    def ratio(theirs, ours):
        return f"{theirs['ms'] / ours:.3g}x" if theirs.get("ok") else "-"

    print_table(("exact exploitability, ms", "after CFR+ iterations", "cfrlib", "OpenSpiel C++ (here)",
                 "LiteEFG (here)", "OpenSpiel / cfrlib", "LiteEFG / cfrlib"),
                [(label, its, f"{ms:.4f}", anchor_cell(os_), anchor_cell(le, fmt="{:.4f}"), ratio(os_, ms),
                  ratio(le, ms)) for label, its, ms, os_, le in rows], args.markdown)


if __name__ == "__main__":
    main()
