"""Deep CFR on Leduc across seeds, measured exactly (the data of chapter 15).

Run from the repository root. Each run is one configuration and one seed of
:class:`cfrlib.deep_cfr.DeepCFR`, written to ``benchmarks/data/deep_cfr/NAME-SEED.json`` so that
runs can be made separately (on several machines or sessions) and merged:

    python benchmarks/deep_cfr.py --run "Deep CFR" 0     # one run (about 20 CPU-minutes)
    python benchmarks/deep_cfr.py --exact "Deep CFR" 0   # its exact fit (seconds)
    python benchmarks/deep_cfr.py --merge                # the study from the runs on disk
    python benchmarks/deep_cfr.py                        # every missing run on two cores, then merge

The network runs: ``CONFIG`` (the recorded configuration) and the ``TUNED`` ones (other training
options) to ``CHECKPOINTS[-1]`` iterations, 150,000 traversals a player, for each of ``SEEDS``
(merged as far as made); and the ``ABLATIONS`` (without the linear
weights; a reservoir and a sliding window of ``SMALL_MEMORY`` items, so that either must drop
samples) to ``ABLATION_CHECKPOINTS``. At each checkpoint the policy network is trained and its
exploitability computed exactly, as is that of the exact average of the networks' iterates
(Single Deep CFR's strategy). The exact fits: every configuration of ``EXACT`` (the study's, and
other numbers of traversals an iteration) with each network replaced by the exact minimiser of
its loss (:class:`cfrlib.deep_cfr.ExactFitDeepCFR`: what the sampled regrets leave with no fitting
error), to 150,000 traversals, for each of ``SEEDS``.

``--merge`` adds what costs seconds: tabular external sampling at equal traversals (one
iteration is one traversal per player, as a Deep CFR traversal is) on Leduc and on Leduc with
suits merged; and chapter 15's small configuration on Kuhn poker. It names the checkpoint
``tests/test_deep_cfr.py`` runs again (``PREFIX``) and takes in the fit study of
``benchmarks/deep_cfr_fit_study.py`` (networks trained on frozen memories against the exact fit).
Writes ``cfrbook/data/deep_cfr.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

import cfrlib
from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.deep_cfr import DeepCFR, ExactFitDeepCFR
import provenance

CONFIG: dict[str, Any] = {"traversals": 250, "hidden": [64, 64, 64], "advantage_steps": 600,
                          "policy_steps": 3000, "batch_size": 1024, "learning_rate": 3e-3,
                          "memory": 1_000_000, "linear": True, "buffer": "reservoir"}
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 400, 500, 600)
SMALL_MEMORY = 20_000
ABLATIONS: dict[str, dict[str, Any]] = {
    "without linear weighting": {"linear": False},
    "reservoir, 20,000 items": {"memory": SMALL_MEMORY},
    "sliding window, 20,000 items": {"memory": SMALL_MEMORY, "buffer": "window"},
}
ABLATION_CHECKPOINTS = (1, 2, 5, 10, 20, 50)
SEEDS = (0, 1, 2)
TOTAL = 150_000
"""Traversals a player of every exact fit."""
EXACT: dict[str, dict[str, Any]] = {
    "Deep CFR": {}, **ABLATIONS,
    "50 traversals an iteration": {"traversals": 50},
    "1,500 traversals an iteration": {"traversals": 1500},
}
TUNED: dict[str, dict[str, Any]] = {
    "learning rate 0.01, 12,000 policy steps": {"learning_rate": 1e-2, "policy_steps": 12_000},
    "warm starts, learning rate 0.01, 12,000 policy steps": {"learning_rate": 1e-2, "policy_steps": 12_000,
                                                             "warm_start": True},
    "125 traversals an iteration, learning rate 0.01, 12,000 policy steps": {
        "traversals": 125, "learning_rate": 1e-2, "policy_steps": 12_000},
}
"""Network runs to the traversals of ``CHECKPOINTS`` with the training options the fit study
(``benchmarks/deep_cfr_fit_study.py``) found to fit better (a learning rate of 0.01, 12,000 policy
steps): alone (the exact fit of its sampling is Deep CFR's), with the advantage networks
warm-started (recorded for seeds 0 and 1: several times worse, so seed 2 was not run), and with 125
traversals an iteration (twice the iterations; the one configuration whose median ends within 0.05)."""
KUHN_CONFIG: dict[str, Any] = {"traversals": 100, "hidden": [16, 16], "advantage_steps": 150,
                               "policy_steps": 400, "batch_size": 64}
KUHN_CHECKPOINTS = (1, 2, 5, 10, 20, 50)
PREFIX = (1,)
RUNS = Path(__file__).resolve().parent / "data" / "deep_cfr"
OUT = source_path("deep_cfr")


def config_of(name: str) -> tuple[dict[str, Any], tuple[int, ...]]:
    """The configuration and checkpoints (iterations) of study run ``name`` ("Deep CFR", an
    ablation or a tuned run); a tuned run's checkpoints fall at the traversals of ``CHECKPOINTS``."""
    config = {**CONFIG, **{**EXACT, **TUNED}[name]}
    if name != "Deep CFR" and name not in TUNED:
        return config, ABLATION_CHECKPOINTS
    # at the traversals of CHECKPOINTS, whatever the traversals an iteration
    scale = CONFIG["traversals"] / config["traversals"]
    return config, tuple(sorted({max(1, round(c * scale)) for c in CHECKPOINTS}))


def run_path(name: str, seed: int, kind: str = "") -> Path:
    return RUNS / f"{kind}{name.replace(' ', '_').replace(',', '')}-{seed}.json"


def deep_cfr(config: dict[str, Any], checkpoints: tuple[int, ...], game: cfrlib.Game | None = None,
             solver_class: type[DeepCFR] = DeepCFR) -> dict[str, Any]:
    """One run (on Leduc unless ``game`` is given): its configuration and a column per field of
    each checkpoint."""
    solver = solver_class(game or games.leduc(), **config)
    log = solver.run(checkpoints)
    columns = {key: [asdict(c)[key] for c in log] for key in asdict(log[0])}
    return {"config": solver.config, **columns}


def record(name: str, seed: int, exact: bool = False) -> Path:
    """Make study run ``name`` with ``seed`` (its exact fit if ``exact``: a configuration of
    ``EXACT``) and write it to :func:`run_path`."""
    start = time.perf_counter()
    if exact:
        config = {**CONFIG, **EXACT[name], "seed": seed}
        iterations = TOTAL // config["traversals"]
        checkpoints = tuple(sorted({c for c in (1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 1000, 2000)
                                    if c < iterations} | {iterations}))
        run = deep_cfr(config, checkpoints, solver_class=ExactFitDeepCFR)
    else:
        config, checkpoints = config_of(name)
        run = deep_cfr({**config, "seed": seed}, checkpoints)
    run["machine"] = {"python": platform.python_version(), "load_average": list(os.getloadavg()),
                      "seconds": round(time.perf_counter() - start, 1)}
    path = run_path(name, seed, "exact_fit-" if exact else "")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(run, indent=1) + "\n")
    print(f"wrote {path} ({run['machine']['seconds']:.0f} s)", flush=True)
    return path


def tabular(game: cfrlib.Game, traversals: list[int]) -> dict[str, list[float]]:
    """External-sampling MCCFR stopped at each count of ``traversals`` (per player)."""
    solver = cfrlib.ExternalSamplingMCCFR(game, seed=0)
    rows: dict[str, list[float]] = {"traversals": [], "nodes_touched": [], "exploitability": []}
    for n in traversals:
        solver.iterate(n - solver.iterations)
        rows["traversals"].append(n)
        rows["nodes_touched"].append(solver.nodes_touched)
        rows["exploitability"].append(cfrlib.exploitability(game, solver.average_strategy()))
    return rows


def kuhn() -> dict[str, Any]:
    """Chapter 15's live configuration on Kuhn poker, recorded: Deep CFR and tabular external
    sampling at equal traversals (a reader's re-run on another CPU takes another path: the
    networks' float32 sums differ in the last bits, and sampling amplifies that)."""
    run = deep_cfr({**KUHN_CONFIG, "seed": 0}, KUHN_CHECKPOINTS, games.kuhn())
    table = tabular(games.kuhn(), run["traversals"])
    return {"deep_cfr": run, "tabular": {"ES-MCCFR": table}}


def merge() -> None:
    """Write ``cfrbook/data/deep_cfr.json`` from the runs on disk and the cheap parts."""
    start = time.perf_counter()
    runs = {name: [json.loads(run_path(name, s).read_text()) for s in SEEDS] for name in ["Deep CFR", *ABLATIONS]}
    runs |= {name: made for name in TUNED                    # the seeds made so far, if any
             if (made := [json.loads(path.read_text()) for s in SEEDS if (path := run_path(name, s)).exists()])}
    exact = {name: [json.loads(run_path(name, s, "exact_fit-").read_text()) for s in SEEDS]
             for name in EXACT}
    traversals = runs["Deep CFR"][0]["traversals"]
    payload = {
        "games": {
            "leduc": {
                "seeds": list(SEEDS), "runs": runs, "exact_fit": exact,
                "tabular": {"ES-MCCFR": tabular(games.leduc(), traversals),
                            "ES-MCCFR, suits merged": tabular(games.leduc(suit_isomorphism=True), traversals)},
                "rerun": {"checkpoints": list(PREFIX)},
                "fit_study": json.loads((RUNS / "fit_study.json").read_text()),
            },
            "kuhn": kuhn(),
        },
        "machine": {"python": platform.python_version(), "cores": os.cpu_count(), "nice": os.nice(0),
                    "load_average": list(os.getloadavg()),
                    "merge_seconds": round(time.perf_counter() - start, 1)},
    }
    OUT.write_text(json.dumps(payload, indent=1) + "\n")
    provenance.stamp("deep_cfr")
    print(f"wrote {OUT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", nargs=2, metavar=("NAME", "SEED"), help="make one network run")
    parser.add_argument("--exact", nargs=2, metavar=("NAME", "SEED"), help="make one exact fit")
    parser.add_argument("--merge", action="store_true", help="merge the runs on disk")
    args = parser.parse_args()
    if args.run or args.exact:
        name, seed = args.run or args.exact
        record(name, int(seed), exact=bool(args.exact))
    elif args.merge:
        merge()
    else:
        missing = [(n, s, False) for n in ["Deep CFR", *ABLATIONS, *TUNED] for s in SEEDS
                   if not run_path(n, s).exists()]
        missing += [(n, s, True) for n in EXACT for s in SEEDS
                    if not run_path(n, s, "exact_fit-").exists()]
        if missing:
            with ProcessPoolExecutor(2) as pool:
                list(pool.map(record, *zip(*missing)))
        merge()


if __name__ == "__main__":
    main()
