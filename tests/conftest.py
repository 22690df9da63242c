"""Fixtures shared by cfrlib's tests: the games many of them solve, built once per module; and
``benchmarks/`` on ``sys.path``, where the recording scripts that tests re-run import their
sibling modules (``provenance``, ``common``) from, whichever test file a worker runs first."""

import sys
from pathlib import Path

import pytest

from cfrlib import games

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))


@pytest.fixture(scope="module")
def kuhn():
    return games.kuhn()


@pytest.fixture(scope="module")
def leduc():
    return games.leduc()
