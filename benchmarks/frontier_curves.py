"""The frontier's variants against CFR+, DCFR and PCFR+: exploitability of the average and of the
current strategy against iterations and seconds on Kuhn, Leduc and Bluff 1x1 with 3, 4 and 6
sides (the data of chapter 13, "The frontier").

Run from the repository root: ``python benchmarks/frontier_curves.py [--quick] [--only NAME ...]``
(``--only`` re-runs the named variants and keeps the other recorded curves). Every variant
runs ``ITERATIONS`` iterations per game (the schedules of HS-DCFR and HS-PCFR+ are planned for
exactly that many), evaluated at the iteration counts of ``cfrbook.comparison.schedule``; the
seconds are the solver's own (evaluations not counted) and are the only column that changes from
run to run. The curves go to ``cfrbook/data/frontier_curves.json``: ``{"iterations": T,
"games": {game: {variant: {"iteration": [...], "seconds": [...], "average": [...],
"current": [...]}}}, "machine": ...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

import numpy as np

import cfrlib
from cfrbook import comparison
from cfrbook.datasets import source_path
from cfrlib import games

ITERATIONS = 1000
GAMES = {"kuhn": games.kuhn, "leduc": games.leduc, "bluff11_3": lambda: games.bluff(sides=3),
         "bluff11_4": lambda: games.bluff(sides=4), "bluff11": games.bluff}
BASELINES = ("CFR+", "DCFR alt.", "PCFR+")
VARIANTS = BASELINES + tuple(comparison.FRONTIER_VARIANTS)
OUT = source_path("frontier_curves")


def curve(solver: cfrlib.Solver, iterations: int) -> dict[str, list[float]]:
    """Exploitability of the average and of the current strategy at the points of
    ``comparison.schedule(iterations)``, with the iteration count and the solver's seconds."""
    out: dict[str, list[float]] = {"iteration": [], "seconds": [], "average": [], "current": []}
    for target in comparison.schedule(iterations):
        solver.iterate(target - solver.iterations)
        out["iteration"].append(solver.iterations)
        out["seconds"].append(solver.seconds)
        out["average"].append(solver.exploitability())
        out["current"].append(cfrlib.exploitability(solver.game, solver.current_strategy()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="Kuhn and Leduc only (a smoke test)")
    parser.add_argument("--only", nargs="+", choices=VARIANTS, metavar="NAME",
                        help="re-run these variants only, keeping the others' recorded curves")
    args = parser.parse_args()
    machine = {"python": platform.python_version(), "numpy": np.__version__, "cores": os.cpu_count(),
               "load_average": os.getloadavg()}
    data = {"iterations": ITERATIONS, "variants": list(VARIANTS), "games": {}, "machine": machine}
    recorded = json.loads(OUT.read_text()) if args.only else None
    if recorded is not None:
        data["machine"] = {**recorded["machine"], "only": args.only, "only_machine": machine}
    for key, make_game in GAMES.items():
        if args.quick and key.startswith("bluff"):
            if recorded is not None:  # --only keeps what it does not re-run
                data["games"][key] = recorded["games"][key]
            continue
        game = make_game()
        cfrlib.CFRPlus(game).iterate(1).exploitability()  # compile and warm up before any timing
        data["games"][key] = {}
        for name in VARIANTS:
            if recorded is not None and name not in args.only:
                data["games"][key][name] = recorded["games"][key][name]
                continue
            run = curve(comparison.make_solver(name, game), ITERATIONS)
            data["games"][key][name] = run
            print(f"{key:10} {name:10} {run['seconds'][-1]:7.2f} s  average {run['average'][-1]:.3g}  "
                  f"current {run['current'][-1]:.3g}", flush=True)
    OUT.write_text(json.dumps(data, indent=1))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
