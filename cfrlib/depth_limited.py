"""Depth-limited solving and continual re-solving: search that stops before the end of the game.

:mod:`cfrlib.subgame` re-solves a subgame down to the end of the game. The programs that beat
professionals stop earlier, at a *depth limit*, and put values there for what follows. In Leduc
the depth limit here is the end of the first betting round: the leaves are the chance nodes that
deal the board after a call (:func:`~cfrlib.subgame.chance_subgames` with
``before_chance=True``: 5 public leaves, one per first-round line ending in a call, each with
the 30 deals of the private cards). Three ways to value the leaves:

* **Multi-valued leaves** (Brown, Sandholm and Amos 2018), :class:`DepthLimitedSolver`: player
  ``i`` solves the first round assuming it plays the blueprint ``sigma_i`` after the leaves, and
  the opponent ``o`` picks, at each of its infosets at a leaf, one of ``k`` continuation
  strategies ``sigma_o^1, ..., sigma_o^k`` for the rest of the game. Leaf history ``h`` then
  offers ``o`` the values ``u(h; sigma_i, sigma_o^j)``. The continuations are the blueprint and
  biased copies of it (:data:`CONTINUATIONS`: an action's probability multiplied by
  :data:`BIAS` at every later infoset of ``o``, then renormalised) and a best response to
  ``sigma_i`` (``"best response"``). No finite set holds every answer of ``o``: a best response
  to the *new* first round's ranges may differ from all of them, so the solve is not safe, and
  more continuations need not lower the exploitability (chapter 14 measures both).
* **Exact values over ranges** (DeepStack, Moravcik et al. 2017, with the network replaced by the
  exact computation), :class:`ExactValueCFR`: CFR+ runs on the first round; at every iteration
  each leaf's subgame is solved exactly (LP) for the players' current ranges, and its
  counterfactual values feed the first-round regrets. This is CFR-D (Burch, Johanson and Bowling
  2014): the average first-round strategy together with the reach-weighted average of the leaf
  solutions converges to an equilibrium.
* **Continual re-solving** (DeepStack), :func:`continual_resolving`: no blueprint below the root.
  The game is solved once from the root; then at every public state where the agent acts it
  re-solves the rest of the game with the re-solving gadget, from its own range (the reach of its
  strategy so far) and the opponent's counterfactual best-response values carried forward from
  the previous solve. Solved exactly (LP) each re-solve keeps every opponent value, so the agent
  stays an equilibrium; solved by a few CFR+ iterations it collects each solve's error.

Every result is a strategy for the whole game, so :func:`cfrlib.exploitability` grades it
exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from .checks import check_iterations
from .errors import SubgameError
from .evaluation import best_response, counterfactual_values, exploitability
from .game import Game
from .games.explicit import ExplicitGame, Node
from .solvers import CFRPlus
from .strategy import Strategy, StrategyLike, as_strategy
from .subgame import (Subgame, SubgameSolver, _Builder, _last_sequences, _opponent_groups, _reaches,
                      _solve, chance_subgames, public_states)
from .tree import Tree

__all__ = ["BIAS", "CONTINUATIONS", "DepthLimitedSolver", "ExactValueCFR", "continual_resolving",
           "expected_values", "search_study"]

CONTINUATIONS = ("blueprint", "fold", "call", "raise", "best response")
"""The opponent's continuation strategies after the depth limit: the blueprint, the blueprint
biased towards folding, calling or raising, and a best response to the solving player's
blueprint. The first ``k`` make the ``k``-valued leaves."""

BIAS = 5.0
"""How much a biased continuation multiplies its action's probability (Brown, Sandholm and Amos
2018 bias their poker continuations by a factor of 5)."""


def expected_values(tree: Tree, probs: NDArray[np.float64]) -> NDArray[np.float64]:
    """``u_0(h)`` at every node ``h`` when both players follow ``probs``: the terminals' payoffs,
    then ``u_0(h) = sum_a sigma(h, a) u_0(ha)`` (chance's probabilities at chance nodes),
    deepest level first."""
    value = np.zeros(tree.num_nodes)
    value[tree.terminal_node] = tree.terminal_payoff
    for d in range(tree.depth_max, 0, -1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        par = tree.parent[nodes]
        decides = tree.player[par] >= 0
        edge = np.where(decides, probs[np.maximum(tree.infoset[par], 0), np.where(decides, tree.action[nodes], 0)],
                        tree.chance_prob[nodes])
        np.add.at(value, par, edge * value[nodes])
    return value


def _leaves(game: Game, leaves: Sequence[Subgame] | None) -> list[Subgame]:
    """``leaves``, checked to be subgames of ``game``, or by default the end of the first round."""
    found = list(chance_subgames(game, before_chance=True) if leaves is None else leaves)
    if not found:
        raise SubgameError("no leaves to stop at")
    for part in found:
        if not isinstance(part, Subgame) or part.game.tree() is not game.tree():
            raise SubgameError(f"{part!r} is not a subgame of {game.name}")
    return found


def _below(tree: Tree, leaves: Sequence[Subgame]) -> NDArray[np.bool_]:
    """Which infosets lie below the depth limit (at or below a leaf)."""
    nodes = np.concatenate([part.nodes for part in leaves])
    mask = np.zeros(tree.num_infosets, dtype=bool)
    mask[tree.infoset[nodes][tree.infoset[nodes] >= 0]] = True
    return mask


class DepthLimitedSolver:
    """Depth-limited solving with multi-valued leaves (module docstring) against ``blueprint``.

    ``leaves`` are the subgames below the depth limit (default: Leduc's first-round end,
    :func:`~cfrlib.subgame.chance_subgames` with ``before_chance=True``). :meth:`gadget` builds
    the depth-limited game of one player, :meth:`solve` the whole strategy (both players' first
    rounds from their depth-limited solves, the blueprint below the depth limit).
    """

    def __init__(self, game: Game, blueprint: StrategyLike, leaves: Sequence[Subgame] | None = None) -> None:
        self.game, self.tree = game, game.tree()
        self.blueprint = as_strategy(game, blueprint)
        self.leaves = _leaves(game, leaves)
        self.below = _below(self.tree, self.leaves)

    def continuation(self, name: str, player: int) -> NDArray[np.float64]:
        """``player``'s strategy below the depth limit named ``name`` (one of
        :data:`CONTINUATIONS`), as a full ``num_infosets x max_actions`` array that keeps the
        blueprint everywhere else. ``"best response"`` is ``player``'s counterfactual best response
        to the other player's blueprint; a biased continuation multiplies the probability of the
        action of that name by :data:`BIAS` where it is legal and renormalises."""
        if name not in CONTINUATIONS:
            raise SubgameError(f"continuation must be one of {list(CONTINUATIONS)}, got {name!r}")
        if player not in (0, 1):
            raise SubgameError(f"player must be 0 or 1, got {player!r}")
        tree, probs = self.tree, self.blueprint.to_array()
        rows = self.below & (tree.infoset_player == player)
        if name == "best response":
            probs[rows] = best_response(self.game, self.blueprint, player).strategy.probs[rows]
        elif name != "blueprint":
            for I in np.flatnonzero(rows):
                actions = tree.infoset_actions[I]
                if name in actions:
                    probs[I, actions.index(name)] *= BIAS
                    probs[I] /= probs[I].sum()
        return probs

    def leaf_values(self, player: int, continuations: Sequence[str]) -> NDArray[np.float64]:
        """``u_0(h; sigma_i, sigma_o^j)`` at every node (rows: the continuations ``j`` of the
        opponent ``o``; ``i = player`` keeps the blueprint)."""
        o = 1 - player
        mine = self.below & (self.tree.infoset_player == player)
        out = []
        for name in continuations:
            probs = self.continuation(name, o)
            probs[mine] = self.blueprint.probs[mine]
            out.append(expected_values(self.tree, probs))
        return np.array(out)

    def gadget(self, player: int, continuations: Sequence[str]) -> ExplicitGame:
        """The depth-limited game in which ``player`` solves the first round: the game above the
        leaves, each leaf history ``h`` replaced by a decision of the opponent ``o`` (infoset: its
        root infoset at the leaf, named ``<...>``) among ``continuations``, ending in
        ``u_0(h; sigma_i, sigma_o^j)``."""
        if player not in (0, 1):
            raise SubgameError(f"player must be 0 or 1, got {player!r}")
        names = tuple(dict.fromkeys(continuations))
        if not names:
            raise SubgameError("give at least one continuation")
        values = self.leaf_values(player, names)
        tree, o, out = self.tree, 1 - player, _Builder(self.tree)
        last = _last_sequences(tree)[o]
        key_of: dict[int, str] = {}
        for part in self.leaves:
            for group in _opponent_groups(tree, part, o):
                I, a = divmod(int(last[group[0]]), tree.max_actions)
                key = f"<{tree.infoset_keys[I]} {tree.infoset_actions[I][a]}>"
                while key in key_of.values():  # roots o cannot tell apart but never meets again
                    key = key[:-1] + "'>"
                key_of.update((int(h), key) for h in group)

        def leaf(n: int) -> int | None:
            if n not in key_of:
                return None
            node = out.reserve()
            kids = tuple(out.terminal(float(v)) for v in values[:, n])
            out.set(node, Node(o, key_of[n], names, kids))
            return node

        out.copy(0, 0.0, leaf)
        return out.game(f"{self.game.name} to depth limit, player {player}, "
                        f"{len(names)}-valued leaves")

    def solve(self, continuations: Sequence[str], iterations: int | None = None) -> Strategy:
        """Both players' first rounds solved with ``continuations`` at the leaves (LP for
        ``iterations=None``, else that many CFR+ iterations), the blueprint below the leaves."""
        if iterations is not None:
            check_iterations(iterations)
        tree, probs = self.tree, self.blueprint.to_array()
        for player in (0, 1):
            solution = _solve(self.gadget(player, continuations), iterations)
            sub = solution.tree
            for I in np.flatnonzero(~self.below & (tree.infoset_player == player)):
                key = tree.infoset_keys[I]
                if sub.has_infoset(player, key):
                    n = int(tree.infoset_num_actions[I])
                    probs[I, :n] = solution.probs[sub.infoset_index(player, key), :n]
        return Strategy(self.game, probs)


class ExactValueCFR:
    """Depth-limited CFR+ with exact values over ranges at the leaves (CFR-D; module docstring).

    Each iteration: regret matching+ gives the first-round strategy ``sigma^t``; every leaf
    subgame is solved exactly for the ranges ``sigma^t`` brings there (the unsafe gadget of
    :mod:`cfrlib.subgame`, whose chance node deals the leaf's histories in proportion to
    ``pi^{sigma^t}(h)``); each player's first-round regrets take the counterfactual values of
    that solution, with the player best responding below the leaves (at a hand its range does
    not bring to a leaf an equilibrium of the leaf may play anything; the best response there is
    the value a deviation would find). Averages weigh iteration ``t`` by ``t`` and each infoset
    by its own reach, so the leaves' average is the reach-weighted one that CFR-D needs.
    """

    def __init__(self, game: Game, leaves: Sequence[Subgame] | None = None) -> None:
        self.game, self.tree = game, game.tree()
        self.leaves = _leaves(game, leaves)
        tree = self.tree
        self.below = _below(tree, self.leaves)
        self.probs = tree.uniform().copy()
        self.regret = np.zeros_like(self.probs)  # Q^t(I, a) of regret matching+, first round
        self.total = np.zeros_like(self.probs)   # S(I, a), every infoset
        decision = np.flatnonzero(tree.infoset >= 0)
        _, first = np.unique(tree.infoset[decision], return_index=True)
        self._node_of_infoset = decision[first]
        self.iterations = 0

    def iterate(self, iterations: int = 1) -> ExactValueCFR:
        """Run ``iterations`` more iterations."""
        check_iterations(iterations)
        tree, legal = self.tree, self.tree.action_mask
        trunk = ~self.below
        for _ in range(iterations):
            self.iterations += 1
            positive = np.where(legal, np.maximum(self.regret, 0.0), 0.0)
            sums = positive.sum(axis=1, keepdims=True)
            matched = np.where(sums > 0, positive / np.where(sums > 0, sums, 1.0), tree.uniform())
            self.probs[trunk] = matched[trunk]
            current = Strategy(self.game, self.probs)
            self.probs = SubgameSolver(self.game, current, self.leaves).solve("unsafe").to_array()
            for i in (0, 1):
                mine = tree.infoset_player == i
                rows = self.below & mine
                probs = self.probs.copy()
                probs[rows] = best_response(self.game, self.probs, i).strategy.probs[rows]
                q, v = counterfactual_values(tree, probs, i)
                regret = q[:-1].reshape(legal.shape) - v[:, None]
                update = trunk & mine
                self.regret[update] = np.maximum(self.regret[update] + regret[update], 0.0)
            reach = _reaches(tree, self.probs)
            own = reach[tree.infoset_player, self._node_of_infoset]
            self.total += self.iterations * own[:, None] * self.probs
        return self

    def average_strategy(self) -> Strategy:
        """``S(I, a) / sum_b S(I, b)``, uniform where an infoset was never reached."""
        sums = self.total.sum(axis=1, keepdims=True)
        probs = np.where(sums > 0, self.total / np.where(sums > 0, sums, 1.0), self.tree.uniform())
        return Strategy(self.game, probs)


def continual_resolving(game: Game, iterations: int | None = None) -> Strategy:
    """Both players' continual re-solving agents as one strategy for every infoset.

    The game is solved once from the root (LP for ``iterations=None``, else CFR+'s average after
    ``iterations``); each player ``i``'s first decision plays that solution. Then, shallowest
    first, at every public state where ``i`` acts after any player has acted
    (:func:`~cfrlib.subgame.public_states`), the rest of the game is re-solved for ``i`` with the
    re-solving gadget, the same way: its chance node deals ``i``'s range (the reach of ``i``'s
    strategy so far) and the opponent may take its counterfactual best-response value against the
    previous solve, the values DeepStack carries forward. The last solve at or above a public
    state decides ``i``'s strategy there.
    """
    if iterations is not None:
        check_iterations(iterations)
    tree = game.tree()
    root = _solve(game, iterations).to_array()
    acted = np.zeros(tree.num_nodes, dtype=bool)
    for d in range(1, tree.depth_max + 1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        acted[nodes] = acted[tree.parent[nodes]] | (tree.player[tree.parent[nodes]] >= 0)
    out = root.copy()
    for i in (0, 1):
        probs = root.copy()
        for part in public_states(game, i):
            if acted[part.roots[0]]:
                solver = SubgameSolver(game, Strategy(game, probs), [part])
                probs = solver.solve("resolve", iterations, players=(i,)).to_array()
        mine = tree.infoset_player == i
        out[mine] = probs[mine]
    return Strategy(game, out)


def search_study(game: Game, checkpoints: Sequence[int | None], ks: Sequence[int] = (1, 2, 3, 4, 5)) -> list[dict[str, float | int | None]]:
    """The agents of this module against blueprints of growing quality, every number an exact
    exploitability. Per checkpoint ``t`` (CFR+'s average after ``t`` iterations; ``None``: the
    LP's equilibrium): ``"blueprint"``; ``"k=K"``, the depth-limited solve with the first ``K``
    of :data:`CONTINUATIONS` and the blueprint's second round, and ``"k=K resolved"``, the same
    with the second round re-solved by maxmargin (:mod:`cfrlib.subgame`) against it;
    ``"continual"``, continual re-solving with ``t`` CFR+ iterations a solve (LP for ``None``)."""
    counts = [None if t is None else check_iterations(t, "checkpoints") for t in checkpoints]
    second_round = chance_subgames(game)
    rows: list[dict[str, float | int | None]] = []
    for t in counts:
        if t is None:
            from .lp import solve_lp  # scipy, loaded on first use

            blueprint = solve_lp(game).strategy
        else:
            blueprint = CFRPlus(game).iterate(t).average_strategy()
        row: dict[str, float | int | None] = {"iterations": t, "blueprint": exploitability(game, blueprint)}
        solver = DepthLimitedSolver(game, blueprint)
        for k in ks:
            if not 1 <= k <= len(CONTINUATIONS):
                raise SubgameError(f"k must be between 1 and {len(CONTINUATIONS)}, got {k!r}")
            found = solver.solve(CONTINUATIONS[:k])
            row[f"k={k}"] = exploitability(game, found)
            resolved = SubgameSolver(game, found, second_round).solve("maxmargin")
            row[f"k={k} resolved"] = exploitability(game, resolved)
        row["continual"] = exploitability(game, continual_resolving(game, t))
        rows.append(row)
    return rows
