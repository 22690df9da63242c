"""The introduction's family tree (tools/make_family_tree.py, inlined in the page) has a box for
every chapter, each a link that opens its chapter. It fills the text column at 1280 px; on a phone
(390 px) it keeps at least 480 px, where its smallest text is 9 px high, and scrolls sideways in
its own box, not the page. Checked from a file and over HTTP."""

from __future__ import annotations

import pytest
from test_rendered_book import PAGES, SITE, browser, server_url  # noqa: F401

INTRODUCTION = "chapters/00_introduction.html"
CHAPTER_PAGES = sorted(p.split("/")[-1] for p in PAGES if p.startswith("chapters/")
                       and p.split("/")[-1][:2].isdigit() and p != INTRODUCTION)

LINKS = """() => Array.from(document.querySelectorAll("article svg a")).map(a => ({
    href: a.getAttribute("xlink:href") || a.getAttribute("href"),
    title: (a.querySelector("title") || {}).textContent || ""}))"""


def _open(browser, server_url, scheme, width):
    if INTRODUCTION not in PAGES:
        pytest.skip("no built book")
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(server_url + INTRODUCTION if scheme == "http" else (SITE / INTRODUCTION).as_uri())
    page.wait_for_load_state("load")
    return page


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_every_chapter_has_a_box_that_opens_it(browser, server_url, scheme):
    page = _open(browser, server_url, scheme, 1280)
    links = page.evaluate(LINKS)
    assert {link["href"] for link in links} == set(CHAPTER_PAGES)
    assert all(link["title"].startswith("Chapter ") for link in links)
    # a click on a box (its middle, not its label) opens the chapter
    box = page.locator('article svg a[*|href="15_deep_cfr.html"] path').first
    with page.expect_navigation():
        box.click()
    assert page.url.endswith("15_deep_cfr.html")
    page.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_tree_fills_the_column_or_scrolls_in_its_own_box(browser, server_url, width):
    page = _open(browser, server_url, "file", width)
    holder = page.locator(".cfrlib-family-tree")
    svg, column = holder.locator("svg").bounding_box(), holder.bounding_box()
    assert svg and column
    if width == 1280:
        assert svg["width"] <= column["width"] + 1 and svg["width"] >= column["width"] - 1
    else:
        assert svg["width"] >= 479.5, f"the tree is {svg['width']:.0f} px wide on a phone"
        assert holder.evaluate("e => e.scrollWidth > e.clientWidth"), "the tree does not scroll"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.close()
