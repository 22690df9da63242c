"""benchmarks/chapter_runs.py's data (the runs chapters 8 and 9 plot): a short re-run of each
part agrees with the record, and the record keeps the shape the chapters read."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from cfrbook import datasets
from cfrlib import games
from cfrlib.solvers import ConvergenceLog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import chapter_runs  # noqa: E402

DATA = datasets.load_json("chapter_runs")
GAMES = {"kuhn": games.kuhn(), "leduc": games.leduc()}
PREFIX = 200  # iterations re-run of each recorded log


@pytest.mark.parametrize("part, algorithms", [("long runs", chapter_runs.LONG), ("newest", chapter_runs.NEWEST)])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_prefix_of_each_log_runs_again_to_the_same_numbers(part, algorithms, game):
    for name, make in algorithms.items():
        recorded = ConvergenceLog.from_dict(DATA[part][game][name])
        fresh = chapter_runs.log_of(make, GAMES[game], PREFIX, chapter_runs.LONG_EVERY)
        rows = len(fresh["iteration"])
        assert list(recorded.iteration[:rows]) == fresh["iteration"]
        assert list(recorded.nodes_touched[:rows]) == fresh["nodes_touched"]
        assert recorded.exploitability[:rows] == pytest.approx(fresh["exploitability"], rel=1e-9, abs=1e-15)


def test_the_logs_cover_what_the_chapters_read():
    for part, algorithms, iterations in (("long runs", chapter_runs.LONG, chapter_runs.LONG_ITERATIONS),
                                         ("newest", chapter_runs.NEWEST, chapter_runs.NEWEST_ITERATIONS)):
        for game in GAMES:
            for name in algorithms:
                log = ConvergenceLog.from_dict(DATA[part][game][name])
                assert list(log.iteration) == list(range(0, iterations + 1, chapter_runs.LONG_EVERY))
                assert log.exploitability[-1] < log.exploitability[1]


def test_grid_corners_and_points_run_again_to_the_same_numbers():
    grid = DATA["grid"]
    assert grid["alphas"] == [str(a) for a in chapter_runs.ALPHAS]
    assert grid["betas"] == [str(b) for b in chapter_runs.BETAS]
    for row, col in ((0, 0), (-1, -1), (chapter_runs.BETAS.index(0.0), chapter_runs.ALPHAS.index(1.5))):
        alpha, beta = chapter_runs.ALPHAS[col], chapter_runs.BETAS[row]
        fresh = chapter_runs.after(GAMES["leduc"], (alpha, beta, grid["gamma"]), grid["iterations"])
        assert grid["exploitability"][row][col] == pytest.approx(fresh, rel=1e-9)
    points = DATA["points"]
    assert [tuple(p) for p in points["points"]] == chapter_runs.POINTS
    k = chapter_runs.POINTS.index((1.5, 0.0, 2.0))
    for game in GAMES:
        fresh = chapter_runs.after(GAMES[game], chapter_runs.POINTS[k], points["iterations"])
        assert points[game][k] == pytest.approx(fresh, rel=1e-9)
    assert all(math.isfinite(x) and x > 0 for row in grid["exploitability"] for x in row)
