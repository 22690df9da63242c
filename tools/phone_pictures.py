"""Sphinx extension: each figure as a ``<picture>``, its phone rendering served to phones.

A notebook executed by tools/execute-notebooks carries, in each figure's output metadata
(``image/png`` -> ``cfrbook``, written by ``cfrbook.phone_figures``), the size of the image's
smallest text (``text_px``) and a phone rendering of the figure (``phone``: panels stacked in
one column, text sized for a 320 px column) with its own ``phone_text_px``. This extension
renders such an output as

    <picture><source media="(max-width: 576px)" srcset="_images/<phone>.png 2x"
                     data-text-px="..."><img src="_images/<figure>.png" data-text-px="..."></picture>

so that a phone downloads only its rendering and a laptop only the figure (a figure whose phone
rendering failed the figure check gets no ``<source>``: tools/static/figure_zoom.js shows it wider
than a phone's column, in a box that scrolls); ``data-text-px`` is
the smallest text in CSS pixels of the image at its natural size, which
tests/browser/test_figure_text.py scales by the width the image is shown at. An output without
the metadata (a notebook run elsewhere) stays a plain image. The wrapper is tied to myst-nb's
``NbElementRenderer.render_image`` of the version tools/figure_outputs.py checks.

An explorer (``cfrbook.interactive``) carries its frames' phone renderings in its page data and
shows them itself on phones. They weigh about what its column frames weigh, so once the pages are
written, a page heavier than :data:`PAGE_BUDGET` loses the phone frames of its explorers, the
heaviest first, until it fits (:func:`fit_phone_frames`); those explorers show their column
frames on a phone, in a box that scrolls sideways (tools/static/figure_zoom.js).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import posixpath
import re
import struct
import urllib.parse
from pathlib import Path

from docutils import nodes
from myst_nb.core.render import NbElementRenderer
from sphinx.util import logging

from cfrbook.phone_figures import PHONE_DPI, PHONE_MEDIA
from page_fixes import FULL_SIZE_TITLE

PHONE_DENSITY = PHONE_DPI / 100
"""Image pixels a CSS pixel of a phone rendering (its ``srcset`` density descriptor)."""

PAGE_BUDGET = 3_500_000
"""Bytes a page may weigh with the images it loads from the site (explorer frames included;
tests/browser/test_rendered_book.py::test_page_weight holds every page to it). The heaviest is
chapter 3 (3.49 MB), whose four explorers carry 2.4 MB of frames."""

EXPLORER_DATA = re.compile(
    r'(<script type="application/json" class="cfrlib-explorer-data">)(.*?)(</script>)', re.S)

logger = logging.getLogger(__name__)


class picture(nodes.General, nodes.Element):
    """A figure's image (first child) and its phone rendering (second child, if it has one)."""


_render_image = getattr(NbElementRenderer.render_image, "myst_nb_original",
                        NbElementRenderer.render_image)


def _png_size(png: bytes) -> tuple[int, int]:
    return struct.unpack(">II", png[16:24])


def render_image(self, data):
    """myst-nb's image, in a :class:`picture` with its phone rendering when the output has one."""
    rendered = _render_image(self, data)
    page = data.output_metadata.get(data.mime_type, {}).get("cfrbook")
    if not page or len(rendered) != 1 or not isinstance(rendered[0], nodes.image):
        return rendered
    image = rendered[0]
    image["text_px"] = page["text_px"]
    if "phone" not in page:   # its phone rendering failed the figure check: the figure alone
        return [picture("", image)]
    phone_png = base64.b64decode(page["phone"])
    uri = self.write_file([hashlib.sha256(phone_png).hexdigest() + ".png"], phone_png,
                          overwrite=False, exists_ok=True)
    width, height = _png_size(phone_png)
    phone = nodes.image(uri=uri, alt=image.get("alt", ""), text_px=page["phone_text_px"] / PHONE_DENSITY,
                        css_width=round(width / PHONE_DENSITY), css_height=round(height / PHONE_DENSITY))
    return [picture("", image, phone)]


render_image.myst_nb_original = _render_image


def _src(translator, image: nodes.image) -> str:
    uri = image["uri"]
    if uri in translator.builder.images:
        uri = posixpath.join(translator.builder.imgpath,
                             urllib.parse.quote(translator.builder.images[uri]))
    return uri


def visit_picture(self, node: picture) -> None:
    image, phone = node[0], (node[1] if len(node) > 1 else None)
    if node.get("refuri"):   # tools/page_fixes.py links every figure to its file
        self.body.append(f'<a class="reference internal image-reference full-size-figure" '
                         f'href="{html.escape(node["refuri"])}" title="{FULL_SIZE_TITLE}">')
    self.body.append('<picture class="cfr-picture">')
    if phone is not None:
        self.body.append(f'<source media="{PHONE_MEDIA}" srcset="{html.escape(_src(self, phone))} '
                         f'{PHONE_DENSITY:g}x" width="{phone["css_width"]}" '
                         f'height="{phone["css_height"]}" data-text-px="{phone["text_px"]:.2f}">')
    start = len(self.body)
    self.visit_image(image)
    for k in range(start, len(self.body)):
        if self.body[k].startswith("<img "):
            self.body[k] = self.body[k].replace("<img ", f'<img data-text-px="{image["text_px"]:.2f}" ', 1)
    self.depart_image(image)
    raise nodes.SkipChildren


def depart_picture(self, node: picture) -> None:
    self.body.append("</picture>" + ("</a>" if node.get("refuri") else ""))


def page_weight(page: Path, text: str) -> int:
    """Bytes of the page ``text`` (saved at ``page``) and of the images it loads from the site."""
    images = {(page.parent / src).resolve() for src in re.findall(r'<img [^>]*src="([^":]+)"', text)}
    return len(text.encode()) + sum(image.stat().st_size for image in images if image.is_file())


def fit_phone_frames(page: Path, budget: int = PAGE_BUDGET) -> int:
    """Rewrite ``page`` without the phone frames of its heaviest explorers, as few as bring it
    within ``budget`` bytes (dropping the heaviest first keeps the most); returns how many lost them."""
    text = page.read_text(encoding="utf-8")
    excess = page_weight(page, text) - budget
    carried = [m for m in EXPLORER_DATA.finditer(text) if '"phone":' in m.group(2)]
    if excess <= 0 or not carried:
        return 0
    dropped: dict[int, str] = {}
    for match in sorted(carried, key=lambda m: -len(m.group(2))):
        data = json.loads(match.group(2))
        phone = json.dumps(data.pop("phone"), separators=(",", ":"))
        dropped[match.start()] = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        excess -= len(phone) + len(',"phone":')
        if excess <= 0:
            break
    text = EXPLORER_DATA.sub(lambda m: m.group(1) + dropped.get(m.start(), m.group(2)) + m.group(3), text)
    page.write_text(text, encoding="utf-8")
    return len(dropped)


def _fit_pages(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in sorted(Path(app.outdir).rglob("*.html")):
        if count := fit_phone_frames(page):
            logger.info(f"{page.relative_to(app.outdir)}: the phone frames of {count} of its "
                        f"explorers left out, over the page's {PAGE_BUDGET} byte budget (a phone "
                        "shows their column frames)")


def setup(app):
    NbElementRenderer.render_image = render_image
    app.add_node(picture, html=(visit_picture, depart_picture))
    app.connect("build-finished", _fit_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
