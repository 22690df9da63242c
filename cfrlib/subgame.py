"""Subgame solving: re-solve parts of a game against a blueprint strategy, unsafely or safely.

A *blueprint* ``sigma`` is a strategy for the whole game, usually an approximate one. A
*subgame* ``S`` is a set of root histories, closed under both players' information: every
infoset with a history at or below a root has all its histories there (in Leduc, a second
round: the round-1 betting and the board card fixed, the private cards free). Re-solving ``S``
replaces ``sigma`` below the roots by the solution of a small game built from ``S``, and keeps
``sigma`` everywhere else. Four ways of building that game (``METHODS``):

* ``"unsafe"``: chance deals a root ``h`` with probability ``pi^sigma(h) / sum_h' pi^sigma(h')``
  (both players follow the blueprint to get there) and the subgame is played from ``h``. Both
  players' strategies come from its solution. The beliefs assume the opponent keeps to the
  blueprint, so the result can be *more* exploitable than ``sigma`` (Coin Toss).

The three safe methods refine one player ``i`` at a time against an opponent ``o = 1 - i`` who
may leave. Write ``pi_{-o}(h)`` for the reach of ``h`` by chance and ``i`` (the opponent's own
actions left out), group the roots into the opponent's infosets ``g`` at the root (histories
that share an opponent infoset below them; roots the opponent cannot tell apart and never acts
below stay apart, which only adds constraints), ``w(g) = sum_{h in g} pi_{-o}(h)``, and
``CBV(g) = sum_{h in g} pi_{-o}(h) * E[u_o | h, BR_o(sigma_i), sigma_i]`` the opponent's
counterfactual best-response value against the blueprint. A new strategy ``sigma'_i`` in ``S``
is safe when no ``CBV'(g)`` exceeds what the opponent could already get:

* ``"resolve"`` (Burch, Johanson and Bowling 2014, the CFR-D gadget): chance deals ``h`` with
  probability ``pi_{-o}(h) / sum pi_{-o}``; the opponent, knowing only ``g``, either
  *terminates* for ``CBV(g) / w(g)`` or *follows* into ``h``. Any equilibrium has
  ``CBV'(g) <= CBV(g)`` for every ``g``.
* ``"maxmargin"`` (Moravcik, Schmid, Ha, Hladik and Gaukrodger 2016): the opponent picks ``g``,
  chance deals ``h`` in ``g`` with probability ``pi_{-o}(h) / w(g)``, and every payoff of the
  opponent below ``g`` is lowered by ``CBV(g) / w(g)``. Player ``i`` maximises the smallest
  margin ``M(g) = (CBV(g) - CBV'(g)) / w(g)``; the blueprint has every margin 0, so the
  solution's are all ``>= 0``.
* ``"reach"`` (Brown and Sandholm 2017, reach-maxmargin): as maxmargin, with every margin raised
  by the *gifts* the opponent left on the way to ``g``. A gift of the opponent's sequence
  ``(J, b)`` is ``G(J, b) = CBV(J) - CBV(J, b) >= 0``, what playing ``b`` at ``J`` costs against
  the blueprint; ``g`` may give back its share ``w(g) / W(J, b)`` of each gift on its path
  (``W(J, b)`` sums ``w`` over every re-solved ``g`` below ``(J, b)``, in all subgames), so
  ``CBV'(g) <= CBV(g) + B(g)`` with ``B(g) = sum_{(J, b) above g} w(g) / W(J, b) * G(J, b)``.
  Summed up the opponent's tree, these bounds never let ``CBV'(J) > CBV(J)``: the re-solved
  strategy is safe even with every subgame re-solved at once (one subgame alone may use the
  whole gifts, as in play, where only the subgame reached is solved).

A player's exploitability term ``max u_o(BR, sigma_i)`` is the sum of ``CBV`` over the
opponent's infosets, so each safe method gives a combined strategy no more exploitable than the
blueprint (up to the gadget solver's accuracy; the LP is exact). :class:`SubgameSolver` builds
the gadgets as :class:`~cfrlib.games.ExplicitGame` objects, solves them with the sequence-form
LP (:func:`cfrlib.solve_lp`) or CFR+, and combines the results with the blueprint.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from .abstraction import abstract_game, lift_strategy, rank_buckets
from .checks import check_iterations
from .errors import SubgameError
from .evaluation import best_response, best_response_value, exploitability
from .game import CHANCE, TERMINAL, Game
from .games.explicit import ExplicitGame, Node
from .sequence_form import realization_plan, sequence_form
from .solvers import CFRPlus
from .strategy import Strategy, StrategyLike, as_strategy
from .tree import Tree

if TYPE_CHECKING:
    from .games.leduc import Leduc

__all__ = ["METHODS", "Subgame", "SubgameSolver", "subgames", "chance_subgames", "subgames_after",
           "public_states", "resolve_subgames", "blueprint_study", "estimate_study"]

METHODS = ("unsafe", "resolve", "maxmargin", "reach")
"""The re-solving methods, unsafe first (see the module docstring)."""


@dataclass(frozen=True, eq=False)
class Subgame:
    """A closed set of root histories of ``game``: ``roots`` are node numbers of ``game.tree()``,
    ``histories`` their action names, ``nodes`` every node at or below a root, ``label`` the
    public part of the histories (``?`` where the roots differ)."""

    game: Game
    roots: tuple[int, ...]
    histories: tuple[tuple[str, ...], ...]
    nodes: NDArray[np.intp]
    label: str

    def __repr__(self) -> str:
        return f"Subgame({self.label!r}, {len(self.roots)} roots, {len(self.nodes)} nodes)"


def subgames(game: Game, histories: Iterable[Sequence[str]]) -> list[Subgame]:
    """The subgames rooted at ``histories`` (each a sequence of action and chance-outcome names):
    roots joined by an infoset of either player below them form one subgame.

    Raises :class:`~cfrlib.errors.SubgameError` for a history the game does not have, a terminal
    or repeated root, a root below another, and roots whose subgame is not closed (an infoset
    with histories both inside and outside it).
    """
    tree = game.tree()
    roots = [_node_of(game, tree, tuple(h)) for h in histories]
    if not roots:
        raise SubgameError(f"no subgame roots given for {game.name}")
    if len(set(roots)) < len(roots):
        raise SubgameError(f"{game.name}: a subgame root is given twice")
    return _partition(game, tree, roots)


def chance_subgames(game: Game, before_chance: bool = False) -> list[Subgame]:
    """The subgames that start where chance acts for the first time after a player has (the
    second betting round of Leduc, after the board card): the children of those chance nodes,
    grouped by :func:`subgames`'s rule. With ``before_chance=True`` the roots are those chance
    nodes themselves (Leduc: 5 subgames, one per first-round line that ends in a call; the depth
    limit of :mod:`cfrlib.depth_limited`)."""
    tree = game.tree()
    acted = np.zeros(tree.num_nodes, dtype=bool)  # a player acted on the path to the node
    inside = np.zeros(tree.num_nodes, dtype=bool)  # at or below a root already chosen
    first = np.zeros(tree.num_nodes, dtype=bool)
    for d in range(1, tree.depth_max + 1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        par = tree.parent[nodes]
        first[nodes] = (tree.player[par] == CHANCE) & acted[par] & ~inside[par]
        inside[nodes] = inside[par] | first[nodes]
        acted[nodes] = acted[par] | (tree.player[par] >= 0)
    roots = (np.unique(tree.parent[first]) if before_chance else np.flatnonzero(first)).tolist()
    if not roots:
        raise SubgameError(f"{game.name} has no chance node after a player's action")
    return _partition(game, tree, roots)


def subgames_after(game: Game, actions: Collection[str]) -> list[Subgame]:
    """The subgames rooted right after any of ``actions`` (names of players' actions), the
    shallowest only (a root with such an action above it belongs to the subgame above), grouped by
    :func:`subgames`'s rule: where an off-tree action was taken (nested solving)."""
    tree, names = game.tree(), set(actions)
    taken = np.zeros(tree.num_nodes, dtype=bool)  # the edge into the node is one of `actions`
    above = np.zeros(tree.num_nodes, dtype=bool)  # one of them was taken on the path to the node
    for d in range(1, tree.depth_max + 1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        par = tree.parent[nodes]
        taken[nodes] = [tree.player[p] >= 0 and tree.infoset_actions[tree.infoset[p]][a] in names
                        for p, a in zip(par.tolist(), tree.action[nodes].tolist())]
        above[nodes] = above[par] | taken[par]
    roots = np.flatnonzero(taken & ~above).tolist()
    if not roots:
        raise SubgameError(f"{game.name} has no history with an action among {sorted(names)}")
    return _partition(game, tree, roots)


def public_states(game: Game, player: int) -> list[Subgame]:
    """The subgames rooted where ``player`` acts, one for each public state (in Leduc: the
    betting so far and the board, the private cards free), shallowest first: at each depth, the
    decision nodes of ``player`` grouped by :func:`subgames`'s rule. These are the points where
    a continual re-solver (:mod:`cfrlib.depth_limited`) re-solves. Raises
    :class:`~cfrlib.errors.SubgameError` when the groups of one depth are not closed (an infoset
    with histories at several depths)."""
    if player not in (0, 1):
        raise SubgameError(f"player must be 0 or 1, got {player!r}")
    tree, out = game.tree(), []
    for d in range(tree.depth_max + 1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        roots = nodes[tree.player[nodes] == player].tolist()
        if roots:
            out.extend(_partition(game, tree, roots))
    return out


def resolve_subgames(game: Game, blueprint: StrategyLike, parts: Sequence[Subgame], method: str,
                     iterations: int | None = None) -> Strategy:
    """The blueprint with every subgame of ``parts`` re-solved by ``method`` (one of
    :data:`METHODS`); ``iterations=None`` solves the gadgets exactly by LP, an integer by that
    many CFR+ iterations. A shorthand for ``SubgameSolver(game, blueprint, parts).solve(...)``."""
    return SubgameSolver(game, blueprint, parts).solve(method, iterations)


class SubgameSolver:
    """Re-solves the subgames ``parts`` of ``game`` against ``blueprint`` (module docstring).

    The opponent's counterfactual best-response values and gifts against the blueprint are
    computed once, when a gadget first needs them; :meth:`gadget` builds the game solved for one
    subgame, method and refined player, :meth:`solve` combines all of them with the blueprint
    (each gadget solved once, then kept) and :meth:`exploitabilities` measures the results
    exactly.

    ``values`` (default: the blueprint) is the strategy whose opponent best-response values ``CBV``
    and gifts the safe gadgets use. A strategy of an abstraction of ``game``
    (:func:`cfrlib.abstraction.abstract_game`, the same histories) gives *estimated* values, as a
    program computes them: the opponent best responds within the abstraction, to the abstract
    blueprint (whose lift, :func:`cfrlib.abstraction.lift_strategy`, is then the ``blueprint``).
    The guarantees of the module docstring hold for the exact values only.
    """

    def __init__(self, game: Game, blueprint: StrategyLike, parts: Sequence[Subgame],
                 values: Strategy | None = None) -> None:
        self.game, self.tree = game, game.tree()
        self.blueprint = as_strategy(game, blueprint)
        self.values = self.blueprint if values is None else values
        if not isinstance(self.values, Strategy) or not _same_nodes(self.values.game.tree(), self.tree):
            raise SubgameError(f"values must be a strategy of {game.name} or of an abstraction of it "
                               f"(the same histories), got {values!r}")
        self.parts = list(parts)
        if not self.parts:
            raise SubgameError("no subgames to re-solve")
        for part in self.parts:
            if not isinstance(part, Subgame) or part.game.tree() is not self.tree:
                raise SubgameError(f"{part!r} is not a subgame of {game.name} (make it with "
                                   "cfrlib.subgame.subgames(game, ...) for this game)")
        covered = np.concatenate([part.nodes for part in self.parts])
        if len(np.unique(covered)) < len(covered):
            raise SubgameError(f"the subgames of {game.name} overlap")
        tree, probs = self.tree, self.blueprint.probs
        self.reach = _reaches(tree, probs)  # rows: player 0, player 1; chance is tree.chance_reach
        # the opponent o's tables, computed when a gadget first needs them (the unsafe one needs none)
        self._cbv_of: dict[int, NDArray[np.float64]] = {}
        self._groups_of: dict[int, list[list[NDArray[np.intp]]]] = {}
        self._budgets_of: dict[int, list[NDArray[np.float64]]] = {}
        # each gadget's solution, by (subgame, method, refined player, iterations): None if unreached
        self._solutions: dict[tuple[int, str, int | None, int | None], Strategy | None] = {}

    def _cbv(self, o: int) -> NDArray[np.float64]:
        """The opponent's counterfactual best-response value at every node."""
        if o not in self._cbv_of:
            game, probs = self.values.game, self.values.probs
            self._cbv_of[o] = _best_response_node_values(game, game.tree(), probs, o,
                                                         _reaches(game.tree(), probs)[1 - o])
        return self._cbv_of[o]

    def _groups(self, o: int) -> list[list[NDArray[np.intp]]]:
        """Each subgame's roots grouped into the opponent's root infosets."""
        if o not in self._groups_of:
            self._groups_of[o] = [_opponent_groups(self.tree, part, o) for part in self.parts]
        return self._groups_of[o]

    def _budgets(self, o: int) -> list[NDArray[np.float64]]:
        if o not in self._budgets_of:
            self._budgets_of[o] = self._gift_budgets(o)
        return self._budgets_of[o]

    # ----------------------------------------------------------------- values at the roots
    def counterfactual_reach(self, opponent: int) -> NDArray[np.float64]:
        """``pi_{-o}(h)`` of every node: chance times the other player's blueprint reach."""
        return self.tree.chance_reach * self.reach[1 - opponent]

    def alternatives(self, part: Subgame, method: str, opponent: int) -> dict[str, float]:
        """The opponent's value per unit of reach at each root infoset ``g`` of ``part`` that the
        gadget of ``method`` protects: ``CBV(g) / w(g)`` (``resolve``, ``maxmargin``) or
        ``(CBV(g) + B(g)) / w(g)`` (``reach``), keyed by the gadget's name of ``g``."""
        _check_method(method, safe=True)
        return {name: alt for name, _, alt in self._root_infosets(part, method, opponent)}

    def _root_infosets(self, part: Subgame, method: str, o: int) -> list[tuple[str, NDArray[np.intp], float]]:
        """``(name, roots with pi_{-o} > 0, alternative)`` per opponent root infoset of weight > 0."""
        k = self.parts.index(part)
        w_h = self.counterfactual_reach(o)
        out: list[tuple[str, NDArray[np.intp], float]] = []
        cbv = self._cbv(o)
        for j, roots in enumerate(self._groups(o)[k]):
            w = w_h[roots].sum()
            if w <= 0:
                continue
            extra = self._budgets(o)[k][j] if method == "reach" else 0.0
            name = self._group_name(roots[0], o)
            out.append((f"{name} #{j}" if any(name == n for n, _, _ in out) else name,
                        roots[w_h[roots] > 0], float((cbv[roots].sum() + extra) / w)))
        return out

    def _group_name(self, root: int, o: int) -> str:
        seq = int(self.tree.node_sequences()[o][root])
        if seq == self.tree.empty_sequence:
            return "start"
        I, a = divmod(seq, self.tree.max_actions)
        return f"{self.tree.infoset_keys[I]} {self.tree.infoset_actions[I][a]}"

    def _gift_budgets(self, o: int) -> list[NDArray[np.float64]]:
        """``B(g)`` per root infoset of each subgame (see ``"reach"`` in the module docstring)."""
        tree = self.tree
        q = _action_sums(tree, o, self._cbv(o))  # CBV(J, b)
        best = np.where(tree.action_mask, q, -np.inf).max(axis=1, keepdims=True)  # CBV(J)
        gift = np.zeros(tree.num_sequences + 1)
        mine = ((tree.infoset_player == o)[:, None] & tree.action_mask).ravel()
        gift[:-1][mine] = (best - q).ravel()[mine]
        w_h = self.counterfactual_reach(o)
        groups_o = self._groups(o)
        last = tree.node_sequences()[o]
        chains = [[self._chain(int(last[g[0]])) for g in groups] for groups in groups_o]
        weights = [[float(w_h[g].sum()) for g in groups] for groups in groups_o]
        total = np.zeros(tree.num_sequences + 1)
        for chain_k, w_k in zip(chains, weights):
            for chain, w in zip(chain_k, w_k):
                total[chain] += w
        return [np.array([sum(w / total[s] * gift[s] for s in chain if total[s] > 0)
                          for chain, w in zip(chain_k, w_k)]) for chain_k, w_k in zip(chains, weights)]

    def _chain(self, seq: int) -> list[int]:
        """The opponent's sequences from ``seq`` up to (not including) the empty sequence."""
        chain = []
        while seq != self.tree.empty_sequence:
            chain.append(seq)
            seq = int(self.tree.infoset_parent_seq[seq // self.tree.max_actions])
        return chain

    # ---------------------------------------------------------------------------- gadgets
    # Shown in the book: chapter 14.
    def gadget(self, part: Subgame, method: str,
               player: int = 0) -> ExplicitGame:
        """The game whose equilibrium gives ``player``'s re-solved strategy in
        ``part`` (both players' for ``"unsafe"``, where ``player`` is ignored);
        the subgame's infosets keep their keys, the opponent's gadget infosets
        are named ``<...>``. A subgame that the beliefs never reach has no
        gadget: :class:`~cfrlib.errors.SubgameError` (:meth:`solve` keeps the
        blueprint there)."""
        _check_method(method)
        if player not in (0, 1):
            raise SubgameError(f"player must be 0 or 1, got {player!r}")
        tree, out = self.tree, _Builder(self.tree)
        o = 1 - player
        if method == "unsafe":
            w = tree.chance_reach * self.reach[0] * self.reach[1]
            roots = np.array([h for h in part.roots if w[h] > 0], dtype=np.intp)
            if not len(roots):
                raise SubgameError(
                    f"{part.label}: the blueprint never reaches this subgame")
            top = out.reserve()
            kids = [out.copy(int(h), 0.0) for h in roots]
            out.set(top, Node(CHANCE, None, self._names(part, roots),
                              tuple(kids), tuple(w[roots] / w[roots].sum())))
            return out.game(f"{self.game.name} {part.label}, unsafe")
        infosets = self._root_infosets(part, method, o)
        if not infosets:
            raise SubgameError(
                f"{part.label}: chance and player {player} never reach this "
                "subgame (the opponent's counterfactual reach is 0)")
        w_h = self.counterfactual_reach(o)
        # the opponent's payoff moves player 0's by sign * amount
        sign = 1.0 if o == 0 else -1.0
        top = out.reserve()
        if method == "resolve":
            roots = np.concatenate([r for _, r, _ in infosets])
            kids = []
            for name, group, alt in infosets:
                for h in group:
                    node = out.reserve()
                    stop = out.terminal(alt if o == 0
                                        else tree.constant_sum - alt)
                    out.set(node, Node(o, f"<{name}>", ("terminate", "follow"),
                                       (stop, out.copy(int(h), 0.0))))
                    kids.append(node)
            probs = tuple(w_h[roots] / w_h[roots].sum())
            out.set(top, Node(CHANCE, None, self._names(part, roots),
                              tuple(kids), probs))
        else:  # maxmargin, reach: the opponent picks g, payoffs move by -alt(g)
            kids = []
            for name, group, alt in infosets:
                node = out.reserve()
                below = tuple(out.copy(int(h), -sign * alt) for h in group)
                probs = tuple(w_h[group] / w_h[group].sum())
                out.set(node, Node(CHANCE, None, self._names(part, group),
                                   below, probs))
                kids.append(node)
            names = tuple(name for name, _, _ in infosets)
            out.set(top, Node(o, "<root>", names, tuple(kids)))
        return out.game(
            f"{self.game.name} {part.label}, {method} for player {player}")

    def _names(self, part: Subgame, roots: NDArray[np.intp]) -> tuple[str, ...]:
        where = {h: " ".join(hist) for h, hist in zip(part.roots, part.histories)}
        return tuple(where[int(h)] for h in roots)

    # ---------------------------------------------------------------------------- solving
    def solve(self, method: str, iterations: int | None = None,
              players: Sequence[int] = (0, 1)) -> Strategy:
        """The blueprint with every subgame re-solved by ``method``: the gadgets solved by the LP
        (``iterations=None``, exact) or by ``iterations`` CFR+ iterations (average strategy).
        A safe method refines the strategies of ``players`` only (one gadget each); ``"unsafe"``
        always replaces both. Subgames the beliefs never reach keep the blueprint."""
        _check_method(method)
        if iterations is not None:
            check_iterations(iterations)
        if not players or any(p not in (0, 1) for p in players):
            raise SubgameError(f"players must be some of 0 and 1, got {players!r}")
        probs = self.blueprint.to_array()
        for k, part in enumerate(self.parts):
            for player in (tuple(players) if method != "unsafe" else (None,)):
                solution = self._solution(k, method, player, iterations)
                if solution is not None:  # None: unreached, the blueprint stays
                    self._copy_back(part, solution, probs, player)
        return Strategy(self.game, probs)

    def _solution(self, k: int, method: str, player: int | None,
                  iterations: int | None) -> Strategy | None:
        """The solution of the gadget of subgame ``k`` for ``method`` refining ``player``, solved on
        first use and kept (the gadget depends on nothing else); None if the beliefs never reach it."""
        key = (k, method, player, iterations)
        if key not in self._solutions:
            try:
                game = self.gadget(self.parts[k], method, player if player is not None else 0)
            except SubgameError:
                self._solutions[key] = None
            else:
                self._solutions[key] = _solve(game, iterations)
        return self._solutions[key]

    def _copy_back(self, part: Subgame, solution: Strategy, probs: NDArray[np.float64],
                   player: int | None) -> None:
        """Copy the solution's rows of the subgame's infosets (``player``'s, or both) into ``probs``."""
        tree, sub = self.tree, solution.tree
        infosets = np.unique(tree.infoset[part.nodes][tree.infoset[part.nodes] >= 0])
        for I in infosets:
            p, key = int(tree.infoset_player[I]), tree.infoset_keys[I]
            if (player is None or p == player) and sub.has_infoset(p, key):
                n = int(tree.infoset_num_actions[I])
                probs[I, :n] = solution.probs[sub.infoset_index(p, key), :n]

    def exploitabilities(self, iterations: int | None = None) -> dict[str, float]:
        """``{"blueprint": e(sigma), method: e(sigma') for each of METHODS}``, exact
        (:func:`cfrlib.exploitability`)."""
        out = {"blueprint": exploitability(self.game, self.blueprint)}
        for method in METHODS:
            out[method] = exploitability(self.game, self.solve(method, iterations))
        return out


# ------------------------------------------------------------------------------ helpers
def _check_method(method: object, safe: bool = False) -> None:
    allowed = METHODS[1:] if safe else METHODS
    if method not in allowed:
        raise SubgameError(f"method must be one of {list(allowed)}, got {method!r}")


def _solve(game: Game, iterations: int | None) -> Strategy:
    if iterations is None:
        from .lp import solve_lp  # scipy, loaded on first use

        return solve_lp(game).strategy
    return CFRPlus(game).iterate(iterations).average_strategy()


class _Builder:
    """Appends :class:`Node` objects (a parent before its children) for an :class:`ExplicitGame`."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.nodes: list[Node | None] = []

    def reserve(self) -> int:
        self.nodes.append(None)
        return len(self.nodes) - 1

    def set(self, i: int, node: Node) -> None:
        self.nodes[i] = node

    def terminal(self, u0: float) -> int:
        i = self.reserve()
        self.nodes[i] = Node(TERMINAL, payoffs=(u0, self.tree.constant_sum - u0))
        return i

    def copy(self, n: int, shift: float, leaf: Callable[[int], int | None] | None = None) -> int:
        """Copy node ``n`` and everything below it, with player 0's payoffs moved by ``shift``;
        where ``leaf(m)`` returns a node of the copy, that node stands for ``m`` and its subtree."""
        t = self.tree
        if leaf is not None and (stand_in := leaf(n)) is not None:
            return stand_in
        if t.player[n] == TERMINAL:
            return self.terminal(float(t.payoff[n]) + shift)
        i = self.reserve()
        kids = range(int(t.first_child[n]), int(t.first_child[n] + t.num_children[n]))
        children = tuple(self.copy(k, shift, leaf) for k in kids)
        if t.player[n] == CHANCE:
            self.nodes[i] = Node(CHANCE, None, tuple(str(k) for k in range(len(children))),
                                 children, tuple(float(t.chance_prob[k]) for k in kids))
        else:
            I = int(t.infoset[n])
            self.nodes[i] = Node(int(t.player[n]), t.infoset_keys[I], t.infoset_actions[I], children)
        return i

    def game(self, name: str) -> ExplicitGame:
        return ExplicitGame(cast(list[Node], self.nodes), name=name)  # every reserved node is set


def _reaches(tree: Tree, probs: NDArray[np.float64]) -> NDArray[np.float64]:
    """``pi_i(h)`` for both players (rows 0 and 1): the product of player ``i``'s own action
    probabilities on the path to ``h``, which is player ``i``'s realization plan at their last
    sequence before ``h`` (the same products in the same order)."""
    form, seqs = sequence_form(tree), tree.node_sequences()
    reach = np.empty((2, tree.num_nodes))
    for p, block in enumerate(form.players):
        reach[p] = realization_plan(block, block.rows_of(probs))[block.block_of_tree[seqs[p]]]
    return reach


def _best_response_node_values(game: Game, tree: Tree, probs: NDArray[np.float64], o: int,
                               other_reach: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sum_{z below h} pi_{-o}(z) * pi_o^{BR}(h -> z) * u_o(z)`` at every node ``h``: the
    counterfactual value of ``h`` for ``o`` best responding to the blueprint."""
    br = best_response(game, probs, o).strategy.probs
    value = np.zeros(tree.num_nodes)
    z = tree.terminal_node
    u_o = tree.terminal_payoff if o == 0 else tree.constant_sum - tree.terminal_payoff
    value[z] = tree.chance_reach[z] * other_reach[z] * u_o
    for d in range(tree.depth_max, 0, -1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        par = tree.parent[nodes]
        mine = tree.player[par] == o
        weight = np.where(mine, br[np.maximum(tree.infoset[par], 0), np.where(mine, tree.action[nodes], 0)], 1.0)
        np.add.at(value, par, weight * value[nodes])
    return value


def _action_sums(tree: Tree, player: int, values: NDArray[np.float64]) -> NDArray[np.float64]:
    """``Q(I, a) = sum_{h in I} values(ha)`` for every infoset ``I`` of ``player`` (a
    ``num_infosets x max_actions`` array, zero elsewhere)."""
    nodes = np.flatnonzero(tree.player == player)
    legal = tree.action_mask[tree.infoset[nodes]]
    kids = np.where(legal, tree.first_child[nodes][:, None] + np.arange(tree.max_actions), 0)
    out = np.zeros(tree.action_mask.shape)
    np.add.at(out, tree.infoset[nodes], np.where(legal, values[kids], 0.0))
    return out


def _same_nodes(a: Tree, b: Tree) -> bool:
    """Whether two trees have the same nodes in the same order (a game and its abstractions do)."""
    return a is b or (a.num_nodes == b.num_nodes and np.array_equal(a.parent, b.parent)
                      and np.array_equal(a.action, b.action) and np.array_equal(a.player, b.player))


def _root_of(tree: Tree, roots: Sequence[int]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Every node at or below ``roots`` and the position in ``roots`` of the root above each."""
    nodes, owner = [np.asarray(roots, dtype=np.intp)], [np.arange(len(roots))]
    while len(nodes[-1]):
        last, who = nodes[-1], owner[-1]
        counts = tree.num_children[last]
        kids = np.repeat(tree.first_child[last] - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        nodes.append(kids.astype(np.intp))
        owner.append(np.repeat(who, counts))
    return np.concatenate(nodes), np.concatenate(owner)


def _union(parent: list[int], a: int, b: int) -> None:
    while parent[a] != a:
        a = parent[a]
    while parent[b] != b:
        b = parent[b]
    parent[max(a, b)] = min(a, b)


def _find(parent: list[int], a: int) -> int:
    while parent[a] != a:
        a = parent[a]
    return a


def _join_by_infosets(tree: Tree, roots: Sequence[int], players: Sequence[int]) -> list[list[int]]:
    """Positions in ``roots``, grouped: two roots with an infoset of one of ``players`` below both
    share a group (union-find over the infosets)."""
    nodes, owner = _root_of(tree, roots)
    parent = list(range(len(roots)))
    decision = np.isin(tree.player[nodes], players)
    first: dict[int, int] = {}
    for I, k in zip(tree.infoset[nodes[decision]].tolist(), owner[decision].tolist()):
        _union(parent, first.setdefault(I, k), k)
    groups: dict[int, list[int]] = {}
    for k in range(len(roots)):
        groups.setdefault(_find(parent, k), []).append(k)
    return list(groups.values())


def _opponent_groups(tree: Tree, part: Subgame, o: int) -> list[NDArray[np.intp]]:
    """The roots of ``part`` grouped into the opponent ``o``'s infosets at the root."""
    roots = np.array(part.roots, dtype=np.intp)
    return [roots[g] for g in _join_by_infosets(tree, part.roots, (o,))]


def _partition(game: Game, tree: Tree, roots: list[int]) -> list[Subgame]:
    """Roots grouped into closed subgames, checked (see :func:`subgames`)."""
    for h in roots:
        if tree.player[h] == TERMINAL:
            raise SubgameError(f"{game.describe(_history(game, tree, h))} is terminal: a subgame "
                               "root must be a decision or chance node")
    nodes, owner = _root_of(tree, roots)
    if len(np.unique(nodes)) < len(nodes):
        h = next(r for r in roots if np.count_nonzero(nodes == r) > 1)
        raise SubgameError(f"{game.describe(_history(game, tree, h))}: subgame roots must not lie "
                           "below one another")
    decision = tree.infoset[nodes] >= 0
    inside = np.bincount(tree.infoset[nodes[decision]], minlength=tree.num_infosets)
    total = np.bincount(tree.infoset[tree.infoset >= 0], minlength=tree.num_infosets)
    partial = np.flatnonzero((inside > 0) & (inside < total))
    if len(partial):
        I = int(partial[0])
        raise SubgameError(f"the subgames of {game.name} are not closed: player "
                           f"{tree.infoset_player[I]}'s infoset {tree.infoset_keys[I]!r} has "
                           f"{inside[I]} of its {total[I]} histories below the roots given")
    out = []
    for group in _join_by_infosets(tree, roots, (0, 1)):
        rs = tuple(roots[k] for k in group)
        hists = tuple(_history(game, tree, h) for h in rs)
        label = " ".join(a if all(len(x) > i and x[i] == a for x in hists) else "?"
                         for i, a in enumerate(hists[0]))
        out.append(Subgame(game, rs, hists, np.sort(_root_of(tree, rs)[0]), label))
    return out


def _history(game: Game, tree: Tree, n: int) -> tuple[str, ...]:
    """The action and chance-outcome names from the root to node ``n``."""
    path = []
    while n > 0:
        path.append(int(tree.action[n]))
        n = int(tree.parent[n])
    state, names = game.initial_state(), []
    for a in reversed(path):
        name = state.legal_actions()[a]
        names.append(name)
        state = state.child(name)
    return tuple(names)


def _node_of(game: Game, tree: Tree, history: tuple[str, ...]) -> int:
    """The node reached by ``history`` from the root."""
    state, n = game.initial_state(), 0
    for i, name in enumerate(history):
        actions = state.legal_actions()
        if name not in actions:
            raise SubgameError(f"{game.describe(history[:i])} has no action {name!r}; the "
                               f"actions are {actions}")
        n = int(tree.first_child[n]) + actions.index(name)
        state = state.child(name)
    return n


def blueprint_study(game: Game, checkpoints: Sequence[int],
                    parts: Sequence[Subgame] | None = None) -> list[dict[str, float]]:
    """Re-solving against blueprints of growing quality: CFR+ on ``game``, stopped at each of
    ``checkpoints`` iterations (increasing), with every subgame of ``parts`` (default
    :func:`chance_subgames`) re-solved exactly by each method. One row per checkpoint:
    ``{"iterations": t, "blueprint": e(sigma^t), method: e(sigma'), ...}``."""
    counts = [check_iterations(t, "checkpoints") for t in checkpoints]
    if not counts or counts != sorted(set(counts)):
        raise SubgameError(f"checkpoints must be increasing iteration counts, got {list(checkpoints)!r}")
    parts = chance_subgames(game) if parts is None else parts
    solver, rows = CFRPlus(game), []
    for t in counts:
        solver.iterate(t - solver.iterations)
        found = SubgameSolver(game, solver.average_strategy(), parts).exploitabilities()
        rows.append({"iterations": float(t), **found})
    return rows


def estimate_study(game: Leduc, ks: Sequence[int], parts: Sequence[Subgame] | None = None) -> list[dict[str, object]]:
    """The safe gadgets fed with exact and with estimated values, on a Leduc ``game``. Per ``k`` of
    ``ks``: the blueprint is the LP's equilibrium of ``game`` abstracted by
    :func:`cfrlib.abstraction.rank_buckets` with ``k`` buckets, lifted to ``game``; every subgame of
    ``parts`` (default :func:`chance_subgames`) is re-solved by each safe method, once with the
    opponent's exact values against the lifted blueprint, once with the values estimated in the
    abstraction (``SubgameSolver(..., values=abstract_blueprint)``). One row per ``k``:
    ``"blueprint"``, ``"exact"`` and ``"estimated"`` (each ``{method: exploitability}``), the same
    ``... best responses`` (``{method: [br_0, br_1]}``, ``"blueprint"`` included: what each player's
    best response earns) and ``"largest underestimate"``, ``max_g (CBV(g) - CBV_est(g)) / w(g)`` over
    every root infoset of either opponent."""
    from .lp import solve_lp  # scipy, loaded on first use

    parts = chance_subgames(game) if parts is None else parts
    rows: list[dict[str, object]] = []
    for k in ks:
        buckets = rank_buckets(game, k)
        abstract = solve_lp(abstract_game(game, buckets)).strategy
        blueprint = lift_strategy(abstract, game, buckets)
        row: dict[str, object] = {"k": k, "blueprint": exploitability(game, blueprint)}
        solvers = {"exact": SubgameSolver(game, blueprint, parts),
                   "estimated": SubgameSolver(game, blueprint, parts, values=abstract)}
        for name, solver in solvers.items():
            found = {m: solver.solve(m) for m in METHODS[1:]}
            row[name] = {m: exploitability(game, s) for m, s in found.items()}
            row[f"{name} best responses"] = {m: [best_response_value(game, s, o) for o in (0, 1)]
                                             for m, s in {"blueprint": blueprint, **found}.items()}
        row["largest underestimate"] = max(
            solvers["exact"].alternatives(part, "resolve", o)[g] - value
            for part in parts for o in (0, 1)
            for g, value in solvers["estimated"].alternatives(part, "resolve", o).items())
        rows.append(row)
    return rows
