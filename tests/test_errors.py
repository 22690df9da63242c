"""The error policy of cfrlib.errors, enforced: every error cfrlib raises on bad input is a
``CfrlibError`` defined in cfrlib/errors.py, whose message names the argument, the value and
what was expected; the book's scaffolding (cfrbook) follows it too, with its own errors in
cfrbook/errors.py. The bad inputs of each module are tested with the module; here, those that
had no test before the policy."""

import ast
import builtins
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

import cfrbook
import cfrlib
from cfrbook import errors as book_errors
from cfrlib import errors, games
from cfrlib.errors import CfrlibError, InfosetKeyError, SolverError, StrategyError
from cfrlib.solvers.base import register
from cfrlib.solvers.fullwidth import CFR

PACKAGES = [Path(cfrlib.__file__).parent, Path(cfrbook.__file__).parent]
ERRORS_MODULES = {"cfrlib/errors.py", "cfrbook/errors.py"}
FORBIDDEN = {"ValueError", "TypeError", "KeyError"}
EXCEPTIONS = {name for name, value in vars(builtins).items()
              if isinstance(value, type) and issubclass(value, BaseException)}
ALLOWED: dict[tuple[str, str], str] = {}
"""``(path, function) -> why``: internal invariants (bugs, not bad input) that may raise a
built-in error. None today."""


def _raises(node: ast.AST, scope: str = "") -> Iterator[tuple[str, ast.Raise]]:
    """Each ``raise`` below ``node`` with the dotted name of the function or class around it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from _raises(child, f"{scope}.{child.name}" if scope else child.name)
            continue
        if isinstance(child, ast.Raise):
            yield scope, child
        yield from _raises(child, scope)


def violations(source: str, path: str) -> list[str]:
    """``path:line: what`` for each built-in error raised outside :data:`ALLOWED` and, outside
    the errors modules of cfrlib and cfrbook, each exception class defined."""
    tree = ast.parse(source)
    found = []
    for scope, node in _raises(tree):
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(exc, ast.Name) and exc.id in FORBIDDEN and (path, scope) not in ALLOWED:
            found.append(f"{path}:{node.lineno}: raise {exc.id} in {scope or 'the module'}; "
                         "raise a CfrlibError subclass of cfrlib/errors.py")
    if path not in ERRORS_MODULES:
        for node in ast.walk(tree):
            bases = [ast.unparse(b).rpartition(".")[2] for b in getattr(node, "bases", ())]
            if isinstance(node, ast.ClassDef) and any(
                    b in EXCEPTIONS or b.endswith(("Error", "Exception")) for b in bases):
                found.append(f"{path}:{node.lineno}: exception class {node.name}; "
                             f"define it in {path.partition('/')[0]}/errors.py")
    return found


def test_the_scan_finds_what_the_policy_forbids():
    source = ("class LocalError(errors.GameError):\n    pass\n\n\n"
              "def f(x):\n    if x:\n        raise ValueError('bad')\n    raise KeyError\n\n\n"
              "class G(Exception):\n    def g(self):\n        raise TypeError(1)\n")
    assert [v.split(";")[0] for v in violations(source, "cfrlib/m.py")] == [
        "cfrlib/m.py:7: raise ValueError in f", "cfrlib/m.py:8: raise KeyError in f",
        "cfrlib/m.py:13: raise TypeError in G.g", "cfrlib/m.py:1: exception class LocalError",
        "cfrlib/m.py:11: exception class G"]
    assert violations("raise CfrlibError('x')\nclass E(ValueError): pass", "cfrlib/errors.py") == []


@pytest.mark.slow  # reads every module's source: make test only
def test_cfrlib_and_cfrbook_raise_only_their_own_errors():
    found = [v for package in PACKAGES for path in sorted(package.rglob("*.py"))
             for v in violations(path.read_text(), path.relative_to(package.parent).as_posix())]
    assert not found, "\n".join(found)


def test_every_error_class_is_a_cfrlib_error_and_a_value_error():
    classes = [c for module in (errors, book_errors) for _, c in inspect.getmembers(module, inspect.isclass)
               if c.__module__ == module.__name__]
    assert len(classes) > 10 and all(issubclass(c, CfrlibError) for c in classes)
    assert book_errors.ExplorerError in classes
    assert issubclass(CfrlibError, ValueError)


def test_an_unknown_infoset_key_is_a_strategy_error_and_a_key_error():
    strategy = games.kuhn().equilibrium()
    with pytest.raises(InfosetKeyError) as err:
        strategy["X"]
    assert isinstance(err.value, StrategyError) and isinstance(err.value, KeyError)
    assert str(err.value) == "kuhn has no infoset 'X'"  # not quoted as a KeyError's message
    assert "X" not in strategy and strategy.get("X") is None and "K" in strategy


@pytest.mark.parametrize("call, error, message", [
    (lambda: cfrlib.Strategy.from_dict(games.kuhn(), {}, missing="skip"), StrategyError,
     "^missing must be 'error' or 'uniform', got 'skip'$"),
    (lambda: register("cfr")(type("MyCFR", (CFR,), {})), SolverError,
     "^register: CFR is already registered as 'cfr'; give MyCFR another short_name$"),
])
def test_bad_arguments_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
