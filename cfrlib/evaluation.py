"""Exact evaluation of strategies: expected value, best response, NashConv, exploitability.

Everything here runs on the compiled tree (:mod:`cfrlib.tree`) in its sequence form: a pass
over the terminals and one vectorized step per level of a player's own decisions, no Python
call per node. :mod:`cfrlib.textbook.evaluation` computes the same numbers by plain recursion.

Conventions: utilities are player 0's unless a player is named; player 1 receives
``constant_sum - u_0`` (``-u_0`` in a zero-sum game); NashConv is the sum over both players of
what a best response gains, and exploitability is NashConv / 2.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .strategy import Strategy, as_strategy


def realization_plan(tree, probs, player) -> np.ndarray:
    """Player ``i``'s own reach of each sequence: ``x_i[(I, a)] = x_i[parent(I)] * sigma(I, a)``.

    Returns a flat array of length ``num_sequences + 1`` whose last entry, the empty sequence,
    is 1; entries of the other player's infosets are 0.
    """
    x = np.zeros(tree.num_sequences + 1)
    x[-1] = 1.0
    grid = x[:-1].reshape(tree.action_mask.shape)
    for level in tree.infoset_levels(player):
        grid[level] = x[tree.infoset_parent_seq[level], None] * probs[level]
    return x


def behaviour_strategy(tree, x, player) -> np.ndarray:
    """The inverse of :func:`realization_plan`: ``sigma(I, a) = x[(I, a)] / sum_b x[(I, b)]``
    (which is ``x[parent(I)]`` for a realization plan) at player ``i``'s infosets, uniform where
    that mass is 0, and 0 elsewhere; a ``num_infosets x max_actions`` array."""
    grid = np.where(tree.action_mask, x[:-1].reshape(tree.action_mask.shape), 0.0)
    mass = grid.sum(axis=1, keepdims=True)
    uniform = tree.action_mask / tree.infoset_num_actions[:, None]
    probs = np.where(mass > 0, grid / np.where(mass > 0, mass, 1.0), uniform)
    return np.where((tree.infoset_player == player)[:, None], probs, 0.0)


def terminal_utility(tree, player) -> np.ndarray:
    """``u_i(z)`` for every terminal: player 0's payoff, or ``constant_sum - payoff`` for player 1."""
    return tree.terminal_payoff if player == 0 else tree.constant_sum - tree.terminal_payoff


def counterfactual_values(tree, probs, player, opponent_reach=None, best_response=False):
    """Counterfactual action values ``q_i(I, a)`` of every sequence of player ``i``.

    ``q_i(I, a) = sum_{h in I} sum_{z below ha} pi_{-i}(z) * pi_i^sigma(ha, z) * u_i(z)``, built
    bottom-up: each terminal adds ``pi_{-i}(z) u_i(z)`` to ``i``'s last sequence before it, then
    each infoset ``I`` (deepest first) adds its value ``v_i(I) = sum_a sigma(I, a) q_i(I, a)`` to its
    parent sequence. With ``best_response=True`` player ``i`` plays a best response below every
    infoset instead, ``v_i(I) = max_a q_i(I, a)``.

    ``opponent_reach`` gives ``pi_{-i}(z)`` per terminal (chance times the opponent's reach);
    by default it is computed from ``probs``. Returns ``(q, v)``: ``q`` flat, of length
    ``num_sequences + 1`` (the last entry is ``i``'s value of the whole game), and ``v`` the
    per-infoset values (only ``i``'s infosets are filled).
    """
    if opponent_reach is None:
        opponent_reach = opponent_reach_of_terminals(tree, probs, player)
    q = np.bincount(tree.terminal_seq[player], weights=opponent_reach * terminal_utility(tree, player),
                    minlength=tree.num_sequences + 1)
    grid = q[:-1].reshape(tree.action_mask.shape)
    v = np.zeros(tree.num_infosets)
    for level in reversed(tree.infoset_levels(player)):
        if best_response:
            v[level] = np.where(tree.action_mask[level], grid[level], -np.inf).max(axis=1)
        else:
            v[level] = np.einsum("ij,ij->i", probs[level], grid[level])
        np.add.at(q, tree.infoset_parent_seq[level], v[level])
    return q, v


def counterfactual_regrets(game, strategy, player) -> np.ndarray:
    """``r(I, a) = q_i(I, a) - v_i(I)`` at player ``i``'s infosets (0 elsewhere): the regrets one
    full-width CFR iteration adds when both players follow ``strategy``. An array of shape
    ``(num_infosets, max_actions)`` in the tree's order."""
    _check_player(player)
    tree = game.tree()
    q, v = counterfactual_values(tree, as_strategy(game, strategy).probs, player)
    regret = q[:-1].reshape(tree.action_mask.shape) - v[:, None]
    mine = (tree.infoset_player == player)[:, None] & tree.action_mask
    return np.where(mine, regret, 0.0)


def opponent_reach_of_terminals(tree, probs, player) -> np.ndarray:
    """``pi_{-i}(z) = pi_c(z) * x_{-i}[seq_{-i}(z)]`` for every terminal ``z``."""
    other = 1 - player
    x = realization_plan(tree, probs, other)
    return tree.terminal_chance * x[tree.terminal_seq[other]]


class BestResponse(NamedTuple):
    """A best response of ``player``: its value ``u_i(BR, sigma_{-i})`` and the profile
    ``(BR, sigma_{-i})``, where BR is pure (ties go to the first action)."""

    player: int
    value: float
    strategy: Strategy


def expected_value(game, strategy) -> float:
    """Player 0's expected payoff ``u_0(sigma) = sum_z pi^sigma(z) u_0(z)`` when both follow ``strategy``."""
    tree = game.tree()
    probs = as_strategy(game, strategy).probs
    x0, x1 = realization_plan(tree, probs, 0), realization_plan(tree, probs, 1)
    reach = tree.terminal_chance * x0[tree.terminal_seq[0]] * x1[tree.terminal_seq[1]]
    return float(reach @ tree.terminal_payoff)


def best_response(game, strategy, player) -> BestResponse:
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


def best_response_value(game, strategy, player) -> float:
    """``max_{sigma'_i} u_i(sigma'_i, sigma_{-i})``: what a best response earns."""
    _check_player(player)
    tree = game.tree()
    q, _ = counterfactual_values(tree, as_strategy(game, strategy).probs, player, best_response=True)
    return float(q[-1])


def nash_conv(game, strategy) -> float:
    """``sum_i [max_{sigma'_i} u_i(sigma'_i, sigma_{-i}) - u_i(sigma)]``: zero exactly at a Nash equilibrium."""
    tree = game.tree()
    probs = as_strategy(game, strategy).probs
    gains = 0.0
    for i in (0, 1):
        q, _ = counterfactual_values(tree, probs, i, best_response=True)
        gains += q[-1]
    # u_0(sigma) + u_1(sigma) = constant_sum, whatever sigma is.
    return float(gains - tree.constant_sum)


def exploitability(game, strategy) -> float:
    """NashConv / 2: the average over both players of what a best response gains."""
    return nash_conv(game, strategy) / 2.0


def _check_player(player):
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
