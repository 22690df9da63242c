"""Sphinx extension: the ``cfrlib-api`` directive writes the API reference of a package.

Used in ``chapters/api.md`` as::

    ```{cfrlib-api} cfrlib
    ```

It imports the package, finds every public submodule (names starting with ``_`` are skipped)
and emits one section per module: ``automodule`` for the module's docstring, then ``autoclass``
(with ``:members:``) or ``autofunction`` for each public object (inside ``eval-rst``: autodoc
writes reStructuredText). The page needs no edit when a module is added. Every object is documented once, under the shortest
public name a reader would type: what a package re-exports (``cfrlib.CFR``,
``cfrlib.games.kuhn``) appears in the package's section and is left out of the section of the
module that defines it. References written with the defining path (``cfrlib.strategy.Strategy``,
``cfrlib.game.Game.tree``) still resolve, to where the object is documented.

An import error in the package is not hidden: autodoc reports it and the ``-W`` build fails.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types

from docutils import nodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)


def _is_public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def _reraise(name: str) -> None:
    raise  # called by pkgutil inside its `except`: a subpackage that fails to import is an error


def discover(package_name: str) -> list[types.ModuleType]:
    """The package and its public submodules: packages first (shallowest first), then modules."""
    package = importlib.import_module(package_name)
    found = [package]
    if hasattr(package, "__path__"):
        for info in pkgutil.walk_packages(package.__path__, package_name + ".", onerror=_reraise):
            if _is_public(info.name):
                found.append(importlib.import_module(info.name))
    found.sort(key=lambda m: (not hasattr(m, "__path__"), m.__name__.count("."), m.__name__))
    return found


def public_names(module: types.ModuleType, root: str) -> list[str]:
    """What ``module`` offers its readers: its ``__all__``; else, for a package, every public
    class or function of ``root`` it holds (re-exports included) and its upper-case constants;
    else, for a plain module, the public classes and functions it defines itself."""
    names = getattr(module, "__all__", None)
    if names is not None:   # submodules named there have their own sections
        return [n for n in names if not inspect.ismodule(getattr(module, n, None))]
    is_package = hasattr(module, "__path__")
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or inspect.ismodule(value):
            continue
        if inspect.isclass(value) or inspect.isfunction(value):
            home = getattr(value, "__module__", "") or ""
            if home == module.__name__ or (is_package and home.startswith(root + ".")):
                names.append(name)
        elif is_package and name.isupper() and not callable(value):
            names.append(name)
    return names


def _directive(module: types.ModuleType, name: str) -> str:
    value = getattr(module, name, None)
    full = f"{module.__name__}.{name}"
    if inspect.isclass(value):
        return f".. autoclass:: {full}\n   :members:\n"
    if callable(value):
        return f".. autofunction:: {full}\n"
    return f".. autodata:: {full}\n"


def plan(package_name: str) -> list[tuple[types.ModuleType, list[str], bool]]:
    """For each module: the names its section documents, and whether the module's own name is
    taken by a documented object (the function ``cfrlib.games.kuhn`` and the module of the same
    name). Each object is documented once, in the first (shallowest) module that offers it."""
    documented_objects: set[int] = set()
    documented_names: set[str] = set()
    sections = []
    for module in discover(package_name):
        names = [n for n in public_names(module, package_name)
                 if id(getattr(module, n, None)) not in documented_objects]
        sections.append((module, names, module.__name__ in documented_names))
        documented_objects.update(id(getattr(module, n, None)) for n in names)
        documented_names.update(f"{module.__name__}.{n}" for n in names)
    return sections


def module_sections(package_name: str) -> str:
    """MyST source for the whole reference: one section per module."""
    parts = []
    for module, names, taken in plan(package_name):
        body = f".. automodule:: {module.__name__}\n" + ("   :no-index:\n" if taken else "")
        body += "".join("\n" + _directive(module, n) for n in names)
        # autodoc emits reStructuredText, so each module goes through MyST's eval-rst.
        parts.append(f"## `{module.__name__}`\n\n```{{eval-rst}}\n{body}```\n")
    return "\n".join(parts)


def aliases(package_name: str) -> dict[str, str]:
    """Defining path -> documented path of every re-exported class or function, e.g.
    ``cfrlib.game.Game`` -> ``cfrlib.Game``."""
    found = {}
    for module, names, _ in plan(package_name):
        for name in names:
            value = getattr(module, name, None)
            if inspect.isclass(value) or inspect.isfunction(value):
                defined = f"{value.__module__}.{value.__qualname__}"
                if defined != f"{module.__name__}.{name}":
                    found[defined] = f"{module.__name__}.{name}"
    return found


def resolve_by_defining_path(app, env, node, contnode):
    """A Python reference written with the defining path of a re-exported object, or of one of
    its members (``cfrlib.game.Game.tree``), resolves to where the object is documented."""
    target = node.get("reftarget", "")
    packages = getattr(env, "cfrlib_api_packages", set())
    if node.get("refdomain") != "py" or not any(target.startswith(p + ".") for p in packages):
        return None
    table = getattr(app, "_cfrlib_api_aliases", None)
    if table is None:
        table = {}
        for package_name in packages:
            table.update(aliases(package_name))
        app._cfrlib_api_aliases = table
    for defined, documented in table.items():
        if target == defined or target.startswith(defined + "."):
            return env.get_domain("py").resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"],
                documented + target[len(defined):], node, contnode,
            )
    return None


class CfrlibApiDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        package_name = self.arguments[0]
        if not hasattr(self.env, "cfrlib_api_packages"):
            self.env.cfrlib_api_packages = set()
        self.env.cfrlib_api_packages.add(package_name)
        try:
            text = module_sections(package_name)
        except Exception as exc:  # the build must say why, and -W turns this into a failure
            logger.warning(
                "cfrlib-api: cannot import %s: %s: %s",
                package_name, type(exc).__name__, exc, location=self.get_location(),
            )
            return []
        container = nodes.container()
        self.state.nested_parse(
            self.content.__class__(text.splitlines(), source=self.get_source_info()[0]),
            self.content_offset, container, match_titles=True,
        )
        return container.children


def setup(app):
    app.add_directive("cfrlib-api", CfrlibApiDirective)
    app.connect("missing-reference", resolve_by_defining_path)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
