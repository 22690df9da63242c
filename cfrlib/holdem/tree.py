"""The public tree of a spot: who acts, with which actions and amounts, where cards come and
where the hand ends, with the private cards left out (the solver carries them as vectors).

Nodes are player nodes (OOP = 0 acts first on each street, IP = 1), chance nodes (the next
street's card; one node stands for every card, the solver deals them) and terminals (a fold by
``player``, or a showdown). ``amount`` is what each player has put in beyond the starting pot
and matched; at a terminal, the winner of the showdown or the player who did not fold receives
``starting_pot + amount`` and the other ``-amount`` (a tie: ``starting_pot / 2`` each), so
that the two players' values add up to the starting pot.

The rules that make the actions from a :class:`~cfrlib.holdem.spot.TreeConfig` are
postflop-solver's ``ActionTree`` (its semantics, in our own code): after a check or at the
start of a street, check and the bet sizes (the donk sizes for OOP when IP bet and was called
on the previous street), facing a bet, fold, call and the raise sizes (none after an all-in);
amounts clamped between the minimum raise and the stack, turned into all-in near the stack
(``force_allin_threshold``), duplicates and near-duplicates (``merging_threshold``) dropped,
and actions sorted as Fold < Check < Call < Bet < Raise < AllIn, by amount within a kind.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import SpotError
from .spot import STREETS, BetSize, TreeConfig

PLAYER, CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3
"""Node kinds."""

ACTION_KINDS = ("Fold", "Check", "Call", "Bet", "Raise", "AllIn")
"""In the order actions are sorted (postflop-solver's)."""


class Action(NamedTuple):
    """An action and its amount: the total the player has put in on this street after it
    (0 for Fold, Check, Call). Prints as postflop-solver prints it: ``Bet(120)``, ``Call``."""

    kind: str
    amount: int = 0

    def __repr__(self) -> str:
        return f"{self.kind}({self.amount})" if self.kind in ("Bet", "Raise", "AllIn") else self.kind

    def sort_key(self) -> tuple[int, int]:
        return ACTION_KINDS.index(self.kind), self.amount


@dataclass
class PublicNode:
    """A node of the public tree (see the module docstring)."""

    kind: int
    player: int
    street: int
    amount: int
    actions: list[Action] = field(default_factory=list)
    children: list[PublicNode] = field(default_factory=list)

    def child(self, action: Action | str) -> PublicNode:
        """The child after ``action`` (an Action or its printed form, such as ``"Bet(120)"``)."""
        names = [repr(a) for a in self.actions]
        key = repr(action) if isinstance(action, Action) else action
        if key not in names:
            raise SpotError(f"no action {key!r} here; the actions are {names}")
        return self.children[names.index(key)]


def _round(x: float) -> int:
    """Rust's ``f64::round`` for the non-negative amounts met here (half away from zero)."""
    return int(math.floor(x + 0.5))


@dataclass(frozen=True)
class _Line:
    """What the rules need to know about the actions so far."""

    previous: str = "None"  # kind of the last action: None, Check, Call, Bet/Raise/AllIn, Chance
    bets: int = 0  # bets and raises on this street
    allin: bool = False
    oop_called: bool = False  # the previous street ended by OOP calling
    stacks: tuple[int, int] = (0, 0)
    to_match: int = 0  # the amount of the last bet or raise on this street

    def after(self, player: int, action: Action) -> _Line:
        stacks = list(self.stacks)
        if action.kind == "Check":
            return _Line("Check", self.bets, self.allin, False, self.stacks, self.to_match)
        if action.kind == "Call":
            stacks[player] = stacks[1 - player]
            return _Line("Call", 0, self.allin, player == 0, (stacks[0], stacks[1]), 0)
        if action.kind in ("Bet", "Raise", "AllIn"):
            owed = stacks[player] - stacks[1 - player]
            stacks[player] -= action.amount - self.to_match + owed
            return _Line(action.kind, self.bets + 1, action.kind == "AllIn", self.oop_called,
                         (stacks[0], stacks[1]), action.amount)
        return self


class PublicTree:
    """The public tree of ``config`` (a :class:`~cfrlib.holdem.spot.TreeConfig`)."""

    def __init__(self, config: TreeConfig) -> None:
        if not isinstance(config, TreeConfig):
            raise SpotError(f"PublicTree needs a TreeConfig, got {config!r}")
        self.config = config
        stack = config.effective_stack
        self.root = PublicNode(PLAYER, 0, config.first_street, 0)
        self._grow(self.root, _Line(stacks=(stack, stack)))

    def _grow(self, node: PublicNode, line: _Line) -> None:
        if node.kind in (FOLD, SHOWDOWN):
            return
        if node.kind == CHANCE:
            street = node.street + 1
            if line.allin:  # both all-in: deal the rest and show down
                kind = CHANCE if street < 2 else SHOWDOWN
                child = PublicNode(kind, -1, street, node.amount)
            else:
                child = PublicNode(PLAYER, 0, street, node.amount)
            node.children.append(child)
            self._grow(child, _Line("Chance", 0, line.allin, line.oop_called, line.stacks, 0))
            return
        for action in self._actions(node, line):
            node.actions.append(action)
            node.children.append(self._child(node, action, line))
            self._grow(node.children[-1], line.after(node.player, action))

    def _child(self, node: PublicNode, action: Action, line: _Line) -> PublicNode:
        p = node.player
        owed = line.stacks[p] - line.stacks[1 - p]
        after_call = (SHOWDOWN, -1) if node.street == 2 else (CHANCE, -1)
        if action.kind == "Fold":
            return PublicNode(FOLD, p, node.street, node.amount)
        if action.kind == "Check":
            kind, player = (PLAYER, 1) if p == 0 else after_call
            return PublicNode(kind, player, node.street, node.amount)
        if action.kind == "Call":
            kind, player = after_call
            return PublicNode(kind, player, node.street, node.amount + owed)
        return PublicNode(PLAYER, 1 - p, node.street, node.amount + owed)

    def _actions(self, node: PublicNode, line: _Line) -> list[Action]:
        config = self.config
        p = node.player
        mine, theirs = line.stacks[p], line.stacks[1 - p]
        owed = mine - theirs
        pot = config.starting_pot + 2 * (node.amount + owed)
        most = theirs + line.to_match  # all-in: the largest total on this street
        least = min(max(line.to_match + owed, 1), most)  # the minimum bet or raise
        streets_left = 3 - node.street
        spr = theirs / pot

        def geometric(streets: int, cap: float) -> int:
            ratio = ((2.0 * spr + 1.0) ** (1.0 / streets) - 1.0) / 2.0
            return _round(pot * min(ratio, cap))

        def sized(size: BetSize, raising: bool) -> Action | None:
            kind, base = ("Raise", line.to_match) if raising else ("Bet", 0)
            if size.kind == "allin":
                return Action("AllIn", most)
            if size.kind == "pot":
                return Action(kind, base + _round(pot * size.value))
            if size.kind == "previous":
                return Action(kind, _round(line.to_match * size.value))
            if size.kind == "chips":
                if raising and size.cap and line.bets > size.cap:
                    return None
                return Action(kind, base + int(size.value))
            n = size.streets or streets_left
            return Action(kind, base + geometric(max(n - line.bets + 1, 1) if raising else n, size.value))

        donk = config.donk_sizes(node.street)
        actions: list[Action | None]
        if line.previous in ("None", "Check", "Chance"):
            leading = donk is not None and line.previous == "Chance" and line.oop_called
            sizes = donk if leading else config.bets[STREETS[node.street]][p].bet
            actions = [Action("Check"), *(sized(s, False) for s in sizes or ())]
            if most <= _round(pot * config.add_allin_threshold):
                actions.append(Action("AllIn", most))
        else:
            actions = [Action("Fold"), Action("Call")]
            if not line.allin:
                actions += [sized(s, True) for s in config.bets[STREETS[node.street]][p].raise_]
                if most <= line.to_match + _round(pot * config.add_allin_threshold):
                    actions.append(Action("AllIn", most))

        def near_allin(amount: int) -> bool:
            new_pot = pot + 2 * (amount - line.to_match)
            return most <= amount + _round(new_pot * config.force_allin_threshold)

        clamped = []
        for action in actions:
            if action is None:
                continue
            if action.kind in ("Bet", "Raise"):
                amount = min(max(action.amount, least), most)
                action = Action("AllIn", most) if near_allin(amount) else Action(action.kind, amount)
            clamped.append(action)
        unique = sorted(set(clamped), key=Action.sort_key)
        return _merge(unique, pot, line.to_match, config.merging_threshold)

    def nodes(self) -> Iterator[PublicNode]:
        """Every node, parents before children (depth first, actions in order)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def count_by_street(self) -> tuple[int, int, int]:
        """Nodes of the flop, turn and river (a chance node counts with the street that ends in
        it; terminals too), the figures postflop-solver's ``ActionTree`` counts."""
        counts = [0, 0, 0]
        for node in self.nodes():
            counts[node.street] += 1
        return counts[0], counts[1], counts[2]


def _merge(actions: list[Action], pot: int, offset: int, threshold: float) -> list[Action]:
    """Drop each bet whose size ``(amount - offset) / pot`` is not below
    ``(kept - threshold) / (1 + threshold)``, ``kept`` the size of the next larger one kept."""
    kept: list[Action] = []
    above = math.inf
    for action in reversed(actions):
        if action.kind in ("Bet", "Raise", "AllIn"):
            ratio = (action.amount - offset) / pot
            if ratio < (above - threshold) / (1.0 + threshold) * (1.0 - 1e-12):
                kept.append(action)
                above = ratio
        else:
            kept.append(action)
    return kept[::-1]
