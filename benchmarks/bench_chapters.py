"""Every chapter run top to bottom in a fresh kernel: seconds per chapter (budget 60 s, median 30 s).

Each chapter is copied alone into an empty folder and executed there by nbclient in a fresh
kernel of this environment, as a reader's "Run all" does; the time is the wall clock from the
kernel's start to the last cell's reply. ``--cells N`` also lists each chapter's N slowest
cells. numba's compiled walks are cached on disk: run the script twice to see the warm times
(``make bench`` does not clear the cache).

    python benchmarks/bench_chapters.py [--markdown] [--cells 3] [chapters/05_*.ipynb ...]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from common import print_table

ROOT = Path(__file__).resolve().parents[1]
BUDGET, MEDIAN_BUDGET = 60.0, 30.0


def run_chapter(path: Path) -> tuple[float, list[tuple[float, int]]]:
    """(seconds for the whole chapter, [(seconds, cell index)] of its code cells)."""
    import nbformat
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / path.name
        shutil.copy(path, copy)
        notebook = nbformat.read(copy, as_version=4)
        cells: list[tuple[float, int]] = []

        class TimedClient(NotebookClient):
            async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
                start = time.perf_counter()
                result = await super().async_execute_cell(cell, cell_index, *args, **kwargs)
                if cell.cell_type == "code":
                    cells.append((time.perf_counter() - start, cell_index))
                return result

        start = time.perf_counter()
        TimedClient(notebook, kernel_name="python3", timeout=900,
                    resources={"metadata": {"path": folder}}).execute()
        return time.perf_counter() - start, cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", type=Path)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--cells", type=int, default=0, help="list each chapter's N slowest cells")
    args = parser.parse_args()
    chapters = args.chapters or sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    rows, seconds = [], []
    for path in chapters:
        total, cells = run_chapter(path)
        seconds.append(total)
        slowest = sorted(cells, reverse=True)[:args.cells]
        rows.append([path.stem, f"{total:.1f}",
                     *([", ".join(f"cell {i}: {s:.1f}" for s, i in slowest)] if args.cells else [])])
        print(f"{path.stem}: {total:.1f} s", flush=True) if not args.markdown else None
    header = ["chapter", "seconds"] + (["slowest cells (s)"] if args.cells else [])
    print_table(header, rows, markdown=args.markdown)
    median = statistics.median(seconds)
    print(f"Slowest {max(seconds):.1f} s (budget {BUDGET:.0f} s), median {median:.1f} s "
          f"(budget {MEDIAN_BUDGET:.0f} s), {sum(seconds):.0f} s in all.")


if __name__ == "__main__":
    main()
