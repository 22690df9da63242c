"""numba, imported on first use: :func:`compiled` turns a plain loop into machine code.

The modules whose loops run on numpy arrays in every process (the sequence-form passes,
regret matching on tables) compile them the first time they are called, not when they are
imported, so that a process that never calls them does not pay for importing numba (about
100 MB of memory and a second of CPU).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def compiled(function: Callable[..., Any], **options: Any) -> Any:
    """``function`` compiled by numba with ``numba.njit``'s ``options`` (a Dispatcher, called as
    the function), its machine code cached on disk where numba finds a writable place (next to
    the module or in the user's cache), else compiled afresh in each process."""
    import numba

    try:
        return numba.njit(cache=True, **options)(function)
    except RuntimeError:  # no writable cache location
        return numba.njit(**options)(function)
