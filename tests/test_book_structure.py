"""The path a newcomer walks (issue 34): every chapter opens with a card saying what it teaches and
what it needs, keeps a main path of at most 3,000 words with its optional depth in "Going further"
parts after it, and the first runnable CFR comes early. Words are counted by tools/book_words.py."""

from __future__ import annotations

import re

import book_words
import nbformat
import notebook_cache
import pytest

CHAPTERS = [path for path in book_words.book_order() if path.suffix == ".ipynb"]
NEWCOMER_PATH_LIMIT = 24_000
"""Words of the introduction and of every main path up to and including DCFR's chapter."""
FIRST_CFR_LIMIT = 9_000
"""Words of prose a reader reads, from the introduction on, before the first runnable CFR."""

_CARD = re.compile(r"```\{admonition\}[^\n]*\n:class: chapter-card\n(.*?)\n```", re.S)
_LABEL_BEFORE_GF = re.compile(r"\(([\w-]+)\)=\s*\n## +Going further")
_QUOTED_USE = re.compile(r"quoted\[\\?['\"]([\w-]+)\\?['\"]\]")


def _cells(path):
    return notebook_cache.read(path).cells


@pytest.fixture(scope="module")
def words():
    return {c["file"]: c for c in book_words.report()["chapters"]}


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_chapter_opens_with_what_it_teaches_and_needs(path):
    opening = "\n".join(c.source for c in _cells(path)[:3] if c.cell_type == "markdown")
    card = _CARD.search(opening)
    assert card, f"{path.name}: no chapter card (an admonition of class chapter-card) at the top"
    body = card.group(1)
    learn_need = "\n".join(p for p in body.split("\n\n") if not p.strip().startswith("**Going further**"))
    assert "**You learn**" in learn_need and "**You need**" in learn_need
    paragraphs = [p.strip() for p in body.split("\n\n")]
    assert any(p.startswith("**You learn**") and "**You need**" not in p for p in paragraphs), (
        f"{path.name}: the card's 'You learn' and 'You need' run into one paragraph")
    assert book_words.prose_words(learn_need) <= book_words.CARD_LIMIT, (
        f"{path.name}: the card takes {book_words.prose_words(learn_need)} words to say what the "
        f"chapter teaches and needs (at most {book_words.CARD_LIMIT})")
    source = "\n".join(c.source for c in _cells(path) if c.cell_type == "markdown")
    optional = _LABEL_BEFORE_GF.findall(source)
    assert len(optional) == source.count("\n## Going further") + source.startswith("## Going further"), (
        f"{path.name}: every 'Going further' section needs a label before it")
    for label in optional:
        assert f"<{label}>" in body, f"{path.name}: the card does not link the optional part {label}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_main_path_is_short_and_the_optional_parts_come_after_it(path, words):
    chapter = words[path.name]
    assert chapter["main"] <= book_words.MAIN_PATH_LIMIT, (
        f"{path.name}: main path of {chapter['main']} words (at most {book_words.MAIN_PATH_LIMIT}); "
        "move optional depth into a 'Going further' part")
    kinds = [(name, kind) for name, kind, _ in chapter["sections"]]
    first = next((k for k, (_, kind) in enumerate(kinds) if kind != "main"), len(kinds))
    late_main = [name for name, kind in kinds[first:] if kind == "main" and name != "Summary"]
    assert not late_main, f"{path.name}: main-path sections after the optional parts: {late_main}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_main_path_number_comes_from_an_optional_part(path):
    """A quoted number in main-path prose is computed by a main-path code cell."""
    kind = "main"
    set_by: dict[str, set[str]] = {"main": set(), "further": set()}
    used_in_main: set[str] = set()
    for cell in _cells(path):
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                heading = book_words._H2.match(line)
                if heading:
                    kind = book_words.kind_of(heading.group(1))
            if kind == "main":
                used_in_main |= set(_QUOTED_USE.findall(cell.source))
        elif cell.cell_type == "code" and kind in set_by:
            set_by[kind] |= set(re.findall(r"quoted\[['\"]([\w-]+)['\"]\]\s*=", cell.source))
    only_optional = (used_in_main & set_by["further"]) - set_by["main"]
    assert not only_optional, f"{path.name}: main-path prose quotes numbers computed in an optional part: {only_optional}"


def test_the_first_runnable_cfr_comes_early():
    first = book_words.report()["first_cfr"]
    assert first["chapter"], f"no code cell is tagged {book_words.FIRST_CFR_TAG!r}"
    assert first["words_before"] <= FIRST_CFR_LIMIT, (
        f"{first['words_before']} words before the first runnable CFR (in {first['chapter']}); "
        f"at most {FIRST_CFR_LIMIT}")


def _newcomers_words() -> int:
    chapters = book_words.report()["chapters"]
    last = next(k for k, c in enumerate(chapters) if "discounted" in c["file"])
    return sum(c["main"] for c in chapters[:last + 1])


def test_the_newcomers_path_through_dcfr_is_at_most_24000_words():
    assert _newcomers_words() <= NEWCOMER_PATH_LIMIT, f"{_newcomers_words()} words of main path through DCFR"


def test_the_introduction_says_how_long_the_newcomers_path_is():
    """Its words within 2% of the count, and its hours those words take at 100 words a minute."""
    text = (book_words.ROOT / "chapters" / "00_introduction.md").read_text()
    said = re.search(r"about ([\d,]+) words of prose, some (\w+) hours at 100 words a", text)
    assert said, "the introduction no longer says how long the newcomer's path is"
    words = _newcomers_words()
    assert abs(int(said.group(1).replace(",", "")) - words) <= 0.02 * words, (said.group(1), words)
    hours = ["one", "two", "three", "four", "five", "six"][round(words / 100 / 60) - 1]
    assert said.group(2) == hours, (said.group(2), words)
    assert "CFR running on Kuhn poker\n  within the first third of that path" in text
    assert book_words.report()["first_cfr"]["words_before"] < words / 3


def _words(parts: dict[str, tuple[str, ...]]) -> int:
    """The words of the named parts ("main", "further") of the chapters whose file starts with a
    key of ``parts``."""
    return sum(c[part] for c in book_words.report()["chapters"] for prefix, wanted in parts.items()
               if c["file"].startswith(prefix) for part in wanted)


_OTHER_PATHS = {
    "A practitioner": {k: ("main",) for k in ("00", "01", "02", "03", "04", "08", "09", "10", "11")},
    "A researcher": {"05": ("main", "further"), "07": ("further",), "08": ("further",),
                     "09": ("further",), "13": ("main", "further"), "14": ("main", "further"),
                     "15": ("main", "further")},
}


@pytest.mark.parametrize("who", list(_OTHER_PATHS))
def test_the_introduction_says_how_long_the_other_paths_are(who):
    """The hours the practitioner's and the researcher's paths take at 100 words a minute, to the
    half hour."""
    text = (book_words.ROOT / "chapters" / "00_introduction.md").read_text()
    said = re.search(rf"\*\*{who}\*\*[^\n]*(?:\n  [^\n]*)*?Some ([\w ]+?) hours", text)
    assert said, f"the introduction no longer says how long {who.lower()}'s path is"
    words = _words(_OTHER_PATHS[who])
    halves = round(words / 100 / 60 * 2)       # to the half hour
    hours = ["one", "two", "three", "four", "five", "six"][halves // 2 - 1] + " and a half" * (halves % 2)
    assert said.group(1) == hours, (said.group(1), words)


_EXERCISE_BEFORE_REF = re.compile(r"[Ee]xercises?\s+\{(?:ref|numref)\}`[\w-]+`")


@pytest.mark.parametrize("path", book_words.book_order(), ids=lambda p: p.stem)
def test_no_reference_renders_its_kind_twice(path):
    """A bare ``{ref}`` to an exercise renders "Exercise 4.4": "Exercise {ref}`x`" doubles it."""
    text = "\n".join(source for kind, source, _ in book_words._cells(path) if kind == "markdown")
    assert not _EXERCISE_BEFORE_REF.findall(text), _EXERCISE_BEFORE_REF.findall(text)


def test_prose_words_leave_out_code_labels_and_options():
    text = ("(ch9-x)=\n## A title\n\nOne two three.\n\n```python\nnot counted at all\n```\n\n"
            "```{admonition} Note\n:class: tip\n\nfour five\n```\n<!-- hidden words -->\n"
            "{eval}`f\"{quoted['k']:.3f}\"` six")
    # the heading, the sentence, the admonition's body, then the quoted number and "six"
    assert book_words.prose_words(text) == 3 + 3 + 2 + 2


def test_a_chapter_is_counted_by_the_kind_of_its_sections(tmp_path):
    cells = [nbformat.v4.new_markdown_cell("# T\n\nopening words here\n\n## Main part\n\none two"),
             nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["first-cfr"]}),
             nbformat.v4.new_markdown_cell("(ch9-gf-a)=\n## Going further: depth\n\nthree four five"),
             nbformat.v4.new_markdown_cell("## Exercises\n\nsix seven\n\n## Summary\n\neight")]
    path = tmp_path / "09_x.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    chapter = book_words.chapter_words(path)
    assert (chapter.main, chapter.further, chapter.apart) == ((2 + 3) + (3 + 2) + (2 + 1), 4 + 3, 2 + 2)
    assert chapter.words_before_first_cfr == (2 + 3) + (3 + 2)
    assert [kind for _, kind, _ in chapter.sections] == ["main", "main", "further", "apart", "main"]


_REF = re.compile(r"\{(?:ref|numref)\}`([^`]*)`")


@pytest.mark.parametrize("path", book_words.book_order(), ids=lambda p: p.stem)
def test_a_main_path_pointer_into_going_further_says_so(path):
    """A reference from a main path to a going-further section (a label with ``-gf-``) says, in
    its paragraph, that it leads into going further: the reader knows it is optional."""
    kind, main = "main", []
    for cell_type, source, _ in book_words._cells(path):
        if cell_type != "markdown":
            continue
        for line in source.splitlines():
            heading = book_words._H2.match(line)
            if heading:
                kind = book_words.kind_of(heading.group(1))
            if kind == "main":
                main.append(line)
    silent = [ref.group(0) for paragraph in "\n".join(main).split("\n\n")
              for ref in _REF.finditer(paragraph)
              if "-gf-" in ref.group(1).split("<")[-1]
              and "going further" not in paragraph.lower().replace("-", " ")]
    assert not silent, f"{path.name}: main-path references into going further that do not say so: {silent}"

