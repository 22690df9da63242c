"""Deep CFR on Leduc, measured exactly (the data of chapter 15).

Run from the repository root: ``nice -n 10 python benchmarks/deep_cfr.py``. Two runs of
:class:`cfrlib.deep_cfr.DeepCFR` with the configuration ``CONFIG``, side by side on the two cores:
the recorded run and the ablation without linear weighting (``linear=False``, every sample of
weight 1). At each of ``CHECKPOINTS`` the policy network is trained and its exact exploitability
computed. Then, at equal traversals (one external-sampling iteration is one traversal per player,
as a Deep CFR traversal is), tabular ``cfrlib.ExternalSamplingMCCFR`` on Leduc (936 infosets) and
on the same game with suits merged (``suit_isomorphism=True``, 288 infosets: what the networks'
features give for free). Last, the spread of the exploitability over ``SEEDS`` at the first
checkpoints, which ``tests/test_deep_cfr.py`` uses as its tolerance when it re-runs them; and
chapter 15's small configuration on Kuhn poker (``--only kuhn`` re-records that part alone).

(``cfrlib.deep_cfr.fit`` trains on one BLAS thread; the two runs take one core each.)
Writes ``cfrbook/data/deep_cfr.json``.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from typing import Any

import cfrlib
from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.deep_cfr import DeepCFR

CONFIG: dict[str, Any] = {"traversals": 250, "hidden": [64, 64, 64], "advantage_steps": 600,
                          "policy_steps": 3000, "batch_size": 1024, "learning_rate": 3e-3,
                          "memory": 1_000_000, "linear": True, "seed": 0}
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 400)
KUHN_CONFIG: dict[str, Any] = {"traversals": 100, "hidden": [16, 16], "advantage_steps": 150,
                               "policy_steps": 400, "batch_size": 64}
KUHN_CHECKPOINTS = (1, 2, 5, 10, 20, 50)
PREFIX = (1, 2)
SEEDS = (1, 2, 3, 4, 5)
OUT = source_path("deep_cfr")


def deep_cfr(config: dict[str, Any], checkpoints: tuple[int, ...] = CHECKPOINTS,
             game: cfrlib.Game | None = None) -> dict[str, Any]:
    """One Deep CFR run (on Leduc unless ``game`` is given): its configuration and a column per
    field of each checkpoint."""
    solver = DeepCFR(game or games.leduc(), **config)
    log = solver.run(checkpoints, progress=lambda c: print(game or "leduc", config["seed"], c, flush=True))
    columns = {key: [asdict(c)[key] for c in log] for key in asdict(log[0])}
    return {"config": solver.config, **columns}


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


def main() -> None:
    if sys.argv[1:] == ["--only", "kuhn"]:               # re-record the Kuhn part, keep the rest
        payload = json.loads(OUT.read_text())
        payload["games"]["kuhn"] = kuhn()
        OUT.write_text(json.dumps(payload, indent=1) + "\n")
        print(f"wrote the Kuhn part of {OUT}")
        return
    start = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        runs = list(pool.map(deep_cfr, [CONFIG, {**CONFIG, "linear": False}]))
        spread_runs = list(pool.map(deep_cfr, [{**CONFIG, "seed": s} for s in SEEDS],
                                    [PREFIX] * len(SEEDS)))
    traversals = runs[0]["traversals"]
    spread = {str(c): max(r["exploitability"][j] for r in spread_runs)
              - min(r["exploitability"][j] for r in spread_runs) for j, c in enumerate(PREFIX)}
    payload = {
        "games": {
            "leduc": {
                "deep_cfr": runs[0],
                "ablation": {"name": "without linear weighting", **runs[1]},
                "tabular": {"ES-MCCFR": tabular(games.leduc(), traversals),
                            "ES-MCCFR, suits merged": tabular(games.leduc(suit_isomorphism=True), traversals)},
                "rerun": {"checkpoints": list(PREFIX), "seeds": list(SEEDS), "seed_spread": spread},
            },
            "kuhn": kuhn(),
        },
        "machine": {"python": platform.python_version(), "cores": os.cpu_count(), "nice": os.nice(0),
                    "load_average": list(os.getloadavg()),
                    "seconds": round(time.perf_counter() - start, 1)},
    }
    OUT.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {OUT} ({payload['machine']['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
