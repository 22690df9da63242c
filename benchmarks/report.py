"""Run every ``bench_*.py`` script and write their tables into ``benchmarks/README.md``.

Run from the repository root (``make bench`` does): ``python benchmarks/report.py [--quick]``.
The tables replace what lies between the ``<!-- results -->`` markers of the README, headed by
the machine they were measured on.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np

from common import anchor_python

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
BEGIN, END = "<!-- results -->", "<!-- /results -->"


def anchors_line():
    """Which anchors ran: their versions in the anchors' interpreter, or that there were none."""
    python = anchor_python()
    if python is None:
        return "Anchors: not installed (`make bench` installs them into .venv-anchors)."
    code = ("from importlib.metadata import version; "
            "print(f\"OpenSpiel {version('open_spiel')}, LiteEFG {version('LiteEFG')}\")")
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return f"Anchors: {out.stdout.strip()} (in their own environment)." if out.returncode == 0 else \
        "Anchors: their interpreter does not import them."


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (scripts that support it)")
    args = parser.parse_args()
    sections = [f"Measured on {datetime.date.today()}: {os.cpu_count()} cores, Python "
                f"{platform.python_version()}, numpy {np.__version__}. Times are medians over repeats; "
                "absolute times vary between machines, ratios less so. " + anchors_line() + "\n"]
    for script in sorted(HERE.glob("bench_*.py")):
        command = [sys.executable, str(script), "--markdown"]
        if args.quick and "--quick" in script.read_text():
            command.append("--quick")
        print(f"== {script.name}", flush=True)
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        print(out)
        title = script.read_text().split('"""')[1].strip().splitlines()[0]
        sections.append(f"### {script.name}: {title}\n\n{out.strip()}\n")
    text = README.read_text()
    if BEGIN not in text:
        text = text.rstrip() + f"\n\n## Results\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    README.write_text(head + BEGIN + "\n" + "\n".join(sections) + END + tail)
    print(f"tables written to {README.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
