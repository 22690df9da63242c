"""Explorers' frames as files of the site (tools/explorer_frames.py), in the built book.

- Every explorer of the built pages names its frames by URL: the HTML carries no frame, each file
  exists under ``_images`` and is named by the hash of its bytes, and the notebook a reader
  downloads from the page still holds every frame inline (it works by itself in Jupyter).
- In headless Chromium, over HTTP, a phone (390 px) downloads its explorers' phone frames, a
  laptop (1280 px) their column frames, each once and none of the other set; both download
  every frame of their set (preloaded), and what the page costs there (its HTML and every image
  it fetched) stays within the budget the build holds each page to
  (:data:`explorer_frames.DOWNLOAD_BUDGET`), as the build computed it.
- The pages issue 39 named (chapter 3's value against omega, chapter 9's, chapter 13's and
  chapter 14's explorers) show phone frames on a phone.
- An explorer's output taken from a saved notebook, with its frames inline, still works in a page
  of its own, as Jupyter shows it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from explorer_frames import DATA, DOWNLOAD_BUDGET, downloads, frame_name
from test_explorers import DATA as PAGE_DATA
from test_explorers import STATE, _check_shown, _move
from test_rendered_book import PAGES, SITE, _unavailable, browser, server_url  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
EXPLORER_PAGES = [p for p in PAGES if "cfrlib-explorer-data" in (SITE / p).read_text()]

PHONE_PAGES = {   # issue 39: the explorers over the old page budget, and chapter 14's search
    "chapters/03_games_and_exploitability.html": "omega",
    "chapters/09_discounted_cfr.html": "alpha",
    "chapters/13_frontier.html": "variant",
    "chapters/14_subgame_solving.html": "blueprint",
}
"""Pages whose explorers must show phone frames on a phone: page -> a control name of one."""

WEIGHED = ["chapters/03_games_and_exploitability.html", "chapters/04_vanilla_cfr.html",
           "chapters/13_frontier.html"]
"""Pages loaded in the browser to count what they fetch (about 6 s each): the costliest on a
phone (3), on a laptop (13) and the one whose explorers have no phone frames (4)
(tests/test_served_frames.py checks the count itself on a made-up page)."""


def _built():
    if not EXPLORER_PAGES:
        _unavailable(f"no built book with explorers in {SITE}: run `make book` first")


def _explorers(page: str) -> list[dict]:
    return [json.loads(found) for found in DATA.findall((SITE / page).read_text())]


def _file(page: str, url: str) -> Path:
    return ((SITE / page).parent / url).resolve()


@pytest.mark.parametrize("page", EXPLORER_PAGES or ["(no explorer in a built book)"])
def test_frames_are_files_named_by_their_bytes(page):
    _built()
    text = (SITE / page).read_text()
    assert not re.search(r"base64,iVBORw0KGgo", text), f"{page}: an image is inline"
    for data in _explorers(page):
        assert data.get("urls") is True, f"{page}: an explorer's frames were not served as files"
        for url in data["images"] + data.get("phone", {}).get("images", []):
            path = _file(page, url)
            assert path.parent == SITE / "_images" and path.is_file(), url
            assert path.name == frame_name(path.read_bytes()), f"{url}: not its bytes' hash"


@pytest.mark.parametrize("page", EXPLORER_PAGES or ["(no explorer in a built book)"])
def test_the_notebook_a_reader_downloads_keeps_its_frames_inline(page):
    _built()
    source = SITE / "_sources" / Path(page).with_suffix(".ipynb")
    notebook = ROOT / Path(page).with_suffix(".ipynb")
    assert source.read_bytes() == notebook.read_bytes()
    assert "cfrlib-explorer-data" in source.read_text() and '\\"urls\\"' not in source.read_text()


@pytest.mark.parametrize("page", EXPLORER_PAGES or ["(no explorer in a built book)"])
def test_every_page_costs_a_phone_and_a_laptop_at_most_the_budget(page):
    _built()
    text = (SITE / page).read_text()
    for phone in (True, False):
        assert downloads(SITE / page, text, phone) <= DOWNLOAD_BUDGET, (page, phone)


def _fetched(browser, url: str, width: int) -> dict[str, int]:
    """Every file the page at ``url`` fetched at ``width`` px once its preloading is done:
    path -> bytes (the encoded body, as served)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    fetched: dict[str, int] = {}
    counts: dict[str, int] = {}

    def received(response):
        path = response.url.split("?")[0]
        counts[path] = counts.get(path, 0) + 1
        fetched[path] = int(response.headers.get("content-length", 0))

    page = context.new_page()
    page.on("response", received)
    try:
        page.goto(url, wait_until="load")
        # the preloading starts at the load event: wait until nothing new arrives for a second
        for _ in range(60):
            seen = sum(counts.values())
            page.wait_for_timeout(1000)
            if sum(counts.values()) == seen:
                break
    finally:
        context.close()
    twice = {path: n for path, n in counts.items() if n > 1 and path.endswith(".png")}
    assert not twice, f"{url} at {width} px fetched images more than once: {twice}"
    return fetched


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("page", WEIGHED)
def test_a_screen_downloads_the_frames_it_shows_and_no_others(browser, server_url, page, width):
    _built()
    if page not in EXPLORER_PAGES:
        pytest.fail(f"{page} holds no explorer in the built book")
    fetched = _fetched(browser, server_url + page, width)
    base = server_url + page.rsplit("/", 1)[0] + "/"
    phone = width < 577   # cfrbook.phone_figures.PHONE_MEDIA: (max-width: 576px)
    shown, other = set(), set()
    for data in _explorers(page):
        sets = ([data["phone"]["images"], data["images"]] if phone and "phone" in data
                else [data["images"], data.get("phone", {}).get("images", [])])
        shown |= {_url(base, u) for u in sets[0]}
        other |= {_url(base, u) for u in sets[1]}
    other -= shown
    assert shown <= set(fetched), f"{page} at {width} px: {len(shown - set(fetched))} frames not preloaded"
    assert not other & set(fetched), (f"{page} at {width} px fetched {len(other & set(fetched))} "
                                      "frames of the other screen")
    # what it fetched of the page and its images: at most what the build counted (an image below
    # the fold may wait to be scrolled to), within the budget
    cost = sum(size for path, size in fetched.items() if path.endswith((".html", ".png")))
    assert cost <= downloads(SITE / page, (SITE / page).read_text(), phone) <= DOWNLOAD_BUDGET


def _url(base: str, relative: str) -> str:
    return urljoin(base, relative)


@pytest.mark.parametrize("page", sorted(PHONE_PAGES))
def test_the_pages_issue_39_named_show_phone_frames_on_a_phone(browser, page):
    """Each explorer of these pages has phone frames (no budget takes them away any more), and
    at 390 px shows them at every position of the named control."""
    _built()
    control = PHONE_PAGES[page]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    view = context.new_page()
    try:
        view.goto((SITE / page).as_uri(), wait_until="load")
        found = False
        for root in view.locator(".cfrlib-explorer").all():
            data = root.evaluate(PAGE_DATA)
            k = next((k for k, axis in enumerate(data["axes"]) if axis["name"] == control), None)
            if k is None:
                continue
            found = True
            assert "phone" in data, f"{page}: the explorer of {control!r} has no phone frames"
            axis, start = data["axes"][k], root.evaluate(STATE)["positions"][k]
            for step in [1] * (data["shape"][k] - 1 - start) + [-1] * (data["shape"][k] - 1):
                _move(root, k, axis, step)
                state = _check_shown(root, data, f"{page}, {control!r}", phone=True)
                assert state["phone"], f"{page}: a column frame at {state['positions']}"
                if axis["kind"] == "check":
                    break
        assert found, f"{page}: no explorer with a control {control!r}"
    finally:
        context.close()


def _saved_explorer(notebook: str, cell: str) -> str:
    cells = json.loads((ROOT / "chapters" / notebook).read_text())["cells"]
    outputs = next(c["outputs"] for c in cells if c.get("id") == cell)
    return next("".join(o["data"]["text/html"]) for o in outputs if "text/html" in o.get("data", {}))


@pytest.mark.parametrize("width", [390, 1280])
def test_a_saved_notebooks_explorer_works_with_its_frames_inline(browser, width):
    """Chapter 14's search explorer as its notebook saved it (frames inline, as Jupyter shows it)."""
    html = _saved_explorer("14_subgame_solving.ipynb", "ch14-search-explorer")
    assert "base64,iVBORw0KGgo" in html and '"urls"' not in html
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.set_content(f"<body>{html}</body>")
        root = page.locator(".cfrlib-explorer")
        data = root.evaluate(PAGE_DATA)
        start = root.evaluate(STATE)["positions"][0]
        sources = set()
        for step in [1] * (data["shape"][0] - 1 - start) + [-1] * (data["shape"][0] - 1):
            _move(root, 0, data["axes"][0], step)
            state = _check_shown(root, data, f"inline, {width} px", phone=width < 577)
            sources.add(state["src"])
        assert len(sources) == data["shape"][0]
    finally:
        context.close()
    assert not errors, errors



def test_the_frames_nearest_the_controls_are_preloaded_first(browser):
    """A served explorer of seven frames opening on the fourth: once the page has loaded, the
    frames one stop away come first, then two, then three (ties in grid order); a move to the
    last stop shows it from its file."""
    import ipywidgets as widgets
    import matplotlib
    from explorer_frames import serve_frames

    from cfrbook import plotting
    from cfrbook.interactive import Explorer

    matplotlib.use("agg")

    def draw(t):
        plotting.new_figure(width=2, height=1)[1].set(xticks=[], yticks=[], title=f"t = {t}")

    files: dict[str, bytes] = {}

    def store(png: bytes) -> str:
        url = "https://frames.test/" + frame_name(png)
        files[url] = png
        return url

    explorer = Explorer(draw, {"t": widgets.IntSlider(value=3, min=0, max=6)}, phone=False)
    html = serve_frames(explorer.static_html("all"), store)
    order = {url: k for k, url in enumerate(json.loads(DATA.search(html)[1])["images"])}
    asked: list[int] = []
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.route("https://frames.test/**", lambda route: (
            asked.append(order[route.request.url]),
            route.fulfill(body=files[route.request.url], content_type="image/png")))
        page.set_content(f"<body>{html}</body>", wait_until="load")
        for _ in range(50):
            if len(asked) >= 7:
                break
            page.wait_for_timeout(100)
        root = page.locator(".cfrlib-explorer")
        data = root.evaluate(PAGE_DATA)
        frames = [data["frame_of"][t] for t in range(7)]   # frame index of each stop
        for _ in range(3):
            _move(root, 0, data["axes"][0], 1)
        state = _check_shown(root, data, "t = 6")
    finally:
        page.close()
    assert asked == [frames[t] for t in (3, 2, 4, 1, 5, 0, 6)], asked
    assert state["positions"] == [6] and state["src"] == data["images"][frames[6]]
