"""The recursive textbook CFR and the vectorized engine compute the same numbers, for every preset."""

import numpy as np
import pytest

from cfrlib import Strategy, games
from cfrlib.solvers.fullwidth import CFR, DCFR, CFRPlus, LinearCFR, PredictiveCFRPlus
from cfrlib.textbook import rules
from cfrlib.textbook.cfr import TextbookCFR
from toy_games import RandomGame

# engine preset -> the textbook's local rule and options that implement it the textbook way. LCFR
# is R += t r^t in the textbook and DCFR(1, 1, 1) in the engine; CFR+ clips with max(., 0) in the
# textbook and is DCFR(inf, -inf, 1) in the engine: equal results show these members of the DCFR
# family.
PRESETS = {
    "CFR": (lambda g: CFR(g), {}),
    "CFR simultaneous": (lambda g: CFR(g, alternating=False), dict(alternating=False)),
    "CFR+": (lambda g: CFRPlus(g), dict(rule=rules.cfr_plus())),
    "CFR+ quadratic": (lambda g: CFRPlus(g, "quadratic"), dict(rule=rules.cfr_plus(2))),
    "Linear CFR": (lambda g: LinearCFR(g), dict(rule=rules.linear_cfr())),
    "DCFR": (lambda g: DCFR(g), dict(rule=rules.dcfr())),
    "DCFR simultaneous": (lambda g: DCFR(g, alternating=False),
                          dict(rule=rules.dcfr(), alternating=False)),
    "PCFR+": (lambda g: PredictiveCFRPlus(g), dict(rule=rules.pcfr_plus())),
    "CFR, pruning": (lambda g: CFR(g, count_pruned=True), dict(pruning=True)),
    "CFR+ simultaneous, pruning": (lambda g: CFRPlus(g, alternating=False, count_pruned=True),
                                   dict(rule=rules.cfr_plus(), alternating=False, pruning=True)),
    "DCFR, pruning": (lambda g: DCFR(g, count_pruned=True), dict(rule=rules.dcfr(), pruning=True)),
}

GAMES = {"kuhn": games.kuhn, "leduc": games.leduc}


def as_array(game, mapping):
    """A textbook ``{(player, key): {action: p}}`` as the tree-ordered array (uniform where the
    walk never went, as the engine's average is)."""
    return Strategy.from_dict(game, mapping, missing="uniform").probs


@pytest.fixture(scope="module", params=["kuhn", pytest.param("leduc", marks=pytest.mark.slow)])
def game(request):
    return GAMES[request.param]()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_textbook_and_engine_agree_after_10_iterations(game, preset):
    make_engine, flags = PRESETS[preset]
    engine = make_engine(game).iterate(10)
    textbook = TextbookCFR(game, **flags).iterate(10)
    assert np.abs(as_array(game, textbook.average_strategy()) - engine.average_strategy().probs).max() < 1e-12
    assert np.abs(as_array(game, textbook.current_strategy()) - engine.current_strategy().probs).max() < 1e-10
    assert textbook.nodes_touched == engine.nodes_touched


@pytest.mark.parametrize("seed", range(6))
def test_agreement_on_random_games(seed):
    """Random games have one-action infosets, a player acting twice in a row and chance between."""
    game = RandomGame(seed)
    for make_engine, flags in (PRESETS["DCFR, pruning"], PRESETS["PCFR+"], PRESETS["CFR simultaneous"]):
        engine = make_engine(game).iterate(15)
        textbook = TextbookCFR(game, **flags).iterate(15)
        assert np.allclose(as_array(game, textbook.average_strategy()), engine.average_strategy().probs,
                           rtol=0, atol=1e-11)
        assert textbook.nodes_touched == engine.nodes_touched


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
