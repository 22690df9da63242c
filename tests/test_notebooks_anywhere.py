"""Every chapter runs from a copy of its .ipynb alone, with cfrlib and cfrbook installed from a wheel.

What a reader gets from the book's "download .ipynb" button is one notebook file. This test
builds a wheel of this repository (both packages) and installs it into a fresh virtual
environment whose other packages are those of the test's own environment (a ``.pth`` line
points at its site-packages, whose editable install of the checkout is not read from there), so
nothing of the repository is on the kernel's path and no package is downloaded twice. Then:

* the solvers compile their passes into a numba cache of the wheel's own (``NUMBA_CACHE_DIR``)
  and load them back;
* one chapter (one without compiled walks, which numba would compile again for the wheel) is
  copied alone into an empty folder and executed there from top to bottom by that
  environment's kernel (tools/execute-notebooks), with the same numba cache;
* every chapter's imports run in that environment, from an empty folder;
* no chapter names a file of the repository (a path that exists beside the chapters or at the
  root), and every recorded data set a chapter loads comes with the wheel.

Every chapter runs in full under strict nbval (make test), so running each a second time here
would only test the packaging again.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import notebook_cache
import pytest

pytestmark = pytest.mark.wheel
ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
# CFR on Kuhn with an explorer and the play widget, no compiled walks: 4 s of CPU under nbval,
# a third of chapter 3 (every chapter's imports are checked from the wheel below).
RUN_IN_FULL = "02_cfr_on_kuhn_poker"


def _clean_env(wheel_env: Path | None = None) -> dict[str, str]:
    """The environment without anything that points into this repository's .venv (nor numba's
    settings); with ``wheel_env``, numba's cache is that environment's own, beside it."""
    drop = ("JUPYTER_PATH", "PYTHONPATH", "VIRTUAL_ENV", "PYTEST_", "COV_", "NUMBA_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    if wheel_env is not None:
        env["NUMBA_CACHE_DIR"] = str(wheel_env.parents[2] / "numba")
    return env


def _code(chapter: Path) -> list[str]:
    cells = notebook_cache.read(chapter).cells
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory) -> Path:
    """The python of a fresh virtual environment holding cfrlib's wheel."""
    root = tmp_path_factory.mktemp("anywhere")
    env = _clean_env()
    source = root / "source"            # built from a copy: setuptools writes build/ in place
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in ("cfrlib", "cfrbook"):
        shutil.copytree(ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(root / "wheel"), str(source)],
                   check=True, env=env, capture_output=True, text=True)
    (wheel,) = (root / "wheel").glob("cfrlib-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "book_environment.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--target", str(site), str(wheel)],
                   check=True, env=env, capture_output=True, text=True)
    return python


def test_the_wheel_carries_both_packages_and_the_data_and_not_the_checkout(wheel_env, tmp_path):
    probe = subprocess.run(
        [str(wheel_env), "-c", "import cfrlib, cfrbook.datasets as d; print(cfrlib.__file__); "
         "print(d.__file__); print(all(d.load_json(name) for name in d.NAMES))"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, check=True)
    *locations, loaded = probe.stdout.splitlines()
    for location in locations:
        assert str(location).startswith(str(wheel_env.parents[1])), location
    assert loaded == "True"


def test_solvers_run_from_the_wheel_with_their_own_numba_cache(wheel_env, tmp_path):
    """Used from another directory, the wheel's first process compiles its best-response passes
    into ``NUMBA_CACHE_DIR`` (the override of numba's cache place), the second loads them, and
    both give this checkout's numbers. (The sequence form's passes, the cheapest of cfrlib's
    compiled code to compile cold: 2 s of CPU against 4 for a sampling walk, cached by the
    same numba mechanism; the chapter run below loads them from there.)"""
    import cfrlib
    from cfrlib import games

    script = ("import cfrlib; from cfrlib import games; print(cfrlib.__file__); "
              "print(cfrlib.exploitability(games.leduc(), cfrlib.uniform_strategy(games.leduc())))")
    env = _clean_env(wheel_env)
    cache = Path(env["NUMBA_CACHE_DIR"])
    runs = [subprocess.run([str(wheel_env), "-c", script], cwd=tmp_path, env=env, check=True,
                           capture_output=True, text=True).stdout.splitlines() for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0][0].startswith(str(wheel_env.parents[1]))
    assert any(cache.rglob("*sequence_form*.nbi"))
    assert runs[0][1] == str(cfrlib.exploitability(games.leduc(), cfrlib.uniform_strategy(games.leduc())))


def test_a_chapter_runs_alone(wheel_env, tmp_path):
    (chapter,) = [c for c in CHAPTERS if c.stem == RUN_IN_FULL]
    copy = tmp_path / chapter.name
    shutil.copy(chapter, copy)
    run = subprocess.run(
        [str(wheel_env), str(ROOT / "tools" / "execute-notebooks"), "--frames", "opening",
         "--limit", "600", str(copy)],
        cwd=tmp_path, env=_clean_env(wheel_env), capture_output=True, text=True)
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".ipynb") == [chapter.name]


def _imports(chapter: Path) -> list[str]:
    """The import statements of a chapter's code cells, as source lines."""
    found = []
    for source in _code(chapter):
        try:
            tree = ast.parse(source)
        except SyntaxError:           # an exercise skeleton with IPython syntax: none here
            continue
        found += [ast.unparse(node) for node in ast.walk(tree)
                  if isinstance(node, (ast.Import, ast.ImportFrom))]
    return found


def test_every_chapters_imports_resolve_from_the_wheel(wheel_env, tmp_path):
    script = "\n".join(dict.fromkeys(line for c in CHAPTERS for line in _imports(c)))
    assert "import cfrlib" in script
    run = subprocess.run([str(wheel_env), "-c", script + "\nprint(cfrlib.__file__)"],
                         cwd=tmp_path, env=_clean_env(), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().startswith(str(wheel_env.parents[1]))


_STRING = re.compile(r"""["']([\w./-]+\.[a-z]{2,5})["']""")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_chapter_reads_a_file_of_the_repository(chapter):
    """A file name in a chapter's code may be one it writes and reads itself, never one that
    exists in the checkout (beside the chapters or at the root)."""
    named = {m.group(1) for source in _code(chapter) for m in _STRING.finditer(source)}
    from_checkout = sorted(name for name in named
                           if (chapter.parent / name).is_file() or (ROOT / name).is_file())
    assert not from_checkout, f"{chapter.name} reads files of the repository: {from_checkout}"
    from cfrbook import datasets
    for source in _code(chapter):
        for name in re.findall(r"load_json\(\s*[\"'](\w+)[\"']", source):
            assert name in datasets.NAMES, (chapter.name, name)


def test_an_unknown_data_set_is_a_clear_error():
    import cfrlib
    from cfrbook import datasets

    with pytest.raises(cfrlib.CfrlibError, match="no recorded data set 'curves'; there are "
                                                 "comparison, sampling_curves, lp_vs_cfr, distributed, frontier_curves, "
                                                 "subgame_study, sampling_rules, regret_pruning, vr_mccfr, public_chance, "
                                                 "deep_cfr"):
        datasets.load_json("curves")
