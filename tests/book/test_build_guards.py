"""The book's guards fail when they should.

Each test makes a small book or notebook in a temporary folder, with this repository's own
configuration (pytest.ini, the nbval sanitize file, _config.yml, the build script), and checks
that `make test` would fail on a notebook that raises or whose printed number changed, and that
`make book` would fail on a broken cross-reference, on a notebook missing from _toc.yml and on
a notebook that raises while the book executes it. A clean twin of each case passes, so each
failure is caused by the one defect put in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def _notebook(path: Path, cells: list[tuple[str, str | None]], title: str | None = None) -> None:
    """Write a notebook of code cells, each with the stdout saved as its output (or none),
    after a markdown cell ``title`` if given."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    if title is not None:
        nb.cells.append(nbformat.v4.new_markdown_cell(title))
    for count, (source, saved_stdout) in enumerate(cells, start=1):
        cell = nbformat.v4.new_code_cell(source, execution_count=count)
        if saved_stdout is not None:
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=saved_stdout)]
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


# ---------------------------------------------------------------------------------- make test

def test_nbval_fails_on_error_and_on_changed_number(tmp_path):
    shutil.copy(ROOT / "pytest.ini", tmp_path / "pytest.ini")
    (tmp_path / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "nbval_sanitize.cfg", tmp_path / "tests" / "nbval_sanitize.cfg")
    chapters = tmp_path / "chapters"
    # The clean twin also shows the sanitizing at work: another memory address is no change.
    _notebook(chapters / "clean.ipynb", [
        ("print(6 * 7)", "42\n"),
        ("print(object())", "<object object at 0x7f00deadbeef>\n"),
    ])
    _notebook(chapters / "raises.ipynb", [("print(6 * 7)", "42\n"), ("1 / 0", "")])
    _notebook(chapters / "changed_number.ipynb", [("print(6 * 7)", "41\n")])

    report = tmp_path / "report.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={report}"],
        cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=600,
    )
    outcome: dict[str, list[str]] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        failed = any(child.tag in ("failure", "error") for child in case)
        outcome.setdefault(case.get("classname") or case.get("file") or "", []).append(
            "failed" if failed else "passed")
    by_notebook = {name: sum((v for k, v in outcome.items() if name in k), [])
                   for name in ("clean", "raises", "changed_number")}

    assert run.returncode == 1, run.stdout[-3000:]
    assert by_notebook["clean"] == ["passed", "passed"], run.stdout[-3000:]
    assert "failed" in by_notebook["raises"], run.stdout[-3000:]
    assert "ZeroDivisionError" in run.stdout
    assert by_notebook["changed_number"] == ["failed"], run.stdout[-3000:]
    assert "41" in run.stdout and "42" in run.stdout


# ---------------------------------------------------------------------------------- make book

INTRO = """(intro)=
# A small book

Some math, $\\sigma^t(I, a)$, and a citation {cite:p}`zinkevich2007regret`.

```{bibliography}
```
"""


def _small_book(root: Path, *, intro_extra: str = "", orphan: bool = False,
                notebook_raises: bool = False) -> None:
    """An introduction and one chapter notebook, with the repository's _config.yml and tools/."""
    shutil.copy(ROOT / "_config.yml", root / "_config.yml")
    shutil.copy(ROOT / "references.bib", root / "references.bib")
    shutil.copytree(ROOT / "tools", root / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    chapters = root / "chapters"
    chapters.mkdir()
    (chapters / "intro.md").write_text(INTRO + intro_extra)
    _notebook(chapters / "chapter.ipynb",
              [("print(6 * 7)", "42\n"), ("1 / 0" if notebook_raises else "print('done')", None)],
              title="# A chapter\n\nBack to the {ref}`intro`.")
    if orphan:
        _notebook(chapters / "orphan.ipynb", [("print(1)", "1\n")], title="# Not in the toc")
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: chapters/intro\nparts:\n"
        "  - caption: Part\n    chapters:\n      - file: chapters/chapter\n"
    )


def _build(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ROOT / "tools" / "build-book"), str(root)],
        env=_env(), capture_output=True, text=True, timeout=600,
    )


@pytest.mark.parametrize(
    "defect, book_options, expected_message",
    [
        (None, {}, None),
        ("broken cross-reference", {"intro_extra": "\nSee {ref}`no-such-label`.\n"},
         "undefined label: 'no-such-label'"),
        ("notebook missing from the toc", {"orphan": True},
         "document isn't included in any toctree"),
        ("notebook that raises", {"notebook_raises": True}, "ZeroDivisionError"),
    ],
    ids=["clean", "broken-reference", "missing-toc-entry", "notebook-raises"],
)
def test_book_build_fails_on_defect(tmp_path, defect, book_options, expected_message):
    _small_book(tmp_path, **book_options)
    run = _build(tmp_path)
    log = run.stdout + run.stderr
    if defect is None:
        assert run.returncode == 0, log[-4000:]
        assert (tmp_path / "_build" / "html" / "chapters" / "chapter.html").is_file()
        assert "front page:" in run.stdout
    else:
        assert run.returncode != 0, f"the build passed despite a {defect}:\n{log[-4000:]}"
        assert expected_message in log, log[-4000:]
