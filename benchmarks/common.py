"""What the benchmark scripts share: timing with medians, printing tables, and the anchors
(OpenSpiel, LiteEFG) run in their own interpreter by ``anchors.py``."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANCHOR_PYTHON_VARIABLE = "CFRLIB_ANCHOR_PYTHON"
"""The environment variable naming the anchors' interpreter (``make bench`` sets it)."""


def time_per_call(fn, calls=1, repeat=7):
    """``(median, minimum)`` over ``repeat`` runs of the seconds per call of ``fn(calls)``.

    ``fn(n)`` does ``n`` units of work (iterations, evaluations). The median is the figure to
    quote; the minimum is the run least disturbed by other work on the machine.
    """
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(calls)
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times), min(times)


def print_table(header, rows, markdown=False):
    """Print ``rows`` (sequences of cells) under ``header``, aligned, or as a Markdown table."""
    rows = [[str(c) for c in row] for row in rows]
    header = [str(h) for h in header]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    print()


def anchor_python():
    """The anchors' interpreter: ``$CFRLIB_ANCHOR_PYTHON``, by default ``.venv-anchors/bin/python``
    at the repository root, or None when it does not exist."""
    path = Path(os.environ.get(ANCHOR_PYTHON_VARIABLE) or HERE.parent / ".venv-anchors" / "bin" / "python")
    return path if path.exists() else None


def run_anchors(jobs, timeout=3600):
    """Results of ``jobs`` (see ``anchors.py``) from the anchors' interpreter, one dict per job,
    each ``{"ok": False, "error": ...}`` when the anchors are missing or fail."""
    python = anchor_python()
    if python is None:
        why = (f"no anchors' interpreter (set {ANCHOR_PYTHON_VARIABLE} or run make bench, which "
               "installs benchmarks/requirements-anchors.txt into .venv-anchors)")
        print(why, file=sys.stderr)
        return [{"ok": False, "error": why} for _ in jobs]
    try:
        out = subprocess.run([str(python), str(HERE / "anchors.py")], input=json.dumps(jobs),
                             capture_output=True, text=True, timeout=timeout, check=True)
        results = json.loads(out.stdout)
    except (subprocess.SubprocessError, json.JSONDecodeError, OSError) as err:
        detail = getattr(err, "stderr", "") or ""
        print(f"the anchors failed: {err}\n{detail[-2000:]}", file=sys.stderr)
        return [{"ok": False, "error": str(err)} for _ in jobs]
    return results


def anchor_cell(result, key="ms", fmt="{:.3f}"):
    """A table cell for one anchor result: the value, or why there is none."""
    if not result.get("ok"):
        return "not run"
    return fmt.format(result[key])
