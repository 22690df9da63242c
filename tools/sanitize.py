"""The substitutions of tests/nbval_sanitize.cfg, for the checks that compare outputs outside nbval.

Strict nbval passes a cell's saved and fresh outputs through them before comparing (memory
addresses, temporary paths, round-off: what legitimately differs between runs and CPUs); so do
the check of numbers quoted in the prose and of explorers' printed texts (tools/nbval_watchdog.py,
through nbval's own item) and the tests that read a chapter's numbers elsewhere, through this.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from nbval.plugin import get_sanitize_patterns

SANITIZE_FILE = Path(__file__).resolve().parents[1] / "tests" / "nbval_sanitize.cfg"


def sanitizer() -> Callable[[str], str]:
    """``text`` with every ``regex`` of SANITIZE_FILE replaced by its ``replace``, in order."""
    patterns = [(re.compile(regex), replace)
                for regex, replace in get_sanitize_patterns(SANITIZE_FILE.read_text())]

    def sanitize(text: str) -> str:
        for regex, replace in patterns:
            text = regex.sub(replace, text)
        return text
    return sanitize
