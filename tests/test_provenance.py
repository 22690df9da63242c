"""Every recorded data set says what made it, and fails here when the code behind it changed
(benchmarks/provenance.py): a recorded number cannot outlive the code that computed it."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from cfrbook import datasets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import provenance  # noqa: E402


def test_every_data_set_is_registered_with_the_script_that_stamps_it():
    assert sorted(provenance.RECORDED) == sorted(datasets.NAMES)
    table = (ROOT / "ARCHITECTURE.md").read_text()
    for name, recorded in provenance.RECORDED.items():
        script = (ROOT / recorded.script).read_text()
        assert f'provenance.stamp("{name}")' in script, f"{recorded.script} does not stamp {name}"
        assert f"| `{name}` | `{recorded.script}` |" in table, f"ARCHITECTURE.md names another script for {name}"


@pytest.mark.parametrize("name", sorted(provenance.RECORDED))
def test_the_stamp_says_what_made_the_data(name):
    stamp = json.loads(provenance.stamp_path(name).read_text())
    assert stamp["data_set"] == f"cfrbook/data/{name}.json"
    assert stamp["script"] == provenance.RECORDED[name].script
    assert re.fullmatch(r"[0-9a-f]{40}", stamp["recorded"]["commit"])
    machine = stamp["recorded"]["machine"]
    assert machine["cpu"] and machine["cores"], f"{name}: the stamp names no machine"
    assert all(r["reason"].strip() for r in stamp["restamps"]), f"{name}: a re-stamp without a reason"


@pytest.mark.parametrize("name", sorted(provenance.RECORDED))
def test_the_code_behind_the_data_is_the_code_that_made_it(name):
    stamp = json.loads(provenance.stamp_path(name).read_text())
    recorded = provenance.RECORDED[name]
    assert stamp["modules"] == list(recorded.modules), (
        f"{name}: the modules it depends on changed; re-stamp it")
    diff = provenance.changed(stamp["fingerprint"], provenance.fingerprint(recorded.modules))
    assert not diff, (
        f"cfrbook/data/{name}.json was recorded by other code than today's: " + "; ".join(diff)
        + f". Re-record it (python {recorded.script}), or, if its numbers cannot depend on the "
        f"change, re-stamp it: python benchmarks/provenance.py restamp {name} --reason '...'")


SOURCE = '''
"""A module."""
RATE = 2
"""The rate."""

def step(x):
    """Doubles."""
    # a comment
    return RATE * x

class Rule:
    def weight(self, t):
        return t
'''


def test_the_fingerprint_ignores_docstrings_comments_and_layout():
    reworded = SOURCE.replace('"""Doubles."""', '"""Twice x: 2x."""').replace("# a comment", "")
    reworded = reworded.replace('"""The rate."""', '"""The rate, in chapter 9."""')
    reworded = reworded.replace("return RATE * x", "return (RATE\n            * x)")
    assert provenance.fingerprint_source(SOURCE, "m") == provenance.fingerprint_source(reworded, "m")


@pytest.mark.parametrize("edit, named", [
    (("return RATE * x", "return RATE * x + 0"), "m:step changed"),
    (("RATE = 2", "RATE = 3"), "m:(body) changed"),
    (("return t", "return t * t"), "m:Rule changed"),
    (("class Rule:", "def extra():\n    return 1\n\nclass Rule:"), "m:extra added"),
])
def test_a_change_of_code_is_named(edit, named):
    before = provenance.fingerprint_source(SOURCE, "m")
    after = provenance.fingerprint_source(SOURCE.replace(*edit), "m")
    assert provenance.changed(before, after) == [named]


def test_a_package_is_fingerprinted_module_by_module():
    prints = provenance.fingerprint(("cfrlib.solvers.sampling",))
    modules = {key.split(":")[0] for key in prints}
    assert {"cfrlib.solvers.sampling.external", "cfrlib.solvers.sampling.outcome"} <= modules
