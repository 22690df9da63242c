"""Small games for tests: a game written as nested tuples, and seeded random games.

``TupleGame`` reads a tree such as::

    ("chance", [("heads", 0.5, subtree), ("tails", 0.5, subtree)])
    ("player", 0, "infoset name", [("left", subtree), ("right", subtree)])
    ("terminal", u0, u1)

``random_game(seed)`` builds a random two-player zero-sum game with perfect recall: chance deals
each player a private signal, then players and public chance events alternate along a random
public tree; a player's infoset is their own signal plus the public history.
"""

from __future__ import annotations

import numpy as np

from cfrlib.game import CHANCE, TERMINAL, Game, State


class TupleState(State):
    __slots__ = ("node",)

    def __init__(self, node):
        self.node = node

    def current_player(self):
        kind = self.node[0]
        return {"chance": CHANCE, "terminal": TERMINAL}.get(kind, self.node[1] if kind == "player" else None)

    def legal_actions(self):
        if self.node[0] == "chance":
            return [name for name, _, _ in self.node[1]]
        return [name for name, _ in self.node[3]] if self.node[0] == "player" else []

    def chance_outcomes(self):
        return [(name, p) for name, p, _ in self.node[1]]

    def child(self, action):
        if self.node[0] == "chance":
            return TupleState(next(sub for name, _, sub in self.node[1] if name == action))
        return TupleState(next(sub for name, sub in self.node[3] if name == action))

    def infoset_key(self):
        return self.node[2]

    def returns(self):
        return self.node[1], self.node[2]


class TupleGame(Game):
    def __init__(self, root, name="toy", constant_sum=0.0):
        self.root, self.name, self.constant_sum = root, name, constant_sum

    def initial_state(self):
        return TupleState(self.root)


class RandomState(State):
    __slots__ = ("game", "signals", "public")

    def __init__(self, game, signals, public):
        self.game, self.signals, self.public = game, signals, public

    def _node(self):
        return self.game.structure[self.public]

    def current_player(self):
        if len(self.signals) < 2:
            return CHANCE
        kind = self._node()[0]
        return {"chance": CHANCE, "end": TERMINAL}.get(kind, kind)

    def chance_outcomes(self):
        if len(self.signals) < 2:
            probs = self.game.signal_probs[len(self.signals)]
            return [(f"s{k}", float(q)) for k, q in enumerate(probs)]
        return [(f"e{k}", float(q)) for k, q in enumerate(self._node()[1])]

    def legal_actions(self):
        if self.is_chance():
            return [a for a, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return [f"a{k}" for k in range(self._node()[1])]

    def child(self, action):
        if len(self.signals) < 2:
            return RandomState(self.game, self.signals + (action,), self.public)
        return RandomState(self.game, self.signals, self.public + (action,))

    def infoset_key(self):
        p = self.current_player()
        return f"p{p}:{self.signals[p]}|" + ".".join(self.public)

    def returns(self):
        u0 = self.game.payoff[(self.signals, self.public)]
        return u0, -u0


class RandomGame(Game):
    """A seeded random game (see the module docstring)."""

    def __init__(self, seed, max_depth=4, signals=(2, 3)):
        rng = np.random.default_rng(seed)
        self.name = f"random{seed}"
        self.signal_probs = [rng.dirichlet(np.ones(n)) for n in signals]
        self.structure = {}
        self.payoff = {}

        def build(public, depth):
            r = rng.random() if depth > 0 else 0.5  # the root is always a decision
            if depth >= max_depth or r < 0.2:
                self.structure[public] = ("end",)
                return
            if r < 0.35:
                k = int(rng.integers(2, 4))
                self.structure[public] = ("chance", rng.dirichlet(np.ones(k)))
                names = [f"e{j}" for j in range(k)]
            else:
                k = int(rng.integers(1, 4))
                self.structure[public] = (int(rng.integers(0, 2)), k)
                names = [f"a{j}" for j in range(k)]
            for name in names:
                build(public + (name,), depth + 1)

        build((), 0)
        sig = [[f"s{k}" for k in range(n)] for n in signals]
        for public, node in self.structure.items():
            if node[0] == "end":
                for s0 in sig[0]:
                    for s1 in sig[1]:
                        self.payoff[((s0, s1), public)] = float(np.round(rng.normal() * 3, 3))

    def initial_state(self):
        return RandomState(self, (), ())


def random_strategy(game, seed):
    """A random behaviour strategy for ``game`` (Dirichlet per infoset), as an array."""
    tree = game.tree()
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(tree.max_actions), size=tree.num_infosets) * tree.action_mask
    return probs / probs.sum(axis=1, keepdims=True)
