"""Every chapter runs from a copy of its .ipynb alone, with cfrlib installed from a wheel.

What a reader gets from the book's "download .ipynb" button is one notebook file. This test
builds a wheel of this repository, installs it with the pinned requirements into a fresh
virtual environment, copies each chapter alone into an empty folder and executes it there with
that environment's kernel (tools/execute-notebooks). The recorded curves some chapters plot come
with the wheel (cfrlib/data, read through cfrlib.datasets); nothing of the repository is on the
kernel's path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))


def _clean_env() -> dict[str, str]:
    """The environment without anything that points into this repository's .venv."""
    drop = ("JUPYTER_PATH", "PYTHONPATH", "VIRTUAL_ENV", "PYTEST_", "COV_")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


@pytest.fixture(scope="module")
def wheel_env(tmp_path_factory) -> Path:
    """The python of a fresh virtual environment holding cfrlib's wheel and requirements.txt."""
    root = tmp_path_factory.mktemp("anywhere")
    env = _clean_env()
    source = root / "source"            # built from a copy: setuptools writes build/ in place
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "cfrlib", source / "cfrlib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(root / "wheel"), str(source)],
                   check=True, env=env, capture_output=True, text=True)
    (wheel,) = (root / "wheel").glob("cfrlib-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-r", str(ROOT / "requirements.txt"), str(wheel)],
                   check=True, env=env, capture_output=True, text=True)
    return python


def test_the_wheel_carries_the_data_and_not_the_checkout(wheel_env, tmp_path):
    probe = subprocess.run(
        [str(wheel_env), "-c", "import cfrlib, cfrlib.datasets as d; print(cfrlib.__file__); "
         "print(all(d.load_json(name)['games'] for name in d.NAMES))"],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, check=True)
    location, loaded = probe.stdout.splitlines()
    assert str(location).startswith(str(wheel_env.parents[1])), location
    assert loaded == "True"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_runs_alone(wheel_env, tmp_path, chapter):
    copy = tmp_path / chapter.name
    shutil.copy(chapter, copy)
    run = subprocess.run(
        [str(wheel_env), str(ROOT / "tools" / "execute-notebooks"), "--limit", "900", str(copy)],
        cwd=tmp_path, env=_clean_env(), capture_output=True, text=True)
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".ipynb") == [chapter.name]


def test_an_unknown_data_set_is_a_clear_error():
    import cfrlib
    from cfrlib import datasets

    with pytest.raises(cfrlib.CfrlibError, match="no recorded data set 'curves'; there are "
                                                 "comparison, sampling_curves, lp_vs_cfr, distributed"):
        datasets.load_json("curves")
