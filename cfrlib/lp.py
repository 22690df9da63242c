"""The exact baseline: a two-player zero-sum game solved as one linear program in sequence form.

Koller, Megiddo and von Stengel (1994) and von Stengel (1996) showed that a two-player zero-sum
game with perfect recall is a linear program whose size is linear in the size of the game tree,
once strategies are written as *realization plans* instead of behaviour strategies.

**Realization plans.** Player 0's sequences are the empty sequence ``emptyset`` and the pairs
``(I, a)`` with ``I`` one of player 0's infosets and ``a`` in ``A(I)``. A behaviour strategy
``sigma_0`` gives each sequence its own reach, ``x[(I, a)] = x[parent(I)] * sigma_0(I, a)`` with
``x[emptyset] = 1`` (:func:`cfrlib.evaluation.realization_plan`). The vectors ``x >= 0`` that arise
this way are exactly the solutions of the linear constraints::

    E x = e:    x[emptyset] = 1,    sum_{a in A(I)} x[(I, a)] - x[parent(I)] = 0  for every I of player 0,

and ``sigma_0(I, a) = x[(I, a)] / x[parent(I)]`` recovers the behaviour strategy (any
distribution where ``x[parent(I)] = 0``). Likewise ``F y = f`` for player 1's plan ``y``.

**The payoff matrix.** Every terminal ``z`` is reached with probability
``pi_c(z) * x[seq_0(z)] * y[seq_1(z)]``, so player 0's expected payoff is bilinear,
``u_0 = x^T A y`` with chance folded into the sparse matrix::

    A[s, t] = sum over terminals z with seq_0(z) = s, seq_1(z) = t of pi_c(z) u_0(z).

**The LP.** The game value is ``v* = max_x min_y x^T A y`` over ``E x = e, x >= 0`` and
``F y = f, y >= 0``. For fixed ``x`` the inner minimum is a linear program in ``y``; replacing it
by its dual (one free variable ``lambda[J]`` per infoset ``J`` of player 1, and ``lambda[emptyset]``)
gives::

    maximise    lambda[emptyset]                  (= f^T lambda)
    over        x (one variable per sequence of player 0), lambda (free, one per infoset of player 1 and emptyset)
    subject to  F^T lambda - A^T x <= 0          (one row per sequence of player 1)
                E x = e,  x >= 0.

Read per sequence ``(J, b)`` of player 1, the inequality says
``lambda[J] <= sum_{z ending in (J, b)} pi_c(z) u_0(z) x[seq_0(z)] + sum_{J' below (J, b)} lambda[J']``:
``lambda[J]`` is at most what player 1's best action at ``J`` concedes, so ``lambda[emptyset]`` is
what ``x`` guarantees against a best response, and the LP maximises it.

**Both players from one LP.** The dual of this LP is player 1's own LP,
``min_{y, kappa} kappa[emptyset]`` subject to ``E^T kappa - A y >= 0``, ``F y = f``, ``y >= 0``:
its variables ``y`` are the multipliers of the inequality rows above. HiGHS returns them with the solution
(``res.ineqlin.marginals``, up to sign), so :func:`solve_lp` solves one LP and reads player 0's
plan from the primal and player 1's from the dual, instead of building and solving a second LP
of the same size. Strong duality makes both values equal and both plans optimal; the tests check
that the resulting profile has exploitability below ``1e-8``.

The LP has about as many variables and rows as the game has sequences, and the matrix ``A`` one
entry per distinct pair of last sequences (at most one per terminal): all matrices are
``scipy.sparse``. Games that are constant-sum rather than zero-sum (``u_0 + u_1 = c``) are
strategically the same; the LP uses ``u_0`` and the value is player 0's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.optimize import linprog

from . import sequence_form as sf
from .errors import GameError, SolverError
from .evaluation import behaviour_strategy
from .game import Game
from .strategy import Strategy
from .tree import Tree

__all__ = ["solve_lp", "LPSolution", "linear_program", "LinearProgram", "count_sequences",
           "DEFAULT_MAX_SEQUENCES"]

DEFAULT_MAX_SEQUENCES = 250_000
"""Default limit on the number of sequences (both players, empty sequences included) that
:func:`solve_lp` accepts. Short Deck Big Leduc (87,650 sequences) takes HiGHS a minute or so
(``benchmarks/bench_lp.py``); time and memory grow faster than the game, so larger games must
ask for a larger limit explicitly."""

_TOLERANCE = 1e-10  # HiGHS's primal and dual feasibility tolerances (its default is 1e-7)


@dataclass(eq=False)
class LinearProgram:
    """The matrices of the sequence-form LP: constraint matrices, payoff matrix and the sequence maps.

    ``E`` (``1 + |infosets of player 0|`` rows) and ``F`` (the same for player 1) are the
    constraint matrices of the realization plans, ``e`` and ``f`` their right-hand sides
    (a 1 for the empty sequence, then zeros), ``A`` player 0's payoff with chance folded in
    (``num_sequences[0] x num_sequences[1]``). Sequence 0 of each player is the empty sequence.
    ``sequence_index[i]`` maps the tree's flat sequence numbering (``I * max_actions + a``, and
    :attr:`~cfrlib.tree.Tree.empty_sequence`) to player ``i``'s compact numbering (-1 for
    sequences that are not ``i``'s); ``infosets[i]`` lists player ``i``'s infosets in the order of
    the rows of ``E`` / ``F`` (after the first row).
    """

    E: sp.csr_matrix
    F: sp.csr_matrix
    e: NDArray[np.float64]
    f: NDArray[np.float64]
    A: sp.csr_matrix
    sequence_index: tuple[NDArray[np.int64], NDArray[np.int64]]
    infosets: tuple[NDArray[np.intp], NDArray[np.intp]]

    @property
    def num_sequences(self) -> tuple[int, int]:
        """Sequences of each player, the empty sequence included."""
        return self.E.shape[1], self.F.shape[1]


@dataclass(eq=False)
class LPSolution:
    """What :func:`solve_lp` returns.

    ``value`` is player 0's game value ``v*``; ``strategy`` an equilibrium profile (player 0's part
    from the primal, player 1's from the dual); ``realization_plans`` the two plans ``(x, y)`` in
    the compact numbering of ``linear_program``; ``num_sequences``, ``num_variables``,
    ``num_constraints`` and ``nonzeros`` the size of the LP; ``build_seconds`` the time to build
    the matrices, ``solve_seconds`` the time HiGHS took; ``message`` HiGHS's status message.
    """

    game: Game
    value: float
    strategy: Strategy
    realization_plans: tuple[NDArray[np.float64], NDArray[np.float64]]
    linear_program: LinearProgram
    num_sequences: tuple[int, int]
    num_variables: int
    num_constraints: int
    nonzeros: int
    build_seconds: float
    solve_seconds: float
    message: str

    @property
    def seconds(self) -> float:
        """Building plus solving."""
        return self.build_seconds + self.solve_seconds

    def __repr__(self) -> str:
        return (f"LPSolution({self.game.name}: value {self.value:.10g}, {sum(self.num_sequences):,} "
                f"sequences, {self.num_variables:,} variables, {self.num_constraints:,} constraints, "
                f"{self.solve_seconds:.3g} s)")


def count_sequences(game: Game) -> int:
    """Sequences of both players, the two empty sequences included: ``2 + sum_I |A(I)|``."""
    return 2 + int(game.tree().infoset_num_actions.sum())


def linear_program(game: Game) -> LinearProgram:
    """Build ``E, e, F, f, A`` of ``game`` on its sequence form (:func:`cfrlib.sequence_form.sequence_form`):
    each player's block numbered compactly, the empty sequence first, then ``(I, a)`` infoset by
    infoset in the tree's order; ``A[s, t]`` sums ``pi_c(z) u_0(z)`` over the terminals whose last
    sequences are ``s`` and ``t``."""
    tree = _tree_of(game)
    form = sf.sequence_form(tree)
    index: list[NDArray[np.int64]] = []
    infosets: list[NDArray[np.intp]] = []
    constraints: list[sp.csr_matrix] = []
    compact_of_block: list[NDArray[np.int64]] = []
    for block in form.players:
        order = np.argsort(block.rows, kind="stable")
        mine = block.rows[order].astype(np.intp)  # the player's infosets in the tree's order
        legal = block.legal[order]
        counts = legal.sum(axis=1)
        n = 1 + int(counts.sum())
        compact = np.full(block.size + 1, -1, dtype=np.int64)  # the block's flat numbering -> compact
        compact[block.size] = 0
        compact[(order[:, None] * block.width + np.arange(block.width))[legal]] = np.arange(1, n)
        rows_I = np.repeat(np.arange(len(mine)), counts)
        parents = compact[block.row_parent[order]]
        # row 0: x[empty] = 1; row 1 + k: sum_a x[(I_k, a)] - x[parent(I_k)] = 0
        r = np.concatenate([[0], 1 + rows_I, 1 + np.arange(len(mine))])
        c = np.concatenate([[0], np.arange(1, n), parents])
        v = np.concatenate([[1.0], np.ones(n - 1), -np.ones(len(mine))])
        constraints.append(sp.csr_matrix((v, (r, c)), shape=(1 + len(mine), n)))
        seq_map = np.full(tree.num_sequences + 1, -1, dtype=np.int64)
        seq_map[block.tree_sequence] = compact
        index.append(seq_map)
        infosets.append(mine)
        compact_of_block.append(compact)
    rhs = [np.eye(1, m.shape[0]).ravel() for m in constraints]
    s0, s1 = (compact[seq] for compact, seq in zip(compact_of_block, form.terminal_seq))
    A = sp.csr_matrix((form.chance_utility[0], (s0, s1)), shape=(constraints[0].shape[1], constraints[1].shape[1]))
    A.sum_duplicates()
    return LinearProgram(constraints[0], constraints[1], rhs[0], rhs[1], A, (index[0], index[1]),
                         (infosets[0], infosets[1]))



def solve_lp(game: Game, *, max_sequences: int = DEFAULT_MAX_SEQUENCES,
             method: Literal["highs", "highs-ds", "highs-ipm"] = "highs",
             options: Mapping[str, object] | None = None) -> LPSolution:
    """Solve a two-player zero-sum game exactly with the sequence-form LP; return an :class:`LPSolution`.

    The LP (see the module docstring for the derivation), with ``x`` player 0's realization plan,
    ``lambda`` one free variable per infoset of player 1 plus one for the empty sequence, ``E x = e``
    and ``F y = f`` the realization-plan constraints of the two players and ``A`` player 0's
    payoff matrix with chance folded in, ``A[s, t] = sum_{z: seq_0(z)=s, seq_1(z)=t} pi_c(z) u_0(z)``::

        v* = max_x min_y x^T A y        (F y = f, y >= 0 and E x = e, x >= 0)
           = max_{x, lambda} f^T lambda   subject to   F^T lambda - A^T x <= 0,   E x = e,   x >= 0.

    The second line replaces the inner minimisation over ``y`` by its LP dual. One LP gives both
    players: its own dual is player 1's LP ``min_{y, kappa} e^T kappa`` subject to
    ``E^T kappa - A y >= 0``, ``F y = f``, ``y >= 0``, and ``y`` is read from the multipliers of
    the inequality rows that HiGHS returns with the solution. That halves the work compared with solving each player's
    LP separately, and strong duality guarantees that both plans are optimal.

    Behaviour strategies come from the plans: ``sigma(I, a) = x[(I, a)] / x[parent(I)]``, computed
    as ``x[(I, a)] / sum_b x[(I, b)]`` (the same number, by the constraint at ``I``, and robust to
    rounding), uniform at infosets whose parent sequence has zero mass (tiny negative rounding
    errors of the solver are clipped to 0).

    ``max_sequences`` bounds the size of the game (sequences of both players, empty ones
    included); ``method`` is passed to :func:`scipy.optimize.linprog` (``"highs"``,
    ``"highs-ds"`` for dual simplex, ``"highs-ipm"`` for interior point), and so is ``options``
    (merged over feasibility tolerances of ``1e-10``).

    Raises :class:`~cfrlib.errors.GameError` for a game that is not two-player (its tree
    compiler raises :class:`~cfrlib.errors.NotZeroSumError` for payoffs that are not
    constant-sum), and :class:`~cfrlib.errors.SolverError` for a game with more sequences than
    ``max_sequences``, a bad ``max_sequences`` or when HiGHS does not find an optimum.
    """
    if isinstance(max_sequences, bool) or not isinstance(max_sequences, (int, np.integer)) \
            or max_sequences < 1:
        raise SolverError(f"max_sequences must be a positive integer, got {max_sequences!r}")
    if method not in ("highs", "highs-ds", "highs-ipm"):
        raise SolverError(f"method must be 'highs', 'highs-ds' or 'highs-ipm', got {method!r}")
    tree = _tree_of(game)
    total = count_sequences(game)
    if total > max_sequences:
        raise SolverError(
            f"{game.name} has {total:,} sequences (both players, empty sequences included), more "
            f"than the limit max_sequences={int(max_sequences):,} of the sequence-form LP; pass a "
            "larger max_sequences if the machine has the memory and time for it")

    start = time.perf_counter()
    form = linear_program(game)
    n0, n1 = form.num_sequences
    m1 = form.F.shape[0]
    # variables: x (n0, >= 0), then lambda (m1, free)
    A_ub = sp.hstack([-form.A.T, form.F.T], format="csr")
    A_eq = sp.hstack([form.E, sp.csr_matrix((form.E.shape[0], m1))], format="csr")
    c = np.zeros(n0 + m1)
    c[n0] = -1.0  # minimise -lambda[empty]
    bounds = np.array([(0.0, None)] * n0 + [(None, None)] * m1, dtype=object)
    build_seconds = time.perf_counter() - start

    settings: dict[str, object] = {"primal_feasibility_tolerance": _TOLERANCE,
                                   "dual_feasibility_tolerance": _TOLERANCE}
    settings.update(options or {})
    start = time.perf_counter()
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(n1), A_eq=A_eq, b_eq=form.e, bounds=bounds,
                  method=method, options=settings)
    solve_seconds = time.perf_counter() - start
    if res.status != 0 or res.x is None:
        raise SolverError(f"HiGHS did not solve the sequence-form LP of {game.name} "
                          f"(status {res.status}): {res.message}")
    x = np.maximum(res.x[:n0], 0.0)
    y = np.maximum(-np.asarray(res.ineqlin.marginals), 0.0)
    value = -float(res.fun)
    if not math.isfinite(value):
        raise SolverError(f"HiGHS returned the value {value} for {game.name}")

    probs = sum(behaviour_strategy(tree, _flat_plan(form, p, plan), p)
                for p, plan in ((0, x), (1, y)))
    strategy = Strategy(game, probs)
    return LPSolution(
        game=game, value=value, strategy=strategy, realization_plans=(x, y), linear_program=form,
        num_sequences=(n0, n1), num_variables=n0 + m1, num_constraints=n1 + form.E.shape[0],
        nonzeros=int(A_ub.nnz + A_eq.nnz), build_seconds=build_seconds,
        solve_seconds=solve_seconds, message=str(res.message))


def _flat_plan(form: LinearProgram, player: int, plan: NDArray[np.float64]) -> NDArray[np.float64]:
    """Player ``player``'s plan, in ``form``'s compact numbering, in the tree's flat numbering."""
    index = form.sequence_index[player]
    flat = np.zeros(len(index))
    mine = index >= 0
    flat[mine] = plan[index[mine]]
    return flat


def _tree_of(game: Game) -> Tree:

    """The compiled tree of a two-player game, or a :class:`GameError` saying why there is none."""
    if not hasattr(game, "initial_state") or not hasattr(game, "tree"):
        raise GameError(f"{game!r} is not a cfrlib game (it has no initial_state() and tree())")
    players = getattr(game, "num_players", 2)
    if players != 2:
        raise GameError(f"{getattr(game, 'name', game)!r} has {players} players; the sequence-form "
                        "LP solves two-player zero-sum games")
    return game.tree()
