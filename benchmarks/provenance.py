"""What made each recorded data set, so that no recorded number outlives the code behind it.

Every data set ``cfrbook/data/<name>.json`` has a stamp beside it, ``<name>.stamp.json``: the
script and command that recorded it, the commit, the date and the machine (CPU model, cores), and
a fingerprint of the code whose numbers it holds: one SHA-256 per top-level function, class and
module body of the modules :data:`RECORDED` lists for it (the algorithm for results, the solver's
walk for timings). A fingerprint hashes the syntax tree without docstrings, so comments,
docstrings and layout can change freely; any change of code cannot.

``tests/test_provenance.py`` recomputes the fingerprints and fails, naming the data set and each
changed function, when they no longer match: re-record the data set with its script (which
stamps it), or, if its numbers cannot depend on the change, re-stamp it with a reason::

    python benchmarks/provenance.py restamp frontier_curves --reason "HedgeCFR is not recorded"

The reasons are kept in the stamp, oldest first.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import hashlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "cfrbook" / "data"


@dataclass(frozen=True)
class Recorded:
    """A data set's recording script and the modules whose code its numbers depend on."""

    script: str
    modules: tuple[str, ...]


_FULLWIDTH = ("cfrlib.solvers.fullwidth", "cfrlib.solvers.regret_minimizers")
_SAMPLING = ("cfrlib.solvers.sampling", "cfrlib.solvers.regret_minimizers")
RECORDED: dict[str, Recorded] = {
    "comparison": Recorded("benchmarks/comparison.py",
                           ("cfrbook.comparison", "cfrlib.solvers.fullwidth", *_SAMPLING)),
    "sampling_curves": Recorded("benchmarks/sampling_curves.py",
                                ("cfrbook.comparison", "cfrlib.solvers.fullwidth", *_SAMPLING)),
    "lp_vs_cfr": Recorded("benchmarks/bench_lp.py", ("cfrlib.lp", *_FULLWIDTH)),
    "distributed": Recorded("benchmarks/bench_distributed.py", ("cfrlib.distributed", *_SAMPLING)),
    "frontier_curves": Recorded("benchmarks/frontier_curves.py", ("cfrbook.comparison", *_FULLWIDTH)),
    "subgame_study": Recorded("benchmarks/subgame_study.py", ("cfrlib.subgame",)),
    "sampling_rules": Recorded("benchmarks/sampling_rules_curves.py", _SAMPLING),
    "regret_pruning": Recorded("benchmarks/bench_regret_pruning.py", _FULLWIDTH),
    "vr_mccfr": Recorded("benchmarks/vr_mccfr.py", _SAMPLING),
    "public_chance": Recorded("benchmarks/public_chance.py", _SAMPLING),
    "deep_cfr": Recorded("benchmarks/deep_cfr.py", ("cfrlib.deep_cfr",)),
    "last_iterate": Recorded("benchmarks/last_iterate_curves.py", _FULLWIDTH),
    "chapter_runs": Recorded("benchmarks/chapter_runs.py", _FULLWIDTH),
    "depth_limited_study": Recorded("benchmarks/depth_limited_study.py",
                                    ("cfrlib.depth_limited", "cfrlib.subgame", "cfrlib.off_tree",
                                     "cfrlib.games.no_limit_leduc", "cfrlib.deep_cfr", "cfrlib.abstraction")),
    "holdem": Recorded("benchmarks/holdem_chapter.py",
                       ("cfrlib.holdem.solver", "cfrlib.holdem.showdown", "cfrlib.holdem.tree", "cfrlib.holdem.game",
                        "cfrlib.solvers.regret_minimizers")),
}
"""Every recorded data set (the names of ``cfrbook.datasets.NAMES``)."""


def stamp_path(name: str) -> Path:
    return DATA / f"{name}.stamp.json"


def _module_files(module: str) -> list[tuple[str, Path]]:
    """``(dotted name, file)`` of a module, or of every module of a package, sorted."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise LookupError(f"no module {module}")
    origin = Path(spec.origin)
    if origin.name != "__init__.py":
        return [(module, origin)]
    return [(module if path.name == "__init__.py" else f"{module}.{path.stem}", path)
            for path in sorted(origin.parent.glob("*.py"))]


def _is_docstring(node: ast.AST) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _without_docstrings(node: ast.AST) -> ast.AST:
    """``node`` without its docstrings: every bare string statement of every body (a module's,
    a class's, a function's, and the attribute docstrings under constants)."""
    for child in ast.walk(node):
        body = getattr(child, "body", None)
        if isinstance(body, list) and any(_is_docstring(s) for s in body):
            child.body = [s for s in body if not _is_docstring(s)] or [ast.Pass()]
    return node


def _digest(nodes: list[ast.stmt]) -> str:
    text = "\n".join(ast.dump(_without_docstrings(node), include_attributes=False) for node in nodes)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fingerprint_source(source: str, module: str) -> dict[str, str]:
    """``{"module:name": digest}`` for each top-level function and class of ``source``, and
    ``"module:(body)"`` for the rest of the module (constants, imports, statements)."""
    tree = _without_docstrings(ast.parse(source))
    prints: dict[str, str] = {}
    rest: list[ast.stmt] = []
    for node in tree.body:  # type: ignore[attr-defined]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            prints[f"{module}:{node.name}"] = _digest([node])
        else:
            rest.append(node)
    prints[f"{module}:(body)"] = _digest(rest)
    return prints


def fingerprint(modules: tuple[str, ...]) -> dict[str, str]:
    """The fingerprint of every top-level definition of ``modules`` (packages expanded)."""
    prints: dict[str, str] = {}
    for module in modules:
        for name, path in _module_files(module):
            prints.update(fingerprint_source(path.read_text(encoding="utf-8"), name))
    return dict(sorted(prints.items()))


def changed(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """The definitions added, removed or changed between two fingerprints, with how."""
    out = []
    for key in sorted(set(recorded) | set(now)):
        if key not in now:
            out.append(f"{key} removed")
        elif key not in recorded:
            out.append(f"{key} added")
        elif recorded[key] != now[key]:
            out.append(f"{key} changed")
    return out


def machine() -> dict[str, Any]:
    """The CPU model, the cores and the versions that numbers and timings depend on."""
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": numpy.__version__}


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def stamp(name: str, command: list[str] | None = None) -> Path:
    """Stamp data set ``name`` as just recorded on this machine by its script (the scripts call
    this after writing the data)."""
    recorded = RECORDED[name]
    payload = {
        "data_set": f"cfrbook/data/{name}.json",
        "script": recorded.script,
        "command": " ".join(["python", recorded.script, *(sys.argv[1:] if command is None else command)]),
        "recorded": {"commit": _git("rev-parse", "HEAD"),
                     "uncommitted_changes": bool(_git("status", "--porcelain", "--", "cfrlib", "cfrbook",
                                                      "benchmarks")),
                     "date": _now(), "machine": machine()},
        "modules": list(recorded.modules),
        "fingerprint": fingerprint(recorded.modules),
        "restamps": [],
    }
    path = stamp_path(name)
    path.write_text(json.dumps(payload, indent=1) + "\n")
    return path


def restamp(name: str, reason: str) -> list[str]:
    """Take the current fingerprint for data set ``name`` without re-recording it, keeping
    ``reason`` and what changed; returns what changed."""
    if not reason.strip():
        raise SystemExit("a re-stamp needs a reason: why the recorded numbers still hold")
    path = stamp_path(name)
    payload = json.loads(path.read_text())
    recorded = RECORDED[name]
    now = fingerprint(recorded.modules)
    diff = changed(payload["fingerprint"], now)
    payload["modules"] = list(recorded.modules)
    payload["fingerprint"] = now
    payload["restamps"].append({"date": _now(), "commit": _git("rev-parse", "HEAD"),
                                "reason": reason.strip(), "changed": diff})
    path.write_text(json.dumps(payload, indent=1) + "\n")
    return diff


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="stamp or re-stamp a recorded data set")
    sub = parser.add_subparsers(dest="verb", required=True)
    check = sub.add_parser("check", help="list the data sets whose code changed since they were stamped")
    check.add_argument("names", nargs="*")
    re_ = sub.add_parser("restamp", help="take the current fingerprint, with a reason")
    re_.add_argument("name", choices=sorted(RECORDED))
    re_.add_argument("--reason", required=True)
    args = parser.parse_args(argv)
    if args.verb == "restamp":
        diff = restamp(args.name, args.reason)
        print(f"re-stamped {args.name}: " + ("; ".join(diff) or "nothing had changed"))
        return 0
    stale = 0
    for name in args.names or sorted(RECORDED):
        payload = json.loads(stamp_path(name).read_text())
        diff = changed(payload["fingerprint"], fingerprint(RECORDED[name].modules))
        stale += bool(diff)
        print(f"{name}: " + ("; ".join(diff) if diff else "up to date"))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
