"""The recursive textbook CFR and the vectorized engine compute the same numbers, for every preset."""

import numpy as np
import pytest

from cfrlib import Strategy, games
from cfrlib.solvers.fullwidth import CFR, DCFR, CFRPlus, LinearCFR, PredictiveCFRPlus
from cfrlib.textbook import rules
from cfrlib.textbook.cfr import PrunedTextbookCFR, TextbookCFR
from toy_games import RandomGame

# engine preset -> the textbook class, local rule and options that implement it the textbook way.
# LCFR is R += t r^t in the textbook and DCFR(1, 1, 1) in the engine; CFR+ clips with max(., 0) in
# the textbook and is DCFR(inf, -inf, 1) in the engine: equal results show these members of the
# DCFR family. The engine's count_pruned and the textbook's PrunedTextbookCFR make the same cut.
PRESETS = {
    "CFR": (lambda g: CFR(g), TextbookCFR, {}),
    "CFR simultaneous": (lambda g: CFR(g, alternating=False), TextbookCFR, dict(alternating=False)),
    "CFR+": (lambda g: CFRPlus(g), TextbookCFR, dict(rule=rules.cfr_plus())),
    "CFR+ quadratic": (lambda g: CFRPlus(g, "quadratic"), TextbookCFR, dict(rule=rules.cfr_plus(2))),
    "Linear CFR": (lambda g: LinearCFR(g), TextbookCFR, dict(rule=rules.linear_cfr())),
    "DCFR": (lambda g: DCFR(g), TextbookCFR, dict(rule=rules.dcfr())),
    "DCFR simultaneous": (lambda g: DCFR(g, alternating=False), TextbookCFR,
                          dict(rule=rules.dcfr(), alternating=False)),
    "PCFR+": (lambda g: PredictiveCFRPlus(g), TextbookCFR, dict(rule=rules.pcfr_plus())),
    "CFR, pruning": (lambda g: CFR(g, count_pruned=True), PrunedTextbookCFR, {}),
    "DCFR, pruning": (lambda g: DCFR(g, count_pruned=True), PrunedTextbookCFR, dict(rule=rules.dcfr())),
}


def same_work(textbook, engine, flags):
    """The textbook walks once per player and iteration, with or without alternating updates;
    the engine's simultaneous iteration counts one walk that serves both players."""
    factor = 1 if flags.get("alternating", True) else 2
    return textbook.nodes_touched == factor * engine.nodes_touched


GAMES = {"kuhn": games.kuhn, "leduc": games.leduc}
ITERATIONS = {"kuhn": 10, "leduc": 5}
"""Iterations compared: Leduc's cost the textbook 0.2 s each, and by its fifth the regrets have
turned negative, reset (CFR+) and pruned (a fifth of the nodes, for CFR) already."""


def as_array(game, mapping):
    """A textbook ``{(player, key): {action: p}}`` as the tree-ordered array (uniform where the
    walk never went, as the engine's average is)."""
    return Strategy.from_dict(game, mapping, missing="uniform").probs


@pytest.fixture(scope="module", params=["kuhn", pytest.param("leduc", marks=pytest.mark.slow)])
def game(request):
    return GAMES[request.param]()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_textbook_and_engine_agree_after_a_few_iterations(game, preset):
    make_engine, textbook_class, flags = PRESETS[preset]
    iterations = ITERATIONS[game.name]
    engine = make_engine(game).iterate(iterations)
    textbook = textbook_class(game, **flags).iterate(iterations)
    assert np.abs(as_array(game, textbook.average_strategy()) - engine.average_strategy().probs).max() < 1e-12
    assert np.abs(as_array(game, textbook.current_strategy()) - engine.current_strategy().probs).max() < 1e-10
    assert same_work(textbook, engine, flags)


@pytest.mark.parametrize("seed", range(6))
def test_agreement_on_random_games(seed):
    """Random games have one-action infosets, a player acting twice in a row and chance between."""
    game = RandomGame(seed)
    for make_engine, textbook_class, flags in (PRESETS["DCFR, pruning"], PRESETS["PCFR+"],
                                               PRESETS["CFR simultaneous"]):
        engine = make_engine(game).iterate(15)
        textbook = textbook_class(game, **flags).iterate(15)
        assert np.allclose(as_array(game, textbook.average_strategy()), engine.average_strategy().probs,
                           rtol=0, atol=1e-11)
        assert same_work(textbook, engine, flags)


def test_linear_cfr_regrets_are_the_t_weighted_sum_rescaled():
    """The closest exact statement of LCFR = DCFR(1, 1, 1): R_DCFR^T (T + 1) = sum_t t r^t."""
    game = games.kuhn()
    T = 9
    engine = LinearCFR(game).iterate(T)
    textbook = TextbookCFR(game, rules.linear_cfr()).iterate(T)
    tree = game.tree()
    for (p, key), info in textbook.infosets.items():
        row = engine.cumulative_regret()[tree.infoset_index(p, key)]
        weighted = [info.regret[a] for a in info.actions]
        assert np.allclose(row[:len(weighted)] * (T + 1), weighted, rtol=1e-12, atol=1e-12)
