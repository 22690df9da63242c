"""Expected value and best response by plain recursion over the game's histories.

This is the evaluation of chapter 3 written the way the math reads. It walks the state API
(:class:`cfrlib.game.State`) and looks strategies up by infoset key; it is slow, and
:mod:`cfrlib.evaluation` computes the same numbers on the compiled tree.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Protocol

from ..game import Game, State


class StrategyTable(Protocol):
    """What these functions need of a strategy: ``strategy[(player, key)]`` is ``sigma(I, .)``
    as ``{action: probability}``. A :class:`~cfrlib.strategy.Strategy` is one, and so is the
    dictionary that :meth:`TextbookCFR.average_strategy <cfrlib.textbook.cfr.TextbookCFR.average_strategy>`
    returns."""

    def __getitem__(self, key: tuple[int, str], /) -> Mapping[str, float]: ...


# Shown in the book: chapter 3.
def expected_value(game: Game, strategy: StrategyTable) -> float:
    """``u_0(sigma) = sum_{z in Z} pi^sigma(z) u_0(z)``, computed as a recursive
    expectation."""

    def value(h: State) -> float:
        if h.is_terminal():
            return h.returns()[0]                                  # u_0(z)
        if h.is_chance():
            return sum(p * value(h.child(a)) for a, p in h.chance_outcomes())
        sigma = strategy[(h.current_player(), h.infoset_key())]    # sigma(I, .)
        return sum(sigma[a] * value(h.child(a)) for a in h.legal_actions())

    return value(game.initial_state())


# Shown in the book: chapter 3.
def best_response_value(game: Game, strategy: StrategyTable, player: int) -> float:
    """``max_{sigma'_i} u_i(sigma'_i, sigma_{-i})`` by backward induction over
    ``i``'s infosets.

    Step 1 lists, for each infoset ``I`` of player ``i``, its histories ``h`` with
    their counterfactual reach ``pi_{-i}(h)`` (chance times the opponent). Step 2
    evaluates the tree with player ``i`` choosing, in every ``I``, the action that
    maximises the counterfactual value ``sum_{h in I} pi_{-i}(h) u_i(ha)``. Perfect
    recall makes the recursion well founded: the values below ``I`` only depend on
    choices at deeper infosets.
    """
    members: defaultdict[tuple[int, str],
                         list[tuple[State, float]]] = defaultdict(list)
    # I -> [(h, pi_{-i}(h))]

    def collect(h: State, reach_others: float) -> None:
        if h.is_terminal():
            return
        if h.is_chance():
            for a, p in h.chance_outcomes():
                collect(h.child(a), reach_others * p)  # chance is part of pi_{-i}
            return
        key = (h.current_player(), h.infoset_key())
        if h.current_player() == player:
            members[key].append((h, reach_others))
            for a in h.legal_actions():
                collect(h.child(a), reach_others)   # i's own moves: not in pi_{-i}
        else:
            sigma = strategy[key]
            for a in h.legal_actions():
                collect(h.child(a), reach_others * sigma[a])

    best_action: dict[tuple[int, str], str] = {}    # I -> argmax_a

    def choose(key: tuple[int, str]) -> str:
        if key not in best_action:
            cf_value = {a: sum(r * value(h.child(a)) for h, r in members[key])
                        for a in members[key][0][0].legal_actions()}
            # first maximiser wins ties
            best_action[key] = max(cf_value, key=cf_value.__getitem__)
        return best_action[key]

    def value(h: State) -> float:                   # u_i(h) with i best responding
        if h.is_terminal():
            u0 = h.returns()[0]
            # u_1 = constant_sum - u_0 (constant_sum is 0 in every game here)
            return u0 if player == 0 else game.constant_sum - u0
        if h.is_chance():
            return sum(p * value(h.child(a)) for a, p in h.chance_outcomes())
        key = (h.current_player(), h.infoset_key())
        if h.current_player() == player:
            return value(h.child(choose(key)))
        sigma = strategy[key]
        return sum(sigma[a] * value(h.child(a)) for a in h.legal_actions())

    root = game.initial_state()
    collect(root, 1.0)
    return value(root)


def nash_conv(game: Game, strategy: StrategyTable) -> float:

    """``sum_i max_{sigma'_i} u_i(sigma'_i, sigma_{-i}) - u_i(sigma)``."""
    u0 = expected_value(game, strategy)
    gain0 = best_response_value(game, strategy, 0) - u0
    gain1 = best_response_value(game, strategy, 1) - (game.constant_sum - u0)
    return gain0 + gain1
