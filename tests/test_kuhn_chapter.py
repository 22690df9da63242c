"""Chapter 2's CFR, the code the reader sees: the cell tagged ``first-cfr`` and the folded
solutions of its exercises are read from the notebook and run as they are, then checked against
cfrlib (Zinkevich et al. 2007, the algorithm; Kuhn 1950, the game's value and equilibria)."""

from __future__ import annotations

import ast
import math

import notebook_cache
import numpy as np
import pytest

import cfrlib
from cfrlib import games

from notebook_code import CHAPTERS

NOTEBOOK = "02_cfr_on_kuhn_poker.ipynb"
TAG = "first-cfr"
MAX_LINES = 60


def _cells():
    return notebook_cache.read(CHAPTERS / NOTEBOOK).cells


def first_cfr_source() -> str:
    """The source of the chapter's one code cell tagged ``first-cfr``."""
    marked = [c.source for c in _cells() if c.cell_type == "code"
              and TAG in c.metadata.get("tags", [])]
    assert len(marked) == 1, f"{NOTEBOOK}: expected one code cell tagged {TAG!r}"
    return marked[0]


def code_cell(cell_id: str) -> str:
    """The source of the code cell ``cell_id`` (an exercise's solution, folded in the page)."""
    (source,) = [c.source for c in _cells() if c.cell_type == "code" and c.id == cell_id]
    return source


def fresh_cfr() -> dict:
    """The ``first-cfr`` cell run in a new namespace: empty tables, no iteration yet."""
    namespace: dict = {"__name__": "first_cfr"}
    exec(compile(first_cfr_source(), f"{NOTEBOOK}:first-cfr", "exec"), namespace)
    return namespace


def _strategy(namespace: dict) -> cfrlib.Strategy:
    return cfrlib.Strategy.from_dict(games.kuhn(), namespace["average_strategy"]())


def test_the_cell_is_plain_python_in_at_most_sixty_lines():
    source = first_cfr_source()
    assert len(source.splitlines()) <= MAX_LINES
    tree = ast.parse(source)                # dictionaries only: nothing imported
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


@pytest.mark.parametrize("iterations", [1, 2, 7, 300])
def test_the_readers_cfr_is_cfrlibs_cfr(iterations):
    # Same schedule (alternating, player 0 first, uniform start, uniform average): equal to
    # rounding, infoset by infoset.
    cfr = fresh_cfr()
    cfr["train"](iterations)
    reference = cfrlib.CFR(games.kuhn()).iterate(iterations).average_strategy()
    assert np.abs(_strategy(cfr).probs - reference.probs).max() < 1e-9


def test_it_converges_to_kuhns_value_and_family():
    game = games.kuhn()
    cfr = fresh_cfr()
    cfr["train"](2000)
    sigma = _strategy(cfr)
    # CFR is near 5e-4 here; test_a_wrong_weight_fails_the_bound shows the bound separates.
    assert cfrlib.exploitability(game, sigma) < 2e-3
    assert cfrlib.expected_value(game, sigma) == pytest.approx(-1 / 18, abs=2e-3)
    omega = sigma["J"]["bet"]
    assert 0.0 <= omega <= 1 / 3
    assert np.abs(sigma.probs - game.equilibrium(omega).probs).max() < 0.02


def test_a_wrong_weight_fails_the_bound():
    # The test's bound separates: weighting regrets by the player's own reach instead of the
    # others' (a classic slip) leaves the average far from equilibrium.
    source = first_cfr_source().replace("regret[I][a] += reach_others *",
                                        "regret[I][a] += reach_i *")
    assert source != first_cfr_source()
    namespace: dict = {}
    exec(source, namespace)
    namespace["train"](2000)
    assert cfrlib.exploitability(games.kuhn(), _strategy(namespace)) > 2e-3


def test_simultaneous_updates_solution_is_cfrlibs_simultaneous_cfr():
    cfr = fresh_cfr()
    exec(code_cell("ch2-ex2"), cfr)
    cfr["train_simultaneous"](300)
    reference = cfrlib.CFR(games.kuhn(), alternating=False).iterate(300).average_strategy()
    assert np.abs(_strategy(cfr).probs - reference.probs).max() < 1e-9


def test_regret_matching_plus_solution_is_cfrlibs_cfr_plus_with_a_uniform_average():
    cfr = fresh_cfr()
    exec(code_cell("ch2-ex3-code"), cfr)
    cfr["train_plus"](300)
    reference = cfrlib.CFRPlus(games.kuhn(), averaging="uniform").iterate(300)
    assert np.abs(_strategy(cfr).probs - reference.average_strategy().probs).max() < 1e-9
    assert math.isfinite(cfrlib.exploitability(games.kuhn(), _strategy(cfr)))
