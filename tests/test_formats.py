"""Games from files: the JSON tree format of the Rust ``cfr`` crate, Gambit .efg, explicit games, errors, fuzzing."""

import json
from pathlib import Path

import numpy as np
import pytest

import cfrlib
from cfrlib import games
from cfrlib.errors import (CfrlibError, ChanceProbabilityError, GameError, GameFormatError,
                           ImperfectRecallError, InfosetMismatchError, NoActionsError,
                           NotConstantSumError, NotZeroSumError)
from cfrlib.game import CHANCE, TERMINAL
from cfrlib.games.explicit import ExplicitGame, Node, explicit_from_game
from cfrlib.games.formats import (DuplicateInfosetError, EfgParseError, JsonFormatError,
                                  UnknownFormatError, dumps)
from cfrlib.games.formats.efg import read_efg, write_efg
from cfrlib.games.formats.json_tree import _parse_iteratively, parse_json, write_json

DATA = Path(__file__).parent / "data"
KUHN = games.kuhn()
KUHN_VALUE = -1 / 18
TREE_ARRAYS = ("parent", "depth", "player", "infoset", "action", "chance_prob", "chance_reach",
               "payoff", "first_child", "num_children", "infoset_player", "infoset_num_actions",
               "infoset_parent_seq", "action_mask", "terminal_payoff", "terminal_chance",
               "terminal_seq")
# Gambit numbers infosets per player; the fixture's unnamed infosets are called by their numbers.
NUMBERED = {0: {"J": "1", "Q": "2", "K": "3", "Jpb": "4", "Qpb": "5", "Kpb": "6"},
            1: {"Jp": "1", "Qp": "2", "Kp": "3", "Jb": "4", "Qb": "5", "Kb": "6"}}


def same_tree(a, b):
    ta, tb = a.tree(), b.tree()
    for name in TREE_ARRAYS:
        assert np.array_equal(getattr(ta, name), getattr(tb, name)), name
    assert ta.infoset_keys == tb.infoset_keys
    assert ta.infoset_actions == tb.infoset_actions
    assert ta.constant_sum == tb.constant_sum


def kuhn_equilibrium_on(game, alpha, rename=lambda p, key: key):
    """Kuhn's equilibrium with parameter alpha, moved onto ``game`` by infoset name."""
    eq = KUHN.equilibrium(alpha)
    return cfrlib.Strategy.from_dict(
        game, {(p, rename(p, key)): dist for p in (0, 1) for key, dist in eq.player(p).items()})


def solver(name):
    return cfrlib.solvers.solver_class(name)


# --------------------------------------------------------------------- the seed's minimal example
def test_the_seeds_minimal_example_loads_and_solves_to_zero():
    game = games.load(DATA / "minimal.json")
    tree = game.tree()
    assert (tree.num_nodes, tree.num_terminals, tree.num_infosets) == (3, 1, 1)
    assert tree.infoset_keys == ["none"] and tree.infoset_actions == [("only",)]
    assert game.nodes[0].player == CHANCE and game.nodes[0].labels == ("single",)
    run = solver("cfr+")(game)
    run.iterate(10)
    strategy = run.average_strategy()
    assert strategy["none"] == {"only": 1.0}
    assert cfrlib.expected_value(game, strategy) == 0.0
    assert cfrlib.exploitability(game, strategy) == 0.0


def test_a_json_game_named_by_its_file(tmp_path):
    path = tmp_path / "my_game.json"
    path.write_text((DATA / "minimal.json").read_text())
    assert games.load(path).name == "my_game"
    assert games.load(str(path)).name == "my_game"
    assert games.load(path.read_text()).name == "json game"


# ----------------------------------------------------------------------------- Kuhn in files
@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_kuhn_saved_and_loaded_is_the_same_game(tmp_path, suffix):
    path = games.save(KUHN, tmp_path / f"kuhn.{suffix}")
    loaded = games.load(path)
    assert isinstance(loaded, games.ExplicitGame) and loaded.name == "kuhn"
    assert loaded.tree().num_infosets == KUHN.tree().num_infosets == 12
    same_tree(loaded, KUHN)
    for alpha in (0.0, 1 / 6, 1 / 3):
        eq = kuhn_equilibrium_on(loaded, alpha)
        assert cfrlib.expected_value(loaded, eq) == pytest.approx(KUHN_VALUE, abs=1e-15)
        assert cfrlib.exploitability(loaded, eq) == pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_kuhn_from_a_file_solves_to_minus_one_eighteenth(tmp_path, suffix):
    loaded = games.load(games.save(KUHN, tmp_path / f"kuhn.{suffix}"))
    run = solver("cfr+")(loaded)
    run.iterate(1000)
    strategy = run.average_strategy()
    assert cfrlib.expected_value(loaded, strategy) == pytest.approx(KUHN_VALUE, abs=1e-3)
    assert cfrlib.exploitability(loaded, strategy) < 1e-3
    # The same numbers as solving the built-in game: the solver sees the same tree.
    reference = solver("cfr+")(KUHN)
    reference.iterate(1000)
    np.testing.assert_allclose(strategy.probs, reference.average_strategy().probs, atol=1e-12)


def test_a_hand_written_gambit_kuhn_with_numbered_infosets():
    game = games.load(DATA / "kuhn_numbered.efg")
    tree = game.tree()
    # One six-way deal instead of two chance nodes: 55 nodes, but the same terminals and infosets.
    assert (tree.num_nodes, tree.num_terminals, tree.num_infosets) == (55, 30, 12)
    assert sorted(tree.infoset_keys) == sorted(["1", "2", "3", "4", "5", "6"] * 2)
    assert game.nodes[0].probs == (1 / 6,) * 6
    assert game.name == "Kuhn poker, one deal node, numbered infosets"
    for alpha in (0.0, 0.1, 1 / 3):
        eq = kuhn_equilibrium_on(game, alpha, rename=lambda p, key: NUMBERED[p][key])
        assert cfrlib.expected_value(game, eq) == pytest.approx(KUHN_VALUE, abs=1e-15)
        assert cfrlib.exploitability(game, eq) == pytest.approx(0.0, abs=1e-15)
    uniform = cfrlib.uniform_strategy(game)
    assert cfrlib.exploitability(game, uniform) == pytest.approx(0.458333, abs=5e-7)


def test_outcomes_on_inner_nodes_add_up_along_the_path():
    game = games.load(DATA / "outcomes_on_the_path.efg")
    payoffs = {" ".join(game.history(n)): node.payoffs
               for n, node in enumerate(game.nodes) if node.player == TERMINAL}
    # antes -1 at the root, +1/2 at player 2's node, then the terminal's own outcome
    assert payoffs == {"heads call fold": (2.5, -2.5), "heads call see": (-2.5, 2.5),
                       "heads pass": (0.0, 0.0), "tails call fold": (-2.5, 2.5),
                       "tails call see": (2.5, -2.5), "tails pass": (-1.0, 1.0)}
    assert [n.infoset for n in game.nodes if n.player in (0, 1)] == ["guess", "respond"] * 2


def test_number_forms_of_gambit_files():
    text = ('EFG 2 R "numbers" { "a" "b" } p "" 1 1 "x" { "l" "m" "r" "s" } 0 '
            't "" 1 { 1/3 -1/3 } t "" 2 { .25, -0.25 } t "" 3 "o" { 1e-1 -1E-1 } t "" 4 { +2 -2 }')
    game = read_efg(text)
    assert [n.payoffs for n in game.nodes[1:]] == [(1 / 3, -1 / 3), (0.25, -0.25), (0.1, -0.1), (2.0, -2.0)]


def test_names_with_quotes_and_backslashes_survive_both_formats():
    actions = ('say "hi"', "back\\slash", "plain")
    nodes = [Node(0, 'the "first" move', actions, (1, 2, 3)),
             Node(TERMINAL, payoffs=(1.0, -1.0)), Node(TERMINAL, payoffs=(0.0, 0.0)),
             Node(TERMINAL, payoffs=(-1.0, 1.0))]
    game = ExplicitGame(nodes, name='a "quoted" game')
    for fmt in ("json", "efg"):
        back = games.load(dumps(game, fmt), fmt)
        assert back.nodes[0].labels == actions and back.nodes[0].infoset == 'the "first" move'
        same_tree(back, game)
    assert read_efg(write_efg(game)).name == 'a "quoted" game'


def test_unknown_fields_are_ignored_like_the_rust_tool():
    text = json.dumps({"player": {"player_one": False, "infoset": "i", "comment": "ignored",
                                  "actions": {"a": {"terminal": 2}, "b": {"terminal": -1.5}}}})
    game = games.load(text)
    assert game.nodes[0].player == 1 and game.nodes[2].payoffs == (-1.5, 1.5)


def test_chance_infoset_names_are_kept_and_checked():
    deal = {"infoset": "coin", "outcomes": {"h": {"prob": 0.5, "state": {"terminal": 1}},
                                            "t": {"prob": 0.5, "state": {"terminal": -1}}}}
    root = {"player": {"player_one": True, "infoset": "r", "actions": {
        "x": {"chance": deal}, "y": {"chance": deal}}}}
    game = games.load(json.dumps(root))
    assert game.nodes[1].infoset == game.nodes[2].infoset == "coin"
    assert '"infoset": "coin"' in dumps(game, "json")
    other = json.loads(json.dumps(root))
    other["player"]["actions"]["y"]["chance"]["outcomes"]["h"]["prob"] = 0.25
    other["player"]["actions"]["y"]["chance"]["outcomes"]["t"]["prob"] = 0.75
    with pytest.raises(InfosetMismatchError, match=r"chance infoset 'coin'.*\$\.player\.actions\.y\.chance"):
        games.load(json.dumps(other))


# ----------------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("game", [KUHN, games.leduc(), games.rps(), games.bluff(dice=(1, 1), sides=4)],
                         ids=lambda g: g.name)
def test_explicit_games_compile_to_the_same_tree(game):
    explicit = explicit_from_game(game)
    same_tree(explicit, game)
    uniform = cfrlib.uniform_strategy(game)
    assert cfrlib.nash_conv(explicit, uniform.probs) == cfrlib.nash_conv(game, uniform)


@pytest.mark.parametrize("game", [KUHN, pytest.param(games.leduc(), marks=pytest.mark.slow)], ids=lambda g: g.name)
@pytest.mark.parametrize("fmt", ["json", "efg"])
def test_text_round_trips_are_fixed_points(game, fmt):
    first = games.load(dumps(game, fmt))
    text = dumps(first, fmt)
    second = games.load(text)
    assert dumps(second, fmt) == text
    same_tree(second, game)
    same_tree(second, first)
    uniform = cfrlib.uniform_strategy(game)
    for p in (0, 1):
        assert cfrlib.best_response_value(second, uniform.probs, p) == cfrlib.best_response_value(game, uniform, p)


def test_efg_fixture_round_trip_keeps_names_values_and_tree():
    original = games.load(DATA / "kuhn_numbered.efg")
    text = write_efg(original)
    again = read_efg(text)
    same_tree(again, original)
    assert write_efg(again) == text
    assert again.name == original.name
    assert [n.payoffs for n in again.nodes] == [n.payoffs for n in original.nodes]
    # and through JSON, which keeps everything but the constant sum's second payoff
    via_json = games.load(dumps(original, "json"))
    same_tree(via_json, original)


def test_constant_sum_games_keep_both_payoffs_in_efg():
    text = 'EFG 2 R "fixed prize" { "a" "b" } p "" 1 1 "i" { "l" "r" } 0 t "" 1 { 3 0 } t "" 2 { 1 2 }'
    game = read_efg(text)
    assert game.constant_sum == 3.0 and game.tree().constant_sum == 3.0
    assert read_efg(write_efg(game)).nodes[2].payoffs == (1.0, 2.0)
    strategy = {"i": {"l": 1.0, "r": 0.0}}
    assert cfrlib.best_response_value(game, strategy, 1) == 0.0   # u_1 = 3 - u_0
    assert cfrlib.best_response_value(game, strategy, 0) == 3.0


def test_the_two_json_readers_agree():
    text = dumps(games.leduc(), "json")
    assert _parse_iteratively(text, "leduc.json") == parse_json(text)
    tricky = '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n", {}, []], "b": {"c": {"d": 0}}}'
    assert _parse_iteratively(tricky, "t") == parse_json(tricky)
    assert parse_json(tricky)[0] == ("a", [1, -2500.0, True, False, None, "x\u00e9\n", [], []])


# ----------------------------------------------------------------------------------- deep trees
def chain(depth):
    """A game of ``depth`` alternating moves: at each step the mover may stop (a payoff) or go on."""
    nodes = []
    for k in range(depth):
        nodes.append(Node(k % 2, f"step {k}", ("stop", "go"), (len(nodes) + 1, len(nodes) + 2)))
        nodes.append(Node(TERMINAL, payoffs=(float(k % 3 - 1), float(1 - k % 3))))
    nodes.append(Node(TERMINAL, payoffs=(0.5, -0.5)))
    return ExplicitGame(nodes, name="chain")


@pytest.mark.slow  # a chain 3,000 levels deep: make test only
@pytest.mark.parametrize("fmt", ["json", "efg"])
def test_deep_trees_load_without_recursion(fmt):
    game = chain(3000)
    text = dumps(game, fmt)
    loaded = games.load(text, fmt)
    assert loaded.tree().depth_max == 3000
    same_tree(loaded, game)
    strategy = np.zeros(game.tree().action_mask.shape)
    strategy[:, 1] = 1.0  # always go on
    assert cfrlib.expected_value(loaded, strategy) == 0.5


def test_deep_malformed_json_is_a_format_error():
    with pytest.raises(JsonFormatError, match="line 1, column 20001"):
        games.load("[" * 20000)   # 20 times deeper than Python's recursion limit
    text = '{"player": {"player_one": true, "actions": {"x": {"terminal": 0}}}}'
    for _ in range(400):  # deeper than Python's JSON reader goes
        text = '{"player": {"player_one": true, "infoset": "i", "actions": {"x": ' + text + "}}}"
    with pytest.raises(JsonFormatError, match=r"at \$(\.player\.actions\.x){400}\.player: missing the key 'infoset'"):
        games.load(text)


# ------------------------------------------------------------------------------------- errors
PLAYER = '{{"player": {{"player_one": true, "infoset": "{0}", "actions": {{{1}}}}}}}'
IMPERFECT = """EFG 2 R "forgets" { "a" "b" }
p "" 1 1 "first" { "l" "r" } 0
p "" 1 2 "second" { "x" "y" } 0
t "" 1 "u" { 1 -1 }
t "" 2 "d" { -1 1 }
p "" 1 2 "second" { "x" "y" } 0
t "" 1
t "" 2
"""

MALFORMED = [
    # (input, error class, text the message must hold: the place in the file)
    ('{"terminal": 1,}', JsonFormatError, r"not valid JSON at line 1, column 16"),
    ('{\n  "chance": {\n    "outcomes": {"single": {"prob": 1.0 "state": {"terminal": 0}}}}}',
     JsonFormatError, r"line 3, column 41: expected ',' or '}'"),
    ('{"terminal": NaN}', JsonFormatError, r"line 1, column 14"),
    ('{"chance": {"outcomes": {"single": {"prob": 1.0, "state": {"player": {"player_one": true, '
     '"actions": {"only": {"terminal": 0}}}}}}}}', JsonFormatError,
     r"at \$\.chance\.outcomes\.single\.state\.player: missing the key 'infoset'"),
    ('{"chance": {"outcomes": {"single": {"prob": "all", "state": {"terminal": 0}}}}}',
     JsonFormatError, r"at \$\.chance\.outcomes\.single\.prob: expected a number, found a string"),
    ('{"player": {"player_one": 1, "infoset": "i", "actions": {"a": {"terminal": 0}}}}',
     JsonFormatError, r"at \$\.player\.player_one: expected true or false"),
    (PLAYER.format("i", '"a": {"terminal": 1}, "a": {"terminal": 2}'), JsonFormatError,
     r"at \$\.player\.actions: the key 'a' appears twice"),
    (PLAYER.format("i", '"a": {"terminal": 1, "chance": {}}'), JsonFormatError,
     r"at \$\.player\.actions\.a: a node is an object with exactly one key.*'terminal', 'chance'"),
    (PLAYER.format("i", '"my move": {"tie": 0}'), JsonFormatError, r'at \$\.player\.actions\["my move"\]'),
    ('{"chance": 5}', JsonFormatError, r"at \$\.chance: expected an object, found the number 5"),
    ('{"player": [1]}', JsonFormatError, r"at \$\.player: expected an object, found an array"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" { "l" "r" } 0\nt "" 1 { 1 -1 \nt "" 2 { -1 1 }',
     EfgParseError, r"line 4, column 1: expected a payoff, found 't'"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" { "l } 0', EfgParseError, r"line 2, column 16: a string that never ends"),
    ('EFG 2 R "t" { "a" "b" "c" }\nt "" 1 { 1 -1 0 }', EfgParseError, r"line 1, column 13: 3 players"),
    ('EFG 2 R "t" { "a" "b" }\np "" 3 1 "i" { "l" } 0\nt "" 0', EfgParseError, r"line 2, column 6: player 3"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" { "l" "r" } 0\nt "" 1 { 1 -1 }', EfgParseError,
     r"the file ends before the tree is complete: the node at <text> line 2, column 1 still needs 1"),
    ('EFG 2 R "t" { "a" "b" }\nt "" 1 { 1 -1 }\nt "" 2 { 1 -1 }', EfgParseError,
     r"line 3, column 1: text after the end of the tree"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" { "l" "r" } 0\nt "" 1 { 1 -1 }\nt "" 7', EfgParseError,
     r"line 4, column 1: outcome 7 is used but its payoffs are never given"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" { "l" "r" } 0\nt "" 1 { 1 -1 }\nt "" 1 { 2 -2 }', EfgParseError,
     r"line 4, column 8: outcome 1 has payoffs \[2.0, -2.0\] here but \[1.0, -1.0\] at <text> line 3"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" { "l" "r" } 0\np "" 2 1 "j" { "x" } 0\nt "" 1 { 1 -1 }\n'
     'p "" 2 1 "k" { "x" } 0\nt "" 1', EfgParseError,
     r"line 5, column 1: player 2's infoset 1 is called 'k' here but 'j' at <text> line 3, column 1"),
    ('EFG 2 R "t" { "a" "b" }\np "" 1 1 "i" 0', EfgParseError,
     r"line 2, column 14: player 1's infoset 1 needs its list of actions here"),
    ('EFG 3 R "t" { "a" "b" }', EfgParseError, r"line 1, column 5: only version 2"),
    ("hello world", UnknownFormatError, r"'hello world' is not a file, nor JSON or Gambit"),
    ("a game\nof two lines", UnknownFormatError, r"<text>: neither JSON .* nor a Gambit game"),
    (b"\xff\xfe\x00 binary", UnknownFormatError, r"<text>: not a text file \(byte 0 is not UTF-8\)"),
    # the seed's duplicate-infoset example
    ('EFG 2 R "" { "" "" }\np "" 1 1 "2" { "a" "b" } 0\nt "" 1 { 0 0 }\np "" 1 2 { "c" } 0\nt "" 1 { 0 0 }',
     DuplicateInfosetError, r"line 4, column 1: player 1's infosets 1 \(first at <text> line 2, column 1\) "
                            r"and 2 are both called '2'; infoset 2 has no name"),
    ('EFG 2 R "" { "" "" }\np "" 1 1 "same" { "a" "b" } 0\nt "" 1 { 0 0 }\np "" 1 2 "same" { "c" } 0\n'
     't "" 1', DuplicateInfosetError, r"infosets 1 .* and 2 are both called 'same'$"),
    ('EFG 2 R "" { "" "" }\nc "" 1 { "x" 1/2 "y" 1/2 } 0\nt "" 1 { 0 0 }\nt "" 2 { 1 1 }',
     NotConstantSumError, r"payoffs sum to 0 at <text> line 3, column 1 but to 2 at <text> line 4, column 1"),
    ('{"chance": {"outcomes": {"a": {"prob": 0.5, "state": ' + PLAYER.format("i", '"x": {"terminal": 1}')
     + '}, "b": {"prob": 0.4, "state": {"terminal": 0}}}}}', ChanceProbabilityError,
     r"<text> at \$\.chance: chance probabilities \[0.5, 0.4\] sum to 0.9, not 1"),
    ('EFG 2 R "" { "" "" }\nc "" 1 { "x" 1/2 "y" -1/2 "z" 1 } 0\nt "" 1 { 0 0 }\nt "" 1\nt "" 1',
     ChanceProbabilityError, r"line 2, column 1: chance probabilities \[0.5, -0.5, 1.0\] must be finite and non-negative"),
    (PLAYER.format("i", '"a": {"player": {"player_one": false, "infoset": "j", "actions": {}}}'),
     NoActionsError, r"at \$\.player\.actions\.a\.player: player 1 has no actions"),
    ('EFG 2 R "" { "" "" }\np "" 1 1 "i" { } 0', NoActionsError, r"line 2, column 1: player 0 has no actions"),
    ('{"chance": {"outcomes": {}}}', NoActionsError, r"at \$\.chance: a chance node with no outcomes"),
    (IMPERFECT, ImperfectRecallError,
     r"player 0's infoset 'second': <text> line 6, column 1 and <text> line 3, column 1 follow different"),
    (PLAYER.format("i", '"a": ' + PLAYER.format("i", '"a": {"terminal": 1}, "b": {"terminal": 0}')
                   + ', "b": {"terminal": 0}'),
     ImperfectRecallError, r"infoset 'i': <text> at \$\.player\.actions\.a\.player and <text> at \$\.player follow"),
    (PLAYER.format("i", '"a": ' + PLAYER.format("j", '"x": {"terminal": 1}') + ', "b": '
                   + PLAYER.format("j", '"y": {"terminal": 1}')),
     InfosetMismatchError, r"infoset 'j': <text> at \$\.player\.actions\.b\.player has \['y'\] but .*\.a\.player has \['x'\]"),
    (PLAYER.format("i", '"a": {"terminal": 1}, "b": {"terminal": 1e999}'), JsonFormatError,
     r"at \$\.player\.actions\.b\.terminal: inf is too large"),
]


@pytest.mark.parametrize("text, error, where", MALFORMED, ids=lambda x: x.__name__ if isinstance(x, type) else "")
def test_malformed_input_gives_a_specific_error_naming_the_place(text, error, where):
    with pytest.raises(error, match=where):
        games.load(text)


def test_every_file_error_is_a_cfrlib_error_of_the_right_family():
    assert issubclass(NotConstantSumError, NotZeroSumError) and issubclass(NoActionsError, GameError)
    for error in (JsonFormatError, EfgParseError, UnknownFormatError, DuplicateInfosetError):
        assert issubclass(error, GameFormatError)


def test_file_names_appear_in_messages(tmp_path):
    path = tmp_path / "broken.efg"
    path.write_text('EFG 2 R "x" { "a" "b" }\np "" 1 1 "i" { "l" } 0\nt "" 1 { 1 -1 } }')
    with pytest.raises(EfgParseError, match=r"^broken.efg line 3, column 17: text after the end"):
        games.load(path)
    wrong_suffix = tmp_path / "game.txt"
    wrong_suffix.write_text("no game here")
    with pytest.raises(UnknownFormatError, match="game.txt: neither JSON"):
        games.load(wrong_suffix)
    looks_json = tmp_path / "game.json"
    looks_json.write_text("no game here")
    with pytest.raises(JsonFormatError, match="game.json: not valid JSON at line 1, column 1"):
        games.load(looks_json)
    with pytest.raises(GameFormatError, match="no such file"):
        games.load(tmp_path / "missing.json")


def test_forcing_a_format_gives_that_formats_error():
    efg = dumps(KUHN, "efg")
    with pytest.raises(JsonFormatError, match="line 1, column 1: expected a value, found 'EFG'"):
        games.load(efg, format="json")
    with pytest.raises(EfgParseError, match="line 1, column 1: expected 'EFG' at the start"):
        games.load(dumps(KUHN, "json"), format="efg")
    with pytest.raises(UnknownFormatError, match="unknown format 'xml'"):
        games.load(efg, format="xml")


def test_save_needs_a_known_suffix_or_format(tmp_path):
    with pytest.raises(UnknownFormatError, match=r"'\.txt'; use \.json or \.efg"):
        games.save(KUHN, tmp_path / "kuhn.txt")
    path = games.save(KUHN, tmp_path / "kuhn.txt", format="efg")
    assert path.read_text().startswith('EFG 2 R "kuhn"')


def test_a_game_that_is_not_constant_sum_can_be_inspected_but_not_solved():
    text = 'EFG 2 R "" { "" "" }\np "" 1 1 "i" { "a" "b" } 0\nt "" 1 { 0 0 }\nt "" 2 { 1 1 }'
    game = games.load(text, require_constant_sum=False)
    assert "not a constant-sum game" in game.not_constant_sum
    with pytest.raises(NotConstantSumError, match="line 3, column 1"):
        cfrlib.uniform_strategy(game)


def test_the_constant_sum_rule_allows_a_tenth_of_a_percent():
    def game(sum_at_b):
        return f'EFG 2 R "" {{ "" "" }} p "" 1 1 "i" {{ "a" "b" }} 0 t "" 1 {{ 1000 -1000 }} t "" 2 {{ -1000 {1000 + sum_at_b} }}'
    assert read_efg(game(2)).constant_sum == 1.0      # sums 0 and 2: range 2 <= 0.1% of 2000
    with pytest.raises(NotConstantSumError):
        read_efg(game(2.5))


def test_explicit_games_check_their_structure():
    leaf = Node(TERMINAL, payoffs=(0.0, 0.0))
    with pytest.raises(GameError, match="child 0 must be a node number after 1"):
        ExplicitGame([Node(0, "i", ("a",), (1,)), Node(0, "j", ("b",), (0,))])
    with pytest.raises(GameError, match=r"nodes \[2\] are not children"):
        ExplicitGame([Node(0, "i", ("a",), (1,)), leaf, leaf])
    with pytest.raises(GameError, match=r"repeated action name\(s\) \['a'\]"):
        ExplicitGame([Node(0, "i", ("a", "a"), (1, 2)), leaf, leaf])
    with pytest.raises(GameError, match="two finite payoffs"):
        ExplicitGame([Node(0, "i", ("a",), (1,)), Node(TERMINAL, payoffs=(float("nan"), 0.0))])
    with pytest.raises(GameError, match="^the root: player 1's infoset key must be a string, got None"):
        ExplicitGame([Node(1, None, ("a",), (1,)), leaf])
    state = ExplicitGame([Node(0, "i", ("a",), (1,)), leaf]).initial_state()
    with pytest.raises(GameError, match=r"the root: no action 'b'; the actions are \['a'\]"):
        state.child("b")


def test_rounded_chance_probabilities_are_accepted_and_rescaled():
    text = ('EFG 2 D "" { "" "" } c "" 1 { "a" 0.333333 "b" 0.333333 "c" 0.333333 } 0 '
            'p "" 1 1 "i" { "x" } 0 t "" 1 { 1 -1 } p "" 1 2 "j" { "x" } 0 t "" 1 p "" 1 3 "k" { "x" } 0 t "" 1')
    game = read_efg(text)
    assert game.nodes[0].probs == (0.333333,) * 3          # the file's numbers are kept ...
    assert game.tree().chance_prob[1] == pytest.approx(1 / 3, abs=1e-15)   # ... the tree rescales
    assert game.tree().chance_prob[1:4].sum() == pytest.approx(1.0, abs=1e-15)
    assert write_efg(game).count("0.333333 ") == 3         # and saving writes them back unchanged
    with pytest.raises(ChanceProbabilityError, match="sum to 0.999996, not 1"):  # beyond 3 x 1e-6
        read_efg(text.replace("0.333333", "0.333332"))


# ----------------------------------------------------------------------------------- fuzzing
def mutate(text, rng):
    """``text`` with a few random edits: deletions, duplications, swaps and inserted tokens."""
    pieces = ['{', '}', '[', ']', '"', ':', ',', '0', '-1', '1/0', '1e999', 'true', 'null', '"prob"',
              '"state"', '"player"', '"terminal"', '"actions"', '"infoset"', 'p', 't', 'c', '\\',
              '"x"', ' ', '\n', '\x00', 'é', '{ }', '0.5']
    for _ in range(rng.integers(1, 3)):
        i = rng.integers(0, len(text) + 1)
        j = min(len(text), i + rng.integers(0, 12))
        kind = rng.integers(4)
        if kind == 0:
            text = text[:i] + text[j:j + rng.integers(0, 4)] + text[j:]
        elif kind == 1:
            text = text[:i] + text[i:j][:40] + text[i:]
        elif kind == 2:
            text = text[:i] + pieces[rng.integers(len(pieces))] + text[i:]
        else:
            text = text[:i] + text[j:]
    return text


@pytest.mark.slow  # 3,000 fuzzed inputs: make test only
def test_fuzzed_inputs_only_ever_raise_cfrlib_errors():
    rng = np.random.default_rng(20240611)
    seeds = [(DATA / "minimal.json").read_text(), dumps(games.rps(), "json"), dumps(games.rps(), "efg"),
             (DATA / "outcomes_on_the_path.efg").read_text(), IMPERFECT, dumps(chain(3), "json")]
    outcomes = {"loaded": 0, "refused": 0}
    for case in range(3000):
        if case % 10 == 9:
            data = rng.integers(0, 256, size=rng.integers(0, 200)).astype(np.uint8).tobytes()
        else:
            data = mutate(seeds[case % len(seeds)], rng)
        try:
            game = games.load(data)
            game.tree()
            outcomes["loaded"] += 1
        except CfrlibError:
            outcomes["refused"] += 1
    # Both kinds of outcome happen: the mutations are neither all harmless nor all fatal.
    assert outcomes["loaded"] > 100 and outcomes["refused"] > 1000, outcomes
