"""Behaviour strategies: for every information set ``I``, a distribution ``sigma(I, .)`` over ``A(I)``.

A :class:`Strategy` reads like a dictionary, ``strategy["Kb"] == {"pass": 0.0, "bet": 1.0}``,
and is stored as one array of shape ``(num_infosets, max_actions)`` in the order of the game's
compiled tree, which is what the solvers and the evaluation work with.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .checks import sums_to_one
from .errors import InfosetKeyError, StrategyError
from .game import Game
from .tree import Tree

__all__ = ["Strategy", "uniform_strategy", "as_strategy", "sample", "InfosetKey", "StrategyLike"]


InfosetKey = Union[str, tuple[int, str]]
"""An infoset key (``"Kb"``), or a ``(player, key)`` pair where both players use the key."""


class Strategy(Mapping[InfosetKey, dict[str, float]]):
    """A strategy profile for both players of ``game`` (or one player's part of it).

    Keys are infoset keys; values are ``{action: probability}`` dictionaries. When both players
    have an infoset of the same name, use :meth:`player` or a ``(player, key)`` pair to pick one.
    A key the game does not have, or that both players use, raises
    :class:`~cfrlib.errors.InfosetKeyError` (a ``KeyError``).
    """

    def __init__(self, game: Game, probs: ArrayLike) -> None:
        tree = game.tree()
        probs = np.array(probs, dtype=float)
        if probs.shape != tree.action_mask.shape:
            raise StrategyError(f"a strategy for {game.name} needs an array of shape "
                                f"{tree.action_mask.shape}, got {probs.shape}")
        probs[~tree.action_mask] = 0.0
        self.game, self.tree = game, tree
        self._probs = probs
        self._probs.flags.writeable = False

    # -------------------------------------------------------------------- construction
    @classmethod
    def from_dict(cls, game: Game, mapping: Mapping[InfosetKey, Mapping[str, float]], *,
                  missing: Literal["error", "uniform"] = "error") -> Strategy:
        """Build a strategy from ``{infoset key: {action: probability}}``.

        Keys may also be ``(player, key)`` pairs. ``missing="uniform"`` fills infosets that the
        mapping leaves out with the uniform distribution; ``"error"`` (the default) refuses them.
        Raises :class:`~cfrlib.errors.StrategyError` for unknown infosets or actions,
        probabilities that are negative or do not sum to 1, and missing infosets.
        """
        if missing not in ("error", "uniform"):
            raise StrategyError(f"missing must be 'error' or 'uniform', got {missing!r}")
        tree = game.tree()
        probs = np.full(tree.action_mask.shape, np.nan)
        for key, dist in mapping.items():
            I = _resolve(tree, key, game.name)
            actions = tree.infoset_actions[I]
            if not isinstance(dist, Mapping):
                raise StrategyError(f"infoset {key!r}: expected {{action: probability}}, got {dist!r}")
            unknown = [a for a in dist if a not in actions]
            if unknown:
                raise StrategyError(f"infoset {key!r}: unknown action(s) {unknown}; "
                                    f"the legal actions are {list(actions)}")
            row = np.zeros(tree.max_actions)
            for a, q in dist.items():
                try:
                    row[actions.index(a)] = float(q)
                except (TypeError, ValueError):
                    raise StrategyError(f"infoset {key!r}, action {a!r}: {q!r} is not a probability") from None
            n = len(actions)
            if not np.all(np.isfinite(row)) or np.any(row < 0):
                raise StrategyError(f"infoset {key!r}: probabilities {row[:n].tolist()} must be "
                                    "finite and non-negative")
            if not sums_to_one(row.sum(), n):
                raise StrategyError(f"infoset {key!r}: probabilities {row[:n].tolist()} sum to "
                                    f"{row.sum():.6g}, not 1")
            probs[I] = row if abs(row.sum() - 1.0) <= 1e-12 else row / row.sum()
        unset = np.isnan(probs[:, 0])
        if unset.any():
            if missing == "error":
                names = [tree.infoset_keys[I] for I in np.flatnonzero(unset)[:5]]
                raise StrategyError(f"the strategy leaves out {int(unset.sum())} infoset(s) of "
                                    f"{game.name}, for example {names}; pass missing='uniform' "
                                    "to fill them uniformly")
            probs[unset] = tree.uniform()[unset]
        return cls(game, probs)

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: Game) -> Strategy:
        """Read a strategy saved by :meth:`save` and check that it fits ``game``."""
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as err:
            raise StrategyError(f"{path}: not valid JSON ({err.msg} at line {err.lineno}, "
                                f"column {err.colno})") from None
        if not isinstance(data, dict) or "players" not in data:
            raise StrategyError(f"{path}: expected an object with a 'players' list")
        mapping: dict[InfosetKey, Mapping[str, float]] = {}
        for p, part in enumerate(data["players"]):
            for key, dist in part.items():
                mapping[(p, key)] = dist
        return cls.from_dict(game, mapping)

    @classmethod
    def from_openspiel_policy(cls, policy: Any, game: Game) -> Strategy:
        """The strategy an OpenSpiel policy (any ``Policy``, read through
        ``action_probabilities(state, player)`` at one state of each infoset) plays in ``game``,
        a game made by :func:`cfrlib.games.from_openspiel`."""
        openspiel_game = _openspiel_game(game, "from_openspiel_policy")
        mapping: dict[InfosetKey, Mapping[str, float]] = {}
        for key, ids in game.action_ids.items():  # type: ignore[attr-defined]
            state = openspiel_game.new_initial_state()
            for action in game.histories[key]:  # type: ignore[attr-defined]
                state.apply_action(action)
            probs = policy.action_probabilities(state, key[0])
            mapping[key] = {name: float(probs.get(a, 0.0)) for name, a in ids.items()}
        return cls.from_dict(game, mapping)

    def to_openspiel_policy(self) -> Any:
        """This strategy as an OpenSpiel ``TabularPolicy`` of its game (made by
        :func:`cfrlib.games.from_openspiel`), keyed by the same information state strings."""
        _openspiel_game(self.game, "to_openspiel_policy")
        return self.game.tabular_policy(self)  # type: ignore[attr-defined]

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the strategy as JSON: ``{"game": ..., "players": [{key: {action: p}}, {...}]}``."""
        payload = {"game": self.game.name, "players": [self.player(0), self.player(1)]}
        Path(path).write_text(json.dumps(payload, indent=1))

    # ------------------------------------------------------------------------- views
    @property
    def probs(self) -> NDArray[np.float64]:
        """The read-only array ``sigma[I, a]`` in the tree's infoset order."""
        return self._probs

    def to_array(self) -> NDArray[np.float64]:
        """A writable copy of :attr:`probs`."""
        return self._probs.copy()

    def player(self, p: int) -> dict[str, dict[str, float]]:
        """Player ``p``'s part: ``{infoset key: {action: probability}}`` in tree order."""
        tree = self.tree
        return {tree.infoset_keys[I]: self._row(int(I))
                for I in np.flatnonzero(tree.infoset_player == p)}

    def _row(self, I: int) -> dict[str, float]:
        return {a: float(q) for a, q in zip(self.tree.infoset_actions[I], self._probs[I])}

    def __getitem__(self, key: InfosetKey) -> dict[str, float]:
        return self._row(_resolve(self.tree, key, self.game.name))

    def __iter__(self) -> Iterator[str]:
        return iter(self.tree.infoset_keys)

    def __len__(self) -> int:
        return self.tree.num_infosets

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Strategy) and other.game.name == self.game.name
                and (other.tree is self.tree or other.tree.infoset_keys == self.tree.infoset_keys)
                and np.array_equal(other._probs, self._probs))

    __hash__ = None  # type: ignore[assignment]  # mutable-looking and compared by value

    def format(self, digits: int = 2, players: Iterable[int] = (0, 1)) -> str:
        """Readable text, one infoset a line: ``Kb: pass 0.00, bet 1.00``."""
        lines = []
        for p in players:
            lines.append(f"player {p}:")
            for key, dist in self.player(p).items():
                moves = ", ".join(f"{a} {q:.{digits}f}" for a, q in dist.items())
                lines.append(f"  {key}: {moves}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"<Strategy for {self.game.name}: {self.tree.num_infosets} infosets>"


StrategyLike = Union[Strategy, Mapping[InfosetKey, Mapping[str, float]], ArrayLike]
"""What functions that take a strategy accept, a :class:`Strategy`, a mapping
``{infoset key: {action: probability}}`` or an array ``sigma[I, a]`` in the tree's order."""


def uniform_strategy(game: Game) -> Strategy:
    """Every legal action with the same probability, ``sigma(I, a) = 1 / |A(I)|``."""
    return Strategy(game, game.tree().uniform())


def sample(probs: Sequence[float], u: float) -> int:
    """The index ``a`` with ``sum_{b<a} p_b <= u < sum_{b<=a} p_b`` (inverse CDF of a uniform ``u``):
    the one draw of an action or chance outcome outside compiled code."""
    cumulative = 0.0
    for a, p in enumerate(probs):
        cumulative += p
        if u < cumulative:
            return a
    return max(a for a, p in enumerate(probs) if p > 0.0)         # u beyond a rounded-down total


def as_strategy(game: Game, strategy: StrategyLike) -> Strategy:
    """Accept a :class:`Strategy`, a ``{key: {action: p}}`` mapping or an array for ``game``."""
    if isinstance(strategy, Strategy):
        if strategy.tree is not game.tree():
            if strategy.tree.infoset_keys != game.tree().infoset_keys:
                raise StrategyError(f"this strategy belongs to {strategy.game.name}, not {game.name}")
            return Strategy(game, strategy.probs)
        return strategy
    if isinstance(strategy, Mapping):
        return Strategy.from_dict(game, strategy)
    return Strategy(game, strategy)


def _openspiel_game(game: Game, method: str) -> Any:
    """The ``pyspiel.Game`` behind a game made by ``cfrlib.games.from_openspiel``."""
    openspiel_game = getattr(game, "openspiel_game", None)
    if openspiel_game is None:
        raise StrategyError(f"{method}: {game.name} was not made by cfrlib.games.from_openspiel")
    return openspiel_game


def _resolve(tree: Tree, key: InfosetKey, game_name: str) -> int:

    """The infoset index of ``key`` or ``(player, key)``; unambiguous or a clear error."""
    if isinstance(key, tuple) and len(key) == 2 and key[0] in (0, 1):
        if tree.has_infoset(*key):
            return tree.infoset_index(*key)
        raise InfosetKeyError(f"player {key[0]} has no infoset {key[1]!r} in {game_name}")
    found = [tree.infoset_index(p, key) for p in (0, 1)
             if isinstance(key, str) and tree.has_infoset(p, key)]

    if not found:
        raise InfosetKeyError(f"{game_name} has no infoset {key!r}")
    if len(found) > 1:
        raise InfosetKeyError(f"both players have an infoset {key!r} in {game_name}; "
                              "use a (player, key) pair")
    return found[0]
