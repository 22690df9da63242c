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
stronger ones (ties add nothing). ``W`` comes from one sweep up the hands sorted by strength: a
running total and running per-card sums over the opponent's hands strictly weaker than the
current one, so ``W(h) = R_< - C_<[c1] - C_<[c2] + r(twin)`` (the twin only if it is weaker);
``L`` from the same sweep down. Hands of equal strength meet the same running sums, which is how
ties drop out. The sort is done once per (board, my hands, opponent hands) by
:func:`prepare_showdown`, the twins once per (my hands, opponent hands) by :func:`prepare_fold`;
the engine keeps their results (the showdown's per river board).

The functions are numba kernels (``@njit(cache=True)``) with plain-array arguments, so that the
range-vector solver calls them from its own compiled code:

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

import numpy as np
from numba import njit

# ``prepare_fold``'s result, a tuple of int64 arrays: (my_cards (n, k), my_twin (n,),
# opp_cards (m, k), deck (1,)), ``my_twin[i]`` the index of the opponent's hand equal to my
# ``i``-th (-1 if none).
FOLD_FIELDS = ("my_cards", "my_twin", "opp_cards", "deck")

# ``prepare_showdown``'s result, a tuple of int64 arrays (so numba stores it in typed lists):
# (my_sorted_cards (n, k), my_order (n,), my_sorted_strength (n,), my_twin (n,),
#  opp_sorted_cards (m, k), opp_order (m,), opp_sorted_strength (m,), deck (1,)):
# each side's hands sorted by strength, ``order[i]`` the original index of the ``i``-th weakest,
# ``my_twin[i]`` the position in the opponent's sorted list of the hand equal to my ``i``-th
# (-1 if none), ``deck[0]`` the deck size.
SHOWDOWN_FIELDS = (
    "my_sorted_cards",
    "my_order",
    "my_sorted_strength",
    "my_twin",
    "opp_sorted_cards",
    "opp_order",
    "opp_sorted_strength",
    "deck",
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
def _blocked(cards, card_sum, twin_reach):  # type: ignore[no-untyped-def]
    """``C[c1] (+ C[c2] - r(twin))``: the part of a running sum that collides with ``cards``."""
    if cards.shape[0] == 1:
        return card_sum[cards[0]]
    return card_sum[cards[0]] + card_sum[cards[1]] - twin_reach


@njit(cache=True)
def prepare_fold(my_cards, opp_cards, deck_size):  # type: ignore[no-untyped-def]
    """The tuple of ``FOLD_FIELDS`` that :func:`fold_values` reads: both hand lists, my hands'
    twins and the deck size. Its cost, a table of ``deck_size**2`` entries that finds the twins of
    two-card hands, is paid once per pair of hand lists instead of once a call."""
    return (my_cards, _twin_positions(my_cards, opp_cards, deck_size), opp_cards,
            np.full(1, deck_size, dtype=np.int64))


@njit(cache=True)
def fold_values(prepared, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (R - blocked(h))``: ``payoff`` times the opponent's reach over the hands
    that share no card with ``h``. O(n + m)."""
    my_cards, twin, opp_cards, deck = prepared[0], prepared[1], prepared[2], prepared[3]
    card_sum = np.zeros(deck[0])
    total = 0.0
    k = opp_cards.shape[1]
    for j in range(opp_cards.shape[0]):
        r = opp_reach[j]
        total += r
        for c in range(k):
            card_sum[opp_cards[j, c]] += r
    for i in range(my_cards.shape[0]):
        twin_reach = opp_reach[twin[i]] if twin[i] >= 0 else 0.0
        out[i] = payoff * (total - _blocked(my_cards[i], card_sum, twin_reach))


@njit(cache=True)
def prepare_showdown(my_cards, my_strength, opp_cards, opp_strength, deck_size):  # type: ignore[no-untyped-def]
    """Both hand lists sorted by strength (stable), the twins and the deck size: the tuple of
    ``SHOWDOWN_FIELDS`` that :func:`showdown_values` sweeps."""
    my_order = np.argsort(my_strength, kind="mergesort").astype(np.int64)
    opp_order = np.argsort(opp_strength, kind="mergesort").astype(np.int64)
    my_sorted_cards = my_cards[my_order].copy()
    opp_sorted_cards = opp_cards[opp_order].copy()
    opp_position = np.empty(opp_order.shape[0], dtype=np.int64)
    for p in range(opp_order.shape[0]):
        opp_position[opp_order[p]] = p
    twin = _twin_positions(my_sorted_cards, opp_cards, deck_size)
    for i in range(twin.shape[0]):
        if twin[i] >= 0:
            twin[i] = opp_position[twin[i]]
    deck = np.full(1, deck_size, dtype=np.int64)
    return (
        my_sorted_cards,
        my_order,
        my_strength[my_order].astype(np.int64),
        twin,
        opp_sorted_cards,
        opp_order,
        opp_strength[opp_order].astype(np.int64),
        deck,
    )


@njit(cache=True)
def showdown_values(prepared, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (W(h) - L(h))``, the unblocked opponent reach that ``h`` beats minus the
    one that beats it, from one sweep up and one sweep down the sorted hands."""
    my_cards, my_order, my_strength, my_twin = prepared[0], prepared[1], prepared[2], prepared[3]
    opp_cards, opp_order, opp_strength, deck = prepared[4], prepared[5], prepared[6], prepared[7]
    n, m, k = my_cards.shape[0], opp_cards.shape[0], opp_cards.shape[1]
    card_sum = np.zeros(deck[0])
    # Up: W(h) over the opponent's hands strictly weaker than h.
    total = 0.0
    j = 0
    for i in range(n):
        s = my_strength[i]
        while j < m and opp_strength[j] < s:
            r = opp_reach[opp_order[j]]
            total += r
            for c in range(k):
                card_sum[opp_cards[j, c]] += r
            j += 1
        t = my_twin[i]
        twin_reach = opp_reach[opp_order[t]] if t >= 0 and t < j else 0.0
        out[my_order[i]] = payoff * (total - _blocked(my_cards[i], card_sum, twin_reach))
    # Down: L(h) over the opponent's hands strictly stronger than h.
    card_sum[:] = 0.0
    total = 0.0
    j = m - 1
    for i in range(n - 1, -1, -1):
        s = my_strength[i]
        while j >= 0 and opp_strength[j] > s:
            r = opp_reach[opp_order[j]]
            total += r
            for c in range(k):
                card_sum[opp_cards[j, c]] += r
            j -= 1
        t = my_twin[i]
        twin_reach = opp_reach[opp_order[t]] if t > j else 0.0
        out[my_order[i]] -= payoff * (total - _blocked(my_cards[i], card_sum, twin_reach))


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
