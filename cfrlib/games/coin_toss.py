"""Coin Toss (Brown and Sandholm 2017), the smallest game where a subgame cannot be solved alone.

Rules. A fair coin lands heads or tails; only player 0 sees it. Player 0 then *sells* or
*plays*. Selling ends the game with a fixed payoff that depends on the coin (standard: player 0
gets +1/2 on heads and -1/2 on tails; the paper leaves the Sell subgame abstract and gives these
values). Playing lets player 1, who has not seen the coin, guess it: a right guess wins player 1
one chip (player 0 gets -1), a wrong one loses it (player 0 gets +1).

Action order: ``sell``, ``play`` for player 0; ``heads``, ``tails`` for player 1. Infoset keys:
``"H"`` and ``"T"`` (player 0 has seen the coin), ``"play"`` (player 1 knows only that player 0
played). The game value is 0 and player 1's equilibrium strategy is unique: guess heads with
probability 1/4, which leaves player 0 indifferent between selling (+1/2) and playing
(``1 - 2 * 1/4``) on heads, and likewise on tails. The *Play* part alone is matching pennies,
where every guess is optimal against a 50/50 belief: the right guess depends on the payoffs of
the Sell branch, which is why re-solving *Play* on its own can be exploited
(:mod:`cfrlib.subgame`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import GameError
from ..game import CHANCE, TERMINAL, Game, State

COINS = ("H", "T")
ACTIONS = (("sell", "play"), ("heads", "tails"))


class CoinTossState(State):
    """A Coin Toss history: the coin (``""`` before the toss) and the actions taken."""

    __slots__ = ("game", "coin", "actions")

    def __init__(self, game: CoinToss, coin: str = "", actions: tuple[str, ...] = ()) -> None:
        self.game, self.coin, self.actions = game, coin, actions

    def current_player(self) -> int:
        if not self.coin:
            return CHANCE
        if self.actions in ((), ("play",)):
            return len(self.actions)
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.coin:
            return super().chance_outcomes()
        return [(c, 0.5) for c in COINS]

    def legal_actions(self) -> list[str]:
        p = self.current_player()
        if p == CHANCE:
            return list(COINS)
        return list(ACTIONS[p]) if p in (0, 1) else []

    def child(self, action: str) -> CoinTossState:
        if not self.coin:
            return CoinTossState(self.game, action)
        return CoinTossState(self.game, self.coin, self.actions + (action,))

    def infoset_key(self) -> str:
        return self.coin if self.current_player() == 0 else "play"

    def returns(self) -> tuple[float, float]:
        if self.actions == ("sell",):
            u0 = self.game.sell[COINS.index(self.coin)]
        else:
            u0 = -1.0 if self.actions[1][0].upper() == self.coin else 1.0
        return u0, -u0


class CoinToss(Game):
    """Coin Toss with the Sell payoffs ``sell = (heads, tails)`` (see the module docstring)."""

    def __init__(self, sell: Sequence[float] = (0.5, -0.5)) -> None:
        if not (isinstance(sell, Sequence) and len(sell) == 2
                and all(isinstance(u, (int, float)) and not isinstance(u, bool) for u in sell)):
            raise GameError(f"coin_toss: sell must be two numbers (player 0's payoff for selling "
                            f"on heads, on tails), got {sell!r}")
        self.sell = (float(sell[0]), float(sell[1]))
        standard = self.sell == (0.5, -0.5)
        self.name = "coin_toss" if standard else f"coin_toss(sell={self.sell})"

    def initial_state(self) -> CoinTossState:
        return CoinTossState(self)

    def __repr__(self) -> str:
        return "coin_toss()" if self.name == "coin_toss" else self.name


def coin_toss(sell: Sequence[float] = (0.5, -0.5)) -> CoinToss:
    """Coin Toss of Brown and Sandholm (2017): 11 nodes, 6 terminals, 3 infosets, value 0;
    player 1 guesses heads with probability 1/4 in every equilibrium."""
    return CoinToss(sell)
