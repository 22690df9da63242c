"""`make test` collects tests/ and tests/browser/ in one run (pytest.ini's testpaths; CI leaves the
browser out of it and runs it after the book is built). A test file outside a package is imported
under its bare name, so two such files with one name stop the whole collection ("import file
mismatch"): every name is unique."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_two_test_files_outside_a_package_share_a_module_name():
    where = defaultdict(list)
    for path in (ROOT / "tests").rglob("test_*.py"):
        if not (path.parent / "__init__.py").exists():
            where[path.stem].append(str(path.relative_to(ROOT)))
    assert len(where) > 50
    assert not {name: paths for name, paths in where.items() if len(paths) > 1}
