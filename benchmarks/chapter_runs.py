"""The full-width runs that chapters 8 and 9 plot and quote, recorded once (issue 40: they cost a
chapter 5 to 9 s of CPU on every execution, `make test` included).

Run from the repository root: ``python benchmarks/chapter_runs.py``. Output:
``cfrbook/data/chapter_runs.json``:

* ``"long runs"`` (chapter 8): CFR, CFR+ and Linear CFR on Kuhn and Leduc, ``LONG_ITERATIONS``
  iterations, the average strategy's exploitability every ``LONG_EVERY`` iterations, as
  :meth:`cfrlib.solvers.ConvergenceLog.to_dict` gives it (``{game: {algorithm: log}}``);
* ``"newest"`` (chapter 9): CFR+, DCFR and PCFR+ the same way, ``NEWEST_ITERATIONS`` iterations;
* ``"grid"`` (chapter 9): DCFR's exploitability on Leduc after ``GRID_ITERATIONS`` iterations
  for every ``(alpha, beta)`` of ``ALPHAS`` x ``BETAS`` with ``gamma = 2`` (rows: beta);
* ``"points"`` (chapter 9): exploitability after ``POINT_ITERATIONS`` iterations of DCFR at
  every ``(alpha, beta, gamma)`` of ``POINTS``, on Kuhn and on Leduc.

Exploitabilities are kept to 12 significant digits, the seconds to the microsecond (the only
numbers that change from run to run). ``tests/test_chapter_runs.py`` re-runs a prefix of each.
"""

from __future__ import annotations

import json
import math
from typing import Any

import cfrlib
from cfrbook.datasets import source_path
from cfrlib import games
import provenance

GAMES = {"kuhn": games.kuhn, "leduc": games.leduc}
LONG = {"CFR": cfrlib.CFR, "CFR+": cfrlib.CFRPlus, "Linear CFR": cfrlib.LinearCFR}
LONG_ITERATIONS, LONG_EVERY = 10_000, 10
NEWEST = {"CFR+": cfrlib.CFRPlus, "DCFR": cfrlib.DCFR, "PCFR+": cfrlib.PredictiveCFRPlus}
NEWEST_ITERATIONS = 3000
ALPHAS = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, math.inf]
BETAS = [-math.inf, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, math.inf]
GRID_ITERATIONS = 500
POINTS = [(a, b, g) for a in (1.0, 1.5, 2.0) for b in (-1.0, 0.0, 0.5) for g in (1.0, 2.0, 3.0)]
POINT_ITERATIONS = 1000
OUT = source_path("chapter_runs")


def log_of(make: Any, game: cfrlib.Game, iterations: int, every: int) -> dict[str, Any]:
    """One run's :class:`~cfrlib.solvers.ConvergenceLog` as a dict, rounded for the record."""
    log = make(game).run(iterations, eval_every=every, progress=False).to_dict()
    log["exploitability"] = [float(f"{x:.12g}") for x in log["exploitability"]]
    log["seconds"] = [round(s, 6) for s in log["seconds"]]
    return log


def after(game: cfrlib.Game, params: tuple[float, float, float], iterations: int) -> float:
    """The exploitability of ``FullWidthCFR(game, *params)`` after ``iterations``."""
    return cfrlib.FullWidthCFR(game, *params).iterate(iterations).exploitability()


def grid(game: cfrlib.Game, alphas: list[float], betas: list[float], iterations: int) -> list[list[float]]:
    """DCFR(alpha, beta, 2)'s exploitability after ``iterations``, rows by beta."""
    return [[after(game, (a, b, 2.0), iterations) for a in alphas] for b in betas]


def main() -> None:
    made = {name: make() for name, make in GAMES.items()}
    data: dict[str, Any] = {
        "long runs": {g: {name: log_of(make, game, LONG_ITERATIONS, LONG_EVERY) for name, make in LONG.items()}
                      for g, game in made.items()},
        "newest": {g: {name: log_of(make, game, NEWEST_ITERATIONS, LONG_EVERY) for name, make in NEWEST.items()}
                   for g, game in made.items()},
        "grid": {"alphas": [str(a) for a in ALPHAS], "betas": [str(b) for b in BETAS], "gamma": 2.0,
                 "iterations": GRID_ITERATIONS, "exploitability": grid(made["leduc"], ALPHAS, BETAS, GRID_ITERATIONS)},
        "points": {"iterations": POINT_ITERATIONS, "points": POINTS,
                   **{g: [after(game, p, POINT_ITERATIONS) for p in POINTS] for g, game in made.items()}},
    }
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    provenance.stamp("chapter_runs")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
