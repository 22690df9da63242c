"""Kuhn poker and Leduc hold'em written as range games: hands of one card from a small deck,
played on the public tree by the same range-vector solver and the same showdown kernels
(``k = 1``) as hold'em spots.

* Kuhn (1950): a deck of three cards (J, Q, K), one each, antes of 1 (a starting pot of 2), one
  street on which a bet of 1 is all-in. Game value -1/18 for the first player.
* Leduc hold'em (Southey et al. 2005): six cards (J, Q, K in two suits), antes of 1, a bet of 2 on
  the first street and of 4 on the second, at most a bet and a raise a street, one board card
  between the streets; a pair with the board beats any unpaired hand, then the higher card.
  Game value -0.0856 for the first player (Lanctot et al. 2017).
"""

from __future__ import annotations

import numpy as np

from .game import IntArray, RangeGame
from .spot import TreeConfig
from .tree import PublicTree


def _one_card_hands(deck: int) -> list[IntArray]:
    hands = np.arange(deck, dtype=np.int64)[:, None]
    return [hands, hands.copy()]


def kuhn() -> RangeGame:
    """Kuhn poker as a range game (cards 0, 1, 2 = J, Q, K)."""
    tree = PublicTree(TreeConfig("river", 2, 1, {"river": ("1c", "")}))

    def strengths(board: tuple[int, ...], hands: IntArray) -> IntArray:
        return hands[:, 0].copy()

    return RangeGame(tree, (), _one_card_hands(3), [np.ones(3), np.ones(3)], 3, strengths, 0,
                     names=[["J", "Q", "K"]] * 2)


def leduc() -> RangeGame:
    """Leduc hold'em as a range game (card ``c`` has rank ``c // 2``: J, J, Q, Q, K, K)."""
    tree = PublicTree(TreeConfig("turn", 2, 12, {"turn": ("2c", "2c1r"), "river": ("4c", "4c1r")}))

    def strengths(board: tuple[int, ...], hands: IntArray) -> IntArray:
        ranks = hands[:, 0] // 2
        return ranks + np.where(ranks == board[0] // 2, 3, 0)

    names = [r + s for r in "JQK" for s in "sh"]
    return RangeGame(tree, (), _one_card_hands(6), [np.ones(6), np.ones(6)], 6, strengths, 1, names=[names] * 2)


def clairvoyance(bet: int, pot: int = 100) -> RangeGame:
    """The river clairvoyance game: OOP holds the nuts or air (half each), IP a bluff-catcher
    that beats only air; OOP may check or bet ``bet`` chips into ``pot``, IP may call or fold,
    nobody raises. With ``b = bet / pot``, OOP's bets are bluffs ``b / (1 + 2b)`` of the time and
    IP calls ``1 / (1 + b)`` of the time at equilibrium. Cards: 0 air, 1 the bluff-catcher, 2 the nuts."""
    tree = PublicTree(TreeConfig("river", pot, 10 * (pot + bet), {"river": [(f"{bet}c", ""), ("", "")]}))

    def strengths(board: tuple[int, ...], hands: IntArray) -> IntArray:
        return hands[:, 0].copy()

    hands = [np.array([[0], [2]], dtype=np.int64), np.array([[1]], dtype=np.int64)]
    return RangeGame(tree, (), hands, [np.ones(2), np.ones(1)], 3, strengths, 0,
                     names=[["air", "nuts"], ["bluff-catcher"]])
