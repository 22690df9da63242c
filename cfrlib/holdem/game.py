"""A range game: a public tree, a board, each player's hands with their weights, a deck and a
showdown ranking; and its *game tree*, the public tree with every chance node expanded into one
child a card, flattened into arrays for the compiled solver.

A spot deals the pair of hands ``(h0, h1)`` with probability proportional to ``w0(h0) w1(h1)``
over the pairs that share no card with each other or the board; each chance node then deals
one of the ``deck - |board| - 2k`` cards that neither hand nor the board holds, uniformly
(``k`` cards a hand). Hold'em spots (:func:`cfrlib.holdem.holdem_game`) have ``k = 2`` and a
52-card deck; Kuhn and Leduc as range games (:mod:`cfrlib.holdem.toys`) one card a hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..errors import SpotError
from . import evaluator
from .cards import DECK_SIZE, HANDS, hand_str, parse_board
from .ranges import Range
from .spot import TreeConfig
from .tree import CHANCE, PLAYER, SHOWDOWN, PublicNode, PublicTree

IntArray = NDArray[np.int64]
Strengths = Callable[[tuple[int, ...], IntArray], IntArray]
"""``strengths(board, hands)``: each hand's showdown strength on a complete board (higher wins)."""

# Columns of GameTree.nodes.
KIND, ACTOR, AMOUNT, FIRST, COUNT, CARD, ROW, BOARD = range(8)


@dataclass
class GameTree:
    """The game tree as arrays: ``nodes[i]`` holds (kind, player, amount, first child, number of
    children, card dealt to reach it or -1, first row of the player's tables or -1, river board
    or -1), children stored contiguously; ``public[i]`` is the public-tree node it expands,
    ``boards[b]`` the complete board of showdown board ``b``, ``rows[p]`` player ``p``'s number of
    table rows (one a node and action)."""

    nodes: IntArray
    public: list[PublicNode]
    boards: list[tuple[int, ...]]
    rows: tuple[int, int]
    board_at: list[tuple[int, ...]]

    def __len__(self) -> int:
        return len(self.nodes)


class RangeGame:
    """See the module docstring. ``hands[p]`` is an ``(n_p, k)`` int array of cards, ``weights[p]``
    its weights; hands with zero weight or a card on the board are dropped (``hand_ids[p]`` are
    the indices of the kept ones in the given lists)."""

    def __init__(self, tree: PublicTree, board: Sequence[int], hands: Sequence[IntArray],
                 weights: Sequence[NDArray[np.float64]], deck_size: int, strengths: Strengths,
                 board_size: int, names: Sequence[Sequence[str]] | None = None) -> None:
        self.tree = tree
        self.board = tuple(int(c) for c in board)
        deals = 2 - tree.config.first_street
        if len(self.board) + deals != board_size:
            raise SpotError(f"a board of {len(self.board)} cards on the {tree.config.street} does not reach "
                            f"{board_size} cards at the showdown")
        if len(set(self.board)) != len(self.board) or any(not 0 <= c < deck_size for c in self.board):
            raise SpotError(f"the board {self.board} repeats a card or has one outside 0..{deck_size - 1}")
        self.deck_size = int(deck_size)
        self.strengths = strengths
        self.board_size = board_size
        self.hands: list[IntArray] = []
        self.weights: list[NDArray[np.float64]] = []
        self.hand_ids: list[IntArray] = []
        for p in range(2):
            cards = np.asarray(hands[p], dtype=np.int64)
            w = np.asarray(weights[p], dtype=np.float64)
            if cards.ndim != 2 or len(w) != len(cards) or np.any(w < 0) or not np.all(np.isfinite(w)):
                raise SpotError(f"player {p}'s hands must be an (n, k) array with n non-negative weights")
            keep = (w > 0) & ~np.isin(cards, self.board).any(axis=1)
            if not keep.any():
                raise SpotError(f"player {p}'s range is empty once the board's cards are removed")
            self.hand_ids.append(np.flatnonzero(keep).astype(np.int64))
            self.hands.append(np.ascontiguousarray(cards[keep]))
            self.weights.append(w[keep].copy())
        self.cards_per_hand = self.hands[0].shape[1]
        self.names = None if names is None else [[names[p][i] for i in self.hand_ids[p]] for p in range(2)]
        self.holds = [self._holds(p) for p in range(2)]
        self.game_tree = self._expand()
        self.pair_weight = self._pair_weight()

    @property
    def starting_pot(self) -> int:
        return self.tree.config.starting_pot

    def _holds(self, p: int) -> NDArray[np.bool_]:
        """``holds[c, h]``: hand ``h`` of player ``p`` holds card ``c``."""
        out = np.zeros((self.deck_size, len(self.hands[p])), dtype=np.bool_)
        for column in self.hands[p].T:
            out[column, np.arange(len(column))] = True
        return out

    def _pair_weight(self) -> float:
        """``Z = sum w0(h0) w1(h1)`` over the pairs that share no card: what values are divided by."""
        blocked = np.zeros((len(self.hands[0]), len(self.hands[1])), dtype=bool)
        for c in range(self.deck_size):
            blocked |= np.outer(self.holds[0][c], self.holds[1][c])
        return float(self.weights[0] @ np.where(blocked, 0.0, 1.0) @ self.weights[1])

    def _expand(self) -> GameTree:
        rows = [0, 0]
        nodes: list[list[int]] = []
        public: list[PublicNode] = []
        board_at: list[tuple[int, ...]] = []
        board_ids: dict[tuple[int, ...], int] = {}

        def new(node: PublicNode, card: int, board: tuple[int, ...]) -> int:
            row, board_id = -1, -1
            if node.kind == PLAYER:
                row = rows[node.player]
                rows[node.player] += len(node.actions)
            elif node.kind == SHOWDOWN:
                board_id = board_ids.setdefault(tuple(sorted(board)), len(board_ids))
            nodes.append([node.kind, node.player, node.amount, -1, 0, card, row, board_id])
            public.append(node)
            board_at.append(board)
            return len(nodes) - 1

        stack = [new(self.tree.root, -1, self.board)]
        while stack:
            i = stack.pop()
            node, board = public[i], board_at[i]
            if node.kind == CHANCE:
                children = [(node.children[0], c, board + (c,)) for c in range(self.deck_size) if c not in board]
            else:
                children = [(child, -1, board) for child in node.children]
            nodes[i][FIRST] = len(nodes)
            nodes[i][COUNT] = len(children)
            stack.extend(new(child, c, b) for child, c, b in children)
        boards = sorted(board_ids, key=board_ids.__getitem__)
        return GameTree(np.array(nodes, dtype=np.int64), public, boards, (rows[0], rows[1]), board_at)



def holdem_game(config: TreeConfig, board: str | Sequence[int],
                ranges: Sequence[str | Range | NDArray[np.float64]]) -> RangeGame:
    """A no-limit hold'em spot: ``config``'s betting on ``board`` (3, 4 or 5 cards, matching the
    street) between the ranges ``[OOP, IP]``, each a string in players' notation
    (``"QQ-22,AQs-A2s,ATo+"``), a :class:`~cfrlib.holdem.ranges.Range` or weights over the 1,326
    hands of :data:`cfrlib.holdem.cards.HANDS`."""
    cards = parse_board(board)
    weights = []
    for p, given in enumerate(ranges):
        w = (Range.parse(given) if isinstance(given, str) else given if isinstance(given, Range) else Range(given)).weights
        weights.append(np.asarray(w, dtype=np.float64))
    if len(weights) != 2:
        raise SpotError(f"a spot needs two ranges [OOP, IP], got {len(weights)}")

    def strengths(full: tuple[int, ...], hands: IntArray) -> IntArray:
        return evaluator.strengths(full, hands)

    names = [hand_str(i) for i in range(len(HANDS))]
    return RangeGame(PublicTree(config), cards, [HANDS, HANDS], weights, DECK_SIZE, strengths, 5, [names, names])
