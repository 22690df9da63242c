"""Project-wide pytest setup: ``tools/`` on ``sys.path`` (the tests import its modules; it is not
a package), the nbval plugin of tools/nbval_watchdog.py (a watchdog over the notebook kernels,
and the checks of explorer frames and quoted numbers), and the order the tests run in.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))

pytest_plugins = ["nbval_watchdog"]


def _scheduling_rank(item) -> tuple[int, int]:
    """Longest work first: notebooks (later chapters first: they run longer), then the tests that
    build books or wheels, then the unit tests, whose many short files fill the end evenly."""
    path = Path(str(item.fspath))
    if path.suffix == ".ipynb":
        return (0, -int(path.name[:2]) if path.name[:2].isdigit() else 0)
    if item.get_closest_marker("book") or item.get_closest_marker("wheel"):
        return (1, 0)
    return (2, 0)


def pytest_collection_modifyitems(session, config, items):
    """pytest-xdist (--dist loadfile) hands out whole files in collection order; with the long
    ones last, one worker would finish alone. A stable sort keeps each notebook's cells in order."""
    items.sort(key=_scheduling_rank)
