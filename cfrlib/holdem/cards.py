"""Cards, hole-card hands and boards of hold'em, as ints.

A card is ``4 * rank + suit``, rank 0..12 for 2, 3, ..., T, J, Q, K, A and suit 0..3 for clubs,
diamonds, hearts, spades: ``"2c" = 0``, ``"Td" = 4 * 8 + 1 = 33``, ``"As" = 51``. A hand (hole cards)
is a pair ``(c1, c2)`` with ``c1 < c2``; :data:`HANDS` lists the 1,326 of them in increasing order of
``(c1, c2)``, so the index of ``(c1, c2)`` is the number of pairs before it,

    hand_index(c1, c2) = c1 * (103 - c1) / 2 + (c2 - c1 - 1)

(``sum_{a < c1} (51 - a)`` pairs start with a smaller card). Text is the usual two characters a
card, rank then suit (``"Td9d6h"``, ``"Td 9d 6h"``, ``"Td,9d,6h"``); ranks and suits in either case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from cfrlib.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
NUM_HANDS = DECK_SIZE * (DECK_SIZE - 1) // 2  # 1,326

HANDS: NDArray[np.int64] = np.array(
    [(c1, c2) for c1 in range(DECK_SIZE) for c2 in range(c1 + 1, DECK_SIZE)], dtype=np.int64
)
"""The 1,326 hands ``(c1, c2)``, ``c1 < c2``, in increasing order: shape (1326, 2)."""
HANDS.flags.writeable = False

_SEPARATORS = re.compile(r"[\s,]+")


def card(text: str) -> int:
    """The card of a two-character token such as ``"Td"`` (rank ``23456789TJQKA``, suit ``cdhs``)."""
    if len(text) != 2:
        raise CardError(f"card {text!r}: expected two characters, a rank of {RANKS} and a suit "
                        f"of {SUITS}, such as 'Td'")
    rank, suit = RANKS.find(text[0].upper()), SUITS.find(text[1].lower())
    if rank < 0:
        raise CardError(f"card {text!r}: unknown rank {text[0]!r} (expected one of {RANKS})")
    if suit < 0:
        raise CardError(f"card {text!r}: unknown suit {text[1]!r} (expected one of {SUITS})")
    return 4 * rank + suit


def card_str(c: int) -> str:
    """The two-character name of card ``c``: ``card_str(33) == "Td"``."""
    if not 0 <= c < DECK_SIZE:
        raise CardError(f"card {c}: expected an int from 0 to {DECK_SIZE - 1}")
    return RANKS[c // 4] + SUITS[c % 4]


def parse_cards(text: str) -> tuple[int, ...]:
    """The cards of ``text``, in order: ``parse_cards("Td9d6h") == (33, 29, 18)``; spaces and
    commas between cards are allowed. A card given twice is an error naming it."""
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    pieces = [token[i:i + 2] for token in tokens for i in range(0, len(token), 2)]
    cards = tuple(card(piece) for piece in pieces)
    seen: set[int] = set()
    for piece, c in zip(pieces, cards):
        if c in seen:
            raise CardError(f"cards {text!r}: {piece!r} is given twice")
        seen.add(c)
    return cards


def format_cards(cards: Iterable[int]) -> str:
    """The cards as one string: ``format_cards((33, 29, 18)) == "Td9d6h"``."""
    return "".join(card_str(int(c)) for c in cards)


def parse_board(board: str | Iterable[int], lengths: Iterable[int] = (3, 4, 5)) -> tuple[int, ...]:
    """A board of 3, 4 or 5 cards (or of one of ``lengths``), from text or ints, checked: every
    card known and given once."""
    allowed = tuple(lengths)
    if isinstance(board, str):
        cards = parse_cards(board)
        name = repr(board)
    else:
        cards = tuple(int(c) for c in board)
        for c in cards:
            card_str(c)
        name = format_cards(cards)
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise CardError(f"board {name}: {card_str(twice)!r} is given twice")
    if len(cards) not in allowed:
        raise CardError(f"board {name}: {len(cards)} cards, expected "
                        + " or ".join(str(n) for n in allowed))
    return cards


def hand_index(c1: int, c2: int) -> int:
    """The row of :data:`HANDS` that holds cards ``c1`` and ``c2`` (in either order)."""
    if c1 == c2 or not (0 <= c1 < DECK_SIZE and 0 <= c2 < DECK_SIZE):
        raise CardError(f"hand ({c1}, {c2}): expected two different cards from 0 to {DECK_SIZE - 1}")
    low, high = min(c1, c2), max(c1, c2)
    return low * (2 * DECK_SIZE - 1 - low) // 2 + (high - low - 1)


def parse_hand(text: str) -> int:
    """The index in :data:`HANDS` of two cards written as text: ``parse_hand("AsKs")``."""
    cards = parse_cards(text)
    if len(cards) != 2:
        raise CardError(f"hand {text!r}: {len(cards)} cards, expected 2")
    return hand_index(*cards)


def hand_str(index: int) -> str:
    """The text of hand ``index``, higher card first as players write it: ``"AsKs"``."""
    c1, c2 = HANDS[index]
    return card_str(int(c2)) + card_str(int(c1))


def blocked_by(board: Iterable[int]) -> NDArray[np.bool_]:
    """For each of the 1,326 hands, whether it holds a card of ``board``."""
    on_board = np.zeros(DECK_SIZE, dtype=bool)
    on_board[np.fromiter(board, dtype=np.int64)] = True
    return on_board[HANDS[:, 0]] | on_board[HANDS[:, 1]]
