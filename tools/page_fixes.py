"""Sphinx extension: small repairs to the pages of the pinned theme stack.

- Jupyter Book always loads sphinx-thebe, which adds its script, its inline configuration (a
  public template repository to launch kernels from) and its stylesheet to every page, even with
  ``launch_buttons: thebe: false`` as here: the book has no live-code button. They are dropped
  from every page (sphinx-thebe 0.3.1 also registered the inline script twice on Sphinx 7.4,
  which the browser reported as a SyntaxError).
- tools/static/book.css colours the inserted and deleted lines of diff listings, left
  uncoloured by the theme's Pygments style and by IPython's inline style (scoped to Jupyter's
  ``.output_html``), and puts a toggle-button label beside its buttons, as a slider's label is.
- Every image of the text links to its file, so a reader on a phone, where a two-panel figure is
  squeezed into a 358 px column, taps it and reads it at its natural size (Sphinx does this only
  for images given a width or scale).
- tools/static/code_lines.js gives each line of highlighted code a hanging indent, so that a line
  wrapped to fit the column (code never scrolls sideways) continues right of where it starts.
- tools/static/sidebar_toggles.js makes the article header's sidebar buttons work: the theme
  wires only the first button of each side, which the page never shows (issue 39).
- tools/static/wide_math.js gives an inline formula wider than its line a box that scrolls
  sideways, instead of being cut off on a phone (issue 39).
- tools/static/figure_zoom.js shows a figure whose text would be under 8 px in its column (on a
  phone: a figure without a phone rendering, an explorer's frame) wider, in a box that scrolls
  sideways, with a visible line saying so; a click (or Enter) on an explorer's frame shows it at
  its natural size. Figures with a phone rendering get it through ``<picture>``
  (tools/phone_pictures.py).
- A chapter's optional parts, its level-2 sections titled "Going further: ...", get the class
  ``going-further`` (book.css sets them apart) and open with a line saying they are optional,
  with a link past them to the chapter's exercises (or its summary): the reader sees what may be
  skipped before reading it (issue 34).
- On the search page read from a file, tools/static/offline_search.js says why results come
  without extracts and how to get them (serve the folder).
- tools/fontawesome_subset.py replaces the theme's 1.49 MB fontawesome.js by one holding only
  the icons the pages use.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from docutils import nodes
from sphinx.util.osutil import relative_uri

STATIC = Path(__file__).parent / "static"   # book.css: colours of diff listings


def _is_thebe(asset) -> bool:
    """A script or stylesheet of sphinx-thebe: its files, or an inline script that configures it."""
    filename = str(getattr(asset, "filename", asset) or "")
    body = str((getattr(asset, "attributes", {}) or {}).get("body", ""))
    return "thebe" in filename or "thebe" in body


def drop_thebe(app, pagename, templatename, context, doctree) -> None:
    for key in ("script_files", "css_files"):
        assets = context.get(key)
        if assets:
            assets[:] = [asset for asset in assets if not _is_thebe(asset)]


def drop_thebe_nodes(app, doctree, docname) -> None:
    """The inline ``x-thebe-config`` and ``kernelName`` scripts sphinx-thebe appends to each page."""
    for node in list(doctree.findall(nodes.raw)):
        text = node.astext()
        if "x-thebe-config" in text or "kernelName =" in text:
            node.parent.remove(node)


FULL_SIZE_TITLE = "Open the figure at its full size"


def link_images_to_full_size(app, doctree, docname) -> None:
    """Wrap each image not already a link in a link to its copy in ``_images``."""
    if app.builder.format != "html":
        return
    images = posixpath.join(relative_uri(app.builder.get_target_uri(docname), "_images"))
    for image in list(doctree.findall(nodes.image)):
        uri = image["uri"]
        # a figure with a phone rendering (tools/phone_pictures.py) links to the figure
        shown = image.parent if image.parent.tagname == "picture" else image
        if shown is not image and shown.index(image) != 0:
            continue
        if isinstance(shown.parent, nodes.reference) or uri not in app.env.images:
            continue
        refuri = posixpath.join(images, app.env.images[uri][1])
        if shown is not image:   # a <picture> inside an <a>, which Sphinx's writer cannot nest
            shown["refuri"] = refuri
            continue
        link = nodes.reference("", "", refuri=refuri, classes=["full-size-figure"],
                               reftitle=FULL_SIZE_TITLE)
        image.replace_self(link)
        link.append(image)


GOING_FURTHER = "Going further"


def _title(section: nodes.section) -> str:
    return section[0].astext() if section.children and isinstance(section[0], nodes.title) else ""


def mark_going_further(app, doctree, docname) -> None:
    """Class and skip line for every section titled "Going further: ..." (see the docstring)."""
    for section in list(doctree.findall(nodes.section)):
        if not _title(section).startswith(GOING_FURTHER):
            continue
        section["classes"].append("going-further")
        siblings = [node for node in section.parent.children if isinstance(node, nodes.section)]
        after = siblings[siblings.index(section) + 1:]
        target = next((s for s in after if not _title(s).startswith(GOING_FURTHER)), None)
        note = nodes.paragraph(classes=["going-further-note"])
        note += nodes.strong(text="Optional. ")
        note += nodes.Text("The main path does not depend on this section")
        if target is not None and target["ids"]:
            note += nodes.Text(": skip to ")
            note += nodes.reference("", _title(target).lower(), refid=target["ids"][0], internal=True)
        note += nodes.Text(".")
        section.insert(1, note)


def add_offline_search_note(app, pagename, templatename, context, doctree) -> None:
    if pagename == "search":
        app.add_js_file("offline_search.js")


def setup(app):
    app.connect("config-inited", lambda app, config: config.html_static_path.append(str(STATIC)))
    app.setup_extension("fontawesome_subset")
    app.add_css_file("book.css")
    app.add_js_file("figure_zoom.js")
    app.add_js_file("code_lines.js")
    app.add_js_file("sidebar_toggles.js")
    app.add_js_file("wide_math.js")
    app.connect("html-page-context", add_offline_search_note)
    app.connect("doctree-resolved", drop_thebe_nodes, priority=900)   # after sphinx-thebe's
    app.connect("doctree-resolved", link_images_to_full_size)
    app.connect("doctree-resolved", mark_going_further)
    app.connect("html-page-context", drop_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
