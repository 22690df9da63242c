"""Python's cyclic garbage collector, run less often by the book's build and its tests.

The collector walks every tracked object of a generation each time it runs, and these processes
hold hundreds of thousands from their imports alone (numba, matplotlib, IPython, Sphinx) while the
textbook solvers, Sphinx and pytest allocate many more. Measured on an Intel Xeon at 2.5 GHz with
Python's default thresholds (700, 10, 10) against :data:`GC_THRESHOLDS`: a book build 57-66 s of
CPU against 46-57 s; make test from a fresh clone, its environment included, 533 s against 513 s,
run side by side (benchmarks/suite_time.py --against). What they compute does not depend on when
the collector runs; only the memory held by garbage in reference cycles waits longer.

Used by tools/nbval_watchdog.py (each test process and the notebook kernels it starts),
tools/execute-notebooks (its kernels) and, as a Sphinx extension (``local_extensions`` of
_config.yml), the book's build.
"""

from __future__ import annotations

import gc
from typing import Any

GC_THRESHOLDS = (10_000, 50, 50)
"""``gc.set_threshold`` for these processes."""

KERNEL_SETUP = f"__import__('gc').set_threshold{GC_THRESHOLDS}"
"""An expression that sets them in a notebook's kernel (a ``user_expression``)."""


def use() -> None:
    """Set :data:`GC_THRESHOLDS` in this process."""
    gc.set_threshold(*GC_THRESHOLDS)


def setup(app: Any) -> dict[str, Any]:
    """The Sphinx extension: the build runs with :data:`GC_THRESHOLDS`."""
    use()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
