"""Sphinx extension: serve MathJax and the ipywidgets manager from the book itself.

``tools/vendor-assets`` unpacks pinned npm packages into ``_vendor/vendor/``. When that folder
is complete, this extension adds ``_vendor`` to ``html_extra_path`` (so the site gets a
``vendor/`` folder next to ``index.html``) and points ``mathjax_path`` and myst-nb's
``nb_ipywidgets_js`` at it, so math and widgets render with no internet. When it is missing
(no npm on the machine), pages load both from the public CDNs, as Jupyter Book does by default.
Either way a small script of ours (``tools/site/vendor/widgets-setup.js``) runs between
RequireJS and the widget manager.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

EXTRA_DIR = "_vendor"
SITE_DIR = "tools/site"
# Sphinx prefixes relative script paths with "_static/"; "../" climbs back to the site root.
SITE_PREFIX = "../vendor/"
MATHJAX = "mathjax/tex-mml-chtml.js"
REQUIREJS = "requirejs/require.js"
WIDGET_MANAGER = "html-manager/embed-amd.js"
# Only widget libraries that are not bundled with the manager (base and controls are) would
# ever be fetched from here.
WIDGET_CDN = "https://cdn.jsdelivr.net/npm/"
CDN_REQUIREJS = "https://cdnjs.cloudflare.com/ajax/libs/require.js/2.3.4/require.min.js"
CDN_WIDGET_MANAGER = WIDGET_CDN + "@jupyter-widgets/html-manager@1.0.6/dist/embed-amd.js"


def vendor_dir(confdir: str | Path) -> Path:
    return Path(confdir) / EXTRA_DIR / "vendor"


def assets_present(confdir: str | Path) -> bool:
    root = vendor_dir(confdir)
    return all((root / rel).is_file() for rel in ("VERSIONS", MATHJAX, REQUIREJS, WIDGET_MANAGER))


def use_local_assets(app, config) -> None:
    # Always served: tools/site/vendor/widgets-setup.js, which makes the widget manager find
    # its fonts and typeset with MathJax 3 (it works the same with the CDN copies).
    config.html_extra_path = [*config.html_extra_path, SITE_DIR]
    if assets_present(app.confdir):
        config.html_extra_path.append(EXTRA_DIR)
        config.mathjax_path = SITE_PREFIX + MATHJAX
        requirejs, manager, manager_base = SITE_PREFIX + REQUIREJS, SITE_PREFIX + WIDGET_MANAGER, "html-manager/"
        logger.info("offline_assets: MathJax and the widget manager are served from vendor/")
    else:
        requirejs, manager, manager_base = CDN_REQUIREJS, CDN_WIDGET_MANAGER, CDN_WIDGET_MANAGER.rsplit("/", 1)[0]
        logger.info(
            "offline_assets: %s/vendor not found (run tools/vendor-assets); "
            "MathJax and the widget manager will load from public CDNs",
            EXTRA_DIR,
        )
    # Plain script tags: the default "crossorigin" attribute makes file:// pages refuse them.
    config.nb_ipywidgets_js = {
        requirejs: {},
        SITE_PREFIX + "widgets-setup.js": {"data-manager-base": manager_base},
        manager: {"data-jupyter-widgets-cdn": WIDGET_CDN},
    }


def setup(app):
    # Runs before myst-nb turns its nb_* values into its own configuration (builder-inited).
    app.connect("config-inited", use_local_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
