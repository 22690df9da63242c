"""Sphinx extension: serve MathJax from the book itself.

``tools/vendor-assets`` unpacks a pinned MathJax from npm into ``_vendor/vendor/``. When that
folder is complete, this extension adds ``_vendor`` to ``html_extra_path`` (so the site gets a
``vendor/`` folder next to ``index.html``) and points ``mathjax_path`` at it, so math renders
with no internet. When it is missing (no npm on the machine), pages load MathJax from its public
CDN, as Jupyter Book does by default.

The pages load no widget manager: an explorer's static HTML (``cfrbook.interactive``) is what the
published pages show, and its controls work without one; myst-nb's ``nb_ipywidgets_js`` is
emptied so that no page loads RequireJS and the ipywidgets manager for nothing.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

EXTRA_DIR = "_vendor"
# Sphinx prefixes relative script paths with "_static/"; "../" climbs back to the site root.
SITE_PREFIX = "../vendor/"
MATHJAX = "mathjax/tex-mml-chtml.js"


def vendor_dir(confdir: str | Path) -> Path:
    return Path(confdir) / EXTRA_DIR / "vendor"


def assets_present(confdir: str | Path) -> bool:
    root = vendor_dir(confdir)
    return all((root / rel).is_file() for rel in ("VERSIONS", MATHJAX))


def use_local_assets(app, config) -> None:
    config.nb_ipywidgets_js = {}
    if assets_present(app.confdir):
        config.html_extra_path = [*config.html_extra_path, EXTRA_DIR]
        config.mathjax_path = SITE_PREFIX + MATHJAX
        logger.info("offline_assets: MathJax is served from vendor/")
    else:
        logger.info("offline_assets: %s/vendor not found (run tools/vendor-assets); "
                    "MathJax will load from its public CDN", EXTRA_DIR)


def setup(app):
    # Runs before myst-nb turns its nb_* values into its own configuration (builder-inited).
    app.connect("config-inited", use_local_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
