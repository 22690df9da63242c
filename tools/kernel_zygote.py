"""Start notebook kernels by forking a process that has already imported what every kernel of the
book imports (a "zygote"), rather than starting each kernel's Python from nothing.

A chapter's kernel spent about 3.2 s of CPU before its first figure, the same in every kernel:
starting ipykernel (0.65 s), the first cell's imports (1.3 s) and numba's first use (1.25 s: its
import, its registries and the scipy.linalg its BLAS check loads); a forked one spends about 1.0 s
(Intel Xeon). The zygote imports once per test process; each kernel is then a fork of it that
starts ipykernel as ``python -m ipykernel_launcher`` would, in the working folder, environment and
standard streams the kernel manager asked for.

What a forked kernel has that a fresh one has not is only modules imported: no shell, no widget,
no matplotlib backend, no numba function, nothing of cfrlib or the book. Modules whose import
registers with a running IPython (``ipywidgets``, ``matplotlib_inline``, ``matplotlib.pyplot``)
are left out, so that the kernel imports them itself. ``MPLBACKEND`` is set before matplotlib
is imported, as ipykernel sets it before any notebook code runs.

:func:`install` (the nbval plugin of tools/nbval_watchdog.py calls it) replaces
``LocalProvisioner.launch_kernel`` of jupyter_client in the test process. A launch is forked only
when it is the plain ``python -m ipykernel_launcher`` of this interpreter and its environment is
the zygote's but for variables that change between tests (:data:`VOLATILE`); any other launch
(another interpreter, an environment a test changed) starts a process as before. The
provisioner's process is then a :class:`Forked`, which answers as ``subprocess.Popen`` does; the
kernel's process group, signals and the watchdog's CPU readings work on its pid as before.

Run as a script (``python kernel_zygote.py SOCKET``), this module is the zygote: it imports
:data:`PRELOAD`, then forks a kernel for each request on the Unix socket ``SOCKET`` and reaps
them, until the process that started it exits.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from typing import Any

import psutil

PRELOAD = ("numpy", "scipy.linalg", "matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg",
           "matplotlib.font_manager", "PIL.PngImagePlugin", "numba", "ipykernel.kernelapp")
"""Modules the zygote imports: the book's kernels all import them, and importing them neither
starts a thread that a fork would lose nor registers with a running IPython."""
VOLATILE = frozenset({"PYTEST_CURRENT_TEST", "JPY_SESSION_NAME"})
"""Environment variables that may differ between the zygote and a kernel forked from it (the
kernel gets the value its launch asked for)."""
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"
LAUNCHER = "ipykernel_launcher"
STARTUP_SECONDS = 60.0


# ------------------------------------------------------------------------------ the zygote
def _serve(path: str) -> None:
    """Import :data:`PRELOAD`, then fork a kernel for each request on the socket at ``path``."""
    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)   # as ipykernel sets it, before matplotlib
    del sys.path[0]                                         # this script's folder: not the kernels'
    for name in PRELOAD:
        importlib.import_module(name)
    from numba.core.registry import cpu_target

    cpu_target.target_context.refresh()                     # numba's registries, scipy.linalg's BLAS
    cpu_target.typing_context.refresh()
    parent = os.getppid()
    live: set[int] = set()
    exited: dict[int, int] = {}
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    listener.settimeout(1.0)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while os.getppid() == parent:
            _reap(live, exited)
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(None)
                message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
                request = json.loads(message.decode())
                if request["op"] == "fork":
                    pid = os.fork()
                    if pid == 0:
                        listener.close()
                        _become_kernel(request, fds, conn)
                    live.add(pid)
                    for fd in fds:
                        os.close(fd)
                    conn.sendall(json.dumps({"pid": pid}).encode())
                else:   # "status"
                    _reap(live, exited)
                    conn.sendall(json.dumps({"returncode": exited.get(request["pid"])}).encode())
    finally:   # the kernels do not outlive the test process that asked for them
        for pid in live:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass


def _reap(live: set[int], exited: dict[int, int]) -> None:
    """Collect the kernels that have exited (their exit codes into ``exited``)."""
    while live:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        live.discard(pid)
        exited[pid] = os.waitstatus_to_exitcode(status)


def _become_kernel(request: dict[str, Any], fds: list[int], conn: socket.socket) -> None:
    """In the forked child: the standard streams, session, folder and environment of the launch,
    then ipykernel as ``python -m ipykernel_launcher ARGS`` runs it. Never returns."""
    code = 1
    try:
        conn.close()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setsid()                                   # as launch_kernel's start_new_session
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import ipykernel_launcher
        from ipykernel import kernelapp

        sys.argv = [ipykernel_launcher.__file__, *request["args"]]
        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)


# ----------------------------------------------------------------------- the test process
class Forked:
    """A kernel forked by the zygote, with the part of ``subprocess.Popen`` that jupyter_client's
    provisioner uses (its exit code comes from the zygote, its parent)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, zygote: Zygote) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._zygote = zygote

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._zygote.returncode(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(LAUNCHER, timeout or 0.0)
            time.sleep(0.02)
        return self.returncode   # type: ignore[return-value]

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The zygote of this process, started on first use with the environment of that launch."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = dict(env)
        self.folder = tempfile.mkdtemp(prefix="kernel-zygote-")
        self.path = os.path.join(self.folder, "socket")
        self.process = subprocess.Popen([sys.executable, __file__, self.path], env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        atexit.register(self.close)

    def accepts(self, cmd: list[str], env: dict[str, str]) -> bool:
        return (cmd[:3] == [sys.executable, "-m", LAUNCHER] and self.process.poll() is None
                and {k: v for k, v in env.items() if k not in VOLATILE}
                == {k: v for k, v in self.env.items() if k not in VOLATILE})

    def _ask(self, request: dict[str, Any], fds: Sequence[int] = ()) -> dict[str, Any]:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                try:
                    conn.connect(self.path)
                except (FileNotFoundError, ConnectionRefusedError):
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"the kernel zygote did not start (exit code "
                                           f"{self.process.poll()})") from None
                    time.sleep(0.05)
                    continue
                socket.send_fds(conn, [json.dumps(request).encode()], list(fds))
                conn.shutdown(socket.SHUT_WR)
                reply = b"".join(iter(lambda: conn.recv(1 << 16), b""))
                return json.loads(reply.decode())

    def fork(self, args: list[str], env: dict[str, str], cwd: str, streams: list[int]) -> Forked:
        reply = self._ask({"op": "fork", "args": args, "env": env, "cwd": cwd}, streams)
        return Forked(reply["pid"], self)

    def returncode(self, pid: int) -> int | None:
        if self.process.poll() is not None:   # no zygote: its kernels are orphans or gone
            return None if _alive(pid) else -signal.SIGKILL
        return self._ask({"op": "status", "pid": pid})["returncode"]

    def close(self) -> None:
        """Stop the zygote (it kills the kernels it forked) and remove its socket; once closed,
        nothing."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _stream(value: Any, fd: int) -> int:
    """The descriptor a launch's ``stdin``/``stdout``/``stderr`` argument stands for: ``None``
    is ``fd`` (this process's own, as a child inherits it), a file or a number is itself, anything
    else (``subprocess.PIPE``) is refused."""
    if value is None:
        return fd
    if isinstance(value, int) and value >= 0:
        return value
    if hasattr(value, "fileno"):
        return value.fileno()
    raise ValueError(value)


_zygote: Zygote | None = None


def install() -> None:
    """Make jupyter_client's local provisioner fork kernels from the zygote where it can."""
    from jupyter_client.provisioning.local_provisioner import LocalProvisioner

    if getattr(LocalProvisioner.launch_kernel, "zygote", False) or not hasattr(socket, "send_fds"):
        return
    launch = LocalProvisioner.launch_kernel

    async def launch_kernel(self, cmd, **kwargs):
        global _zygote
        options = LocalProvisioner._scrub_kwargs(kwargs)
        env = options.get("env")
        cwd = str(options.get("cwd") or os.getcwd())
        unusual = set(options) - {"env", "cwd", "stdin", "stdout", "stderr", "independent"}
        if env is None or unusual or options.get("independent"):
            return await launch(self, cmd, **kwargs)
        env = {**env, "JPY_PARENT_PID": str(os.getpid())}     # as launch_kernel sets it
        try:   # launch_kernel gives the kernel a closed pipe for stdin: /dev/null reads the same
            streams = [_stream(options.get("stdin"), -1), _stream(options.get("stdout"), 1),
                       _stream(options.get("stderr"), 2)]
        except ValueError:
            return await launch(self, cmd, **kwargs)
        if _zygote is None:
            _zygote = Zygote(env)
        if not _zygote.accepts(cmd, env):
            return await launch(self, cmd, **kwargs)
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            self.process = _zygote.fork([os.path.expanduser(part) for part in cmd[3:]], env, cwd,
                                        [null if fd < 0 else fd for fd in streams])
        finally:
            os.close(null)
        self.pid = self.pgid = self.process.pid
        self.cwd = cwd
        return self.connection_info

    launch_kernel.zygote = True
    LocalProvisioner.launch_kernel = launch_kernel


if __name__ == "__main__":
    _serve(sys.argv[1])
