"""The play widget's export (cfrbook.play_widget): the tables the page reads are the game and the
strategy, checked against the state API and against the textbook evaluation; the buttons' poker
words follow the rules of each game and the stakes its payoffs; bad input is refused.

The page's script itself runs in tests/browser/test_play_widget_page.py."""

import json

import numpy as np
import pytest

import cfrlib
from cfrbook import play_widget
from cfrbook.play_widget import (PlayWidget, betting_word, infoset_reach, kuhn_stakes,
                                 leduc_stakes)
from cfrlib import games
from cfrlib.errors import CfrlibError, StrategyError
from cfrlib.players import CHANCE, TERMINAL
from cfrlib.textbook import evaluation as textbook


def _random_strategy(game, seed):
    tree = game.tree()
    rng = np.random.default_rng(seed)
    probs = np.where(tree.action_mask, rng.dirichlet(np.ones(tree.max_actions),
                                                     size=tree.num_infosets), 0.0)
    return cfrlib.Strategy(game, probs / probs.sum(axis=1, keepdims=True))


def _walk(game, tables):
    """Every exported node next to the state reached by following the exported edge labels from
    the root (the parents come from ``node_children`` alone), with the probability of its
    edge: ``(n, state, edge probability)``."""
    children = tables["node_children"]
    states, edge_prob = [game.initial_state()], [1.0]
    nxt = 1
    for n, count in enumerate(children):
        state = states[n]
        chance = dict(state.chance_outcomes()) if state.is_chance() else {}
        for k in range(count):
            label = tables["labels"][tables["node_edge"][nxt + k]]
            states.append(state.child(label))
            edge_prob.append(chance.get(label, 1.0))
        nxt += count
    return list(zip(range(len(states)), states, edge_prob))


STAKES = {"kuhn": kuhn_stakes, "leduc": leduc_stakes}


@pytest.fixture(scope="module", params=["kuhn", "leduc"])
def exported(request):
    game = getattr(games, request.param)()
    strategy = _random_strategy(game, 5)
    return game, strategy, PlayWidget(game, strategy, stakes=STAKES[request.param],
                                      deal=[0, 1, None][:2 + (request.param == "leduc")]).tables


def test_the_nodes_are_the_games_histories(exported):
    game, _, tables = exported
    assert len(tables["node_player"]) == game.tree().num_nodes
    for n, state, prob in _walk(game, tables):
        player = tables["node_player"][n]
        assert player == state.current_player(), n
        assert tables["node_chance"][n] == pytest.approx(prob, abs=1e-15)
        if player == TERMINAL:
            assert tables["node_children"][n] == 0
            assert tables["node_payoff"][n] == state.returns()[0]
        elif player == CHANCE:
            assert tables["node_children"][n] == len(state.chance_outcomes())
        else:
            I = tables["node_infoset"][n]
            assert tables["infoset_key"][I] == state.infoset_key()
            assert tables["infoset_player"][I] == player
            assert tables["infoset_actions"][I] == state.legal_actions()


def test_the_bot_plays_the_strategy_and_the_seats_values_are_its_values(exported):
    game, strategy, tables = exported
    for I, (key, player) in enumerate(zip(tables["infoset_key"], tables["infoset_player"])):
        assert dict(zip(tables["infoset_actions"][I], tables["strategy"][I])) == \
            strategy[(player, key)]
    value = textbook.expected_value(game, strategy)
    assert tables["value"] == pytest.approx([value, -value], abs=1e-12)
    assert tables["response_value"] == pytest.approx(
        [textbook.best_response_value(game, strategy, p) for p in (0, 1)], abs=1e-12)


def test_infoset_reach_is_chance_times_the_other_players_probabilities(exported):
    # pi_{-i}(h) by node, for i = 0 and 1, multiplied down the walk of the state API.
    game, strategy, tables = exported
    tree = game.tree()
    reach = np.zeros((2, tree.num_infosets))
    others = {0: [1.0, 1.0]}
    nxt = 1
    for n, state, _ in _walk(game, tables):
        p = state.current_player()
        for k, label in enumerate(state.legal_actions() if p in (0, 1) else
                                  [o for o, _ in state.chance_outcomes()] if p == CHANCE else []):
            pi = list(others[n])
            if p == CHANCE:
                pi = [x * dict(state.chance_outcomes())[label] for x in pi]
            else:
                pi[1 - p] *= strategy[(p, state.infoset_key())][label]
            others[nxt + k] = pi
        nxt += tables["node_children"][n]
        if p in (0, 1):
            reach[p, tree.infoset_index(p, state.infoset_key())] += others[n][p]
    for p in (0, 1):
        np.testing.assert_allclose(infoset_reach(tree, strategy.probs, p), reach[p], atol=1e-14)


def test_the_hints_add_up_to_the_best_response_value(exported):
    # A player's first decisions partition the hands (in Kuhn and Leduc every hand reaches one of
    # them), so sum over those infosets of reach(I) * max_a E[u_i | I, a] is the value of a best
    # response, here computed by the textbook recursion.
    game, strategy, tables = exported
    tree = game.tree()
    for p in (0, 1):
        reach = infoset_reach(tree, strategy.probs, p)
        first = np.flatnonzero((tree.infoset_player == p) & (tree.infoset_own_depth == 0))
        total = sum(reach[I] * max(tables["hint"][I]) for I in first)
        assert total == pytest.approx(textbook.best_response_value(game, strategy, p), abs=1e-12)
        # and a best response plays an action of the largest hint wherever the hint is defined
        br = cfrlib.best_response(game, strategy, p).strategy
        for I in np.flatnonzero(tree.infoset_player == p):
            if tables["hint"][I] is not None:
                chosen = int(np.argmax(br.probs[I]))
                assert tables["hint"][I][chosen] == pytest.approx(max(tables["hint"][I]))
        unreached = np.flatnonzero((tree.infoset_player == p) & (reach == 0))
        assert all(tables["hint"][I] is None for I in unreached)


def test_kuhn_against_its_equilibrium():
    # Kuhn (1950): the value is -1/18 for player 0. With alpha > 0 player 0 bets a jack (never a
    # queen), so player 1 with a king facing a bet meets a jack: fold -1, call +2; with a jack
    # facing a bet it meets a king: fold -1, call -2 (the rules in cfrlib.games.kuhn).
    game = games.kuhn()
    tables = PlayWidget(game, game.equilibrium(0.2)).tables
    assert tables["value"] == pytest.approx([-1 / 18, 1 / 18], abs=1e-12)
    assert tables["response_value"] == pytest.approx([-1 / 18, 1 / 18], abs=1e-12)
    hint = {(p, k): h for p, k, h in zip(tables["infoset_player"], tables["infoset_key"],
                                         tables["hint"])}
    assert hint[(1, "Kb")] == pytest.approx([-1.0, 2.0])
    assert hint[(1, "Jb")] == pytest.approx([-1.0, -2.0])
    # alpha = 0: player 0 never bets first (jack alpha, queen 0, king 3 alpha), so player 1's
    # infosets after a bet are never reached and have no hint
    never = PlayWidget(game, game.equilibrium(0.0)).tables
    assert [h for k, h in zip(never["infoset_key"], never["hint"]) if k.endswith("b")
            and len(k) == 2] == [None, None, None]


@pytest.mark.parametrize("before, after, player, word", [
    ((1, 1), (1, 1), 0, "check"), ((1, 1), (2, 1), 0, "bet"), ((1, 2), (1, 2), 0, "fold"),
    ((1, 2), (2, 2), 0, "call"), ((3, 1), (3, 3), 1, "call"), ((3, 1), (3, 5), 1, "raise"),
    ((5, 5), (5, 9), 1, "bet"), ((5, 9), (5, 9), 0, "fold"), ((2.5, 2.5), (2.5, 2.5), 1, "check"),
])
def test_a_move_is_named_by_what_it_does_to_the_stakes(before, after, player, word):
    assert betting_word(before, after, player) == word


@pytest.mark.parametrize("before, after, player", [
    ((1, 1), (0, 1), 0),   # a stake falls
    ((1, 3), (2, 3), 0),   # puts in less than it owes, without folding
    ((1, 1), (2, 2), 0),   # the other player's stake moves
    ((2, 1), (2, 1), 0),   # the player to act is ahead
])
def test_impossible_moves_have_no_word(before, after, player):
    with pytest.raises(CfrlibError, match="is no fold, check, call, bet or raise"):
        betting_word(before, after, player)


def _words_by_the_rules(game_name, key, actions):
    """The words a poker player uses, from the infoset key and the rules in cfrlib.games: a
    player faces a bet when the betting of the round so far holds one (Kuhn) or ends with a
    raise (Leduc)."""
    if game_name == "kuhn":
        facing = "b" in key[1:]
        return [{"pass": "fold" if facing else "check",
                 "bet": "call" if facing else "bet"}[a] for a in actions]
    facing = key.split("|")[-1].endswith("r")
    return [{"fold": "fold", "call": "call" if facing else "check",
             "raise": "raise" if facing else "bet"}[a] for a in actions]


def test_the_buttons_say_fold_check_call_bet_or_raise_as_the_rules_do(exported):
    game, _, tables = exported
    for key, actions, words in zip(tables["infoset_key"], tables["infoset_actions"],
                                   tables["infoset_words"]):
        assert words == _words_by_the_rules(game.name, key, actions), key
    # Kuhn's two names become four words; Leduc's three, five
    assert {w for words in tables["infoset_words"] for w in words} == (
        {"check", "bet", "fold", "call"} if game.name == "kuhn" else
        {"check", "bet", "fold", "call", "raise"})


def test_the_stakes_start_at_the_antes_and_pay_the_terminals(exported):
    # The antes are 1 each; at every terminal the loser pays the winner their whole stake: after a
    # fold the folder's, at a showdown each player's (equal), nothing when the ranks tie.
    game, _, tables = exported
    stakes = np.reshape(tables["node_stakes"], (-1, 2))
    assert stakes[0].tolist() == [1, 1]
    for n, state, _ in _walk(game, tables):
        assert tuple(stakes[n]) == tuple(STAKES[game.name](state)), n
        if tables["node_player"][n] == TERMINAL:
            u0 = tables["node_payoff"][n]
            assert u0 in (stakes[n][1], -stakes[n][0], 0), (state, stakes[n], u0)
    assert stakes.max() == (2 if game.name == "kuhn" else 1 + 2 + 2 + 4 + 4)


def test_the_page_carries_the_tables_and_the_same_input_gives_the_same_bytes():
    game = games.kuhn()
    widget = PlayWidget(game, game.equilibrium(0.1), seed=3, title="Kuhn <poker>",
                        stakes=kuhn_stakes, deal=[0, 1])
    page = widget.static_html()
    assert page == PlayWidget(game, game.equilibrium(0.1), seed=3, title="Kuhn <poker>",
                              stakes=kuhn_stakes, deal=[0, 1]).static_html()
    start = page.index('class="cfrlib-play-data">') + len('class="cfrlib-play-data">')
    payload = page[start:page.index("</script>", start)]
    assert json.loads(payload) == widget.tables
    assert "Kuhn &lt;poker&gt;" in page and widget.tables["seed"] == 3
    assert widget.tables["deal"] == [0, 1]
    bundle = widget._repr_mimebundle_()
    assert bundle["text/html"] == page
    assert bundle["text/plain"] == ("PlayWidget(kuhn: 12 infosets; value -0.055556 for "
                                    "player 0, +0.055556 for player 1)")
    # without stakes the buttons keep the game's names and there is no pot
    plain = PlayWidget(game, game.equilibrium(0.1)).tables
    assert plain["infoset_words"] == plain["infoset_actions"] and plain["node_stakes"] is None


def test_bad_input_is_refused_with_what_and_where(monkeypatch):
    kuhn = games.kuhn()
    with pytest.raises(StrategyError, match="belongs to leduc"):
        PlayWidget(kuhn, cfrlib.uniform_strategy(games.leduc()))
    probs = cfrlib.uniform_strategy(kuhn).to_array()
    probs[kuhn.tree().infoset_index(1, "Qb")] = [0.7, 0.7]
    with pytest.raises(StrategyError, match=r"player 1's infoset 'Qb' is \{'pass': 0.7, "
                                            r"'bet': 0.7\}, not a probability distribution"):
        PlayWidget(kuhn, probs)
    probs[kuhn.tree().infoset_index(1, "Qb")] = [np.nan, 1.0]
    with pytest.raises(StrategyError, match="'Qb'"):
        PlayWidget(kuhn, probs)
    for seed in (-1, 2**32, 1.5, True, "7"):
        with pytest.raises(CfrlibError, match=r"seed must be None or an integer in \[0, 2\*\*32\)"):
            PlayWidget(kuhn, kuhn.equilibrium(), seed=seed)
    for deal in ("01", [0, 2], [True, 1]):
        with pytest.raises(CfrlibError, match="deal must be a sequence of 0, 1 or None"):
            PlayWidget(kuhn, kuhn.equilibrium(), deal=deal)
    with pytest.raises(CfrlibError, match=r"stakes\(h\) must give two finite numbers"):
        PlayWidget(kuhn, kuhn.equilibrium(), stakes=lambda h: (1.0,))
    with pytest.raises(CfrlibError, match=r"infoset 'J': betting_word: player 0 taking the "
                                          r"stakes from \(1.0, 1.0\) to \(0.0, 1.0\) is no"):
        PlayWidget(kuhn, kuhn.equilibrium(), stakes=lambda h: (1.0 - len(h.betting), 1.0))

    def king_owes(h):  # player 1 with the king is said to have put in one chip more
        c0, c1 = kuhn_stakes(h)
        return c0, c1 + (h.cards[1:] == ("K",))

    with pytest.raises(CfrlibError, match=r"at player 0's infoset 'J' the stakes make the actions "
                                          r"\['check', 'bet'\] in one history and \['fold', "
                                          r"'call'\] in another"):
        PlayWidget(kuhn, kuhn.equilibrium(), stakes=king_owes)
    monkeypatch.setattr(play_widget, "MAX_NODES", 50)
    with pytest.raises(CfrlibError, match="kuhn has 58 nodes, more than the 50 a page can carry"):
        PlayWidget(kuhn, kuhn.equilibrium())
