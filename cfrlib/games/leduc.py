"""Leduc hold'em (Southey et al. 2005) and its larger variants.

Rules (the defaults give standard Leduc). The deck has ``ranks`` ranks in ``suits`` suits
(standard: J, Q, K in two suits, six cards). Each player antes ``ante`` chip(s) and is dealt one
private card, player 0 first. A betting round follows, then one public *board* card is dealt and
a second betting round follows. Player 0 acts first in both rounds. In round ``r`` a raise puts
in ``raise_sizes[r]`` chips more than the opponent (standard: 2, then 4), and at most
``max_raises[r]`` raises are allowed per round (standard: 2). The actions are

* ``fold``: give up the pot (only when facing a raise);
* ``call``: match the opponent (a *check* when there is nothing to match);
* ``raise``: match and raise (a *bet* when there is nothing to match).

A round ends when a player calls a raise or both check. At the showdown a player whose private
card pairs the board wins; otherwise the higher private rank wins; equal ranks split the pot.
The winner wins what the loser put in.

Action order: ``fold``, ``call``, ``raise`` (only the legal ones are listed). Infoset keys read
``"Ks|rc|Qh|c"``: the private card, round-1 betting (one letter per action), then, after the
deal, the board card and round-2 betting. With ``suit_isomorphism=True`` cards that differ only in
suit are the same card (the deal draws ranks with their multiplicities): the game is unchanged,
but the tree has 288 infosets instead of 936.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..errors import GameError
from ..game import CHANCE, TERMINAL, Game, State
from ..tree import NodeTable

RANK_NAMES = "23456789TJQKA"
SUIT_NAMES = "shdc"
ACTIONS = ("fold", "call", "raise")
_LETTER = {"fold": "f", "call": "c", "raise": "r"}


def _is_positive(x: object) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and 0 < float(x) < math.inf


class Leduc(Game):
    """Leduc hold'em with configurable deck, ante, raise sizes and raise caps."""

    def __init__(self, ranks: int = 3, suits: int = 2, ante: float = 1,
                 raise_sizes: Sequence[float] = (2, 4), max_raises: int | Sequence[int] = 2,
                 suit_isomorphism: bool = False) -> None:
        if not (isinstance(ranks, int) and 2 <= ranks <= len(RANK_NAMES)):
            raise GameError(f"leduc: ranks must be an integer from 2 to 13, got {ranks!r}")
        if not (isinstance(suits, int) and 1 <= suits <= len(SUIT_NAMES)):
            raise GameError(f"leduc: suits must be an integer from 1 to 4, got {suits!r}")
        if ranks * suits < 3:
            raise GameError(f"leduc: ranks={ranks} and suits={suits} make a deck of {ranks * suits} "
                            "cards; it needs at least 3 (two private, one board)")
        if not _is_positive(ante):
            raise GameError(f"leduc: ante must be a positive number, got {ante!r}")
        if not (isinstance(raise_sizes, Sequence) and len(raise_sizes) == 2
                and all(map(_is_positive, raise_sizes))):
            raise GameError(f"leduc: raise_sizes must be two positive numbers (one per round), "
                            f"got {raise_sizes!r}")
        caps = (max_raises, max_raises) if isinstance(max_raises, int) else max_raises
        if not (isinstance(caps, Sequence) and len(caps) == 2
                and all(isinstance(m, int) and m >= 0 for m in caps)):
            raise GameError(f"leduc: max_raises must be a non-negative integer or two (one per "
                            f"round), got {max_raises!r}")
        self.ranks, self.suits, self.ante = ranks, suits, ante
        self.raise_sizes: tuple[float, ...] = tuple(raise_sizes)
        self.max_raises: tuple[int, ...] = tuple(caps)
        self.suit_isomorphism = bool(suit_isomorphism)
        names = RANK_NAMES[len(RANK_NAMES) - 1 - ranks:-1] if ranks < len(RANK_NAMES) else RANK_NAMES
        if self.suit_isomorphism:
            self.cards = list(names)  # a card is a rank; the deck holds `suits` copies of each
        else:
            self.cards = [r + s for r in names for s in SUIT_NAMES[:suits]]
        self._rank = {c: names.index(c[0]) for c in self.cards}
        self._next_card: dict[tuple[str, ...], list[tuple[str, float]]] = {}  # deal_probabilities
        self.name = "leduc" if self._is_standard() else f"leduc{self._options()}"

    def _is_standard(self) -> bool:
        return (self.ranks, self.suits, self.ante, self.raise_sizes, self.max_raises,
                self.suit_isomorphism) == (3, 2, 1, (2, 4), (2, 2), False)

    def _options(self) -> str:
        return (f"(ranks={self.ranks}, suits={self.suits}, ante={self.ante}, "
                f"raise_sizes={self.raise_sizes}, max_raises={self.max_raises}, "
                f"suit_isomorphism={self.suit_isomorphism})")

    def initial_state(self) -> LeducState:
        return LeducState(self, (), ("",), (self.ante, self.ante))

    def deal_probabilities(self, dealt: Sequence[str]) -> list[tuple[str, float]]:
        """The next card's distribution, given the cards already ``dealt`` (worked out once per
        ``dealt``: a sampled walk asks at every chance node it meets)."""
        key = tuple(dealt)
        if key not in self._next_card:
            if self.suit_isomorphism:
                left = [(r, self.suits - key.count(r)) for r in self.cards]
            else:
                left = [(c, 1) for c in self.cards if c not in key]
            left = [(c, n) for c, n in left if n > 0]
            total = sum(n for _, n in left)
            self._next_card[key] = [(c, n / total) for c, n in left]
        return list(self._next_card[key])

    def strength(self, private: str, board: str) -> tuple[bool, int]:
        """Showdown strength of a private card with the board: pairs first, then rank."""
        return (self._rank[private] == self._rank[board], self._rank[private])

    def node_table(self) -> NodeTable | None:
        """The compiler's table of every history, built with numpy (the same as the walk of the
        states; tested). The betting does not depend on the cards, so it is walked once, on one
        deal, as the *public tree*; a history is then a public node and the cards dealt, and the
        table is built level by level over all deals at once. A subclass (which may change the
        states) is walked instead."""
        if type(self) is not Leduc:
            return None
        label_ids: dict[tuple[str, ...], int] = {}  # action lists and chance outcome lists

        def label(names: Iterable[str]) -> int:
            return label_ids.setdefault(tuple(names), len(label_ids))

        public = self._public_tree(label)
        deals = self._deals(label)
        levels = self._levels(public, deals, label)
        player, labels, code, prob, u0 = (np.concatenate(column) for column in zip(*levels))
        codes, key = np.unique(code[code >= 0], return_inverse=True)
        node_key = np.full(len(player), -1, dtype=np.int64)
        node_key[code >= 0] = key.ravel()
        return NodeTable(player.astype(np.int8), labels.astype(np.int64), node_key, prob.astype(float),
                         np.stack([u0, -u0], axis=1), list(label_ids),
                         [self._infoset_key(public.states, c) for c in codes.tolist()])

    def _public_tree(self, label: Callable[[Iterable[str]], int]) -> _PublicTree:
        """The betting, breadth first, on a stand-in deal (the board leads to one node)."""
        first = self.deal_probabilities(())[0][0]
        second = self.deal_probabilities((first,))[0][0]
        states = [LeducState(self, (first, second), ("",), (self.ante, self.ante))]
        kinds: list[int] = []
        move_labels: list[int] = []
        children: list[range] = []
        folds: list[float] = []
        for state in states:
            kinds.append(state.player)
            names = state.legal_actions()[:1] if state.player == CHANCE else state.legal_actions()
            move_labels.append(label(names) if state.player >= 0 else -1)
            children.append(range(len(states), len(states) + len(names)))
            states.extend(state.child(a) for a in names)
            folded = state.player == TERMINAL and state.rounds[-1].endswith("f")
            folds.append(state.returns()[0] if folded else np.nan)
        num_moves = np.array([len(c) for c in children])
        child = np.zeros((len(states), num_moves.max()), dtype=np.int64)
        for n, kids in enumerate(children):
            child[n, :len(kids)] = kids
        return _PublicTree(states, np.array(kinds, dtype=np.int8), np.array(move_labels),
                           np.array(folds), np.array([s.chips for s in states], dtype=float),
                           num_moves, child)

    def _deals(self, label: Callable[[Iterable[str]], int]) -> _Deals:
        """Per pair of private cards, the board's outcomes; per deal of three cards, who wins."""
        C = len(self.cards)
        card = {c: i for i, c in enumerate(self.cards)}
        board_card = np.zeros((C, C, C), dtype=np.int64)
        board_prob = np.zeros((C, C, C))
        board_count = np.zeros((C, C), dtype=np.int64)
        board_label = np.full((C, C), -1)
        first = self.deal_probabilities(())
        second = [self.deal_probabilities((c,)) for c, _ in first]
        for c, after in zip(first, second):
            for d, _ in after:
                outcomes = self.deal_probabilities((c[0], d))
                a, b = card[c[0]], card[d]
                board_count[a, b] = len(outcomes)
                board_card[a, b, :len(outcomes)] = [card[z] for z, _ in outcomes]
                board_prob[a, b, :len(outcomes)] = [q for _, q in outcomes]
                board_label[a, b] = label(z for z, _ in outcomes)
        strength = [[self.strength(a, z) for z in self.cards] for a in self.cards]
        winner = np.array([[[(strength[a][z] > strength[b][z]) - (strength[b][z] > strength[a][z])
                             for z in range(C)] for b in range(C)] for a in range(C)])
        return _Deals(card, first, second, board_card, board_prob, board_count, board_label, winner)

    def _levels(self, public: _PublicTree, deals: _Deals, label: Callable[[Iterable[str]], int]
                ) -> list[tuple[NDArray[Any], ...]]:
        """The table's columns ``(player, labels, infoset code, chance probability, u_0)``, one
        tuple per level: the two private deals, then every public node under every deal."""
        C, card, first, second = len(self.cards), deals.card, deals.first, deals.second
        levels: list[tuple[NDArray[Any], ...]] = [
            (np.array([CHANCE]), np.array([label(c for c, _ in first)]), np.array([-1]),
             np.array([1.0]), np.zeros(1)),
            (np.full(len(first), CHANCE), np.array([label(d for d, _ in after) for after in second]),
             np.full(len(first), -1), np.array([q for _, q in first]), np.zeros(len(first)))]
        c0 = np.array([card[c] for (c, _), after in zip(first, second) for _ in after])
        c1 = np.array([card[d] for after in second for d, _ in after])
        prob = np.array([q for after in second for _, q in after])
        pub, board = np.zeros(len(c0), dtype=np.int64), np.full(len(c0), -1)
        while len(pub):
            k = public.kind[pub]
            dealing = k == CHANCE
            win = deals.winner[c0, c1, board]  # (board -1 only where it is not used)
            showdown = np.where(win > 0, public.chips[pub, 1], np.where(win < 0, -public.chips[pub, 0], 0.0))
            fold = public.fold_u0[pub]
            levels.append((k, np.where(dealing, deals.board_label[c0, c1], public.moves[pub]),
                           np.where(k >= 0, (pub * C + np.where(k == 0, c0, c1)) * (C + 1) + board + 1, -1),
                           prob, np.where(k == TERMINAL, np.where(np.isnan(fold), showdown, fold), 0.0)))
            count = np.where(dealing, deals.board_count[c0, c1], public.num_moves[pub])
            up = np.repeat(np.arange(len(pub)), count)
            a = np.arange(len(up)) - np.repeat(np.cumsum(count) - count, count)
            dealt = dealing[up]
            c0, c1 = c0[up], c1[up]
            board = np.where(dealt, deals.board_card[c0, c1, a], board[up])
            prob = np.where(dealt, deals.board_prob[c0, c1, a], 1.0)
            pub = public.child[pub[up], np.where(dealt, 0, a)]
        return levels

    def _infoset_key(self, public: Sequence[LeducState], code: int) -> str:
        """The infoset key of an infoset code ``(public node * C + own card) * (C + 1) + board + 1``."""
        C = len(self.cards)
        rest, b = divmod(code, C + 1)
        n, own = divmod(rest, C)
        dealt = [self.cards[own]] * 2 + ([self.cards[b - 1]] if b else [])
        return LeducState(self, tuple(dealt), public[n].rounds, public[n].chips).infoset_key()

    def __repr__(self) -> str:
        return "leduc()" if self._is_standard() else f"leduc{self._options()}"


class _PublicTree(NamedTuple):
    """The betting of Leduc on one deal: its states in breadth-first order, each one's ``kind``
    (player, ``CHANCE`` or ``TERMINAL``), label of its moves, player 0's payoff where it ends in a
    fold (NaN elsewhere), chips in, number of moves and children."""

    states: list[LeducState]
    kind: NDArray[np.int8]
    moves: NDArray[Any]
    fold_u0: NDArray[np.float64]
    chips: NDArray[np.float64]
    num_moves: NDArray[Any]
    child: NDArray[np.int64]


class _Deals(NamedTuple):
    """The cards of Leduc as arrays: card numbers, the private deals' outcomes, the board's
    cards, probabilities, counts and outcome labels per pair of private cards, and
    ``winner[a, b, z]`` (+1 when ``a`` beats ``b`` on board ``z``, -1, or 0)."""

    card: dict[str, int]
    first: list[tuple[str, float]]
    second: list[list[tuple[str, float]]]
    board_card: NDArray[np.int64]
    board_prob: NDArray[np.float64]
    board_count: NDArray[np.int64]
    board_label: NDArray[Any]
    winner: NDArray[Any]


class LeducState(State):
    """A Leduc history: cards dealt (two private, then the board), betting per round, chips in."""

    __slots__ = ("game", "cards", "rounds", "chips", "player")

    def __init__(self, game: Leduc, cards: tuple[str, ...], rounds: tuple[str, ...],
                 chips: tuple[float, float]) -> None:
        self.game, self.cards, self.rounds, self.chips = game, cards, rounds, chips
        self.player = self._to_act()  # asked several times per history: worked out once

    def current_player(self) -> int:
        return self.player

    def _to_act(self) -> int:
        betting = self.rounds[-1]
        if betting.endswith("f"):
            return TERMINAL
        if len(self.cards) < 2:
            return CHANCE
        finished = betting == "cc" or betting.endswith("rc")
        if finished:
            return TERMINAL if len(self.rounds) == 2 else CHANCE
        return len(betting) % 2

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.player != CHANCE:
            return super().chance_outcomes()
        return self.game.deal_probabilities(self.cards)

    def legal_actions(self) -> list[str]:
        p = self.player
        if p == CHANCE:
            return [c for c, _ in self.chance_outcomes()]
        if p == TERMINAL:
            return []
        r = len(self.rounds) - 1
        facing = self.chips[1 - p] > self.chips[p]
        actions = ["fold"] if facing else []
        actions.append("call")
        if self.rounds[-1].count("r") < self.game.max_raises[r]:
            actions.append("raise")
        return actions

    def child(self, action: str) -> LeducState:
        if self.player == CHANCE:
            cards = self.cards + (action,)
            rounds = self.rounds if len(cards) <= 2 else self.rounds + ("",)
            return LeducState(self.game, cards, rounds, self.chips)
        p = len(self.rounds[-1]) % 2
        chips = list(self.chips)
        if action == "call":
            chips[p] = chips[1 - p]
        elif action == "raise":
            chips[p] = chips[1 - p] + self.game.raise_sizes[len(self.rounds) - 1]
        return LeducState(self.game, self.cards,
                          self.rounds[:-1] + (self.rounds[-1] + _LETTER[action],),
                          (chips[0], chips[1]))

    def infoset_key(self) -> str:
        key = f"{self.cards[self.player]}|{self.rounds[0]}"
        if len(self.rounds) == 2:
            key += f"|{self.cards[2]}|{self.rounds[1]}"
        return key

    def returns(self) -> tuple[float, float]:
        betting = self.rounds[-1]
        folder = (len(betting) - 1) % 2 if betting.endswith("f") else None
        return settle(self.game, self.cards, self.chips, folder)

    def __repr__(self) -> str:
        return f"LeducState(cards={self.cards}, rounds={self.rounds}, chips={self.chips})"


def settle(game: Leduc, cards: tuple[str, ...], chips: tuple[float, float],
           folder: int | None) -> tuple[float, float]:
    """The returns at the end of a hand with ``chips`` put in: the player who folded (``folder``)
    loses its chips; at a showdown the stronger ``game.strength(card, board)`` wins the other's,
    a tie splits."""
    if folder is not None:
        u0 = -chips[0] if folder == 0 else chips[1]
    else:
        s0, s1 = game.strength(cards[0], cards[2]), game.strength(cards[1], cards[2])
        u0 = chips[1] if s0 > s1 else -chips[0] if s1 > s0 else 0
    return float(u0), float(-u0)


def leduc(ranks: int = 3, suits: int = 2, ante: float = 1, raise_sizes: Sequence[float] = (2, 4),
          max_raises: int | Sequence[int] = 2, suit_isomorphism: bool = False) -> Leduc:

    """Leduc hold'em; the defaults are the standard game (936 infosets, value -0.085606).

    ``leduc(ranks=6)`` is the Short Deck Big Leduc deck (12 cards) and ``leduc(ranks=12,
    max_raises=6)`` is Big Leduc (24 cards); see the book's chapter on extensive-form games.
    """
    return Leduc(ranks=ranks, suits=suits, ante=ante, raise_sizes=raise_sizes,
                 max_raises=max_raises, suit_isomorphism=suit_isomorphism)
