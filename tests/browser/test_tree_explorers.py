"""The book's tree explorers on a phone (issue 39, finding 6): chapters 3, 4 and 7's explorers of
game trees draw their phone frames with the trees' phone layouts (cfrbook.plotting and
cfrbook.trees, ``phone=True``), so at 390 px each shows its phone frames, in its column, with
text of 8 px or more, at its opening position and with every control at its last value; at
1280 px each shows its column frames. Chapter 3's best-response explorer (bars, not a tree) is
held to the same, since its "BR" marks no longer run into its title."""

from __future__ import annotations

import pytest
from test_rendered_book import SITE, browser  # noqa: F401

TREE_EXPLORERS = {   # page: the start of each explorer's alt text (one load of a page checks all)
    "chapters/03_games_and_exploitability.html": ("The Kuhn tree with the chosen history",
                                                  "Kuhn poker's tree on its side, each history",
                                                  "Player 1's counterfactual values of pass"),
    "chapters/04_vanilla_cfr.html": ("The Kuhn tree with the node of the chosen step",
                                     "Kuhn's betting tree after the chosen number"),
    "chapters/07_monte_carlo_cfr.html": ("Kuhn poker's tree on its side with the nodes",),
}

SHOWN = """(root) => {
  const img = root.querySelector("img.cfrlib-explorer-figure");
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const f = data.frame_of[+root.dataset.frame];
  const png = (images) => !images ? null          // a frame's URL on the site, inline in a notebook
    : data.urls ? new URL(images[f], document.baseURI).href : "data:image/png;base64," + images[f];
  return {frame: f, src: img.src, column: png(data.images), phone: png((data.phone || {}).images),
          text: +img.dataset.textPx * img.getBoundingClientRect().width / img.naturalWidth,
          width: img.getBoundingClientRect().width, box: root.clientWidth,
          marked: img.classList.contains("cfrlib-explorer-phone")};
}"""

TO_THE_END = """(root) => {   // every control to its last value, as a reader would leave it
  root.querySelectorAll('input[type=range][data-axis]').forEach((range) => {
    range.value = range.max; range.dispatchEvent(new Event("input"));
  });
  root.querySelectorAll("select[data-axis]").forEach((list) => {
    list.selectedIndex = list.options.length - 1; list.dispatchEvent(new Event("change"));
  });
  const groups = {};
  root.querySelectorAll("input[type=radio][data-axis]").forEach((r) => { groups[r.name] = r; });
  Object.values(groups).forEach((last) => {
    last.checked = true; last.dispatchEvent(new Event("change"));
  });
}"""


def _explorer(page, alt: str):
    root = page.locator(f'.cfrlib-explorer:has(img[alt^="{alt}"])')
    assert root.count() == 1, f"no explorer whose figure's alt text starts {alt!r}"
    return root


def _page(browser, page_path: str, width: int):
    if not (SITE / page_path).is_file():
        pytest.skip(f"{page_path} is not built")
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto((SITE / page_path).as_uri(), wait_until="load")
    return page


@pytest.mark.parametrize("page_path", sorted(TREE_EXPLORERS))
def test_on_a_phone_a_tree_explorer_shows_its_phone_frames_in_its_column(browser, page_path):
    page = _page(browser, page_path, 390)
    try:
        for alt in TREE_EXPLORERS[page_path]:
            root = _explorer(page, alt)
            root.scroll_into_view_if_needed()
            for position in ("opening", "last"):
                if position == "last":
                    root.evaluate(TO_THE_END)
                shown = root.evaluate(SHOWN)
                brief = {k: v for k, v in shown.items() if k not in ("src", "column", "phone")}
                where = f"{page_path}, {alt!r}, {position} position: {brief}"
                assert shown["phone"] is not None, f"{where}: the page carries no phone frames"
                assert shown["src"] == shown["phone"] and shown["marked"], where
                assert shown["width"] <= shown["box"], where
                assert shown["text"] >= 8, where
    finally:
        page.close()


@pytest.mark.parametrize("page_path", sorted(TREE_EXPLORERS))
def test_on_a_laptop_a_tree_explorer_shows_its_column_frames(browser, page_path):
    page = _page(browser, page_path, 1280)
    try:
        for alt in TREE_EXPLORERS[page_path]:
            root = _explorer(page, alt)
            for position in ("opening", "last"):
                if position == "last":
                    root.evaluate(TO_THE_END)
                shown = root.evaluate(SHOWN)
                where = f"{page_path}, {alt!r}, {position} position"
                assert shown["src"] == shown["column"] and not shown["marked"], where
                assert shown["text"] >= 9, where
    finally:
        page.close()
