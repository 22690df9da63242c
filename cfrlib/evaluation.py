"""Exact evaluation of strategies: expected value, best response, NashConv, exploitability.

Everything here runs on the compiled tree (:mod:`cfrlib.tree`) in its sequence form: a pass
over the terminals and one vectorized step per level of a player's own decisions, no Python
call per node: the passes of :mod:`cfrlib.sequence_form`, on each player's block of sequences,
shared with the full-width solvers. :mod:`cfrlib.textbook.evaluation` computes the same numbers
by plain recursion.

Conventions: utilities are player 0's unless a player is named; player 1 receives
``constant_sum - u_0`` (``-u_0`` in a zero-sum game); NashConv is the sum over both players of
what a best response gains, and exploitability is NashConv / 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import sequence_form as sf
from .errors import CfrlibError
from .game import Game
from .sequence_form import SequenceForm, sequence_form, terminal_utility
from .strategy import Strategy, StrategyLike, as_strategy
from .tree import Tree


# Shown in the book: chapter 3.
def realization_plan(tree, probs, player) -> np.ndarray:
    """Player ``i``'s own reach of each sequence:
    ``x_i[(I, a)] = x_i[parent(I)] * sigma(I, a)``.

    Returns a flat array in the tree's numbering, of length ``num_sequences + 1``,
    whose last entry, the empty sequence, is 1; entries of the other player's
    infosets are 0. (The pass itself is
    :func:`cfrlib.sequence_form.realization_plan`, on the player's own block.)
    """
    block = sequence_form(tree).players[player]
    x = np.zeros(tree.num_sequences + 1)
    x[block.tree_sequence] = sf.realization_plan(block, block.rows_of(probs))
    return x


def behaviour_strategy(tree: Tree, x: NDArray[np.float64], player: int) -> NDArray[np.float64]:
    """The inverse of :func:`realization_plan`: ``sigma(I, a) = x[(I, a)] / sum_b x[(I, b)]``
    (which is ``x[parent(I)]`` for a realization plan) at player ``i``'s infosets, uniform where
    that mass is 0, and 0 elsewhere; a ``num_infosets x max_actions`` array."""
    grid = np.where(tree.action_mask, x[:-1].reshape(tree.action_mask.shape), 0.0)
    mass = grid.sum(axis=1, keepdims=True)
    probs = np.where(mass > 0, grid / np.where(mass > 0, mass, 1.0), tree.uniform())
    return np.where((tree.infoset_player == player)[:, None], probs, 0.0)


# Shown in the book: chapter 5.
def counterfactual_values(tree, probs, player, opponent_reach=None,
                          best_response=False):
    """Counterfactual action values of every sequence ``(I, a)`` of player ``i``.

    ``v_i(sigma_{I->a}, I) = sum_{h in I} sum_{z below ha}
    pi_{-i}(z) * pi_i^sigma(ha -> z) * u_i(z)``, built bottom-up: each terminal
    adds ``pi_{-i}(z) u_i(z)`` to ``i``'s last sequence before it, then each
    infoset ``I`` (deepest first) adds its value
    ``v_i(sigma, I) = sum_a sigma(I, a) v_i(sigma_{I->a}, I)`` to its parent
    sequence. With ``best_response=True`` player ``i`` plays a best response
    below every infoset instead: the action values are the best-response values
    ``v^BR_i(I, a)`` and ``v_i(I) = max_a v^BR_i(I, a)``.

    ``opponent_reach`` gives ``pi_{-i}(z)`` per terminal (chance times the
    opponent's reach); by default it is computed from ``probs``. Returns
    ``(q, v)``: the action values ``q``, flat, of length ``num_sequences + 1``
    (the last entry is ``i``'s value of the whole game), and ``v`` the
    per-infoset values (only ``i``'s infosets are filled). The pass runs on the
    player's block of :mod:`cfrlib.sequence_form`, as the full-width solvers'
    does.
    """
    form = sequence_form(tree)
    block = form.players[player]
    if opponent_reach is None:
        opponent_reach = opponent_reach_of_terminals(tree, probs, player)
    q_block = sf.terminal_values(form, player,
                                 opponent_reach * terminal_utility(tree, player))
    v_block = sf.counterfactual_values(
        block, q_block, None if best_response else block.rows_of(probs),
        sequential=True)
    q = np.zeros(tree.num_sequences + 1)
    q[block.tree_sequence] = q_block
    v = np.zeros(tree.num_infosets)
    v[block.rows] = v_block
    return q, v


def counterfactual_regrets(game: Game, strategy: StrategyLike, player: int) -> NDArray[np.float64]:
    """``r(I, a) = v_i(sigma_{I->a}, I) - v_i(sigma, I)`` at player ``i``'s infosets (0
    elsewhere): the regrets one full-width CFR iteration adds when both players follow
    ``strategy``. An array of shape ``(num_infosets, max_actions)`` in the tree's order."""
    _check_player(player)
    tree = game.tree()
    q, v = counterfactual_values(tree, as_strategy(game, strategy).probs, player)
    regret = q[:-1].reshape(tree.action_mask.shape) - v[:, None]
    mine = (tree.infoset_player == player)[:, None] & tree.action_mask
    return np.where(mine, regret, 0.0)


def opponent_reach_of_terminals(tree: Tree, probs: NDArray[np.float64], player: int) -> NDArray[np.float64]:
    """``pi_{-i}(z) = pi_c(z) * x_{-i}[seq_{-i}(z)]`` for every terminal ``z``."""
    form = sequence_form(tree)
    block = form.players[1 - player]
    x = sf.realization_plan(block, block.rows_of(probs))
    return tree.terminal_chance * x[form.terminal_seq[1 - player]]


class BestResponse(NamedTuple):
    """A best response of ``player``: its value ``u_i(BR, sigma_{-i})`` and the profile
    ``(BR, sigma_{-i})``, where BR is pure (ties go to the first action)."""

    player: int
    value: float
    strategy: Strategy


def expected_value(game: Game, strategy: StrategyLike) -> float:
    """Player 0's expected payoff ``u_0(sigma) = sum_z pi^sigma(z) u_0(z)`` when both follow ``strategy``."""
    tree = game.tree()
    probs = as_strategy(game, strategy).probs
    form = sequence_form(tree)
    x0, x1 = (sf.realization_plan(block, block.rows_of(probs)) for block in form.players)
    reach = tree.terminal_chance * x0[form.terminal_seq[0]] * x1[form.terminal_seq[1]]
    return float(reach @ tree.terminal_payoff)


def best_response(game: Game, strategy: StrategyLike, player: int) -> BestResponse:
    """Player ``player``'s best response to the other player's part of ``strategy``."""
    _check_player(player)
    tree = game.tree()
    probs = as_strategy(game, strategy).probs
    q, _ = counterfactual_values(tree, probs, player, best_response=True)
    grid = np.where(tree.action_mask, q[:-1].reshape(tree.action_mask.shape), -np.inf)
    mine = tree.infoset_player == player
    pure = np.zeros_like(probs)
    pure[np.arange(tree.num_infosets), grid.argmax(axis=1)] = 1.0
    profile = np.where(mine[:, None], pure, probs)
    return BestResponse(player, float(q[-1]), Strategy(game, profile))


def best_response_value(game: Game, strategy: StrategyLike, player: int) -> float:
    """``max_{sigma'_i} u_i(sigma'_i, sigma_{-i})``: what a best response earns."""
    _check_player(player)
    form = sequence_form(game.tree())
    probs = as_strategy(game, strategy).probs
    return sf.best_response_value(form, form.players[1 - player].rows_of(probs), player)


def nash_conv(game: Game, strategy: StrategyLike) -> float:
    """``sum_i [max_{sigma'_i} u_i(sigma'_i, sigma_{-i}) - u_i(sigma)]``: zero exactly at a Nash equilibrium."""
    return sequence_form(game.tree()).nash_conv(as_strategy(game, strategy).probs)


def profile_nash_conv(form: SequenceForm, sigma: Sequence[NDArray[np.float64]]) -> float:
    """NashConv of the profile given per player in its block's order (``sigma[i]`` is ``(rows, width)``):
    ``sum_i max u_i(., sigma_{-i}) - constant_sum``, since ``u_0(sigma) + u_1(sigma)`` is the
    constant sum whatever ``sigma`` is."""
    gains = sf.best_response_value(form, sigma[1], 0) + sf.best_response_value(form, sigma[0], 1)
    return float(gains - form.constant_sum)


def exploitability(game: Game, strategy: StrategyLike) -> float:
    """NashConv / 2: the average over both players of what a best response gains."""
    return nash_conv(game, strategy) / 2.0


def _check_player(player: int) -> None:
    if player not in (0, 1):
        raise CfrlibError(f"player must be 0 or 1, got {player!r}")
