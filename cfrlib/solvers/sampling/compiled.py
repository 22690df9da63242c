"""The compiled tree as plain Python lists, for the sampling solvers' walks.

A sampling iteration visits a few dozen nodes, one at a time, so a numpy call per node (about a
microsecond each) would cost more than the work itself. ``flat_tree`` converts the arrays of
a ``cfrlib.tree.Tree`` once into lists and tuples that a tight Python loop indexes directly.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from weakref import WeakKeyDictionary

from ...game import CHANCE

_CACHE: WeakKeyDictionary = WeakKeyDictionary()


class FlatTree:
    """Per node: ``player``, ``infoset``, ``first_child``, ``num_children``, the utilities
    ``utility[i]`` of each player (terminals), and at chance nodes the outcome probabilities
    ``chance_probs`` with their running sums ``chance_cumulative`` and ``chance_last`` (the last
    outcome of positive probability, for a uniform beyond a rounded-down total). Per infoset:
    ``num_actions``."""

    def __init__(self, tree):
        self.player = tree.player.tolist()
        self.infoset = tree.infoset.tolist()
        self.first_child = tree.first_child.tolist()
        self.num_children = tree.num_children.tolist()
        payoff = tree.payoff.tolist()
        self.utility = (payoff, [tree.constant_sum - u for u in payoff])
        self.num_actions = tree.infoset_num_actions.tolist()
        edge_prob = tree.chance_prob.tolist()
        self.chance_probs = [None] * len(self.player)
        self.chance_cumulative = [None] * len(self.player)
        self.chance_last = [None] * len(self.player)
        for n, p in enumerate(self.player):
            if p == CHANCE:
                f = self.first_child[n]
                probs = tuple(edge_prob[f:f + self.num_children[n]])
                self.chance_probs[n] = probs
                self.chance_cumulative[n] = tuple(accumulate(probs))
                self.chance_last[n] = max(a for a, q in enumerate(probs) if q > 0.0)

    def chance_outcome(self, n, u) -> int:
        """The outcome a uniform ``u`` picks at chance node ``n``: the first whose running sum of
        probabilities exceeds ``u`` (the last possible one if rounding leaves ``u`` above all)."""
        c = self.chance_cumulative[n]
        k = bisect_right(c, u)
        return k if k < len(c) else self.chance_last[n]


def flat_tree(tree) -> FlatTree:
    """The ``FlatTree`` of ``tree``, built once and cached while the tree lives."""
    flat = _CACHE.get(tree)
    if flat is None:
        flat = _CACHE[tree] = FlatTree(tree)
    return flat
