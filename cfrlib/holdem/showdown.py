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
stronger ones (ties add nothing). Both come from one sweep up the opponent's hands sorted by
strength: a running total and running per-card sums over its weakest hands, so that the
unblocked reach of the ``x`` weakest is ``U_x(h) = R_x - C_x[c1] - C_x[c2] + r(twin)`` (the twin
only if it is among them); ``W(h) = U_lo(h)`` with ``lo`` the number of hands weaker than ``h``,
``L(h) = U_m(h) - U_hi(h)`` with ``hi`` the number weaker or tied. Tied hands fall between ``lo``
and ``hi``, which is how they drop out. The sort is done once per (board, my hands, opponent hands) by
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

# ``prepare_fold``'s result, a tuple of int64 arrays: (my_cards (n, 2), my_twin (n,),
# opp_cards (m, 2), deck (1,)) (one-card hands padded with a phantom card, see ``_two_cards``), ``my_twin[i]`` the index of the opponent's hand equal to my
# ``i``-th (-1 if none).
FOLD_FIELDS = ("my_cards", "my_twin", "opp_cards", "deck")

# ``prepare_showdown``'s result, a tuple of int64 arrays (so numba stores it in typed lists):
# (my_sorted_cards (n, 2), my_order (n,), my_weaker (n,), my_not_stronger (n,), my_twin (n,),
#  opp_sorted_cards (m, 2), opp_order (m,), deck (1,)): each side's hands sorted by strength
# (as two cards, see ``prepare_fold``),
# ``order[i]`` the original index of the ``i``-th weakest, ``my_weaker[i]`` and
# ``my_not_stronger[i]`` how many of the opponent's sorted hands are weaker than my ``i``-th and
# weaker or tied (so the first of them are those it beats, the ones from ``my_not_stronger[i]``
# on those that beat it), ``my_twin[i]`` the position in the opponent's sorted list of the hand
# equal to my ``i``-th (-1 if none), ``deck[0]`` the deck size.
SHOWDOWN_FIELDS = (
    "my_sorted_cards",
    "my_order",
    "my_weaker",
    "my_not_stronger",
    "my_twin",
    "opp_sorted_cards",
    "opp_order",
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
def _two_cards(cards, phantom):  # type: ignore[no-untyped-def]
    """Hands as two columns, so that the kernels need no loop over a hand's cards: one-card hands
    get a phantom card beside their card, ``deck_size`` for mine and ``deck_size + 1`` for the
    opponent's, so that no hand of mine meets the opponent's phantom in the running sums."""
    if cards.shape[1] == 2:
        return cards.astype(np.int64)
    out = np.full((cards.shape[0], 2), phantom, dtype=np.int64)
    out[:, 0] = cards[:, 0]
    return out


@njit(cache=True)
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


@njit(cache=True)
def fold_values(prepared, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (R - blocked(h))``: ``payoff`` times the opponent's reach over the hands
    that share no card with ``h``. O(n + m)."""
    my_cards, twin, opp_cards, deck = prepared[0], prepared[1], prepared[2], prepared[3]
    card_sum = np.zeros(deck[0] + 2)
    total = 0.0
    for j in range(opp_cards.shape[0]):
        r = opp_reach[j]
        total += r
        card_sum[opp_cards[j, 0]] += r
        card_sum[opp_cards[j, 1]] += r
    for i in range(my_cards.shape[0]):
        t = twin[i]
        twin_reach = opp_reach[t] if t >= 0 else 0.0
        out[i] = payoff * _unblocked(my_cards[i, 0], my_cards[i, 1], total, card_sum, twin_reach)


@njit(cache=True)
def prepare_showdown(my_cards, my_strength, opp_cards, opp_strength, deck_size):  # type: ignore[no-untyped-def]
    """Both hand lists sorted by strength (stable), where each of my hands splits the opponent's,
    the twins and the deck size: the tuple of ``SHOWDOWN_FIELDS`` that :func:`showdown_values`
    sweeps."""
    my_order = np.argsort(my_strength, kind="mergesort").astype(np.int64)
    opp_order = np.argsort(opp_strength, kind="mergesort").astype(np.int64)
    my_sorted_cards = _two_cards(my_cards[my_order], deck_size)
    opp_sorted_cards = _two_cards(opp_cards[opp_order], deck_size + 1)
    opp_sorted_strength = opp_strength[opp_order]
    my_sorted_strength = my_strength[my_order]
    weaker = np.searchsorted(opp_sorted_strength, my_sorted_strength, side="left").astype(np.int64)
    not_stronger = np.searchsorted(opp_sorted_strength, my_sorted_strength, side="right").astype(np.int64)
    opp_position = np.empty(opp_order.shape[0], dtype=np.int64)
    for p in range(opp_order.shape[0]):
        opp_position[opp_order[p]] = p
    twin = _twin_positions(my_cards[my_order], opp_cards, deck_size)
    for i in range(twin.shape[0]):
        if twin[i] >= 0:
            twin[i] = opp_position[twin[i]]
    deck = np.full(1, deck_size, dtype=np.int64)
    return (my_sorted_cards, my_order, weaker, not_stronger, twin, opp_sorted_cards, opp_order, deck)


@njit(cache=True)
def showdown_values(prepared, opp_reach, payoff, out):  # type: ignore[no-untyped-def]
    """``out[h] = payoff * (W(h) - L(h))``, the unblocked opponent reach that ``h`` beats minus the
    one that beats it, from one sweep up the sorted hands. With ``U_x(h)`` the unblocked reach of
    the opponent's ``x`` weakest hands (additive over disjoint sets of hands), ``W = U_lo`` and
    ``L = U_m - U_hi`` for ``lo, hi = my_weaker[h], my_not_stronger[h]``: the sweep adds the
    opponent's hands one at a time and reads ``U`` at each hand's two positions (both increase
    along my sorted hands), then ``U_m`` at the end."""
    my_cards, my_order, weaker, not_stronger, my_twin = prepared[0], prepared[1], prepared[2], prepared[3], prepared[4]
    opp_cards, opp_order, deck = prepared[5], prepared[6], prepared[7]
    n, m = my_cards.shape[0], opp_cards.shape[0]
    card_sum = np.zeros(deck[0] + 2)
    total = 0.0
    lo = 0
    hi = 0
    for j in range(m + 1):  # out[my_order[i]] collects U_lo + U_hi of my i-th hand
        while lo < n and weaker[lo] == j:
            t = my_twin[lo]
            twin_reach = opp_reach[opp_order[t]] if 0 <= t < j else 0.0
            out[my_order[lo]] = _unblocked(my_cards[lo, 0], my_cards[lo, 1], total, card_sum, twin_reach)
            lo += 1
        while hi < n and not_stronger[hi] == j:
            t = my_twin[hi]
            twin_reach = opp_reach[opp_order[t]] if 0 <= t < j else 0.0
            out[my_order[hi]] += _unblocked(my_cards[hi, 0], my_cards[hi, 1], total, card_sum, twin_reach)
            hi += 1
        if j < m:
            r = opp_reach[opp_order[j]]
            total += r
            card_sum[opp_cards[j, 0]] += r
            card_sum[opp_cards[j, 1]] += r
    for i in range(n):
        t = my_twin[i]
        twin_reach = opp_reach[opp_order[t]] if t >= 0 else 0.0
        h = my_order[i]
        out[h] = payoff * (out[h] - _unblocked(my_cards[i, 0], my_cards[i, 1], total, card_sum, twin_reach))


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
