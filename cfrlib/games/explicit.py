"""Games given by an explicit tree: every history is a stored node.

The built-in games are written as rules; a game read from a file (:mod:`cfrlib.games.formats`)
is a list of nodes instead. Each :class:`Node` is a terminal (both players' payoffs), a chance
node (named outcomes with probabilities) or a decision node of player 0 or 1 (named actions and
the name of the player's information set). Node 0 is the root and every child has a larger
number than its parent, so the list is a tree that can be checked and walked without recursion.

:class:`ExplicitGame` checks its nodes when it is built and names the offending node (by its
place in the file when the game was read from one). Here, what only a list of nodes can get
wrong: children that do not form a tree, as many action names as children, chance nodes
sharing a chance infoset name with different outcomes or probabilities
(:class:`~cfrlib.errors.InfosetMismatchError`), and the constant-sum rule of the Rust ``cfr``
crate: the range of ``u_0(z) + u_1(z)`` over the terminals ``Z`` is at most 0.1% of the range
of ``u_0(z)`` (:class:`~cfrlib.errors.NotConstantSumError`); the game's ``constant_sum`` is the
midpoint of that range and player 1's utility is taken as ``constant_sum - u_0(z)``. Everything
a game of any kind can get wrong (actions, chance probabilities, payoffs, infosets, perfect
recall) is checked by the one validator of the compiler (:func:`cfrlib.tree.build_tree`), which
runs as the game is built and names the nodes through ``ExplicitGame.describe``. Chance
probabilities rounded in a file (1/3 written 0.333333) are accepted and rescaled there.

:func:`~cfrlib.games.explicit_from_game` turns any game into this form (for saving the built-in games).
"""

from __future__ import annotations

import math
import numbers
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import ChanceProbabilityError, GameError, InfosetMismatchError, NotConstantSumError
from ..game import CHANCE, TERMINAL, Game, State
from ..tree import History, NodeTable, Tree, describe_history

CONSTANT_SUM_RATIO = 1e-3
"""The range of ``u_0 + u_1`` may be at most this fraction of the range of ``u_0``."""


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
    infoset: str | None = None
    labels: tuple[str, ...] = ()
    children: tuple[int, ...] = ()
    probs: tuple[float, ...] = ()
    payoffs: tuple[float, ...] = ()


class ExplicitState(State):
    """A node of an :class:`ExplicitGame`, seen through the state API."""

    __slots__ = ("game", "index")

    def __init__(self, game: ExplicitGame, index: int):
        self.game, self.index = game, index

    @property
    def node(self) -> Node:
        return self.game.nodes[self.index]

    def current_player(self) -> int:
        return self.node.player

    def legal_actions(self) -> list[str]:
        return list(self.node.labels)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        node = self.node
        if node.player != CHANCE:
            raise GameError(f"{self.game.where(self.index)} is not a chance node")
        return list(zip(node.labels, node.probs))

    def child(self, action: str) -> ExplicitState:
        node = self.node
        try:
            return ExplicitState(self.game, node.children[node.labels.index(action)])
        except ValueError:
            raise GameError(f"{self.game.where(self.index)}: no action {action!r}; "
                            f"the actions are {list(node.labels)}") from None

    # A node holds what it was given; the compiler refuses, naming the node, a decision node
    # without an infoset name and a terminal without exactly two payoffs (as for any game whose
    # state API breaks its contract), so those answers are passed on unchecked.
    def infoset_key(self) -> str:
        return self.node.infoset  # type: ignore[return-value]

    def returns(self) -> tuple[float, float]:
        return self.node.payoffs  # type: ignore[return-value]

    def __repr__(self) -> str:
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

    def __init__(self, nodes: Iterable[Node], name: str = "explicit",
                 locate: Callable[[ExplicitGame, int], str] | None = None, *,
                 require_constant_sum: bool = True):
        self.nodes = list(nodes)
        self.name = name
        self._locate = locate
        self.parents = _parents(self.nodes)
        for n, node in enumerate(self.nodes):
            _check_shape(self, n, node)
        _check_chance_infosets(self)
        self.constant_sum, self.sum_tolerance, self.not_constant_sum = _constant_sum(self)
        if self.not_constant_sum and require_constant_sum:
            raise NotConstantSumError(self.not_constant_sum)
        super().tree()  # the structural checks, at once (the sum tolerance lets any sum pass)

    def initial_state(self) -> ExplicitState:
        return ExplicitState(self, 0)

    def node_table(self) -> NodeTable | None:
        """The compiler's table read off the list of nodes, level by level as the walk of the
        states goes (the same table; tested), without a state object per history. ``None`` (the
        walk then runs, and names what is wrong) for a player that is not 0, 1, chance or
        terminal, or a name that cannot be a dictionary key; a subclass is walked."""
        if type(self) is not ExplicitGame:
            return None
        player: list[int] = []
        labels: list[int] = []
        keys_of: list[int] = []
        probs: list[tuple[float, ...]] = []
        payoffs: list[tuple[float, ...]] = []
        label_ids: dict[History, int] = {}
        key_ids: dict[str, int] = {}
        order = [0]
        try:
            for n in order:   # grows as it is read: level order, children in action order
                node = self.nodes[n]
                p = node.player
                player.append(p)
                if p == TERMINAL:
                    payoffs.append(node.payoffs)
                    labels.append(-1)
                    continue
                if p == 0 or p == 1:
                    keys_of.append(key_ids.setdefault(node.infoset, len(key_ids)))  # type: ignore[arg-type]
                elif p == CHANCE:
                    probs.append(node.probs)
                else:
                    return None
                labels.append(label_ids.setdefault(tuple(node.labels), len(label_ids)))
                order.extend(node.children)
        except TypeError:
            return None
        return NodeTable.from_lists(self, player, labels, keys_of, probs, payoffs, label_ids, key_ids)

    def tree(self) -> Tree:
        """The compiled tree, as for every game, refused for a game that is not constant-sum."""
        if self.not_constant_sum:
            raise NotConstantSumError(self.not_constant_sum)
        return super().tree()

    @property
    def num_nodes(self) -> int:
        return len(self.nodes)

    def history(self, n: int) -> list[str]:
        """The action (and chance outcome) names from the root to node ``n``."""
        path: list[str] = []
        while n > 0:
            parent = self.parents[n]
            node = self.nodes[parent]
            path.append(node.labels[node.children.index(n)])
            n = parent
        return path[::-1]

    def where(self, n: int) -> str:
        """A readable description of node ``n``: its place in the file, or its history."""
        if self._locate is not None:
            return self._locate(self, n)
        return describe_history(self.history(n))

    def describe(self, history: History) -> str:
        """The node reached by ``history`` (a tuple of action names), as :meth:`where` names it."""
        n = 0
        for a in history:
            node = self.nodes[n]
            n = node.children[node.labels.index(a)]
        return self.where(n)

    def __repr__(self) -> str:
        return f"ExplicitGame({self.name!r}, {len(self.nodes):,} nodes)"


def explicit_from_game(game: Game) -> ExplicitGame:
    """Walk ``game`` through its state API (breadth first) into an :class:`ExplicitGame`.

    Infoset keys, action names, chance probabilities and both players' payoffs are copied, so
    the result compiles to the same tree as ``game``.
    """
    if isinstance(game, ExplicitGame):
        return game
    frontier = deque([game.initial_state()])  # states met but not yet listed: only these are alive
    nodes: list[Node] = []
    while frontier:
        state = frontier.popleft()
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
        first = len(nodes) + 1 + len(frontier)  # the number of the next state met
        children = tuple(range(first, first + len(labels)))
        frontier.extend(state.child(a) for a in labels)
        nodes.append(Node(p, infoset, labels, children, probs))
    return ExplicitGame(nodes, name=game.name)


# --------------------------------------------------------------------------- validation
def _parents(nodes: list[Node]) -> list[int]:
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


def _check_shape(game: ExplicitGame, n: int, node: Node) -> None:
    """What the list of nodes alone can get wrong at node ``n``."""
    if node.player == TERMINAL:
        if node.children:
            raise GameError(f"{game.where(n)}: a terminal has no children")
        return
    if len(node.labels) != len(node.children):
        raise GameError(f"{game.where(n)}: {len(node.labels)} action names for "
                        f"{len(node.children)} children")
    if node.player == CHANCE and len(node.probs) != len(node.labels):
        raise ChanceProbabilityError(f"{game.where(n)}: {len(node.probs)} chance probabilities "
                                     f"for {len(node.labels)} outcomes")


def _check_chance_infosets(game: ExplicitGame) -> None:
    """Chance nodes that share a chance infoset name have the same outcomes and probabilities."""
    first: dict[str, int] = {}
    for n, node in enumerate(game.nodes):
        if node.player != CHANCE or node.infoset is None:
            continue
        other = game.nodes[first.setdefault(node.infoset, n)]
        if (other.labels, other.probs) != (node.labels, node.probs):
            raise InfosetMismatchError(
                f"chance infoset {node.infoset!r}: {game.where(n)} has "
                f"{list(zip(node.labels, node.probs))} but {game.where(first[node.infoset])} has "
                f"{list(zip(other.labels, other.probs))}")


def _constant_sum(game: ExplicitGame) -> tuple[float, float, str | None]:
    """``(constant_sum, sum_tolerance, problem)`` from the terminal payoffs, by the 0.1% rule
    (``problem`` is ``None`` or says where the rule fails)."""
    terminals = [n for n, node in enumerate(game.nodes) if node.player == TERMINAL
                 and len(node.payoffs) == 2 and all(_finite(u) for u in node.payoffs)]
    if not terminals:  # the compiler says what is wrong with the payoffs
        return 0.0, Game.sum_tolerance, None
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


def _finite(x: object) -> bool:
    return not isinstance(x, bool) and isinstance(x, numbers.Real) and math.isfinite(x)
