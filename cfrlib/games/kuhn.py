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

from ..game import CHANCE, TERMINAL, Game, State

CARDS = ("J", "Q", "K")
ACTIONS = ("pass", "bet")
_LETTER = {"pass": "p", "bet": "b"}
_TERMINAL_BETTING = {"pp", "pbp", "pbb", "bp", "bb"}


class KuhnState(State):
    """A Kuhn history: the cards dealt so far and the betting string (``"pb"`` etc.)."""

    __slots__ = ("cards", "betting")

    def __init__(self, cards: tuple = (), betting: str = ""):
        self.cards = cards
        self.betting = betting

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.betting in _TERMINAL_BETTING:
            return TERMINAL
        return len(self.betting) % 2

    def chance_outcomes(self):
        remaining = [c for c in CARDS if c not in self.cards]
        return [(c, 1.0 / len(remaining)) for c in remaining]

    def legal_actions(self):
        if self.is_chance():
            return [c for c, _ in self.chance_outcomes()]
        return [] if self.is_terminal() else list(ACTIONS)

    def child(self, action):
        if len(self.cards) < 2:
            return KuhnState(self.cards + (action,), "")
        return KuhnState(self.cards, self.betting + _LETTER[action])

    def infoset_key(self):
        return self.cards[self.current_player()] + self.betting

    def returns(self):
        b = self.betting
        if b == "bp":
            u0 = 1.0
        elif b == "pbp":
            u0 = -1.0
        else:
            stake = 2.0 if "b" in b else 1.0
            u0 = stake if CARDS.index(self.cards[0]) > CARDS.index(self.cards[1]) else -stake
        return u0, -u0

    def __repr__(self):
        return f"KuhnState({''.join(self.cards)!r}, {self.betting!r})"


class Kuhn(Game):
    """Two-player Kuhn poker (see the module docstring for the rules)."""

    name = "kuhn"

    def initial_state(self) -> KuhnState:
        return KuhnState()

    def __repr__(self):
        return "kuhn()"


def kuhn() -> Kuhn:
    """Standard two-player Kuhn poker: 58 nodes, 30 terminals, 12 infosets, value -1/18."""
    return Kuhn()
