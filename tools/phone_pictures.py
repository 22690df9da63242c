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

An explorer's frames (``cfrbook.interactive``), column and phone renderings, are served as files
by tools/explorer_frames.py, and its own script shows a phone its phone rendering.
"""

from __future__ import annotations

import base64
import hashlib
import html
import posixpath
import struct
import urllib.parse

from docutils import nodes
from myst_nb.core.render import NbElementRenderer

from cfrbook.phone_figures import PHONE_DPI, PHONE_MEDIA
from page_fixes import FULL_SIZE_TITLE

PHONE_DENSITY = PHONE_DPI / 100
"""Image pixels a CSS pixel of a phone rendering (its ``srcset`` density descriptor)."""


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


def setup(app):
    NbElementRenderer.render_image = render_image
    app.add_node(picture, html=(visit_picture, depart_picture))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
