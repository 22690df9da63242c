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

import numpy as np

from ..errors import GameError
from ..game import CHANCE, TERMINAL, Game, State
from ..tree import NodeTable

LIAR = "liar"


class Bluff(Game):
    """Liar's dice for two players with any number of dice and sides."""

    def __init__(self, dice: Sequence[int] = (1, 1), sides: int = 6) -> None:
        if not (isinstance(dice, Sequence) and len(dice) == 2
                and all(isinstance(d, int) and d >= 1 for d in dice)):
            raise GameError(f"bluff: dice must be two positive integers (player 0's, player 1's), "
                            f"got {dice!r}")
        if not (isinstance(sides, int) and 2 <= sides <= 9):
            raise GameError(f"bluff: sides must be an integer from 2 to 9, got {sides!r}")
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

    def node_table(self) -> NodeTable | None:
        """The compiler's table of every history, level by level with numpy (the same as the
        walk of the states; tested). A betting history is the set of bids made so far, a
        bitmask, since bids only go up. A subclass (which may change the states) is walked
        instead."""
        num_bids = len(self.bids)
        if type(self) is not Bluff or num_bids > 30:  # 2^30 bid sets per deal would not fit in memory
            return None
        names = [tuple(r for r, _ in rolls) for rolls in self.rolls]
        probs = [np.array([q for _, q in rolls]) for rolls in self.rolls]
        n0, n1 = len(names[0]), len(names[1])
        # label lists: the two deals, then the actions after the highest bid j - 1 (j = 0: none)
        label_lists = [names[0], names[1]] + [tuple(self.bids[j:]) + ((LIAR,) if j else ())
                                              for j in range(num_bids + 1)]
        holds = np.array([[[self.bid_holds(b, (r0, r1)) for r1 in names[1]] for r0 in names[0]]
                          for b in self.bids])
        levels = [dict(player=[CHANCE], labels=[0], code=[-1], prob=[1.0], u0=[0.0]),
                  dict(player=[CHANCE] * n0, labels=[1] * n0, code=[-1] * n0, prob=probs[0], u0=[0.0] * n0)]
        r0, r1 = np.repeat(np.arange(n0), n1), np.tile(np.arange(n1), n0)
        last = np.full(n0 * n1, -1)  # highest bid so far (the one a "liar" calls)
        mask = np.zeros(n0 * n1, dtype=np.int64)
        liar = np.zeros(n0 * n1, dtype=bool)
        prob = np.tile(probs[1], n0)
        t = 0  # actions so far: player t % 2 acts
        while len(last):
            p = t % 2
            own = r0 if p == 0 else r1
            caller = 1 - p  # at a "liar" node, who called it
            loser = np.where(holds[np.maximum(last, 0), r0, r1], caller, 1 - caller)
            levels.append(dict(player=np.where(liar, TERMINAL, p), labels=np.where(liar, -1, last + 3),
                               code=np.where(liar, -1, ((own * 2 + p) << num_bids) | mask), prob=prob,
                               u0=np.where(liar, np.where(loser == 0, -1.0, 1.0), 0.0)))
            go = ~liar
            count = np.where(go, num_bids - last - 1 + (last >= 0), 0)
            up = np.repeat(np.arange(len(last)), count)
            a = np.arange(len(up)) - np.repeat(np.cumsum(count) - count, count)
            bid = last[up] + 1 + a
            liar = bid >= num_bids
            r0, r1, last = r0[up], r1[up], np.where(liar, last[up], bid)
            mask = np.where(liar, mask[up], mask[up] | (np.int64(1) << np.minimum(bid, num_bids - 1)))
            prob = np.ones(len(up))
            t += 1
        column = {k: np.concatenate([np.asarray(level[k]) for level in levels]) for k in levels[0]}
        codes = column["code"]
        present = np.zeros(2 * max(n0, n1) << num_bids, dtype=bool)
        present[codes[codes >= 0]] = True
        dense = np.cumsum(present) - 1
        keys = []
        for code in np.flatnonzero(present).tolist():
            m, owner = code & ((1 << num_bids) - 1), code >> num_bids
            bids = ",".join(b for j, b in enumerate(self.bids) if m >> j & 1)
            keys.append(f"{names[owner % 2][owner // 2]}|{bids}")
        returns = np.stack([column["u0"], -column["u0"]], axis=1)
        return NodeTable(column["player"].astype(np.int8), column["labels"].astype(np.int64),
                         np.where(codes >= 0, dense[np.maximum(codes, 0)], -1).astype(np.int64),
                         column["prob"].astype(float), returns, label_lists, keys)

    def __repr__(self) -> str:
        return f"bluff(dice={self.dice}, sides={self.sides})"


class BluffState(State):
    """A Bluff history: the rolls so far and the list of actions (bids, maybe ``liar``)."""

    __slots__ = ("game", "rolls", "actions", "player")

    def __init__(self, game: Bluff, rolls: tuple[str, ...], actions: tuple[str, ...]) -> None:
        self.game, self.rolls, self.actions = game, rolls, actions
        self.player = self._to_act()  # asked several times per history: worked out once

    def current_player(self) -> int:
        return self.player

    def _to_act(self) -> int:
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
