"""The solved hold'em spot (``cfrbook.holdem_explorer``) is walked in the built book, with no kernel.

For every spot explorer of every built page, in headless Chromium at 1280 and 390 px: clicking
actions and dealt cards walks the tree to the node the page's tables name, each action button shows
the frequency the tables give over the acting player's range, the grid colours exactly the classes
with hands in that range, a class clicked lists its hands with their strategy, EV and equity, the
path's buttons walk back, the widget fits the width, and the console stays free of errors.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_rendered_book import PAGES, SITE, _is_local, browser, server_url  # noqa: F401

SPOT_PAGES = [p for p in PAGES if "cfrlib-spot-data" in (SITE / p).read_text()]
DATA = """(root) => JSON.parse(root.querySelector("script.cfrlib-spot-data").textContent)"""


def _frequencies(node: dict) -> list[float]:
    reach = np.array(node["reach"], dtype=float)
    return [float(reach @ np.array(row) / 1000 / reach.sum()) for row in node["strategy"]]


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("page_path", SPOT_PAGES or ["(none)"])
def test_the_spot_is_walked_in_the_page(browser, server_url, page_path, width):  # noqa: F811
    if not SPOT_PAGES:
        pytest.skip("no built page holds a spot explorer")
    errors: list[str] = []
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.route("**/*", lambda r: r.continue_() if _is_local(r.request.url, server_url) else r.abort())
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url + page_path, wait_until="load")
    for root in page.locator(".cfrlib-spot").all():
        data = root.evaluate(DATA)
        nodes = data["nodes"]
        # walk: the first action with a node below, then the first dealt card with one, twice over
        at = 0
        for _ in range(4):
            node = nodes[at]
            buttons = root.locator(".cfrlib-spot-actions button")
            labels = buttons.all_text_contents()
            actions = [i for i, t in enumerate(labels) if "%" in t]  # the others are dealt cards
            shown = [float(re.search(r"([\d.]+)%", labels[i]).group(1)) / 100 for i in actions]
            assert shown == pytest.approx(_frequencies(node), abs=6e-4)
            cells = root.locator(".cfrlib-spot-grid div")
            coloured = [c for c in range(169) if "gradient" in (cells.nth(c).get_attribute("style") or "")]
            in_range = sorted({data["cells"][node["player"]][h] for h, r in enumerate(node["reach"]) if r > 0})
            assert coloured == in_range
            cells.nth(in_range[0]).click()
            rows = root.locator(".cfrlib-spot-hand tbody tr").count()
            assert rows == sum(1 for h, r in enumerate(node["reach"])
                               if r > 0 and data["cells"][node["player"]][h] == in_range[0])
            step = next(((k, child) for k, child in enumerate(node["children"]) if isinstance(child, int)
                         or (isinstance(child, dict) and any(isinstance(v, int) for v in child["deal"].values()))),
                        None)
            if step is None:
                break
            k, child = step
            if isinstance(child, int):
                buttons.nth(actions[k]).click()
                at = child
            else:
                card, at = next((c, v) for c, v in child["deal"].items() if isinstance(v, int))
                buttons.nth(labels.index(card, actions[k])).click()
            assert root.evaluate("(r) => r.cfrlibSpot.state().node") == at
            assert root.evaluate("(r) => r.cfrlibSpot.state().path") == nodes[at]["path"]
        root.locator(".cfrlib-spot-path button").first.click()
        assert root.evaluate("(r) => r.cfrlibSpot.state().node") == 0
        box = root.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    context.close()
    assert not errors, errors
