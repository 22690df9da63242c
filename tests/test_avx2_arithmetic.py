"""make test-avx2 runs the notebooks with the arithmetic of a CPU without AVX-512.

The Makefile's ``AVX2_ENV`` must still do what it says with the pinned numpy, its OpenBLAS and
numba (a release may rename a dispatch target, and numpy ignores a name it does not know): in a
process started with it, numpy dispatches to no AVX-512 kernel, OpenBLAS runs its kernels for
Haswell (which Zen shares) and numba compiles for Zen 3.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

MAKEFILE = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
REPORT = """
import json, numba, threadpoolctl
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
print(json.dumps({
    "avx512 targets": [t for t in __cpu_dispatch__ if __cpu_features__.get(t) and
                       ("AVX512" in t or t == "X86_V4")],
    "openblas": sorted({i.get("architecture") for i in threadpoolctl.threadpool_info()
                        if i["internal_api"] == "openblas"}),
    "numba cpu": numba.config.CPU_NAME,
}))
"""


def avx2_env() -> dict[str, str]:
    line = re.search(r"^AVX2_ENV := (.*)$", MAKEFILE, re.MULTILINE)
    assert line, "the Makefile defines no AVX2_ENV"
    return dict(word.split("=", 1) for word in shlex.split(line.group(1)))


@pytest.mark.slow   # a process started (numpy, numba, threadpoolctl imported)
def test_the_avx2_environment_turns_off_every_avx512_kernel():
    env = avx2_env()
    assert set(env) == {"NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE", "NUMBA_CPU_NAME"}
    run = subprocess.run([sys.executable, "-c", REPORT], env={**os.environ, **env},
                         capture_output=True, text=True, check=True)
    found = json.loads(run.stdout)
    assert found == {"avx512 targets": [], "openblas": ["Haswell"], "numba cpu": "znver3"}, found


def test_test_avx2_runs_the_notebooks_with_it():
    rule = re.search(r"^test-avx2: venv\n((?:\t.*\n)+)", MAKEFILE, re.MULTILINE)
    assert rule, "the Makefile has no test-avx2 rule"
    commands = rule.group(1).splitlines()
    assert all(c.startswith("\t$(AVX2_ENV) ") for c in commands), commands
    assert "cfrlib.compile_cache" in commands[0]
    assert 'test ARGS="chapters' in commands[-1]   # make test's own pytest, on the notebooks
