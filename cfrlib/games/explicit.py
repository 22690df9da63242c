"""Games given by an explicit tree: every history is a stored node.

The built-in games are written as rules; a game read from a file (:mod:`cfrlib.games.formats`)
is a list of nodes instead. Each :class:`Node` is a terminal (both players' payoffs), a chance
node (named outcomes with probabilities) or a decision node of player 0 or 1 (named actions and
the name of the player's information set). Node 0 is the root and every child has a larger
number than its parent, so the list is a tree that can be checked and walked without recursion.

:class:`ExplicitGame` checks the whole tree when it is built and names the offending node (by
its place in the file when the game was read from one):

* every decision node has at least one action, every chance node at least one outcome, and no
  node repeats an action name (:class:`NoActionsError`, :class:`~cfrlib.errors.GameError`);
* chance probabilities are non-negative and sum to 1 within ``1e-6`` per outcome (the rounding
  of files that write six decimals); they are then rescaled to sum to 1
  (:class:`~cfrlib.errors.ChanceProbabilityError`);
* the nodes of one information set allow the same actions, and chance nodes sharing a chance
  infoset name have the same outcomes and probabilities
  (:class:`~cfrlib.errors.InfosetMismatchError`);
* perfect recall: all nodes of an infoset of player ``i`` follow the same last own sequence
  ``(I', a')`` of ``i`` (:class:`~cfrlib.errors.ImperfectRecallError`);
* constant sum, with the rule of the Rust ``cfr`` crate: the range of ``u_0(z) + u_1(z)`` over
  the terminals ``Z`` is at most 0.1% of the range of ``u_0(z)``
  (:class:`NotConstantSumError`). The game's ``constant_sum`` is the midpoint of that range and
  player 1's utility is taken as ``constant_sum - u_0(z)``.

:func:`~cfrlib.games.explicit_from_game` turns any game into this form (for saving the built-in games).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Callable, Optional

from ..errors import (ChanceProbabilityError, GameError, ImperfectRecallError,
                      InfosetMismatchError, NotZeroSumError)
from ..game import CHANCE, TERMINAL, Game, State

PROBABILITY_TOLERANCE = 1e-6
"""Largest ``|sum of chance probabilities - 1|`` accepted, per outcome (files often round 1/3
to 0.333333)."""

CONSTANT_SUM_RATIO = 1e-3
"""The range of ``u_0 + u_1`` may be at most this fraction of the range of ``u_0``."""


class NotConstantSumError(NotZeroSumError):
    """Terminal payoffs whose sum ``u_0 + u_1`` varies by more than 0.1% of the range of ``u_0``."""


class NoActionsError(GameError):
    """A decision node without actions or a chance node without outcomes."""


@dataclass(frozen=True)
class Node:
    """One history of an explicit game tree.

    ``player`` is 0, 1, ``CHANCE`` or ``TERMINAL``. ``labels`` are the action names (or chance
    outcome names) in order and ``children`` the node numbers they lead to; ``probs`` are the
    chance probabilities; ``infoset`` is the acting player's infoset name (optional at chance
    nodes, where it marks chance nodes that share one outcome distribution); ``payoffs`` is
    ``(u_0, u_1)`` at a terminal.
    """

    player: int
    infoset: Optional[str] = None
    labels: tuple = ()
    children: tuple = ()
    probs: tuple = ()
    payoffs: tuple = ()


class ExplicitState(State):
    """A node of an :class:`ExplicitGame`, seen through the state API."""

    __slots__ = ("game", "index")

    def __init__(self, game, index):
        self.game, self.index = game, index

    @property
    def node(self) -> Node:
        return self.game.nodes[self.index]

    def current_player(self):
        return self.node.player

    def legal_actions(self):
        return list(self.node.labels)

    def chance_outcomes(self):
        node = self.node
        if node.player != CHANCE:
            raise GameError(f"{self.game.where(self.index)} is not a chance node")
        return list(zip(node.labels, node.probs))

    def child(self, action):
        node = self.node
        try:
            return ExplicitState(self.game, node.children[node.labels.index(action)])
        except ValueError:
            raise GameError(f"{self.game.where(self.index)}: no action {action!r}; "
                            f"the actions are {list(node.labels)}") from None

    def infoset_key(self):
        return self.node.infoset

    def returns(self):
        return self.node.payoffs

    def __repr__(self):
        return f"ExplicitState({self.game.where(self.index)})"


class ExplicitGame(Game):
    """A two-player constant-sum game given by its list of :class:`Node` objects (root first).

    ``locate(game, n)`` may describe node ``n`` for error messages (a file name with a line and
    column, or a JSON path); by default a node is described by the actions leading to it. With
    ``require_constant_sum=False`` a game that breaks the constant-sum rule can still be built
    and inspected (its ``not_constant_sum`` says why), but :meth:`tree`, and so every solver and
    evaluation, refuses it.
    """

    player_scoped_infosets = True  # as in game files, each player names their own infosets

    def __init__(self, nodes, name="explicit", locate: Optional[Callable] = None, *,
                 require_constant_sum=True):
        self.nodes = list(nodes)
        self.name = name
        self._locate = locate
        self.parents = _parents(self.nodes)
        self.nodes = [_checked_node(self, n, node) for n, node in enumerate(self.nodes)]
        _check_infosets(self)
        self.constant_sum, self.sum_tolerance, self.not_constant_sum = _constant_sum(self)
        if self.not_constant_sum and require_constant_sum:
            raise NotConstantSumError(self.not_constant_sum)

    def initial_state(self) -> ExplicitState:
        return ExplicitState(self, 0)

    def tree(self):
        """The compiled tree, as for every game, refused for a game that is not constant-sum."""
        if self.not_constant_sum:
            raise NotConstantSumError(self.not_constant_sum)
        return super().tree()

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    def history(self, n) -> list:
        """The action (and chance outcome) names from the root to node ``n``."""
        path = []
        while n > 0:
            parent = self.parents[n]
            node = self.nodes[parent]
            path.append(node.labels[node.children.index(n)])
            n = parent
        return path[::-1]

    def where(self, n) -> str:
        """A readable description of node ``n``: its place in the file, or its history."""
        if self._locate is not None:
            return self._locate(self, n)
        history = self.history(n)
        return "history '" + " ".join(history) + "'" if history else "the root"

    def __repr__(self):
        return f"ExplicitGame({self.name!r}, {len(self.nodes):,} nodes)"


def explicit_from_game(game) -> ExplicitGame:
    """Walk ``game`` through its state API (breadth first) into an :class:`ExplicitGame`.

    Infoset keys, action names, chance probabilities and both players' payoffs are copied, so
    the result compiles to the same tree as ``game``.
    """
    if isinstance(game, ExplicitGame):
        return game
    pending = [game.initial_state()]
    nodes = []
    while len(nodes) < len(pending):
        state = pending[len(nodes)]
        pending[len(nodes)] = None  # keep only the frontier alive
        p = state.current_player()
        if p == TERMINAL:
            nodes.append(Node(TERMINAL, payoffs=tuple(float(u) for u in state.returns())))
            continue
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            labels = tuple(name for name, _ in outcomes)
            probs = tuple(float(q) for _, q in outcomes)
            infoset = None
        else:
            labels, probs, infoset = tuple(state.legal_actions()), (), state.infoset_key()
        children = tuple(range(len(pending), len(pending) + len(labels)))
        pending.extend(state.child(a) for a in labels)
        nodes.append(Node(p, infoset, labels, children, probs))
    return ExplicitGame(nodes, name=game.name)


# --------------------------------------------------------------------------- validation
def _parents(nodes) -> list:
    """``parent[n]`` for every node, checking that the children lists form a tree rooted at 0."""
    if not nodes:
        raise GameError("an explicit game needs at least one node")
    parent = [-1] * len(nodes)
    for n, node in enumerate(nodes):
        if not isinstance(node, Node):
            raise GameError(f"node {n} is a {type(node).__name__}, not a Node")
        for c in node.children:
            if not (isinstance(c, int) and n < c < len(nodes)) or parent[c] != -1:
                raise GameError(f"node {n}: child {c!r} must be a node number after {n} that "
                                "no other node lists")
            parent[c] = n
    orphans = [n for n in range(1, len(nodes)) if parent[n] == -1]
    if orphans:
        raise GameError(f"nodes {orphans[:5]} are not children of any node")
    return parent


def _checked_node(game, n, node) -> Node:
    """``node`` after the checks that need only the node itself (probabilities rescaled)."""
    p = node.player
    if p == TERMINAL:
        if node.children or len(node.payoffs) != 2 or not all(_finite(u) for u in node.payoffs):
            raise GameError(f"{game.where(n)}: a terminal needs two finite payoffs and no "
                            f"children, got payoffs {node.payoffs!r}")
        return node
    if p not in (0, 1, CHANCE):
        raise GameError(f"{game.where(n)}: player {p!r} is not 0, 1, CHANCE or TERMINAL")
    if not node.labels:
        what = "a chance node with no outcomes" if p == CHANCE else f"player {p} has no actions"
        raise NoActionsError(f"{game.where(n)}: {what}")
    if len(node.labels) != len(node.children):
        raise GameError(f"{game.where(n)}: {len(node.labels)} action names for "
                        f"{len(node.children)} children")
    if len(set(node.labels)) != len(node.labels):
        repeated = sorted({a for a in node.labels if node.labels.count(a) > 1})
        raise GameError(f"{game.where(n)}: repeated action name(s) {repeated}")
    if p != CHANCE:
        if not isinstance(node.infoset, str):
            raise GameError(f"{game.where(n)}: player {p}'s infoset name must be a string, "
                            f"got {node.infoset!r}")
        return node
    probs = node.probs
    if len(probs) != len(node.labels) or not all(_finite(q) and q >= 0 for q in probs):
        raise ChanceProbabilityError(f"{game.where(n)}: chance probabilities {list(probs)} "
                                     f"must be {len(node.labels)} finite non-negative numbers")
    total = math.fsum(probs)
    if abs(total - 1.0) > PROBABILITY_TOLERANCE * len(probs):
        raise ChanceProbabilityError(f"{game.where(n)}: chance probabilities {list(probs)} "
                                     f"sum to {total:.9g}, not 1")
    if abs(total - 1.0) > 1e-12:  # rescale rounded probabilities; keep exact ones as given
        node = Node(CHANCE, node.infoset, node.labels, node.children,
                    tuple(q / total for q in probs))
    return node


def _check_infosets(game):
    """Same actions (and chance probabilities) across an infoset, and perfect recall.

    ``seq[n][i]`` is player ``i``'s last own sequence ``(infoset number, action)`` above node
    ``n``; every node of an infoset of player ``i`` must have the same one.
    """
    nodes = game.nodes
    seen = {}  # (player, name) -> (infoset number, first node, its last own sequence)
    seq = [None] * len(nodes)
    seq[0] = (None, None)
    for n, node in enumerate(nodes):
        p = node.player
        if p == TERMINAL:
            continue
        if node.infoset is not None:
            ident = (p, node.infoset)
            if ident not in seen:
                seen[ident] = (len(seen), n, seq[n][p] if p != CHANCE else None)
            number, first, first_seq = seen[ident]
            other = nodes[first]
            who = "chance" if p == CHANCE else f"player {p}'s"
            if other.labels != node.labels or (p == CHANCE and other.probs != node.probs):
                shown = ((lambda x: list(zip(x.labels, x.probs))) if p == CHANCE
                         else (lambda x: list(x.labels)))
                raise InfosetMismatchError(
                    f"{who} infoset {node.infoset!r}: {game.where(n)} has {shown(node)} "
                    f"but {game.where(first)} has {shown(other)}")
            if p != CHANCE and seq[n][p] != first_seq:
                raise ImperfectRecallError(
                    f"player {p}'s infoset {node.infoset!r}: {game.where(n)} and "
                    f"{game.where(first)} follow different earlier moves or observations of "
                    f"player {p}, who would have to forget them (perfect recall is required)")
        for a, c in enumerate(node.children):
            if p == CHANCE:
                seq[c] = seq[n]
            else:
                own = (number, a)
                seq[c] = (own, seq[n][1]) if p == 0 else (seq[n][0], own)
        seq[n] = None


def _constant_sum(game):
    """``(constant_sum, sum_tolerance, problem)`` from the terminal payoffs, by the 0.1% rule
    (``problem`` is ``None`` or says where the rule fails)."""
    terminals = [n for n, node in enumerate(game.nodes) if node.player == TERMINAL]
    sums = [game.nodes[n].payoffs[0] + game.nodes[n].payoffs[1] for n in terminals]
    u0 = [game.nodes[n].payoffs[0] for n in terminals]
    low = min(range(len(sums)), key=sums.__getitem__)
    high = max(range(len(sums)), key=sums.__getitem__)
    spread, scale = sums[high] - sums[low], max(u0) - min(u0)
    problem = None
    if spread > CONSTANT_SUM_RATIO * scale:
        problem = (
            f"not a constant-sum game: the payoffs sum to {sums[low]:g} at "
            f"{game.where(terminals[low])} but to {sums[high]:g} at "
            f"{game.where(terminals[high])}; the sums may vary by at most 0.1% of the range "
            f"of player 0's payoffs ({scale:g})")
    constant = sums[low] + spread / 2
    return (0.0 if constant == 0 else constant), max(Game.sum_tolerance, spread), problem


def _finite(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)
