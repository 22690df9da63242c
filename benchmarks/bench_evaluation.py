"""Compile time and exact exploitability, side by side with the targets (issue 3).

Run from the repository root: ``python benchmarks/bench_evaluation.py [--markdown]``.
When OpenSpiel (``pyspiel``) is importable, its C++ exploitability of the uniform policy is
timed in the same process and the ratio printed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cfrlib
from cfrlib import games


def median_seconds(fn, repeat=7, number=1):
    """Median over ``repeat`` runs of the time of ``number`` calls of ``fn``, per call."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def compile_seconds(make, repeat):
    return median_seconds(lambda: make().tree(), repeat=repeat)


def openspiel_exploitability_seconds(name):
    try:
        import pyspiel
        from open_spiel.python.algorithms import exploitability as os_exploitability
        from open_spiel.python import policy as os_policy
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    uniform = os_policy.UniformRandomPolicy(game)
    return median_seconds(lambda: os_exploitability.exploitability(game, uniform), repeat=3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()

    rows = []
    for label, make, target, repeat in [("Leduc", games.leduc, 0.2, 7),
                                        ("Bluff 1x1, 6 sides", games.bluff, 3.0, 3)]:
        rows.append((f"compile {label}", compile_seconds(make, repeat) * 1e3, target * 1e3, None))
    for label, game, target, os_name in [("Kuhn", games.kuhn(), None, "kuhn_poker"),
                                         ("Leduc", games.leduc(), 2.0, "leduc_poker"),
                                         ("Bluff 1x1, 6 sides", games.bluff(), 50.0, None)]:
        uniform = cfrlib.uniform_strategy(game)
        game.tree()
        ms = median_seconds(lambda: cfrlib.exploitability(game, uniform), number=20) * 1e3
        theirs = openspiel_exploitability_seconds(os_name) if os_name else None
        rows.append((f"exploitability {label}", ms, target, None if theirs is None else theirs * 1e3))

    header = ("measurement", "cfrlib ms", "target ms", "OpenSpiel ms", "ratio")
    lines = []
    for name, ms, target, theirs in rows:
        lines.append((name, f"{ms:.3f}", "-" if target is None else f"{target:g}",
                      "not installed" if theirs is None else f"{theirs:.3f}",
                      "-" if theirs is None else f"{theirs / ms:.0f}x"))
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(str(r[i])) for r in [header, *lines]) for i in range(len(header))]
        for line in [header, *lines]:
            print("  ".join(str(c).ljust(w) for c, w in zip(line, widths)))


if __name__ == "__main__":
    main()
