#!/usr/bin/env python3
"""Words of prose per chapter: the main path, the "Going further" parts, and the words a reader
goes through before the book's first runnable CFR.

    python tools/book_words.py            # the table
    python tools/book_words.py --json     # the same, as JSON

A chapter's sections are its level-2 headings (``## ...``). The **main path** is every section
but three kinds, which a newcomer may leave for later and which are counted apart:

- ``## Going further: ...``: optional depth, placed after the main path;
- ``## Exercises`` (with their folded solutions) and ``## Historical notes``.

Prose is the text of the markdown cells without fenced code (a ``{code-block}`` or a plain
```` ``` ```` fence), MyST labels ``(name)=``, directive options ``:key: value``, HTML comments and
``{eval}`` expressions' source; math counts as it is written, one word per blank-separated token.

The *first runnable CFR* is the first code cell, in reading order (``_toc.yml``), that iterates
a CFR solver: the cell tagged ``first-cfr`` in its metadata (the book tags one). Words
before it are the prose of the introduction and of every chapter before it, all of it, and of
its own chapter up to that cell.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

import notebook_cache

ROOT = Path(__file__).resolve().parents[1]
MAIN_PATH_LIMIT = 3000
"""Words of prose a chapter's main path may hold (exercises and historical notes apart)."""
CARD_LIMIT = 80
"""Words the opening card may take to say what a chapter teaches and what it needs."""
FIRST_CFR_TAG = "first-cfr"
GOING_FURTHER = "Going further"
APART = ("Exercises", "Historical notes")

_FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
_LABEL = re.compile(r"^\([\w.:-]+\)=\s*$")
_OPTION = re.compile(r"^:[\w-]+:.*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_EVAL = re.compile(r"\{eval\}`[^`]*`")
_H2 = re.compile(r"^## +(.*\S)\s*$")


def prose_words(markdown: str) -> int:
    """Whitespace-separated words of ``markdown`` outside code fences, labels and options."""
    markdown = _EVAL.sub("N", _COMMENT.sub("", markdown))
    words = 0
    fence: str | None = None           # the open code fence, whose lines are not prose
    directives: list[str] = []         # the open directives' fences, whose bodies are
    for line in markdown.splitlines():
        opened = _FENCE.match(line.strip())
        if fence is not None:
            if opened and opened.group(1) == fence and not opened.group(2).strip():
                fence = None
            continue
        if opened:
            marks, info = opened.group(1), opened.group(2).strip()
            if not info and directives and marks == directives[-1]:
                directives.pop()       # the end of a directive
            elif info.startswith("{") and not info.startswith(("{code", "{literalinclude")):
                directives.append(marks)   # a directive whose body is prose: read
            else:
                fence = marks          # code, a plain fence: not read
            continue
        if _LABEL.match(line.strip()) or _OPTION.match(line.strip()):
            continue
        words += len(line.split())
    return words


def kind_of(heading: str) -> str:
    """``main``, ``further`` or ``apart`` for a level-2 section titled ``heading``."""
    if heading.startswith(GOING_FURTHER):
        return "further"
    if heading in APART:
        return "apart"
    return "main"


@dataclass
class Chapter:
    file: str
    title: str
    main: int = 0
    further: int = 0
    apart: int = 0
    sections: list[tuple[str, str, int]] = field(default_factory=list)
    words_before_first_cfr: int | None = None
    """Words of this chapter's prose before its ``first-cfr`` cell, if it has one."""


def _cells(path: Path):
    """``(cell type, source, tags)`` of each cell; a Markdown page is one cell."""
    if path.suffix == ".md":
        yield "markdown", path.read_text(encoding="utf-8"), []
        return
    for cell in notebook_cache.read(path).cells:
        yield cell.cell_type, cell.source, cell.metadata.get("tags", [])


def chapter_words(path: Path) -> Chapter:
    """Count one chapter's prose by section kind (the text before the first ``##`` is main)."""
    chapter = Chapter(file=path.name, title="")
    section, kind, count = "(opening)", "main", 0
    read = 0

    def close():
        setattr(chapter, kind, getattr(chapter, kind) + count)
        chapter.sections.append((section, kind, count))

    for cell_type, source, tags in _cells(path):
        if cell_type == "code":
            if FIRST_CFR_TAG in tags and chapter.words_before_first_cfr is None:
                chapter.words_before_first_cfr = read
            continue
        if cell_type != "markdown":
            continue
        # Split the cell at its level-2 headings; fenced code cannot hold a heading here.
        part: list[str] = []
        for line in source.splitlines():
            title = re.match(r"^# +(.*\S)", line)
            if title and not chapter.title:
                chapter.title = title.group(1)
            heading = _H2.match(line)
            if heading:
                words = prose_words("\n".join(part))
                count += words
                read += words
                close()
                section, kind, count, part = heading.group(1), kind_of(heading.group(1)), 0, []
            part.append(line)
        words = prose_words("\n".join(part))
        count += words
        read += words
    close()
    return chapter


def book_order() -> list[Path]:
    """The introduction and the chapters in reading order (``_toc.yml``), reference pages out."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]]
    for part in toc.get("parts", []):
        if part.get("caption") == "Reference":
            continue
        for entry in part.get("chapters", []):
            files.append(entry["file"])
            files.extend(sub["file"] for sub in entry.get("sections", []))
    paths = []
    for name in files:
        for suffix in (".ipynb", ".md"):
            if (ROOT / f"{name}{suffix}").exists():
                paths.append(ROOT / f"{name}{suffix}")
                break
    return paths


def report() -> dict:
    """Every chapter's counts, and the words read before the first runnable CFR."""
    chapters = [chapter_words(path) for path in book_order()]
    before, first = 0, None
    for chapter in chapters:
        if chapter.words_before_first_cfr is not None:
            before += chapter.words_before_first_cfr
            first = chapter.file
            break
        before += chapter.main + chapter.further + chapter.apart
    return {"chapters": [asdict(c) for c in chapters],
            "first_cfr": {"chapter": first, "words_before": before if first else None}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--sections", action="store_true", help="list every section's words")
    args = parser.parse_args(argv)
    data = report()
    if args.json:
        json.dump(data, sys.stdout, indent=1)
        print()
        return 0
    print(f"{'chapter':<40} {'main':>6} {'further':>8} {'ex+notes':>9}")
    for c in data["chapters"]:
        flag = "  over" if c["main"] > MAIN_PATH_LIMIT and c["file"] != "00_introduction.md" else ""
        print(f"{c['file']:<40} {c['main']:>6} {c['further']:>8} {c['apart']:>9}{flag}")
        if args.sections:
            for name, kind, words in c["sections"]:
                print(f"    {kind:<8} {words:>5}  {name}")
    main_path = sum(c["main"] for c in data["chapters"])
    print(f"{'all main paths':<40} {main_path:>6}")
    first = data["first_cfr"]
    where = f"{first['words_before']} words, in {first['chapter']}" if first["chapter"] else "no cell marked"
    print(f"before the first runnable CFR (the cell tagged {FIRST_CFR_TAG}): {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
