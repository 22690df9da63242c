"""Every figure of the book has a caption and an alt text (issue 22), read from the notebooks'
saved outputs and metadata, with no kernel and no build.

- A code cell whose saved outputs hold an image (a matplotlib figure) carries myst-nb figure
  metadata: a caption, a label and the image's alt text, which the book renders as a numbered
  figure (tools/figure_captions.py holds them, tools/apply-figure-captions writes them).
- The notebooks carry exactly what tools/figure_captions.py says, and every entry there names a
  cell that draws one figure.
- An explorer (cfrlib.interactive), whose figure is an <img> inside its HTML output, says what
  it shows in that <img>'s own alt text.
- Alt texts are plain text a screen reader can read: not empty, not a file name or a hash, no
  TeX or Markdown, under 250 characters. Labels are unique and name their chapter.

The rendered pages are checked in tests/browser/test_rendered_book.py.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import notebook_cache
import pytest

from figure_captions import FIGURES

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))
IMAGE_TYPES = ("image/png", "image/svg+xml", "image/jpeg", "image/gif")
FIX = ("write its caption and alt text in tools/figure_captions.py, then run "
       ".venv/bin/python tools/apply-figure-captions")
ALT_LIMIT = 250
IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
ALT_ATTRIBUTE = re.compile(r"""\balt\s*=\s*("([^"]*)"|'([^']*)')""", re.IGNORECASE)


def _cells(path: Path) -> list[dict]:
    return notebook_cache.read(path).cells


def _images(cell: dict) -> int:
    return sum(1 for output in cell.get("outputs", [])
               if any(kind in output.get("data", {}) for kind in IMAGE_TYPES))


def alt_problem(alt: str) -> str | None:
    """What keeps ``alt`` from describing an image to a reader who cannot see it, or None."""
    text = alt.strip()
    if not text:
        return "empty"
    if re.fullmatch(r"[\w.-]*\.(png|svg|jpe?g|gif)", text, re.IGNORECASE) or re.fullmatch(
            r"[0-9a-f]{16,}", text, re.IGNORECASE):
        return f"a file name or hash, not a description: {text!r}"
    if len(text.split()) < 4:
        return f"too short to say what the figure shows: {text!r}"
    if len(text) > ALT_LIMIT:
        return f"{len(text)} characters, more than {ALT_LIMIT}: say less"
    if re.search(r"[$\\`]|\*\*|\{\w+\}", text):
        return f"holds markup or TeX, which a screen reader spells out: {text!r}"
    return None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_every_figure_has_a_caption_and_an_alt_text(path):
    problems = []
    for cell in _cells(path):
        if cell["cell_type"] != "code" or not _images(cell):
            continue
        where = f"cell {cell.get('id')!r}"
        mystnb = cell.get("metadata", {}).get("mystnb", {})
        figure, image = mystnb.get("figure") or {}, mystnb.get("image") or {}
        if not str(figure.get("caption", "")).strip():
            problems.append(f"{where} draws a figure with no caption; {FIX}")
        if not str(figure.get("name", "")).strip():
            problems.append(f"{where} draws a figure with no label (name); {FIX}")
        problem = alt_problem(str(image.get("alt", "")))
        if problem:
            problems.append(f"{where}: the figure's alt text is {problem}; {FIX}")
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_every_explorer_image_says_what_it_shows(path):
    problems = []
    for cell in _cells(path):
        for output in cell.get("outputs", []):
            page = "".join(output.get("data", {}).get("text/html", ""))
            for tag in IMG_TAG.findall(page):
                found = ALT_ATTRIBUTE.search(tag)
                alt = html.unescape(found.group(2) or found.group(3) or "") if found else ""
                problem = alt_problem(alt)
                if problem:
                    problems.append(f"cell {cell.get('id')!r}: an <img> of its HTML output has "
                                    f"an alt text that is {problem} (cfrlib.interactive."
                                    "Explorer(..., alt=...))")
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_notebooks_carry_the_captions_of_the_data_file():
    notebooks = {path.name: {cell.get("id"): cell for cell in _cells(path)} for path in NOTEBOOKS}
    problems = []
    for (name, cell_id), entry in FIGURES.items():
        cell = notebooks.get(name, {}).get(cell_id)
        if cell is None:
            problems.append(f"{name}: no cell {cell_id!r} (deleted or its id changed): update "
                            "tools/figure_captions.py")
            continue
        if _images(cell) != 1:
            problems.append(f"{name}: cell {cell_id!r} draws {_images(cell)} figures, not one "
                            "(myst-nb gives every image of a cell the same caption and label)")
            continue
        mystnb = cell.get("metadata", {}).get("mystnb", {})
        stored = ((mystnb.get("figure") or {}).get("caption"),
                  (mystnb.get("figure") or {}).get("name"), (mystnb.get("image") or {}).get("alt"))
        if stored != (entry["caption"], entry["name"], entry["alt"]):
            problems.append(f"{name}: cell {cell_id!r} does not carry its entry of "
                            "tools/figure_captions.py: run .venv/bin/python "
                            "tools/apply-figure-captions")
    assert not problems, "\n".join(problems)


def test_captions_and_labels_read_well():
    problems = []
    names = {}
    for (notebook, cell_id), entry in FIGURES.items():
        where = f"{notebook} {cell_id}"
        assert set(entry) == {"name", "caption", "alt"}, f"{where}: keys {sorted(entry)}"
        chapter = notebook[:2]
        if not re.fullmatch(rf"fig-ch{chapter}-[a-z0-9]+(-[a-z0-9]+)*", entry["name"]):
            problems.append(f"{where}: label {entry['name']!r} is not fig-ch{chapter}-short-name")
        if entry["name"] in names:
            problems.append(f"{where}: label {entry['name']!r} also used by {names[entry['name']]}")
        names[entry["name"]] = where
        caption = entry["caption"].strip()
        if not caption.endswith(".") or len(caption.split()) < 8:
            problems.append(f"{where}: the caption should be a sentence or two that ends with "
                            f"a full stop: {caption!r}")
        if "{eval}" in caption:
            problems.append(f"{where}: a caption cannot quote a computed value ({{eval}})")
        if caption.count("$") % 2:
            problems.append(f"{where}: unbalanced $ in the caption")
        problem = alt_problem(entry["alt"])
        if problem:
            problems.append(f"{where}: the alt text is {problem}")
    assert not problems, "\n".join(problems)


def test_alt_problem_finds_what_a_screen_reader_cannot_use():
    assert alt_problem("") == "empty"
    assert "file name" in alt_problem("3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6.png")
    assert "hash" in alt_problem("3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6")
    assert "too short" in alt_problem("a figure")
    assert "markup" in alt_problem(r"Regret against rounds, below $\sqrt{t}$ bound")
    assert "characters" in alt_problem("word " * 60)
    assert alt_problem("Log-log plot of exploitability against iterations, falling.") is None
