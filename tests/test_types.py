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

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str) -> tuple[str, int]:
    """Run mypy from the repository root (where pyproject.toml configures it)."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), *args])
    finally:
        os.chdir(cwd)
    return out + err, status


def test_cfrlib_and_cfrbook_pass_mypy():
    report, status = _mypy()
    assert status == 0, "mypy found type errors in cfrlib or cfrbook:\n" + report
    assert report.startswith("Success: no issues found")


def test_mypy_catches_misuse_of_the_public_api(tmp_path):
    """The hints say something: wrong argument types and misread results are reported."""
    script = tmp_path / "misuse.py"
    script.write_text(textwrap.dedent("""\
        import cfrlib
        from cfrlib import games

        game = games.leduc(ranks="6")
        strategy = cfrlib.Strategy.from_dict(games.kuhn(), {"K": {"bet": 1.0}}, missing="zero")
        player: int = cfrlib.best_response(games.kuhn(), strategy, 0).player
        lp_value: str = cfrlib.solve_lp(games.kuhn()).value
        solver = cfrlib.CFRPlus(game, alternating="yes")
        gap: str = cfrlib.exploitability(game, solver.average_strategy())
        same: cfrlib.CFRPlus = solver.iterate(10)
        """))
    report, status = _mypy(str(script))
    assert status == 1, report
    assert 'Argument "ranks" to "leduc" has incompatible type "str"; expected "int"' in report
    assert 'Argument "missing" to "from_dict" of "Strategy" has incompatible type' in report
    assert 'misuse.py:7: error: Incompatible types in assignment (expression has type ' \
           '"float", variable has type "str")' in report
    assert 'Argument "alternating" to "CFRPlus" has incompatible type "str"; expected "bool"' in report
    assert 'misuse.py:9: error: Incompatible types in assignment (expression has type ' \
           '"float", variable has type "str")' in report
    assert "misuse.py:6" not in report  # a best response's player is an int: no error there
    assert "misuse.py:10" not in report  # iterate returns the solver's own class


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
    the chapters print (chapters 3, 3 and 9), and in the kernels only the @njit ones."""
    printed = {"cfrlib/evaluation.py": ["counterfactual_values", "realization_plan"],
               "cfrlib/solvers/fullwidth.py": ["FullWidthCFR._update"],
               "cfrlib/solvers/regret_minimizers.py": ["_discount"]}
    for path, names in printed.items():
        assert sorted(_unannotated(path)) == names, path
    kernels = _unannotated("cfrlib/solvers/sampling/kernels.py")
    assert len(kernels) == 17 and all(
        len(d) == 1 and d[0] in ("njit(cache=True, nogil=True)", "njit(cache=True, nogil=True, inline='always')")
        for d in kernels.values()), kernels
