"""What the networks' fit needs in Deep CFR on Leduc: a study on frozen memories (chapter 15).

The exact fit (:class:`cfrlib.deep_cfr.ExactFitDeepCFR`) runs the recorded configuration
(``deep_cfr.CONFIG``, memory seed 0) and is stopped at ``POINTS`` iterations; there its memories
(each player's advantage reservoir, the strategy reservoir) are frozen, and networks are trained
on them with each training configuration of ``STUDY``, for each training seed of ``SEEDS``. Each
trained network is measured against the exact minimiser of its own loss on the same memory (what
the exact-fit run plays):

* the advantage networks of both players by the **reach-weighted distance** of the strategy that
  regret matching on them plays, ``sigma``, from the exact fit's ``sigma*``:

      D = sum_I P(I) TV(I) / sum_I P(I),   TV(I) = 1/2 sum_a |sigma(I, a) - sigma*(I, a)|,

  with ``P(I)`` the probability that play under ``sigma*`` (chance included) reaches ``I``: the
  share of the probability of the decisions taken in a game that the fit's error moves; and by
  the **relative excess loss**, ``sum_x W(x) |V(x) - V*(x)|^2 / sum_x W(x) |V*(x)|^2`` over the
  distinct feature vectors ``x`` (``W(x)`` their total weight in the memory, legal actions only):
  the loss the network adds to the minimum, as a share of the targets' squared size;
* the policy network (at the last point only: the one a run's final number comes from) by the
  exact exploitability of its strategy, beside the exact weighted mean's.

With each, the CPU seconds of its training. ``"warm start"`` trains each advantage network on the
memories of the last ``WARM_CHAIN`` iterations in turn, from scratch at the first and from the
previous weights after (a real run's warm start goes on for every iteration: this shows its
direction at a small cost); its time is that of one iteration's training.

Run from the repository root: ``python benchmarks/deep_cfr_fit_study.py`` (23 minutes at the lowest
priority on a shared two-core machine, 11 CPU-minutes of them training),
or ``--points 100 --configs recorded --seeds 0`` for a piece (``--add``: measure the ``--configs``
given at every point and seed and put their rows into the recorded file). Writes
``benchmarks/data/deep_cfr/fit_study.json``, which ``python benchmarks/deep_cfr.py --merge`` takes
into ``cfrbook/data/deep_cfr.json``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

import cfrlib
from cfrlib import games
from cfrlib.deep_cfr import MLP, ExactFitDeepCFR, Reservoir, fit, regret_matching

from deep_cfr import CONFIG, RUNS, TUNED

POINTS = (100, 300, 600)
SEEDS = (0, 1, 2)
WARM_CHAIN = 5
STUDY: dict[str, dict[str, Any]] = {
    "recorded": {},
    "300 steps": {"advantage_steps": 300, "policy_steps": 1500},
    "1,200 steps": {"advantage_steps": 1200, "policy_steps": 6000},
    "batch 256": {"batch_size": 256},
    "batch 4,096": {"batch_size": 4096},
    "learning rate 0.001": {"learning_rate": 1e-3},
    "learning rate 0.01": {"learning_rate": 1e-2},
    "constant learning rate": {"schedule": "constant"},
    "32 x 3": {"hidden": [32, 32, 32]},
    "128 x 3": {"hidden": [128, 128, 128]},
    "64 x 2": {"hidden": [64, 64]},
    "warm start": {"warm_start": True},
    **TUNED,
}
"""Each training configuration: what it changes in ``CONFIG`` (``schedule``: ``fit``'s); the
last, ``deep_cfr.TUNED``'s, combine what the others found."""
OUT = RUNS / "fit_study.json"


def train(solver: ExactFitDeepCFR, memory: Reservoir, loss: str, config: dict[str, Any],
          rng: np.random.Generator, start: MLP | None = None) -> tuple[MLP, float]:
    """A network trained on ``memory`` as ``DeepCFR`` trains one, with ``config``'s options;
    returns it and the CPU seconds spent."""
    net = MLP([solver.features.shape[1], *config["hidden"], solver.tree.max_actions], rng)
    if start is not None:
        net.params = [w.copy() for w in start.params]
    n, cpu = len(memory), time.process_time()
    rows = memory.infoset[:n]
    fit(net, solver.features[rows], memory.target[:n], solver.mask[rows], solver._weights(memory),
        loss=loss, steps=config["advantage_steps" if loss == "mse" else "policy_steps"],
        batch_size=config["batch_size"], learning_rate=config["learning_rate"], rng=rng,
        schedule=config.get("schedule", "linear"))
    return net, time.process_time() - cpu


def reach_of_infosets(tree: cfrlib.Tree, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """``P(I)``: the probability that play under ``sigma`` (chance included) reaches ``I``."""
    reach = np.ones(tree.num_nodes)
    for d in range(1, tree.depth_max + 1):
        nodes = np.arange(tree.level_offsets[d], tree.level_offsets[d + 1])
        par = tree.parent[nodes]
        decides = tree.player[par] >= 0
        edge = np.where(decides, sigma[np.maximum(tree.infoset[par], 0), np.where(decides, tree.action[nodes], 0)],
                        tree.chance_prob[nodes])
        reach[nodes] = reach[par] * edge
    decision = np.flatnonzero(tree.infoset >= 0)
    return np.bincount(tree.infoset[decision], weights=reach[decision], minlength=tree.num_infosets)


def excess_loss(solver: ExactFitDeepCFR, memory: Reservoir, net: MLP) -> tuple[float, float]:
    """``sum_x W(x) |V(x) - V*(x)|^2`` and ``sum_x W(x) |V*(x)|^2`` over the distinct feature
    vectors ``x`` of ``memory``'s items (legal actions only; ``V*`` the weighted means)."""
    exact = solver._train(memory, "mse", 0, np.random.default_rng(0))[0]
    vectors, first, group = np.unique(solver.features, axis=0, return_index=True, return_inverse=True)
    n = len(memory)
    weight = np.bincount(group.ravel()[memory.infoset[:n]], weights=solver._weights(memory),
                         minlength=len(vectors))
    legal = solver.mask[first]
    target = np.where(legal, exact(vectors).astype(np.float64), 0.0)
    error = np.where(legal, net(vectors).astype(np.float64), 0.0) - target
    return float(weight @ (error ** 2).sum(axis=1)), float(weight @ (target ** 2).sum(axis=1))


def study(points: tuple[int, ...], names: list[str], seeds: tuple[int, ...],
          done: Callable[[dict[str, Any]], None] = lambda payload: None) -> dict[str, Any]:
    """The study's rows, one per (configuration, training seed, point); ``done`` sees what is
    measured after each point."""
    game = games.leduc()
    solver = ExactFitDeepCFR(game, **CONFIG, seed=0)
    tree, rows = solver.tree, []
    for t in points:
        chain = []
        for u in range(t - WARM_CHAIN + 1, t + 1):
            solver.iterate(u - solver.iterations)
            chain.append(copy.deepcopy(solver.advantage_memory))
        exact_sigma = solver._sigma()
        reach = reach_of_infosets(tree, exact_sigma)
        last = t == points[-1] and t == POINTS[-1]
        exact_policy = cfrlib.exploitability(game, solver.average_strategy()) if last else None
        for name in names:
            config = {**CONFIG, **STUDY[name]}
            for seed in seeds:
                sigma, excess, size, cpu = np.zeros(solver.mask.shape), 0.0, 0.0, 0.0
                for p in (0, 1):
                    net, links = None, chain if config.get("warm_start") else chain[-1:]
                    for j, memories in enumerate(links):
                        net, cpu_p = train(solver, memories[p], "mse", config,
                                           np.random.default_rng([seed, t, p, j]), net)
                    cpu += cpu_p
                    own = tree.infoset_player == p
                    sigma[own] = regret_matching(net(solver.features[own]).astype(np.float64), solver.mask[own])
                    e, s = excess_loss(solver, chain[-1][p], net)
                    excess, size = excess + e, size + s
                tv = 0.5 * np.abs(sigma - exact_sigma).sum(axis=1)
                row: dict[str, Any] = {"config": name, "seed": seed, "iteration": t,
                                       "distance": float(reach @ tv / reach.sum()),
                                       "excess_loss": excess / size, "advantage_cpu_seconds": round(cpu, 2)}
                if last and not config.get("warm_start"):
                    net, cpu = train(solver, solver.strategy_memory, "xent", config,
                                     np.random.default_rng([seed, t, 2]))
                    z = np.where(solver.mask, net(solver.features).astype(np.float64), -np.inf)
                    e_z = np.exp(z - z.max(axis=1, keepdims=True))
                    policy = cfrlib.Strategy(game, e_z / e_z.sum(axis=1, keepdims=True))
                    row |= {"policy_exploitability": cfrlib.exploitability(game, policy),
                            "policy_cpu_seconds": round(cpu, 2)}
                rows.append(row)
                print(row, flush=True)
        if exact_policy is not None:
            rows.append({"config": "exact fit", "iteration": t, "policy_exploitability": exact_policy})
        payload = {"memory_config": {**CONFIG, "seed": 0}, "study": {n: STUDY[n] for n in names},
                   "warm_chain": WARM_CHAIN, "points": list(points), "seeds": list(seeds), "rows": rows}
        done(payload)
    return payload


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, nargs="+", default=list(POINTS))
    parser.add_argument("--configs", nargs="+", default=list(STUDY), choices=list(STUDY))
    parser.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--add", action="store_true", help="add the configurations' rows to --out")
    args = parser.parse_args()
    start = time.perf_counter()
    before = json.loads(args.out.read_text()) if args.add else None

    def write(payload: dict[str, Any]) -> None:
        machine = {"python": platform.python_version(), "nice": os.nice(0),
                   "load_average": list(os.getloadavg()), "seconds": round(time.perf_counter() - start, 1)}
        if before is not None:
            kept = [r for r in before["rows"] if r["config"] not in args.configs]
            new = [r for r in payload["rows"] if r["config"] in args.configs]
            payload = {**before, "study": {**before["study"], **payload["study"]}, "rows": kept + new,
                       "added": {**before.get("added", {}), **{n: machine for n in args.configs}}}
        else:
            payload["machine"] = machine
        args.out.write_text(json.dumps(payload, indent=1) + "\n")
        print(f"wrote {args.out}", flush=True)

    if args.add and (tuple(args.points), tuple(args.seeds)) != (tuple(before["points"]), tuple(before["seeds"])):
        raise SystemExit("--add measures every point and seed of the recorded study")
    study(tuple(args.points), args.configs, tuple(args.seeds), write)


if __name__ == "__main__":
    main()
