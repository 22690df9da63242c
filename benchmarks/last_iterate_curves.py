"""The last-iterate methods ExRM+, SPRM+ and MMD on the games of ``frontier_curves`` (Kuhn, Leduc,
Bluff 1x1 with 3, 4 and 6 sides): the exploitability of their current (and average) strategy
against iterations, the data of chapter 13's "Last-iterate methods" and of its explorer (the other
variants' current strategies are in ``frontier_curves``).

Run from the repository root: ``python benchmarks/last_iterate_curves.py``. Each method runs
``ITERATIONS`` iterations per game with its default parameters, evaluated at the iteration counts
of ``cfrbook.comparison.schedule``; then each game of ``SWEEP_GAMES`` is run again at the other
parameters of ``SWEEP`` (their final exploitability only). The seconds are the solver's own and
the only numbers that change from run to run. Output: ``cfrbook/data/last_iterate.json``, ``{"iterations": T,
"methods": [...], "games": {game: {method: {"iteration", "seconds", "current", "average"}}},
"sweep": {game: {method: {parameter value: final current exploitability}}}, "defaults": ...,
"machine": ...}``.
"""

from __future__ import annotations

import os
import platform
import json

import numpy as np

import cfrlib
from cfrbook import comparison
from cfrbook.datasets import source_path
from cfrlib import games
import provenance

ITERATIONS = 1000
GAMES = {"kuhn": games.kuhn, "leduc": games.leduc, "bluff11_3": lambda: games.bluff(sides=3),
         "bluff11_4": lambda: games.bluff(sides=4), "bluff11": games.bluff}
SWEEP_GAMES = ("kuhn", "leduc", "bluff11_4")
METHODS = {"ExRM+": cfrlib.ExRMPlus, "SPRM+": cfrlib.SPRMPlus, "MMD": cfrlib.MMD}
SWEEP = {"ExRM+": ("eta", (0.1, 1.0, 10.0)), "SPRM+": ("eta", (0.1, 1.0, 10.0)),
         "MMD": ("temperature", (0.05, 0.01, 0.002))}
"""The parameter each method is run at, its default first for MMD and in the middle for the others."""
OUT = source_path("last_iterate")


def curve(solver: cfrlib.Solver, iterations: int) -> dict[str, list[float]]:
    """Exploitability of the current and of the average strategy at the points of
    ``comparison.schedule(iterations)``, with the iteration count and the solver's seconds."""
    out: dict[str, list[float]] = {"iteration": [], "seconds": [], "current": [], "average": []}
    for target in comparison.schedule(iterations):
        solver.iterate(target - solver.iterations)
        out["iteration"].append(solver.iterations)
        out["seconds"].append(solver.seconds)
        out["current"].append(cfrlib.exploitability(solver.game, solver.current_strategy()))
        out["average"].append(solver.exploitability())
    return out


def main() -> None:
    machine = {"python": platform.python_version(), "numpy": np.__version__, "cores": os.cpu_count(),
               "load_average": os.getloadavg()}
    data = {"iterations": ITERATIONS, "methods": list(METHODS), "games": {}, "sweep": {},
            "defaults": {name: {key: getattr(klass(games.kuhn()), key) for key in klass._param_names
                                if key != "eta" or name != "MMD"} for name, klass in METHODS.items()},
            "machine": machine}
    for key, make_game in GAMES.items():
        game = make_game()
        data["games"][key] = {}
        if key in SWEEP_GAMES:
            data["sweep"][key] = {}
        for name, klass in METHODS.items():
            run = curve(klass(game), ITERATIONS)
            data["games"][key][name] = run
            print(f"{key:10} {name:6} {run['seconds'][-1]:6.2f} s  current {run['current'][-1]:.3g}", flush=True)
            if key not in SWEEP_GAMES:
                continue
            parameter, values = SWEEP[name]
            data["sweep"][key][name] = {
                str(value): cfrlib.exploitability(game, klass(game, **{parameter: value})
                                                  .iterate(ITERATIONS).current_strategy())
                for value in values}
    OUT.write_text(json.dumps(data, indent=1))
    provenance.stamp("last_iterate")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
