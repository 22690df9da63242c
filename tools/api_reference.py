"""Sphinx extension: what the API reference needs beyond ``sphinx.ext.autosummary``.

``chapters/api.md`` runs autosummary with ``:recursive:`` on ``cfrlib`` and ``cfrbook``, and the
template ``tools/templates/autosummary/module.rst`` writes one page a module, with every object
documented on the page of the module that defines it. What autosummary cannot do is left here:

* :func:`package_contents` lists, for the template, the classes and functions each package
  exports (its ``__all__``), the exported constants that no module documents
  (``cfrlib.solvers.SOLVERS``: the package's page documents them), and every public submodule, also those whose name the package gives
  to a function (``cfrlib.games.kuhn`` is both), which autosummary's own list leaves out;
* :func:`_import_module_first` makes autosummary import ``cfrlib.games.kuhn`` as the module,
  not as the function of that name in ``cfrlib.games``, so that the module gets its page;
* :func:`_short_arrays` writes numpy's arrays as the code does, ``NDArray[float64]``, where
  autodoc expands the alias to ``ndarray[tuple[Any, ...], dtype[float64]]``;
* :func:`resolve_exported_name` resolves a reference written with an exported name
  (``cfrlib.Strategy``, ``cfrlib.games.MatrixGame``, a member ``cfrlib.Game.tree``) to where
  the object is documented, and a ``py:class`` reference to a documented type alias
  (``cfrlib.strategy.StrategyLike``, which autodoc documents as data).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from typing import Any, cast

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.ext import autosummary
from sphinx.config import Config
from sphinx.domains.python import PythonDomain
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer

PACKAGES = ("cfrlib", "cfrbook")
"""The documented packages: the library and the book's scaffolding on top of it."""


def package_contents(package_name: str) -> dict[str, dict[str, list[str]]]:
    """``{"exports": {package: names}, "constants": {package: names},
    "submodules": {package: full names}}`` for the package and its public subpackages."""
    package = importlib.import_module(package_name)
    found = [package_name] + [info.name for info in pkgutil.walk_packages(
        package.__path__, package_name + ".") if not _is_private(info.name)]
    modules = {name: importlib.import_module(name) for name in found}
    documented = {attr for m in modules for (_, attr) in ModuleAnalyzer.for_module(m).find_attr_docs()}
    contents: dict[str, dict[str, list[str]]] = {"exports": {}, "constants": {}, "submodules": {}}
    for name, module in modules.items():
        if not hasattr(module, "__path__"):
            continue
        public = [n for n in getattr(module, "__all__", [])
                  if not inspect.ismodule(getattr(module, n, None))]
        constants = [n for n in public if not callable(getattr(module, n))]
        # a constant's summary would be its type's docstring (int's for CHANCE): constants are
        # documented where they are defined, or on the package's page when nowhere else
        contents["exports"][name] = [n for n in public if n not in constants]
        contents["constants"][name] = [n for n in constants if n not in documented]
        contents["submodules"][name] = [m for m in modules if m.rpartition(".")[0] == name]
    return contents


def _is_private(name: str) -> bool:
    return any(part.startswith("_") for part in name.split("."))


def _in_packages(name: str) -> bool:
    return name.partition(".")[0] in PACKAGES


def _set_context(app: Sphinx, config: Config) -> None:
    contents: dict[str, dict[str, list[str]]] = {"exports": {}, "constants": {}, "submodules": {}}
    for package in PACKAGES:
        for key, value in package_contents(package).items():
            contents[key].update(value)
    config.autosummary_context = {**config.autosummary_context, **contents}


def resolve_exported_name(app: Sphinx, env: BuildEnvironment, node: nodes.Element,
                          contnode: nodes.Element) -> nodes.Element | None:
    """Resolve ``cfrlib.X.rest`` where ``cfrlib.X`` is a re-exported class or function (to its
    defining path) or constant (to the one documented constant of that name in the package);
    likewise in cfrbook."""
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not (_in_packages(target) and "." in target):
        return None
    package = target.partition(".")[0]
    domain = cast(PythonDomain, env.get_domain("py"))
    if target in domain.objects:   # documented, as another kind of object (a type alias: data)
        return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", target, node, contnode)
    parts = target.split(".")
    for k in range(len(parts) - 1, 0, -1):   # the longest importable module prefix
        try:
            module = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        name, rest = parts[k], parts[k + 1:]
        value: Any = getattr(module, name, None)
        if inspect.isclass(value) or inspect.isfunction(value):
            home = f"{value.__module__}.{value.__qualname__}"
        else:
            homes = [o for o in domain.objects if o.startswith(package + ".")
                     and o.rsplit(".", 1)[-1] == name and o != target]
            if len(homes) != 1:
                return None
            home = homes[0]
        documented = ".".join([home, *rest])
        if documented == target:
            return None
        return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                   documented, node, contnode)
    return None


_import_by_name = autosummary._import_by_name


def _import_module_first(name: str, grouped_exception: bool = True) -> tuple[Any, Any, str]:
    """autosummary's import, except that a public module of the package is imported as the
    module even where its package holds an object of the same name."""
    if _in_packages(name) and "." in name and not _is_private(name):
        try:
            module = importlib.import_module(name)
        except ImportError:
            pass
        else:
            return module, None, name
    return _import_by_name(name, grouped_exception)


_NDARRAY = re.compile(r"~numpy\.ndarray\[tuple\[~typing\.Any, \.\.\.\], ~numpy\.dtype\[(.*?)\]\]")


def _short_arrays(app: Sphinx, what: str, name: str, *args: Any) -> None:
    """Runs after autodoc has recorded the type hints of ``name`` for the description."""
    hints = app.env.temp_data.get("annotations", {}).get(name, {})
    for key, text in hints.items():
        hints[key] = _NDARRAY.sub(r"~numpy.typing.NDArray[\1]", text)


def setup(app: Sphinx) -> dict[str, bool]:
    app.setup_extension("sphinx.ext.autosummary")
    autosummary._import_by_name = _import_module_first
    app.connect("config-inited", _set_context)
    app.connect("autodoc-process-signature", _short_arrays, priority=600)
    app.connect("missing-reference", resolve_exported_name)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
