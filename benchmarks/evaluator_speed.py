"""cfrlib's 7-card evaluator against two PyPI evaluators, phevaluator and eval7: speed and agreement.

Why cfrlib has its own (``cfrlib/holdem/evaluator.py``): the solver needs the strength of every
hand on every river board of a spot once, from numba code and numpy arrays; the libraries are
called one hand a Python call. This script times, on the same seeded random 7-card deals
(CPU seconds of this process, so other jobs on the machine count less):

* cfrlib one hand a Python call (``evaluate``) and batched (numba loop over the deals), and
  ``river_strengths`` on a flop (1,176 river boards x 1,326 hands);
* ``phevaluator.evaluate_cards`` (C extension; rank 1 = best) and ``eval7.evaluate`` (Cython;
  higher = better), one hand a call, if installed (they are not cfrlib dependencies:
  ``pip install phevaluator eval7`` into a scratch environment and run this script there with
  ``PYTHONPATH=<repository>``);

and checks that all three order the deals the same way (ties included), a check of cfrlib's
evaluator that does not depend on it. Run: ``python benchmarks/evaluator_speed.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from numba import njit

from cfrlib.holdem.cards import HANDS, RANKS, SUITS
from cfrlib.holdem.evaluator import evaluate, river_strengths


@njit  # not cached: a cached caller would keep a stale copy of an edited evaluate
def _evaluate_rows(deals):  # type: ignore[no-untyped-def]
    out = np.empty(deals.shape[0], dtype=np.int64)
    for i in range(deals.shape[0]):
        out[i] = evaluate(deals[i])
    return out


def _timed(run: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    """Best CPU seconds of ``repeat`` runs and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return best, result


def _same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a[i] < a[j]`` exactly when ``b[i] < b[j]``, ties included."""
    order = np.argsort(a, kind="stable")
    sa, sb = a[order], b[order]
    ties_a = sa[1:] == sa[:-1]
    # within a tie of a, b must tie; between groups, b must increase
    return bool(np.all(np.where(ties_a, sb[1:] == sb[:-1], sb[1:] > sb[:-1])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    deals = np.array([rng.choice(52, 7, replace=False) for _ in range(args.deals)], dtype=np.int64)
    _evaluate_rows(deals[:10])
    evaluate(deals[0])
    river_strengths("Td9d6h", HANDS)
    rows = []
    seconds, ours = _timed(lambda: _evaluate_rows(deals))
    rows.append(("cfrlib, batched (numba loop)", len(deals) / seconds))
    ours = np.asarray(ours)
    seconds, _ = _timed(lambda: [evaluate(d) for d in deals], repeat=1)
    rows.append(("cfrlib, one Python call a hand", len(deals) / seconds))
    seconds, _ = _timed(lambda: river_strengths("Td9d6h", HANDS))
    rows.append(("cfrlib river_strengths, flop Td9d6h (1,176 x 1,326)", 1176 * 1326 / seconds))
    agree = []
    try:
        from phevaluator import evaluate_cards

        seconds, theirs = _timed(lambda: [evaluate_cards(*map(int, d)) for d in deals], repeat=1)
        rows.append(("phevaluator 0.6, one call a hand", len(deals) / seconds))
        agree.append(("phevaluator", _same_order(ours, -np.asarray(theirs))))
    except ImportError:
        rows.append(("phevaluator: not installed", float("nan")))
    try:
        import eval7

        names = [r + s for r in RANKS for s in SUITS]
        cards = [[eval7.Card(names[c]) for c in d] for d in deals]
        seconds, theirs = _timed(lambda: [eval7.evaluate(h) for h in cards], repeat=1)
        rows.append(("eval7 0.1, one call a hand (Card objects made beforehand)", len(deals) / seconds))
        agree.append(("eval7", _same_order(ours, np.asarray(theirs))))
    except ImportError:
        rows.append(("eval7: not installed", float("nan")))
    print(f"{len(deals):,} random 7-card deals, CPU seconds of this process (best of 3 batched)\n")
    print("| evaluator | hands a CPU-second |\n|---|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.0f} |")
    for name, same in agree:
        print(f"\ncfrlib and {name} order the {len(deals):,} deals the same way: {same}")


if __name__ == "__main__":
    main()
