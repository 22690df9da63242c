"""Project-wide pytest setup: ``tools/`` on ``sys.path`` (the tests import its modules; it is not
a package), the nbval plugin of tools/nbval_watchdog.py (a watchdog over the notebook kernels,
and the checks of explorer frames and quoted numbers), and the order the tests run in.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))

pytest_plugins = ["nbval_watchdog"]


def _scheduling_rank(item) -> int:
    """Longest work first: notebooks (5-25 s each; later chapters first), then the files with tests
    that build books or wheels or are marked slow, then the unit tests, whose many short files fill
    the end evenly."""
    path = item.path
    if path.suffix == ".ipynb":
        return -100 + (-int(path.name[:2]) if path.name[:2].isdigit() else 0)
    if any(item.get_closest_marker(marker) for marker in ("book", "wheel", "slow")):
        return 1
    return 2


def pytest_collection_modifyitems(session, config, items):
    """pytest-xdist (--dist loadfile --no-loadscope-reorder, as make test runs it) hands out whole
    files in collection order, two to a worker and then one to each worker that runs dry: with a
    long file last, one worker would finish alone (chapter builds and the kernel-stall test ended
    the run 17 s after the others when xdist put the files with most tests first). Each file takes
    the rank of its heaviest test; a stable sort keeps the files' tests, and notebooks' cells, in
    order."""
    rank: dict[Path, int] = {}
    for item in items:
        rank[item.path] = min(rank.get(item.path, 2), _scheduling_rank(item))
    items.sort(key=lambda item: rank[item.path])
