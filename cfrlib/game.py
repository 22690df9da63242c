"""The state API every game implements, and the base class of games.

A game is defined once, by its rules, as a tree of histories ``h``. Each history is a
:class:`State` that answers a few questions (who acts, what can happen next, what the acting
player knows, what the players receive at the end). Everything else in cfrlib, the compiled
tree, the solvers and the evaluation, is derived from these answers.

Conventions (used throughout the book):

* players are ``0`` and ``1``; player 0 acts first; utilities are quoted for player 0;
* chance is the pseudo-player :data:`CHANCE`; a finished game is :data:`TERMINAL`;
* actions and chance outcomes are short human-readable strings ("bet", "K", "2x3", "liar"),
  listed in a fixed order documented by each game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .errors import GameError
from .players import CHANCE, TERMINAL
from .tree import History, NodeTable, Tree, compile_game, describe_history

__all__ = ["CHANCE", "TERMINAL", "State", "Game"]


class State(ABC):
    """A history ``h``: everything that has happened so far, seen from above.

    Subclasses implement :meth:`current_player`, :meth:`legal_actions`, :meth:`child`,
    :meth:`infoset_key`, :meth:`returns` and (for games with chance) :meth:`chance_outcomes`.
    """

    __slots__ = ()

    @abstractmethod
    def current_player(self) -> int:
        """The player to act: ``0``, ``1``, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        """Whether the game is over (``h`` is in ``Z``)."""
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        """Whether chance acts next (a card is dealt, a die is rolled)."""
        return self.current_player() == CHANCE

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """``A(h)``: the actions available, in the game's documented order.

        At a chance node these are the outcomes of :meth:`chance_outcomes`.
        """

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """``(outcome, probability)`` pairs at a chance node; the probabilities sum to 1."""
        raise GameError(f"chance_outcomes: {self!r} is not a chance node (is_chance() is False)")

    @abstractmethod
    def child(self, action: str) -> "State":
        """The history ``ha`` reached by taking ``action`` (or chance outcome) here."""

    @abstractmethod
    def infoset_key(self) -> str:
        """A readable name of the acting player's information set ``I`` containing ``h``."""

    @abstractmethod
    def returns(self) -> tuple[float, float]:
        """``(u_0(z), u_1(z))``, the payoffs of a terminal history ``z``."""


class Game(ABC):
    """A two-player, constant-sum, perfect-recall extensive-form game.

    Subclasses implement :meth:`initial_state` (and usually ``__repr__``); :meth:`tree` compiles
    the game once into flat arrays and caches the result.
    """

    name: str = "game"
    constant_sum: float = 0.0
    """``u_0(z) + u_1(z)`` at every terminal (0 for zero-sum games)."""
    sum_tolerance: float = 1e-9
    """Largest relative deviation from :attr:`constant_sum` accepted at a terminal."""
    player_scoped_infosets: bool = False
    """Whether both players may use the same infoset name for different infosets (as game files
    do). When False, a name used by both players is taken to be a mistake and refused."""

    @abstractmethod
    def initial_state(self) -> State:
        """The empty history, the root of the game tree."""

    def describe(self, history: History) -> str:
        """How error messages name the history ``history`` (a tuple of action names):
        ``history 'a b'`` or ``the root``; a game read from a file gives the place in the file."""
        return describe_history(history)

    def node_table(self) -> NodeTable | None:
        """Optional fast path of the compiler: the :class:`~cfrlib.tree.NodeTable` that
        :func:`~cfrlib.tree.walk_states` builds from the state API, computed faster (with
        numpy). ``None`` (the default) lets the compiler walk the states; a game that offers a
        table must test that it equals the walk's."""
        return None

    def tree(self) -> Tree:
        """The game compiled into flat numpy arrays (a :class:`cfrlib.tree.Tree`), built once."""
        cached = self.__dict__.get("_compiled_tree")
        if cached is None:
            cached = compile_game(self)
            self.__dict__["_compiled_tree"] = cached
        return cached

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
