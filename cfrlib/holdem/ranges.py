"""Ranges in the notation players write: a weight in [0, 1] for each of the 1,326 hands.

A range is a comma-separated list of tokens, each optionally followed by ``:weight`` (1 when left
out); ranks are written in upper case (``T J Q K A``) and suits in lower case, whitespace is
ignored, and a later token overrides the weight an earlier one gave:

===================================  ==========  ============
token                                combos      hands
===================================  ==========  ============
``QQ``                               6           the pair of queens
``AKs``, ``AKo``, ``AK``             4, 12, 16   ace-king suited, offsuit, both
``22+``, ``ATo+``                    78, 48      pairs from 22 up; ATo to AKo (the lower rank rises)
``QQ-22``, ``AQs-A2s``, ``T9s-54s``  66, 44, 24  every class between the ends (pairs, one top rank, one gap)
``AsKs``                             1           one hand, cards in either order
===================================  ==========  ============

``str(range)`` writes the canonical form: classes (a pair, or two ranks suited or offsuit) whose
hands all carry one weight as tokens, runs of neighbouring classes of one weight joined (``TT+``,
``QQ-22``, ``K9s+``, ``A5s-A4s``), and the hands of the other classes one by one; parsing it gives
the same weights back, exactly (weights are written in Python's shortest round-trip form).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import numpy as np
from numpy.typing import NDArray

from cfrlib.errors import CardError
from cfrlib.holdem.cards import HANDS, NUM_HANDS, RANKS, blocked_by, hand_str, parse_board, parse_hand

_HIGH = np.maximum(HANDS[:, 0], HANDS[:, 1]) // 4
_LOW = np.minimum(HANDS[:, 0], HANDS[:, 1]) // 4
_SUITED = HANDS[:, 0] % 4 == HANDS[:, 1] % 4

_RANK = f"[{RANKS}]"
_CLASS = re.compile(rf"({_RANK})({_RANK})([so]?)")
_HAND = re.compile(rf"{_RANK}[cdhs]{_RANK}[cdhs]")


def _class_mask(high: int, low: int, kind: str) -> NDArray[np.bool_]:
    """The hands of one class: a pair (``high == low``), or ``kind`` "s", "o" or "" (both)."""
    mask = (_HIGH == high) & (_LOW == low)
    if kind == "s":
        mask &= _SUITED
    elif kind == "o":
        mask &= ~_SUITED
    return mask


def _read_class(text: str, token: str) -> tuple[int, int, str]:
    """``(high, low, kind)`` of ``AKs``, ``AK``, ``QQ``, ranks in either order."""
    match = _CLASS.fullmatch(text)
    if match is None:
        raise CardError(f"range token {token!r}: {text!r} is not a hand class such as 'QQ', 'AKs', "
                        "'AKo' or 'AK'")
    a, b = RANKS.index(match.group(1)), RANKS.index(match.group(2))
    if a == b and match.group(3):
        raise CardError(f"range token {token!r}: a pair cannot be suited or offsuit")
    return max(a, b), min(a, b), match.group(3)


def _classes(body: str, token: str) -> Iterator[tuple[int, int, str]]:
    """The classes a token without weight names (one-hand tokens excluded)."""
    if body.endswith("+"):
        high, low, kind = _read_class(body[:-1], token)
        if high == low:
            yield from ((r, r, "") for r in range(low, 13))
        else:
            yield from ((high, r, kind) for r in range(low, high))
        return
    if "-" in body:
        first, _, last = body.partition("-")
        (h1, l1, k1), (h2, l2, k2) = _read_class(first, token), _read_class(last, token)
        if k1 != k2 or (h1 == l1) != (h2 == l2):
            raise CardError(f"range token {token!r}: both ends must be pairs, or of one kind")
        if h1 == l1:
            yield from ((r, r, "") for r in range(min(l1, l2), max(l1, l2) + 1))
        elif h1 == h2:
            yield from ((h1, r, k1) for r in range(min(l1, l2), max(l1, l2) + 1))
        elif h1 - l1 == h2 - l2:
            gap = h1 - l1
            yield from ((r + gap, r, k1) for r in range(min(l1, l2), max(l1, l2) + 1))
        else:
            raise CardError(f"range token {token!r}: the ends must share the upper rank "
                            "('AQs-A2s') or the gap between the ranks ('T9s-54s')")
        return
    yield _read_class(body, token)


def _weight(text: str, token: str) -> float:
    """The weight after a token's colon, a number in [0, 1]."""
    try:
        weight = float(text)
    except ValueError:
        raise CardError(f"range token {token!r}: weight {text!r} is not a number") from None
    if not 0.0 <= weight <= 1.0:
        raise CardError(f"range token {token!r}: weight {text} is not between 0 and 1")
    return weight


def _run_token(run: list[tuple[int, int, str]]) -> str:
    """``QQ``, ``TT+``, ``QQ-22``, ``AKs``, ``K9s+``, ``A5s-A4s``: a run of neighbouring classes,
    highest first."""
    (high, top, kind), (_, bottom, _) = run[0], run[-1]
    name = RANKS[high] + RANKS[top] + kind
    if len(run) == 1:
        return name
    last = RANKS[bottom] * 2 if high == top else RANKS[high] + RANKS[bottom] + kind
    reaches_top = top == 12 if high == top else top == high - 1
    return last + "+" if reaches_top else f"{name}-{last}"


def _format_weight(weight: float) -> str:
    """``:weight`` in Python's shortest round-trip form, nothing for 1."""
    return "" if weight == 1.0 else f":{weight!r}"


class Range:
    """A weight in [0, 1] for each hand of :data:`cfrlib.holdem.cards.HANDS` (``weights``)."""

    __hash__ = None  # type: ignore[assignment]  # mutable array inside: equality by value only

    def __init__(self, weights: Iterable[float] | NDArray[np.float64]) -> None:
        values = np.array(weights, dtype=np.float64)
        if values.shape != (NUM_HANDS,):
            raise CardError(f"range weights: shape {values.shape}, expected ({NUM_HANDS},)")
        if not np.all((values >= 0.0) & (values <= 1.0)):
            bad = int(np.flatnonzero(~((values >= 0.0) & (values <= 1.0)))[0])
            raise CardError(f"range weights: {hand_str(bad)} has weight {values[bad]}, "
                            "expected a number between 0 and 1")
        values.flags.writeable = False
        self.weights: NDArray[np.float64] = values

    @classmethod
    def parse(cls, text: str) -> Range:
        """The range of ``text`` such as ``"QQ-22,AQs-A2s,ATo+,K9s+,KQo,AKo:0.5,AsKs"``; a token
        that cannot be read raises a :class:`~cfrlib.errors.CardError` naming it."""
        weights = np.zeros(NUM_HANDS)
        for raw in text.split(","):
            token = re.sub(r"\s+", "", raw)
            if not token:
                if raw.strip() or text.strip():
                    raise CardError(f"range {text!r}: an empty token between commas")
                continue
            body, colon, weight_text = token.partition(":")
            weight = _weight(weight_text, token) if colon else 1.0
            if _HAND.fullmatch(body):
                weights[parse_hand(body)] = weight
                continue
            for high, low, kind in _classes(body, token):
                weights[_class_mask(high, low, kind)] = weight
        return cls(weights)

    def __str__(self) -> str:
        lines = [[(r, r, "") for r in range(12, -1, -1)]]  # pairs, then per upper rank s and o
        lines += [[(high, low, kind) for low in range(high - 1, -1, -1)]
                  for high in range(12, 0, -1) for kind in "so"]
        return ",".join(token for line in lines for token in self._line_tokens(line))

    def _line_tokens(self, line: list[tuple[int, int, str]]) -> list[str]:
        """The canonical tokens of one line of classes (the pairs, or one upper rank and kind,
        from the highest class down): runs of neighbouring classes of one weight, then single
        hands of the classes whose hands differ."""
        tokens: list[str] = []
        run: list[tuple[int, int, str]] = []
        run_weight = 0.0
        for high, low, kind in line:
            mask = _class_mask(high, low, kind)
            weights = self.weights[mask]
            uniform = bool(np.all(weights == weights[0]))
            if run and not (uniform and weights[0] == run_weight):
                tokens.append(_run_token(run) + _format_weight(run_weight))
                run = []
            if uniform and weights[0] > 0.0:
                run.append((high, low, kind))
                run_weight = float(weights[0])
            elif not uniform:
                tokens.extend(hand_str(int(h)) + _format_weight(float(self.weights[h]))
                              for h in np.flatnonzero(mask)[::-1] if self.weights[h] > 0.0)
        if run:
            tokens.append(_run_token(run) + _format_weight(run_weight))
        return tokens

    def __repr__(self) -> str:
        return f"Range({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Range) and bool(np.array_equal(self.weights, other.weights))

    def without(self, board: str | Iterable[int]) -> Range:
        """The range with the hands that hold a card of ``board`` at weight 0."""
        return Range(np.where(blocked_by(parse_board(board, lengths=range(6))), 0.0, self.weights))

    @property
    def hands(self) -> NDArray[np.int64]:
        """The indices of the hands of positive weight."""
        return np.flatnonzero(self.weights > 0.0)

    @property
    def combos(self) -> float:
        """The number of combos: the sum of the weights (``AKo:0.5`` is 6)."""
        return float(self.weights.sum())
