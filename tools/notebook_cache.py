"""A notebook read once per process (``read``), for the tests and tools that look at the chapters'
text: with their explorers' frames the chapters weigh 36 MB, nbformat reads them all in 0.3 s of
CPU, and the tests that each read them again spent 6 s of `make check` doing so. A file is read
again when its modification time or size changes."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import nbformat


def read(path: str | os.PathLike[str]) -> nbformat.NotebookNode:
    """``nbformat.read(path, as_version=4)``, shared by every caller: read it, do not change it."""
    stat = os.stat(path)
    return _read(Path(path).resolve(), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _read(path: Path, mtime_ns: int, size: int) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)
