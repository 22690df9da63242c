"""Depth-limited solving and continual re-solving on Leduc (the data of chapter 14's last part).

Run from the repository root: ``python benchmarks/depth_limited_study.py``. For blueprints of
growing quality (CFR+'s average after each count of ``CHECKPOINTS`` iterations, and the LP's
exact equilibrium), :func:`cfrlib.depth_limited.search_study` measures exactly the depth-limited
agents (k-valued leaves, k = 1..5, the blueprint's or a re-solved second round) and continual
re-solving (as many CFR+ iterations a solve as the blueprint had, or the LP); then
:class:`cfrlib.depth_limited.ExactValueCFR` (exact values over ranges at the leaves) runs to
``EXACT_VALUE_ITERATIONS[-1]`` iterations, measured at each count; last, off-tree bets: the LP's
equilibrium of no-limit Leduc with the bet sizes ``KNOWN`` played, by action translation and with
nested safe solving, against each size of ``OFF_TREE`` (:func:`cfrlib.off_tree.off_tree_study`);
then a learned value function at the depth limit (:func:`cfrlib.depth_limited.value_network_study`:
``max(VALUE_SIZES) + HELD_OUT`` random pairs of ranges with their exact values, a network fitted on
the first ``n`` of each of ``VALUE_SIZES``, the agent built on it measured at ``VALUE_CHECKPOINTS``
iterations, the same agent with the exact values at ``EXACT_CHECKPOINTS``); last, the safe gadgets
with values estimated from abstract blueprints of ``BUCKETS`` buckets
(:func:`cfrlib.subgame.estimate_study`). Every number but the network's is an exact
exploitability, so a re-run gives the same (up to the LP's tolerance); ``tests/test_depth_limited.py``
re-runs the first ones. Writes ``cfrbook/data/depth_limited_study.json``. About 15 minutes.
"""

from __future__ import annotations

import json
import platform
import time

import cfrlib
from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.depth_limited import CONTINUATIONS, ExactValueCFR, search_study, value_network_study
from cfrlib.off_tree import off_tree_study
from cfrlib.subgame import estimate_study
import provenance

CHECKPOINTS = (10, 30, 100, 300, 1000, None)
EXACT_VALUE_ITERATIONS = (1, 2, 3, 5, 10, 20, 30, 50, 100, 200)
KNOWN = (0.5, 2.0)
OFF_TREE = (0.25, 0.75, 1.0, 1.25, 1.5, 3.0, 4.0)
VALUE_SIZES = (250, 500, 1000, 2000, 4000)
HELD_OUT = 500
VALUE_CHECKPOINTS = (10, 30, 100, 300)
EXACT_CHECKPOINTS = (10, 30, 100)
BUCKETS = (1, 2, 3)
OUT = source_path("depth_limited_study")


def main() -> None:
    start = time.perf_counter()
    game = games.leduc()
    rows = search_study(game, CHECKPOINTS)
    for row in rows:
        print("  ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()))
    solver, exact = ExactValueCFR(game), []
    for t in EXACT_VALUE_ITERATIONS:
        solver.iterate(t - solver.iterations)
        exact.append(cfrlib.exploitability(game, solver.average_strategy()))
        print(f"exact values, {t} iterations: {exact[-1]:.5g}")
    off_tree = off_tree_study(KNOWN, OFF_TREE)
    for row in off_tree:
        print(f"bet of {row['size']:g} pots: translation {row['translation']:.5f}, nested {row['nested']:.5f}")
    learned_start = time.perf_counter()
    learned = value_network_study(game, VALUE_SIZES, HELD_OUT, VALUE_CHECKPOINTS, exact_checkpoints=EXACT_CHECKPOINTS)
    learned["seconds"] = round(time.perf_counter() - learned_start, 1)
    for row in learned["rows"]:
        print(f"{row['training pairs']} pairs: held-out error {row['held-out error']:.3f}, exploitability",
              ", ".join(f"{e:.4f}" for e in row["learned"]))
    print("exact values:", learned["exact"])
    estimates = estimate_study(game, BUCKETS)
    for row in estimates:
        print(f"{row['k']} buckets: blueprint {row['blueprint']:.4f}, exact {row['exact']}, estimated {row['estimated']}")
    seconds = time.perf_counter() - start
    payload = {"games": {"leduc": {
        "depth limit": "end of the first betting round (cfrlib.subgame.chance_subgames(before_chance=True))",
        "blueprint": "CFR+ average after 'iterations' iterations; null: the LP's equilibrium",
        "continuations": list(CONTINUATIONS), "rows": rows,
        "exact values": {"iterations": list(EXACT_VALUE_ITERATIONS), "exploitability": exact},
        "off tree": {"game": "cfrlib.games.no_limit_leduc, one raise a round", "known sizes": list(KNOWN),
                     "rows": off_tree},
        "learned values": learned,
        "estimated values": {"abstraction": "cfrlib.abstraction.rank_buckets(leduc, k), the LP's equilibrium "
                                            "of the abstract game lifted", "rows": estimates}}},
        "machine": {"python": platform.python_version(), "seconds": round(seconds, 1)}}
    OUT.write_text(json.dumps(payload, indent=1) + "\n")
    provenance.stamp("depth_limited_study")
    print(f"wrote {OUT} ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
