"""cfrlib.holdem against postflop-solver's recorded run of the same river spot
(benchmarks/data/postflop_solver_basic-river_1t.json, written by benchmarks/postflop_solver.py
from postflop-solver's own code): the same equities, the same exploitability within 10% after
the same iterations of the same DCFR, and EVs that agree within the exploitability."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from cfrlib.holdem import RangeSolver

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "benchmarks" / "data" / "postflop_solver_basic-river_1t.json"


@pytest.fixture(scope="module")
def record():
    return json.loads(RECORD.read_text())


@pytest.fixture(scope="module")
def game(record):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from holdem_parity import build
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return build(record["spot"])


def test_root_actions_and_equities_are_postflop_solvers(record, game):
    theirs = record["result"]
    solver = RangeSolver(game, threads=1)
    assert solver.actions() == theirs["root_actions"]
    for p in range(2):
        ours = dict(zip(game.names[p], solver.equity(p), strict=True))
        # postflop-solver's equities are float32
        assert [ours[h] for h in theirs["hands"][p]] == pytest.approx(theirs["equity"][p], abs=1e-6)


def test_same_schedule_same_exploitability_and_evs(record, game):
    theirs = record["result"]
    iterations, _, _, their_exploitability = theirs["exploitability_log"][-1]
    solver = RangeSolver(game, schedule="postflop", threads=1).iterate(iterations)
    ours = solver.exploitability()
    assert ours == pytest.approx(their_exploitability, rel=0.10)
    for p in range(2):
        w = np.array(theirs["normalized_weights"][p])
        values = dict(zip(game.names[p], solver.hand_values(p), strict=True))
        ev = w @ np.array([values[h] for h in theirs["hands"][p]]) / w.sum()
        their_ev = w @ np.array(theirs["expected_values"][p]) / w.sum()
        assert abs(ev - their_ev) <= ours + their_exploitability
