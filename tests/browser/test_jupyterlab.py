"""Open a chapter in a real JupyterLab (with jupyterlab-myst) in headless Chromium, run all its
cells, and check what a reader sees: the MyST of the markdown cells is rendered (no role or
directive left as source text) and the numbers quoted in the prose show their values.

Starts `jupyter lab` from this environment on a free localhost port, with a token, no browser,
and its config, runtime, data, settings and workspace folders in a temporary folder, on a copy
of the chapters (running the cells must not touch the repository). Installs
requirements-lab.txt when JupyterLab or jupyterlab-myst is missing (and marks it installed for
`make lab`). Skipped with the reason when Chromium, playwright or the lab packages are not
available, unless CFRLIB_REQUIRE_BROWSER_CHECK=1, which turns the skip into a failure.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import user_expressions  # noqa: E402
from sanitize import sanitizer  # noqa: E402

from test_rendered_book import CHROMIUM_FLAGS, _chromium, _unavailable  # noqa: E402

# Chapter 5 has the directives and roles of the others ({prf:}, {eval}, {ref}, {cite}); the whole
# test takes 10.2 s of CPU with it, 12.7 with chapter 4 (Intel Xeon).
CHAPTER = "05_why_cfr_works.ipynb"
# Source text that shows a role or directive left unrendered.
RAW_MARKUP = ["{glue", "{eval}", "{ref}", "{cite", "{prf:", "```{", ":::{"]
TOKEN = "cfrlib-browser-check"


def _lab_installed() -> bool:
    return all(importlib.util.find_spec(name) for name in ("jupyterlab", "jupyterlab_myst"))


def _install_lab() -> None:
    """Install requirements-lab.txt into this environment as the Makefile does (without the
    dependencies the file leaves out on purpose; with uv where make venv put it), then mark it
    installed for the Makefile (its stamp is keyed on the file's sha256)."""
    uv = Path(sys.prefix) / "bin" / "uv"      # make venv installs it: much faster than pip
    command = ([str(uv), "pip", "install", "--python", sys.executable] if uv.exists()
               else [sys.executable, "-m", "pip", "install"])
    run = subprocess.run(command + ["--quiet", "--no-deps", "-r",
                                    str(ROOT / "requirements-lab.txt")],
                         capture_output=True, text=True, timeout=900)
    if run.returncode != 0 or not _lab_installed():
        _unavailable(f"could not install requirements-lab.txt: {run.stderr[-1000:]}")
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve():
        key = hashlib.sha256((ROOT / "requirements-lab.txt").read_bytes()).hexdigest()[:16]
        for old in Path(sys.prefix).glob(".lab-installed-*"):
            old.unlink()
        (Path(sys.prefix) / f".lab-installed-{key}").touch()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A running JupyterLab on a copy of chapters/; yields its base URL."""
    if _chromium() is None:
        _unavailable("Chromium not found: `apt-get install chromium` (or set CFRLIB_CHROMIUM)")
    if importlib.util.find_spec("playwright") is None:
        _unavailable("the playwright package is not installed (pip install -r requirements.txt)")
    if not _lab_installed():
        _install_lab()
    home = tmp_path_factory.mktemp("jupyterlab")
    shutil.copytree(ROOT / "chapters", home / "chapters",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    # Render every cell (JupyterLab 4 only renders the cells in view by default).
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_PLATFORM_DIRS": "1", "CFRLIB_EXPLORER_FRAMES": "opening",   # as a reader's kernel
           "JUPYTER_PATH": os.pathsep.join([str(Path(sys.prefix) / "share" / "jupyter"),
                                             os.environ.get("JUPYTER_PATH", "")])}
    port = _free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}",
               f"--ServerApp.root_dir={home / 'chapters'}",
               f"--LabApp.user_settings_dir={home / 'settings'}",
               f"--LabApp.workspaces_dir={home / 'workspaces'}",
               "--LabApp.expose_app_in_browser=True", "--allow-root"]
    log = (home / "jupyterlab.log").open("w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=5)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not start:\n{(home / 'jupyterlab.log').read_text()[-3000:]}")
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


RUN_ALL_AND_WAIT = """
async () => {
  const app = window.jupyterapp;
  const panel = app.shell.currentWidget;
  await panel.context.sessionContext.ready;
  await app.commands.execute("notebook:run-all-cells");
  // run-all resolves when every cell has run (markdown cells evaluate their expressions)
  return panel.content.widgets.filter((cell) => cell.model.type === "code"
      && cell.model.executionCount === null && cell.model.sharedModel.getSource().trim()).length;
}
"""


def test_chapter_renders_in_jupyterlab(lab, tmp_path):
    from playwright.sync_api import sync_playwright

    notebook = nbformat.read(ROOT / "chapters" / CHAPTER, as_version=4)
    quoting = {number: [user_expressions.shown(result).strip("'\"")
                        for result in user_expressions.stored(cell).values()]
               for number, cell in enumerate(notebook.cells)
               if cell.cell_type == "markdown" and user_expressions.expressions(cell.source)}
    assert quoting, f"{CHAPTER} quotes no computed number"
    screenshot = tmp_path / "jupyterlab-chapter.png"
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(f"{lab}/lab/tree/{CHAPTER}?token={TOKEN}", wait_until="load")
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell"
                                   ".currentWidget && window.jupyterapp.shell.currentWidget"
                                   ".content && window.jupyterapp.shell.currentWidget.content"
                                   ".widgets.length > 0", timeout=120000)
            not_run = page.evaluate(RUN_ALL_AND_WAIT)
            if not_run:
                problems.append(f"{not_run} code cell(s) did not run")
            page.wait_for_timeout(1000)  # the last markdown cells render their results
            cells = page.locator(".jp-Notebook .jp-Cell")
            first = min(quoting)
            cells.nth(first).scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot))
            texts = cells.evaluate_all("(cells) => cells.map((cell) => "
                                       "cell.classList.contains('jp-MarkdownCell') ? "
                                       "cell.querySelector('.jp-Cell-inputWrapper').innerText : '')")
        finally:
            browser.close()
    if len(texts) != len(notebook.cells):
        problems.append(f"{len(texts)} cells shown for the notebook's {len(notebook.cells)}")
    for number, text in enumerate(texts):
        for raw in RAW_MARKUP:
            if raw in text:
                at = text.index(raw)
                problems.append(f"cell {number}: markup left unrendered ({raw!r}): "
                                f"{text[max(0, at - 40):at + 60]!r}")
    sanitize = sanitizer()   # round-off shown may differ in its last bits from the stored
    for number, values in quoting.items():
        text = sanitize(texts[number]) if number < len(texts) else ""
        missing = [value for value in values if sanitize(value) not in text]
        if missing:
            problems.append(f"cell {number}: quoted number(s) {missing} not shown in {text[:300]!r}")
    assert not problems, f"screenshot: {screenshot}\n  " + "\n  ".join(problems)
