"""The README's Python examples run, and print what their comments say they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
EXAMPLES = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("source", EXAMPLES, ids=lambda s: s.splitlines()[0][:40])
def test_a_readme_example_prints_what_it_says(source):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, "README.md", "exec"), {})
    shown = [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", printed.getvalue())]
    said = [m.group(1) for line in source.splitlines() if line.startswith("print(")
            for m in [re.search(r"#\s*(-?\d+\.(\d+))", line)] if m]
    assert said, "an example should say in a comment what one of its lines prints"
    for number in said:
        # the comment rounds: some printed number must round to it
        half = 0.5 * 10.0 ** -len(number.split(".")[1])
        assert any(abs(x - float(number)) <= half * (1 + 1e-9) for x in shown), (number, shown)
