"""Fixtures shared by cfrlib's tests: the games many of them solve, built once per module."""

import pytest

from cfrlib import games


@pytest.fixture(scope="module")
def kuhn():
    return games.kuhn()


@pytest.fixture(scope="module")
def leduc():
    return games.leduc()
