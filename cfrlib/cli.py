"""The command line: ``python -m cfrlib solve|info|convert GAME``.

``GAME`` is a file (JSON tree or Gambit ``.efg``, see :mod:`cfrlib.games.formats`) or a
built-in game: ``kuhn``, ``leduc``, ``bluff`` (one die each, six sides), ``coin_toss`` or ``rps``.

* ``solve`` runs a solver and prints JSON with the keys of the Rust ``cfr`` tool:
  ``expected_one_utility`` (player 0's expected payoff ``u_0(sigma-bar)``), ``player_one_regret``
  and ``player_two_regret`` (what a best response gains against the average strategy
  ``sigma-bar``, for players 0 and 1), ``regret`` (the larger of the two),
  ``player_one_strategy`` and ``player_two_strategy`` (``{infoset: {action: probability}}``),
  followed by the game, algorithm, iterations, seed and exploitability (NashConv / 2).
* ``info`` prints the size of the game and whether it is constant-sum.
* ``convert`` writes the game as JSON or ``.efg``.

Bad input ends with exit code 2 and a one-line message that names the problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
import numpy as np



from . import __version__, games
from .errors import CfrlibError, GameFormatError
from .evaluation import best_response_value, expected_value
from .game import CHANCE, Game
from .games.formats import FORMATS, dumps, load, save
from .solvers import SOLVERS, solver_class
from .strategy import Strategy

BUILT_IN: dict[str, Callable[[], Game]] = {
    "kuhn": games.kuhn, "leduc": games.leduc, "bluff": games.bluff, "coin_toss": games.coin_toss,
    "rps": games.rps}


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
    game = _game(args)
    klass = solver_class(args.algorithm)
    solver = klass(game, **({"seed": args.seed} if klass.sampled else {}))
    target = args.target_exploitability
    iterations = args.iterations if args.iterations is not None else (1000 if target is None else 10**6)
    eval_every = args.eval_every if args.eval_every is not None else (
        max(1, iterations // 50) if target is None else 10)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    log = solver.run(iterations, eval_every, target_exploitability=target, progress=progress)
    result = solution(game, solver.average_strategy())
    result.update(game=game.name, algorithm=args.algorithm, iterations=solver.iterations,
                  seed=args.seed, exploitability=float(log.exploitability[-1]))
    _write(json.dumps(result, indent=2) + "\n", args.output)
    return 0


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
