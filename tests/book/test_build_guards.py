"""The book's guards fail when they should, and neither command can hang on a kernel.

Each test makes a small book or notebook in a temporary folder, with this repository's own
configuration (pytest.ini, conftest.py with tools/nbval_watchdog.py, the nbval sanitize file,
_config.yml, the build script), and checks that `make test` would fail on a notebook that raises or whose printed
number changed, and that `make book` would fail on a broken cross-reference, on a notebook
missing from _toc.yml, on a notebook saved unexecuted, on one that saved an error, on a quoted
number with no stored result and on an explorer saved without all its frames. The defects of
the book share one build, each in its own notebook, and the log must name each at its place and
say nothing of the clean twins beside them.

A kernel that stops answering (a cell that sends SIGSTOP to its own kernel: alive, silent,
idle) fails `make test` fast, after one restart, with "kernel stopped answering"; a notebook
whose kernel stops only once passes after the restart. The book build starts no kernel at all.
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import collector
import nbformat
import psutil
import pytest

pytestmark = pytest.mark.book
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def _notebook(path: Path, cells: list, title: str | None = None) -> None:
    """Write a notebook of code cells, after a markdown cell ``title`` if given. A cell is
    ``(source, saved_stdout)``, executed in order with that stdout as its output (none if None),
    or a ready cell (for the unexecuted and error cases)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    if title is not None:
        nb.cells.append(nbformat.v4.new_markdown_cell(title))
    for count, item in enumerate(cells, start=1):
        if isinstance(item, tuple):
            source, saved_stdout = item
            cell = nbformat.v4.new_code_cell(source, execution_count=count)
            if saved_stdout is not None:
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=saved_stdout)]
        else:
            cell = item
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


# ---------------------------------------------------------------------------------- make test

def _test_setup(root: Path) -> Path:
    """The test configuration of this repository in ``root``; returns its chapters folder."""
    for name in ("pytest.ini", "conftest.py", "tools/nbval_watchdog.py", "tools/collector.py",
                 "tools/user_expressions.py", "tools/frame_check.py", "tools/figure_layout.py",
                 "tools/kernel_zygote.py",
                 "tools/figure_looks.py", "tests/nbval_sanitize.cfg"):
        (root / name).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, root / name)
    return root / "chapters"


QUOTE = 'The answer is {eval}`f"{6 * 7 / 100:.1%}"` of {eval}`x`.'


def _quote(stored: dict[str, str] | None, text: str = QUOTE) -> nbformat.NotebookNode:
    """A markdown cell quoting numbers with ``{eval}`` (by default two); ``stored`` gives the
    text/plain result stored for each expression (None: nothing stored)."""
    cell = nbformat.v4.new_markdown_cell(text)
    if stored is not None:
        cell.metadata["user_expressions"] = [
            {"expression": expression, "result": {"status": "ok", "metadata": {},
                                                  "data": {"text/plain": text}}}
            for expression, text in stored.items()]
    return cell


def _outcomes(report: Path) -> dict[str, list[str]]:
    """passed/failed of each test case in a junit report, by notebook file name."""
    outcome: dict[str, list[str]] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        failed = any(child.tag in ("failure", "error") for child in case)
        name = (case.get("classname") or "").removeprefix("chapters.").removesuffix(".ipynb")
        outcome.setdefault(name, []).append("failed" if failed else "passed")
    return outcome


def _pytest(root: Path, env: dict[str, str],
            *options: str) -> tuple[subprocess.CompletedProcess, dict[str, list[str]]]:
    """Run pytest (with the copied configuration and ``options``) in ``root`` with ``env`` added
    to the environment; the run and each notebook's outcomes. The timeout bounds a run whose
    watchdog failed, far below nbval's cell timeout of pytest.ini."""
    report = root / "report.xml"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, f"--junitxml={report}"],
        cwd=root, env={**_env(), **env}, capture_output=True, text=True, timeout=240,
    )
    return run, _outcomes(report)


FIGURE = ("import matplotlib.pyplot as plt\n"
          "fig, ax = plt.subplots(layout='constrained')\n"
          "ax.plot([0, 1], [0, 1], label='diagonal')\n"
          "ax.set_title('a curve')\n"
          "ax.legend(loc='{where}')\n"
          "fig.savefig(__import__('io').BytesIO(), format='png')\n"
          "plt.close(fig)\n"
          "print('drawn')")


# Round-off (nbval_sanitize.cfg): a gap below 1e-11, printed or quoted, may differ in its last
# bits from the one saved on another CPU.
ROUND_OFF = "gap = {gap}\nprint(f'{{-gap:.1e}} {{0.0:.1e}}')"
GAP = 'The two agree to {eval}`f"{gap:.0e}"`.'
GAP_SAVED = {'f"{gap:.0e}"': "'4e-17'"}

STOP_KERNEL = "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)  # alive, silent, idle"
STOP_ONCE = ("import os, pathlib, signal\nmarker = pathlib.Path('../stop-once')\n"
             "if marker.exists():\n    marker.unlink()\n    os.kill(os.getpid(), signal.SIGSTOP)\n"
             "print(x + 1)")


@pytest.fixture(scope="module")
def nbval_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, dict[str, list[str]]]:
    """One pytest run as make test runs the chapters (two workers, whole notebooks on one), with
    a kernel stall of 5 s, over four notebooks: every defect of the tests below in a cell of its
    own in one, their clean twins in another (each kernel start costs about 2 s of CPU, its
    figure check's matplotlib included), and two whose kernel stops answering, for good or
    once. The first kernel the run starts dies before answering (as when another process takes
    one of its ports between their choice and its bind), so that the run also shows it started
    once more."""
    root = tmp_path_factory.mktemp("nbval")
    chapters = _test_setup(root)
    startup = root / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (root / "die-once").touch()
    (root / "stop-once").touch()
    (startup / "00-die-once.py").write_text(    # two kernels may start at once: one dies
        "import os, pathlib\ntry:\n    pathlib.Path(%r).unlink()\nexcept FileNotFoundError:\n"
        "    pass\nelse:\n    os._exit(1)\n" % str(root / "die-once"))
    current = {'f"{6 * 7 / 100:.1%}"': "'42.0%'", "x": "42"}
    timing = _quote({**current, "x": "41"})          # a measurement: not compared, like its code
    timing.metadata["tags"] = ["nbval-ignore-output"]
    # Cells 0-1: printed numbers (another memory address is no change); 2-3: quoted numbers,
    # current and a timing; 4: a legible figure; 5: the kernel's garbage-collector thresholds;
    # 6: round-off printed and quoted, another CPU's last bits saved.
    _notebook(chapters / "clean.ipynb", [
        ("print(6 * 7)", "42\n"),
        ("print(object())", "<object object at 0x7f00deadbeef>\n"),
        ("x = 6 * 7", None), _quote(current),
        ("print(x)", "42\n"), timing,
        (FIGURE.format(where="upper left"), "drawn\n"),
        ("import gc\nprint(gc.get_threshold())", f"{collector.GC_THRESHOLDS}\n"),
        (ROUND_OFF.format(gap=1e-17), "-5.6e-17 0.0e+00\n"), _quote(GAP_SAVED, GAP),
    ])
    # Cells 0-1: an error, a changed number; 2-3: quoted numbers, stale and never stored; 4: a
    # legend over the data; 5-6: a gap of 1e-9 where round-off was saved, printed and quoted.
    _notebook(chapters / "defects.ipynb", [
        ("1 / 0", ""),
        ("print(6 * 7)", "41\n"),
        ("x = 6 * 7", None), _quote({**current, "x": "41"}),
        ("print(x)", "42\n"), _quote(None),
        (FIGURE.format(where="center"), "drawn\n"),
        (ROUND_OFF.format(gap=1e-9), "-5.6e-17 0.0e+00\n"),
        ("print('quoted below')", "quoted below\n"), _quote(GAP_SAVED, GAP),
    ])
    _notebook(chapters / "stops_for_good.ipynb",
              [("x = 6 * 7\nprint(x)", "42\n"), (STOP_KERNEL, None), ("print(x)", "42\n")])
    _notebook(chapters / "stops_once.ipynb",
              [("x = 6 * 7\nprint(x)", "42\n"), (STOP_ONCE, "43\n"), ("print(x)", "42\n")])
    run, outcome = _pytest(root, {"IPYTHONDIR": str(root / "ipython")}, "-n", "2", "--dist",
                           "loadfile", "-o", "nbval_kernel_stall=5")
    return run, outcome | {"died once": [str(not (root / "die-once").exists())],
                           "kernels left": [str(pid) for pid in _kernels_in(chapters)]}


def test_nbval_fails_on_error_and_on_changed_number(nbval_run):
    run, outcome = nbval_run
    assert run.returncode == 1, run.stdout[-3000:]
    assert outcome["clean"][:2] == ["passed", "passed"], run.stdout[-3000:]
    assert outcome["defects"][:2] == ["failed", "failed"], run.stdout[-3000:]
    assert "ZeroDivisionError" in run.stdout
    assert "41" in run.stdout and "42" in run.stdout


def test_nbval_fails_fast_when_a_kernel_stops_answering(nbval_run):
    """A kernel that stops answering for good fails its cell after one restart and replay, with
    a message naming the notebook, and the notebook's later cells fail at once; a kernel that
    stops only once is restarted and its notebook passes. The run is bounded by the timeout of
    _pytest, far shorter than nbval's cell timeout of pytest.ini."""
    run, outcome = nbval_run
    assert run.returncode == 1, run.stdout[-3000:]
    assert outcome["stops_for_good"] == ["passed", "failed", "failed"], run.stdout[-3000:]
    assert ("chapters/stops_for_good.ipynb, cell 1: kernel stopped answering: no reply and no "
            "CPU used by the kernel for 5 s (again, after a restart of the kernel)") in run.stdout
    assert ("chapters/stops_for_good.ipynb, cell 2: not run: the notebook's kernel stopped "
            "answering at cell 1") in run.stdout
    assert outcome["stops_once"] == ["passed", "passed", "passed"], run.stdout[-3000:]
    assert "stops_once.ipynb, cell 1: kernel stopped answering" in run.stdout
    assert "restarted the kernel, replayed the cells before cell 1 and ran it again" in run.stdout
    assert outcome["kernels left"] == [], "a kernel of the run was left behind"


def test_a_kernel_that_dies_while_starting_is_started_again(nbval_run):
    """The run's first kernel died before answering: it is started once more, and its notebook
    gives the outcomes the other tests expect."""
    run, outcome = nbval_run
    assert outcome["died once"] == ["True"]
    assert "Kernel died before replying" in run.stdout and "starting it again" in run.stdout


def test_the_test_processes_and_kernels_collect_garbage_at_the_set_thresholds(nbval_run):
    """tools/nbval_watchdog.py sets tools/collector.py's thresholds in each test process and in
    each kernel it starts (the clean notebook's last cell prints the kernel's)."""
    run, outcome = nbval_run
    assert gc.get_threshold() == collector.GC_THRESHOLDS != (700, 10, 10)
    assert outcome["clean"][5:6] == ["passed"], run.stdout[-3000:]


def test_nbval_fails_on_a_stale_or_missing_quoted_number(nbval_run):
    """Strict nbval compares code cells only; tools/nbval_watchdog.py also evaluates the {eval}
    expressions of the markdown cells after each code cell and compares them with the stored
    results (not those of a cell quoting a measurement, tagged like its code cell)."""
    run, outcome = nbval_run
    assert run.returncode == 1, run.stdout[-3000:]
    assert outcome["clean"][2:4] == ["passed", "passed"], run.stdout[-3000:]
    assert outcome["defects"][2:4] == ["failed", "failed"], run.stdout[-3000:]
    assert ("chapters/defects.ipynb: numbers quoted in the prose went stale; re-execute the "
            "notebook") in run.stdout
    assert "cell 3 (markdown): {eval}`x` shows 41 (stored) but evaluates to 42" in run.stdout
    assert ("cell 5 (markdown): {eval}`x` has no stored result (it evaluates to 42)"
            in run.stdout)


def test_nbval_fails_on_a_figure_a_reader_cannot_read(nbval_run):
    """tools/nbval_watchdog.py checks every figure a cell saves as an image, inline or not
    (tools/figure_layout.py), and fails the cell naming the figure and the texts; the legible
    twin passes."""
    run, outcome = nbval_run
    assert run.returncode == 1, run.stdout[-3000:]
    assert outcome["clean"][4:5] == ["passed"], run.stdout[-3000:]
    assert outcome["defects"][4:5] == ["failed"], run.stdout[-3000:]
    assert ("chapters/defects.ipynb, cell 4: 1 problem(s) with the text of its figures, as the "
            "page shows them:\n  figure 'a curve': the legend ('diagonal') covers points of "
            "'diagonal'") in run.stdout


def test_round_off_may_differ_and_a_larger_gap_may_not(nbval_run):
    """Numbers below 1e-11 in scientific notation, printed or quoted, are round-off
    (tests/nbval_sanitize.cfg): another CPU's last bits pass; a gap of 1e-9 where round-off was
    saved fails, printed and quoted."""
    run, outcome = nbval_run
    assert outcome["clean"][6:] == ["passed"], run.stdout[-3000:]
    assert outcome["defects"][5:] == ["failed", "failed"], run.stdout[-3000:]
    assert "'ROUNDOFF ROUNDOFF\\n' == '-1.0e-09 ROUNDOFF\\n'" in run.stdout
    assert "{eval}`f\"{gap:.0e}\"` shows '4e-17' (stored) but evaluates to '1e-09'" in run.stdout


def _kernels_in(folder: Path) -> list[int]:
    """Kernel processes still running (or stopped) with ``folder`` as working directory."""
    found = []
    for process in psutil.process_iter(["cmdline"]):
        try:
            if ("ipykernel_launcher" in " ".join(process.info["cmdline"] or [])
                    and Path(process.cwd()) == folder):
                found.append(process.pid)
        except psutil.Error:
            pass
    return found


# ---------------------------------------------------------------------------------- make book

INTRO = """(intro)=
# A small book

Some math, $\\sigma^t(I, a)$, and a citation {cite:p}`zinkevich2007regret`.

```{bibliography}
```
"""


UNEXECUTED = nbformat.v4.new_code_cell("print('done')")
SAVED_ERROR = nbformat.v4.new_code_cell("1 / 0", execution_count=2, outputs=[
    nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                           traceback=[])])


def _explorer_cell(frame_of: list) -> nbformat.NotebookNode:
    """A code cell whose saved output is an explorer's static page with these ``frame_of``."""
    data = {"axes": [{"name": "x", "labels": ["0", "1"], "kind": "range", "default": 0}],
            "shape": [2], "frame_of": frame_of, "images": ["iVBORw0KGgo="], "texts": [""],
            "interval": 1000}
    page = (f'<div class="cfrlib-explorer"><script type="application/json" '
            f'class="cfrlib-explorer-data">{json.dumps(data)}</script></div>')
    return nbformat.v4.new_code_cell("show()", execution_count=2, outputs=[
        nbformat.v4.new_output("display_data", data={"text/html": page, "text/plain": "Explorer"})])


def _small_book(root: Path, chapters: dict[str, list], *, intro_extra: str = "",
                orphan: bool = False) -> None:
    """An introduction and one notebook per entry of ``chapters`` (``{name: cells}``, each after
    a title cell), with the repository's _config.yml and tools/."""
    shutil.copy(ROOT / "_config.yml", root / "_config.yml")
    shutil.copy(ROOT / "references.bib", root / "references.bib")
    shutil.copytree(ROOT / "tools", root / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    folder = root / "chapters"
    folder.mkdir()
    (folder / "intro.md").write_text(INTRO + intro_extra)
    for name, cells in chapters.items():
        _notebook(folder / f"{name}.ipynb", cells,
                  title=f"# Chapter {name}\n\nBack to the {{ref}}`intro`.")
    if orphan:
        _notebook(folder / "orphan.ipynb", [("print(1)", "1\n")], title="# Not in the toc")
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: chapters/intro\nparts:\n  - caption: Part\n    chapters:\n"
        + "".join(f"      - file: chapters/{name}\n" for name in chapters))


def _build(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ROOT / "tools" / "build-book"), str(root)],
        env=_env(), capture_output=True, text=True, timeout=300,
    )


DEFECTS = {   # notebook: (its cells after print(6 * 7), the message that names its defect)
    "unexecuted": (UNEXECUTED, "code cell 1 was not executed"),
    "saved_error": (SAVED_ERROR, "code cell 1 saved an error: ZeroDivisionError"),
    "unstored_quote": (_quote(None),
                       'cell 2 (markdown): {eval}`f"{6 * 7 / 100:.1%}"` has no stored result'),
    "missing_frames": (_explorer_cell([0, None]),
                       "code cell 1: an explorer lacks 1 of its frames (saved without "
                       "CFRLIB_EXPLORER_FRAMES=all)"),
}
CLEAN = {     # notebooks without a defect: the build says nothing about them
    "chapter": [("print(6 * 7)", "42\n"), (STOP_KERNEL, None),
                _quote({'f"{6 * 7 / 100:.1%}"': "'42.0%'", "x": "42"})],
    "explorer": [("print(6 * 7)", "42\n"), _explorer_cell([0, 0])],
}


@pytest.fixture(scope="module")
def book_build(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """One build (a build costs about 6 s of CPU) of a book with every defect, each in its own
    notebook (or in the introduction, or a notebook left out of the toc), beside clean twins."""
    root = tmp_path_factory.mktemp("book")
    _small_book(root, {**CLEAN, **{name: [("print(6 * 7)", "42\n"), cell]
                                   for name, (cell, _) in DEFECTS.items()}},
                intro_extra="\nSee {ref}`no-such-label`.\n", orphan=True)
    return root, _build(root)


def test_book_build_fails_on_each_defect_and_names_it(book_build):
    """The build fails and its log names each defect at its notebook, and no line of it names
    a clean twin, so each failure is caused by its own defect."""
    _, run = book_build
    log = run.stdout + run.stderr
    assert run.returncode != 0, f"the build passed despite its defects:\n{log[-4000:]}"
    problems = [line for line in log.splitlines() if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", line)]
    for name, (_, message) in DEFECTS.items():
        assert any(f"{name}" in line and message in line for line in problems), (name, log[-4000:])
    assert "undefined label: 'no-such-label'" in log, log[-4000:]
    assert "document isn't included in any toctree" in log and "orphan" in log, log[-4000:]
    for name in CLEAN:
        assert not [line for line in problems if f"chapters/{name}." in line], (name, log[-4000:])


def test_the_book_builds_without_a_kernel_and_shows_the_stored_quotes(book_build):
    """Built from the saved outputs: were a kernel started, the cell that stops its own kernel
    would make the build sit until the timeout of _build; it finishes and starts none. Each
    {eval} expression shows its stored result, strings without their quotes (as
    jupyterlab-myst shows them), and the clean twins' pages are written."""
    root, run = book_build
    assert "Executing notebook" not in run.stdout + run.stderr
    page = (root / "_build" / "html" / "chapters" / "chapter.html").read_text()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "The answer is 42.0% of 42 ." in text, text[-2000:]
    assert (root / "_build" / "html" / "chapters" / "explorer.html").is_file()


def test_quoted_expressions_are_found_in_directives_not_in_code():
    sys.path.insert(0, str(ROOT / "tools"))
    import user_expressions

    source = ("Once {eval}`x`.\n\n```{admonition} Note\nTwice {eval}`f\"{y:.2f}\"`.\n```\n\n"
              "```python\nprint('{eval}`z`')\n```\n")
    assert user_expressions.expressions(source) == ["x", 'f"{y:.2f}"']
