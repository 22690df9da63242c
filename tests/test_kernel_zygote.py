"""tools/kernel_zygote.py: the notebook kernels of a test process are forks of a zygote that has
imported what they all import, and behave as kernels started from nothing: in the folder,
environment and process group they were launched with, with matplotlib's inline figures, and
interrupted, killed and waited for through jupyter_client as before. A launch the zygote cannot
serve starts a process as before.

(Every notebook of ``make test`` runs in such a kernel, and tests/book/test_build_guards.py
stops, restarts and kills them.)
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import psutil
import pytest
from jupyter_client.manager import KernelManager

import kernel_zygote

pytestmark = pytest.mark.slow   # kernels started: make test only

TOOLS = Path(kernel_zygote.__file__).resolve().parent


@pytest.fixture(scope="module")
def own_zygote():
    """A zygote for this module's kernels, started with their environment (the test process's
    was started with the environment of its first kernel, which a test may have changed since);
    the process's own is put back after."""
    kernel_zygote.install()
    saved, kernel_zygote._zygote = kernel_zygote._zygote, None
    yield
    if kernel_zygote._zygote is not None:
        kernel_zygote._zygote.close()
    kernel_zygote._zygote = saved


@pytest.fixture
def kernel(tmp_path, own_zygote):
    """A started kernel (launched as nbval launches one) and its client; shut down after."""
    started = []

    def start(**options):
        manager = KernelManager(kernel_name="python3")
        manager.start_kernel(cwd=str(tmp_path), **options)
        client = manager.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        started.append((manager, client))
        return manager, client

    yield start
    for manager, client in started:
        client.stop_channels()
        if manager.has_kernel:
            manager.shutdown_kernel(now=True)


def run(client, code: str, timeout: float = 60) -> tuple[list[dict], dict]:
    """The output messages of ``code`` and its reply."""
    outputs: list[dict] = []
    reply = client.execute_interactive(code, timeout=timeout, output_hook=outputs.append)
    return outputs, reply


def printed(outputs: list[dict]) -> str:
    return "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")


PROBE = ("import os, sys\n"
         "print(os.getcwd())\n"
         "print(os.getpgid(0) == os.getpid() == os.getsid(0))\n"
         "print(os.environ['JPY_PARENT_PID'], os.environ['PYTEST_CURRENT_TEST'])\n"
         "print(sys.argv[0])\n"
         "print(sys.path)")


def test_a_kernel_is_a_fork_of_the_zygote_and_starts_as_one_started_from_nothing(kernel, tmp_path):
    """The same folder, session, launcher's environment, ``sys.argv[0]`` and ``sys.path`` as a
    kernel in a process of its own (started so by an environment the zygote does not serve)."""
    forked, forked_client = kernel()
    alone, alone_client = kernel(env={**os.environ, "CFRLIB_ANOTHER_ENVIRONMENT": "1"})
    pid = forked.provisioner.pid
    assert str(TOOLS / "kernel_zygote.py") in psutil.Process(pid).parent().cmdline()
    assert psutil.Process(alone.provisioner.pid).parent().pid == os.getpid()
    assert forked.provisioner.pgid == pid
    seen = []
    for client in (forked_client, alone_client):
        outputs, reply = run(client, PROBE)
        assert reply["content"]["status"] == "ok"
        seen.append(printed(outputs).splitlines())
    assert seen[0] == seen[1]
    folder, leader, launched_by, _, path = seen[0]
    assert Path(folder) == tmp_path
    assert leader == "True"                       # its own session and process group
    assert launched_by == f"{os.getpid()} {os.environ['PYTEST_CURRENT_TEST']}"
    assert str(TOOLS) not in path                 # the zygote's folder is not the kernel's
    outputs, _ = run(alone_client, "import os\nprint(os.environ['CFRLIB_ANOTHER_ENVIRONMENT'])")
    assert printed(outputs) == "1\n"


def test_a_forked_kernel_draws_inline_figures_and_has_imported_nothing_of_the_book(kernel):
    manager, client = kernel()
    outputs, _ = run(client, "import sys\n"
                             "print(sorted(m for m in ('cfrlib', 'cfrbook', 'ipywidgets', "
                             "'matplotlib.pyplot', 'matplotlib_inline') if m in sys.modules))\n"
                             "print('numba' in sys.modules)\n"
                             "import matplotlib.pyplot as plt\n"
                             "print(plt.get_backend())\n"
                             "plt.plot([0, 1], [1, 0])")
    assert printed(outputs).splitlines() == ["[]", "True",
                                             "module://matplotlib_inline.backend_inline"]
    assert any("image/png" in m["content"].get("data", {}) for m in outputs
               if m["msg_type"] == "display_data")


def test_a_forked_kernel_is_interrupted_killed_and_waited_for_as_before(kernel):
    manager, client = kernel()
    provisioner = manager.provisioner
    client.execute("import time\nfor _ in range(600):\n    time.sleep(0.1)")
    time.sleep(0.5)
    manager.interrupt_kernel()
    reply = client.get_shell_msg(timeout=30)
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    assert manager.is_alive()
    pid = provisioner.pid
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while manager.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert provisioner.process.poll() == -signal.SIGKILL
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_a_kernel_that_exits_reports_its_exit_code(kernel):
    manager, client = kernel()
    client.execute("import os\nos._exit(3)")
    deadline = time.monotonic() + 10
    while manager.provisioner.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert manager.provisioner.process.poll() == 3
