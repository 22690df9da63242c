"""Where the time of the README's commands goes on this machine, from a fresh clone (issue 40).

    .venv/bin/python benchmarks/suite_time.py [--keep DIR] [--markdown] [--commit COMMIT]
    .venv/bin/python benchmarks/suite_time.py --against COMMIT [--rounds N]

Clones this checkout's HEAD into a temporary folder (or DIR, kept afterwards) and runs there, one
after the other, as a new contributor would: ``make venv``, ``make check`` and ``make test``
(without the browser tests, as CI runs it). For each it reports the wall time and the CPU time
of all its processes (``wait4``: test workers, notebook kernels, book
builds), then the tests' own durations from pytest's ``--durations=0``, summed by kind
(notebooks, book builds, wheel, the rest), the heaviest files and every chapter, and the tests of
``make check`` that took half a second or more (the rule of the ``slow`` marker). Run it on the
slower machines of this kind to see whether their time goes where this machine's does; the
first lines name the CPU, whether its cores are threads of one physical core (SMT) and whether it
has AVX-512.

``--commit COMMIT`` runs that commit instead of HEAD, to set one machine's figures against another's
measured on the same code. The slower machine of issue 40 (an AMD EPYC with AVX2, no AVX-512) ran
commit ee0926f from a fresh clone: ``make check`` in 91 s, ``make test`` in 488 s of pytest and
542 s with its environment, the browser check in 893 s on one worker.

With ``--against COMMIT`` it compares HEAD with another commit instead: both are cloned fresh
and run ``make test`` (their virtual environment included, without the browser tests) at the same
time, ``--rounds`` times, and each run's wall and CPU time is reported with the ratio of HEAD's
to the other's. These machines' speed drifts by a third within the hour, so two runs made one
after the other can differ more than the change being measured; two run side by side share
whatever the machine is doing (each takes about twice as long as alone).

Nothing here asserts a time: the tables are for reading (tests/test_suite_time.py checks the
parsing, the grouping and the side-by-side runner's accounting on small commands).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from common import print_table

ROOT = Path(__file__).resolve().parents[1]
DURATION = re.compile(r"^\s*([\d.]+)s (?:call|setup|teardown)\s+(([^:\s]+)::.*?)\s*$")
QUICK_TIER_LIMIT = 0.5
"""Seconds of a test beyond which pytest.ini's rule marks it ``slow`` (make test only)."""


def durations(output: str, per_test: bool = False) -> Counter[str]:
    """Seconds per test file (or notebook) in pytest's ``--durations=0`` report, or per test
    (its id, parameters included) with ``per_test``: the call, setup and teardown phases summed."""
    found: Counter[str] = Counter()
    for line in output.splitlines():
        match = DURATION.match(line)
        if match:
            found[match.group(2 if per_test else 3)] += float(match.group(1))
    return found


def kind_of(path: str, book_files: set[str], wheel_files: set[str]) -> str:
    """``notebooks``, ``book builds``, ``wheel`` or ``unit tests``: what a file's time is spent on."""
    if path.endswith(".ipynb"):
        return "notebooks"
    if path in book_files:
        return "book builds"
    if path in wheel_files:
        return "wheel"
    return "unit tests"


def marked_files(marker: str, root: Path = ROOT) -> set[str]:
    """The test files of the checkout ``root`` holding a test with ``marker`` (``book``,
    ``wheel``), by their source."""
    pattern = re.compile(rf"pytest\.mark\.{marker}\b")
    return {str(p.relative_to(root)) for p in (root / "tests").rglob("test_*.py")
            if pattern.search(p.read_text())}


def side_by_side(commands: dict[str, tuple[list[str], Path]],
                 stop_on_failure: bool = True) -> dict[str, tuple[float, float, str]]:
    """Start every command of ``{name: (command, working directory)}`` at once; for each, ``(wall
    seconds, CPU seconds of it and its descendants, output)`` (``wait4``: each command's own
    accounting, whatever else runs beside it). Exits naming any command that failed, or with
    ``stop_on_failure`` False says so on stderr and returns every result."""
    found: dict[str, tuple[float, float, str]] = {}
    failed: list[tuple[str, str]] = []   # (what failed, its output)

    def watch(name: str, command: list[str], cwd: Path) -> None:
        with tempfile.TemporaryFile("w+") as output:
            start = time.perf_counter()
            process = subprocess.Popen(command, cwd=cwd, stdout=output, stderr=subprocess.STDOUT, text=True)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - start
            output.seek(0)
            text = output.read()
        if process.returncode != 0:
            failed.append((f"{name}: {' '.join(command)} failed", text))
        found[name] = (wall, usage.ru_utime + usage.ru_stime, text)

    threads = [threading.Thread(target=watch, args=(name, command, cwd))
               for name, (command, cwd) in commands.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed and stop_on_failure:
        sys.exit("\n".join(f"{what}:\n{text[-3000:]}" for what, text in failed))
    for what, text in failed:
        tail = "\n".join(text.splitlines()[-5:])
        print(f"{what} (its times are reported); the end of its output:\n{tail}\n", file=sys.stderr)
    return {name: found[name] for name in commands}


def clone(work: Path, commit: str = "HEAD") -> str:
    """Clone this checkout into ``work`` at ``commit``; its short hash."""
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(work)], check=True)
    subprocess.run(["git", "checkout", "--quiet", commit], cwd=work, check=True)
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=work, capture_output=True,
                          text=True, check=True).stdout.strip()


def compare(against: str, rounds: int, work: Path, markdown: bool) -> None:
    """``make test`` of HEAD and of ``against``, fresh clones run side by side, ``rounds`` times."""
    print(f"Machine: {cpu_name()}; make test with its environment, side by side, in {work}\n")
    rows = []
    for round_ in range(1, rounds + 1):
        folders = {"HEAD": work / f"head-{round_}", against: work / f"other-{round_}"}
        names = {label: clone(folder, "HEAD" if label == "HEAD" else against)
                 for label, folder in folders.items()}
        runs = side_by_side({label: (["make", "test", "ARGS=--ignore=tests/browser -q"], folder)
                             for label, folder in folders.items()})
        (wall, cpu, _), (other_wall, other_cpu, _) = runs["HEAD"], runs[against]
        rows.append([str(round_), f"{names['HEAD']} {wall:.0f} / {cpu:.0f}",
                     f"{names[against]} {other_wall:.0f} / {other_cpu:.0f}",
                     f"{wall / other_wall:.3f}", f"{cpu / other_cpu:.3f}"])
    print_table(["round", "HEAD: wall / CPU s", "other: wall / CPU s", "wall ratio", "CPU ratio"],
                rows, markdown)


def threads_of_a_core(siblings: str) -> int:
    """How many logical CPUs share cpu0's physical core, from the kernel's
    ``thread_siblings_list`` ("0", "0-1", "0,2"); more than one means SMT: two test workers on
    two such CPUs share one core's arithmetic."""
    count = 0
    for part in filter(None, siblings.strip().split(",")):
        first, _, last = part.partition("-")
        count += int(last or first) - int(first) + 1
    return count


def cpu_name() -> str:
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    model = re.search(r"model name\s*:\s*(.*)", info)
    avx512 = " avx512f" in info
    siblings = Path("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list")
    threads = threads_of_a_core(siblings.read_text()) if siblings.exists() else 1
    shared = f" (SMT: {threads} threads a physical core)" if threads > 1 else ", one thread a core"
    return f"{model.group(1) if model else 'unknown CPU'}, {os.cpu_count()} cores{shared}, " + \
        ("AVX-512" if avx512 else "no AVX-512")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", type=Path, help="clone into this folder and keep it")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--against", metavar="COMMIT",
                        help="compare make test of HEAD with this commit's, run side by side")
    parser.add_argument("--rounds", type=int, default=1, help="side-by-side rounds (--against)")
    parser.add_argument("--commit", default="HEAD", help="the commit to run (default HEAD)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="suite-time-"))
    if args.against:
        compare(args.against, args.rounds, work, args.markdown)
        return
    commit = clone(work, args.commit)
    print(f"Machine: {cpu_name()}; a fresh clone of commit {commit} in {work}\n")

    phases = {}
    for name, command in (("make venv", ["make", "venv"]),
                          ("make check", ["make", "check", "ARGS=--durations=0 -q"]),
                          ("make test", ["make", "test", "ARGS=--ignore=tests/browser --durations=0 -q"])):
        # one after the other; an old commit (--commit) may fail a test on this machine: its
        # times still count
        phases[name] = side_by_side({name: (command, work)}, stop_on_failure=False)[name]
    print_table(["command", "wall s", "CPU s", "CPU / wall"],
                [[name, f"{wall:.0f}", f"{cpu:.0f}", f"{cpu / wall:.2f}"]
                 for name, (wall, cpu, _) in phases.items()], args.markdown)

    files = durations(phases["make test"][2])
    book, wheel = marked_files("book", work), marked_files("wheel", work)
    kinds: Counter[str] = Counter()
    for path, seconds in files.items():
        kinds[kind_of(path, book, wheel)] += seconds
    total = sum(kinds.values())
    print(f"make test: the tests' durations ({total:.0f} s summed over the workers), by kind")
    print_table(["kind", "s", "share"], [[k, f"{s:.0f}", f"{s / total:.0%}"] for k, s in kinds.most_common()],
                args.markdown)
    print("make test: the heaviest files")
    print_table(["file", "s"], [[p, f"{s:.1f}"] for p, s in files.most_common(15)], args.markdown)
    print("make test: each chapter under nbval")
    print_table(["chapter", "s"], [[p, f"{s:.1f}"] for p, s in sorted(files.items()) if p.endswith(".ipynb")],
                args.markdown)
    check = durations(phases["make check"][2])
    print(f"make check: the heaviest files ({sum(check.values()):.0f} s summed over the workers)")
    print_table(["file", "s"], [[p, f"{s:.1f}"] for p, s in check.most_common(10)], args.markdown)
    over = [(t, s) for t, s in durations(phases["make check"][2], per_test=True).most_common()
            if s >= QUICK_TIER_LIMIT]
    print(f"make check: the tests that took {QUICK_TIER_LIMIT} s or more (pytest.ini: mark them slow; "
          "a test's first use of a fixture or a compiled kernel counts)")
    print_table(["test", "s"], [[t, f"{s:.2f}"] for t, s in over] or [["none", ""]], args.markdown)


if __name__ == "__main__":
    main()
