"""Card abstraction: solve a smaller game whose players see only *buckets* of their cards.

Real poker is far too large to solve as it is, so the programs that play it solve an
*abstract game* instead. The abstract game has the same histories, the same moves and the same
payoffs as the real one; only what a player can tell apart changes. A *bucket function* maps
each infoset key ``I`` of the real game to the key of its bucket, and every real infoset with
the same bucket key becomes one infoset of the abstract game: a player who holds a queen and a
player who holds a king, with the same betting so far, may be made to act alike.

* :func:`abstract_game` wraps a game: its states delegate everything to the real states, except
  :meth:`~cfrlib.game.State.infoset_key`, which returns the bucket key;
* :func:`lift_strategy` turns a strategy of the abstract game back into one of the real game:
  every real infoset plays the distribution of its bucket;
* :func:`rank_buckets` is a bucket function for Leduc hold'em and its larger variants: private
  cards grouped by rank before the board card, by hand strength after it.

Perfect recall. cfrlib's solvers (and CFR's guarantees) need perfect recall: a player never
forgets what they knew or did. A bucket function keeps it when every real infoset that it puts
in a bucket has the same bucketed past: the same earlier buckets of that player and the same own
actions. In a game with rounds this means the bucket key of a later round must contain the
bucket of every earlier round. A round-2 key that keeps only the round-2 bucket would merge a
history in which the player had a king in round 1 with one in which they had a jack: the player
would *forget* their round-1 bucket, and compiling the abstract game raises
:class:`~cfrlib.errors.ImperfectRecallError`, which :func:`abstract_game` reports with the name of
the bucket function. (Imperfect-recall abstractions are used in practice, with weaker
guarantees; cfrlib does not solve them.)
"""

from __future__ import annotations

import types
from collections.abc import Callable

from typing import TYPE_CHECKING, Union

import numpy as np

from .errors import AbstractionError, ImperfectRecallError, InfosetMismatchError
from .game import Game, State
from .strategy import Strategy, StrategyLike, as_strategy
from .tree import NodeTable, Tree, node_table

if TYPE_CHECKING:  # games.leduc is imported when a RankBuckets is made (the games import this)
    from .games.leduc import Leduc


BucketFunction = Union[Callable[[str], str], tuple[Callable[[str], str], Callable[[str], str]]]
"""A function infoset key -> bucket key for both players, or a pair of them, one per player."""


# ----------------------------------------------------------------------------- the wrapper
def _check_bucket_function(bucket_of: object) -> None:
    if isinstance(bucket_of, (tuple, list)):
        usable = len(bucket_of) == 2 and all(map(callable, bucket_of))
    else:
        usable = callable(bucket_of)
    if not usable:
        raise AbstractionError(f"the bucket function must be callable (infoset key -> bucket key) "
                               f"or a pair of them, one per player; got {bucket_of!r}")


def _describe(bucket_of: object) -> str:
    """A short readable name of a bucket function (or pair): its repr, or a function's name."""
    if isinstance(bucket_of, (tuple, list)):
        return "(" + ", ".join(_describe(b) for b in bucket_of) + ")"
    if isinstance(bucket_of, (type, types.FunctionType, types.BuiltinFunctionType)):
        return bucket_of.__qualname__
    return repr(bucket_of)


def _bucket(bucket_of: BucketFunction, player: int, key: str) -> str:
    """The bucket key of ``player``'s infoset ``key``, checked to be a string."""
    function = bucket_of[player] if isinstance(bucket_of, (tuple, list)) else bucket_of
    bucket = function(key)
    if not isinstance(bucket, str):
        raise AbstractionError(f"the bucket function {_describe(function)} maps player {player}'s infoset "
                               f"{key!r} to {bucket!r}; it must return a string")
    return bucket


class AbstractState(State):
    """A history of the real game seen through a bucket function."""

    __slots__ = ("game", "real")

    def __init__(self, game: AbstractGame, real: State) -> None:
        self.game, self.real = game, real

    def current_player(self) -> int:
        return self.real.current_player()

    def legal_actions(self) -> list[str]:
        return self.real.legal_actions()

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return self.real.chance_outcomes()

    def child(self, action: str) -> AbstractState:
        return AbstractState(self.game, self.real.child(action))

    def returns(self) -> tuple[float, float]:
        return self.real.returns()

    def infoset_key(self) -> str:
        return _bucket(self.game.bucket_of, self.real.current_player(), self.real.infoset_key())

    def __repr__(self) -> str:
        return f"AbstractState({self.real!r})"


class AbstractGame(Game):
    """``game`` in which each player sees ``bucket_of(I)`` instead of their infoset key ``I``."""

    def __init__(self, game: Game, bucket_of: BucketFunction, name: str | None = None) -> None:
        if not isinstance(game, Game):
            raise AbstractionError(f"abstract_game needs a cfrlib Game, got {game!r}")
        _check_bucket_function(bucket_of)
        self.real_game, self.bucket_of = game, bucket_of
        self.constant_sum = game.constant_sum
        self.sum_tolerance = game.sum_tolerance
        self.player_scoped_infosets = game.player_scoped_infosets
        self.name = name or f"{game.name} abstracted by {_describe(bucket_of)}"

    def initial_state(self) -> AbstractState:
        return AbstractState(self, self.real_game.initial_state())

    def node_table(self) -> NodeTable:
        """The real game's :class:`~cfrlib.tree.NodeTable` with each infoset key replaced by its
        bucket key, numbered in the order the walk of the abstract states meets them: the same
        table as that walk (the histories, chance and payoffs are the real game's), with the
        bucket function asked once per real infoset rather than once per history."""
        real = node_table(self.real_game)
        decision = np.flatnonzero(real.player >= 0)
        pairs = real.player[decision].astype(np.int64) * len(real.keys) + real.key[decision]
        unique, first, inverse = np.unique(pairs, return_index=True, return_inverse=True)
        bucket_id = np.empty(len(unique), dtype=np.int64)
        ids: dict[str, int] = {}
        for u in np.argsort(first, kind="stable").tolist():  # (player, key) pairs as first met
            player, k = divmod(int(unique[u]), len(real.keys))
            bucket_id[u] = ids.setdefault(_bucket(self.bucket_of, player, real.keys[k]), len(ids))
        key = np.full_like(real.key, -1)
        key[decision] = bucket_id[inverse.reshape(-1)]
        return NodeTable(real.player, real.labels, key, real.chance_prob, real.returns,
                         real.label_lists, list(ids))

    def tree(self) -> Tree:
        try:
            return super().tree()
        except ImperfectRecallError as err:
            raise AbstractionError(
                f"the bucket function {_describe(self.bucket_of)} breaks perfect recall: {err}. Keep every "
                "earlier bucket (and the player's own actions) in the bucket key of a later "
                "round") from None
        except InfosetMismatchError as err:
            raise AbstractionError(
                f"the bucket function {_describe(self.bucket_of)} merges infosets that cannot be one: "
                f"{err}") from None

    def __repr__(self) -> str:
        return f"abstract_game({self.real_game!r}, {_describe(self.bucket_of)})"


def abstract_game(game: Game, bucket_of: BucketFunction, name: str | None = None) -> AbstractGame:
    """The abstract game of ``game`` under the bucket function ``bucket_of``.

    ``bucket_of`` maps an infoset key of ``game`` to a bucket key (a string); real infosets with
    the same bucket key, of the same player, form one infoset of the abstract game. A pair
    ``(bucket_of_0, bucket_of_1)`` abstracts each player with their own function (the identity
    ``str`` leaves a player unabstracted). Everything
    else (histories, chance, legal actions, payoffs) is the real game's. The abstract game is
    compiled at once, so that a bucket function that breaks perfect recall (see the module
    docstring) or merges infosets with different legal actions fails here, with an
    :class:`~cfrlib.errors.AbstractionError` naming the infoset.
    """
    abstract = AbstractGame(game, bucket_of, name)
    abstract.tree()
    return abstract


def lift_strategy(abstract_strategy: StrategyLike, game: Game,
                  bucket_of: BucketFunction) -> Strategy:
    """The strategy of the real ``game`` that plays, at every real infoset ``I`` of player ``i``,
    the abstract strategy's distribution at ``i``'s bucket ``bucket_of(I)`` (``bucket_of`` as in
    :func:`abstract_game`: one function or one per player).

    ``abstract_strategy`` is a :class:`~cfrlib.strategy.Strategy` of
    ``abstract_game(game, bucket_of)`` (or a mapping from bucket keys to distributions).
    """
    if isinstance(abstract_strategy, Strategy):
        abstract = abstract_strategy.game
        if not isinstance(abstract, AbstractGame):
            raise AbstractionError(f"lift_strategy needs a strategy of an abstract game, got one "
                                   f"of {abstract.name}")
    else:
        abstract = abstract_game(game, bucket_of)
        abstract_strategy = as_strategy(abstract, abstract_strategy)
    real, small = game.tree(), abstract.tree()
    if abstract.real_game is not game and abstract.real_game.tree().infoset_keys != real.infoset_keys:
        raise AbstractionError(f"the strategy belongs to an abstraction of {abstract.real_game.name}, "
                               f"not of {game.name}")
    rows = []
    for I, key in enumerate(real.infoset_keys):
        p = int(real.infoset_player[I])
        bucket = _bucket(bucket_of, p, key)
        if not small.has_infoset(p, bucket):
            raise AbstractionError(f"player {p}'s infoset {key!r} of {game.name} falls in bucket "
                                   f"{bucket!r}, which the abstract game does not have")
        J = small.infoset_index(p, bucket)
        if small.infoset_actions[J] != real.infoset_actions[I]:
            raise AbstractionError(f"infoset {key!r} has actions {list(real.infoset_actions[I])} "
                                   f"but its bucket {bucket!r} has {list(small.infoset_actions[J])}")
        rows.append(J)
    return Strategy(game, abstract_strategy.probs[rows])


# ----------------------------------------------------------------------------- Leduc buckets
class RankBuckets:
    """The bucket function of :func:`rank_buckets` (a callable: infoset key -> bucket key)."""

    def __init__(self, game: Leduc, k: int) -> None:
        from .games.leduc import Leduc

        if not isinstance(game, Leduc):
            raise AbstractionError(f"rank_buckets works on Leduc hold'em and its variants "
                                   f"(games.leduc(...)), not on {game.name}")
        if isinstance(k, bool) or not isinstance(k, int):
            raise AbstractionError(f"the abstraction size k must be an integer, got {k!r}")
        n = game.ranks
        if not 1 <= k <= n:
            raise AbstractionError(f"the abstraction size k must be from 1 to the number of ranks "
                                   f"({n} in {game.name}), got {k}")
        self.k, self.game_name = k, game.name
        self.ranks = list(dict.fromkeys(card[0] for card in game.cards))  # lowest first
        self._index = {r: i for i, r in enumerate(self.ranks)}
        self.groups = [[r for i, r in enumerate(self.ranks) if i * k // n == b] for b in range(k)]
        self._label = {r: "".join(group) for group in self.groups for r in group}

    def private_bucket(self, rank: str) -> int:
        """Round-1 bucket of a private rank: ranks split, lowest first, into ``k`` near-equal runs."""
        return self._index[rank] * self.k // len(self.ranks)

    def strength(self, rank: str, board: str) -> int:
        """Showdown strength of ``rank`` against the board's rank, 0 (weakest) to ``ranks - 1``:
        a pair is strongest, then the unpaired ranks in rank order."""
        n = len(self.ranks)
        if rank == board:
            return n - 1
        i = self._index[rank]
        return i - (i > self._index[board])

    def strength_bucket(self, rank: str, board: str) -> int:
        """Round-2 bucket: the strength split into ``k`` near-equal runs, weakest first."""
        return self.strength(rank, board) * self.k // len(self.ranks)

    def __call__(self, key: str) -> str:
        parts = key.split("|")
        if len(parts) not in (2, 4):
            raise AbstractionError(f"{key!r} is not a Leduc infoset key (card|betting or "
                                   "card|betting|board|betting)")
        rank = parts[0][:1]
        if rank not in self._index:
            raise AbstractionError(f"infoset {key!r}: unknown card {parts[0]!r} for {self.game_name}")
        bucket = f"{self._label[rank]}|{parts[1]}"
        if len(parts) == 2:
            return bucket
        board = parts[2][:1]
        return f"{bucket}|{board}|s{self.strength_bucket(rank, board)}|{parts[3]}"

    def __repr__(self) -> str:
        return f"rank_buckets(k={self.k})"


def rank_buckets(game: Leduc, k: int) -> RankBuckets:

    """A bucket function of ``k`` strength buckets for a Leduc game (``games.leduc(...)``).

    Before the board card, the private card's rank is bucketed: the ranks, lowest first, are
    split into ``k`` runs of near-equal length (rank ``i`` of ``n`` goes to bucket
    ``floor(i k / n)``), and the bucket key is the run's ranks, e.g. ``"JQ|r"``. After the board
    card, which is public and kept, the private card is bucketed by hand strength against the
    board (a pair first, then the other ranks in order), split the same way into ``k`` buckets;
    the round-1 bucket stays in the key so that the player keeps perfect recall:
    ``"JQ|rc|K|s0|r"``. Betting is never abstracted.

    ``k`` runs from 1 (the player cannot tell any two cards apart) to the number of ranks. At
    ``k = game.ranks`` every rank is its own bucket: on a suit-isomorphic game
    (``suit_isomorphism=True``) this is the identity, the same game; on a game that tells suits
    apart it merges exactly the cards that differ only in suit, which loses nothing. Raises an
    :class:`~cfrlib.errors.AbstractionError` for other games and for ``k`` out of range.
    """
    return RankBuckets(game, k)
