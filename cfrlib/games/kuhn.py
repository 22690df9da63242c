"""Kuhn poker (Kuhn 1950), the smallest interesting poker game.

Rules. A deck of three cards, J < Q < K. Each player antes 1 chip and is dealt one card
(player 0 first, then player 1). Player 0 acts first. On their turn a player may *pass*
(check, or fold when facing a bet) or *bet* 1 chip (bet, or call when facing a bet):

* pass, pass: showdown for the antes (winner +1);
* pass, bet, pass: player 1 wins the antes (player 0 folds, -1 for player 0);
* pass, bet, bet: showdown for 2 chips each (winner +2);
* bet, pass: player 0 wins the antes (+1);
* bet, bet: showdown for 2 chips each (winner +2).

Action order: ``pass``, ``bet``. Infoset keys are the player's card followed by the betting so
far, one letter per action: ``"K"``, ``"Qp"``, ``"Jpb"``, ``"Kb"``. The game value for player 0
is -1/18.
"""

from __future__ import annotations

from ..errors import StrategyError
from ..game import CHANCE, TERMINAL, Game, State
from ..strategy import Strategy

CARDS = ("J", "Q", "K")
ACTIONS = ("pass", "bet")
_LETTER = {"pass": "p", "bet": "b"}
_TERMINAL_BETTING = {"pp", "pbp", "pbb", "bp", "bb"}


class KuhnState(State):
    """A Kuhn history: the cards dealt so far and the betting string (``"pb"`` etc.)."""

    __slots__ = ("cards", "betting")

    def __init__(self, cards: tuple[str, ...] = (), betting: str = "") -> None:
        self.cards = cards
        self.betting = betting

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.betting in _TERMINAL_BETTING:
            return TERMINAL
        return len(self.betting) % 2

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if len(self.cards) >= 2:
            return super().chance_outcomes()
        remaining = [c for c in CARDS if c not in self.cards]
        return [(c, 1.0 / len(remaining)) for c in remaining]

    def legal_actions(self) -> list[str]:
        if self.is_chance():
            return [c for c, _ in self.chance_outcomes()]
        return [] if self.is_terminal() else list(ACTIONS)

    def child(self, action: str) -> KuhnState:
        if len(self.cards) < 2:
            return KuhnState(self.cards + (action,), "")
        return KuhnState(self.cards, self.betting + _LETTER[action])

    def infoset_key(self) -> str:
        return self.cards[self.current_player()] + self.betting

    def returns(self) -> tuple[float, float]:
        b = self.betting
        if b == "bp":
            u0 = 1.0
        elif b == "pbp":
            u0 = -1.0
        else:
            stake = 2.0 if "b" in b else 1.0
            u0 = stake if CARDS.index(self.cards[0]) > CARDS.index(self.cards[1]) else -stake
        return u0, -u0

    def __repr__(self) -> str:
        return f"KuhnState({''.join(self.cards)!r}, {self.betting!r})"


class Kuhn(Game):
    """Two-player Kuhn poker (see the module docstring for the rules)."""

    name = "kuhn"

    def initial_state(self) -> KuhnState:
        return KuhnState()

    # Shown in the book: chapter 3.
    def equilibrium(self, bluff: float = 0.0) -> Strategy:
        """The Nash equilibrium whose jack bluffs with probability ``bluff``
        (the book's omega), in [0, 1/3] (Kuhn 1950).

        Player 0 bets a J with probability ``bluff`` and a K with ``3 bluff``,
        always checks a Q and calls a check-bet with a Q with probability
        ``bluff + 1/3``. Player 1's part is unique: with a K always bet or call;
        with a Q check behind and call a bet 1/3 of the time; with a J fold to a
        bet and bet after a check 1/3 of the time.
        """

        if not 0.0 <= bluff <= 1.0 / 3.0:
            raise StrategyError(
                f"Kuhn's equilibria bluff in [0, 1/3] of the time, got {bluff!r}")
        bet = {"J": bluff, "Q": 0.0, "K": 3 * bluff,
               "Jpb": 0.0, "Qpb": bluff + 1 / 3, "Kpb": 1.0,
               "Jp": 1 / 3, "Qp": 0.0, "Kp": 1.0,
               "Jb": 0.0, "Qb": 1 / 3, "Kb": 1.0}
        return Strategy.from_dict(self, {k: {"pass": 1.0 - b, "bet": b}
                                         for k, b in bet.items()})

    def __repr__(self) -> str:
        return "kuhn()"



def kuhn() -> Kuhn:
    """Standard two-player Kuhn poker: 58 nodes, 30 terminals, 12 infosets, value -1/18."""
    return Kuhn()
