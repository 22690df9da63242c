"""Open every page of the built book in headless Chromium and check what a reader sees.

For each page, both as a local file (how `make book` tells readers to open it) and from a
local web server (how a hosted copy is read), except the API reference's pages, opened as local
files only (they run only scripts every chapter runs, and hold no notebook output):
- math is typeset: no raw ``\\(``, ``\\[`` or ``$$`` left in the text, no MathJax error boxes,
  and every display equation fits its column at 1280 px; no code scrolls sideways at 1280 px,
  and its lines wrap with a hanging indent;
- visible code input (not folded behind "Show code cell source") is at most 15% of a page;
- no markup is left unrendered in the prose: no stray ``$``, no code fence, no MyST role or
  directive written out, no Markdown table left as a paragraph of pipes; no path of the machine
  that built the book; diff listings are coloured;
- every <img> has loaded and has an alt text that is not a file name or a hash; every figure of
  the text (not an explorer's frame) sits in a <figure> with a caption and links to its file (to
  read it at full size on a phone);
- every widget view saved in a notebook has been rendered by the widget manager, not left empty,
  and none of them is a control (with no kernel behind it, it would do nothing: a control that
  works in the page is an explorer, checked by ``test_explorers.py``);
- the page loads no Thebe (live code) configuration and no widget manager, which it does not use;
- the browser console shows no errors, no script throws, and no request leaves the machine.

Needs a built book (`make book`) and Chromium (`apt-get install chromium`); without either the
tests are skipped with the reason, unless CFRLIB_REQUIRE_BROWSER_CHECK=1 (set by .ci/run),
which turns every skip into a failure.
"""

from __future__ import annotations

import fcntl
import functools
import http.server
import json
import os
import re
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("CFRLIB_BOOK_HTML", ROOT / "_build" / "html"))
REQUIRED = os.environ.get("CFRLIB_REQUIRE_BROWSER_CHECK") == "1"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Pages Sphinx writes besides the book's own: search, index and the root redirect.
NOT_PAGES = {"genindex.html", "search.html", "py-modindex.html", "index.html"}
WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'
CODE_LINES = ROOT / "tools" / "static" / "code_lines.js"   # every page runs it (tools/page_fixes.py)


def _unavailable(reason: str):
    if REQUIRED:
        pytest.fail(f"{reason} (CFRLIB_REQUIRE_BROWSER_CHECK=1: the browser check must run)")
    pytest.skip(reason)


def _chromium() -> str | None:
    candidate = os.environ.get("CFRLIB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return candidate if Path(candidate).is_file() else None


def _pages() -> list[str]:
    if not (SITE / "index.html").is_file():
        return []
    skip_dirs = {"_static", "_sources", "_images", "vendor"}
    return sorted(
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if p.name not in NOT_PAGES or p.parent != SITE
        if not skip_dirs & set(p.relative_to(SITE).parts[:-1])
    )


PAGES = _pages()
CHAPTERS = [p for p in PAGES if re.fullmatch(r"chapters/\d\d_\w+\.html", p)]
"""The numbered chapters' pages."""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output clean
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A page closed while a file was on its way to it (a preloaded frame) is not an error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def server_url():
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    if not PAGES:
        _unavailable(f"no built book in {SITE}: run `make book` first")
    if not (SITE / "vendor" / "VERSIONS").is_file():
        _unavailable(
            "the book was built without its offline MathJax "
            "(tools/vendor-assets needs npm); its pages would load them from the internet"
        )
    executable = _chromium()
    if executable is None:
        _unavailable("Chromium not found: `apt-get install chromium` (or set CFRLIB_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -r requirements.txt)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


def _is_local(url: str, server: str | None) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("file", "data", "blob", "about") or (
        server is not None and url.startswith(server))


CHECK_PAGE = """
async () => {
  const problems = [];
  // Math: wait for MathJax to finish, then look for TeX left in the visible text.
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
    if (MathJax.typesetPromise) { await MathJax.typesetPromise(); }
  }
  const skip = "pre, code, script, style, textarea, .highlight, mjx-container";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    if (/\\\\\\(|\\\\\\)|\\\\\\[|\\\\\\]|\\$\\$/.test(text) && !node.parentElement.closest(skip)) {
      problems.push("raw TeX left untypeset: " + JSON.stringify(text.trim().slice(0, 80)));
    }
  }
  // Markup that did not render: a stray dollar sign, a code fence, a MyST role or directive.
  const prose = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = prose.nextNode(); node; node = prose.nextNode()) {
    if (node.parentElement.closest(skip)) { continue; }
    const text = node.textContent;
    const found = /\\$|```|:::|\\{(glue|ref|cite|prf|eq|doc|numref|math)[:}]|\\{(admonition|exercise|solution|figure|prf:algorithm)\\}/.exec(text);
    if (found) {
      problems.push("markup left unrendered (" + JSON.stringify(found[0]) + "): " +
                    JSON.stringify(text.trim().slice(0, 80)));
    }
  }
  // A Markdown table left as text (as myst-nb shows a code cell's Markdown output that it
  // parses without tables): a row of cells, then the separator row, in one paragraph; smart
  // quotes turn the separator's dashes into em dashes (|---| becomes |\u2014|).
  const rawTable = /\\|[^|\\n]*\\|[^|\\n]*\\|[^]*?\\|\\s*:?(-{3,}|[-\\u2013]*\\u2014[-\\u2013\\u2014]*):?\\s*\\|/;
  for (const paragraph of document.querySelectorAll("p")) {
    if (!paragraph.closest(skip) && rawTable.test(paragraph.textContent)) {
      problems.push("Markdown table left as text: " +
                    JSON.stringify(paragraph.textContent.trim().slice(0, 80)));
    }
  }
  // Code (a cell's input, a listing of cfrlib's source) never scrolls sideways: long lines wrap.
  for (const pre of document.querySelectorAll("div.cell_input pre, div.cell_output div.highlight pre")) {
    if (pre.clientWidth > 0 && pre.scrollWidth > pre.clientWidth + 1) {
      const longest = pre.textContent.split("\\n").reduce((a, b) => (b.length > a.length ? b : a), "");
      problems.push("code scrolls sideways (" + pre.scrollWidth + " px in " + pre.clientWidth +
                    " px): " + JSON.stringify(longest.trim().slice(0, 60)));
    }
    // ... and a wrapped line goes on with a hanging indent (tools/static/code_lines.js).
    if (pre.textContent.trim() && !pre.classList.contains("code-lines")) {
      problems.push("code without its lines' hanging indent: " +
                    JSON.stringify(pre.textContent.trim().slice(0, 60)));
    }
  }
  // Code folded (issue 22): helpers, plotting and bookkeeping sit behind "Show code cell source"
  // (the cell's hide-input tag), so visible code input is at most 15% of the page's height.
  const article = document.querySelector("article.bd-article, article, main");
  if (article) {
    let code = 0;
    for (const input of article.querySelectorAll("div.cell_input")) {
      if (!input.closest("details:not([open])")) { code += input.getBoundingClientRect().height; }
    }
    const share = code / article.getBoundingClientRect().height;
    if (share > 0.15) {
      problems.push("visible code input is " + Math.round(100 * share) + "% of the page's " +
                    "height (at most 15%: fold helpers, plotting and bookkeeping with hide-input)");
    }
  }
  // Display equations fit their column (no sideways scrolling needed to read them).
  for (const math of document.querySelectorAll('mjx-container[display="true"]')) {
    const inner = math.querySelector("mjx-math");
    const column = math.closest("article, main, .bd-content") || document.body;
    if (inner && inner.getBoundingClientRect().width > column.clientWidth + 1) {
      problems.push("display equation wider than its column (" +
                    Math.round(inner.getBoundingClientRect().width) + " px > " +
                    column.clientWidth + " px): " + JSON.stringify(math.textContent.slice(0, 60)));
    }
  }
  // Diff listings show their inserted lines in colour.
  for (const inserted of document.querySelectorAll(".highlight .gi")) {
    const style = getComputedStyle(inserted);
    if (style.backgroundColor === "rgba(0, 0, 0, 0)"
        && style.color === getComputedStyle(inserted.closest("pre")).color) {
      problems.push("a diff listing's inserted lines are not coloured"); break;
    }
  }
  // No path of the machine that built the book.
  const visible = document.body.innerText;
  for (const pattern of [/\\/tmp\\/[\\w.-]+/, /\\/(home|root|work|Users)\\/[\\w.-]+\\/[\\w.-]+/]) {
    const hit = pattern.exec(visible);
    if (hit) { problems.push("a path of the build machine shows: " + hit[0]); }
  }
  for (const error of document.querySelectorAll("mjx-merror")) {
    problems.push("MathJax error: " + JSON.stringify(error.textContent.slice(0, 80)));
  }
  // Images: load the lazy ones too, then every one must have pixels.
  await Promise.all([...document.images].map((img) => {
    img.loading = "eager";
    if (img.complete) { return null; }
    return new Promise((done) => {
      img.addEventListener("load", done); img.addEventListener("error", done);
      setTimeout(done, 10000);
    });
  }));
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) {
      problems.push("image did not load: " + img.getAttribute("src"));
    }
  }
  // Nothing the book does not use: no live-code (Thebe) configuration, no widget manager.
  for (const el of document.querySelectorAll("script, link[rel=stylesheet]")) {
    const source = el.getAttribute("src") || el.getAttribute("href") || el.textContent;
    for (const unused of ["thebe", "embed-amd", "require.js"]) {
      if (source.includes(unused)) {
        problems.push(`unused ${unused} in the page: ` + JSON.stringify(source.slice(0, 80)));
      }
    }
  }
  // Images say what they show (issue 22): an alt text, and not the file name or hash that
  // Sphinx writes when there is none. A figure of the book's text (a notebook's image output, a
  // figure directive) sits in a <figure> with its caption; explorers and widgets draw their
  // own frames, with their own alt text.
  for (const img of document.images) {
    const src = img.getAttribute("src") || "";
    const alt = (img.getAttribute("alt") || "").trim();
    const file = src.startsWith("data:") ? "" : src.split(/[?#]/)[0].split("/").pop();
    if (!alt) {
      problems.push("image without alt text: " + src.slice(0, 80));
    } else if ((file && (alt === file || alt.endsWith("/" + file)))
               || /\\.(png|svg|jpe?g|gif|webp)$/i.test(alt) || /^[0-9a-f]{16,}$/i.test(alt)) {
      problems.push("image whose alt text is a file name or hash: " + JSON.stringify(alt.slice(0, 80)));
    }
    if (!img.closest("article, .bd-article, [role=main]")
        || img.closest(".cfrlib-explorer, .widget-subarea, .jupyter-widgets")) {
      continue;
    }
    const figure = img.closest("figure");
    const caption = figure && figure.querySelector("figcaption");
    if (!caption || !caption.textContent.trim()) {
      problems.push("figure image without a <figure> and a caption: " +
                    JSON.stringify((alt || src).slice(0, 80)));
    }
    // ... and links to its file, so that on a phone it can be read at its natural size.
    const href = (img.closest("a[href]") || {getAttribute: () => ""}).getAttribute("href");
    if (src.startsWith("data:") ? href !== src : href.split(/[?#]/)[0].split("/").pop() !== file) {
      problems.push("figure image that does not link to its file (to enlarge on a phone): " +
                    JSON.stringify((alt || src).slice(0, 80)));
    }
  }
  return problems;
}
"""

WIDGETS_RENDERED = """
(selector) => [...document.querySelectorAll(selector)].every((view) => {
  const area = view.previousElementSibling;
  return area && area.classList.contains("widget-subarea") && area.children.length > 0
      && area.getBoundingClientRect().height > 0;
})
"""

# Controls of a widget rendered from its saved state: with no kernel behind them, they do nothing.
DEAD_CONTROLS = ", ".join(f".widget-subarea {tag}" for tag in ("input", "button", "select",
                                                                "textarea"))


REFERENCE = "chapters/api/"
"""Where the API reference's pages are, written from the docstrings (no notebook output)."""


def _script_files(page_path: str) -> set[str]:
    """The script files a built page loads, as paths from the site's root."""
    page = SITE / page_path
    return {(page.parent / src.split("?")[0]).resolve().relative_to(SITE.resolve()).as_posix()
            for src in re.findall(r'<script[^>]*\ssrc="([^"]+)"', page.read_text())}


def test_reference_pages_hold_no_output_and_run_only_the_chapters_scripts():
    """What can differ between a page opened from the disk and one from a server is what its
    scripts do (fetching a file, a module), and a notebook's output (widgets, explorers). A
    reference page has neither of its own: it runs only script files every chapter page runs,
    and the chapters are opened both ways. So test_page_renders opens a reference page once,
    from the disk, where a missing file fails its request (a server answers it with a 404)."""
    if not PAGES:
        _unavailable(f"no built book in {SITE}: run `make book` first")
    references = [p for p in PAGES if p.startswith(REFERENCE)]
    assert CHAPTERS and references
    every_chapters = set.intersection(*map(_script_files, CHAPTERS))
    for page in references:
        html = (SITE / page).read_text()
        assert _script_files(page) <= every_chapters, (
            f"{page} runs {sorted(_script_files(page) - every_chapters)}, which not every "
            "chapter runs: open the reference pages over HTTP too (test_page_renders)")
        assert 'class="cell_output' not in html and "cfrlib-explorer-data" not in html \
            and "application/vnd.jupyter.widget" not in html, f"{page} holds a notebook's output"


def _load(browser, url: str, server_url: str | None, viewport: dict, checks: dict) -> dict:
    """Open ``url`` in a fresh browser context of ``viewport``'s size; what each of ``checks``
    (name: a JavaScript function to evaluate, or a Python one given the page) returns there, and
    under "events" the console errors, uncaught exceptions, failed requests and requests to the
    internet of the whole visit."""
    events: list[str] = []
    context = browser.new_context(viewport=viewport)

    def route(request_route):
        request = request_route.request
        if _is_local(request.url, server_url):
            request_route.continue_()
        else:
            events.append(f"request to the internet: {request.url}")
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and events.append(f"console error: {msg.text}"))
    page.on("pageerror", lambda exc: events.append(f"uncaught exception: {exc}"))
    page.on("requestfailed", lambda req: _is_local(req.url, server_url)
            and events.append(f"failed to load {req.url}: {req.failure}"))
    try:
        page.goto(url, wait_until="load")
        found = {name: check(page) if callable(check) else page.evaluate(check)
                 for name, check in checks.items()}
        page.wait_for_timeout(200)  # late console messages
    finally:
        context.close()
    return {"events": events, **found}


def _page_problems(page) -> list[str]:
    """What CHECK_PAGE finds, and saved widget views left unrendered or holding controls."""
    problems = page.evaluate(CHECK_PAGE)
    views = page.locator(WIDGET_VIEW).count()
    if views:
        try:
            page.wait_for_function(WIDGETS_RENDERED, arg=WIDGET_VIEW, timeout=20000)
        except Exception:
            problems.append(f"{views} widget view(s) saved in the page, not all rendered")
        dead = page.locator(DEAD_CONTROLS).count()
        if dead:
            problems.append(f"{dead} widget control(s) that need a kernel, so do nothing in "
                            "this page (show them through cfrbook.interactive.Explorer)")
    return problems


LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SHARED_LOADS = {1280: [p for p in PAGES if p.startswith("chapters/") and not p.startswith(REFERENCE)],
                390: CHAPTERS}
"""The pages opened once at each width, from the disk, for every check of theirs at that width."""


def _shared_checks(width: int) -> dict:
    """The checks one load of a page at ``width`` serves (each test reads its own): at 1280 px
    test_page_renders', the columns and listings of the two tests of ``chapters_at_1280`` and
    test_figure_text's; at 390 px test_figure_text's and test_phone's. The latter two live beside
    their tests."""
    from test_figure_text import MEASURE
    from test_phone import CHECK_PHONE

    if width == 1280:
        return {"page": _page_problems, "columns": COLUMNS, "figures": MEASURE,
                "listings": lambda page: [pre.evaluate(LINE_ROWS) for pre in page.locator(
                    "div.cell_output div.text_html div.highlight pre").all()]}
    return {"figures": MEASURE, "phone": CHECK_PHONE}


@pytest.fixture(scope="session")
def shared_load(tmp_path_factory, worker_id):
    """``shared_load(browser, page_path, width)``: what :func:`_load` found on the page of
    SHARED_LOADS opened from the disk at that width, with :func:`_shared_checks`. Loading a
    chapter (its MathJax, its figures, its widgets) is most of each such check's time; under
    pytest-xdist the first worker to need a page loads it and leaves the result in the run's
    temporary folder for the others."""
    basetemp = tmp_path_factory.getbasetemp()
    folder = basetemp if worker_id == "master" else basetemp.parent   # this run's, all workers'

    def load(browser, page_path: str, width: int) -> dict:
        assert page_path in SHARED_LOADS[width], page_path
        record = folder / f"load-{width}-{page_path.replace('/', '-')}.json"
        with open(record.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not record.exists():
                found = _load(browser, (SITE / page_path).as_uri(), None,
                              LAPTOP if width == 1280 else PHONE, _shared_checks(width))
                record.write_text(json.dumps(found))
            return json.loads(record.read_text())

    return load


@pytest.mark.parametrize("page_path, scheme", [
    (page, scheme) for page in PAGES or ["(no built book)"]
    for scheme in (("file",) if page.startswith(REFERENCE) else ("file", "http"))])
def test_page_renders(browser, server_url, shared_load, page_path, scheme):
    if scheme == "file" and page_path in SHARED_LOADS[1280]:
        found = shared_load(browser, page_path, 1280)
    else:
        url = (SITE / page_path).as_uri() if scheme == "file" else server_url + page_path
        found = _load(browser, url, server_url, LAPTOP, {"page": _page_problems})
    problems = found["events"] + found["page"]
    assert not problems, f"{page_path} ({scheme}):\n  " + "\n  ".join(problems)


COLUMNS = """() => [...document.querySelectorAll("article figure, article .cfrlib-explorer")]
  .map(box => { const style = getComputedStyle(box);
                return Math.floor(box.clientWidth - parseFloat(style.paddingLeft)
                                  - parseFloat(style.paddingRight)); })"""


@pytest.fixture(scope="module")
def chapters_at_1280(browser, shared_load) -> dict[str, dict]:
    """Each chapter's page opened at 1280 px (once in a run: :func:`shared_load`): the width of
    the column of each figure and explorer (``columns``) and the rows of each line of each
    highlighted listing (``listings``, as LINE_ROWS gives them), for the two tests below."""
    return {page_path: shared_load(browser, page_path, 1280) for page_path in SHARED_LOADS[1280]}


def test_the_figure_check_assumes_the_column_the_pages_give_their_figures(chapters_at_1280):
    """tools/figure_layout.py measures text as shown in a column of COLUMN_PX pixels: at 1280 px
    every figure and explorer of the book has at least that much room (a wider page would only
    make text larger), so a figure that passes the check reads at 9 px or more."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import figure_layout

    widths = {page_path: found["columns"] for page_path, found in chapters_at_1280.items()}
    measured = [w for found in widths.values() for w in found]
    assert measured, "no figure found in the book's chapters"
    narrow = {p: min(found) for p, found in widths.items() if found and min(found) < figure_layout.COLUMN_PX}
    assert not narrow, (f"figures get less than figure_layout.COLUMN_PX = {figure_layout.COLUMN_PX} px "
                        f"at 1280 px: {narrow}")


# Where each visual row of each line of a listing starts, from the line's box: ``lefts[0]`` the
# line's start, ``lefts[1:]`` its continuation rows; ``hang`` its padding (the hanging indent).
LINE_ROWS = """
pre => [...pre.querySelectorAll(":scope > span.code-line")].map(line => {
  const box = line.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(line);
  const rects = [...range.getClientRects()].filter(r => r.width > 0);
  const row = rects.length ? rects[0].height : 1;
  const lefts = [];
  for (const r of rects) {
    const k = Math.round((r.top - box.top) / row);
    lefts[k] = Math.min(lefts[k] ?? Infinity, r.left - box.left);
  }
  return {text: line.textContent, hang: parseFloat(getComputedStyle(line).paddingLeft),
          lefts: lefts.filter(x => x !== undefined)};
})
"""
CHAR_WIDTH = """pre => { const probe = document.createElement("span"); probe.textContent = "x".repeat(100);
                   probe.style.cssText = "white-space: pre; position: absolute";
                   pre.appendChild(probe); const w = probe.getBoundingClientRect().width / 100;
                   probe.remove(); return w; }"""


def _expected_hang(pre):
    """A line's hanging indent: its own indentation plus four columns, at most 40% of the column."""
    char = pre.evaluate(CHAR_WIDTH)
    column = pre.evaluate("pre => { const s = getComputedStyle(pre); return pre.clientWidth"
                          " - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }")
    return lambda line: min((len(line["text"]) - len(line["text"].lstrip(" ")) + 4) * char,
                            0.4 * column)


def _hanging_rows(pre, expected_hang):
    """The rows of every line of ``pre`` start where a hanging indent puts them: the first at the
    line's start, every other ``expected_hang(line)`` pixels in (1 px of rounding); returns how
    many lines wrapped."""
    wrapped = 0
    for line in pre.evaluate(LINE_ROWS):
        if not line["lefts"]:
            continue
        assert abs(line["lefts"][0]) <= 1, line
        assert abs(line["hang"] - expected_hang(line)) <= 1, line
        assert all(abs(left - line["hang"]) <= 1 for left in line["lefts"][1:]), line
        wrapped += len(line["lefts"]) > 1
    return wrapped


LISTING = ('<div class="cell_output"><div class="highlight"><pre><span></span>'
           '<span class="k">def</span> <span class="nf">f</span>(x):\n'
           '    <span class="sd">"""A docstring long enough to wrap in a narrow column, and then\n'
           '    a second line of it."""</span>\n'
           '\n'
           '        <span class="k">return</span> x <span class="o">+</span> x  '
           '<span class="c1"># a comment long enough to wrap in the narrow column as well</span>\n'
           '</pre></div></div>')
LISTING_TEXT = ('def f(x):\n    """A docstring long enough to wrap in a narrow column, and then\n'
                '    a second line of it."""\n\n        return x + x  '
                '# a comment long enough to wrap in the narrow column as well\n')


@pytest.mark.parametrize("width", [300, 900])
def test_listing_lines_wrap_with_a_hanging_indent_and_copy_as_written(browser, width):
    """tools/static/code_lines.js on a made-up listing (a docstring's span across two lines, a
    blank line, three depths): one box per line, the text and its newlines untouched (what a copy
    gives: textContent for the copy button, innerText for a selection), each wrapped row its
    line's indent plus four columns in, at most 40% of the column."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.set_content(f'<div style="width: {width}px">{LISTING}</div>')
        page.add_style_tag(path=str(ROOT / "tools" / "static" / "book.css"))
        page.add_script_tag(path=str(CODE_LINES))
        pre = page.locator("pre")
        assert pre.evaluate("pre => pre.textContent") == LISTING_TEXT
        assert pre.evaluate("pre => pre.innerText") == LISTING_TEXT
        assert pre.evaluate("pre => pre.querySelectorAll(':scope > span.code-line').length") == 5
        assert _hanging_rows(pre, _expected_hang(pre)) == (2 if width == 300 else 0)
    finally:
        page.close()


def test_the_book_listings_hang_on_a_phone_and_are_cfrlib_source(browser):
    """Chapter 7 at 390 px: the listing of outcome_sampling is the library's source, character for
    character, and its wrapped lines (many, on a phone) hang."""
    import inspect

    from cfrlib.textbook.sampling import outcome_sampling

    page = browser.new_page(viewport={"width": 390, "height": 900})
    try:
        page.goto((SITE / "chapters" / "07_monte_carlo_cfr.html").as_uri(), wait_until="load")
        pre = page.locator("div.cell_output div.highlight pre", has_text="def outcome_sampling").first
        assert pre.evaluate("pre => pre.textContent") == inspect.getsource(outcome_sampling)
        assert _hanging_rows(pre, _expected_hang(pre)) >= 10
    finally:
        page.close()


def test_no_line_of_a_source_listing_wraps_at_1280_px(chapters_at_1280):
    """tests/test_contracts.py keeps every printed line of cfrlib within PRINTED_LINE_LIMIT (83)
    characters, what the code column holds at a 1280 px window: on every chapter, no line of a
    listing (a highlighted HTML output: cfrlib's source, chapter 8's diffs of it; printed text
    may wrap) takes two rows."""
    wrapped, listings = {}, 0
    for page_path, found in chapters_at_1280.items():
        for rows in found["listings"]:
            listings += 1
            wrapped.update({f"{page_path}: {line['text'].strip()[:50]}": len(line["lefts"])
                            for line in rows if len(line["lefts"]) > 1})
    assert listings > 20
    assert wrapped == {}


# Markdown tables left as text, the second as the book showed them before myst-nb read Markdown
# outputs as MyST (issue 22); then pipes in prose and a rendered table, which are no defect.
RAW_TABLES = ["| game | infosets |\n|---|---:|\n| Kuhn | 12 |",
              "| game | infosets | nodes |\n|\u2014|\u2014|\u2014|\n| Kuhn | 12 | 58 |"]
NO_DEFECT = ("<p>A | between words, or two: | a | b |, is no table.</p><table><tr><th>game</th>"
             "<th>infosets</th></tr><tr><td>Kuhn</td><td>12</td></tr></table>")


def test_page_check_finds_code_that_scrolls_sideways_or_does_not_hang(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.set_content('<div class="cell_input"><pre style="width: 300px; overflow-x: auto">'
                         + "x = 1  # " + "long " * 40 + "</pre></div>"
                         '<div class="cell_input"><pre style="width: 300px">x = 1</pre></div>')
        page.add_script_tag(path=str(CODE_LINES))   # as every page of the book runs it
        page.evaluate("""() => document.body.insertAdjacentHTML(
                           "beforeend", '<div class="cell_input"><pre>y = 2</pre></div>')""")
        problems = page.evaluate(CHECK_PAGE)
    finally:
        page.close()
    assert len(problems) == 2, problems
    assert problems[0].startswith("code scrolls sideways"), problems
    assert problems[1] == 'code without its lines\' hanging indent: "y = 2"', problems


def test_page_check_finds_too_much_visible_code(browser):
    prose = '<p style="height: 1000px">prose</p>'
    code = '<div class="cell_input"><pre style="height: 300px">x = 1</pre></div>'
    folded = f'<details class="hide above-input"><summary>Show code</summary>{code}</details>'
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.set_content(f"<article>{prose}{code}</article>")
        page.add_script_tag(path=str(CODE_LINES))
        unfolded_problems = page.evaluate(CHECK_PAGE)
        page.set_content(f"<article>{prose}{folded}</article>")
        page.add_script_tag(path=str(CODE_LINES))
        folded_problems = page.evaluate(CHECK_PAGE)
    finally:
        page.close()
    assert len(unfolded_problems) == 1, unfolded_problems
    assert unfolded_problems[0].startswith("visible code input is 2"), unfolded_problems
    assert folded_problems == [], folded_problems


def test_page_check_finds_a_markdown_table_left_as_text(browser):
    page = browser.new_page()
    try:
        page.set_content("".join(f"<p>{text}</p>" for text in RAW_TABLES) + NO_DEFECT)
        problems = page.evaluate(CHECK_PAGE)
    finally:
        page.close()
    assert problems == [f"Markdown table left as text: {json.dumps(text, ensure_ascii=False)}"
                        for text in RAW_TABLES]


# Images as the book showed its figures before issue 22 (no caption, a hash for alt text), then
# an image with no alt at all; then a captioned figure and an explorer's frame, which are fine.
PIXEL = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk"
         "YAAAAAYAAjCB0C8AAAAASUVORK5CYII=")
UNCAPTIONED = [f'<article><img src="{PIXEL}" alt="{"ab12" * 16}"></article>',
               f'<article><img src="{PIXEL}"></article>']
CAPTIONED = (f'<article><figure><a href="{PIXEL}"><img src="{PIXEL}" alt="Exploitability '
             'against iterations, falling"></a><figcaption><p>Figure 4.2: CFR on Leduc.</p>'
             '</figcaption></figure>'
             f'<div class="cfrlib-explorer"><img src="{PIXEL}" alt="The Kuhn tree with the '
             'chosen history highlighted"></div></article>')


def test_page_check_finds_figures_without_alt_text_or_caption(browser):
    page = browser.new_page()
    try:
        page.set_content("".join(UNCAPTIONED) + CAPTIONED)
        problems = page.evaluate(CHECK_PAGE)
    finally:
        page.close()
    hashed, unnamed = json.dumps("ab12" * 16), json.dumps(PIXEL[:80])
    assert problems == [
        f"image whose alt text is a file name or hash: {hashed}",
        f"figure image without a <figure> and a caption: {hashed}",
        f"figure image that does not link to its file (to enlarge on a phone): {hashed}",
        "image without alt text: " + PIXEL[:80],
        f"figure image without a <figure> and a caption: {unnamed}",
        f"figure image that does not link to its file (to enlarge on a phone): {unnamed}",
    ], problems


def test_page_check_finds_a_figure_that_cannot_be_enlarged(browser):
    unlinked = CAPTIONED.replace(f'<a href="{PIXEL}">', "").replace("</a>", "")
    page = browser.new_page()
    try:
        page.set_content(unlinked)
        problems = page.evaluate(CHECK_PAGE)
    finally:
        page.close()
    assert problems == ["figure image that does not link to its file (to enlarge on a phone): "
                        '"Exploitability against iterations, falling"'], problems




SEARCH_RESULTS = """
async () => {
  for (let waited = 0; waited < 20000 && !/Search finished/.test(
         (document.querySelector("p.search-summary") || {}).textContent || ""); waited += 100) {
    await new Promise((done) => setTimeout(done, 100));
  }
  await new Promise((done) => setTimeout(done, 1000));   // extracts arrive after the titles
  return {results: document.querySelectorAll("#search-results li").length,
          extracts: document.querySelectorAll("#search-results li p.context").length,
          note: !!document.querySelector(".offline-search-note")};
}
"""


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_search_finds_pages_and_says_how_to_get_extracts_offline(browser, server_url, scheme):
    """Served, the search shows extracts; from a file it cannot read them, and says so."""
    query = "search.html?q=counterfactual+regret"
    url = (SITE / "search.html").as_uri() + query[len("search.html"):] if scheme == "file" \
        else server_url + query
    page = browser.new_page()
    try:
        page.goto(url, wait_until="load")
        found = page.evaluate(SEARCH_RESULTS)
    finally:
        page.close()
    assert found["results"] > 5, found
    if scheme == "file":
        assert found["note"], found
    else:
        assert not found["note"] and found["extracts"] > 0, found
