"""What ``pip install cfrlib`` brings (issue 26): pyproject.toml's dependencies cover every
third-party import of the library, and each extra every import of its part and no more, so the
solvers install without the book's figures and each part says what it needs."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from cfrlib import games
from cfrlib.errors import SolverError

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# The parts that need an extra (a module belongs to the longest prefix that names it); every
# other module of cfrlib is the core, which needs only the dependencies.
EXTRAS = {"cfrlib.games.openspiel": "openspiel", "cfrlib.distributed": "distributed",
          "cfrbook": "book"}


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0)).lower()


def _declared(extra: str | None) -> set[str]:
    names = {_name(r) for r in PROJECT["dependencies"]}
    return names | ({_name(r) for r in PROJECT["optional-dependencies"][extra]} if extra else set())


def _imports(path: Path) -> set[str]:
    """The top-level names ``path`` imports at run time (imports inside functions count; those
    under ``if TYPE_CHECKING:`` do not), relative imports left out."""
    tree = ast.parse(path.read_text())
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                   for n in ast.walk(block)}
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def _modules():
    for package in ("cfrlib", "cfrbook"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            extra = next((EXTRAS[p] for p in sorted(EXTRAS, key=len, reverse=True)
                          if module == p or module.startswith(p + ".")), None)
            yield module, path, extra


@cache
def _owners() -> Mapping[str, list[str]]:
    return packages_distributions()


def _third_party(names: set[str]) -> dict[str, str]:
    """``{imported name: distribution}`` for the names that are neither ours nor the standard
    library's."""
    owners = _owners()
    found = {}
    for name in sorted(names - set(sys.stdlib_module_names) - {"cfrlib", "cfrbook", "__future__"}):
        assert name in owners, f"{name} is imported but no installed distribution provides it"
        found[name] = _name(owners[name][0])
    return found


@pytest.mark.slow  # reads every module: make test only
def test_every_import_is_declared_for_its_part():
    undeclared = {}
    for module, path, extra in _modules():
        missing = {name: dist for name, dist in _third_party(_imports(path)).items()
                   if dist not in _declared(extra)}
        if missing:
            undeclared[module] = (extra or "dependencies", missing)
    assert undeclared == {}


@pytest.mark.slow  # reads every module: make test only
def test_every_declared_requirement_is_imported_by_its_part():
    used: dict[str | None, set[str]] = {}
    for _, path, extra in _modules():
        used.setdefault(extra, set()).update(_third_party(_imports(path)).values())
    core = {_name(r) for r in PROJECT["dependencies"]}
    assert core <= used[None], f"declared but never imported: {core - used[None]}"
    for extra, requirements in PROJECT["optional-dependencies"].items():
        unused = {_name(r) for r in requirements} - used.get(extra, set())
        assert unused == set(), f"the extra {extra!r} declares {unused}, which its part never imports"
    assert set(PROJECT["optional-dependencies"]) == set(EXTRAS.values())


BLOCKED = ["pyspiel", "open_spiel", "distributed", "dask", "matplotlib", "ipywidgets", "IPython", "PIL"]


def _without_the_extras(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter where the extras' packages cannot be imported."""
    block = f"import sys\nfor name in {BLOCKED!r}:\n    sys.modules[name] = None\n"
    return subprocess.run([sys.executable, "-c", block + code], capture_output=True, text=True, cwd=cwd)


@pytest.mark.slow  # two processes: make test only
def test_import_cfrlib_needs_only_the_core(tmp_path):
    """``import cfrlib`` (and ``cfrlib.games``, the solvers, the CLI) without the extras."""
    out = _without_the_extras("import cfrlib, cfrlib.cli, cfrlib.solvers, cfrlib.games, cfrlib.distributed\n"
                              "cfrlib.CFR(cfrlib.games.kuhn()).iterate(10)\nprint('ok')", tmp_path)
    assert out.stdout.strip() == "ok", out.stderr


def test_cfrbook_without_its_extra_says_how_to_install_it(tmp_path):
    out = _without_the_extras("import cfrbook", tmp_path)
    assert out.returncode == 1
    assert out.stderr.strip().splitlines()[-1] == (
        "ModuleNotFoundError: cfrbook needs matplotlib, ipywidgets, IPython, PIL, the figures' and "
        "explorers' packages: pip install 'cfrlib[book]'")


def test_the_distributed_solver_without_dask_says_how_to_install_it(monkeypatch):
    from cfrlib.distributed import DistributedExternalSampling

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SolverError, match=r"Dask is not installed: pip install distributed "
                                          r"\(cfrlib's extra 'distributed'\)"):
        DistributedExternalSampling(games.kuhn(), workers=2)


@pytest.mark.slow  # runs the chapter's cells: about 20 s
def test_chapter_11_runs_without_openspiel_except_its_openspiel_section(tmp_path):
    """Chapter 11 imports OpenSpiel only in the cell that uses it: without the extra every other
    cell runs, and that one stops with cfrlib's message saying how to install it."""
    import notebook_cache

    chapter = notebook_cache.read(ROOT / "chapters" / "11_your_own_game.ipynb")
    cells = [cell.source for cell in chapter.cells if cell.cell_type == "code"]
    assert sum("open_spiel" in source for source in cells) == 1
    code = ["import cfrlib", "import matplotlib", "matplotlib.use('Agg')"]
    for source in cells:
        if "open_spiel" in source:
            code.append(f"try:\n    exec({source!r})\nexcept cfrlib.CfrlibError as err:\n"
                        f"    print('stopped:', err)")
        else:
            code.append(f"exec({source!r})")
    block = "import sys\nfor name in ['pyspiel', 'open_spiel']:\n    sys.modules[name] = None\n"
    out = subprocess.run([sys.executable, "-c", block + "\n".join(code)], capture_output=True,
                         text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert ("stopped: OpenSpiel is not installed: pip install open_spiel (cfrlib's extra "
            "'openspiel')") in out.stdout
