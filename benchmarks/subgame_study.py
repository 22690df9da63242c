"""Subgame solving on Leduc against blueprints of growing quality (the data of chapter 14).

Run from the repository root: ``python benchmarks/subgame_study.py``. CFR+ runs on Leduc and
stops at each count of ``CHECKPOINTS``; its average strategy is the blueprint, whose 30
second-round subgames are re-solved exactly (LP) four ways by
:func:`cfrlib.subgame.blueprint_study`. Every number is an exact exploitability, so a re-run
gives the same rows (up to the LP's tolerance); ``tests/test_subgame.py`` re-runs the first ones.
Writes ``cfrbook/data/subgame_study.json``: ``{"games": {"leduc": {"checkpoints": [...],
"rows": [...]}}, "machine": ...}``. About 5 s a checkpoint on an idle machine.
"""

from __future__ import annotations

import json
import platform
import time

from cfrbook.datasets import source_path
from cfrlib import games
from cfrlib.subgame import blueprint_study

CHECKPOINTS = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 1000)
OUT = source_path("subgame_study")


def main() -> None:
    start = time.perf_counter()
    rows = blueprint_study(games.leduc(), CHECKPOINTS)
    seconds = time.perf_counter() - start
    for row in rows:
        print("  ".join(f"{k} {v:.6g}" for k, v in row.items()))
    payload = {"games": {"leduc": {"checkpoints": list(CHECKPOINTS), "blueprint": "CFR+ average",
                                   "subgames": "second round (cfrlib.subgame.chance_subgames)",
                                   "gadget solver": "sequence-form LP", "rows": rows}},
               "machine": {"python": platform.python_version(), "seconds": round(seconds, 1)}}
    OUT.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {OUT} ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
