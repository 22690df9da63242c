"""The tables of ARCHITECTURE.md, read by the tests that enforce them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def table(heading: str, index: int = 0) -> list[list[str]]:
    """Table ``index`` of the ``## heading`` section of ARCHITECTURE.md: one list of cells a row,
    without the header row, each cell stripped of spaces and of the backticks around code."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"ARCHITECTURE.md has no section '## {heading}'"
    tables = re.findall(r"(?:^\|.*\n)+", section.group(1), re.M)
    assert len(tables) > index, f"no table {index} under '## {heading}'"
    rows = tables[index].splitlines()[2:]
    return [[cell.strip().replace("`", "") for cell in row.strip("|").split("|")] for row in rows]


def names(cell: str) -> list[str]:
    """The comma-separated names of a cell."""
    return [name.strip() for name in cell.split(",") if name.strip()]


def named_test(cell: str) -> tuple[Path, str]:
    """``tests/file.py::test_name`` as the file's path and the test's name."""
    path, _, name = cell.partition("::")
    return ROOT / path, name
