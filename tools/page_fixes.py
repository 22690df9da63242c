"""Sphinx extension: small repairs to the pages of the pinned theme stack.

- Jupyter Book always loads sphinx-thebe, which adds its script, its inline configuration (a
  public template repository to launch kernels from) and its stylesheet to every page, even with
  ``launch_buttons: thebe: false`` as here: the book has no live-code button. They are dropped
  from every page (sphinx-thebe 0.3.1 also registered the inline script twice on Sphinx 7.4,
  which the browser reported as a SyntaxError).
- tools/static/book.css colours the inserted and deleted lines of diff listings, left
  uncoloured by the theme's Pygments style and by IPython's inline style (scoped to Jupyter's
  ``.output_html``), and puts a toggle-button label beside its buttons, as a slider's label is.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes

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


def setup(app):
    app.connect("config-inited", lambda app, config: config.html_static_path.append(str(STATIC)))
    app.add_css_file("book.css")
    app.connect("doctree-resolved", drop_thebe_nodes, priority=900)   # after sphinx-thebe's
    app.connect("html-page-context", drop_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
