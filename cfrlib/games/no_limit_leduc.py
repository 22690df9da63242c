"""No-limit Leduc: Leduc hold'em's deck, deal and showdown with a choice of bet sizes.

The cards are Leduc's (:mod:`cfrlib.games.leduc`): ``ranks`` ranks in ``suits`` suits, one private
card each, one board card between the two betting rounds, a pair with the board beats any unpaired
card, then the higher rank wins. Each player antes ``ante``. In each round a player may raise by
any of ``bet_sizes``, each a fraction of the pot: raising by ``f`` first matches the opponent, then
adds ``f`` times the pot after that call (``2 c`` when both have ``c`` in), so a player with ``c``
in facing ``c'`` puts in ``c' - c + 2 c' f``. At most ``max_raises`` raises are allowed per round.
Actions: ``fold`` (facing a raise), ``call`` (a check when nothing is owed) and ``raise f`` for
each size, ``f`` written with ``:g`` (``"raise 0.5"``), in the order given. Infoset keys read
``"Ks|r0.5 c|Qh|c"``: the private card, the first round's actions (``f``, ``c``, ``r<f>``), then
the board and the second round's.

The game for testing what a strategy computed with some bet sizes does against others
(action translation and nested subgame solving, chapter 14): the sizes are its parameter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import GameError
from ..game import CHANCE, TERMINAL, Game, State
from .leduc import Leduc, settle

__all__ = ["NoLimitLeduc", "no_limit_leduc", "raise_action"]


def raise_action(size: float) -> str:
    """The action that raises by ``size`` times the pot: ``"raise 0.5"``."""
    return f"raise {size:g}"


class NoLimitLeduc(Game):
    """Leduc's cards with bets of ``bet_sizes`` (fractions of the pot), ``max_raises`` a round."""

    def __init__(self, bet_sizes: Sequence[float] = (0.5, 1.0, 2.0), max_raises: int = 1,
                 ranks: int = 3, suits: int = 2, ante: float = 1) -> None:
        sizes = tuple(bet_sizes) if isinstance(bet_sizes, Sequence) else ()
        if not sizes or not all(isinstance(f, (int, float)) and 0 < f < math.inf for f in sizes):
            raise GameError(f"no_limit_leduc: bet_sizes must be positive fractions of the pot, got {bet_sizes!r}")
        if len({raise_action(f) for f in sizes}) < len(sizes):
            raise GameError(f"no_limit_leduc: bet sizes repeat: {bet_sizes!r}")
        if not (isinstance(max_raises, int) and max_raises >= 1):
            raise GameError(f"no_limit_leduc: max_raises must be a positive integer, got {max_raises!r}")
        self.cards_of = Leduc(ranks=ranks, suits=suits, ante=ante)  # the deck, deal and showdown
        self.bet_sizes = tuple(float(f) for f in sizes)
        self.max_raises, self.ante = max_raises, ante
        self.name = (f"no_limit_leduc(bet_sizes={tuple(f'{f:g}' for f in self.bet_sizes)}, "
                     f"max_raises={max_raises}, ranks={ranks}, suits={suits}, ante={ante})")

    def initial_state(self) -> NoLimitLeducState:
        return NoLimitLeducState(self, (), ((),), (self.ante, self.ante))


def _token(action: str) -> str:
    return "r" + action.split()[1] if action.startswith("raise") else action[0]


class NoLimitLeducState(State):
    """A history: cards dealt, each round's actions (tuples of action names), chips in."""

    __slots__ = ("game", "cards", "rounds", "chips", "player")

    def __init__(self, game: NoLimitLeduc, cards: tuple[str, ...], rounds: tuple[tuple[str, ...], ...],
                 chips: tuple[float, float]) -> None:
        self.game, self.cards, self.rounds, self.chips = game, cards, rounds, chips
        self.player = self._to_act()

    def current_player(self) -> int:
        return self.player

    def _to_act(self) -> int:
        betting = self.rounds[-1]
        if betting and betting[-1] == "fold":
            return TERMINAL
        if len(self.cards) < 2:
            return CHANCE
        if betting == ("call", "call") or (len(betting) >= 2 and betting[-1] == "call"
                                           and betting[-2].startswith("raise")):
            return TERMINAL if len(self.rounds) == 2 else CHANCE
        return len(betting) % 2

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.player != CHANCE:
            return super().chance_outcomes()
        return self.game.cards_of.deal_probabilities(self.cards)

    def legal_actions(self) -> list[str]:
        p = self.player
        if p == CHANCE:
            return [c for c, _ in self.chance_outcomes()]
        if p == TERMINAL:
            return []
        actions = (["fold"] if self.chips[1 - p] > self.chips[p] else []) + ["call"]
        if sum(a.startswith("raise") for a in self.rounds[-1]) < self.game.max_raises:
            actions += [raise_action(f) for f in self.game.bet_sizes]
        return actions

    def child(self, action: str) -> NoLimitLeducState:
        if self.player == CHANCE:
            cards = self.cards + (action,)
            rounds = self.rounds if len(cards) <= 2 else self.rounds + ((),)
            return NoLimitLeducState(self.game, cards, rounds, self.chips)
        if action not in self.legal_actions():
            raise GameError(f"{action!r} is not legal here; the actions are {self.legal_actions()}")
        p, chips = self.player, list(self.chips)
        if action != "fold":
            chips[p] = chips[1 - p]
        if action.startswith("raise"):
            chips[p] += 2 * chips[1 - p] * float(action.split()[1])
        return NoLimitLeducState(self.game, self.cards, self.rounds[:-1] + (self.rounds[-1] + (action,),),
                                 (chips[0], chips[1]))

    def infoset_key(self) -> str:
        key = f"{self.cards[self.player]}|{' '.join(map(_token, self.rounds[0]))}"
        if len(self.rounds) == 2:
            key += f"|{self.cards[2]}|{' '.join(map(_token, self.rounds[1]))}"
        return key

    def returns(self) -> tuple[float, float]:
        betting = self.rounds[-1]
        folder = (len(betting) - 1) % 2 if betting[-1] == "fold" else None
        return settle(self.game.cards_of, self.cards, self.chips, folder)

    def __repr__(self) -> str:
        return f"NoLimitLeducState(cards={self.cards}, rounds={self.rounds}, chips={self.chips})"


def no_limit_leduc(bet_sizes: Sequence[float] = (0.5, 1.0, 2.0), max_raises: int = 1, ranks: int = 3,
                   suits: int = 2, ante: float = 1) -> NoLimitLeduc:
    """Leduc hold'em with bets of ``bet_sizes`` times the pot, ``max_raises`` per round."""
    return NoLimitLeduc(bet_sizes=bet_sizes, max_raises=max_raises, ranks=ranks, suits=suits, ante=ante)
