"""A pytest plugin over strict nbval: a watchdog on the notebook kernels, and three checks nbval's
comparison of code cells misses (explorer frames, numbers quoted in the prose, the text of the
figures).

Loaded by the root ``conftest.py`` (``pytest_plugins``), which puts ``tools/`` on ``sys.path``.

nbval waits for a cell's reply up to its cell timeout. A kernel that has stopped answering
(the reply lost, the kernel idle) would keep a test worker waiting that long, so each cell
runs under a watchdog: when the kernel has used no CPU for ``nbval_kernel_stall`` seconds
(pytest.ini) and the cell has not finished, the kernel counts as stopped answering. The
watchdog then kills it, starts a new kernel, replays the notebook's earlier cells and runs
the cell again, once per notebook. If the new kernel stops answering too, the cell fails with
``<notebook>: kernel stopped answering at cell N`` and the notebook's later cells fail at once.

A kernel that dies while starting (a port taken by another process) is started once more.

A cell that legitimately sits idle (sleeping, waiting for the network) for the stall time
would be taken for a stopped kernel; the book has none.

A cell that shows an explorer (``cfrbook.interactive``) is tagged ``nbval-ignore-output`` (its
widget ids change on every run), but the frames its static page shows must be the figures a kernel
draws. The notebooks run with ``CFRLIB_EXPLORER_FRAMES=sample`` (unless the environment sets it),
so a fresh run draws each explorer's opening frame and the end of its grid farther from it; after
the cell runs, each is compared with the saved frame of the same grid point: its printed text as
nbval compares outputs (after the sanitize file's substitutions: round-off), its picture within a
tolerance (tools/frame_check.py: the same size and at most a handful of changed pixels, because
numpy's arithmetic may differ in the last bit between CPUs).

Strict nbval compares code cells' outputs only. The numbers quoted in the prose are inline
``{eval}`` expressions of markdown cells, with their results stored in the cells' metadata
(tools/user_expressions.py): after each code cell, the expressions of the markdown cells that
follow it are evaluated in the same kernel, and the code cell's test fails when one of them no
longer shows its stored result (or has none). A markdown cell quoting timings is tagged
``nbval-ignore-output``, like the code cell that measures them: its results are not compared.

Every kernel checks the figures it saves as images, inline or as explorer frames
(tools/figure_layout.py, installed when the kernel starts): after each cell the problems found
(overlapping or cut-off text, text too small once shown in the page's column, a legend over the
data) fail the cell, naming the figure and the texts.

The test processes and the kernels run Python's cyclic garbage collector less often
(tools/collector.py).

The kernels are started as forks of a process that has already imported what they all import
(tools/kernel_zygote.py).
"""

from __future__ import annotations

import ast
import json
import math
import os
import re
import signal
import time

import psutil
import pytest

import collector
import kernel_zygote
import user_expressions
from figure_layout import KERNEL_INSTALL as FIGURE_CHECK_INSTALL
from frame_check import explorer_differences

from cfrbook.interactive import FRAMES_VARIABLE

try:
    from nbval.plugin import IPyNbCell, NbCellError
except ImportError:  # pragma: no cover - nbval is pinned in requirements.txt
    IPyNbCell = NbCellError = None

CHECK_EVERY = 1.0   # seconds between two looks at the kernel's CPU time
IDLE_CPU = 0.05     # CPU seconds a kernel may use over the stall time and still count as idle


def pytest_configure(config):
    os.environ.setdefault(FRAMES_VARIABLE, "sample")   # the kernels nbval starts inherit it
    collector.use()
    kernel_zygote.install()   # the kernels are forks of one that has imported what they all import


def pytest_addoption(parser):
    parser.addini("nbval_kernel_stall", default="60",
                  help="seconds a notebook kernel may stay idle without finishing its cell "
                       "before it counts as stopped answering")


class KernelStoppedAnswering(Exception):
    """Raised in the test's thread when the watched kernel has stopped answering."""


def _cpu_seconds(pid: int, busy_above: float = math.inf) -> float:
    """User plus system CPU time of a process and of all its children, live or reaped; once the
    process's own time exceeds ``busy_above`` its live children are not looked at (listing them
    reads every process of the machine, a few milliseconds each second of a test run)."""
    try:
        process = psutil.Process(pid)
        times = process.cpu_times()
        total = times.user + times.system + times.children_user + times.children_system
        if total > busy_above:
            return total
        for child in process.children(recursive=True):
            try:
                child_times = child.cpu_times()
                total += child_times.user + child_times.system
            except psutil.Error:
                pass
        return total
    except psutil.Error:
        return float("nan")


def _kernel_pid(kernel) -> int | None:
    provisioner = getattr(getattr(kernel, "km", None), "provisioner", None)
    return getattr(provisioner, "pid", None)


class _Watchdog:
    """Interrupts the blocking wait of the main thread (through SIGALRM) with
    KernelStoppedAnswering once the kernel has used less than IDLE_CPU seconds of CPU over
    the last ``stall`` seconds."""

    def __init__(self, kernel, stall: float, where: str):
        self.pid = _kernel_pid(kernel)
        self.stall = stall
        self.where = where

    def _check(self, signum, frame):
        now, cpu = time.monotonic(), _cpu_seconds(self.pid, busy_above=self.cpu + IDLE_CPU)
        if not cpu - self.cpu < IDLE_CPU:          # busy (or the process is gone: nan)
            self.since, self.cpu = now, cpu
        elif now - self.since >= self.stall:
            signal.setitimer(signal.ITIMER_REAL, 0)
            raise KernelStoppedAnswering(
                f"{self.where}: kernel stopped answering: no reply and no CPU used by the "
                f"kernel for {self.stall:g} s")

    def __enter__(self):
        self.usable = self.pid is not None and hasattr(signal, "setitimer")
        if self.usable:
            self.since, self.cpu = time.monotonic(), _cpu_seconds(self.pid)
            self.previous = signal.signal(signal.SIGALRM, self._check)
            signal.setitimer(signal.ITIMER_REAL, CHECK_EVERY, CHECK_EVERY)
        return self

    def __exit__(self, *exc):
        if self.usable:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


def _stopped_answering(error: BaseException) -> bool:
    """The watchdog's own verdict, or nbval's timeout waiting for a finished cell's output
    (the kernel's "idle" message lost); a cell that runs past nbval's cell timeout is a slow
    cell, not a silent kernel, and fails as nbval reports it."""
    return isinstance(error, KernelStoppedAnswering) or (
        isinstance(error, NbCellError) and "exceeded waiting for output" in str(error))


def _restart_and_replay(item, stall: float) -> None:
    """Kill the notebook's kernel, start a new one and run the cells before ``item`` again."""
    notebook = item.parent
    pid = _kernel_pid(notebook.kernel)
    if pid is not None:
        try:
            psutil.Process(pid).kill()
        except psutil.Error:
            pass
    try:
        notebook.kernel.stop()
    except Exception:  # the kernel is gone already; only its channels are left to close
        pass
    notebook.timed_out = False
    notebook.setup()
    kernel = notebook.kernel
    earlier = [other for other in item.session.items
               if other.parent is notebook and other.cell_num < item.cell_num
               and not other.options["skip"]]
    for other in earlier:
        with _Watchdog(kernel, stall, f"{notebook.nodeid}, replaying cell {other.cell_num}"):
            msg_id = kernel.execute_cell_input(other.cell.source, allow_stdin=False)
            kernel.await_reply(msg_id, timeout=item.config.option.nbval_cell_timeout)
            kernel.await_idle(msg_id, other.output_timeout)


def _user_expressions(notebook, request: dict[str, str], timeout: float) -> dict:
    """Evaluate ``request`` (``{key: expression}``) in the notebook's kernel, running no cell;
    the kernel's ``user_expressions`` reply."""
    kernel = notebook.kernel
    msg_id = kernel.kc.execute("", store_history=False, allow_stdin=False,
                               user_expressions=request)
    reply = kernel.get_message("shell", timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kernel.get_message("shell", timeout)
    kernel.await_idle(msg_id, timeout)
    return reply["content"]["user_expressions"]


def _stale_quotes(item) -> list[str]:
    """Evaluate the expressions of the markdown cells after ``item``'s code cell (up to the next
    code cell) in the notebook's kernel; what differs from the results stored in the cells, both
    sides passed through the sanitize file's substitutions as nbval's outputs are (round-off)."""
    notebook, timeout = item.parent, item.config.option.nbval_cell_timeout
    cells = notebook.nb.cells
    start = next(number for number, cell in enumerate(cells) if cell is item.cell) + 1
    stale = []
    for number in range(start, len(cells)):
        cell = cells[number]
        if cell.cell_type == "code":
            break
        found = user_expressions.expressions(cell.source) if cell.cell_type == "markdown" else []
        if not found or "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        results = _user_expressions(notebook, user_expressions.request(found), timeout)
        saved = user_expressions.stored(cell)
        for entry in user_expressions.entries(found, results):
            now = user_expressions.shown(entry["result"])
            if entry["expression"] not in saved:
                stale.append(f"cell {number} (markdown): {{eval}}`{entry['expression']}` has no "
                             f"stored result (it evaluates to {now})")
            elif (item.sanitize(was := user_expressions.shown(saved[entry["expression"]]))
                  != item.sanitize(now)):
                stale.append(f"cell {number} (markdown): {{eval}}`{entry['expression']}` shows "
                             f"{was} (stored) but evaluates to {now}")
    return stale


def _run_and_check_quotes(item, runtest) -> None:
    """nbval's test of a code cell, then the check of the quoted numbers that follow it."""
    runtest()
    stale = _stale_quotes(item)
    if stale:
        pytest.fail(f"{item.parent.nodeid}: numbers quoted in the prose went stale; re-execute "
                    f"the notebook (tools/execute-notebooks {item.parent.nodeid}):\n  "
                    + "\n  ".join(stale), pytrace=False)


def _guarded_runtest(item, runtest) -> None:
    """Run one nbval cell under the watchdog; on a stopped kernel, restart, replay, retry once
    per notebook."""
    notebook = item.parent
    stall = float(item.config.getini("nbval_kernel_stall"))
    where = f"{notebook.nodeid}, cell {item.cell_num}"
    dead_at = getattr(notebook, "_kernel_dead_at", None)
    if dead_at is not None:
        pytest.fail(f"{where}: not run: the notebook's kernel stopped answering at cell "
                    f"{dead_at}", pytrace=False)
    for retry in (False, True):
        try:
            if retry:
                _restart_and_replay(item, stall)
            with _Watchdog(notebook.kernel, stall, where):
                return _run_and_check_quotes(item, runtest)
        except Exception as error:
            if not _stopped_answering(error):
                raise
            if getattr(notebook, "_kernel_restarted", False):
                notebook._kernel_dead_at = item.cell_num
                pytest.fail(f"{error} (again, after a restart of the kernel)", pytrace=False)
            notebook._kernel_restarted = True
            item.warn(pytest.PytestWarning(
                f"{error}; restarted the kernel, replayed the cells before cell "
                f"{item.cell_num} and ran it again"))


def _setup_with_retry(notebook, setup) -> None:
    """Start the notebook's kernel; once more if it died before answering (a port chosen for
    it can be taken by another process, starting kernels too, before the kernel binds it)."""
    try:
        setup()
    except RuntimeError as error:
        if "Kernel died before replying" not in str(error):
            raise
        notebook.warn(pytest.PytestWarning(f"{notebook.nodeid}: {error}; starting it again"))
        setup()
    _prepare_kernel(notebook)


_EXPLORER_DATA = re.compile(r'class="cfrlib-explorer-data">(.*?)</script>', re.DOTALL)


def _explorers(outputs) -> list[dict]:
    """The data of every explorer's static page among a cell's outputs."""
    return [json.loads(found.group(1)) for output in outputs or ()
            for found in _EXPLORER_DATA.finditer(output.get("data", {}).get("text/html", ""))]


def _check_explorer_frames(item) -> None:
    """Fail the cell if an explorer's saved static page differs from the fresh run's."""
    saved, fresh = _explorers(item.cell.outputs), _explorers(item.test_outputs)
    where = f"{item.parent.nodeid}, cell {item.cell_num}"
    if len(saved) != len(fresh):
        pytest.fail(f"{where}: {len(saved)} explorer(s) saved, {len(fresh)} in a fresh run",
                    pytrace=False)
    for number, (old, new) in enumerate(zip(saved, fresh), 1):
        found = explorer_differences(old, new, item.sanitize)
        if found:
            pytest.fail(f"{where}: explorer {number}: its saved frames differ from a fresh run's; "
                        "the published page would not show what a kernel draws (re-execute the "
                        "notebook: make execute NB=...):\n  " + "\n  ".join(found), pytrace=False)


def _prepare_kernel(notebook) -> None:
    """Make the notebook's kernel check every figure it saves (tools/figure_layout.py) and
    collect its garbage less often (tools/collector.py)."""
    found = _user_expressions(notebook, {"installed": FIGURE_CHECK_INSTALL,
                                         "collector": collector.KERNEL_SETUP}, 60)
    for name, what in (("installed", "the figure check"), ("collector", "the collector's thresholds")):
        if found[name].get("status") != "ok":
            raise RuntimeError(f"{notebook.nodeid}: {what} could not be set in its kernel: "
                               f"{found[name]}")


def _check_figures(item) -> None:
    """Fail the cell if a figure it drew has text a reader cannot read (tools/figure_layout.py):
    overlapping or cut-off text, text too small on the page, a legend over the data."""
    found = _user_expressions(item.parent, {"found": "__import__('figure_layout').take()"},
                              item.config.option.nbval_cell_timeout)["found"]
    if found.get("status") != "ok":
        pytest.fail(f"{item.parent.nodeid}, cell {item.cell_num}: the figure check failed in "
                    f"the kernel: {found}", pytrace=False)
    problems = ast.literal_eval(found["data"]["text/plain"])
    if problems:
        pytest.fail(f"{item.parent.nodeid}, cell {item.cell_num}: {len(problems)} problem(s) "
                    "with the text of its figures, as the page shows them:\n  "
                    + "\n  ".join(problems), pytrace=False)


def _run_cell(item, runtest) -> None:
    _guarded_runtest(item, runtest)
    _check_explorer_frames(item)
    _check_figures(item)


def pytest_itemcollected(item):
    if IPyNbCell is not None and isinstance(item, IPyNbCell):
        runtest = item.runtest
        item.runtest = lambda: _run_cell(item, runtest)
        notebook = item.parent
        if "setup" not in vars(notebook):
            setup = notebook.setup
            notebook.setup = lambda: _setup_with_retry(notebook, setup)
