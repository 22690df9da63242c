"""Comparing CFR variants on equal terms: the study of chapter 10.

The study runs every variant of :data:`VARIANTS` on every game of :data:`GAMES` and records the
exploitability of the average strategy against three measures of work (iterations, nodes
touched, seconds). Evaluations follow one fixed schedule of iteration counts (:func:`schedule`),
so a shorter run's curve is a prefix of a longer one's: that is how the chapter reruns a slice
of the study live and how the tests check the committed data. Three budgets are compared:

* equal iterations: every variant after ``T`` iterations (the seed thesis used ``T = 1000``);
* equal nodes touched: the budget ``B`` of ``T`` iterations of CFR with alternating updates
  (:func:`node_budget`). Every solver's nodes are counted by one rule, the nodes its walk
  touches: a sampler's walk never enters a subtree it did not sample, and a full-width walk
  (``count_pruned=True``) cuts the subtrees that no player and no chance outcome can reach.
  Every variant runs at least ``T`` iterations and on until it has touched ``B`` nodes, or
  reaches its iteration cap (:data:`SAMPLER_CAPS`, :data:`FULL_WIDTH_CAP`);
* equal seconds: read off the same curves (machine-dependent).

``benchmarks/comparison.py`` runs the whole study and writes ``cfrbook/data/comparison.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

from cfrlib import games
from cfrlib.checks import check_iterations
from cfrlib.errors import GameError, SolverError
from cfrlib.game import Game
from cfrlib.solvers.base import ConvergenceLog, Solver
from cfrlib.solvers.fullwidth import (CFR, DCFR, HSDCFR, APCFRPlus, CFRPlus, DCFRPlus, HSPCFRPlus,
                                     LinearCFR, PDCFRPlus, PredictiveCFRPlus, RTCFRPlus, SAPCFRPlus)
from cfrlib.solvers.sampling import ChanceSamplingCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from cfrlib.solvers.sampling.common import SamplingSolver

from .plotting import variant_style

__all__ = ["GAMES", "VARIANTS", "FRONTIER_VARIANTS", "THESIS_VARIANTS", "THESIS_RANKING", "SAMPLER_CAPS",
           "FULL_WIDTH_CAP", "STYLES",
           "make_game", "make_solver", "schedule", "node_budget", "convergence_curve",
           "run_study", "equal_nodes_row", "ranking"]

SHORT_DECK_MAX_RAISES = 7
"""Raise cap per round of our Short Deck Big Leduc: 31,872 infosets, the closest of our rules
to the thesis's 31,944 (chapter 3 shows that no cap gives that number exactly)."""

_Row = tuple[int, int, float, float]  # a ConvergenceLog row: iteration, nodes, seconds, value

GAMES: dict[str, tuple[str, Callable[[], Game]]] = {
    "kuhn": ("Kuhn", games.kuhn),
    "leduc288": ("Leduc, 288 infosets", lambda: games.leduc(suit_isomorphism=True)),
    "leduc": ("Leduc, 936 infosets", games.leduc),
    "short_deck": ("Short Deck Big Leduc",
                   lambda: games.leduc(ranks=6, suits=2, max_raises=SHORT_DECK_MAX_RAISES)),
    "bluff11": ("Bluff 1x1", games.bluff),
}
"""``{key: (label, constructor)}``: the games of the study, smallest first."""

VARIANTS: dict[str, Callable[[Game, int], Solver]] = {
    "CFR simult.": lambda game, seed: CFR(game, alternating=False, count_pruned=True),
    "CFR alt.": lambda game, seed: CFR(game, count_pruned=True),
    "DCFR simult.": lambda game, seed: DCFR(game, 1.5, 0.0, 2.0, alternating=False,
                                            count_pruned=True),
    "DCFR alt.": lambda game, seed: DCFR(game, 1.5, 0.0, 2.0, count_pruned=True),
    "CFR+": lambda game, seed: CFRPlus(game, count_pruned=True),
    "CFR+ quadratic": lambda game, seed: CFRPlus(game, averaging="quadratic", count_pruned=True),
    "OS-MCCFR": lambda game, seed: OutcomeSamplingMCCFR(game, epsilon=0.6, seed=seed),
    "chance sampling": lambda game, seed: ChanceSamplingCFR(game, seed=seed),
    "ES-MCCFR": lambda game, seed: ExternalSamplingMCCFR(game, seed=seed),
    "Linear CFR": lambda game, seed: LinearCFR(game, count_pruned=True),
    "PCFR+": lambda game, seed: PredictiveCFRPlus(game, count_pruned=True),
}
"""``{name: constructor(game, seed)}``: the seed thesis's seven variants, then four more.
DCFR uses the recommended ``(alpha, beta, gamma) = (1.5, 0, 2)``; outcome sampling explores with
``epsilon = 0.6``; the full-width solvers ignore the seed and count the nodes of their walk with
zero-reach subtrees cut (``count_pruned=True``: the same numbers, fewer nodes counted)."""

FRONTIER_VARIANTS: dict[str, Callable[[Game, int], Solver]] = {
    "DCFR+": lambda game, seed: DCFRPlus(game),
    "PDCFR+": lambda game, seed: PDCFRPlus(game),
    "SAPCFR+": lambda game, seed: SAPCFRPlus(game),
    "APCFR+": lambda game, seed: APCFRPlus(game),
    "HS-DCFR": lambda game, seed: HSDCFR(game),
    "HS-PCFR+": lambda game, seed: HSPCFRPlus(game),
    "RTCFR+": lambda game, seed: RTCFRPlus(game),
}
"""``{name: constructor(game, seed)}``: the frontier's variants (2024-2026), with their papers'
defaults (the schedules planned for 1000 iterations), recorded by ``benchmarks/frontier_curves.py``
apart from :data:`VARIANTS` so that the study's recorded data stay as they are."""

THESIS_VARIANTS = tuple(VARIANTS)[:7]
"""The seven variants of the seed thesis, in the order it lists them."""

THESIS_RANKING = ("DCFR alt.", "CFR+", "CFR+ quadratic", "DCFR simult.", "CFR alt.",
                  "CFR simult.", "OS-MCCFR")
"""The thesis's ranking after 1000 iterations on Leduc and on Short Deck Big Leduc, lowest
exploitability first."""

SAMPLER_CAPS: dict[str, dict[str, int]] = {
    "kuhn": {"OS-MCCFR": 10**6, "chance sampling": 10**6, "ES-MCCFR": 10**6},
    "leduc288": {"OS-MCCFR": 10**6, "chance sampling": 10**6, "ES-MCCFR": 10**6},
    "leduc": {"OS-MCCFR": 4 * 10**6, "chance sampling": 10**6, "ES-MCCFR": 2 * 10**6},
    "short_deck": {"OS-MCCFR": 10**8, "chance sampling": 5 * 10**6, "ES-MCCFR": 4 * 10**7},
    "bluff11": {"OS-MCCFR": 5 * 10**7, "chance sampling": 2 * 10**5, "ES-MCCFR": 4 * 10**6},
}
"""Iteration caps of the sampling solvers in the equal-nodes runs: a guard, about three times
the iterations each needs to touch the node budget, so every sampler reaches the budget on every
game (with the compiled walks, in at most a few minutes)."""

FULL_WIDTH_CAP = 6
"""The equal-nodes runs of full-width variants stop after ``FULL_WIDTH_CAP * T`` iterations:
variants whose walk cuts more than CFR's (simultaneous updates, where a subtree is cut as soon as
both players' reaches are 0) need up to about 4.5 T to touch the budget on Bluff."""

STYLES = {name: variant_style(name) for name in VARIANTS}
"""Line styles of the variants (``ax.plot`` keyword arguments) from
``cfrbook.plotting.VARIANT_STYLES``: one colour per family, and a line style and marker of
its own for every variant, so that every figure of the comparison reads alike."""


def make_game(key: str) -> Game:
    """The game of the study called ``key`` (one of :data:`GAMES`)."""
    if key not in GAMES:
        raise GameError(f"comparison: unknown game {key!r}; the study's games are {list(GAMES)}")
    return GAMES[key][1]()


def make_solver(name: str, game: Game, seed: int = 0) -> Solver:
    """A fresh solver of variant ``name`` (one of :data:`VARIANTS` or :data:`FRONTIER_VARIANTS`) for ``game``."""
    every = {**VARIANTS, **FRONTIER_VARIANTS}
    if name not in every:
        raise SolverError(f"comparison: unknown variant {name!r}; the variants are {list(every)}")
    return every[name](game, seed)


def schedule(limit: int, growth: float = 1.25) -> list[int]:
    """The iteration counts at which curves are evaluated, up to ``limit``: ``k_1 = 1``,
    ``k_{j+1} = max(k_j + 1, floor(growth k_j))``, together with every power of 10.

    The schedule does not depend on ``limit`` beyond where it stops, so the evaluations of a
    run of ``T`` iterations are those of any longer run up to ``T``.
    """
    limit = check_iterations(limit, "limit")
    if not (isinstance(growth, (int, float)) and growth > 1):
        raise SolverError(f"schedule: growth must be a number above 1, got {growth!r}")
    points: set[int] = set()
    k = 1
    while k <= limit:
        points.add(k)
        k = max(k + 1, int(k * growth))
    points.update(10**e for e in range(len(str(limit))) if 10**e <= limit)
    return sorted(points)


def node_budget(game: Game, iterations: int) -> int:
    """``B``: the nodes that ``T`` iterations of CFR with alternating updates touch, counted as
    its walks touch them (one walk per player and iteration, subtrees no one reaches cut). At
    most ``2 |H| T``, with equality when every history is reached (Kuhn, from uniform)."""
    return CFR(game, count_pruned=True).iterate(check_iterations(iterations)).nodes_touched


# Shown in the book: chapter 10.
def convergence_curve(solver: Solver, iterations: int, nodes: int | None = None,
                      growth: float = 1.25) -> ConvergenceLog:
    """Run ``solver`` and record its exploitability at the points of
    :func:`schedule`.

    The run stops after ``iterations`` iterations or, with ``nodes``, as soon as
    the solver has touched at least ``nodes`` nodes, whichever comes first; the
    stopping point is always evaluated. Approaching ``nodes`` it steps by half the
    estimated distance and finally by single iterations, so it normally overshoots
    by less than one iteration's nodes. The log's first row is the solver's state
    before the run; a run that continues a solver evaluates at the same iterations
    as one run from the start would.
    """
    iterations = check_iterations(iterations)
    if nodes is not None:
        nodes = check_iterations(nodes, "nodes")
    log = ConvergenceLog(solver.name)
    log.append(solver.iterations, solver.nodes_touched, solver.seconds,
               solver.exploitability())
    start = solver.iterations
    end = start + iterations
    points = [k for k in sorted(set(schedule(end, growth)) | {end}) if k > start]

    def budget_left() -> bool:
        return nodes is None or solver.nodes_touched < nodes

    for target in points:
        while solver.iterations < target and budget_left():
            step = target - solver.iterations
            if nodes is not None and solver.iterations > 0:
                per_iteration = solver.nodes_touched / solver.iterations
                estimate = (nodes - solver.nodes_touched) / per_iteration
                step = min(
                    step, max(1, math.floor(estimate / 2)) if estimate > 64 else 1)
            solver.iterate(step)
        if solver.iterations > log.rows[-1][0]:
            log.append(solver.iterations, solver.nodes_touched, solver.seconds,
                       solver.exploitability())
        if not budget_left() or solver.iterations >= end:
            break
    return log


def run_study(key: str, iterations: int = 1000, equal_nodes: bool = True,
              variants: Iterable[str] | None = None, seed: int = 0,
              report: Callable[[str, ConvergenceLog], object] | None = None,
              ) -> dict[str, ConvergenceLog]:
    """The curves of ``variants`` (default: all of :data:`VARIANTS`) on game ``key``.

    With ``equal_nodes=False`` every variant runs ``iterations`` iterations. With
    ``equal_nodes=True`` every run goes on after ``T`` iterations until it has touched the node
    budget ``B`` of :func:`node_budget`, or reached its cap (:data:`SAMPLER_CAPS` for the
    sampling solvers, ``FULL_WIDTH_CAP * T`` iterations for the others). ``report``, if given, is
    called with ``(name, log)`` after each variant. Returns ``{name: ConvergenceLog}``.
    """
    iterations = check_iterations(iterations)
    names = list(VARIANTS) if variants is None else list(variants)
    game = make_game(key)
    budget = node_budget(game, iterations) if equal_nodes else None
    logs: dict[str, ConvergenceLog] = {}
    for name in names:
        solver = make_solver(name, game, seed)
        cap = (SAMPLER_CAPS[key][name] if isinstance(solver, SamplingSolver)
               else FULL_WIDTH_CAP * iterations)
        log = convergence_curve(solver, iterations, nodes=budget)   # to T, or to B if sooner
        if solver.iterations < iterations:                           # B touched: go on to T
            rest = convergence_curve(solver, iterations - solver.iterations)
        elif budget is not None and solver.nodes_touched < budget and cap > iterations:
            rest = convergence_curve(solver, cap - iterations, nodes=budget)   # T: go on to B
        else:
            rest = ConvergenceLog(name)
        for row in rest.rows[1:]:
            log.append(*row)
        logs[name] = log
        if report is not None:
            report(name, logs[name])
    return logs


def equal_nodes_row(log: ConvergenceLog, nodes: float) -> _Row:
    """The row where the run first touched ``nodes`` nodes, or its last row if it never did
    (a run stopped by its iteration cap)."""
    if not log.rows:
        raise SolverError(f"equal_nodes_row: the log {log.name!r} is empty")
    return next((row for row in log.rows if row[1] >= nodes), log.rows[-1])


def ranking(logs: Mapping[str, ConvergenceLog], column: str | None = None,
            budget: float | None = None) -> list[tuple[str, _Row]]:
    """``[(name, row), ...]`` sorted by exploitability, lowest first, where ``row`` is
    ``log.row_at(budget, column)``; with ``column=None``, the row where each run first touched
    ``budget`` nodes, or its last row if it never did (a capped run) or ``budget`` is ``None``:
    equal nodes for the runs of ``run_study(equal_nodes=True)``, which go past the budget when
    they need more iterations to reach ``T``. With ``column="iteration"`` every log must reach
    ``budget`` exactly."""
    rows: dict[str, _Row] = {}
    for name, log in logs.items():
        if column is None:
            if not log.rows:
                raise SolverError(f"ranking: the log {name!r} is empty")
            rows[name] = log.rows[-1] if budget is None else equal_nodes_row(log, budget)
            continue
        if budget is None:
            raise SolverError(f"ranking: column={column!r} needs a budget")
        rows[name] = log.row_at(budget, column)
        if column == "iteration" and rows[name][0] != budget:
            raise SolverError(f"ranking: {name!r} was not evaluated at iteration {budget} "
                              f"(its run ends at {log.rows[-1][0]})")
    return sorted(rows.items(), key=lambda item: item[1][3])
