"""The comparison study of chapter 10: every CFR variant on every game, per iteration, per node
touched and per second.

Run from the repository root: ``python benchmarks/comparison.py`` (about 5 to 10 minutes on two
cores for the study, 15 to 30 more for the seeds). Three parts, each rerun alone with
``--parts`` (the others are kept from the file at ``--out``):

* ``study``: ``cfrbook.comparison.run_study`` on each game of ``cfrbook.comparison.GAMES`` with
  1000 iterations and the equal-nodes extension, seed 0; prints the ranking after 1000 iterations
  and at equal nodes next to the seed thesis's ranking;
* ``seeds``: the same runs of the three sampling solvers only, with the seeds
  ``SAMPLER_SEEDS`` (the full-width variants do not use a seed), so that the chapter can show the
  spread of a sampler's result over seeds;
* ``anchors``: milliseconds per iteration on Leduc (936 infosets) of cfrlib's CFR with
  alternating updates, outcome sampling and external sampling, and of OpenSpiel 2.0.2's C++
  ``CFRSolver``, ``OutcomeSamplingMCCFRSolver`` and ``ExternalSamplingMCCFRSolver`` through
  ``benchmarks/anchors.py`` (the interpreter in ``CFRLIB_ANCHOR_PYTHON``, see ``common.py``; any
  environment with ``open_spiel==2.0.2`` will do), the two libraries alternating round by round so
  that both meet the same load.

It writes ``cfrbook/data/comparison.json``: ``{"about", "settings", "machine", "games": {key:
{"label", "name", "nodes", "infosets", "node_budget", "logs": {variant: ConvergenceLog.to_dict()},
"sampler_seeds": {seed: {sampler: ConvergenceLog.to_dict()}}}}, "seeds_machine", "anchors"}``.
Iterations, nodes touched and exploitability are reproducible bit for bit (seeded); seconds are
not (see "about"). ``tests/test_comparison.py`` checks that the study reproduces the committed
data on Kuhn and on Leduc with 288 infosets, and a seed of the samplers on Kuhn.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np
from common import run_anchors

from cfrbook import comparison
from cfrbook.datasets import source_path
import provenance

ITERATIONS = 1000
SEED = 0
SAMPLER_SEEDS = (1, 2, 3, 4)
"""The samplers' further seeds (seed 0 is the study's own)."""
ANCHOR_ITERATIONS = {"CFR alt.": ("CFR", 100), "OS-MCCFR": ("OS-MCCFR", 20_000),
                     "ES-MCCFR": ("ES-MCCFR", 5_000)}
"""The timed variants: ``{cfrlib's name: (anchors.py's algorithm, iterations a timed run)}``."""
ANCHOR_ROUNDS = 7
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
    "within one run mean much. sampler_seeds: the sampling solvers' same runs with further seeds "
    "(settings.sampler_seeds; seeds_machine says when and how long). anchors: milliseconds per "
    "iteration on Leduc of cfrlib and of OpenSpiel's C++ solvers, timed alternately in one run."
)


def write(data, path):
    """JSON with one convergence log per line (small diffs when the data change)."""
    games = data["games"]
    parts = []
    for key, entry in games.items():
        fields = [f'   {json.dumps(k)}: {json.dumps(v)}' for k, v in entry.items()
                  if k not in ("logs", "sampler_seeds")]
        logs = ",\n".join(f'    {json.dumps(name)}: {json.dumps(log)}'
                          for name, log in entry["logs"].items())
        fields.append('   "logs": {\n' + logs + "\n   }")
        if "sampler_seeds" in entry:
            seeds = ",\n".join(
                f'    {json.dumps(seed)}: {{\n' + ",\n".join(
                    f'     {json.dumps(name)}: {json.dumps(log)}' for name, log in logs.items())
                + "\n    }" for seed, logs in entry["sampler_seeds"].items())
            fields.append('   "sampler_seeds": {\n' + seeds + "\n   }")
        parts.append(f'  {json.dumps(key)}: {{\n' + ",\n".join(fields) + "\n  }")
    tail = "".join(f',\n {json.dumps(k)}: {json.dumps(v)}' for k, v in data.items()
                   if k in ("seeds_machine", "anchors"))
    head = json.dumps({k: v for k, v in data.items()
                       if k not in ("games", "seeds_machine", "anchors")}, indent=1)[:-2]
    text = head + ',\n "games": {\n' + ",\n".join(parts) + "\n }" + tail + "\n}\n"
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


def machine():
    """The processor, the cores and the versions (provenance's), and the load: what a timing
    depends on."""
    return {**provenance.machine(), "load_average_before": os.getloadavg()}


def run_seeds(data, keys):
    """The samplers' equal-nodes runs with the further seeds, into each game's "sampler_seeds"."""
    started = time.perf_counter()
    data["seeds_machine"] = machine()
    samplers = list(comparison.SAMPLER_CAPS["kuhn"])
    for key in keys:
        entry = data["games"][key]
        entry["sampler_seeds"] = {}
        for seed in SAMPLER_SEEDS:
            logs = comparison.run_study(key, ITERATIONS, variants=samplers, seed=seed)
            entry["sampler_seeds"][str(seed)] = {name: log.to_dict() for name, log in logs.items()}
            for name, log in logs.items():
                row = comparison.equal_nodes_row(log, entry["node_budget"])
                print(f"  {comparison.GAMES[key][0]}, seed {seed}: {name:16} at the node budget "
                      f"{row[3]:.4g}", flush=True)
    data["settings"]["sampler_seeds"] = list(SAMPLER_SEEDS)
    data["seeds_machine"]["load_average_after"] = os.getloadavg()
    data["seeds_machine"]["total_seconds"] = round(time.perf_counter() - started, 1)


def run_anchors_part(data):
    """Milliseconds per iteration on Leduc, cfrlib and OpenSpiel's C++, alternating round by round:
    the median over ``ANCHOR_ROUNDS`` rounds of one timed run each (after a warm-up)."""
    started = time.perf_counter()
    game = comparison.make_game("leduc")
    ours = {}
    for name, (_, iterations) in ANCHOR_ITERATIONS.items():
        ours[name] = comparison.make_solver(name, game, SEED)
        ours[name].iterate(iterations)  # warm-up: compiled walks, strategies past their start
    jobs = [{"kind": "iteration", "library": "openspiel", "game": "leduc_poker",
             "algorithm": algorithm, "iterations": iterations, "repeat": 1}
            for algorithm, iterations in ANCHOR_ITERATIONS.values()]
    times = {"cfrlib": {name: [] for name in ANCHOR_ITERATIONS},
             "openspiel": {name: [] for name in ANCHOR_ITERATIONS}}
    errors = {}
    for _ in range(ANCHOR_ROUNDS):
        for name, result in zip(ANCHOR_ITERATIONS, run_anchors(jobs)):
            if result.get("ok"):
                times["openspiel"][name].append(result["ms"])
            else:
                errors[name] = result["error"]
        for name, (_, iterations) in ANCHOR_ITERATIONS.items():
            start = time.perf_counter()
            ours[name].iterate(iterations)
            times["cfrlib"][name].append((time.perf_counter() - start) / iterations * 1e3)
    data["anchors"] = {
        "about": ("Milliseconds per iteration on Leduc (936 infosets; OpenSpiel's leduc_poker), "
                  "the median over rounds; in each round OpenSpiel 2.0.2's C++ solvers (through "
                  "benchmarks/anchors.py) and then cfrlib's run the given iterations. An iteration "
                  "is one traversal per player in both libraries; OpenSpiel's CFRSolver walks every "
                  "history, cfrlib's CFR the vectorized passes of its engine."),
        "game": "leduc", "openspiel_game": "leduc_poker", "rounds": ANCHOR_ROUNDS,
        "iterations": {name: iterations for name, (_, iterations) in ANCHOR_ITERATIONS.items()},
        "ms": {library: {name: statistics.median(values) if values else None
                         for name, values in by_name.items()}
               for library, by_name in times.items()},
        "ms_all": times, "errors": errors, "machine": machine(),
    }
    data["anchors"]["machine"]["total_seconds"] = round(time.perf_counter() - started, 1)
    for name in ANCHOR_ITERATIONS:
        print(f"  {name:10} cfrlib {data['anchors']['ms']['cfrlib'][name]:.4f} ms, OpenSpiel "
              f"{data['anchors']['ms']['openspiel'][name]} ms per iteration", flush=True)


def run_main_study(data, keys):
    started, load_before = time.perf_counter(), os.getloadavg()
    data["settings"] = {
        "iterations": ITERATIONS, "seed": SEED, "schedule_growth": 1.25,
        "short_deck_max_raises": comparison.SHORT_DECK_MAX_RAISES,
        "variants": list(comparison.VARIANTS),
        "thesis_ranking": list(comparison.THESIS_RANKING),
        "sampler_caps": {k: comparison.SAMPLER_CAPS[k] for k in keys},
        "full_width_cap": comparison.FULL_WIDTH_CAP}
    data["machine"] = {"python": platform.python_version(), "numpy": np.__version__,
                       "cores": os.cpu_count(), "load_average_before": load_before}
    seeds = {key: entry["sampler_seeds"] for key, entry in data.get("games", {}).items()
             if "sampler_seeds" in entry}
    data["games"] = {}
    for key in keys:
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
        if key in seeds:  # the seeds' runs do not depend on the study's: kept
            data["games"][key]["sampler_seeds"] = seeds[key]
        print_rankings(key, logs, data["games"][key]["node_budget"])
    data["machine"]["load_average_after"] = os.getloadavg()
    data["machine"]["total_seconds"] = round(time.perf_counter() - started, 1)


PARTS = ("study", "seeds", "anchors")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(comparison.GAMES),
                        default=list(comparison.GAMES), help="a subset of the games")
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS),
                        help="the parts to run; the others are kept from --out")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output file (default {OUT})")
    args = parser.parse_args()
    keep = set(args.parts) != set(PARTS) and args.out.exists()
    data = json.loads(args.out.read_text()) if keep else {}
    data["about"] = ABOUT
    if "study" in args.parts:
        run_main_study(data, args.games)
    if "anchors" in args.parts:
        run_anchors_part(data)
        write(data, args.out)  # the quick part first, kept if the seeds are interrupted
    if "seeds" in args.parts:
        run_seeds(data, args.games)
    write(data, args.out)
    if args.out == OUT:
        provenance.stamp("comparison")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
