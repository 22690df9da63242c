"""Counterfactual regret minimization by plain recursion over the game's histories.

This is chapter 4's vanilla CFR written the way the math reads: one recursive walk of the state
API (:class:`cfrlib.game.State`) per player and iteration, one :class:`InfoSet` of dictionaries
per information set. The variants of the later chapters (CFR+, Linear CFR, DCFR, predictive CFR+)
change only the *local rule* at each infoset, passed in as ``rule``
(:mod:`cfrlib.textbook.rules`): how the stored regret absorbs ``r^t``, which strategy is played
from it, and the weight ``w_t`` of the average. The walk is the same for all of them. Two options
concern the order and the extent of the walks, not the rule:

* ``alternating`` (the default): player 0 walks and updates, then player 1 walks against player
  0's new strategy; with ``alternating=False`` both walk against ``sigma^t`` before either
  updates (two walks an iteration either way);
* :class:`PrunedTextbookCFR`: the walk skips the subtree below a node where no update can
  happen (the two-phase cut).

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
        # sum_{h in I} pi_i(h) sigma^t(I, a), this iteration
        self.reached = {a: 0.0 for a in actions}
        # sigma^t(I, a), uniform at t = 1
        self.strategy = {a: 1.0 / len(actions) for a in actions}
        # S(I, a) = sum_t w_t sum_{h in I} pi_i(h) sigma^t(I, a)
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
                 alternating: bool = True) -> None:
        self.game = game
        self.rule = rule
        self.alternating = alternating
        self.infosets: dict[tuple[int, str], InfoSet] = {}            # (player, key) -> InfoSet
        self.t = 0
        self.nodes_touched = 0

    def iterate(self, iterations: int = 1) -> TextbookCFR:
        for _ in range(iterations):
            self.t += 1
            for i in (0, 1):
                self.walk(self.game.initial_state(), i, (1.0, 1.0, 1.0))
                if self.alternating:
                    self.update(i)
            if not self.alternating:
                self.update(0)
                self.update(1)
        return self

    # Shown in the book: chapter 4.
    def walk(self, h: State, i: int, reach: tuple[float, float, float]) -> float:
        """Return ``u_i(h)``, player ``i``'s expected utility below ``h`` under
        ``sigma^t``; at player ``i``'s infosets add ``r^t(I, a)`` and the
        reach-weighted strategy. ``reach = (pi_0(h), pi_1(h), pi_c(h))``."""
        self.nodes_touched += 1
        if h.is_terminal():
            return h.returns()[i]                 # u_i(z)
        if h.is_chance():
            return sum(prob * self.walk(h.child(o), i,
                                     (reach[0], reach[1], reach[2] * prob))
                       for o, prob in h.chance_outcomes())
        p = h.current_player()
        info = self.infosets.get((p, h.infoset_key()))
        if info is None:
            info = self.infosets[(p, h.infoset_key())] = InfoSet(h.legal_actions())
        value = {}                                # u_i(ha)
        for a in info.actions:
            child = list(reach)
            child[p] *= info.strategy[a]          # pi_p(ha) = pi_p(h) sigma(I, a)
            value[a] = self.walk(h.child(a), i, (child[0], child[1], child[2]))
        v = sum(info.strategy[a] * value[a] for a in info.actions)    # u_i(h)
        if p == i:
            others = reach[1 - i] * reach[2]      # pi_{-i}(h): opponent and chance
            for a in info.actions:
                # r(I, a) += pi_{-i}(h) (u_i(ha) - u_i(h))
                info.instant[a] += others * (value[a] - v)
                # this iteration's pi_i(h) sigma(I, a)
                info.reached[a] += reach[i] * info.strategy[a]
        return v

    # Shown in the book: chapters 4, 8.
    def update(self, player: int) -> None:
        """At every infoset of ``player``: add this iteration's reach-weighted
        strategy to ``S`` with weight ``w_t``, and turn ``r^t`` into ``R^t`` and
        the next strategy ``sigma^{t+1}``, by the rule."""
        w = self.rule.weight(self.t)              # w_t = 1 in vanilla CFR
        for (p, _), info in self.infosets.items():
            if p != player:
                continue
            for a in info.actions:
                info.strategy_sum[a] += w * info.reached[a]
                # R^t = R^{t-1} + r^t in vanilla CFR
                info.regret[a] = self.rule.regret(info.regret[a], info.instant[a],
                                                  self.t)
            # regret matching in vanilla CFR (instant: used only by
            # predictive CFR+, chapter 9)
            info.strategy = self.rule.strategy(info.regret, info.instant)
            info.instant = {a: 0.0 for a in info.actions}
            info.reached = {a: 0.0 for a in info.actions}

    def average_strategy(self) -> dict[tuple[int, str], dict[str, float]]:
        """``{(player, key): {action: probability}}`` for every infoset met so far."""
        return {key: info.average() for key, info in self.infosets.items()}

    def current_strategy(self) -> dict[tuple[int, str], dict[str, float]]:

        return {key: dict(info.strategy) for key, info in self.infosets.items()}


# Shown in the book: chapter 4.
class PrunedTextbookCFR(TextbookCFR):
    """:class:`TextbookCFR` with the two-phase cut: at a node of the walking player
    ``i`` where ``pi_i(h) = 0`` and ``pi_{-i}(h) = 0`` every term below has weight
    zero, so the walk touches the node and returns without its subtree."""

    def walk(self, h: State, i: int, reach: tuple[float, float, float]) -> float:
        if (not h.is_terminal() and not h.is_chance() and h.current_player() == i
                and reach[i] == 0.0 and reach[1 - i] * reach[2] == 0.0):
            self.nodes_touched += 1
            return 0.0
        return super().walk(h, i, reach)
