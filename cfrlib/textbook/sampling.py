"""Chance sampling, external sampling and outcome sampling by plain recursion (chapters 6 and 7).

Each function below runs one sampled traversal of the game for one iteration ``t``, walking the
state API (``cfrlib.game.State``) and keeping, for every information set it meets, the
cumulative regrets ``R^T(I, a)`` and the average-strategy sums, dictionaries ``{action: value}``
in the game's order of the actions, in an ``InfosetTable`` keyed by ``(player, infoset key)``.
The current strategy ``sigma^t(I)`` is always regret matching on ``R^{t-1}(I, .)``, chapter 1's
:func:`~cfrlib.textbook.regret_matching.regret_matching`.

Random draws: every sampled node draws exactly one uniform ``u = rng.random()`` and picks the
first action whose cumulative probability exceeds ``u`` (:func:`cfrlib.strategy.sample`). The fast solvers in
``cfrlib.solvers.sampling`` draw the same uniforms in the same traversal order, so that with
the same seed both produce the same numbers, bit for bit. These functions are also the solvers'
engine on games too large to compile (``backend="states"``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..game import State
from ..strategy import sample
from .regret_matching import regret_matching


class InfosetNode:
    """What a solver remembers about one information set ``I``."""

    __slots__ = ("actions", "regret", "strategy_sum")

    def __init__(self, actions: Iterable[str]) -> None:
        self.actions = list(actions)                                # A(I), in the game's order
        self.regret = {a: 0.0 for a in self.actions}                # R^T(I, a)
        self.strategy_sum = {a: 0.0 for a in self.actions}          # unnormalised sigma-bar(I, a)


class InfosetTable(dict[tuple[int, str], InfosetNode]):
    """``(player, infoset key) -> InfosetNode`` for the infosets met so far; counts the histories
    visited in ``nodes_touched``."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes_touched = 0

    def node(self, state: State) -> InfosetNode:
        """The node of the infoset containing ``state``, created (all zeros) on first meeting."""
        key = (state.current_player(), state.infoset_key())
        if key not in self:
            self[key] = InfosetNode(state.legal_actions())
        return self[key]


# Shown in the book: chapter 6.
def sample_chance(state: State, rng: np.random.Generator) -> tuple[State, float]:
    """Draw ``a ~ sigma_c(h, .)`` at a chance node; returns
    ``(child, probability of a)``."""
    outcomes = state.chance_outcomes()
    a = sample([p for _, p in outcomes], rng.random())
    name, p = outcomes[a]
    return state.child(name), p


# Shown in the book: chapter 6.
def chance_sampling_cfr(state: State, i: int, reach: tuple[float, float],
                        table: InfosetTable, rng: np.random.Generator) -> float:
    """One walk of chance-sampled CFR for player ``i``; returns a sampled
    ``u_i(state)``.

    Chapter 4's walk with one outcome drawn at each chance node and no chance
    reach carried: at ``i``'s infosets ``R(I, a) += pi_{-i}(h) (u_i(ha) - u_i(h))``
    with ``pi_{-i}`` the opponent's reach only (chance is left out because the
    walk meets ``h`` with exactly chance's probability), and
    ``S(I, a) += pi_i(h) sigma(I, a)``. ``reach = (pi_0(h), pi_1(h))``.
    """
    table.nodes_touched += 1
    if state.is_terminal():
        return state.returns()[i]                   # u_i(z)
    if state.is_chance():
        child, _ = sample_chance(state, rng)        # one outcome, no chance weight
        return chance_sampling_cfr(child, i, reach, table, rng)
    if reach[0] == 0.0 and reach[1] == 0.0:
        return 0.0                                  # the cut: nothing can change
    p = state.current_player()
    node = table.node(state)
    sigma = regret_matching(node.regret)            # sigma^t(I)
    value = {}                                      # u_i(ha)
    for a in node.actions:
        below = list(reach)
        below[p] *= sigma[a]                        # pi_p(ha) = pi_p(h) sigma
        value[a] = chance_sampling_cfr(state.child(a), i, (below[0], below[1]),
                                       table, rng)
    u = sum(sigma[a] * value[a] for a in node.actions)      # u_i(h)
    if p == i:
        for a in node.actions:
            # R(I, a) += pi_{-i}(h) (u_i(ha) - u_i(h))
            node.regret[a] += reach[1 - i] * (value[a] - u)
            node.strategy_sum[a] += reach[i] * sigma[a]     # pi_i(h) sigma(I, a)
    return u


# Shown in the book: chapter 7.
def external_sampling(state: State, i: int, table: InfosetTable,
                      rng: np.random.Generator) -> float:
    """One traversal of external-sampling MCCFR for player ``i``; returns ``i``'s
    sampled value.

    Chance and the opponent are sampled (one action each time they act), player
    ``i``'s actions are explored in full. At ``i``'s infosets
    ``R(I, a) += u_i(ha) - u_i(h)``: the sampled values need no weight, since the
    probability of sampling ``h`` is ``pi_{-i}(h)`` (chance and opponent), exactly
    the weight of counterfactual regret. At the opponent's infosets the average
    strategy gets ``S(I, a) += sigma(I, a)`` ("simple" or stochastically-weighted
    averaging: ``h`` is met with probability ``pi_c(h)`` times the opponent's own
    reach, and summed over ``h`` in ``I`` chance's part is a constant of ``I``, so
    the normalised average is right in expectation).
    """
    table.nodes_touched += 1
    if state.is_terminal():
        return state.returns()[i]                   # u_i(z)
    if state.is_chance():
        child, _ = sample_chance(state, rng)
        return external_sampling(child, i, table, rng)
    node = table.node(state)
    sigma = regret_matching(node.regret)            # sigma^t(I)
    if state.current_player() == i:
        value = {a: external_sampling(state.child(a), i, table, rng)
                 for a in node.actions}             # u_i(ha)
        # u_i(h) = sum_a sigma(a) u_i(ha)
        u = sum(sigma[a] * value[a] for a in node.actions)
        for a in node.actions:
            node.regret[a] += value[a] - u          # sampled r(I, a)
        return u
    for a in node.actions:
        node.strategy_sum[a] += sigma[a]            # simple average update
    # opponent plays a ~ sigma(I)
    a = node.actions[sample(list(sigma.values()), rng.random())]
    return external_sampling(state.child(a), i, table, rng)


# Shown in the book: chapter 7.
def outcome_sampling(state: State, i: int, pi_o: float, q: float,
                     table: InfosetTable, rng: np.random.Generator,
                     epsilon: float) -> float:

    """One sampled trajectory of outcome-sampling MCCFR for player ``i``.

    ``pi_o`` is ``pi_{-i}(h)`` (chance times the opponent) and ``q`` the
    probability that the sampling reached ``h``. Chance and the opponent are
    sampled on policy; player ``i`` samples from
    ``xi(I) = epsilon * uniform + (1 - epsilon) * sigma(I)``. Returns the
    importance-weighted value ``u_i(z) pi_i(h -> z) / xi(h -> z)`` of the sampled
    terminal ``z`` (``i``'s part of the path below ``h``), an unbiased estimate of
    ``u_i(h)``.

    At ``i``'s infosets, with sampled action ``a*`` and
    ``rho = pi_{-i}(h) / q(h)``:
    ``c(a*) = u(ha*) / xi(a*)``, ``c(a) = 0`` otherwise, ``u = sigma(a*) c(a*)``
    and ``R(I, a) += rho (c(a) - u)``. At the opponent's infosets the average
    strategy gets the stochastically weighted update
    ``S(I, a) += rho sigma(I, a)``:
    ``h`` is sampled with probability ``q(h)``, so its expectation is
    ``pi_{-i}(h)`` (the opponent's reach times chance) times ``sigma``, right up to
    a constant of ``I``.
    """
    table.nodes_touched += 1
    if state.is_terminal():
        return state.returns()[i]                   # u_i(z)
    if state.is_chance():
        child, p = sample_chance(state, rng)
        return outcome_sampling(child, i, pi_o * p, q * p, table, rng, epsilon)
    node = table.node(state)
    sigma = regret_matching(node.regret)            # sigma^t(I)
    rho = pi_o / q                                  # pi_{-i}(h) / q(h)
    if state.current_player() == i:
        n = len(sigma)
        # exploration policy
        xi = {a: epsilon / n + (1.0 - epsilon) * s for a, s in sigma.items()}
        a = node.actions[sample(list(xi.values()), rng.random())]
        c = outcome_sampling(state.child(a), i, pi_o, q * xi[a], table, rng,
                             epsilon) / xi[a]       # c(a*) = u(ha*) / xi(a*)
        u = sigma[a] * c                            # u(h) = sum_a sigma(a) c(a)
        for b in node.actions:
            node.regret[b] += rho * ((c if b == a else 0.0) - u)  # rho (c(b) - u)
        return u
    for b in node.actions:
        node.strategy_sum[b] += rho * sigma[b]      # stochastically weighted
    # opponent plays a ~ sigma(I)
    a = node.actions[sample(list(sigma.values()), rng.random())]
    return outcome_sampling(state.child(a), i, pi_o * sigma[a], q * sigma[a],
                            table, rng, epsilon)
