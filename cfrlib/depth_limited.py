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
* **A value function over ranges** (DeepStack's network), :class:`ValueFunctionCFR`: CFR+ on the
  first round takes each leaf's counterfactual values from a function of the leaf and the two
  normalised ranges there, either the exact one (:class:`ExactLeafValues`: solve the leaf for those
  ranges) or a small network fitted to it on random ranges (:func:`value_samples`,
  :func:`fit_value_network`). Below the leaves the agent plays the leaves solved exactly for the
  ranges its average first round brings there.
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

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from .checks import check_iterations
from .deep_cfr import MLP, fit
from .errors import SubgameError
from .evaluation import best_response, counterfactual_values, exploitability
from .game import CHANCE, Game
from .games.explicit import ExplicitGame, Node
from .solvers import CFRPlus
from .strategy import Strategy, StrategyLike, as_strategy
from .subgame import (Subgame, SubgameSolver, _Builder, _opponent_groups, _reaches,
                      _solve, chance_subgames, public_states)
from .tree import Tree

__all__ = ["BIAS", "CONTINUATIONS", "DepthLimitedSolver", "ExactLeafValues", "ExactValueCFR", "LeafValues",
           "ValueFunctionCFR", "ValueNetwork", "continual_resolving", "expected_values", "fit_value_network",
           "search_study", "value_network_study", "value_samples"]

CONTINUATIONS = ("blueprint", "fold", "call", "raise", "best response")
"""The opponent's continuation strategies after the depth limit: the blueprint, the blueprint
biased towards folding, calling or raising, and a best response to the solving player's
blueprint. The first ``k`` make the ``k``-valued leaves."""

BIAS = 5.0
"""How much a biased continuation multiplies its action's probability (Brown, Sandholm and Amos
2018 bias their poker continuations by a factor of 5)."""


def expected_values(tree: Tree, probs: NDArray[np.float64], given: NDArray[np.intp] | None = None,
                    values: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """``u_0(h)`` at every node ``h`` when both players follow ``probs``: the terminals' payoffs,
    then ``u_0(h) = sum_a sigma(h, a) u_0(ha)`` (chance's probabilities at chance nodes),
    deepest level first. The nodes ``given`` (none below another) take ``values`` instead, and
    what lies below them is left out (zero)."""
    value = np.zeros(tree.num_nodes)
    value[tree.terminal_node] = tree.terminal_payoff
    below = np.zeros(tree.num_nodes, dtype=bool)  # strictly below a given node
    if given is not None:
        at = np.zeros(tree.num_nodes, dtype=bool)
        at[given] = True
        for d in range(1, tree.depth_max + 1):
            nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
            below[nodes] = below[tree.parent[nodes]] | at[tree.parent[nodes]]
        value[below] = 0.0
        value[given] = values
    for d in range(tree.depth_max, 0, -1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        nodes = nodes[~below[nodes]]
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


def _matched(tree: Tree, regret: NDArray[np.float64]) -> NDArray[np.float64]:
    """Regret matching: ``sigma(I, a) = Q(I, a)^+ / sum_b Q(I, b)^+``, uniform where no regret is positive."""
    return _normalised(tree, np.where(tree.action_mask, np.maximum(regret, 0.0), 0.0))


def _normalised(tree: Tree, weights: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row of ``weights`` divided by its sum, uniform where the sum is 0."""
    sums = weights.sum(axis=1, keepdims=True)
    return np.where(sums > 0, weights / np.where(sums > 0, sums, 1.0), tree.uniform())


def _infoset_nodes(tree: Tree) -> NDArray[np.intp]:
    """One node of every infoset (its reach by its own player is the same at all of them)."""
    decision = np.flatnonzero(tree.infoset >= 0)
    _, first = np.unique(tree.infoset[decision], return_index=True)
    return decision[first]


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
        last = tree.node_sequences()[o]
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
        self._node_of_infoset = _infoset_nodes(tree)
        self.iterations = 0

    def iterate(self, iterations: int = 1) -> ExactValueCFR:
        """Run ``iterations`` more iterations."""
        check_iterations(iterations)
        tree, legal = self.tree, self.tree.action_mask
        trunk = ~self.below
        for _ in range(iterations):
            self.iterations += 1
            self.probs[trunk] = _matched(tree, self.regret)[trunk]
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
        return Strategy(self.game, _normalised(self.tree, self.total))


LeafValues = Callable[[int, NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]
"""A value function over ranges: ``(leaf, r_0, r_1) -> f``, where ``leaf`` indexes the leaves, ``r_i``
is player ``i``'s normalised range there (a probability per card of ``game.cards``) and ``f[i, c]``
is player ``i``'s counterfactual value of holding card ``c``, per unit of the opponent's range:
``f_i(c) = sum_{h: c_i(h) = c} pi_c(h) r_o(c_o(h)) u_i(h)``, with ``u_i(h)`` the value of ``h``
when ``i`` best responds to the leaf's solution (for ``r_i(c) > 0``, the solution's own value)."""


class _Deals:
    """The private cards at each leaf's roots: ``card[L][i][k]``, the index in ``game.cards`` of
    player ``i``'s card at root ``k`` of leaf ``L``, and ``chance[L][k]``, the root's chance reach."""

    def __init__(self, game: Game, leaves: Sequence[Subgame]) -> None:
        cards = getattr(game, "cards", None)
        if cards is None or not all(len(h) >= 2 and h[0] in cards and h[1] in cards
                                    for part in leaves for h in part.histories):
            raise SubgameError(f"values over ranges need a game whose first chance outcomes are the "
                               f"players' private cards, from game.cards (Leduc); {game.name} is not one")
        index = {c: n for n, c in enumerate(cards)}
        tree = game.tree()
        self.num_cards = len(cards)
        self.card = [np.array([[index[h[i]] for h in part.histories] for i in (0, 1)]) for part in leaves]
        self.chance = [tree.chance_reach[list(part.roots)] for part in leaves]


class ExactLeafValues:
    """The exact value function over ranges (:data:`LeafValues`) at ``leaves`` (default: the end of
    the first round): the leaf solved by the LP with its roots dealt in proportion to
    ``pi_c(h) r_0(c_0) r_1(c_1)`` (the unsafe gadget of :mod:`cfrlib.subgame`), then each player's
    best-response value to the other's part of that solution."""

    def __init__(self, game: Game, leaves: Sequence[Subgame] | None = None) -> None:
        self.game, self.tree = game, game.tree()
        self.leaves = _leaves(game, leaves)
        self.deals = _Deals(game, self.leaves)

    def _gadget(self, leaf: int, weight: NDArray[np.float64]) -> ExplicitGame:
        part, out = self.leaves[leaf], _Builder(self.tree)
        top = out.reserve()
        kids = tuple(out.copy(int(h), 0.0) for h in part.roots)
        out.set(top, Node(CHANCE, None, tuple(" ".join(h) for h in part.histories), kids,
                          tuple(weight / weight.sum())))
        return out.game(f"{self.game.name} {part.label} for given ranges")

    def __call__(self, leaf: int, r0: NDArray[np.float64], r1: NDArray[np.float64]) -> NDArray[np.float64]:
        ranges = [np.asarray(r, dtype=float) for r in (r0, r1)]
        card, chance = self.deals.card[leaf], self.deals.chance[leaf]
        joint = chance * ranges[0][card[0]] * ranges[1][card[1]]
        if joint.sum() <= 0:
            raise SubgameError(f"the ranges never bring the players together at {self.leaves[leaf].label}")
        solution = _solve(self._gadget(leaf, joint), None).probs
        out = np.zeros((2, self.deals.num_cards))
        for i in (0, 1):
            against = chance * ranges[1 - i][card[1 - i]]  # i's hands all dealt, the opponent's by its range
            gadget = self._gadget(leaf, against)
            u0 = expected_values(gadget.tree(), best_response(gadget, solution, i).strategy.probs)
            u_i = u0 if i == 0 else gadget.constant_sum - u0
            first = int(gadget.tree().first_child[0])
            values = u_i[first:first + len(chance)]  # the root's children, in the order of the leaf's roots
            out[i] = np.bincount(card[i], weights=against / ranges[1 - i].sum() * values,
                                 minlength=self.deals.num_cards)
        return out


def _features(leaf: int, num_leaves: int, r0: NDArray[np.float64], r1: NDArray[np.float64]) -> NDArray[np.float32]:
    """The network's input: the leaf one-hot, then both normalised ranges."""
    return np.concatenate([np.eye(num_leaves)[leaf], r0, r1]).astype(np.float32)


def value_samples(game: Game, count: int, rng: np.random.Generator,
                  leaves: Sequence[Subgame] | None = None) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """``count`` training pairs for a value network: a leaf drawn uniformly, each player's range drawn
    uniformly from the simplex (Dirichlet(1, ..., 1)), and the exact values :class:`ExactLeafValues`
    gives for them. Returns ``(x, y)``: rows of :func:`_features` and of ``f`` flattened (player 0's
    cards, then player 1's)."""
    check_iterations(count, "count")
    exact = ExactLeafValues(game, leaves)
    n, num_leaves = exact.deals.num_cards, len(exact.leaves)
    xs, ys = [], []
    for _ in range(count):
        leaf = int(rng.integers(num_leaves))
        r0, r1 = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
        xs.append(_features(leaf, num_leaves, r0, r1))
        ys.append(exact(leaf, r0, r1).ravel())
    return np.array(xs), np.array(ys, dtype=np.float32)


class ValueNetwork:
    """A learned :data:`LeafValues`: ``f = net(features) / scale`` (``scale`` brings the targets to
    unit size while training)."""

    def __init__(self, net: MLP, num_leaves: int, scale: float) -> None:
        self.net, self.num_leaves, self.scale = net, num_leaves, scale

    def predict(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        """``f`` for rows of features, flattened as in :func:`value_samples`."""
        return self.net(x) / np.float32(self.scale)

    def __call__(self, leaf: int, r0: NDArray[np.float64], r1: NDArray[np.float64]) -> NDArray[np.float64]:
        out = self.predict(_features(leaf, self.num_leaves, r0, r1)[None])[0]
        return out.astype(np.float64).reshape(2, -1)


def fit_value_network(x: NDArray[np.float32], y: NDArray[np.float32], num_leaves: int, rng: np.random.Generator, *,
                      hidden: Sequence[int] = (64, 64), steps: int = 3000, batch_size: int = 64,
                      learning_rate: float = 1e-3) -> ValueNetwork:
    """A :class:`ValueNetwork` fitted by :func:`cfrlib.deep_cfr.fit` (Adam, squared error) on the
    pairs ``(x, y)`` of :func:`value_samples`, targets scaled by ``1 / max |y|``."""
    check_iterations(steps, "steps")
    scale = 1.0 / max(float(np.abs(y).max()), 1e-12)
    net = MLP([x.shape[1], *hidden, y.shape[1]], rng)
    target = (y * scale).astype(np.float32)
    fit(net, x, target, np.ones(y.shape, dtype=bool), np.ones(len(x), dtype=np.float32), loss="mse",
        steps=steps, batch_size=batch_size, learning_rate=learning_rate, rng=rng)
    return ValueNetwork(net, num_leaves, scale)


class ValueFunctionCFR:
    """Depth-limited CFR+ with a value function over ranges at the leaves (DeepStack's look-ahead).

    Each iteration: regret matching+ gives the first-round strategy ``sigma^t``; at each leaf the
    players' ranges ``R_i(c)`` (their reach with card ``c``) go, normalised, into ``values``
    (:data:`LeafValues`); player ``i``'s counterfactual value of card ``c`` there is
    ``|R_o| f_i(c)``, spread over the leaf's histories with ``i``'s card ``c`` as the value
    ``|R_o| f_i(c) / sum_{h: c_i(h) = c} pi_c(h) R_o(c_o(h))`` each; the first-round regrets take the
    counterfactual values above. Averages weigh iteration ``t`` by ``t`` and each infoset by its own
    reach. :meth:`average_strategy` completes the average first round with the leaves solved
    exactly for the ranges it brings there (the unsafe gadget), as the values assumed.
    """

    def __init__(self, game: Game, values: LeafValues, leaves: Sequence[Subgame] | None = None) -> None:
        self.game, self.tree, self.values = game, game.tree(), values
        self.leaves = _leaves(game, leaves)
        self.deals = _Deals(game, self.leaves)
        tree = self.tree
        self.trunk = ~_below(tree, self.leaves)
        self.probs = tree.uniform().copy()
        self.regret = np.zeros_like(self.probs)
        self.total = np.zeros_like(self.probs)
        self._roots = np.concatenate([np.array(part.roots) for part in self.leaves])
        self._node_of_infoset = _infoset_nodes(tree)
        self.iterations = 0

    def _ranges(self, reach: NDArray[np.float64]) -> list[NDArray[np.float64]]:
        """``R_i(c)`` at each leaf (rows: the players): the reach of the roots where ``i`` holds ``c``."""
        out = []
        for L, part in enumerate(self.leaves):
            ranges = np.zeros((2, self.deals.num_cards))
            for i in (0, 1):
                ranges[i, self.deals.card[L][i]] = reach[i, list(part.roots)]
            out.append(ranges)
        return out

    def leaf_ranges(self, reach: NDArray[np.float64]) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        """The normalised ranges ``(r_0, r_1)`` at each leaf for the reaches ``reach`` (rows: the
        players' ``pi_i``); uniform for a player who never gets there."""
        n = self.deals.num_cards
        return [(R[0] / R[0].sum() if R[0].sum() > 0 else np.full(n, 1.0 / n),
                 R[1] / R[1].sum() if R[1].sum() > 0 else np.full(n, 1.0 / n)) for R in self._ranges(reach)]

    def leaf_values(self, reach: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each player's value (rows) at every leaf root, in the order of ``_roots``."""
        out = []
        for L, (ranges, normal) in enumerate(zip(self._ranges(reach), self.leaf_ranges(reach))):
            card, chance, n = self.deals.card[L], self.deals.chance[L], self.deals.num_cards
            sums = ranges.sum(axis=1)
            f = self.values(L, *normal)
            rows = []
            for i in (0, 1):
                depth = np.bincount(card[i], weights=chance * ranges[1 - i][card[1 - i]], minlength=n)
                per_card = np.where(depth > 0, f[i] * sums[1 - i] / np.where(depth > 0, depth, 1.0), 0.0)
                rows.append(per_card[card[i]])
            out.append(np.array(rows))
        return np.concatenate(out, axis=1)

    def iterate(self, iterations: int = 1) -> ValueFunctionCFR:
        """Run ``iterations`` more iterations."""
        check_iterations(iterations)
        tree = self.tree
        decision = np.flatnonzero((tree.player >= 0) & self.trunk[np.maximum(tree.infoset, 0)])
        for _ in range(iterations):
            self.iterations += 1
            self.probs[self.trunk] = _matched(tree, self.regret)[self.trunk]
            reach = _reaches(tree, self.probs)
            at_leaves = self.leaf_values(reach)
            for i in (0, 1):
                given = at_leaves[i] if i == 0 else tree.constant_sum - at_leaves[i]
                u0 = expected_values(tree, self.probs, self._roots, given)
                u_i = u0 if i == 0 else tree.constant_sum - u0
                nodes = decision[tree.player[decision] == i]
                kids = tree.first_child[nodes][:, None] + np.arange(tree.max_actions)
                legal = tree.action_mask[tree.infoset[nodes]]
                weight = (tree.chance_reach * reach[1 - i])[nodes]
                q = np.zeros_like(self.probs)
                np.add.at(q, tree.infoset[nodes], np.where(legal, weight[:, None] * u_i[np.where(legal, kids, 0)], 0.0))
                v = (q * self.probs).sum(axis=1, keepdims=True)
                update = self.trunk & (tree.infoset_player == i)
                self.regret[update] = np.maximum(self.regret[update] + (q - v)[update], 0.0)
            own = reach[tree.infoset_player, self._node_of_infoset]
            self.total[self.trunk] += (self.iterations * own[:, None] * self.probs)[self.trunk]
        return self

    def average_strategy(self) -> Strategy:
        """The average first round, the leaves solved exactly for the ranges it brings there."""
        first = Strategy(self.game, _normalised(self.tree, self.total))
        return SubgameSolver(self.game, first, self.leaves).solve("unsafe")


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


def value_network_study(game: Game, sizes: Sequence[int], held_out: int, checkpoints: Sequence[int],
                        seed: int = 0, exact_checkpoints: Sequence[int] = ()) -> dict[str, object]:
    """A learned value function at the depth limit against the exact one, every exploitability exact.

    ``max(sizes) + held_out`` pairs of :func:`value_samples` (seeded by ``seed``); for each training
    set size ``n`` of ``sizes`` a :class:`ValueNetwork` is fitted on the first ``n`` pairs (seed
    ``seed + 1``) and measured: ``"held-out error"``, ``mean |f_net - f| / mean |f|`` over the
    held-out pairs; ``"learned"``, the exploitability of :class:`ValueFunctionCFR` with the network
    after each of ``checkpoints`` iterations; ``"error on the agent's ranges"``, the same relative
    error at the ranges the agent's last average first round brings to the leaves. ``"exact"``:
    :class:`ValueFunctionCFR` with :class:`ExactLeafValues` at ``exact_checkpoints``. ``"first
    pairs"`` keeps two pairs ``(x, y)`` for a re-run."""
    rng = np.random.default_rng(seed)
    exact = ExactLeafValues(game)
    x, y = value_samples(game, max(sizes) + held_out, rng, exact.leaves)
    train, test = slice(0, max(sizes)), slice(max(sizes), None)
    rows = []
    for n in sizes:
        net = fit_value_network(x[train][:n], y[train][:n], len(exact.leaves), np.random.default_rng(seed + 1))
        agent = ValueFunctionCFR(game, net, exact.leaves)
        found = []
        for t in checkpoints:
            agent.iterate(t - agent.iterations)
            found.append(exploitability(game, agent.average_strategy()))
        reach = _reaches(agent.tree, _normalised(agent.tree, agent.total))
        met = [(exact(L, *r), net(L, *r)) for L, r in enumerate(agent.leaf_ranges(reach))]
        rows.append({"training pairs": n, "held-out error": _relative_error(net.predict(x[test]), y[test]),
                     "learned": found, "error on the agent's ranges": _relative_error(
                         np.array([b for _, b in met]), np.array([a for a, _ in met]))})
    agent = ValueFunctionCFR(game, exact, exact.leaves)
    exact_found = []
    for t in exact_checkpoints:
        agent.iterate(t - agent.iterations)
        exact_found.append(exploitability(game, agent.average_strategy()))
    return {"held-out pairs": held_out, "checkpoints": list(checkpoints), "rows": rows,
            "exact": {"checkpoints": list(exact_checkpoints), "exploitability": exact_found},
            "first pairs": [[x[k].tolist(), y[k].tolist()] for k in range(2)]}


def _relative_error(found: NDArray[np.floating], true: NDArray[np.floating]) -> float:
    """``mean |found - true| / mean |true|``."""
    return float(np.abs(found - true).mean() / np.abs(true).mean())
