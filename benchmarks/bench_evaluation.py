"""Compile time and exact exploitability, side by side with the targets (issues 3 and 16).

Run from the repository root: ``python benchmarks/bench_evaluation.py [--markdown]``.
When OpenSpiel (``pyspiel``) is importable, its C++ exploitability of the uniform policy is
timed in the same process and the ratio printed.
"""

from __future__ import annotations

import argparse

from common import print_table, time_per_call

import cfrlib
from cfrlib import games
from cfrlib.tree import build_tree, walk_states


def repeated(fn):
    """``fn`` as a function of the number of calls, for :func:`common.time_per_call`."""
    def run(n):
        for _ in range(n):
            fn()
    return run


def openspiel_exploitability_seconds(name):
    try:
        import pyspiel
        from open_spiel.python.algorithms import exploitability as os_exploitability
        from open_spiel.python import policy as os_policy
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    uniform = os_policy.UniformRandomPolicy(game)
    return time_per_call(repeated(lambda: os_exploitability.exploitability(game, uniform)), repeat=3)[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()

    rows = []
    for label, make, target, repeat in [("Leduc", games.leduc, 0.02, 7),
                                        ("Bluff 1x1, 6 sides", games.bluff, 0.3, 3)]:
        seconds = time_per_call(repeated(lambda: make().tree()), repeat=repeat)[0]
        rows.append((f"compile {label}", seconds * 1e3, target * 1e3, None))
        # the same game walked through its state API, without its vectorized node table
        seconds = time_per_call(repeated(lambda: build_tree(make(), walk_states(make()))), repeat=repeat)[0]
        rows.append((f"compile {label} by walking its states", seconds * 1e3, None, None))
    for label, game, target, os_name in [("Kuhn", games.kuhn(), None, "kuhn_poker"),
                                         ("Leduc", games.leduc(), 2.0, "leduc_poker"),
                                         ("Bluff 1x1, 6 sides", games.bluff(), 50.0, None)]:
        uniform = cfrlib.uniform_strategy(game)
        game.tree()
        ms = time_per_call(repeated(lambda: cfrlib.exploitability(game, uniform)), calls=20)[0] * 1e3
        theirs = openspiel_exploitability_seconds(os_name) if os_name else None
        rows.append((f"exploitability {label}", ms, target, None if theirs is None else theirs * 1e3))

    header = ("measurement", "cfrlib ms", "target ms", "OpenSpiel ms", "ratio")
    print_table(header, [(name, f"{ms:.3f}", "-" if target is None else f"{target:g}",
                          "not installed" if theirs is None else f"{theirs:.3f}",
                          "-" if theirs is None else f"{theirs / ms:.0f}x")
                         for name, ms, target, theirs in rows], args.markdown)


if __name__ == "__main__":
    main()
