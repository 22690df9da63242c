r"""One symbol per quantity (the introduction's notation table): the retired forms appear nowhere in
the chapters' prose, in cfrlib's docstrings and comments or in the tests.

- ``v_i(h)``, ``v_i(ha)``: a history's value is ``u_i(h)``; ``v_i(sigma, I)`` is only the
  counterfactual value of an infoset.
- ``\tilde v(h)``, ``v(ha*)``: a sampled history value is ``\tilde u(h)`` (chapters 6 and 7).
- ``Q_j``: Monte Carlo CFR's sampling blocks are ``B_j`` (``Q^t`` is regret matching+'s value).
- ``pi(h, z)``, ``pi_i(ha, z)``, ``xi(h, z)``: a path probability is written ``pi(h -> z)``.
- ``c(I)``: chance's share of an infoset is ``pi_c(I)``; ``c(a)`` is outcome sampling's estimate
  of an action's value (chapter 7).
- Greek letters with two meanings: Kuhn's family parameter is ``omega`` (``alpha`` is DCFR's), an
  average regret is ``\bar R_i`` (``epsilon`` is outcome sampling's exploration), an increment is
  ``delta R`` (``Delta`` is the payoff range).

Beyond the retired forms: every Greek letter that two or more chapters use is in the introduction's
table, and a sentence that defines a letter of the table ("write $x$ for ...", "let $x$ be ...")
says what the table says.
"""

from __future__ import annotations

import re
from pathlib import Path

import notebook_cache
import pytest

ROOT = Path(__file__).resolve().parents[1]
RETIRED = {
    "a history's value written v_i(h...), v_0(h...) (use u_i(h...))":
        re.compile(r"(?<![A-Za-z\\])v_\{?[0-9ip]\}?\(h"),
    "a history's value written tilde v(h...) or v(ha...) (use tilde u(h...), u(ha...))":
        re.compile(r"\\tilde\s*v\(ha?\b|(?<![A-Za-z\\_])v\(ha\b"),
    "MCCFR's sampling blocks written Q_j (use B_j; Q^t is regret matching+'s stored value)":
        re.compile(r"(?<![A-Za-z\\])Q_\{?[0-9jr]\b"),   # not a card, Q_d
    "a path probability written (h, z) (use h -> z, or h \\to z)":
        re.compile(r"(?:pi|xi)[^\s(]{0,16}\((?:ha?|z\[h\]), ?z\)"),
    "chance's share of an infoset written c(I) (use pi_c(I))": re.compile(r"(?<![A-Za-z\\_])c\(I\)"),
    "regret matching+'s stored value written R_+ (use Q^t; R^{T,+} is the positive part of R^T)":
        re.compile(r"R_\{?\+"),
    "the parent sequence written p(I) (use parent(I))": re.compile(r"(?<![A-Za-z\\_])p\(I\)"),
    "outcome sampling's floor or the bound's sampling constant written delta (use xi_min, q_min)":
        re.compile(r"\\delta_i\b|\\delta\s*=\s*\\min"),
    "Kuhn's family parameter written alpha (use omega; alpha is DCFR's exponent)":
        re.compile(r"3\s*\\alpha|\\alpha\s*\+\s*(?:1\s*/\s*3|\\frac13|\\frac\{1\}\{3\})"),
    "an average regret written epsilon_i (use \\bar R_i; epsilon is outcome sampling's exploration)":
        re.compile(r"\\epsilon_[01i]\b"),
    "an increment written Delta R or Delta S (use delta; Delta is the payoff range)":
        re.compile(r"\\Delta\s*[RS](?![A-Za-z])"),
    "a counterfactual action value written q_i(I, a) (use v_i(sigma_{I -> a}, I) or v^BR_i(I, a))":
        re.compile(r"(?<![A-Za-z\\_])q_\{?[0-9ip]\}?\((?:I|h)"),
}
GREEK = re.compile(r"\\(alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|"
                   r"nu|xi|rho|varrho|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|"
                   r"Upsilon|Phi|Psi|Omega)(?![A-Za-z])")
MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$", re.S)
# "write $x$ for ...", "let $x$ be ...", "denote by $x$ ...": a sentence that gives a letter its meaning
DEFINITION = re.compile(r"\b(?:[Ww]rite|[Ll]et|[Dd]enote(?: by)?|[Cc]all)\s+\$([^$=]+)\$\s+(?:for|be|denote)\b([^.]*)")


def _texts():
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        for k, cell in enumerate(notebook_cache.read(path).cells):
            if cell.cell_type == "markdown" or cell.cell_type == "code":
                yield f"{path.name} cell {k}", cell.source
    for pattern in ("chapters/*.md", "cfrlib/**/*.py", "tests/*.py", "benchmarks/*.py"):
        for path in sorted(ROOT.glob(pattern)):
            if path.name != Path(__file__).name:
                yield str(path.relative_to(ROOT)), path.read_text()


def _chapter_prose():
    """Each chapter's markdown (the introduction counts as chapter 0), keyed by its number."""
    yield 0, (ROOT / "chapters" / "00_introduction.md").read_text()
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        cells = notebook_cache.read(path).cells
        yield int(path.name[:2]), "\n".join(c.source for c in cells if c.cell_type == "markdown")


def _notation_table():
    """The introduction's notation table: each Greek letter of its first column, with its row."""
    text = (ROOT / "chapters" / "00_introduction.md").read_text()
    rows = text.split("| symbol | meaning |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    table = {}
    for row in rows:
        symbols, meaning = row.strip("|").split("|", 1)
        for letter in GREEK.findall(symbols):
            table[letter] = table.get(letter, "") + meaning
    return table


def _words(text):
    return {w for w in re.findall(r"[a-z]{5,}", text.lower())}


def test_greek_letters_shared_by_chapters_are_in_the_table():
    used = {}
    for chapter, text in _chapter_prose():
        for match in MATH.finditer(text):
            for letter in GREEK.findall(match.group(0)):
                used.setdefault(letter, set()).add(chapter)
    table = _notation_table()
    missing = {letter: sorted(chapters) for letter, chapters in used.items()
               if len(chapters - {0}) >= 2 and letter not in table}
    assert not missing, f"used in two or more chapters, not in the introduction's table: {missing}"


def test_definitions_agree_with_the_table():
    table = _notation_table()
    wrong = []
    for chapter, text in _chapter_prose():
        for symbol, rest in DEFINITION.findall(text):
            letters = GREEK.findall(symbol)
            if chapter and letters and letters[0] in table and not _words(rest) & _words(table[letters[0]]):
                wrong.append(f"chapter {chapter}: ${symbol}$ {rest.strip()[:80]!r} "
                             f"(the table: {table[letters[0]].strip()!r})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("sentence, redefines", [
    (r"Write $\Delta$ for the range of the payoffs", False),
    (r"Let $\alpha$ be the probability of a bluff with the jack", True),
    (r"write $\alpha = 1.5$ for the discount", False),
])
def test_the_definition_check_sees_a_second_meaning(sentence, redefines):
    table = _notation_table()
    found = [(s, r) for s, r in DEFINITION.findall(sentence)
             if GREEK.findall(s) and not _words(r) & _words(table[GREEK.findall(s)[0]])]
    assert bool(found) == redefines


@pytest.mark.slow  # reads every chapter: make test only
def test_no_retired_notation():
    found = [f"{where}: {name}: {match.group(0)!r}"
             for where, text in _texts()
             for name, pattern in RETIRED.items()
             for match in pattern.finditer(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text", ["v_i(ha)", r"\pi^\sigma(h, z)", r"\pi^{\sigma}_i(ha, z)", "xi(h, z)",
                                  "$c(I)$", "R_+(a)", "R_{+}^T", "x(p(I))", r"q(z) \ge \delta_i",
                                  r"$3\alpha$", r"\alpha + 1/3", r"\epsilon_0 + \epsilon_1", r"\Delta R(I, a)",
                                  r"\Delta S_{m,k}", "q_i(I, a)"])
def test_the_check_sees_each_retired_form(text):
    assert any(pattern.search(text) for pattern in RETIRED.values())


@pytest.mark.parametrize("text", ["v_i(\\sigma, I)", r"\pi^\sigma(h \to z)", "u_i(ha)", "pi_i(h -> z)",
                                  r"\pi_c(I)", "pi_c(I)", "c(a^*)", "R^{T,+}(I, a)", r"\mathrm{parent}(I)",
                                  r"\delta_t", "Q^t(a)", r"\alpha = 1.5", r"\Delta \sqrt{|A|}", r"\bar R_0",
                                  r"\delta R(I, a)", r"v^{\mathrm{BR}}_i(I, a)", "q(z)"])
def test_the_check_lets_the_current_forms_pass(text):
    assert not any(pattern.search(text) for pattern in RETIRED.values())
