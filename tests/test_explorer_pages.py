"""Every explorer saved in a chapter carries the page code of the current cfrbook.interactive.

An explorer's static page (its style, its controls' markup and the script that shows the frames)
is written into the notebook's output when the chapter runs, so a change to
``cfrbook.interactive`` reaches the book only when the chapters with explorers are executed
again (tools/execute-notebooks). A chapter saved before such a change, or merged from a branch
that ran the older code, would publish the older behaviour: this test names it.
"""

from __future__ import annotations

from pathlib import Path

import notebook_cache
import pytest

from cfrbook import interactive

CHAPTERS = sorted((Path(__file__).resolve().parents[1] / "chapters").glob("*.ipynb"))


def _explorer_pages(path: Path) -> list[str]:
    cells = notebook_cache.read(path).cells
    pages = ("".join(output.get("data", {}).get("text/html", ""))
             for cell in cells if cell["cell_type"] == "code" for output in cell.get("outputs", []))
    return [page for page in pages if "cfrlib-explorer-data" in page]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_saved_explorers_carry_the_current_page_code(path):
    for number, page in enumerate(_explorer_pages(path), start=1):
        current = (interactive._STYLE in page
                   and page.endswith(f"<script>{interactive._SCRIPT}</script></div>"))
        assert current, (
            f"{path.name}: explorer {number} was saved by an older cfrbook.interactive; run "
            f"tools/execute-notebooks {path.relative_to(path.parents[1])}")


def test_the_chapters_hold_explorers():
    assert sum(len(_explorer_pages(path)) for path in CHAPTERS) >= 15
