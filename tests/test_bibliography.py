"""references.bib: every entry parses and is complete, most entries link to the work, and every
key the chapters cite exists (issue 22, item 6)."""

import re
from collections import Counter
from pathlib import Path

import pytest
from pybtex.database import parse_file

ROOT = Path(__file__).resolve().parent.parent
BIB = ROOT / "references.bib"
CHAPTERS = ROOT / "chapters"

# Entries that may lack a year: the thesis slide deck carries no date (the book says so), and the
# Rust cfr crate is cited as living software (chapter 11 names no version), so no year is right.
UNDATED = {"berezovskiy_cfr", "brinkman_cfr"}
LINK_FIELDS = ("doi", "url", "eprint")
MIN_LINKED = 0.80

DOI_RE = re.compile(r"10\.\d{4,9}/\S+")
KEY_RE = re.compile(r"@\w+\s*\{\s*([^,\s]+)\s*,")
# {cite}`a`, {cite:p}`a,b`, {cite:t}`a, b`
CITE_RE = re.compile(r"\{cite(?::[pt])?\}`([^`]*)`")


@pytest.fixture(scope="module")
def bib():
    return parse_file(str(BIB), bib_format="bibtex")


def _fields(entry):
    return {name.lower(): value for name, value in entry.fields.items()}


def test_keys_are_unique():
    # pybtex can reject or merge duplicates, so count the keys in the raw text too.
    keys = KEY_RE.findall(BIB.read_text(encoding="utf-8"))
    assert keys, "no entries found in references.bib"
    duplicates = sorted(key for key, n in Counter(keys).items() if n > 1)
    assert not duplicates, f"duplicate keys: {duplicates}"


def test_every_entry_parses(bib):
    raw_keys = KEY_RE.findall(BIB.read_text(encoding="utf-8"))
    assert sorted(bib.entries.keys()) == sorted(raw_keys)


def test_every_entry_has_author_title_year(bib):
    problems = []
    for key, entry in bib.entries.items():
        fields = _fields(entry)
        if not (entry.persons.get("author") or entry.persons.get("editor")):
            problems.append(f"{key}: no author or editor")
        if not fields.get("title", "").strip():
            problems.append(f"{key}: no title")
        if key not in UNDATED and not re.fullmatch(r"\d{4}", fields.get("year", "").strip()):
            problems.append(f"{key}: no four-digit year")
    assert not problems, "\n".join(problems)


def test_undated_entries_exist(bib):
    # If the exemption outlives its entry, drop it rather than let it hide a future one.
    assert UNDATED <= set(bib.entries.keys())


def test_most_entries_are_linked(bib):
    unlinked = [
        key for key, entry in bib.entries.items() if not any(f in _fields(entry) for f in LINK_FIELDS)
    ]
    linked = len(bib.entries) - len(unlinked)
    assert linked / len(bib.entries) >= MIN_LINKED, (
        f"only {linked} of {len(bib.entries)} entries have a doi, url or eprint; "
        f"unlinked: {sorted(unlinked)}"
    )


def test_identifiers_are_well_formed(bib):
    problems = []
    for key, entry in bib.entries.items():
        fields = _fields(entry)
        doi = fields.get("doi")
        if doi is not None and not DOI_RE.fullmatch(doi.strip()):
            problems.append(f"{key}: doi {doi!r} is not of the form 10.NNNN/...")
        url = fields.get("url")
        if url is not None and not url.strip().startswith(("https://", "http://")):
            problems.append(f"{key}: url {url!r} does not start with https:// or http://")
        eprint = fields.get("eprint")
        if eprint is not None and fields.get("archiveprefix", "").lower() == "arxiv":
            if not re.fullmatch(r"\d{4}\.\d{4,5}(v\d+)?", eprint.strip()):
                problems.append(f"{key}: arXiv eprint {eprint!r} is not of the form NNNN.NNNNN")
    assert not problems, "\n".join(problems)


def _cited_keys():
    cited = {}
    sources = sorted(CHAPTERS.glob("*.ipynb")) + sorted(CHAPTERS.glob("*.md"))
    for path in sources:
        for match in CITE_RE.finditer(path.read_text(encoding="utf-8")):
            for key in match.group(1).split(","):
                if key.strip():
                    cited.setdefault(key.strip(), path.name)
    return cited


def test_chapters_cite_something():
    # Guards the regex: if the roles change shape, the next test must not pass vacuously.
    assert len(_cited_keys()) >= 10


def test_every_cited_key_exists(bib):
    missing = {key: where for key, where in _cited_keys().items() if key not in bib.entries}
    assert not missing, f"cited but not in references.bib: {missing}"


# The text cites author-year and the list must label its entries the same way (issue 39):
# _config.yml pairs tools/bibliography_style.py's two styles, and tests/browser/test_weight.py
# checks every citation of the built book against the label of the entry it links to.
CONFIG = ROOT / "_config.yml"


def test_citations_and_bibliography_share_one_style():
    config = CONFIG.read_text(encoding="utf-8")
    assert re.search(r"^\s*bibtex_reference_style:\s*author_year_label\b", config, re.M)
    assert re.search(r"^\s*bibtex_default_style:\s*plain_author_year\b", config, re.M)
    assert re.search(r"^\s*bibliography_style:\s*tools/", config, re.M)


@pytest.mark.slow  # imports sphinxcontrib-bibtex (2-3 s): make test only
def test_every_entry_is_labelled_by_its_first_author_and_year(bib):
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import bibliography_style  # registers the styles with pybtex
    from pybtex.plugin import find_plugin
    from pybtex.richtext import Text

    def last(person):   # "Moravčík" from "Morav{\v{c}}{\'\i}k"
        return Text.from_latex(" ".join(person.prelast_names + person.last_names)).render(
            bibliography_style.PLAIN_TEXT)

    style = find_plugin("pybtex.style.formatting", "plain_author_year")()
    entries = style.sort(bib.entries.values())
    labels = list(style.format_labels(entries))
    assert len(set(labels)) == len(labels), sorted(labels)
    for entry, label in zip(entries, labels):
        persons = entry.persons.get("author") or entry.persons.get("editor")
        first = last(persons[0]) if persons else _fields(entry)["title"]
        year = _fields(entry).get("year", "n.d.")
        count = len(persons) if persons else 1
        authors = (first if count == 1 else
                   f"{first} and {last(persons[1])}" if count == 2 else
                   f"{first} et al.")
        assert re.fullmatch(re.escape(f"{authors}, {year}") + "[a-z]?", label), (entry.key, label)
    assert {"Brown and Sandholm, 2019a", "Brown and Sandholm, 2019b",
            "Zinkevich et al., 2007", "Hart and Mas-Colell, 2000"} <= set(labels)
