"""Names that carry a chapter number carry the number of the chapter they live in (issue 34: the
cross-references follow the book's order). A section or exercise label ``chN-...``, written
``(chN-...)=`` or ``:label: chN-...``, is defined in chapter N's notebook, and a number quoted in
the prose under the key ``chN_...`` is set in chapter N: a maintainer reading
``{ref}`Chapter 5 <ch5-proofs>``` or ``quoted["ch6_..."]`` knows where to look."""

from __future__ import annotations

import re

import book_words
import notebook_cache
import pytest

CHAPTERS = [path for path in book_words.book_order() if path.suffix == ".ipynb"]

LABEL = re.compile(r"^(?:\((ch\d+-[\w-]+)\)=|:label:\s*(ch\d+-[\w-]+))", re.M)
KEY = re.compile(r"(?<![\w])(ch\d+)_\w*")


def _number(name: str) -> int:
    return int(re.match(r"ch(\d+)", name).group(1))


def labels(markdown: str) -> list[str]:
    """The labels ``chN-...`` a markdown cell defines."""
    return [a or b for a, b in LABEL.findall(markdown)]


def quoted_keys(code: str) -> list[str]:
    """The prefixes ``chN`` of the quoted keys a code cell names (a key built by an f-string,
    ``quoted[f"ch7_{game}"]``, included)."""
    return [m.group(1) for m in KEY.finditer(code)]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_labels_and_quoted_keys_carry_their_chapters_number(path):
    chapter = int(path.name[:2])
    cells = notebook_cache.read(path).cells
    wrong_labels = sorted({label for cell in cells if cell.cell_type == "markdown"
                           for label in labels(cell.source) if _number(label) != chapter})
    wrong_keys = sorted({key for cell in cells if cell.cell_type == "code"
                         for key in quoted_keys(cell.source) if _number(key) != chapter})
    assert not wrong_labels, f"{path.name} defines labels of another chapter: {wrong_labels}"
    assert not wrong_keys, f"{path.name} sets quoted keys of another chapter: {wrong_keys}"


def test_the_patterns_find_what_they_should():
    text = "(ch5-proofs)=\n## From small regrets\n\n```{exercise}\n:label: ch3-recall\n```\n(ch5x)=\n"
    assert labels(text) == ["ch5-proofs", "ch3-recall"]
    code = 'quoted["ch6_worst"] = 1\nquoted[f"ch7_{game}_sec"] = 2\nname = "mch6_no"\n'
    assert quoted_keys(code) == ["ch6", "ch7"]
