"""Fold and showdown values of every hand of one player against the opponent's reach, with card
removal, in O(n + m) a call.

A hand is a row of ``k`` cards (``k = 2`` for hold'em hole cards, ``k = 1`` for the one-card
hands of Kuhn or Leduc played as range games), cards are ints ``0 .. deck_size - 1``. Two hands
*collide* when they share a card; the opponent's hands that collide with mine cannot be dealt
beside it, so they are left out of its sums (card removal). With ``R = sum_j r_j`` the opponent's
total reach and ``C[c] = sum_{j : c in h_j} r_j`` its reach through card ``c``, the reach that
collides with hand ``h = (c1, c2)`` is, by inclusion-exclusion,

    blocked(h) = C[c1] + C[c2] - r(twin(h)),

where ``twin(h)`` is the opponent's hand equal to ``h`` (the only hand that holds both cards, so
the only one counted twice); with one card a hand, ``blocked(h) = C[c1]``. So

    fold value     out[h] = payoff * (R - blocked(h))
    showdown value out[h] = payoff * (W(h) - L(h)),

with ``W(h)`` the unblocked reach of the opponent's hands weaker than ``h`` and ``L(h)`` that of the
stronger ones (ties add nothing). With the opponent's hands sorted by strength and
``U_x(h) = R_x - C_x[c1] - C_x[c2] + r(twin)`` the unblocked reach of the ``x`` weakest (sums
over them; the twin only if it is among them), ``W(h) = U_lo(h)`` with ``lo`` the number of hands
weaker than ``h`` and ``L(h) = U_m(h) - U_hi(h)`` with ``hi`` the number weaker or tied: tied
hands fall between ``lo`` and ``hi``, which is how they drop out. The running sums ``R_x`` and,
for each card, ``C_x[c]`` along the hands holding it are computed once a call; each hand then
reads them where :func:`prepare_showdown` found its ``lo`` and ``hi``. The sort and those places
are found once per (board, my hands, opponent hands) by :func:`prepare_showdown`, the twins once
per (my hands, opponent hands) by :func:`prepare_fold`; the engine keeps their results (the
showdown's per river board).

The functions are numba kernels (``@njit(cache=True)``) with plain-array arguments, so that the
range-vector solver calls them from its own compiled code (``prepare_showdown``, called once per
board from Python, sorts in numpy and compiles only its loops):

- ``prepare_fold(my_cards, opp_cards, deck_size) -> Fold``
- ``fold_values(prepared, opp_reach, payoff, out)``
- ``prepare_showdown(my_cards, my_strength, opp_cards, opp_strength, deck_size) -> Showdown``
- ``showdown_values(prepared, opp_reach, payoff, out)``
- ``fold_values_naive`` and ``showdown_values_naive``: the O(n m) double sums, with the hands
  (and strengths) instead of ``prepared``: ``fold_values_naive(my_cards, opp_cards, opp_reach,
  payoff, out)``, ``showdown_values_naive(my_cards, my_strength, opp_cards, opp_strength,
  opp_reach, payoff, out)``; the tests check the fast kernels against them.

``my_cards`` is an int64 array of shape ``(n, k)``, ``opp_cards`` of shape ``(m, k)``, strengths
int64 (higher is better, equal for a tie), ``opp_reach`` and ``out`` float64 of length ``m`` and
``n``. Hands that collide with the board are the caller's business (give them zero reach; the
values computed for them mean nothing).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..errors import SpotError

PASS_KERNEL: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy", "_nrt": False}
"""numba's options for the kernels the range-vector pass runs (these and the solver's): they
allocate nothing, so they compile without numba's reference counting (``_nrt=False``, which
numba's type stubs do not list); with it, every row or slice they take of an array cost two
atomic operations, a quarter of an iteration's time."""

# ``prepare_fold``'s result, a tuple of int64 arrays: (my_cards (n, 2), my_twin (n,),
# opp_cards (m, 2), deck (1,)) (one-card hands padded with a phantom card, see ``_two_cards``), ``my_twin[i]`` the index of the opponent's hand equal to my
# ``i``-th (-1 if none).
FOLD_FIELDS = ("my_cards", "my_twin", "opp_cards", "deck")

# ``prepare_showdown``'s result, a tuple of int16 arrays (a quarter of the memory of int64, and the
# showdown kernel's reads stay in the faster caches; a flop spot keeps one for each of 1,176 rivers
# and both players; every entry is below 2 * 1,326 + 54, the slots of the 1,326 hold'em hands):
# (opp_order (m,), card_start (deck + 2,), card_count (deck + 2,), card_entry (E,), my_index (n, 8),
#  my_twin (n,), my_twin_sign (n,)): the opponent's hands sorted by strength (``opp_order[j]`` the
# original index of the ``j``-th weakest); for each card ``c`` (the two phantom cards included),
# its list of the opponent's hands holding it in that order, ``card_entry[card_start[c] + k]`` the
# ``k``-th (original index), ``card_count[c]`` of them, followed by one slot for their total; for
# each of my hands (original order) ``my_index[i] = (lo, hi, a1, b1, e1, a2, b2, e2)``: ``lo`` and
# ``hi`` the numbers of the opponent's hands weaker and weaker-or-tied, and for each of its cards
# the slots of the card's running sum at ``lo``, at ``hi`` and at the end; ``my_twin[i]`` the
# original index of the opponent's hand equal to mine (0 if none) and ``my_twin_sign[i]`` how
# often the sums count its reach too often (``[twin < lo] + [twin < hi] - 1``; 0 if none).
SHOWDOWN_FIELDS = (
    "opp_order",
    "card_start",
    "card_count",
    "card_entry",
    "my_index",
    "my_twin",
    "my_twin_sign",
)


@njit(cache=True)
def _twin_positions(my_cards, opp_cards, deck_size):  # type: ignore[no-untyped-def]
    """For each of my hands, the index of the opponent's hand with the same cards, or -1."""
    n, k = my_cards.shape
    out = np.full(n, -1, dtype=np.int64)
    if k == 1:
        return out  # a one-card hand's twin holds its only card: C[c1] counts it once already
    where = np.full(deck_size * deck_size, -1, dtype=np.int64)
    for j in range(opp_cards.shape[0]):
        a, b = opp_cards[j, 0], opp_cards[j, 1]
        where[min(a, b) * deck_size + max(a, b)] = j
    for i in range(n):
        a, b = my_cards[i, 0], my_cards[i, 1]
        out[i] = where[min(a, b) * deck_size + max(a, b)]
    return out


@njit(cache=True)
def _two_cards(cards, phantom):  # type: ignore[no-untyped-def]
    """Hands as two columns, so that the kernels need no loop over a hand's cards: one-card hands
    get a phantom card beside their card, ``deck_size`` for mine and ``deck_size + 1`` for the
    opponent's, so that no hand of mine meets the opponent's phantom in the running sums."""
    if cards.shape[1] == 2:
        return cards.astype(np.int64)
    out = np.full((cards.shape[0], 2), phantom, dtype=np.int64)
    for j in range(cards.shape[0]):   # a loop: a slice assignment compiles numba's shape error (3 s)
        out[j, 0] = cards[j, 0]
    return out


@njit(**PASS_KERNEL)
def _unblocked(c1, c2, total, card_sum, twin_reach):  # type: ignore[no-untyped-def]
    """``R - C[c1] - C[c2] + r(twin)``: the part of running sums that shares no card with the hand
    ``(c1, c2)``."""
    return total - card_sum[c1] - card_sum[c2] + twin_reach


@njit(cache=True)
def prepare_fold(my_cards, opp_cards, deck_size):  # type: ignore[no-untyped-def]
    """The tuple of ``FOLD_FIELDS`` that :func:`fold_values` reads: both hand lists as two cards,
    my hands' twins and the deck size. Its cost, a table of ``deck_size**2`` entries that finds
    the twins of two-card hands, is paid once per pair of hand lists instead of once a call."""
    return (_two_cards(my_cards, deck_size), _twin_positions(my_cards, opp_cards, deck_size),
            _two_cards(opp_cards, deck_size + 1), np.full(1, deck_size, dtype=np.int64))


@njit(**PASS_KERNEL)
def fold_values_into(prepared, opp_reach, payoff, out, scratch):  # type: ignore[no-untyped-def]
    """:func:`fold_values` with a caller's ``scratch`` (at least ``deck_size + 2`` floats) instead
    of an array allocated a call: the solver's walk calls it at every fold."""
    my_cards, twin, opp_cards, deck = prepared[0], prepared[1], prepared[2], prepared[3]
    card_sum = scratch[:deck[0] + 2]
    for c in range(card_sum.shape[0]):
        card_sum[c] = 0.0
    total = 0.0
    for j in range(opp_cards.shape[0]):
        r = opp_reach[j]
        total += r
        card_sum[opp_cards[j, 0]] += r
        card_sum[opp_cards[j, 1]] += r
    if total == 0.0:  # no opponent's hand gets here (reaches are never negative): every value is 0
        for i in range(my_cards.shape[0]):
            out[i] = 0.0
        return
    for i in range(my_cards.shape[0]):
        t = twin[i]
        twin_reach = opp_reach[t] if t >= 0 else 0.0
        out[i] = payoff * _unblocked(my_cards[i, 0], my_cards[i, 1], total, card_sum, twin_reach)


@njit(cache=True)
def fold_values(prepared, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (R - blocked(h))``: ``payoff`` times the opponent's reach over the hands
    that share no card with ``h``. O(n + m)."""
    fold_values_into(prepared, opp_reach, payoff, out, np.empty(prepared[3][0] + 2))


def prepare_showdown(my_cards, my_strength, opp_cards, opp_strength, deck_size):  # type: ignore[no-untyped-def]
    """The opponent's hands sorted by strength (stable), each card's list of them, and where each
    of my hands reads the running sums: the tuple of ``SHOWDOWN_FIELDS`` that
    :func:`showdown_values` reads. The sort and the searches run in numpy (numba's compiled
    versions cost 5 s of compilation), the card lists in :func:`_showdown_tables`."""
    opp_strength = np.asarray(opp_strength, dtype=np.int64)
    opp_order = np.argsort(opp_strength, kind="stable").astype(np.int64)
    sorted_strength = opp_strength[opp_order]
    lo = np.searchsorted(sorted_strength, my_strength, side="left").astype(np.int64)
    hi = np.searchsorted(sorted_strength, my_strength, side="right").astype(np.int64)
    return _showdown_tables(np.asarray(my_cards, dtype=np.int64), np.asarray(opp_cards, dtype=np.int64),
                            opp_order, lo, hi, deck_size)


@njit(cache=True)
def _showdown_tables(my_cards, opp_cards, opp_order, lo, hi, deck_size):  # type: ignore[no-untyped-def]
    """:func:`prepare_showdown` given the opponent's order by strength and each hand's ``lo`` and
    ``hi`` in it."""
    mine = _two_cards(my_cards, deck_size)
    opp = _two_cards(opp_cards, deck_size + 1)
    n, m, cards = mine.shape[0], opp.shape[0], deck_size + 2
    position = np.empty(m, dtype=np.int64)
    card_count = np.zeros(cards, dtype=np.int64)
    for j in range(m):
        position[opp_order[j]] = j
        card_count[opp[j, 0]] += 1
        card_count[opp[j, 1]] += 1
    card_start = np.zeros(cards, dtype=np.int64)
    for c in range(1, cards):
        card_start[c] = card_start[c - 1] + card_count[c - 1] + 1
    size = card_start[cards - 1] + card_count[cards - 1] + 1
    if size > np.iinfo(np.int16).max:
        raise SpotError("prepare_showdown: too many hands for its int16 tables")
    card_entry = np.zeros(size, dtype=np.int64)
    entry_position = np.zeros(size, dtype=np.int64)
    fill = card_start.copy()
    for j in range(m):
        for col in range(2):
            c = opp[opp_order[j], col]
            card_entry[fill[c]] = opp_order[j]
            entry_position[fill[c]] = j
            fill[c] += 1
    my_index = np.empty((n, 8), dtype=np.int64)
    twin = _twin_positions(my_cards, opp_cards, deck_size)
    my_twin = np.zeros(n, dtype=np.int64)
    my_twin_sign = np.zeros(n, dtype=np.int64)
    for i in range(n):
        my_index[i, 0], my_index[i, 1] = lo[i], hi[i]
        for col in range(2):
            c = mine[i, col]
            held = entry_position[card_start[c]:card_start[c] + card_count[c]]
            my_index[i, 2 + 3 * col] = card_start[c] + np.searchsorted(held, lo[i])
            my_index[i, 3 + 3 * col] = card_start[c] + np.searchsorted(held, hi[i])
            my_index[i, 4 + 3 * col] = card_start[c] + card_count[c]
        if twin[i] >= 0:
            my_twin[i] = twin[i]
            my_twin_sign[i] = int(position[twin[i]] < lo[i]) + int(position[twin[i]] < hi[i]) - 1
    return (opp_order.astype(np.int16), card_start.astype(np.int16), card_count.astype(np.int16),
            card_entry.astype(np.int16), my_index.astype(np.int16), my_twin.astype(np.int16),
            my_twin_sign.astype(np.int16))


@njit(cache=True)
def showdown_values(prepared, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (W(h) - L(h))``, the unblocked opponent reach that ``h`` beats minus the
    one that beats it. With ``U_x(h)`` the unblocked reach of the opponent's ``x`` weakest hands
    (additive over disjoint sets of hands), ``W = U_lo`` and ``L = U_m - U_hi``, so
    ``W - L = (R_lo + R_hi - R_m) - sum over h's cards c of (C_lo[c] + C_hi[c] - C_m[c])`` plus the
    twin's correction: running sums of the reach along the sorted hands (``R``) and along each
    card's list (``C``), then for each hand a few reads at places found by :func:`prepare_showdown`
    (no comparison of strengths, no branch that depends on the data)."""
    showdown_values_into(prepared, opp_reach, payoff, out,
                         np.empty(prepared[0].shape[0] + 1 + prepared[3].shape[0]))


@njit(**PASS_KERNEL)
def showdown_values_into(prepared, opp_reach, payoff, out, scratch):  # type: ignore[no-untyped-def]
    """:func:`showdown_values` with a caller's ``scratch`` (at least ``m + 1`` floats for the
    running sums over the sorted hands and one a card entry) instead of arrays allocated a call:
    the solver's walk calls it at every showdown."""
    opp_order, card_start, card_count, card_entry = prepared[0], prepared[1], prepared[2], prepared[3]
    my_index, my_twin, my_twin_sign = prepared[4], prepared[5], prepared[6]
    m = opp_order.shape[0]
    total = scratch[:m + 1]  # R_x, x = 0 .. m
    card_sum = scratch[m + 1:m + 1 + card_entry.shape[0]]  # C_k[c] at card_start[c] + k
    running = 0.0
    total[0] = 0.0
    for j in range(m):
        running += opp_reach[opp_order[j]]
        total[j + 1] = running
    for c in range(card_start.shape[0]):
        running = 0.0
        first = card_start[c]
        for e in range(first, first + card_count[c]):
            card_sum[e] = running
            running += opp_reach[card_entry[e]]
        card_sum[first + card_count[c]] = running
    for h in range(my_index.shape[0]):
        index = my_index[h]
        value = total[index[0]] + total[index[1]] - total[m]
        value -= card_sum[index[2]] + card_sum[index[3]] - card_sum[index[4]]
        value -= card_sum[index[5]] + card_sum[index[6]] - card_sum[index[7]]
        out[h] = payoff * (value + opp_reach[my_twin[h]] * my_twin_sign[h])


@njit(cache=True)
def _collide(a, b):  # type: ignore[no-untyped-def]
    """Whether two hands share a card."""
    for x in range(a.shape[0]):
        for y in range(b.shape[0]):
            if a[x] == b[y]:
                return True
    return False


@njit(cache=True)
def fold_values_naive(my_cards, opp_cards, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """:func:`fold_values` as the O(n m) double sum over the hands that share no card."""
    for i in range(my_cards.shape[0]):
        value = 0.0
        for j in range(opp_cards.shape[0]):
            if not _collide(my_cards[i], opp_cards[j]):
                value += opp_reach[j]
        out[i] = payoff * value


@njit(cache=True)
def showdown_values_naive(my_cards, my_strength, opp_cards, opp_strength, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """:func:`showdown_values` as the O(n m) double sum over the hands that share no card."""
    for i in range(my_cards.shape[0]):
        value = 0.0
        for j in range(opp_cards.shape[0]):
            if not _collide(my_cards[i], opp_cards[j]):
                if my_strength[i] > opp_strength[j]:
                    value += opp_reach[j]
                elif my_strength[i] < opp_strength[j]:
                    value -= opp_reach[j]
        out[i] = payoff * value
