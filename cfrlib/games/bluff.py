"""Bluff, also called liar's dice (Lanctot 2013, section 3.1).

Rules. Each player rolls their dice in secret (player 0 has ``dice[0]`` dice, player 1 has
``dice[1]``, each with ``sides`` faces). Players then bid in turn, player 0 first. A bid
``q-f`` claims that at least ``q`` of all the dice show face ``f``; the highest face (``sides``)
is wild and counts as every face. Each bid must be higher than the previous one in the order
``1-1 < 1-2 < ... < 1-sides < 2-1 < ...``. Instead of bidding, a player may call ``liar`` on
the previous bid (not as the first move). The dice are revealed: if the bid holds, the caller
loses, otherwise the bidder loses. The loser pays 1 chip to the winner.

Action order: the bids, increasing, then ``liar``. A player's dice are one chance outcome, the
sorted faces joined (``"25"`` for a 2 and a 5). Infoset keys read ``"25|1-3,2-4"``: the player's
own dice, then the bids so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import factorial, prod

from ..game import CHANCE, TERMINAL, Game, State

LIAR = "liar"


class Bluff(Game):
    """Liar's dice for two players with any number of dice and sides."""

    def __init__(self, dice: Sequence[int] = (1, 1), sides: int = 6) -> None:
        if (len(dice) != 2 or not all(isinstance(d, int) and d >= 1 for d in dice)):
            raise ValueError(f"bluff: dice must be two positive integers, got {dice!r}")
        if not (isinstance(sides, int) and 2 <= sides <= 9):
            raise ValueError(f"bluff: sides must be an integer from 2 to 9, got {sides!r}")
        self.dice: tuple[int, ...] = tuple(dice)
        self.sides = sides
        total = sum(dice)
        self.bids = [f"{q}-{f}" for q in range(1, total + 1) for f in range(1, sides + 1)]
        self._bid_value = {b: (int(b.split("-")[0]), int(b.split("-")[1])) for b in self.bids}
        self.rolls = [self._roll_distribution(d) for d in self.dice]
        self.name = f"bluff{self.dice[0]}{self.dice[1]}" + ("" if sides == 6 else f"_{sides}sides")

    def _roll_distribution(self, n: int) -> list[tuple[str, float]]:
        """Sorted rolls of ``n`` dice with their multinomial probabilities."""
        outcomes = []
        for faces in combinations_with_replacement(range(1, self.sides + 1), n):
            ways = factorial(n) // prod(factorial(faces.count(f)) for f in set(faces))
            outcomes.append(("".join(map(str, faces)), ways / self.sides ** n))
        return outcomes

    def initial_state(self) -> BluffState:
        return BluffState(self, (), ())

    def bid_holds(self, bid: str, rolls: Sequence[str]) -> bool:
        """Whether at least ``q`` dice show face ``f`` (or the wild face) for bid ``q-f``."""
        q, f = self._bid_value[bid]
        faces = "".join(rolls)
        wild = str(self.sides)
        count = faces.count(str(f)) + (faces.count(wild) if f != self.sides else 0)
        return count >= q

    def __repr__(self) -> str:
        return f"bluff(dice={self.dice}, sides={self.sides})"


class BluffState(State):
    """A Bluff history: the rolls so far and the list of actions (bids, maybe ``liar``)."""

    __slots__ = ("game", "rolls", "actions")

    def __init__(self, game: Bluff, rolls: tuple[str, ...], actions: tuple[str, ...]) -> None:
        self.game, self.rolls, self.actions = game, rolls, actions

    def current_player(self) -> int:
        if len(self.rolls) < 2:
            return CHANCE
        if self.actions and self.actions[-1] == LIAR:
            return TERMINAL
        return len(self.actions) % 2

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if len(self.rolls) >= 2:
            return super().chance_outcomes()
        return self.game.rolls[len(self.rolls)]

    def legal_actions(self) -> list[str]:
        p = self.current_player()
        if p == CHANCE:
            return [r for r, _ in self.chance_outcomes()]
        if p == TERMINAL:
            return []
        bids = self.game.bids
        if not self.actions:
            return list(bids)
        return bids[bids.index(self.actions[-1]) + 1:] + [LIAR]

    def child(self, action: str) -> BluffState:
        if len(self.rolls) < 2:
            return BluffState(self.game, self.rolls + (action,), ())
        return BluffState(self.game, self.rolls, self.actions + (action,))

    def infoset_key(self) -> str:
        return f"{self.rolls[len(self.actions) % 2]}|{','.join(self.actions)}"

    def returns(self) -> tuple[float, float]:
        caller = (len(self.actions) - 1) % 2
        bidder = 1 - caller
        loser = caller if self.game.bid_holds(self.actions[-2], self.rolls) else bidder
        return (-1.0, 1.0) if loser == 0 else (1.0, -1.0)

    def __repr__(self) -> str:
        return f"BluffState(rolls={self.rolls}, actions={self.actions})"


def bluff(dice: Sequence[int] = (1, 1), sides: int = 6) -> Bluff:

    """Bluff (liar's dice); ``bluff()`` has 24,576 infosets and value -0.027136 for player 0."""
    return Bluff(dice=dice, sides=sides)
