"""The comparison study of chapter 10: every CFR variant on every game, per iteration, per node
touched and per second.

Run from the repository root: ``python benchmarks/comparison.py`` (about 5 to 10 minutes on two
cores). It runs ``cfrbook.comparison.run_study`` on each game of ``cfrbook.comparison.GAMES`` with
1000 iterations and the equal-nodes extension, prints the ranking after 1000 iterations and at
equal nodes next to the seed thesis's ranking, and writes ``cfrbook/data/comparison.json``:
``{"about", "settings", "machine", "games": {key: {"label", "name", "nodes", "infosets",
"node_budget", "logs": {variant: ConvergenceLog.to_dict()}}}}``. Iterations, nodes touched and
exploitability are reproducible bit for bit (seeded); seconds are not (see "about").
``tests/test_comparison.py`` checks that the study reproduces the committed data on Kuhn and on
Leduc with 288 infosets.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from cfrbook import comparison
from cfrbook.datasets import source_path
import provenance

ITERATIONS = 1000
SEED = 0
OUT = source_path("comparison")
ABOUT = (
    "Chapter 10's comparison. Each variant runs on each game with evaluations of the average "
    "strategy's exploitability at the iteration counts of cfrbook.comparison.schedule. Every "
    "variant runs at least 1000 iterations and on until it has touched the node budget (the nodes "
    "1000 iterations of CFR with alternating updates touch) or reaches its iteration cap "
    "(settings.sampler_caps; full_width_cap x 1000 for full-width variants). Nodes are counted by "
    "one rule: those a solver's walk touches (full-width walks cut the subtrees no one reaches, "
    "count_pruned=True). Iterations, nodes touched and exploitability are reproducible bit for bit. "
    "Seconds count iterating only (evaluations excluded) and were measured on a shared 2-core "
    "machine while other jobs ran (machine.load_average): they are noisy, and only their ratios "
    "within one run mean much."
)


def write(data, path):
    """JSON with one convergence log per line (small diffs when the data change)."""
    games = data["games"]
    head = json.dumps({k: v for k, v in data.items() if k != "games"}, indent=1)[:-2]
    parts = []
    for key, entry in games.items():
        fields = [f'   {json.dumps(k)}: {json.dumps(v)}' for k, v in entry.items() if k != "logs"]
        logs = ",\n".join(f'    {json.dumps(name)}: {json.dumps(log)}'
                          for name, log in entry["logs"].items())
        fields.append('   "logs": {\n' + logs + "\n   }")
        parts.append(f'  {json.dumps(key)}: {{\n' + ",\n".join(fields) + "\n  }")
    text = head + ',\n "games": {\n' + ",\n".join(parts) + "\n }\n}\n"
    json.loads(text)  # the hand-made layout must still be JSON
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)


def print_rankings(key, logs, budget):
    at_iterations = comparison.ranking(logs, "iteration", ITERATIONS)
    at_nodes = comparison.ranking(logs, None, budget)
    thesis = [name for name, _ in at_iterations if name in comparison.THESIS_RANKING]
    print(f"\n{comparison.GAMES[key][0]}: ranking after {ITERATIONS} iterations | at equal nodes")
    for k, ((a, row_a), (b, row_b)) in enumerate(zip(at_iterations, at_nodes), start=1):
        print(f"  {k:2}. {a:16} {row_a[3]:10.3g}   | {b:16} {row_b[3]:10.3g} "
              f"({row_b[1] / budget:.0%} of the node budget)")
    print("  the thesis's seven, ours:  ", ", ".join(thesis))
    print("  the thesis's seven, thesis:", ", ".join(comparison.THESIS_RANKING))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(comparison.GAMES),
                        default=list(comparison.GAMES), help="a subset of the games")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output file (default {OUT})")
    args = parser.parse_args()
    started, load_before = time.perf_counter(), os.getloadavg()
    data = {
        "about": ABOUT,
        "settings": {"iterations": ITERATIONS, "seed": SEED, "schedule_growth": 1.25,
                     "short_deck_max_raises": comparison.SHORT_DECK_MAX_RAISES,
                     "variants": list(comparison.VARIANTS),
                     "thesis_ranking": list(comparison.THESIS_RANKING),
                     "sampler_caps": {k: comparison.SAMPLER_CAPS[k] for k in args.games},
                     "full_width_cap": comparison.FULL_WIDTH_CAP},
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "cores": os.cpu_count(), "load_average_before": load_before},
        "games": {},
    }
    for key in args.games:
        game = comparison.make_game(key)
        tree = game.tree()
        print(f"{comparison.GAMES[key][0]}: {tree.num_nodes:,} nodes, {tree.num_infosets:,} "
              f"infosets", flush=True)

        def report(name, log):
            it, nodes, seconds, value = log.rows[-1]
            print(f"  {name:16} {it:>9,} it {nodes:>15,} nodes {seconds:7.2f} s  "
                  f"exploitability {value:.4g}", flush=True)

        logs = comparison.run_study(key, ITERATIONS, seed=SEED, report=report)
        data["games"][key] = {
            "label": comparison.GAMES[key][0], "name": game.name, "nodes": int(tree.num_nodes),
            "infosets": int(tree.num_infosets),
            # B = comparison.node_budget(game, T): what CFR alt.'s run touched in its T iterations
            "node_budget": int(logs["CFR alt."].row_at(ITERATIONS, "iteration")[1]),
            "logs": {name: log.to_dict() for name, log in logs.items()},
        }
        print_rankings(key, logs, data["games"][key]["node_budget"])
    data["machine"]["load_average_after"] = os.getloadavg()
    data["machine"]["total_seconds"] = round(time.perf_counter() - started, 1)
    write(data, args.out)
    if args.out == OUT:
        provenance.stamp("comparison")
    print(f"\nwrote {args.out} in {data['machine']['total_seconds']} s")


if __name__ == "__main__":
    main()
