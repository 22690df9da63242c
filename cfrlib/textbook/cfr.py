"""Counterfactual regret minimization by plain recursion over the game's histories.

This is chapter 4's vanilla CFR written the way the math reads: one recursive walk of the state
API (:class:`cfrlib.game.State`) per player and iteration, one :class:`InfoSet` of dictionaries
per information set. The variants of the later chapters (CFR+, Linear CFR, DCFR, predictive CFR+)
change only the *local rule* at each infoset, passed in as ``rule``
(:mod:`cfrlib.textbook.rules`): how the stored regret absorbs ``r^t``, which strategy is played
from it, and the weight ``w_t`` of the average. Two options concern the walk, not the rule:

* ``alternating``: player 0 updates, then player 1 walks against player 0's new strategy;
  otherwise both update after one walk with ``sigma^t``;
* ``pruning``: skip the subtree below a node where no update can happen (the two-phase cut).

:class:`cfrlib.solvers.fullwidth.FullWidthCFR` computes the same numbers on the compiled tree;
the tests check that the two agree to 1e-12.
"""

from __future__ import annotations

from ..game import Game, State
from . import rules


# Shown in the book: chapter 4.
class InfoSet:
    """What CFR remembers about one information set ``I``."""

    def __init__(self, actions: list[str]) -> None:
        self.actions = actions                    # A(I)
        self.regret = {a: 0.0 for a in actions}   # R^t(I, a)
        self.instant = {a: 0.0 for a in actions}  # r^t(I, a), this iteration
        # sigma^t(I, a), uniform at t = 1
        self.strategy = {a: 1.0 / len(actions) for a in actions}
        # sum_t w_t pi_i(h) sigma^t(I, a)
        self.strategy_sum = {a: 0.0 for a in actions}

    def average(self) -> dict[str, float]:
        """``sigma-bar(I, a)``: the normalised strategy sum (uniform if ``I`` was
        never reached)."""
        total = sum(self.strategy_sum.values())
        if total > 0.0:
            return {a: s / total for a, s in self.strategy_sum.items()}
        return {a: 1.0 / len(self.actions) for a in self.actions}


class TextbookCFR:
    """Vanilla CFR, or the variant whose local ``rule`` is given (see the module
    docstring)."""

    def __init__(self, game: Game, rule: rules.LocalRule = rules.VANILLA, *,
                 alternating: bool = True, pruning: bool = False) -> None:
        self.game = game
        self.rule = rule
        self.alternating, self.pruning = alternating, pruning
        self.infosets: dict[tuple[int, str], InfoSet] = {}            # (player, key) -> InfoSet
        self.t = 0
        self.nodes_touched = 0

    def iterate(self, iterations: int = 1) -> TextbookCFR:
        for _ in range(iterations):
            self.t += 1
            self.weight = self.rule.weight(self.t)    # w_t
            root = self.game.initial_state()
            if self.alternating:
                for i in (0, 1):
                    self.walk(root, (1.0, 1.0, 1.0), updating=(i,))
                    self.update(i)
            else:
                self.walk(root, (1.0, 1.0, 1.0), updating=(0, 1))
                self.update(0)
                self.update(1)
        return self

    # Shown in the book: chapters 4, 8.
    def walk(self, h: State, reach: tuple[float, ...],
             updating: tuple[int, ...]) -> float:

        """Return ``u_0(h)``, player 0's expected utility below ``h`` under
        ``sigma^t``; on the way add ``r^t(I, a)`` and the average-strategy terms of
        the ``updating`` players.

        ``reach = (pi_0(h), pi_1(h), pi_c(h))``.
        """
        self.nodes_touched += 1
        if h.is_terminal():
            return h.returns()[0]                 # u_0(z)
        if h.is_chance():
            return sum(p * self.walk(h.child(o),
                                     (reach[0], reach[1], reach[2] * p), updating)
                       for o, p in h.chance_outcomes())
        i = h.current_player()
        info = self.infosets.get((i, h.infoset_key()))
        if info is None:
            info = self.infosets[(i, h.infoset_key())] = InfoSet(h.legal_actions())

        def others(p: int) -> float:              # pi_{-p}(h): chance and opponent
            return reach[1 - p] * reach[2]

        # Pruning: below here every regret term has weight pi_{-p}(h) = 0 and every
        # average term pi_p(h) = 0, for each updating player p, so the subtree
        # changes nothing.
        if (self.pruning and i in updating
                and all(reach[p] == 0.0 and others(p) == 0.0 for p in updating)):
            return 0.0

        value: dict[str, float] = {}              # u_0(ha)
        for a in info.actions:
            child = list(reach)
            child[i] *= info.strategy[a]          # pi_i(ha) = pi_i(h) sigma(I, a)
            value[a] = self.walk(h.child(a), tuple(child), updating)
        # u_0(h)
        v = sum(info.strategy[a] * value[a] for a in info.actions)

        if i in updating:
            sign = 1.0 if i == 0 else -1.0        # u_1 = -u_0 (plus a constant)
            for a in info.actions:
                # r(I, a) += pi_{-i}(h) (u_i(ha) - u_i(h))
                info.instant[a] += others(i) * sign * (value[a] - v)
                # S(I, a) += w_t pi_i(h) sigma(I, a); w_t = 1 in vanilla CFR
                info.strategy_sum[a] += self.weight * reach[i] * info.strategy[a]
        return v

    # Shown in the book: chapter 4.
    def update(self, player: int) -> None:
        """Turn this iteration's ``r^t`` into ``R^t`` and the next strategy
        ``sigma^{t+1}``, by the rule at every infoset of ``player``."""
        for (p, _), info in self.infosets.items():
            if p != player:
                continue
            # R^t = R^{t-1} + r^t in vanilla CFR
            for a in info.actions:
                info.regret[a] = self.rule.regret(info.regret[a], info.instant[a],
                                                  self.t)
            # regret matching in vanilla CFR
            info.strategy = self.rule.strategy(info.regret, info.instant)
            info.instant = {a: 0.0 for a in info.actions}

    def average_strategy(self) -> dict[tuple[int, str], dict[str, float]]:
        """``{(player, key): {action: probability}}`` for every infoset met so far."""
        return {key: info.average() for key, info in self.infosets.items()}

    def current_strategy(self) -> dict[tuple[int, str], dict[str, float]]:

        return {key: dict(info.strategy) for key, info in self.infosets.items()}
