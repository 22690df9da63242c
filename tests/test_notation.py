"""One symbol per quantity (the introduction's notation table): the retired forms appear nowhere in
the chapters' prose, in cfrlib's docstrings and comments or in the tests.

- ``v_i(h)``, ``v_i(ha)``: a history's value is ``u_i(h)``; ``v_i(sigma, I)`` is only the
  counterfactual value of an infoset.
- ``pi(h, z)``, ``pi_i(ha, z)``, ``xi(h, z)``: a path probability is written ``pi(h -> z)``.
- ``c(I)``: chance's share of an infoset is ``pi_c(I)``; ``c(a)`` is outcome sampling's estimate
  of an action's value (chapter 7).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
RETIRED = {
    "a history's value written v_i(h...) (use u_i(h...))": re.compile(r"(?<![A-Za-z\\])v_i\(h"),
    "a path probability written (h, z) (use h -> z, or h \\to z)":
        re.compile(r"(?:pi|xi)[^\s(]{0,16}\((?:ha?|z\[h\]), ?z\)"),
    "chance's share of an infoset written c(I) (use pi_c(I))": re.compile(r"(?<![A-Za-z\\_])c\(I\)"),
    "regret matching+'s stored value written R_+ (use Q^t; R^{T,+} is the positive part of R^T)":
        re.compile(r"R_\{?\+"),
    "the parent sequence written p(I) (use parent(I))": re.compile(r"(?<![A-Za-z\\_])p\(I\)"),
    "outcome sampling's floor or the bound's sampling constant written delta (use xi_min, q_min)":
        re.compile(r"\\delta_i\b|\\delta\s*=\s*\\min"),
}


def _texts():
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        for k, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "markdown" or cell.cell_type == "code":
                yield f"{path.name} cell {k}", cell.source
    for pattern in ("chapters/*.md", "cfrlib/**/*.py", "tests/*.py", "benchmarks/*.py"):
        for path in sorted(ROOT.glob(pattern)):
            if path.name != Path(__file__).name:
                yield str(path.relative_to(ROOT)), path.read_text()


def test_no_retired_notation():
    found = [f"{where}: {name}: {match.group(0)!r}"
             for where, text in _texts()
             for name, pattern in RETIRED.items()
             for match in pattern.finditer(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("text", ["v_i(ha)", r"\pi^\sigma(h, z)", r"\pi^{\sigma}_i(ha, z)", "xi(h, z)",
                                  "$c(I)$", "R_+(a)", "R_{+}^T", "x(p(I))", r"q(z) \ge \delta_i"])
def test_the_check_sees_each_retired_form(text):
    assert any(pattern.search(text) for pattern in RETIRED.values())


@pytest.mark.parametrize("text", ["v_i(\\sigma, I)", r"\pi^\sigma(h \to z)", "u_i(ha)", "pi_i(h -> z)",
                                  r"\pi_c(I)", "pi_c(I)", "c(a^*)", "R^{T,+}(I, a)", r"\mathrm{parent}(I)",
                                  r"\delta_t", "Q^t(a)"])
def test_the_check_lets_the_current_forms_pass(text):
    assert not any(pattern.search(text) for pattern in RETIRED.values())
