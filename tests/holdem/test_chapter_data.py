"""benchmarks/holdem_chapter.py's recorded data (chapter 16): a short re-run agrees with it, and the
figures it copied from postflop-solver's recorded runs are those runs' figures."""

import json
import sys
from pathlib import Path

import pytest

from cfrbook.datasets import load_json

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import holdem_chapter  # noqa: E402
from holdem_parity import build  # noqa: E402


@pytest.fixture(scope="module")
def recorded():
    return load_json("holdem")["games"]["basic-turn"]


@pytest.mark.slow  # a re-run of recorded data: make test only
def test_a_short_rerun_agrees_with_the_recorded_curves(recorded):
    game = build(recorded["spot"])
    checkpoints = tuple(recorded["rerun"])
    for name, settings in holdem_chapter.VARIANTS.items():
        rerun = holdem_chapter.curve(game, settings, checkpoints)
        run = recorded["curves"][name]
        assert run["iteration"][:len(checkpoints)] == list(checkpoints)
        # float32 tables: a few ulps apart between machines, far below the gaps between iterations
        assert rerun["exploitability"] == pytest.approx(run["exploitability"][:len(checkpoints)], rel=1e-4), name


def test_the_curves_fall_and_dcfr_reaches_the_target_first(recorded):
    pot = recorded["spot"]["starting_pot"]
    first = {}
    for name, run in recorded["curves"].items():
        assert run["exploitability"][-1] < run["exploitability"][0] / 20, name
        first[name] = next((k for k, e in zip(run["iteration"], run["exploitability"]) if e <= pot / 200), None)
    assert first["DCFR alt."] is not None and first["CFR+"] is not None
    assert first["DCFR alt."] <= first["CFR+"] and first["CFR alt."] in (None, *recorded["curves"]["CFR alt."]["iteration"])


def test_postflop_solvers_figures_are_copied_from_its_recorded_runs(recorded):
    for run in recorded["timing"]:
        theirs = json.loads((ROOT / run["postflop_solver"]["source"]).read_text())["result"]
        assert run["postflop_solver"]["memory_bytes"] == theirs["memory_bytes"]
        log = run["postflop_solver"]["log"]
        assert log == theirs["exploitability_log"][:len(log)]
        assert log[-1][3] <= 0.005 * recorded["spot"]["starting_pot"] < log[-2][3]
        ours = run["cfrlib"]["log"]
        assert ours[-1][3] <= 0.005 * recorded["spot"]["starting_pot"] < ours[-2][3]
    flop = load_json("holdem")["games"]["basic-flop"]["postflop_solver"]
    theirs = json.loads((ROOT / flop["source"]).read_text())["result"]
    assert flop["reached"] in theirs["exploitability_log"] and flop["memory_bytes"] == theirs["memory_bytes"]
