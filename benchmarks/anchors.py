"""The anchors' side of the benchmarks: OpenSpiel 2.0.2 and LiteEFG 1.0.0 timed on request.

Runs under the anchors' interpreter (``.venv-anchors/bin/python``, see
``benchmarks/requirements-anchors.txt``), never under the book's: the benchmark scripts send it
a JSON list of jobs on stdin and read a JSON list of results, one per job, on stdout, so that
cfrlib and the anchors are timed in the same run on the same games. A job is a dict:

* ``{"kind": "iteration", "library", "game", "algorithm", "iterations", "repeat"}``: median
  milliseconds per iteration after one warm-up iteration;
* ``{"kind": "target", "library", "game", "algorithm", "target", "eval_every", "budget"}``:
  iterations and seconds (iterations only, evaluations excluded) until the exploitability of the
  average strategy, checked every ``eval_every`` iterations, is at most ``target``; gives up after
  ``budget`` seconds of iterating;
* ``{"kind": "exploitability", "library", "game", "iterations", "calls"}``: milliseconds per exact
  exploitability of the average strategy after ``iterations`` (at least 1) of CFR+.

``library`` is ``"openspiel"`` (C++ ``pyspiel.CFRSolver`` / ``CFRPlusSolver``; DCFR exists only in
OpenSpiel's Python, ``discounted_cfr.DCFRSolver``; the C++ samplers
``pyspiel.OutcomeSamplingMCCFRSolver``, epsilon 0.6, and ``ExternalSamplingMCCFRSolver``, seed 0,
one ``run_iteration()`` an iteration, one traversal per player) or ``"liteefg"`` (its baselines
``CFR``, ``CFRplus``, ``DCFR`` on ``OpenSpielEnv``, one thread). ``algorithm`` is ``"CFR"``,
``"CFR+"``, ``"DCFR"`` or, for OpenSpiel only, ``"OS-MCCFR"`` or ``"ES-MCCFR"``; ``game`` an
OpenSpiel game string. A result is ``{"ok": true, ...}`` or ``{"ok": false,
"error": ...}``. Exploitability is NashConv / 2 for both libraries (LiteEFG reports each player's
best-response gain; their sum is NashConv).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
import traceback


def _quiet():
    """Library chatter ("Graph is ready", "Generating ... instance") to stderr, keeping stdout for JSON."""
    return contextlib.redirect_stdout(sys.stderr)


class OpenSpielRun:
    def __init__(self, game_name, algorithm):
        import pyspiel

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game(game_name)
        self.python = algorithm == "DCFR"
        self.sampling = algorithm in ("OS-MCCFR", "ES-MCCFR")
        if self.sampling:
            self.solver = (pyspiel.OutcomeSamplingMCCFRSolver(self.game, epsilon=0.6, seed=0)
                           if algorithm == "OS-MCCFR"
                           else pyspiel.ExternalSamplingMCCFRSolver(self.game, seed=0))
        elif self.python:
            from open_spiel.python.algorithms import discounted_cfr

            self.solver = discounted_cfr.DCFRSolver(self.game, alpha=1.5, beta=0.0, gamma=2.0)
        else:
            self.solver = {"CFR": pyspiel.CFRSolver, "CFR+": pyspiel.CFRPlusSolver}[algorithm](self.game)

    def step(self):
        if self.sampling:
            self.solver.run_iteration()
        else:
            self.solver.evaluate_and_update_policy()

    def exploitability(self):
        policy = self.solver.average_policy()
        if self.python:
            from open_spiel.python import policy as os_policy

            policy = os_policy.python_policy_to_pyspiel_policy(policy)
        return self.pyspiel.exploitability(self.game, policy)


class LiteEFGRun:
    def __init__(self, game_name, algorithm):
        import pyspiel
        import LiteEFG as leg
        from LiteEFG.baselines import CFR, DCFR, CFRplus

        leg.set_threads(1)
        with _quiet():
            self.env = leg.OpenSpielEnv(pyspiel.load_game(game_name), traverse_type="Enumerate", regenerate=False)
            self.graph = {"CFR": CFR, "CFR+": CFRplus, "DCFR": DCFR}[algorithm].graph()
        self.env.set_graph(self.graph)
        # the averaging of each baseline's own training script (LiteEFG/baselines/*.py)
        if algorithm == "DCFR":
            self.strategy, self.average = self.graph.current_strategy("average-iterate"), "last-iterate"
        else:
            self.strategy = self.graph.current_strategy()
            self.average = "linear-avg-iterate" if algorithm == "CFR+" else "avg-iterate"

    def step(self):
        self.graph.update_graph(self.env)
        self.env.update_strategy(self.strategy, update_best=False)

    def exploitability(self):
        return sum(self.env.exploitability(self.strategy, self.average)) / 2.0


def _run(library, game, algorithm):
    with _quiet():
        return {"openspiel": OpenSpielRun, "liteefg": LiteEFGRun}[library](game, algorithm)


def _median_ms(call, calls, repeat):
    """Milliseconds per ``call()``: the median over ``repeat`` runs of ``calls`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times) * 1e3


def per_iteration(job):
    run = _run(job["library"], job["game"], job["algorithm"])
    run.step()
    return {"ms": _median_ms(run.step, job["iterations"], job.get("repeat", 3))}


def to_target(job):
    run = _run(job["library"], job["game"], job["algorithm"])
    seconds, iterations, value = 0.0, 0, float("inf")  # LiteEFG has no average before iteration 1
    while value > job["target"] and seconds < job["budget"]:
        start = time.perf_counter()
        for _ in range(job["eval_every"]):
            run.step()
        seconds += time.perf_counter() - start
        iterations += job["eval_every"]
        value = run.exploitability()
    return {"seconds": seconds, "iterations": iterations, "exploitability": value,
            "reached": value <= job["target"]}


def exploitability(job):
    run = _run(job["library"], job["game"], "CFR+")
    for _ in range(max(1, job["iterations"])):  # LiteEFG has no average before iteration 1
        run.step()
    value = run.exploitability()
    return {"ms": _median_ms(run.exploitability, job["calls"], job.get("repeat", 3)),
            "exploitability": value}


KINDS = {"iteration": per_iteration, "target": to_target, "exploitability": exploitability}


def main():
    jobs = json.load(sys.stdin)
    results = []
    for job in jobs:
        try:
            results.append({"ok": True, **KINDS[job["kind"]](job)})
        except Exception as err:  # an anchor that cannot run a game is reported, not fatal
            traceback.print_exc(file=sys.stderr)
            results.append({"ok": False, "error": f"{type(err).__name__}: {err}"})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
