"""Public chance sampling (Johanson, Bard, Lanctot, Gibson and Bowling 2012)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ...checks import check_flag, check_seed
from ...errors import SolverError
from ...game import CHANCE, TERMINAL, Game
from ...strategy import Strategy
from ...tree import Tree, node_table
from ..base import Solver
from ..regret_minimizers import RegretMatching
from .walk import _normalise


class PublicSubtree(NamedTuple):
    """The histories consistent with one public outcome ``b``, in level order, as arrays (indices
    into these arrays unless said otherwise): ``parent`` (-1 at the root), ``mover`` (who acts at
    the parent: 0, 1, or 2 for chance), ``chance`` (the edge's weight when chance moves: its
    probability, over ``rho(b)`` at the public event), ``slot`` (``infoset * max_actions +
    action`` of a decision edge, 0 elsewhere), ``terminal``, ``payoff`` (player 0's, at
    terminals), ``levels`` (start of each level, and the end) and ``edges`` (per player, the
    children of that player's decisions)."""

    parent: NDArray[np.intp]
    mover: NDArray[np.intp]
    chance: NDArray[np.float64]
    slot: NDArray[np.intp]
    terminal: NDArray[np.bool_]
    payoff: NDArray[np.float64]
    levels: list[int]
    edges: tuple[NDArray[np.intp], NDArray[np.intp]]


def public_subtrees(game: Game) -> tuple[list[str], NDArray[np.float64], list[PublicSubtree]]:
    """The public outcomes' names, their sampling probabilities ``rho(b)`` (chance's marginal
    over the public event's nodes, ``sum pi_c(hb) / sum pi_c(h)``) and one
    :class:`PublicSubtree` each.

    The chance events before any decision are private (dealt hands, walked in full); those after
    a decision must be public: every infoset lies below one outcome of them (checked), and a path
    meets at most one such event (Leduc's board card; a ``SolverError`` otherwise, also when
    there is none, as in Kuhn and Bluff, where this is full-width CFR)."""
    tree, table = game.tree(), node_table(game)
    parent, player = tree.parent, tree.player
    decided = np.zeros(tree.num_nodes, dtype=bool)        # a decision above the node
    event = np.full(tree.num_nodes, -1, dtype=np.intp)    # the public outcome above it (name id)
    names: dict[str, int] = {}
    public = np.zeros(tree.num_nodes, dtype=bool)         # a chance node after a decision
    for d in range(1, len(tree.level_offsets) - 1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        up = parent[nodes]
        decided[nodes] = decided[up] | (player[up] == 0) | (player[up] == 1)
        public[nodes] = decided[nodes] & (player[nodes] == CHANCE)
        event[nodes] = event[up]
        for n, p in zip(nodes[public[up]].tolist(), up[public[up]].tolist()):
            if event[p] >= 0:
                raise SolverError(f"{game.name} has two chance events after decisions on one path; "
                                  "public chance sampling here samples one (Leduc's board card)")
            label = table.label_lists[table.labels[p]][tree.action[n]]
            event[n] = names.setdefault(label, len(names))
    if not names:
        raise SolverError(f"{game.name} has no chance event after a decision, nothing public to sample: "
                          "use CFR (public chance sampling takes games like Leduc, with a public board)")
    decision = np.flatnonzero(tree.infoset >= 0)
    low = np.full(tree.num_infosets, len(names))
    high = np.full(tree.num_infosets, -1)
    np.minimum.at(low, tree.infoset[decision], event[decision])
    np.maximum.at(high, tree.infoset[decision], event[decision])
    if (mixed := np.flatnonzero(low != high)).size:
        I = int(mixed[0])
        raise SolverError(f"{game.name}: a chance event after a decision is not public (player "
                          f"{tree.infoset_player[I]}'s infoset {tree.infoset_keys[I]!r} does not see it)")
    edge = np.flatnonzero(public[parent] & (parent >= 0))
    mass = np.bincount(event[edge], weights=tree.chance_reach[edge], minlength=len(names))
    rho = mass / mass.sum()
    return list(names), rho, [_subtree(tree, event, public, b, rho[b]) for b in range(len(names))]


def _subtree(tree: Tree, event: NDArray[np.intp], public: NDArray[np.bool_], b: int,
             rho: float) -> PublicSubtree:
    keep = np.flatnonzero((event == -1) | (event == b))
    position = np.full(tree.num_nodes, -1, dtype=np.intp)
    position[keep] = np.arange(len(keep))
    up = tree.parent[keep]
    parent = np.where(up >= 0, position[np.maximum(up, 0)], -1)
    moved_by = np.where(up >= 0, tree.player[np.maximum(up, 0)], CHANCE)
    mover = np.where(moved_by == CHANCE, 2, moved_by).astype(np.intp)
    chance = tree.chance_prob[keep] / np.where(public[np.maximum(up, 0)] & (up >= 0), rho, 1.0)
    slot = np.where(mover < 2, tree.infoset[np.maximum(up, 0)] * tree.max_actions + tree.action[keep], 0)
    depth = tree.depth[keep]
    levels = np.searchsorted(depth, np.arange(depth.max() + 2)).tolist()
    return PublicSubtree(parent, mover, chance, slot.astype(np.intp), tree.player[keep] == TERMINAL,
                         tree.payoff[keep], levels,
                         (np.flatnonzero(mover == 0), np.flatnonzero(mover == 1)))


class PublicChanceSamplingCFR(Solver):
    """CFR that samples the public chance events only (Leduc's board card, drawn with
    probability ``rho(b)``) and walks the histories consistent with the draw for every private
    deal at once: numpy vectors over the private hands (and the public nodes of a level), one
    pass per level down for the reaches and one up for the values.

    The pass for player ``i`` adds, at every ``h`` it walks, ``R(I, a) += pi_{-i}(h) (u_i(ha) -
    u_i(h))`` and ``S(I, a) += pi_c(h) pi_i(h) sigma(I, a)`` (as ``ChanceSamplingCFR``, the
    chance factor is a constant of ``I`` that normalisation removes), where ``pi_c`` takes the
    public outcome's probability ``P(b | h)`` over ``rho(b)``: the expected update is
    full-width CFR's, exactly. With ``alternating=True`` an iteration is a pass (and a draw) for
    player 0, then one for player 1, which sees player 0's new strategy; with ``False`` one pass
    updates both. Regret matching. ``nodes_touched`` counts the histories of each pass.

    Games: two-player, with chance before any decision private and chance after a decision
    public, one public event a path (Leduc and its variants); see :func:`public_subtrees`.
    ``seed`` seeds the ``numpy.random.Generator`` ``rng``; options by keyword.
    """

    name = "public chance sampling CFR"
    sampled = True

    def __init__(self, game: Game, *positional: object, seed: int = 0, alternating: bool = True) -> None:
        if positional:
            raise SolverError(f"PublicChanceSamplingCFR takes its options by keyword only, got {positional!r}")
        self.alternating = check_flag(alternating, "alternating")
        super().__init__(game)
        self.seed = check_seed(seed)
        self.rng = np.random.default_rng(self.seed)
        self.outcomes, self.rho, self.subtrees = public_subtrees(game)
        tree = self.tree = game.tree()
        self.mask = tree.action_mask.astype(float)
        self.regret = np.zeros(self.mask.shape)
        self.strategy_sum = np.zeros(self.mask.shape)
        self.sigma = tree.uniform()
        self.rule = RegretMatching()

    def _iteration(self) -> None:
        for updating in ((0,), (1,)) if self.alternating else ((0, 1),):
            self._pass(updating, int(self.rng.choice(len(self.rho), p=self.rho)))

    def _pass(self, updating: tuple[int, ...], b: int) -> None:
        """One pass over public outcome ``b``'s histories, updating the players ``updating``."""
        s = self.subtrees[b]
        edge = np.where(s.mover == 2, s.chance, self.sigma.ravel()[s.slot])
        reach = np.ones((3, len(s.parent)))                 # pi_0, pi_1, pi_c
        for start, end in zip(s.levels[1:-1], s.levels[2:]):
            up = s.parent[start:end]
            reach[:, start:end] = reach[:, up]
            reach[s.mover[start:end], np.arange(start, end)] *= edge[start:end]
        value = np.where(s.terminal, s.payoff, 0.0)          # u_0(h)
        for top, start, end in zip(s.levels[-3::-1], s.levels[-2:0:-1], s.levels[-1:1:-1]):
            sums = np.bincount(s.parent[start:end] - top, weights=edge[start:end] * value[start:end],
                               minlength=start - top)
            value[top:start] = np.where(s.terminal[top:start], value[top:start], sums)
        width = self.regret.size
        for i in updating:
            children = s.edges[i]
            h = s.parent[children]
            gain = reach[1 - i, h] * reach[2, h] * (value[children] - value[h]) * (1.0 if i == 0 else -1.0)
            r = np.asarray(np.bincount(s.slot[children], weights=gain, minlength=width),
                           dtype=float).reshape(self.regret.shape)
            self.strategy_sum += np.bincount(s.slot[children], weights=reach[2, h] * reach[i, h] * edge[children],
                                             minlength=width).reshape(self.regret.shape)
            self.rule.update(self.regret, r, self.iterations + 1)
            self.sigma = self.rule.strategy(self.regret, r, self.iterations + 1, self.mask)
        self.nodes_touched += len(s.parent)

    def average_strategy(self) -> Strategy:
        """``sigma-bar(I, a) = S(I, a) / sum_b S(I, b)`` (uniform where ``S`` is still zero)."""
        return Strategy(self.game, _normalise(self.strategy_sum, self.tree.action_mask))

    def current_strategy(self) -> Strategy:
        return Strategy(self.game, self.sigma)

    def _params(self) -> dict[str, Any]:
        return {"seed": self.seed, "alternating": self.alternating}

    def _arrays(self) -> dict[str, NDArray[Any]]:
        return {"regret": self.regret.copy(), "strategy_sum": self.strategy_sum.copy()}

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        if arrays["regret"].shape != self.regret.shape or arrays["strategy_sum"].shape != self.regret.shape:
            raise SolverError(f"saved tables have shape {arrays['regret'].shape}, expected "
                              f"{self.regret.shape} for {self.game.name}")
        self.regret[:], self.strategy_sum[:] = arrays["regret"], arrays["strategy_sum"]
        self.sigma = self.rule.strategy(self.regret, self.regret, self.iterations, self.mask)
