"""Sphinx extension: explorers' frames served as image files, and what a page costs a reader.

An explorer (``cfrbook.interactive``) saves its frames in the notebook's ``text/html`` output as
base64 PNG inside its page data, so that the notebook works by itself in Jupyter. On the website
that made a page carry every frame of its explorers, for a laptop and a phone alike, before the
reader saw any (chapter 9's page weighed 3.4 MB). The build moves them out (:func:`serve_frames`):
each frame, column and phone rendering, becomes a file ``_images/<hash>.png`` named by the hash
of its bytes (a frame shown by two explorers or pages is stored once), the page data names each
frame by its URL (``"urls": true``) and the opening frame is a ``<picture>`` whose ``<source>``
gives a phone its phone rendering. The explorer's script then loads each frame from its URL and
preloads the set the screen shows, the neighbours of the controls' position first. The notebook
itself is not changed: the book's download of it still holds every frame inline.

What a page costs a reader now (:func:`downloads`): the page's HTML, the static figures the screen
shows (a phone's rendering where a ``<picture>`` has one) and every frame of the set each explorer
shows on that screen, once the preloading is done. The page's scripts, styles and fonts are
shared by every page and cached, and are not counted. Each page's cost on a phone and on a laptop
must stay within :data:`DOWNLOAD_BUDGET`; the build warns (an error under ``-W``) about a page
over it.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Callable
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

DOWNLOAD_BUDGET = 3_500_000
"""Bytes a page may cost a phone or a laptop (:func:`downloads`): its HTML, the static figures
it shows there and every explorer frame it preloads there (the budget pages had when they
carried their frames inline). The costliest: chapter 13 on a laptop (2.80 MB, its explorer's 110
frames) and chapter 3 on a phone (2.68 MB: its tree explorers, 1.7 MB, have no phone rendering)."""

FRAME_FOLDER = "_images"
"""Folder of the site that holds the frames (Sphinx's folder of images)."""

NAME_DIGITS = 24
"""Hexadecimal digits of a frame's SHA-256 in its file name (96 bits: no two of the book's few
thousand frames share a name by chance)."""

EXPLORER = re.compile(
    r'(?P<img><img class="cfrlib-explorer-figure"[^>]*?) src="data:image/png;base64,(?P<opening>[^"]*)">'
    r'(?P<open><script type="application/json" class="cfrlib-explorer-data">)(?P<data>.*?)'
    r"(?P<close></script>)", re.S)
"""An explorer's opening frame and its page data, as ``cfrbook.interactive`` writes them."""

DATA = re.compile(r'<script type="application/json" class="cfrlib-explorer-data">(.*?)</script>', re.S)
PICTURE = re.compile(r"<picture\b[^>]*>(.*?)</picture>", re.S)
SOURCE = re.compile(r'<source [^>]*srcset="([^" ]+)')
IMAGE = re.compile(r'<img [^>]*src="([^"]+)"')

logger = logging.getLogger(__name__)


def frame_name(png: bytes) -> str:
    """The file name of a frame: the first :data:`NAME_DIGITS` hex digits of its SHA-256."""
    return hashlib.sha256(png).hexdigest()[:NAME_DIGITS] + ".png"


def _page_data(data: dict) -> str:
    """``data`` as the explorer's script reads it: compact JSON, ``</`` escaped inside <script>."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def serve_frames(text: str, store: Callable[[bytes], str]) -> str:
    """``text`` (HTML) with each explorer's frames replaced by the URLs ``store(png)`` returns
    (having saved ``png``), and its opening frame by a ``<picture>`` of the column's frame and,
    on a screen matching the phone query, the phone rendering's. An explorer already served is
    left as it is (it has no inline opening frame)."""

    def served(match: re.Match[str]) -> str:
        data = json.loads(match["data"])
        opening = match["opening"]
        first = data["images"].index(opening)
        urls = {}   # each distinct frame stored and hashed once

        def url(encoded: str) -> str:
            if encoded not in urls:
                urls[encoded] = store(base64.b64decode(encoded))
            return urls[encoded]

        data["images"] = [url(image) for image in data["images"]]
        source = ""
        if "phone" in data:
            phone = data["phone"]
            phone["images"] = [url(image) for image in phone["images"]]
            source = (f'<source media="{html.escape(phone["media"])}" '
                      f'srcset="{html.escape(phone["images"][first])}" '
                      f'data-text-px="{phone["text_px"][first]:g}">')
        data["urls"] = True
        return (f'<picture class="cfrlib-explorer-picture">{source}{match["img"]} '
                f'src="{html.escape(data["images"][first])}"></picture>'
                f'{match["open"]}{_page_data(data)}{match["close"]}')

    return EXPLORER.sub(served, text)


def downloads(page: Path, text: str, phone: bool) -> int:
    """Bytes page ``text`` (saved at ``page``) costs a screen (a phone's if ``phone``): the HTML,
    the static images it shows there and every frame of the set each explorer shows there (see
    the module docstring; an explorer not served carries its frames in the HTML). Images are
    read from the site, relative to ``page``."""
    urls: set[str] = set()
    for picture in PICTURE.finditer(text):   # a phone takes a <source>'s rendering
        source = SOURCE.search(picture[1]) if phone else None
        urls.add(source[1] if source else IMAGE.search(picture[1])[1])
    outside = PICTURE.sub("", DATA.sub("", text))
    urls |= set(IMAGE.findall(outside))
    for found in DATA.finditer(text):
        data = json.loads(found[1])
        if not data.get("urls"):   # its frames inline: counted in the HTML
            continue
        shown = data["phone"] if phone and "phone" in data else data
        urls |= set(shown["images"])
    files = {(page.parent / html.unescape(url)).resolve() for url in urls if ":" not in url}
    return len(text.encode()) + sum(path.stat().st_size for path in files)


def _serve(app, doctree, docname) -> None:
    """The explorers of page ``docname`` with their frames in ``outdir/_images``."""
    if app.builder.format != "html":
        return
    folder = Path(app.outdir, FRAME_FOLDER)
    prefix = relative_uri(app.builder.get_target_uri(docname), FRAME_FOLDER + "/")

    def store(png: bytes) -> str:
        name = frame_name(png)
        path = folder / name
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
        return prefix + name

    for node in list(doctree.findall(nodes.raw)):
        if "html" in node.get("format", "").split() and "cfrlib-explorer-data" in node.astext():
            node.replace_self(nodes.raw("", serve_frames(node.astext(), store), format="html"))


def _check_downloads(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in sorted(Path(app.outdir).rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if "cfrlib-explorer" not in text and "<img" not in text:
            continue
        for screen, phone in (("a phone", True), ("a laptop", False)):
            cost = downloads(page, text, phone)
            if cost > DOWNLOAD_BUDGET:
                logger.warning(f"{page.relative_to(app.outdir)} costs {screen} {cost:,} bytes with "
                               f"its images and explorer frames, over the budget of "
                               f"{DOWNLOAD_BUDGET:,} (tools/explorer_frames.py): thin its "
                               "explorers' grids (static=...)")


def setup(app):
    app.connect("doctree-resolved", _serve)
    app.connect("build-finished", _check_downloads)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
