"""The one owner of the sampling walks: what to walk is configuration (a ``Scheme``), and a
walk object holds the tables and runs the iterations.

* :class:`TreeWalk`: the game compiled once (``cfrlib.Game.tree``); cumulative regrets
  ``R(I, a)``, average-strategy sums ``S(I, a)`` and the current strategy ``sigma^{T+1}`` are
  arrays ``num_infosets x max_actions`` (zero beyond an infoset's legal actions), walked by the
  compiled walks of ``cfrlib.solvers.sampling.kernels`` with the scheme's local rule as data.
* :class:`StateWalk`: the state API walked by the textbook recursions of
  ``cfrlib.textbook.sampling``, storing only the infosets met, in an ``InfosetTable`` keyed by
  ``(player, infoset key)``; for games too large to compile (regret matching only).

Both offer ``run(n, done)`` (iterations ``done + 1`` to ``done + n``, returns the nodes
touched), ``average_strategy()``, ``current_strategy()``, ``arrays()`` and ``restore(arrays)``
(the solver's save format) and ``compilable``. Strategies come back as a ``cfrlib.Strategy``
whenever the game can be compiled, whatever the backend, so ``cfrlib.exploitability``,
``cfrlib.expected_value``, ``Strategy.save`` and the plots take them alike; only for a game too
large to compile does the state backend return a :class:`TableStrategy`, the ``Strategy`` of
the infosets met.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from functools import cached_property
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ...errors import InfosetKeyError, SolverError, StrategyError
from ...game import Game
from ...strategy import InfosetKey, Strategy
from ...textbook.regret_matching import regret_matching
from ...textbook.sampling import (InfosetNode, InfosetTable, chance_sampling_cfr, external_sampling,
                                  outcome_sampling)
from ...tree import Tree
from ..regret_minimizers import RegretMatching

WALKS = ("chance", "external", "outcome")


class Scheme(NamedTuple):
    """What a sampling solver walks: ``walk`` (one of :data:`WALKS`: chance-sampled CFR,
    external- or outcome-sampling MCCFR), ``alternating`` (chance sampling: one walk a player or
    one for both), ``epsilon`` (outcome sampling's exploration), ``minimizer``, the local rule
    (regret matching on regrets discounted as ``minimizer.alpha`` and ``minimizer.beta`` say),
    and outcome sampling's ``baseline`` (``"none"`` or ``"learned"``: VR-MCCFR) with its step
    ``baseline_rate``."""

    walk: str
    minimizer: RegretMatching
    alternating: bool = True
    epsilon: float = 0.6
    baseline: str = "none"
    baseline_rate: float = 0.5


Distribution = dict[str, float]


class TableStrategy(Strategy):
    """A strategy of a game too large to compile: ``sigma(I, .)`` for the infosets a sampling
    solver met (the rest are unknown to it; ``cfrlib.play_games`` plays them uniformly).

    Why a subclass rather than a full ``Strategy``: a ``Strategy`` is an array over every
    infoset of the compiled tree, and compiling is exactly what such a game does not allow
    (Bluff with two dice each: about 13 million histories). This one is backed by the dict
    ``{(player, key): {action: probability}}`` and keeps the reading side of ``Strategy``:
    ``strategy[key]`` or ``strategy[(player, key)]``, iteration over the keys met, ``len``,
    ``player(p)``, ``format()``, ``save(path)`` (the same JSON, holding the infosets met); it is
    accepted by ``cfrlib.play_games`` and ``head_to_head``. What needs the whole tree
    (``probs``, ``to_array()``, exact evaluation) raises a ``StrategyError`` that says so
    (``solver.exploitability()`` refuses at once; ``cfrlib.exploitability(game, strategy)``
    would first try to compile the game).
    """

    def __init__(self, game: Game, rows: Mapping[tuple[int, str], Distribution]) -> None:
        self.game = game
        self._rows = rows                      # {(player, key): {action: probability}}
        self._players: dict[str, list[int]] = {}  # key -> the players with an infoset of that name
        for p, key in rows:
            self._players.setdefault(key, []).append(p)

    @property
    def tree(self) -> Tree:  # type: ignore[override]  # Strategy.tree, refused: the game does not compile
        raise StrategyError(f"{self.game.name} is too large to compile: this strategy holds only "
                            f"the {len(self._rows):,} infosets met; evaluate it by playing games "
                            "(cfrlib.play_games, head_to_head)")

    _probs = tree  # type: ignore[assignment]  # refused alike

    def player(self, p: int) -> dict[str, Distribution]:
        """Player ``p``'s part over the infosets met: ``{infoset key: {action: probability}}``."""
        return {key: dict(dist) for (q, key), dist in self._rows.items() if q == p}

    def __getitem__(self, key: InfosetKey) -> Distribution:
        if isinstance(key, tuple) and len(key) == 2 and key[0] in (0, 1):
            if key in self._rows:
                return dict(self._rows[key])
            raise InfosetKeyError(f"player {key[0]}'s infoset {key[1]!r} was not met")
        if not isinstance(key, str):
            raise InfosetKeyError(f"the infoset {key!r} was not met")
        players = self._players.get(key, ())
        if len(players) == 1:
            return dict(self._rows[(players[0], key)])
        if players:
            raise InfosetKeyError(f"both players have an infoset {key!r}; use a (player, key) pair")
        raise InfosetKeyError(f"the infoset {key!r} was not met")

    def __iter__(self) -> Iterator[str]:
        return (key for _, key in self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TableStrategy) and other.game.name == self.game.name
                and other._rows == self._rows)

    __hash__ = None

    def __repr__(self) -> str:
        return f"<TableStrategy for {self.game.name}: {len(self._rows)} infosets met>"


class TreeWalk:
    """The compiled walks on the game's tree: regrets, average-strategy sums and current strategy
    as arrays in the compiled tree's infoset order, the rule as kernel data (``rule``, with its
    lazy-discount state ``lazy``); ``pending``/``count`` hold draws restored from a save file
    (next draw last)."""

    def __init__(self, game: Game, rng: np.random.Generator, scheme: Scheme) -> None:
        from . import kernels   # numba is imported (about 0.6 s) when a compiled walk is wanted

        self.game, self.rng, self.scheme = game, rng, scheme
        self.kernels = kernels
        self.tree = game.tree()
        self.flat = kernels.kernel_tree(self.tree)
        mask = self.tree.action_mask
        self.regret = np.zeros(mask.shape)
        self.strategy_sum = np.zeros(mask.shape)
        self.sigma = self.tree.uniform()
        self.pending = np.zeros(0)
        self.count = np.zeros(1, dtype=np.int64)
        self.baseline = np.zeros((2, self.tree.num_nodes) if scheme.baseline == "learned" else (0, 0))
        alpha, beta = scheme.minimizer.alpha, scheme.minimizer.beta
        modes = [kernels.KEEP if e == np.inf else kernels.ZERO if e == -np.inf else kernels.DISCOUNT
                 for e in (alpha, beta)]
        clips = modes == [kernels.KEEP, kernels.ZERO]   # RM+: the floor at zero, applied at once
        self.rule = kernels.Rule(modes != [kernels.KEEP] * 2 and not clips, clips, modes[0], modes[1],
                                 alpha, beta)
        self.lazy = kernels.Lazy(np.zeros(len(mask), dtype=np.int64), np.zeros((len(mask), 2)),
                                 np.array([1.0, 1.0, 1.0, 1.0]))
        # iterations per call of a compiled walk: a call costs some microseconds, and Ctrl-C
        # is honoured between calls (a thousand external-sampling iterations on Leduc: 10 ms)
        self.batch = max(1, min(1000, 10**7 // self.tree.num_nodes))

    compilable = True

    def run(self, n: int, done: int) -> int:
        """Iterations ``done + 1`` to ``done + n``; the nodes touched."""
        walk, k = self.scheme.walk, self.kernels
        tables = (self.regret, self.strategy_sum, self.sigma, self.rng, self.pending, self.count,
                  self.rule, self.lazy)
        if walk == "chance":
            return int(k.chance_sampling(self.flat, done, n, self.scheme.alternating, *tables))
        if walk == "external":
            return int(k.external_sampling(self.flat, done, n, *tables))
        return int(k.outcome_sampling(self.flat, done, n, self.scheme.epsilon, *tables,
                                      self.baseline, self.scheme.baseline_rate))

    def settled_regret(self, done: int) -> NDArray[np.float64]:
        """``R^T(I, a)`` after ``T = done`` iterations (``regret`` with the discounts each row
        has yet to receive lazily applied; ``regret`` itself without discounts)."""
        return cast(NDArray[np.float64], self.kernels.settled(
            self.rule, self.lazy, self.regret, self.flat.num_actions, done))

    def average_strategy(self) -> Strategy:
        return Strategy(self.game, _normalise(self.strategy_sum, self.tree.action_mask))

    def current_strategy(self) -> Strategy:
        return Strategy(self.game, self.sigma)

    def arrays(self) -> dict[str, NDArray[Any]]:
        """The save format: ``uniforms``, ``regret`` (as stored: with a discounting rule, each row
        as of its last update) and ``strategy_sum``; with a discounting rule also the lazy state
        ``stamp``, ``mark`` and ``now``; with a learned baseline, ``baseline``."""
        arrays = {"uniforms": self.pending[:self.count[0]].copy(), "regret": self.regret.copy(),
                  "strategy_sum": self.strategy_sum.copy()}
        if self.baseline.size:
            arrays["baseline"] = self.baseline.copy()
        if self.rule.discounts:
            arrays.update((name, getattr(self.lazy, name).copy()) for name in self.lazy._fields)
        return arrays

    def restore(self, arrays: Mapping[str, NDArray[Any]]) -> None:
        shape = self.regret.shape
        if arrays["regret"].shape != shape or arrays["strategy_sum"].shape != shape:
            raise SolverError(f"saved tables have shape {arrays['regret'].shape}, "
                              f"expected {shape} for {self.game.name}")
        if self.rule.discounts:
            for name in self.lazy._fields:
                saved, mine = arrays.get(name), getattr(self.lazy, name)
                if saved is None or saved.shape != mine.shape:
                    raise SolverError(f"saved state {name!r} (of the lazy discounts of "
                                      f"{self.scheme.minimizer!r}) is missing or does not have "
                                      f"shape {mine.shape}")
                mine[:] = saved
        if self.baseline.size:
            saved = arrays.get("baseline")
            if saved is None or saved.shape != self.baseline.shape:
                raise SolverError(f"the saved learned baseline is missing or does not have shape "
                                  f"{self.baseline.shape}")
            self.baseline[:] = saved
        mask = self.tree.action_mask
        self.regret[:] = np.where(mask, arrays["regret"], 0.0)
        self.strategy_sum[:] = np.where(mask, arrays["strategy_sum"], 0.0)
        self.kernels.regret_match_all(self.regret, self.sigma, self.flat.num_actions)
        self.pending = np.array(arrays["uniforms"], dtype=float)
        self.count[0] = len(self.pending)

    def rows(self, table: NDArray[np.float64]) -> list[list[float]]:
        """``table`` (``regret`` or ``strategy_sum``) as one list per infoset, legal actions only."""
        return [row[:k] for row, k in zip(table.tolist(), self.tree.infoset_num_actions.tolist())]


class UniformStream:
    """Uniform draws in [0, 1) from a seeded ``numpy.random.Generator``, fetched in blocks.

    ``random`` returns the same sequence as calling ``rng.random()`` once per draw (numpy
    fills a block with the same doubles one by one), at a tenth of the cost. The draws fetched
    but not yet used are part of the solver's state (``buffer``, next draw last).
    """

    block = 512

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.buffer: list[float] = []

    def random(self) -> float:
        if not self.buffer:
            self.refill()
        return self.buffer.pop()

    def refill(self) -> None:
        self.buffer.extend(self.rng.random(self.block)[::-1].tolist())


class RecordedDraws:
    """Uniform draws from ``draw()``, remembered, so that ``replay()`` hands the same numbers in
    the same order to a second walk."""

    def __init__(self, draw: Callable[[], float]) -> None:
        self.draw, self.drawn = draw, list[float]()

    def random(self) -> float:
        u = self.draw()
        self.drawn.append(u)
        return u

    def replay(self) -> RecordedDraws:
        return RecordedDraws(iter(self.drawn).__next__)


class StateWalk:
    """The textbook recursions on the state API: an ``InfosetTable`` over the infosets met,
    filled with draws from a ``UniformStream``. ``compilable()`` says whether the game may be
    compiled (asked once, when a strategy is first wanted). Regret matching only (the
    recursions are the chapters' plain ones)."""

    batch = 1

    def __init__(self, game: Game, rng: np.random.Generator, scheme: Scheme,
                 compilable: Callable[[], bool]) -> None:
        self.game, self.scheme = game, scheme
        self.table = InfosetTable()
        self.uniforms = UniformStream(rng)
        self._compilable = compilable

    @cached_property
    def compilable(self) -> bool:
        return self._compilable()

    def run(self, n: int, done: int) -> int:
        """``n`` iterations (``done`` is not needed: regret matching does not depend on it); the
        nodes touched."""
        before, table, scheme = self.table.nodes_touched, self.table, self.scheme
        rng = cast(np.random.Generator, self.uniforms)  # the recursions call only .random()
        for _ in range(n):
            if scheme.walk == "chance" and not scheme.alternating:
                self.chance_walks_against_sigma_t()
            elif scheme.walk == "chance":
                for i in (0, 1):
                    chance_sampling_cfr(self.game.initial_state(), i, (1.0, 1.0), table, rng)
            else:
                for i in (0, 1):
                    if scheme.walk == "external":
                        external_sampling(self.game.initial_state(), i, table, rng)
                    else:
                        outcome_sampling(self.game.initial_state(), i, 1.0, 1.0, table, rng,
                                         scheme.epsilon)
        return self.table.nodes_touched - before

    def chance_walks_against_sigma_t(self) -> None:
        """Simultaneous updates: both players walk against ``sigma^t`` with the same chance
        draws before either update shows (the compiled walk does both in one traversal, with the
        same numbers on games whose walks meet an infoset at most once). Player 1 walks on a copy
        of the table taken before player 0's walk; its infosets are then copied back."""
        before, draws = copy.deepcopy(self.table), RecordedDraws(self.uniforms.random)
        chance_sampling_cfr(self.game.initial_state(), 0, (1.0, 1.0), self.table,
                            cast(np.random.Generator, draws))
        touched = before.nodes_touched
        chance_sampling_cfr(self.game.initial_state(), 1, (1.0, 1.0), before,
                            cast(np.random.Generator, draws.replay()))
        self.table.update({key: node for key, node in before.items() if key[0] == 1})
        self.table.nodes_touched += before.nodes_touched - touched

    def average_strategy(self) -> Strategy:
        """With a compilable game, the arithmetic of ``TreeWalk`` on the same padded sums
        (infosets not met have ``S = 0``, hence uniform), so both backends agree bit for bit."""
        if not self.compilable:  # the infosets met, normalised alike (rows of one length at once)
            by_length: dict[int, list[tuple[int, str]]] = {}
            for key, node in self.table.items():
                by_length.setdefault(len(node.actions), []).append(key)
            rows: dict[tuple[int, str], Distribution] = {}
            for keys in by_length.values():
                sums = np.array([list(self.table[key].strategy_sum.values()) for key in keys])
                for key, probs in zip(keys, _normalise(sums).tolist()):
                    rows[key] = dict(zip(self.table[key].actions, probs))
            return TableStrategy(self.game, {key: rows[key] for key in self.table})  # the table's order
        tree = self.game.tree()
        return Strategy(self.game, _normalise(self._padded(tree, "strategy_sum"), tree.action_mask))

    def current_strategy(self) -> Strategy:
        if not self.compilable:
            return TableStrategy(self.game, {key: regret_matching(node.regret)
                                             for key, node in self.table.items()})
        tree = self.game.tree()
        probs = tree.uniform()
        for (p, key), node in self.table.items():
            sigma = regret_matching(node.regret)
            probs[tree.infoset_index(p, key), :len(node.actions)] = list(sigma.values())
        return Strategy(self.game, probs)

    def _padded(self, tree: Tree, field: str) -> NDArray[np.float64]:
        """``field`` of the infosets met as an array in the tree's order (zero elsewhere)."""
        out = np.zeros(tree.action_mask.shape)
        for (p, key), node in self.table.items():
            out[tree.infoset_index(p, key), :len(node.actions)] = list(getattr(node, field).values())
        return out

    def arrays(self) -> dict[str, NDArray[Any]]:
        table = self.table
        nodes = list(table.values())
        return {"uniforms": np.array(self.uniforms.buffer, dtype=float),
                "players": np.array([p for p, _ in table], dtype=np.int8),
                "keys": np.array([k for _, k in table], dtype=str),
                "num_actions": np.array([len(n.actions) for n in nodes], dtype=np.int64),
                "actions": np.array([a for n in nodes for a in n.actions], dtype=str),
                "regret": np.array([r for n in nodes for r in n.regret.values()], dtype=float),
                "strategy_sum": np.array([s for n in nodes for s in n.strategy_sum.values()], dtype=float)}

    def restore(self, arrays: Mapping[str, NDArray[Any]]) -> None:
        self.uniforms.buffer[:] = arrays["uniforms"].tolist()
        self.table.clear()
        ends = np.cumsum(arrays["num_actions"]).tolist()
        actions, regret, sums = (arrays[k].tolist() for k in ("actions", "regret", "strategy_sum"))
        start = 0
        for p, key, end in zip(arrays["players"].tolist(), arrays["keys"].tolist(), ends):
            node = self.table[(p, key)] = InfosetNode(actions[start:end])
            node.regret = dict(zip(node.actions, regret[start:end]))
            node.strategy_sum = dict(zip(node.actions, sums[start:end]))
            start = end


def _normalise(sums: NDArray[np.float64], legal: NDArray[np.bool_] | None = None) -> NDArray[np.float64]:
    """``sigma-bar(I, a) = S(I, a) / sum_b S(I, b)`` row by row; rows still all zero become
    uniform over their ``legal`` entries (all entries by default)."""
    legal = np.ones(sums.shape, dtype=bool) if legal is None else legal
    uniform = legal / legal.sum(axis=1, keepdims=True)
    totals = sums.sum(axis=1, keepdims=True)
    return np.divide(sums, totals, out=uniform, where=totals > 0)
