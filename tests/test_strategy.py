"""Strategies: dictionary view, arrays, JSON round trip, and clear errors."""

import json

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from toy_games import TupleGame

KUHN = games.kuhn()


def test_dictionary_view_and_players():
    eq = KUHN.equilibrium(0.2)
    assert eq["K"] == pytest.approx({"pass": 0.4, "bet": 0.6})
    assert set(eq.player(1)) == {"Jp", "Jb", "Qp", "Qb", "Kp", "Kb"}
    assert set(eq.player(0)) == {"J", "Q", "K", "Jpb", "Qpb", "Kpb"}
    assert len(eq) == 12 and set(eq) == set(eq.player(0)) | set(eq.player(1))
    assert "Kb: pass 0.00, bet 1.00" in str(eq)
    with pytest.raises(KeyError, match="no infoset 'X'"):
        eq["X"]


def test_array_round_trip():
    eq = KUHN.equilibrium(0.1)
    again = cfrlib.Strategy(KUHN, eq.to_array())
    assert again == eq
    assert cfrlib.Strategy.from_dict(KUHN, dict(eq)) == eq
    with pytest.raises(ValueError):
        eq.probs[0, 0] = 0.5  # read-only


def test_json_round_trip(tmp_path):
    eq = KUHN.equilibrium(1 / 3)
    eq.save(tmp_path / "eq.json")
    data = json.loads((tmp_path / "eq.json").read_text())
    assert data["game"] == "kuhn" and data["players"][0]["K"]["bet"] == 1.0
    assert cfrlib.Strategy.load(tmp_path / "eq.json", games.kuhn()) == cfrlib.Strategy(games.kuhn(), eq.probs)


@pytest.mark.parametrize("mapping, message", [
    ({"Z": {"pass": 1.0}}, "kuhn has no infoset 'Z'"),
    ({"K": {"raise": 1.0}}, r"infoset 'K': unknown action\(s\) \['raise'\]"),
    ({"K": {"pass": 0.5, "bet": 0.4}}, r"infoset 'K': probabilities \[0.5, 0.4\] sum to 0.9, not 1"),
    ({"K": {"pass": 1.5, "bet": -0.5}}, "must be finite and non-negative"),
    ({"K": {"pass": "half", "bet": 0.5}}, "'half' is not a probability"),
    ({"K": [0.5, 0.5]}, r"expected \{action: probability\}"),
    ({"K": {"pass": 1.0}}, r"leaves out 11 infoset\(s\)"),
])
def test_bad_strategies_are_refused(mapping, message):
    with pytest.raises(cfrlib.StrategyError, match=message):
        cfrlib.Strategy.from_dict(KUHN, mapping)


def test_missing_infosets_can_be_filled_uniformly():
    s = cfrlib.Strategy.from_dict(KUHN, {"K": {"bet": 1.0}}, missing="uniform")
    assert s["K"] == {"pass": 0.0, "bet": 1.0} and s["J"] == {"pass": 0.5, "bet": 0.5}


def test_bad_files(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(cfrlib.StrategyError, match="not valid JSON"):
        cfrlib.Strategy.load(tmp_path / "bad.json", KUHN)
    (tmp_path / "other.json").write_text(json.dumps({"players": [{"K": {"pass": 2.0}}, {}]}))
    with pytest.raises(cfrlib.StrategyError, match="sum to 2, not 1"):
        cfrlib.Strategy.load(tmp_path / "other.json", KUHN)


def test_wrong_shape_and_ambiguous_keys():
    with pytest.raises(cfrlib.StrategyError, match=r"shape \(12, 2\)"):
        cfrlib.Strategy(KUHN, np.ones((3, 2)))
    T = ("terminal", 0, 0)
    game = TupleGame(("player", 0, "I", [("x", ("player", 1, "I", [("y", T)]))]))
    game.player_scoped_infosets = True
    s = cfrlib.uniform_strategy(game)
    with pytest.raises(KeyError, match="use a \\(player, key\\) pair"):
        s["I"]
    assert s[(1, "I")] == {"y": 1.0}
