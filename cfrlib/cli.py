"""The command line: ``python -m cfrlib solve|info|convert GAME``.

``GAME`` is a file (JSON tree or Gambit ``.efg``, see :mod:`cfrlib.games.formats`) or a
built-in game: ``kuhn``, ``leduc``, ``bluff`` (one die each, six sides), ``coin_toss`` or ``rps``.

* ``solve`` runs a solver and prints JSON with the keys of the Rust ``cfr`` tool:
  ``expected_one_utility`` (player 0's expected payoff ``u_0(sigma-bar)``), ``player_one_regret``
  and ``player_two_regret`` (what a best response gains against the average strategy
  ``sigma-bar``, for players 0 and 1), ``regret`` (the larger of the two),
  ``player_one_strategy`` and ``player_two_strategy`` (``{infoset: {action: probability}}``),
  followed by the game, algorithm, iterations, seed and exploitability (NashConv / 2).
  ``--checkpoint FILE`` saves the solver's state (:meth:`Solver.save`) as it runs,
  ``--resume FILE`` continues from it bit for bit, and ``--certificate`` adds the key
  ``certificate`` (:func:`certificate`: best responses, NashConv, the LP's game value).
* ``info`` prints the size of the game and whether it is constant-sum.
* ``convert`` writes the game as JSON or ``.efg``.

Bad input ends with exit code 2 and a one-line message that names the problem.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from . import __version__, games
from .checks import check_iterations, check_tolerance
from .errors import CfrlibError, CheckpointError, GameFormatError, SolverError
from .evaluation import best_response_value, expected_value, nash_conv
from .game import CHANCE, Game
from .games.formats import FORMATS, dumps, load, save
from .solvers import SOLVERS, Solver, solver_class
from .strategy import Strategy

BUILT_IN: dict[str, Callable[[], Game]] = {
    "kuhn": games.kuhn, "leduc": games.leduc, "bluff": games.bluff, "coin_toss": games.coin_toss,
    "rps": games.rps}

LP_MAX_SEQUENCES = 100_000
"""The largest game (sequences of both players) whose sequence-form LP ``--certificate`` solves
unless told otherwise: Short Deck Big Leduc (87,650 sequences) takes HiGHS about a minute and
220 MB on a 2-core machine (``cfrbook/data/lp_vs_cfr.json``), time and memory grow faster than
the game, and a certificate should not cost more than the run unasked."""

CHECKPOINT_SECONDS = 60.0
"""The default of ``--checkpoint-seconds``: at most one checkpoint a minute (and the last)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return args.run(args)

    except (CfrlibError, OSError) as err:
        message = " ".join(str(err).split()) if isinstance(err, CfrlibError) else _os_message(err)
        print(f"cfrlib {args.command}: error: {message}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cfrlib", description="Solve two-player zero-sum games with the CFR family.")
    parser.add_argument("--version", action="version", version=f"cfrlib {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    game_help = f"a .json or .efg file, or a built-in game: {', '.join(BUILT_IN)}"

    solve = commands.add_parser(
        "solve", help="solve a game and print the strategies as JSON",
        description="Solve GAME and print the result as JSON in the format of the Rust cfr "
                    "crate, whose keys count players from one: player_one is cfrlib's player 0 "
                    "(who acts first) and player_two its player 1.")
    solve.add_argument("game", metavar="GAME", help=game_help)
    solve.add_argument("--algorithm", "-a", choices=list(SOLVERS), default="cfr+",
                       help="the solver (default: cfr+)")
    solve.add_argument("--iterations", "-n", type=int, default=None,
                       help="iterations to run (default 1000; with --target-exploitability, "
                            "the most to run, default 1000000)")
    solve.add_argument("--target-exploitability", "-t", type=float, default=None,
                       help="stop as soon as the exploitability is at most this")
    solve.add_argument("--eval-every", type=int, default=None,
                       help="iterations between exploitability checks")
    solve.add_argument("--seed", type=int, default=0, help="seed of the sampling solvers (default 0)")
    solve.add_argument("--output", "-o", help="write the JSON to this file instead of stdout")
    solve.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="progress bar on stderr (default: only when stderr is a terminal)")
    long_runs = solve.add_argument_group(
        "checkpoints", "A checkpoint is the solver's whole state, the .npz of Solver.save. It is "
                       "written every --checkpoint-every iterations (counted from the start of the "
                       "run), skipping those due within --checkpoint-seconds of the previous one, "
                       "then at the end and on Ctrl-C; each write goes to a temporary file in the "
                       "same folder that then replaces FILE, so a killed run leaves the last whole "
                       "checkpoint. --resume continues it as if it had never stopped (the same "
                       "result, bit for bit); -n counts all iterations, the checkpoint's included.")
    long_runs.add_argument("--checkpoint", metavar="FILE", help="save the run's state to FILE")
    long_runs.add_argument("--checkpoint-every", type=int, metavar="N", default=None,
                           help="iterations between checkpoints (default: those between "
                                "exploitability checks, --eval-every)")
    long_runs.add_argument("--checkpoint-seconds", type=float, metavar="S", default=None,
                           help="skip a checkpoint due less than S seconds after the previous one "
                                f"(default {CHECKPOINT_SECONDS:g}; 0 writes every one)")
    long_runs.add_argument("--resume", metavar="FILE",
                           help="continue the run saved in FILE by --checkpoint, which must be of "
                                "the same game, algorithm and seed (give --checkpoint FILE too to "
                                "keep saving)")
    exact = solve.add_argument_group("certificate")
    exact.add_argument("--certificate", action="store_true",
                       help="add the key certificate: each player's best-response value, NashConv, "
                            "exploitability, the bounds they put on the game value and, for a game "
                            "that fits, the value from the sequence-form LP and the distance of "
                            "expected_one_utility from it")
    exact.add_argument("--lp-max-sequences", type=int, metavar="N", default=None,
                       help="solve the LP only for games of at most N sequences, both players' "
                            f"(default {LP_MAX_SEQUENCES:,}; larger games say that the LP was "
                            "skipped)")
    solve.set_defaults(run=_solve)

    info = commands.add_parser("info", help="print the size of a game")
    info.add_argument("game", metavar="GAME", help=game_help)
    info.set_defaults(run=_info)

    convert = commands.add_parser("convert", help="write a game as JSON or Gambit .efg")
    convert.add_argument("game", metavar="GAME", help=game_help)
    convert.add_argument("--to", choices=FORMATS, default=None,
                         help="the output format (default: from the suffix of --output)")
    convert.add_argument("--output", "-o", help="the file to write (default: stdout)")
    convert.set_defaults(run=_convert)

    for command in (solve, info, convert):
        command.add_argument("--input-format", choices=FORMATS, default=None,
                             help="read GAME in this format instead of detecting it")
    return parser


def _game(args: argparse.Namespace, require_constant_sum: bool = True) -> Game:
    if args.game in BUILT_IN and not Path(args.game).exists():
        return BUILT_IN[args.game]()
    if not Path(args.game).is_file():
        raise GameFormatError(f"no file {args.game!r} (the built-in games are {', '.join(BUILT_IN)})")
    return load(Path(args.game), args.input_format, require_constant_sum=require_constant_sum)


# ----------------------------------------------------------------------------------- solve
def _solve(args: argparse.Namespace) -> int:
    for option, needs in (("checkpoint_every", "checkpoint"), ("checkpoint_seconds", "checkpoint"),
                          ("lp_max_sequences", "certificate")):
        if getattr(args, option) is not None and not getattr(args, needs):
            raise SolverError(f"--{option.replace('_', '-')} needs --{needs}")
    game = _game(args)
    klass = solver_class(args.algorithm)
    solver = klass(game, **({"seed": args.seed} if klass.sampled else {}))
    target = args.target_exploitability
    if target is not None:
        check_tolerance(target, "target_exploitability")
    iterations = check_iterations(
        args.iterations if args.iterations is not None else (1000 if target is None else 10**6))
    eval_every = _positive(args.eval_every if args.eval_every is not None else (
        max(1, iterations // 50) if target is None else 10), "--eval-every")
    max_sequences = _positive(LP_MAX_SEQUENCES if args.lp_max_sequences is None
                              else args.lp_max_sequences, "--lp-max-sequences")
    if args.resume:
        solver = _resume(Path(args.resume), solver)
        if solver.iterations > iterations:
            raise CheckpointError(f"{args.resume}: holds {solver.iterations} iterations, more than "
                                  f"the {iterations} of -n (which counts all iterations)")
    checkpoints = None if not args.checkpoint else _Checkpoints(
        Path(args.checkpoint), _positive(eval_every if args.checkpoint_every is None
                                         else args.checkpoint_every, "--checkpoint-every"),
        CHECKPOINT_SECONDS if args.checkpoint_seconds is None else args.checkpoint_seconds)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        log = solver.run(iterations - solver.iterations, eval_every, target_exploitability=target,
                         progress=progress, checkpoint=None if checkpoints is None else checkpoints.maybe_save,
                         checkpoint_every=None if checkpoints is None else checkpoints.every)
    except KeyboardInterrupt:
        if checkpoints is None:
            raise
        checkpoints.save(solver)
        print(f"cfrlib solve: interrupted after iteration {solver.iterations}, saved to "
              f"{args.checkpoint}: continue with --resume {args.checkpoint}", file=sys.stderr)
        return 130
    if checkpoints is not None:
        checkpoints.save(solver)
    strategy = solver.average_strategy()
    result = solution(game, strategy)
    result.update(game=game.name, algorithm=args.algorithm, iterations=solver.iterations,
                  seed=args.seed, exploitability=float(log.exploitability[-1]))
    if args.certificate:
        result["certificate"] = certificate(game, strategy, max_sequences)
    _write(json.dumps(result, indent=2) + "\n", args.output)
    return 0


class _Checkpoints:
    """Where and when ``solve`` saves its solver: to ``path``, at multiples of ``every``
    iterations unless less than ``seconds`` have passed since the previous save."""

    def __init__(self, path: Path, every: int, seconds: float) -> None:
        if not 0.0 <= seconds < float("inf"):
            raise CheckpointError(f"--checkpoint-seconds must be a finite number >= 0, got {seconds!r}")
        if not path.parent.is_dir():
            raise CheckpointError(f"no folder {str(path.parent)!r} for the checkpoint {str(path)!r}")
        self.path, self.every, self.seconds = path, every, seconds
        self.last = time.monotonic()
        self.saved_at: int | None = None

    def maybe_save(self, solver: Solver) -> None:
        """Save ``solver`` if ``seconds`` have passed since the last save (``Solver.run`` calls
        this at multiples of ``every``)."""
        if time.monotonic() - self.last >= self.seconds:
            self.save(solver)

    def save(self, solver: Solver) -> None:
        """``solver.save`` to a temporary file of the same folder, flushed to disk and moved over
        ``path`` by ``os.replace`` (atomic): ``path`` holds the previous checkpoint until the new
        one is whole. A Ctrl-C meanwhile takes effect once it is saved (:func:`_interrupts_held`).
        Nothing to do if ``path`` already holds this iteration."""
        if self.saved_at == solver.iterations:
            return
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.npz")  # numpy adds .npz
        with _interrupts_held():
            try:
                solver.save(temporary)
                with open(temporary, "rb+") as file:
                    os.fsync(file.fileno())
                os.replace(temporary, self.path)
            finally:
                temporary.unlink(missing_ok=True)
            self.saved_at, self.last = solver.iterations, time.monotonic()


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold SIGINT (Ctrl-C) until the block ends, then deliver it to the handler that was there.
    A Ctrl-C in the middle of numpy's writing of the checkpoint's zip file raised there, and the
    half-closed file's own error replaced the KeyboardInterrupt: ``solve`` stopped with a traceback
    instead of saving and exiting with 130. Only the main thread receives signals."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is None):   # not Python's handler: left alone
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        signal.raise_signal(signal.SIGINT)


def _resume(path: Path, fresh: Solver) -> Solver:
    """The solver saved in ``path``, if it is ``fresh``'s: the same game, class and parameters."""
    if not path.is_file():
        raise CheckpointError(f"no checkpoint file {str(path)!r}")
    try:
        saved = Solver.load(path, fresh.game)
    except SolverError as err:
        raise CheckpointError(str(err)) from None
    if type(saved) is not type(fresh) or saved._params() != fresh._params():
        raise CheckpointError(f"{path}: is a checkpoint of {_described(saved)}, and this run is "
                              f"{_described(fresh)}; resume with the algorithm and seed it was "
                              "saved with")
    return saved


def _described(solver: Solver) -> str:
    """``solver``'s short name and parameters, as a checkpoint records them."""
    params = ", ".join(f"{k}={v!r}" for k, v in solver._params().items())
    return f"{solver.short_name or type(solver).__name__} ({params})"


def _positive(n: int, option: str) -> int:
    """``n``, or a :class:`SolverError` naming ``option`` unless it is at least 1."""
    if n < 1:
        raise SolverError(f"{option} must be a positive integer, got {n}")
    return n


def solution(game: Game, strategy: Strategy) -> dict[str, object]:
    """The Rust ``cfr`` tool's summary of ``strategy``: value, regrets and both strategies."""
    value = expected_value(game, strategy)
    regrets = [best_response_value(game, strategy, 0) - value,
               best_response_value(game, strategy, 1) - (game.tree().constant_sum - value)]
    regrets = [max(0.0, r) for r in regrets]  # rounding can make a zero gain a tiny negative
    return {
        "expected_one_utility": value,
        "player_one_regret": regrets[0],
        "player_two_regret": regrets[1],
        "regret": max(regrets),
        "player_one_strategy": strategy.player(0),
        "player_two_strategy": strategy.player(1),
    }


def certificate(game: Game, strategy: Strategy, max_sequences: int = LP_MAX_SEQUENCES) -> dict[str, object]:
    """How far ``strategy`` is from exact. Each player's best-response value against it,
    ``u_0(BR, sigma_1)`` and ``u_1(sigma_0, BR)``; NashConv (their sum minus the constant sum) and
    the exploitability (half of it); the bounds ``[c - u_1(sigma_0, BR), u_0(BR, sigma_1)]`` that
    they put on the game value ``v*`` whatever the game's size; and for a game of at most
    ``max_sequences`` sequences, ``v*`` from the sequence-form LP (:func:`cfrlib.lp.solve_lp`)
    and ``|u_0(sigma) - v*|``, else ``null`` and why under ``lp``."""
    from . import lp  # scipy.optimize (50 MB) only when asked for, as cfrlib.solve_lp

    constant_sum = game.tree().constant_sum
    best = [best_response_value(game, strategy, p) for p in (0, 1)]
    gap = nash_conv(game, strategy)
    sequences = lp.count_sequences(game)
    table: dict[str, object] = {"sequences": sequences, "max_sequences": max_sequences}
    value = None
    if sequences > max_sequences:
        table["status"] = "skipped: more sequences than --lp-max-sequences"
    else:
        solved = lp.solve_lp(game, max_sequences=max_sequences)
        value = solved.value
        table.update(status="solved", seconds=solved.seconds)
    return {
        "player_one_best_response": best[0],
        "player_two_best_response": best[1],
        "nash_conv": gap,
        "exploitability": gap / 2.0,
        "value_bounds": [constant_sum - best[1], best[0]],
        "game_value": value,
        "value_error": None if value is None else abs(expected_value(game, strategy) - value),
        "lp": table,
    }


# ------------------------------------------------------------------------------ info, convert
def _info(args: argparse.Namespace) -> int:
    game = _game(args, require_constant_sum=False)
    # Game.tree: the compiled arrays, built also for a game file that breaks the constant-sum
    # rule (ExplicitGame.tree refuses to hand those to a solver).
    tree = Game.tree(game)
    infosets = [tree.num_infosets_of(p) for p in (0, 1)]
    not_constant_sum = getattr(game, "not_constant_sum", None)
    lines = [
        f"game: {tree.game_name}" + (f" = {game!r}" if repr(game) != f"{tree.game_name}()"
                                     and args.game in BUILT_IN else ""),
        f"nodes: {tree.num_nodes}",
        f"terminals: {tree.num_terminals}",
        f"chance nodes: {int(np.count_nonzero(tree.player == CHANCE))}",
        f"depth: {tree.depth_max}",
        f"infosets: {sum(infosets)} (player 0: {infosets[0]}, player 1: {infosets[1]})",
        (f"constant-sum: no ({not_constant_sum})" if not_constant_sum else
         f"constant-sum: yes, u0 + u1 = {tree.constant_sum:g}"),
    ]
    print("\n".join(lines))
    return 0


def _convert(args: argparse.Namespace) -> int:
    game = _game(args)
    to = args.to
    if to is None:
        suffix = Path(args.output).suffix.lower().lstrip(".") if args.output else ""
        if suffix not in FORMATS:
            raise GameFormatError("say which format to write with --to json or --to efg")
        to = suffix
    if args.output:
        save(game, args.output, format=to)
    else:
        sys.stdout.write(dumps(game, to))
    return 0


def _write(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _os_message(err: OSError) -> str:
    return f"{err.filename}: {err.strerror}" if err.filename else str(err)
