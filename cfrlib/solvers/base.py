"""What every solver shares: iterating, strategies, convergence logs, saving and resuming.

A solver subclass implements one iteration (:meth:`Solver._iteration`), its two strategies, and
the arrays that make up its state; this module does the rest: argument checks, the
``run(iterations, eval_every=...)`` loop with a progress bar and a :class:`ConvergenceLog`, the
state as named arrays (:meth:`Solver.state`, :meth:`Solver.set_state`), and saving to / loading
from ``.npz`` so that a long run can stop and resume without losing work.
"""

from __future__ import annotations

import _signal  # signal's C core, see _deferred_interrupt
import json
import os
import threading
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import NDArray
from typing_extensions import Self

from ..checks import check_iterations, check_tolerance
from ..errors import SolverError
from ..evaluation import exploitability
from ..game import Game
from ..strategy import Strategy

PathLike = str | os.PathLike[str]
Row = tuple[int, int, float, float]
"""A :class:`ConvergenceLog` row: iteration, nodes touched, seconds, exploitability."""


class SolverRegistry(dict[str, type["Solver"]]):
    """The one list of cfrlib's solvers, from short name (``"cfr"``, ``"cfr+"``, ``"dcfr"``,
    ``"es"``, ...) to solver class, filled by :func:`register`. The command line offers exactly
    these names, and the tests run every entry."""


SOLVERS = SolverRegistry()


def check_two_player_constant_sum(game: Any) -> None:
    """Refuse games the CFR family cannot solve (the tree compiler checks the rest)."""
    if getattr(game, "num_players", 2) != 2:
        raise SolverError(f"{game.name} has {game.num_players} players; cfrlib solves two-player games")
    if not hasattr(game, "initial_state"):
        raise SolverError(f"{game!r} is not a game (it has no initial_state())")


class ConvergenceLog:
    """A solver's progress: at each evaluation point, the iteration, the nodes touched so far,
    the seconds spent iterating so far (evaluation excluded) and the exploitability of the
    average strategy."""

    columns = ("iteration", "nodes_touched", "seconds", "exploitability")

    def __init__(self, name: str = "", rows: Iterable[Sequence[float]] = ()) -> None:
        self.name = name
        self.rows = [cast(Row, tuple(r)) for r in rows]

    def append(self, iteration: int, nodes_touched: int, seconds: float, value: float) -> None:
        self.rows.append((int(iteration), int(nodes_touched), float(seconds), float(value)))

    def __getattr__(self, column: str) -> NDArray[Any]:
        if column in ConvergenceLog.columns:
            i = ConvergenceLog.columns.index(column)
            return np.array([r[i] for r in self.rows])
        raise AttributeError(column)

    def __len__(self) -> int:
        return len(self.rows)

    def row_at(self, budget: float, column: str = "nodes_touched") -> Row:
        """The last row ``(iteration, nodes_touched, seconds, exploitability)`` whose ``column``
        is at most ``budget``: where the run stood when it had spent ``budget``."""
        if column not in ConvergenceLog.columns[:3]:
            raise SolverError(f"column must be one of {ConvergenceLog.columns[:3]}, got {column!r}")
        values = getattr(self, column)
        k = int(np.searchsorted(values, budget, side="right")) - 1
        if k < 0:
            first = values[0] if len(values) else "none"
            raise SolverError(f"the log {self.name!r} has no evaluation with {column} <= {budget!r} "
                              f"(its first is at {first})")
        return self.rows[k]

    def exploitability_at(self, budget: float, column: str = "nodes_touched") -> float:
        """The exploitability the run had reached with at most ``budget`` of ``column``."""
        return self.row_at(budget, column)[3]

    def to_dict(self) -> dict[str, Any]:
        """``{column: list}`` plus the name, ready for JSON."""
        out: dict[str, Any] = {"name": self.name}
        out.update({c: [r[i] for r in self.rows] for i, c in enumerate(self.columns)})
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConvergenceLog:
        """The log that :meth:`to_dict` describes."""
        try:
            return cls(data.get("name", ""), zip(*(data[c] for c in cls.columns), strict=True))
        except (KeyError, TypeError, ValueError) as err:
            raise SolverError(f"not a convergence log: expected a name and the lists "
                              f"{list(cls.columns)} of equal length ({err})") from None

    def save(self, path: PathLike) -> None:
        """Write the log as JSON (:meth:`to_dict`)."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1))

    @classmethod
    def load(cls, path: PathLike) -> ConvergenceLog:
        """Read a log written by :meth:`save`."""
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as err:
            raise SolverError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
        return cls.from_dict(data)

    def __repr__(self) -> str:
        lines = [f"ConvergenceLog({self.name!r}, {len(self.rows)} points)"]
        lines.append(f"{'iteration':>10} {'nodes touched':>14} {'seconds':>9} {'exploitability':>15}")
        shown: list[Row | None] = [*self.rows] if len(self.rows) <= 8 else [*self.rows[:3], None, *self.rows[-4:]]
        for r in shown:
            lines.append("       ..." if r is None else f"{r[0]:>10} {r[1]:>14,} {r[2]:>9.3f} {r[3]:>15.6g}")
        return "\n".join(lines)


class Solver:
    """The interface of every solver in cfrlib.

    Subclasses set :attr:`name`, implement :meth:`_iteration`, :meth:`average_strategy`,
    :meth:`current_strategy`, :meth:`_params` (constructor keyword arguments) and
    :meth:`_arrays` / :meth:`_restore` (their tables, behind :meth:`state` / :meth:`set_state`),
    and register with :func:`register`.
    """

    name = "solver"
    short_name: str | None = None
    """The solver's name in :data:`SOLVERS` (None for an engine that only presets use)."""
    sampled = False
    """Whether the solver draws random samples (and so takes a ``seed``)."""
    batch = 1
    """How many steps :meth:`iterate` hands to :meth:`_iterations` at once (Ctrl-C is honoured
    between batches)."""
    step = "iteration"
    """What :meth:`iterate` and :meth:`run` count (and their argument checks name): an
    iteration, or a ``"round"`` of :attr:`iterations_per_step` iterations."""

    def __init__(self, game: Game) -> None:
        check_two_player_constant_sum(game)
        self.game = game
        self.iterations = 0
        self.nodes_touched = 0
        self.seconds = 0.0

    @property
    def iterations_per_step(self) -> int:
        """Iterations one step of :meth:`iterate` runs: 1, or the iterations of a round."""
        return 1

    # ----------------------------------------------------------------- to implement
    def _iteration(self) -> None:
        """Run the next step (iteration number ``self.iterations + 1``, or the next round) and
        add to ``self.nodes_touched``."""
        raise NotImplementedError

    def _iterations(self, n: int) -> None:
        """Run ``n`` steps (a solver whose iterations are cheap does them in one call)."""
        for _ in range(n):
            self._iteration()

    def average_strategy(self) -> Strategy:
        """The average strategy ``sigma-bar^T``, the one that converges to an equilibrium."""
        raise NotImplementedError

    def current_strategy(self) -> Strategy:
        """The current strategy ``sigma^{T+1}`` that the next iteration will play."""
        raise NotImplementedError

    def _params(self) -> dict[str, Any]:
        return {}

    def _arrays(self) -> dict[str, NDArray[Any]]:
        """The arrays of :meth:`state`, fresh ones (the caller may keep them)."""
        raise NotImplementedError

    def _restore(self, arrays: dict[str, NDArray[Any]]) -> None:
        """Set the arrays of :meth:`set_state`; a :class:`SolverError` for one of the wrong shape."""
        raise NotImplementedError

    # ------------------------------------------------------------------- shared
    def state(self) -> dict[str, NDArray[Any]]:
        """The solver's tables as named arrays, copies: always the cumulative regrets
        ``"regret"`` and the average-strategy sums ``"strategy_sum"``, plus whatever else the
        solver's next iterations depend on (the current strategy, lazy discounts, pending
        uniforms, ...). With the counters (``iterations``, ``nodes_touched``, ``seconds``) and,
        for a sampled solver, the random generator's state, this is what :meth:`save` writes."""
        return self._arrays()

    def set_state(self, arrays: Mapping[str, NDArray[Any]]) -> None:
        """Replace the solver's tables by ``arrays``, as :meth:`state` gives them (from this solver
        or one built with the same game and parameters). The counters and the random generator
        stay as they are: set them too to continue a run bit for bit (:meth:`load` does)."""
        try:
            self._restore(dict(arrays))
        except KeyError as err:
            raise SolverError(f"set_state: no array {err.args[0]!r}; the state of this "
                              f"{type(self).__name__} has {sorted(self.state())}") from None

    def iterate(self, iterations: int = 1) -> Self:
        """Run ``iterations`` more steps (iterations, or rounds: :attr:`step`); returns the solver
        so calls can chain."""
        n = check_iterations(iterations, f"{self.step}s")
        start = time.perf_counter()
        with _deferred_interrupt() as interrupted:
            try:
                while n > 0 and not interrupted:
                    k = min(n, self.batch)
                    self._iterations(k)
                    self.iterations += k * self.iterations_per_step
                    n -= k
            finally:
                self.seconds += time.perf_counter() - start
        return self

    def exploitability(self) -> float:
        """Exploitability (NashConv / 2) of the average strategy."""
        return exploitability(self.game, self.average_strategy())

    def run(self, iterations: int, eval_every: int | None = None, *, target_exploitability: float | None = None,
            progress: bool = True, log: ConvergenceLog | None = None,
            checkpoint: Callable[[Solver], object] | None = None,
            checkpoint_every: int | None = None) -> ConvergenceLog:
        """Iterate up to ``iterations`` more steps (iterations, or rounds: :attr:`step`),
        evaluating every ``eval_every`` steps; the log's ``iteration`` column counts iterations.

        Evaluations happen at step counts divisible by ``eval_every`` and at the end; the
        exploitability is that of the average strategy. With ``target_exploitability`` the run
        stops at the first evaluation that reaches it. ``progress`` shows a progress bar
        (a widget in notebooks, text on stderr in terminals). Appends to ``log`` when given, so
        that a resumed run continues the same log. ``checkpoint(solver)`` is called at step
        counts divisible by ``checkpoint_every`` (default ``eval_every``), for instance to save
        the solver. Interrupting the run (Ctrl-C) stops after the current step and leaves the
        solver consistent.
        """
        n = check_iterations(iterations, f"{self.step}s")
        if eval_every is None:
            eval_every = max(1, n // 50)
        every = check_iterations(eval_every, "eval_every")
        saving = every if checkpoint_every is None else check_iterations(checkpoint_every, "checkpoint_every")
        if 0 in (every, saving):
            raise SolverError(f"{'eval_every' if every == 0 else 'checkpoint_every'} must be a "
                              "positive integer")
        if target_exploitability is not None:
            check_tolerance(target_exploitability, "target_exploitability")
        log = log if log is not None else ConvergenceLog(self.name)
        if not log.rows or log.rows[-1][0] != self.iterations:
            log.append(self.iterations, self.nodes_touched, self.seconds, self.exploitability())
        cadences = [every] if checkpoint is None else [every, saving]
        bar = _progress_bar(n, self.name) if progress else None
        done = self.iterations // self.iterations_per_step
        end = done + n
        try:
            while done < end:
                step = min([k - done % k for k in cadences] + [end - done])
                self.iterate(step)
                done += step
                if bar is not None:
                    bar.update(step)
                if done % every == 0 or done == end:
                    value = self.exploitability()
                    log.append(self.iterations, self.nodes_touched, self.seconds, value)
                    if bar is not None:
                        bar.set_postfix(exploitability=f"{value:.3g}", refresh=False)
                    if target_exploitability is not None and value <= target_exploitability:
                        break
                if checkpoint is not None and done % saving == 0:
                    checkpoint(self)
        finally:
            if bar is not None:
                bar.close()
        return log

    def save(self, path: PathLike) -> None:
        """Write the solver's whole state to ``path`` (``.npz``) so that :meth:`load` can resume it."""
        meta = {"solver": type(self).__name__, "game": self.game.name, "params": self._params(),
                "iterations": self.iterations, "nodes_touched": self.nodes_touched,
                "seconds": self.seconds}
        rng = getattr(self, "rng", None)
        if rng is not None:
            meta["rng"] = rng.bit_generator.state
        arrays: dict[str, Any] = {f"state_{k}": v for k, v in self.state().items()}
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(cls, path: PathLike, game: Game, **options: Any) -> Self:
        """Rebuild a solver saved by :meth:`save` for ``game`` and restore its state. ``options``
        are constructor arguments that are not state, so not saved (the distributed solver's
        ``client``)."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k[len("state_"):]: data[k] for k in data.files if k.startswith("state_")}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:
            raise SolverError(f"{path}: not a saved cfrlib solver ({err or type(err).__name__})") from None
        klass = next((k for k in _subclasses(Solver) if k.__name__ == meta["solver"]), None)
        if klass is None or not issubclass(klass, cls):
            raise SolverError(f"{path}: holds a {meta['solver']} solver, not a {cls.__name__}")
        if meta["game"] != game.name:
            raise SolverError(f"{path}: was saved for {meta['game']}, not for {game.name}")
        saved = sorted(options.keys() & meta["params"].keys())
        if saved:
            raise SolverError(f"{path}: {', '.join(saved)} is saved with the solver; load takes only "
                              "constructor arguments that are not saved")
        solver = klass(game, **meta["params"], **options)
        solver.iterations, solver.nodes_touched = meta["iterations"], meta["nodes_touched"]
        solver.seconds = meta["seconds"]
        solver.set_state(arrays)      # after the counters: a state may be read at its iteration
        if "rng" in meta:
            getattr(solver, "rng").bit_generator.state = meta["rng"]  # sampled solvers only
        return solver

    def __repr__(self) -> str:
        return f"<{type(self).__name__} on {self.game.name}: {self.iterations} iterations>"


SolverClass = TypeVar("SolverClass", bound=type[Solver])
"""A solver class, as ``register`` hands it back."""


def register(short_name: str) -> Callable[[SolverClass], SolverClass]:
    """Class decorator: list a solver class in :data:`SOLVERS` under ``short_name``."""
    def decorate(klass: SolverClass) -> SolverClass:
        if short_name in SOLVERS:
            raise SolverError(f"register: {SOLVERS[short_name].__qualname__} is already registered "
                              f"as {short_name!r}; give {klass.__qualname__} another short_name")
        klass.short_name = short_name
        SOLVERS[short_name] = klass
        return klass
    return decorate


def solver_class(short_name: str) -> type[Solver]:
    """The solver class registered as ``short_name``, or a :class:`SolverError` naming the
    registered ones."""
    try:
        return SOLVERS[short_name]
    except KeyError:
        raise SolverError(f"no solver {short_name!r}; the solvers are "
                          f"{', '.join(SOLVERS)}") from None


def _subclasses(klass: type[Solver]) -> Iterator[type[Solver]]:
    for sub in klass.__subclasses__():
        yield sub
        yield from _subclasses(sub)


@contextmanager
def _deferred_interrupt() -> Iterator[list[object]]:
    """Turn Ctrl-C into a flag (a non-empty list) checked between iterations, then re-raise it
    once the block ends, so that an iteration is never half applied. A process that ignores
    SIGINT (started in the background by a shell, or by a test runner's worker) keeps ignoring
    it: stopping only when the signal happened to land inside an iteration would be a race.
    The handlers go through ``_signal``, which ``signal`` wraps in enum conversions: 18
    microseconds a block against 2.6, and ``iterate(1)`` on Kuhn 51 against 31 (2.5 GHz Xeon)."""
    caught: list[object] = []
    if (threading.current_thread() is not threading.main_thread()
            or _signal.getsignal(_signal.SIGINT) == _signal.SIG_IGN):
        yield caught
        return
    previous = _signal.signal(_signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield caught
    finally:
        _signal.signal(_signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _progress_bar(total: int, name: str) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=name, unit="it", leave=False)
