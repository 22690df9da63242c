"""The hold'em chapter's long runs (the data of chapter 16), recorded once.

Run from the repository root: ``nice -n 10 python benchmarks/holdem_chapter.py``. On
``examples/basic.rs``'s turn spot of postflop-solver (the spot recorded in
``benchmarks/data/postflop_solver_basic-turn_1t.json``: Td9d6h Qc, pot 200, stacks 900, bets
"60%, e, a", raises "2.5x", river donk 50%):

* ``curves``: CFR, CFR+ and DCFR (:class:`cfrlib.holdem.RangeSolver`'s presets, one thread),
  exploitability in chips and in % of the pot at ``CHECKPOINTS``, with the CPU seconds of the
  iterations alone; ``tests/holdem/test_chapter_data.py`` re-runs the first of them;
* ``timing``: postflop-solver's own DCFR schedule (``schedule="postflop"``) with 1 and 2 threads,
  the exploitability every 10 iterations until it is at most 0.5% of the pot, as
  ``benchmarks/postflop_solver.py``'s driver counts it, beside that program's recorded figures
  for the same spot and threads (copied from ``benchmarks/data/postflop_solver_*.json``, so that
  the chapter runs outside the repository);
* ``flop``: the size of the same ranges and sizes on the flop Td9d6h (public nodes, game-tree
  nodes, table rows, hands, the bytes of the float32 tables) beside postflop-solver's recorded
  memory and time to 0.5% of the pot.

Writes ``cfrbook/data/holdem.json``: ``games["basic-turn"]`` holds the curves and the timing,
``games["basic-flop"]`` the flop's size.
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
from pathlib import Path
from typing import Any

import provenance
from holdem_parity import build

from cfrbook.datasets import source_path
from cfrlib.holdem import RangeSolver

HERE = Path(__file__).resolve().parent
RECORDS = {"turn": "postflop_solver_basic-turn_{threads}t.json", "flop": "postflop_solver_basic-flop_2t.json"}
VARIANTS: dict[str, dict[str, float]] = {
    "CFR alt.": {"alpha": math.inf, "beta": math.inf, "gamma": 0.0},
    "CFR+": {"alpha": math.inf, "beta": -math.inf, "gamma": 1.0},
    "DCFR alt.": {"alpha": 1.5, "beta": 0.0, "gamma": 2.0},
}
"""The range solver's presets, named as the book's figures name the variants (all alternate)."""
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 700, 1000)
RERUN = (1, 2, 5, 10)
"""The checkpoints the test re-runs."""
TARGET_PERCENT = 0.5
OUT = source_path("holdem")


def record(name: str, threads: int = 1) -> dict[str, Any]:
    return json.loads((HERE / "data" / RECORDS[name].format(threads=threads)).read_text())


def curve(game: Any, settings: dict[str, float], checkpoints: tuple[int, ...] = CHECKPOINTS) -> dict[str, list[float]]:
    """One variant's exploitability (chips) and CPU seconds at each checkpoint, one thread."""
    solver = RangeSolver(game, threads=1, **settings)
    rows: dict[str, list[float]] = {"iteration": [], "cpu_seconds": [], "exploitability": []}
    cpu = 0.0
    for k in checkpoints:
        start = time.process_time()
        solver.iterate(k - solver.iteration)
        cpu += time.process_time() - start
        rows["iteration"].append(k)
        rows["cpu_seconds"].append(round(cpu, 3))
        rows["exploitability"].append(solver.exploitability())
        print(settings, k, rows["exploitability"][-1], flush=True)
    return rows


def timing(game: Any, threads: int) -> dict[str, Any]:
    """postflop-solver's schedule on ``threads`` threads until 0.5% of the pot (checked every 10
    iterations), beside that program's recorded run of the same spot."""
    target = TARGET_PERCENT / 100 * game.starting_pot
    solver = RangeSolver(game, schedule="postflop", threads=threads)
    log, cpu, wall = [], 0.0, 0.0
    while not log or log[-1][3] > target:
        start, cpu_start = time.perf_counter(), time.process_time()
        solver.iterate(10)
        wall += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        log.append([solver.iteration, round(wall, 3), round(cpu, 3), solver.exploitability()])
    theirs = record("turn", threads)["result"]
    their_log = theirs["exploitability_log"]
    reached = next(row for row in their_log if row[0] > 0 and row[3] <= target)
    return {"threads": threads, "cfrlib": {"log": log, "memory_bytes": RangeSolver.memory_bytes(game)},
            "postflop_solver": {"log": [row for row in their_log if row[0] <= reached[0]],
                                "memory_bytes": theirs["memory_bytes"],
                                "source": f"benchmarks/data/{RECORDS['turn'].format(threads=threads)}"}}


def flop() -> dict[str, Any]:
    """What the flop tree of the same spot holds, and postflop-solver's recorded solve of it."""
    theirs = record("flop")
    game = build(theirs["spot"])
    target = TARGET_PERCENT / 100 * game.starting_pot
    reached = next(row for row in theirs["result"]["exploitability_log"] if row[0] > 0 and row[3] <= target)
    return {"public_nodes": sum(1 for _ in game.tree.nodes()), "game_tree_nodes": len(game.game_tree.nodes),
            "rows": list(game.game_tree.rows), "hands": [len(h) for h in game.hands],
            "river_boards": len(game.game_tree.boards), "memory_bytes": RangeSolver.memory_bytes(game),
            "postflop_solver": {"memory_bytes": theirs["result"]["memory_bytes"], "threads": theirs["threads"],
                                "reached": reached, "source": f"benchmarks/data/{RECORDS['flop']}"}}


def main() -> None:
    start = time.perf_counter()
    spot = record("turn")["spot"]
    game = build(spot)
    payload = {
        "games": {
            "basic-turn": {
                "spot": spot,
                "curves": {name: curve(game, settings) for name, settings in VARIANTS.items()},
                "variants": {name: {k: str(v) for k, v in settings.items()} for name, settings in VARIANTS.items()},
                "rerun": list(RERUN),
                "timing": [timing(game, threads) for threads in (1, 2)],
            },
            "basic-flop": flop(),
        },
        "machine": {"python": platform.python_version(), "cores": os.cpu_count(), "nice": os.nice(0),
                    "load_average": list(os.getloadavg()), "seconds": round(time.perf_counter() - start, 1)},
    }
    OUT.write_text(json.dumps(payload, indent=1, default=str) + "\n")
    provenance.stamp("holdem")
    print(f"wrote {OUT} ({payload['machine']['seconds']:.0f} s)")


if __name__ == "__main__":
    main()
