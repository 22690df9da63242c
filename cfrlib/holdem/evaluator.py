"""Hand strength of hold'em: the best five-card poker hand among five to seven cards, as one int.

Cards are those of :mod:`cfrlib.holdem.cards` (``4 * rank + suit``). The evaluator keeps one 13-bit
rank mask a suit (bit ``r`` set when the suit holds rank ``r``) and the count of each rank, and
reads the category from them, best first:

===============  =====  =======================================  ============
category         value  kickers packed, highest first            the five cards
===============  =====  =======================================  ============
straight flush   8      top rank                                 five ranks in a row in one suit (the lowest: A-2-3-4-5)
four of a kind   7      the quad rank, the best other rank       four of a rank
full house       6      the trips rank, the pair rank            three of a rank and two of another
flush            5      the five ranks                           five of one suit
straight         4      top rank                                 five ranks in a row (the lowest: A-2-3-4-5, the wheel)
three of a kind  3      the trips rank, two kickers              three of a rank
two pair         2      the high pair, the low pair, one kicker  two pairs
one pair         1      the pair rank, three kickers             a pair
high card        0      five ranks                               nothing of the above
===============  =====  =======================================  ============

    strength = category * 16**5 + sum_i kicker_i * 16**(4 - i)

so comparing strengths compares categories first, then the kickers in order; equal strengths
are ties. With seven cards this is the best of the 21 five-card hands among them (the tests
check it). The kernels are numba functions (``cache=True``); :func:`strengths` and
:func:`river_strengths` are their vectorised entry points.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit
from numpy.typing import NDArray

from cfrlib.holdem.cards import DECK_SIZE, parse_board

CATEGORIES = (
    "high card", "one pair", "two pair", "three of a kind", "straight", "flush", "full house",
    "four of a kind", "straight flush",
)
"""The category names, indexed by ``strength >> 20`` (:func:`category`)."""
_KICKER_BITS = 4


@njit(cache=True)
def _straight_top(mask):  # type: ignore[no-untyped-def]
    """The top rank of the highest straight in a 13-bit rank mask, or -1 (the ace plays low too)."""
    x = (mask << 1) | ((mask >> 12) & 1)  # bit r + 1 is rank r; bit 0 is the ace played low
    runs = x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)  # bit b: ranks b - 1 .. b + 3 all held
    for b in range(9, -1, -1):
        if runs & (1 << b):
            return b + 3
    return -1


@njit(cache=True)
def _highest(mask):  # type: ignore[no-untyped-def]
    """The highest rank set in a non-empty 13-bit rank mask."""
    for r in range(12, -1, -1):
        if mask & (1 << r):
            return r
    return -1


@njit(cache=True)
def _push(value, mask, k):  # type: ignore[no-untyped-def]
    """``value`` followed by the ``k`` highest ranks of ``mask``, one 4-bit place each."""
    for r in range(12, -1, -1):
        if k == 0:
            break
        if mask & (1 << r):
            value = (value << _KICKER_BITS) | r
            k -= 1
    return value


@njit(cache=True)
def _popcount(m):  # type: ignore[no-untyped-def]
    """The number of bits set in ``m``."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True)
def _from_masks(m0, m1, m2, m3):  # type: ignore[no-untyped-def]
    """The strength of the cards whose rank masks in clubs, diamonds, hearts and spades are given.

    The count of each rank is added up bit-sliced (``b0``, ``b1``, ``b2`` its binary digits for all
    13 ranks at once), so the ranks held four, three, two and one times are masks too."""
    b0 = b1 = b2 = 0
    for m in (m0, m1, m2, m3):
        carry = b0 & m
        b0 ^= m
        b2 |= b1 & carry
        b1 ^= carry
    held = m0 | m1 | m2 | m3
    quads, trips = b2, b1 & b0
    pairs, singles = b1 & ~b0 & ~b2, b0 & ~b1
    flush = 0
    for m in (m0, m1, m2, m3):
        if _popcount(m) >= 5:
            flush = m
    if flush:
        top = _straight_top(flush)
        if top >= 0:
            return ((8 << _KICKER_BITS) | top) << (4 * _KICKER_BITS)
    if quads:
        q = _highest(quads)
        return _push((7 << _KICKER_BITS) | q, held & ~(1 << q), 1) << (3 * _KICKER_BITS)
    if trips:
        t = _highest(trips)
        below = (trips & ~(1 << t)) | pairs
        if below:
            return _push((6 << _KICKER_BITS) | t, below, 1) << (3 * _KICKER_BITS)
    if flush:
        return _push(5, flush, 5)
    top = _straight_top(held)
    if top >= 0:
        return ((4 << _KICKER_BITS) | top) << (4 * _KICKER_BITS)
    if trips:
        return _push(3 << _KICKER_BITS | _highest(trips), singles, 2) << (2 * _KICKER_BITS)
    if _popcount(pairs) >= 2:
        value = _push(2, pairs, 2)
        third = pairs & ~((1 << ((value >> _KICKER_BITS) & 15)) | (1 << (value & 15)))
        return _push(value, third | singles, 1) << (2 * _KICKER_BITS)
    if pairs:
        return _push(_push(1, pairs, 1), singles, 3) << _KICKER_BITS
    return _push(0, singles, 5)


@njit(cache=True)
def _with_card(m0, m1, m2, m3, c):  # type: ignore[no-untyped-def]
    """The four suits' rank masks with card ``c`` added."""
    bit, suit = 1 << (c >> 2), c & 3
    if suit == 0:
        return m0 | bit, m1, m2, m3
    if suit == 1:
        return m0, m1 | bit, m2, m3
    if suit == 2:
        return m0, m1, m2 | bit, m3
    return m0, m1, m2, m3 | bit


@njit(cache=True)
def evaluate(cards):  # type: ignore[no-untyped-def]
    """The strength of five to seven distinct cards (an int64 array)."""
    m0 = m1 = m2 = m3 = 0
    for c in cards:
        m0, m1, m2, m3 = _with_card(m0, m1, m2, m3, c)
    return _from_masks(m0, m1, m2, m3)


@njit(cache=True)
def _board_strengths(board, hands, out):  # type: ignore[no-untyped-def]
    """``out[h]`` = the strength of ``board`` (3 to 5 cards) with hand ``h``; 0 for a hand that
    holds a board card."""
    m0 = m1 = m2 = m3 = 0
    taken = 0
    for c in board:
        m0, m1, m2, m3 = _with_card(m0, m1, m2, m3, c)
        taken |= 1 << c
    for h in range(hands.shape[0]):
        a, b = hands[h, 0], hands[h, 1]
        if (taken >> a) & 1 or (taken >> b) & 1 or a == b:
            out[h] = 0
            continue
        n0, n1, n2, n3 = _with_card(m0, m1, m2, m3, a)
        n0, n1, n2, n3 = _with_card(n0, n1, n2, n3, b)
        out[h] = _from_masks(n0, n1, n2, n3)


@njit(cache=True)
def _all_river_strengths(boards, hands, out):  # type: ignore[no-untyped-def]
    """``out[i]`` = :func:`_board_strengths` of ``boards[i]``."""
    for i in range(boards.shape[0]):
        _board_strengths(boards[i], hands, out[i])


def category(strength: int) -> str:
    """The name of a strength's category: ``"full house"``."""
    return CATEGORIES[strength >> (5 * _KICKER_BITS)]


def strengths(board: str | Iterable[int], hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """The strength of each hand (rows of two cards) with a 5-card board; 0 for the hands that
    hold a board card."""
    cards = np.array(parse_board(board, lengths=(5,)), dtype=np.int64)
    out = np.empty(len(hands), dtype=np.int64)
    _board_strengths(cards, np.array(hands, dtype=np.int64), out)  # a writable copy: one signature
    return out


def river_boards(board: str | Iterable[int]) -> NDArray[np.int64]:
    """Every river board that a 3-, 4- or 5-card board can become: the board followed by each set of
    cards still in the deck that completes it, in increasing order (rows of 5 cards: 1,176 for a
    flop, 48 for a turn, the board itself for a river)."""
    cards = parse_board(board)
    rest = np.array([c for c in range(DECK_SIZE) if c not in cards], dtype=np.int64)
    missing = 5 - len(cards)
    if missing == 0:
        extra = np.empty((1, 0), dtype=np.int64)
    elif missing == 1:
        extra = rest[:, None]
    else:
        first, second = np.triu_indices(len(rest), k=1)
        extra = np.stack([rest[first], rest[second]], axis=1)
    prefix = np.broadcast_to(np.array(cards, dtype=np.int64), (len(extra), len(cards)))
    return np.ascontiguousarray(np.concatenate([prefix, extra], axis=1))


def river_strengths(
    board: str | Iterable[int], hands: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(boards, table)``: :func:`river_boards` of ``board`` and ``table[i, h]``, the strength of hand
    ``h`` on ``boards[i]`` (0 where the hand holds a board card), computed once for a spot."""
    boards = river_boards(board)
    table = np.empty((len(boards), len(hands)), dtype=np.int64)
    _all_river_strengths(boards, np.ascontiguousarray(hands, dtype=np.int64), table)
    return boards, table
