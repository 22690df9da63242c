"""Every figure's text as a reader sees it, on a phone (390 px) and on a laptop (1280 px), issue 39.

Each figure image of a chapter carries ``data-text-px``: the smallest text it was drawn with
(a tick label's exponent included), in CSS pixels of the image at its natural width (a
``<picture>``'s phone rendering on its ``<source>``; an explorer's frames in its data, one a
frame). The page shows the image ``shown / natural`` of that width, so its smallest text is
``data-text-px * shown / natural`` CSS pixels high: at least 8 at 390 px, at least 9 at 1280 px
(``cfrbook.phone_figures.PHONE_MIN_PX``, ``figure_layout.MIN_TEXT_PX``). An image wider than its
column (drawn wider so that its text stays legible) scrolls in its own box, with a visible line
saying so. Every image of a notebook's output must carry the size: one without it was saved by
a run that did not record it (re-execute the notebook with tools/execute-notebooks).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_rendered_book import CHAPTERS, browser, shared_load  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from figure_layout import MIN_TEXT_PX  # noqa: E402

from cfrbook.phone_figures import PHONE_MIN_PX  # noqa: E402

WIDTHS = {390: PHONE_MIN_PX, 1280: MIN_TEXT_PX}

MEASURE = """
async () => {
  await new Promise((done) => setTimeout(done, 200));   // figure_zoom.js fits after the images load
  const found = [];
  for (const img of document.querySelectorAll("article .cell_output img, article img[data-text-px]")) {
    if (!img.getClientRects().length) { continue; }   // inside a closed dropdown
    const picture = img.parentElement.tagName === "PICTURE" ? img.parentElement : null;
    const source = picture && Array.from(picture.querySelectorAll("source")).find(
      (s) => !s.media || window.matchMedia(s.media).matches);
    const natural = source ? parseFloat(source.getAttribute("width")) : img.naturalWidth;
    const shown = img.getBoundingClientRect().width;
    const explorer = img.closest(".cfrlib-explorer");
    let sizes = [parseFloat((source || img).dataset.textPx)];
    let phoneFrames = false;
    if (explorer) {   // every frame of the explorer, shown as wide as this one (all of a kind
      // are: the column's frames, or on a phone its phone frames, when it has them)
      const data = JSON.parse(explorer.querySelector("script.cfrlib-explorer-data").textContent);
      phoneFrames = img.classList.contains("cfrlib-explorer-phone");
      sizes = phoneFrames ? data.phone.text_px.filter((s, f) => data.phone.images[f]) : data.text_px;
    }
    const box = img.closest(".cfr-wide-figure");
    const hint = box && box.nextElementSibling;
    const figure = img.closest("figure");
    found.push({
      what: (figure && figure.querySelector(".caption-number")
             ? figure.querySelector(".caption-number").textContent.trim()
             : explorer ? "an explorer's frame" : "an image")
            + (source || phoneFrames ? " (phone rendering)" : ""),
      smallest: Math.min(...sizes) * shown / natural,
      recorded: sizes.every((s) => s > 0),
      wide: shown > img.parentElement.closest("article").clientWidth + 1,
      scrolls: !!box && ["auto", "scroll"].includes(getComputedStyle(box).overflowX),
      hinted: !!hint && hint.classList.contains("cfr-zoom-hint") && !hint.hidden
              && hint.getClientRects().length > 0,
      pageWide: document.scrollingElement.scrollWidth > document.documentElement.clientWidth + 1,
    });
  }
  return found;
}
"""


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("page_path", CHAPTERS or ["(no built book)"])
def test_figure_text_is_legible(browser, shared_load, page_path, width):  # noqa: F811
    """The figures of the page at a ``width`` px window, as :data:`MEASURE` finds them (in the
    page's one load at that width: test_rendered_book.shared_load)."""
    least = WIDTHS[width]
    problems = []
    for figure in shared_load(browser, page_path, width)["figures"]:
        if not figure["recorded"]:
            problems.append(f"{figure['what']}: no data-text-px (the notebook was saved without "
                            "the sizes of its figures' text: re-execute it)")
        elif figure["smallest"] < least - 0.05:
            problems.append(f"{figure['what']}: smallest text {figure['smallest']:.1f} px "
                            f"(at least {least:g})")
        if figure["wide"] and not (figure["scrolls"] and figure["hinted"]):
            problems.append(f"{figure['what']}: wider than the column without a box that scrolls "
                            "and a line saying so")
        if figure["pageWide"]:
            problems.append("the page scrolls sideways")
    assert not problems, f"{page_path} at {width} px:\n" + "\n".join(sorted(set(problems)))
