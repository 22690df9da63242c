"""Sphinx extension: small repairs to the pages of the pinned theme stack.

- sphinx-thebe 0.3.1 registers its inline configuration script twice on Sphinx 7.4; the second
  copy redeclares a ``const`` and the browser reports a SyntaxError on every page. Identical
  scripts are kept once. The repair is tied to that version: with any other sphinx-thebe the
  build warns (an error under -W) that the repair should be checked and, if the duplicate is
  gone, deleted.
- tools/static/book.css colours the inserted and deleted lines of diff listings, left
  uncoloured by the theme's Pygments style and by IPython's inline style (scoped to Jupyter's
  ``.output_html``), and puts a toggle-button label beside its buttons, as a slider's label is.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from sphinx.util import logging

REPAIRED_THEBE = "0.3.1"
STATIC = Path(__file__).parent / "static"   # book.css: colours of diff listings


def drop_duplicate_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        attributes = getattr(script, "attributes", {}) or {}
        # the copies differ only in filename None vs "" (both mean an inline script)
        filename = getattr(script, "filename", script) or ""
        key = (str(filename), tuple(sorted((k, str(v)) for k, v in attributes.items())))
        if key not in seen:
            seen.add(key)
            kept.append(script)
    scripts[:] = kept


def setup(app):
    try:
        thebe = version("sphinx-thebe")
    except PackageNotFoundError:
        thebe = None
    if thebe != REPAIRED_THEBE:
        logging.getLogger(__name__).warning(
            f"tools/page_fixes.py repairs sphinx-thebe {REPAIRED_THEBE}, but {thebe} is "
            f"installed: check whether its inline script is still registered twice, and delete "
            f"the repair if not")
    app.connect("config-inited", lambda app, config: config.html_static_path.append(str(STATIC)))
    app.add_css_file("book.css")
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
