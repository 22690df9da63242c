"""What the benchmark scripts share: timing with medians, and printing tables."""

from __future__ import annotations

import statistics
import time


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
