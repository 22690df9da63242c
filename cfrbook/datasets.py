"""The recorded data the book's chapters plot, shipped inside the package.

Some curves take minutes to compute (the comparison study of chapter 10, the long sampling runs
of chapters 6 and 7, the LP benchmark): scripts in ``benchmarks/`` record them once into
``cfrbook/data/<name>.json``, and the chapters read them with :func:`load_json`, from wherever
cfrbook is installed (a wheel carries them as package data), so a downloaded notebook runs
outside the repository.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from cfrlib.errors import CfrlibError

NAMES = ("comparison", "sampling_curves", "lp_vs_cfr", "distributed", "frontier_curves", "subgame_study",
         "sampling_rules", "regret_pruning", "vr_mccfr", "public_chance", "deep_cfr", "last_iterate",
         "depth_limited_study", "holdem", "chapter_runs")
"""The recorded data sets."""


def load_json(name: str) -> dict[str, Any]:
    """The recorded data set ``name`` (one of :data:`NAMES`), parsed."""
    if name not in NAMES:
        raise CfrlibError(f"no recorded data set {name!r}; there are {', '.join(NAMES)}")
    source = resources.files("cfrbook") / "data" / f"{name}.json"
    try:
        return json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CfrlibError(f"cfrbook is installed without its data ({name}.json is missing): "
                          "reinstall it from a wheel or the repository") from None


def source_path(name: str) -> Path:
    """Where the benchmark scripts write data set ``name``: ``cfrbook/data/`` of this checkout."""
    if name not in NAMES:
        raise CfrlibError(f"no recorded data set {name!r}; there are {', '.join(NAMES)}")
    return Path(__file__).parent / "data" / f"{name}.json"
