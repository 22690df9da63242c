"""cfrlib.holdem against postflop-solver on the same spot: exploitability after the same
iterations with the same DCFR schedule, the two solutions' expected values, time and memory.

It reads what ``benchmarks/postflop_solver.py`` recorded (``benchmarks/data/postflop_solver_<spot>_<threads>t.json``:
the spot, the exploitability log, postflop-solver's per-hand EVs and its memory), builds the same
spot with :func:`cfrlib.holdem.holdem_game`, runs :class:`cfrlib.holdem.RangeSolver` with
``schedule="postflop"`` (postflop-solver's DCFR) and the same threads, evaluates at the same
iterations, and writes ``benchmarks/data/holdem_engine_<spot>_<threads>t.json`` and a table:

    python benchmarks/holdem_parity.py benchmarks/data/postflop_solver_basic-turn_2t.json [--iterations 300]

The log rows are ``[iteration, wall seconds, CPU seconds (all threads), exploitability in
chips]`` of the iterations alone (the evaluations excluded), as the postflop-solver driver counts
its ``solve_step`` calls. On a machine shared with other work, wall seconds depend on the load;
the CPU seconds of both programs are the figures to compare.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from cfrlib.holdem import RangeSolver, TreeConfig, holdem_game

HERE = Path(__file__).resolve().parent
UNTIL_LIMIT = 400
"""The most iterations ``--until-percent`` runs."""


def build(spot: dict[str, Any]) -> Any:
    """The cfrlib.holdem game of a spot as the postflop-solver harness describes it."""
    board = spot["board"]
    street = {3: "flop", 4: "turn", 5: "river"}[len(board) // 2]
    sizes = {s: [(v["oop"]["bet"], v["oop"]["raise"]), (v["ip"]["bet"], v["ip"]["raise"])]
             for s, v in spot["bet_sizes"].items()}
    donk = spot.get("donk_sizes", {})
    config = TreeConfig(street, spot["starting_pot"], spot["effective_stack"], sizes, turn_donk=donk.get("turn"),
                        river_donk=donk.get("river"), add_allin_threshold=spot["add_allin_threshold"],
                        force_allin_threshold=spot["force_allin_threshold"],
                        merging_threshold=spot["merging_threshold"])
    return holdem_game(config, board, [spot["oop_range"], spot["ip_range"]])


def compare(record: dict[str, Any], iterations: int | None,
            until_percent: float | None = None) -> dict[str, Any]:
    """The spot of ``record`` solved to the same checkpoints (at most ``iterations``), then, with
    ``until_percent``, on in steps of ten iterations until the exploitability is at most that
    percentage of the pot (or ``UNTIL_LIMIT`` iterations)."""
    spot, theirs = record["spot"], record["result"]
    pot = spot["starting_pot"]
    game = build(spot)
    solver = RangeSolver(game, schedule="postflop", threads=record["threads"])
    checkpoints = [row[0] for row in theirs["exploitability_log"] if row[0] > 0]
    if iterations is not None:
        checkpoints = [k for k in checkpoints if k <= iterations]
    log: list[list[float]] = []
    seconds = cpu = 0.0

    def advance(k: int) -> None:
        nonlocal seconds, cpu
        start, cpu_start = time.perf_counter(), time.process_time()
        solver.iterate(k - solver.iteration)
        seconds += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        log.append([k, seconds, cpu, solver.exploitability()])

    for k in checkpoints:
        advance(k)
    while (until_percent is not None and 100 * log[-1][3] / pot > until_percent
           and solver.iteration < UNTIL_LIMIT):
        advance(solver.iteration + 10)
    done = solver.iteration
    evs = {}
    for p in range(2):
        ours = dict(zip(game.names[p], solver.hand_values(p), strict=True))
        w = np.array(theirs["normalized_weights"][p])
        their_ev = np.array(theirs["expected_values"][p])
        our_ev = np.array([ours[h] for h in theirs["hands"][p]])
        evs[p] = {"ours": float(w @ our_ev / w.sum()), "theirs": float(w @ their_ev / w.sum()),
                  "mean_abs_hand_difference": float(w @ np.abs(our_ev - their_ev) / w.sum())}
    their_log = {row[0]: row for row in theirs["exploitability_log"]}
    return {"spot": spot, "threads": record["threads"], "iterations": done,
            "memory_bytes": {"cfrlib_tables": RangeSolver.memory_bytes(game),
                             "postflop_solver_float32": theirs["memory_bytes"]["float32"]},
            "log": log, "postflop_solver_log": [their_log[k] for k in checkpoints],
            "game_value": [solver.game_value(0), solver.game_value(1)], "expected_values": evs,
            "exploitability_percent": 100 * log[-1][3] / pot}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path, help="postflop_solver_<spot>_<threads>t.json files")
    parser.add_argument("--iterations", type=int, default=None, help="stop at this many iterations")
    parser.add_argument("--until-percent", type=float, default=None,
                        help="then go on, ten iterations at a time, until at most this %% of the pot")
    parser.add_argument("--out-dir", type=Path, default=HERE / "data")
    args = parser.parse_args()
    for path in args.records:
        record = json.loads(path.read_text())
        result = compare(record, args.iterations, args.until_percent)
        name = path.name.replace("postflop_solver_", "holdem_engine_")
        args.out_dir.mkdir(parents=True, exist_ok=True)
        (args.out_dir / name).write_text(json.dumps(result, indent=1))
        print(f"{path.name}: {result['threads']} threads, memory {result['memory_bytes']}")
        print(f"{'iteration':>9} {'cfrlib CPU s':>12} {'cfrlib expl':>12} {'postflop CPU s':>14} {'postflop expl':>14}")
        for k, ours in enumerate(result["log"]):
            theirs = result["postflop_solver_log"][k] if k < len(result["postflop_solver_log"]) else None
            print(f"{ours[0]:>9} {ours[2]:>12.2f} {ours[3]:>12.4f}"
                  + (f" {theirs[2]:>14.2f} {theirs[3]:>14.4f}" if theirs else ""))
        for p, ev in result["expected_values"].items():
            print(f"player {p}: EV {ev['ours']:.3f} (postflop-solver {ev['theirs']:.3f}), "
                  f"mean |hand EV difference| {ev['mean_abs_hand_difference']:.3f}")


if __name__ == "__main__":
    main()
