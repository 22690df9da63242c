"""Evaluation by play: estimate what two strategies earn against each other from sampled games.

Exact evaluation (:mod:`cfrlib.evaluation`) needs the compiled tree. For games too large to
compile, such as Bluff with two dice each, a strategy can still be measured by playing it: each
game starts at the root, chance draws from its own distribution and each player draws from
their strategy, and the mean payoff over ``n`` games estimates the expected payoff

``u_0(sigma_0, sigma_1) = sum_z pi^sigma(z) u_0(z)``, with standard error ``s / sqrt(n)``

(``s`` the sample standard deviation of the payoffs). Every draw comes from one seeded
``numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import isfinite, sqrt
from typing import Literal, NamedTuple, Union

import numpy as np

from .checks import check_iterations, check_seed, sums_to_one
from .errors import CfrlibError, StrategyError
from .game import Game, State
from .strategy import InfosetKey, Strategy, sample

PlayedStrategy = Union[Strategy, Mapping[InfosetKey, Mapping[str, float]], None]
"""A strategy to play, a :class:`~cfrlib.strategy.Strategy`, a mapping from infoset keys or
``(player, key)`` pairs to ``{action: probability}``, or ``None`` for uniform play."""


class PlayoutResult(NamedTuple):
    """The mean payoff per game, its standard error and the number of games played."""

    mean: float
    stderr: float
    games: int


def play_games(game: Game, strategy0: PlayedStrategy, strategy1: PlayedStrategy,
               games: int = 1000, seed: int = 0,
               missing: Literal["uniform", "error"] = "uniform") -> PlayoutResult:
    """Player 0's mean payoff when player 0 follows ``strategy0`` and player 1 ``strategy1``.

    A strategy is a :class:`~cfrlib.strategy.Strategy`, a mapping from infoset keys or
    ``(player, key)`` pairs to ``{action: probability}`` (what a sampling solver's
    ``average_strategy()`` returns with ``backend="states"``), or ``None`` for uniform play.
    Infosets a mapping leaves out are played uniformly with ``missing="uniform"`` and raise a
    :class:`~cfrlib.errors.StrategyError` with ``missing="error"``.
    """
    n = check_iterations(games, "games")
    if n == 0:
        raise CfrlibError("play_games: games must be a positive integer, got 0")
    rng = np.random.default_rng(check_seed(seed))
    policies = (_Policy(strategy0, 0, missing), _Policy(strategy1, 1, missing))
    payoffs = np.empty(n)
    for g in range(n):
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                names, chances = zip(*state.chance_outcomes())
                state = state.child(names[sample(chances, rng.random())])
                continue
            actions, probs = policies[state.current_player()].at(state)
            state = state.child(actions[sample(probs, rng.random())])
        payoffs[g] = state.returns()[0]
    stderr = float(payoffs.std(ddof=1) / sqrt(n)) if n > 1 else float("nan")
    return PlayoutResult(float(payoffs.mean()), stderr, n)


def head_to_head(game: Game, strategy: PlayedStrategy, opponent: PlayedStrategy,
                 games: int = 1000, seed: int = 0,
                 missing: Literal["uniform", "error"] = "uniform") -> PlayoutResult:
    """What ``strategy`` earns per game against ``opponent``, averaged over both seats.

    Plays ``games`` games with ``strategy`` as player 0 and ``games`` with it as player 1 (seeds
    ``seed`` and ``seed + 1``) and returns ``(u_0(s, o) + u_1(o, s)) / 2`` with its standard
    error, where ``u_1 = constant_sum - u_0``. Strategies as in :func:`play_games`.
    """
    first = play_games(game, strategy, opponent, games, seed, missing)
    second = play_games(game, opponent, strategy, games, check_seed(seed) + 1, missing)
    constant = getattr(game, "constant_sum", 0.0)
    mean = (first.mean + constant - second.mean) / 2
    return PlayoutResult(mean, sqrt(first.stderr ** 2 + second.stderr ** 2) / 2, 2 * first.games)


class _Policy:
    """One player's moves: ``at(state)`` returns the legal actions and their probabilities, checked
    once per infoset and cached."""

    def __init__(self, strategy: PlayedStrategy, player: int, missing: str) -> None:
        if missing not in ("uniform", "error"):
            raise CfrlibError(f"missing must be 'uniform' or 'error', got {missing!r}")
        if strategy is not None and not isinstance(strategy, Mapping):
            raise StrategyError(f"player {player}'s strategy must be a Strategy, a mapping "
                                f"{{infoset key: {{action: probability}}}} or None, "
                                f"got a {type(strategy).__name__}")
        self.strategy, self.player, self.missing = strategy, player, missing
        self.cache: dict[str, tuple[list[str], list[float]]] = {}

    def at(self, state: State) -> tuple[list[str], list[float]]:
        key = state.infoset_key()
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._lookup(key, state.legal_actions())
        return found

    def _lookup(self, key: str, actions: list[str]) -> tuple[list[str], list[float]]:
        dist = self._find(key)
        if dist is None:
            if self.missing == "error":
                raise StrategyError(f"player {self.player}'s strategy has no entry for the "
                                    f"infoset {key!r}; pass missing='uniform' to play it uniformly")
            probs = [1.0 / len(actions)] * len(actions)
        else:
            probs = _checked(dist, actions, key, self.player)
        return actions, probs

    def _find(self, key: str) -> Mapping[str, float] | None:
        if self.strategy is None:
            return None
        if isinstance(self.strategy, Strategy):     # a full Strategy or a TableStrategy
            return self.strategy.get((self.player, key))
        dist = self.strategy.get((self.player, key))
        return self.strategy.get(key) if dist is None else dist


def _checked(dist: object, actions: list[str], key: str, player: int) -> list[float]:

    """The probabilities of ``dist`` in the order of ``actions``, or a ``StrategyError``."""
    where = f"player {player}, infoset {key!r}"
    if not isinstance(dist, Mapping):
        raise StrategyError(f"{where}: expected {{action: probability}}, got {dist!r}")
    unknown = [a for a in dist if a not in actions]
    if unknown:
        raise StrategyError(f"{where}: unknown action(s) {unknown}; the legal actions are {actions}")
    try:
        probs = [float(dist.get(a, 0.0)) for a in actions]
    except (TypeError, ValueError):
        raise StrategyError(f"{where}: {dict(dist)!r} holds a value that is not a probability") from None
    if not all(isfinite(p) and p >= 0.0 for p in probs) or not sums_to_one(sum(probs), len(probs)):
        raise StrategyError(f"{where}: probabilities {probs} must be non-negative and sum to 1")
    return probs
