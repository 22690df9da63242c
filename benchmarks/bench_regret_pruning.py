"""Regret-based pruning against CFR counted unpruned and with the two-phase cut: nodes skipped, and exploitability per node touched (issue 23).

Run from the repository root: ``python benchmarks/bench_regret_pruning.py [--markdown] [--quick]``.
For CFR and CFR+ on Leduc and Bluff 1x1, one run with ``count_pruned=True`` gives both counts of
the plain algorithm (unpruned: ``2 |H|`` an iteration; with the two-phase cut: the nodes a
recursive walk touches), and one run with ``regret_pruning=True`` the pruned algorithm's. The
tables give the nodes at the last iteration, side by side and as ratios, and each run's
exploitability at the pruned run's node budget (interpolated in log-log between checkpoints). The curves go to ``cfrbook/data/regret_pruning.json``
for chapter 4 (not with ``--quick``).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from common import print_table

from cfrbook import datasets
from cfrlib import games
from cfrlib.solvers.fullwidth import CFR, CFRPlus
import provenance

GAMES = {"Leduc": games.leduc, "Bluff 1x1": games.bluff}
ALGORITHMS = {"CFR": CFR, "CFR+": CFRPlus}


def curves(game, make, iterations, points):
    """``{"two-phase": rows, "regret-based": rows, ...}``: rows ``(iteration, nodes, exploitability)``
    of the plain run counted unpruned and with the two-phase cut, and of the pruned run."""
    checkpoints = np.unique(np.geomspace(1, iterations, points).astype(int))
    plain, pruned = make(game, count_pruned=True), make(game, regret_pruning=True)
    size = game.tree().num_nodes
    out = {"unpruned": [], "two-phase": [], "regret-based": []}
    for T in checkpoints:
        plain.iterate(int(T) - plain.iterations)
        pruned.iterate(int(T) - pruned.iterations)
        e_plain = plain.exploitability()
        out["unpruned"].append((int(T), 2 * size * int(T), e_plain))
        out["two-phase"].append((int(T), plain.nodes_touched, e_plain))
        out["regret-based"].append((int(T), pruned.nodes_touched, pruned.exploitability()))
    out["skipped"] = pruned.nodes_skipped
    out["caught_up"] = pruned.nodes_caught_up
    return out


def at_budget(rows, budget):
    """The exploitability after ``budget`` nodes, interpolated linearly in log-log between checkpoints."""
    _, nodes, values = np.array(rows).T
    return float(np.exp(np.interp(np.log(budget), np.log(nodes), np.log(values))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--quick", action="store_true", help="100 iterations, not recorded")
    args = parser.parse_args()
    iterations = {"Leduc": 100, "Bluff 1x1": 100} if args.quick else {"Leduc": 2000, "Bluff 1x1": 1000}
    recorded = {"iterations": iterations, "games": {}}
    nodes_rows, budget_rows = [], []
    for game_name, make_game in GAMES.items():
        game = make_game()
        recorded["games"][game_name] = {"num_nodes": game.tree().num_nodes}
        for name, make in ALGORITHMS.items():
            run = curves(game, make, iterations[game_name], 24)
            recorded["games"][game_name][name] = run
            T, unpruned, _ = run["unpruned"][-1]
            two_phase, pruned = run["two-phase"][-1][1], run["regret-based"][-1][1]
            nodes_rows.append([game_name, name, T, f"{unpruned:.4g}", f"{two_phase:.4g}", f"{pruned:.4g}",
                               f"{run['skipped']:.4g}", f"{run['caught_up']:.4g}",
                               f"{pruned / unpruned:.3f}", f"{pruned / two_phase:.3f}"])
            budget = pruned
            values = [at_budget(run[k], budget) for k in ("unpruned", "two-phase", "regret-based")]
            budget_rows.append([game_name, name, f"{budget:.4g}", *(f"{v:.3g}" for v in values),
                                f"{values[0] / values[2]:.2f}", f"{values[1] / values[2]:.2f}"])
    print_table(["game", "algorithm", "T", "nodes unpruned", "two-phase cut", "regret-based", "skipped",
                 "caught up", "RBP / unpruned", "RBP / two-phase"], nodes_rows, args.markdown)
    print_table(["game", "algorithm", "node budget", "exploitability unpruned", "two-phase cut", "regret-based",
                 "unpruned / RBP", "two-phase / RBP"], budget_rows, args.markdown)
    if not args.quick:
        datasets.source_path("regret_pruning").write_text(json.dumps(recorded, indent=1) + "\n")
        provenance.stamp("regret_pruning")


if __name__ == "__main__":
    main()
