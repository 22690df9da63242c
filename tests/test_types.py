"""The type hints of cfrlib and cfrbook, checked by mypy with the configuration of pyproject.toml.

``[tool.mypy]`` holds every module of both packages to strict typing, except the modules it lists as
typed after the merge of other branches. A failure prints mypy's own messages (file, line and
what is wrong).
"""

from __future__ import annotations

import ast
import os
import textwrap
from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[1]


MISUSE = textwrap.dedent("""\
    import cfrlib
    from cfrlib import games

    game = games.leduc(ranks="6")
    strategy = cfrlib.Strategy.from_dict(games.kuhn(), {"K": {"bet": 1.0}}, missing="zero")
    player: int = cfrlib.best_response(games.kuhn(), strategy, 0).player
    lp_value: str = cfrlib.solve_lp(games.kuhn()).value
    solver = cfrlib.CFRPlus(game, alternating="yes")
    gap: str = cfrlib.exploitability(game, solver.average_strategy())
    same: cfrlib.CFRPlus = solver.iterate(10)
    """)
"""A script that misuses the public API: mypy must report each misuse."""


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory) -> tuple[list[str], list[str], int]:
    """One mypy run, from the repository root (where pyproject.toml configures it), over both
    packages and the misuse script: (the packages' lines, the script's lines, the exit status).
    One run instead of two: mypy's start and its reading of the cache cost more than the
    checks."""
    script = tmp_path_factory.mktemp("mypy") / "misuse.py"
    script.write_text(MISUSE)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                    "cfrlib", "cfrbook", str(script)])
    finally:
        os.chdir(cwd)
    lines = (out + err).splitlines()
    ours = [line for line in lines if line.startswith(("cfrlib", "cfrbook"))]
    return ours, [line for line in lines if "misuse.py:" in line], status


def test_cfrlib_and_cfrbook_pass_mypy(mypy_report):
    ours, _, _ = mypy_report
    assert ours == [], "mypy found type errors in cfrlib or cfrbook:\n" + "\n".join(ours)


def test_mypy_catches_misuse_of_the_public_api(mypy_report):
    """The hints say something: wrong argument types and misread results are reported."""
    _, misuse, status = mypy_report
    report = "\n".join(misuse)
    assert status == 1, report
    assert 'Argument "ranks" to "leduc" has incompatible type "str"; expected "int"' in report
    assert 'Argument "missing" to "from_dict" of "Strategy" has incompatible type' in report
    assert 'misuse.py:7: error: Incompatible types in assignment (expression has type ' \
           '"float", variable has type "str")' in report
    assert 'Argument "alternating" to "CFRPlus" has incompatible type "str"; expected "bool"' in report
    assert 'misuse.py:9: error: Incompatible types in assignment (expression has type ' \
           '"float", variable has type "str")' in report


def _unannotated(path):
    """``{qualified name: decorators}`` of the functions of a module missing an annotation."""
    found = {}

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.FunctionDef):
                args = child.args.posonlyargs + child.args.args + child.args.kwonlyargs
                params = [a for a in args if a.arg not in ("self", "cls")]
                params += [a for a in (child.args.vararg, child.args.kwarg) if a is not None]
                if child.returns is None or any(a.annotation is None for a in params):
                    found[prefix + child.name] = [ast.unparse(d) for d in child.decorator_list]
                visit(child, f"{prefix}{child.name}.")

    visit(ast.parse((ROOT / path).read_text()), "")
    return found


def test_only_the_printed_functions_and_the_numba_kernels_go_unannotated():
    """pyproject.toml lets these modules hold unannotated functions: only the four whose source
    the chapters print (chapters 3, 5 and 9), and in the kernels only the @njit ones."""
    printed = {"cfrlib/evaluation.py": ["counterfactual_values", "realization_plan"],
               "cfrlib/solvers/fullwidth.py": ["FullWidthCFR._update"],
               "cfrlib/solvers/regret_minimizers.py": ["_discount"]}
    for path, names in printed.items():
        assert sorted(_unannotated(path)) == names, path
    kernels = _unannotated("cfrlib/solvers/sampling/kernels.py")
    assert len(kernels) == 17 and all(
        len(d) == 1 and d[0] in ("njit(cache=True, nogil=True)", "njit(cache=True, nogil=True, inline='always')")
        for d in kernels.values()), kernels
