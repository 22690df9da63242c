"""External-sampling MCCFR on Dask: convergence and speed-up against the serial solver (issue 16).

Run from the repository root: ``python benchmarks/bench_distributed.py [--markdown] [--quick]
[--write-data]``. On Leduc and on Bluff 1x1 (6 sides), ``cfrlib.ExternalSamplingMCCFR`` (serial,
in this process) and ``cfrlib.distributed.DistributedExternalSampling`` (a LocalCluster of two
worker processes, the default round of ``DEFAULT_ITERATIONS_PER_ROUND`` iterations) run
*interleaved*: one round's worth of serial iterations, then one distributed round, then both
evaluated, and again. So both see the same load from the machine's other work, each round gives
one speed-up sample at equal traversals (the median is quoted), and the exploitability of both
after every round gives the two convergence curves. On Leduc the same rounds also run with
``merge="sum"`` (the shards' regret increments added rather than averaged), which overshoots.

Because other jobs share the machine, the speed-up is also given in processor time: the serial
run's processor seconds over the largest processor seconds of a worker's shard (its walk and its
tables), per round. Other jobs barely change processor time, so this is about the speed-up two
idle cores would give if sending the tables and scheduling cost nothing. The cost of
distributing is measured twice: per round at the default size (round time minus the longest
shard's walk) and with rounds of two iterations, where it is nearly all there is. Memory:
the peak resident memory of each worker process (after Leduc, then after Bluff, which it adds).
A faster walk divides the work of a round but not its fixed cost, so the table also shows the
round size that keeps the fixed cost at 5% of a round. Before the timed rounds, rounds of two
iterations (which also measure the fixed cost alone) load the compiled walks on every worker, and
one serial iteration loads them in the driver.

``--write-data`` writes ``cfrbook/data/distributed.json`` (chapter 12 reads it). Iterations, nodes
touched and exploitability are reproducible bit for bit (seeded); seconds are not.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import dask
import numpy as np

from common import print_table

from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.distributed import (DEFAULT_ITERATIONS_PER_ROUND, DistributedExternalSampling, _peak_rss_mb,
                                local_cluster)
from cfrlib.solvers import ConvergenceLog, ExternalSamplingMCCFR

DATA = source_path("distributed")
WORKERS = 2
SEED = 0
GAMES = {  # key: (label, game, rounds, quick rounds)
    "leduc": ("Leduc", lambda: games.leduc(), 8, 3),
    "bluff": ("Bluff 1x1", lambda: games.bluff(dice=(1, 1), sides=6), 4, 2),
}


def interleaved(game, client, rounds, per_round):
    """Serial and distributed runs, one round each in turn; their logs and seconds per round."""
    serial = ExternalSamplingMCCFR(game, seed=SEED, backend="tree")
    dist = DistributedExternalSampling(game, client=client, workers=WORKERS, iterations_per_round=per_round,
                                       seed=SEED)
    logs = {"serial": ConvergenceLog(serial.name), "distributed": ConvergenceLog(dist.name)}
    for name, solver in (("serial", serial), ("distributed", dist)):
        logs[name].append(0, 0, 0.0, solver.exploitability())
    seconds = {"serial": [], "distributed": [], "walk": [], "serial_cpu": [], "distributed_cpu": []}
    for _ in range(rounds):
        before, cpu = serial.seconds, time.process_time()
        serial.iterate(per_round)
        seconds["serial_cpu"].append(time.process_time() - cpu)
        seconds["serial"].append(serial.seconds - before)
        before, walk, cpu = dist.seconds, dist.compute_seconds, dist.cpu_seconds
        dist.iterate(1)
        seconds["distributed"].append(dist.seconds - before)
        seconds["walk"].append(dist.compute_seconds - walk)
        seconds["distributed_cpu"].append(dist.cpu_seconds - cpu)
        for name, solver in (("serial", serial), ("distributed", dist)):
            logs[name].append(solver.iterations, solver.nodes_touched, solver.seconds, solver.exploitability())
        print(f"  round {dist.rounds}: serial {seconds['serial'][-1]:.2f} s, distributed "
              f"{seconds['distributed'][-1]:.2f} s, exploitability {logs['serial'].rows[-1][3]:.4g} / "
              f"{logs['distributed'].rows[-1][3]:.4g}", file=sys.stderr, flush=True)
    dist.close()
    return logs, seconds


def summed(game, client, rounds, per_round) -> ConvergenceLog:
    """The distributed run with ``merge="sum"``, evaluated after every round."""
    with DistributedExternalSampling(game, client=client, workers=WORKERS, iterations_per_round=per_round,
                                     seed=SEED, merge="sum") as dist:
        return dist.run(rounds, eval_every=1, progress=False)


def tiny_rounds(game, client, rounds=10) -> float:
    """Seconds per round of the distributing alone: rounds of one iteration per worker, minus
    their walks."""
    with DistributedExternalSampling(game, client=client, workers=WORKERS, iterations_per_round=WORKERS,
                                     seed=SEED) as dist:
        dist.iterate(1)  # the first round builds each worker's solver
        start, walk = dist.seconds, dist.compute_seconds
        dist.iterate(rounds)
        return (dist.seconds - start - (dist.compute_seconds - walk)) / rounds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--iterations-per-round", type=int, default=DEFAULT_ITERATIONS_PER_ROUND,
                        help="iterations per round (default: the solver's, %(default)s)")
    parser.add_argument("--write-data", action="store_true", help=f"write {DATA.name} for chapter 12")
    args = parser.parse_args()
    started, load_before = time.perf_counter(), os.getloadavg()
    results, per_round = {}, args.iterations_per_round
    with local_cluster(WORKERS) as cluster, cluster.get_client() as client:
        for key, (label, make, rounds, quick_rounds) in GAMES.items():
            game = make()
            game.tree()
            n = quick_rounds if args.quick else rounds
            print(f"{label}: {n} rounds of {per_round:,} iterations", file=sys.stderr)
            ExternalSamplingMCCFR(game, seed=SEED).iterate(1)  # loads the compiled walk here
            tiny = tiny_rounds(game, client)                     # and on every worker
            logs, seconds = interleaved(game, client, n, per_round)
            if key == "leduc":
                logs["distributed, merge=sum"] = summed(game, client, n, per_round)
            overhead = [d - w for d, w in zip(seconds["distributed"], seconds["walk"])]
            results[key] = {
                "label": label, "name": game.name, "infosets": game.tree().num_infosets,
                "iterations_per_round": per_round,
                "logs": {name: log.to_dict() for name, log in logs.items()},
                "seconds": seconds,
                "speedup": statistics.median(s / d for s, d in zip(seconds["serial"], seconds["distributed"])),
                "cpu_speedup": statistics.median(
                    s / d for s, d in zip(seconds["serial_cpu"], seconds["distributed_cpu"])),
                "overhead_per_round": statistics.median(overhead),
                "overhead_per_tiny_round": tiny,
                "worker_peak_mb": sorted(client.run(_peak_rss_mb).values()),
            }
    driver_peak = _peak_rss_mb()

    header = ("game", "iterations/round", "serial s/round", "distributed s/round", "speed-up (median)",
              "processor-time speed-up",
              "overhead s/round", "overhead, rounds of 2 it.", "worker peak MB",
              "round for 5% overhead")
    rows = []
    for r in results.values():
        serial, walk = statistics.median(r["seconds"]["serial"]), statistics.median(r["seconds"]["walk"])
        o = r["overhead_per_round"]
        # 5% overhead: walk time per round 19 times the fixed cost
        needed = r["iterations_per_round"] * 19 * o / walk
        rows.append((r["label"], f"{r['iterations_per_round']:,}", f"{serial:.2f}",
                     f"{statistics.median(r['seconds']['distributed']):.2f}", f"{r['speedup']:.2f}x",
                     f"{r['cpu_speedup']:.2f}x",
                     f"{o:.3f}", f"{r['overhead_per_tiny_round']:.3f}",
                     " / ".join(f"{mb:.0f}" for mb in r["worker_peak_mb"]), f"{needed:,.0f}"))
    load_after = os.getloadavg()
    print(f"{WORKERS} workers (LocalCluster, one thread each) against the serial solver in the driver, "
          f"interleaved round by round; load average {load_before[0]:.1f} before, {load_after[0]:.1f} "
          f"after (on {os.cpu_count()} cores: the machine was shared); driver peak {driver_peak:.0f} MB\n")
    print_table(header, rows, args.markdown)
    names = list(dict.fromkeys(name for r in results.values() for name in r["logs"]))
    curve_rows = []
    for r in results.values():
        logs = {name: ConvergenceLog.from_dict(log) for name, log in r["logs"].items()}
        for k, iteration in enumerate(logs["serial"].iteration):
            curve_rows.append((r["label"], f"{iteration:,}",
                               *(f"{logs[name].exploitability[k]:.4g}" if name in logs else "" for name in names)))
    curve_header = ("game", "iterations", *names)
    print("Exploitability at equal iterations (one traversal per player each), seed 0\n")
    print_table(curve_header, curve_rows, args.markdown)
    if args.write_data:
        payload = {
            "about": "benchmarks/bench_distributed.py --write-data: serial external-sampling MCCFR "
                     "against cfrlib.distributed on a LocalCluster of 2 workers, interleaved round by "
                     "round. Iterations, nodes touched and exploitability are reproducible bit for bit; "
                     "seconds were measured on a shared 2-core machine (machine.load_average) and only "
                     "their ratios within one run mean much.",
            "machine": {"date": str(datetime.date.today()), "cores": os.cpu_count(),
                        "python": platform.python_version(), "numpy": np.__version__,
                        "dask": dask.__version__, "load_average": [load_before[0], load_after[0]],
                        "driver_peak_mb": driver_peak, "total_seconds": time.perf_counter() - started},
            "settings": {"workers": WORKERS, "seed": SEED, "quick": args.quick},
            "games": results,
        }
        DATA.write_text(json.dumps(payload, indent=1) + "\n")
        print(f"data written to {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
