"""The sidebars can be opened and closed at every width (issue 39): on a phone the article
header's buttons open the chapter list and the page's contents as drawers, from which a chapter
is reached; on a laptop the chapter list's button hides the list and shows it again
(tools/static/sidebar_toggles.js). Checked from a file and over HTTP."""

from __future__ import annotations

import pytest
from test_rendered_book import PAGES, SITE, browser, server_url  # noqa: F401

CHAPTER_PAGES = [p for p in PAGES if p.startswith("chapters/") and p.split("/")[-1][:2].isdigit()
                 and not p.endswith("00_introduction.html")]
FIRST = CHAPTER_PAGES[0] if CHAPTER_PAGES else "(no built book)"
LAST = CHAPTER_PAGES[-1] if CHAPTER_PAGES else "(no built book)"


def _open(browser, server_url, scheme, page_path, width):
    page = browser.new_page(viewport={"width": width, "height": 844})
    url = (server_url + page_path) if scheme == "http" else (SITE / page_path).as_uri()
    page.goto(url)
    page.wait_for_load_state("load")
    return page


def _visible_toggle(page, side):
    buttons = page.locator(f".{side}-toggle")
    shown = [buttons.nth(k) for k in range(buttons.count()) if buttons.nth(k).is_visible()]
    assert len(shown) == 1, f"{len(shown)} visible {side} sidebar buttons"
    return shown[0]


def _dialog_open(page, side):
    return page.evaluate(f"document.getElementById('pst-{side}-sidebar-modal').open")


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_on_a_phone_the_chapter_list_opens_reaches_a_chapter_and_closes(browser, server_url, scheme):
    page = _open(browser, server_url, scheme, LAST, 390)
    _visible_toggle(page, "primary").click()
    page.wait_for_function("document.getElementById('pst-primary-sidebar-modal').open")
    drawer = page.locator("#pst-primary-sidebar-modal")
    links = drawer.locator("nav a.reference.internal")
    assert links.count() >= len(CHAPTER_PAGES), "the drawer does not list the chapters"
    box = drawer.bounding_box()
    assert box and box["width"] <= 390 and box["x"] >= 0, f"the drawer does not fit the phone: {box}"
    page.keyboard.press("Escape")
    page.wait_for_function("!document.getElementById('pst-primary-sidebar-modal').open")
    # Open it again and follow a link to another chapter.
    _visible_toggle(page, "primary").click()
    page.wait_for_function("document.getElementById('pst-primary-sidebar-modal').open")
    target = FIRST.split("/")[-1]
    with page.expect_navigation():
        drawer.locator(f"a.reference.internal[href$='{target}']").first.click()
    assert page.url.endswith(target)
    page.close()


@pytest.mark.parametrize("scheme", ["file", "http"])
def test_on_a_phone_the_page_contents_open_and_close(browser, server_url, scheme):
    page = _open(browser, server_url, scheme, FIRST, 390)
    _visible_toggle(page, "secondary").click()
    page.wait_for_function("document.getElementById('pst-secondary-sidebar-modal').open")
    assert page.locator("#pst-secondary-sidebar-modal nav a").count() >= 3, "no sections listed"
    page.mouse.click(5, 420)   # beside the drawer (it opens on the right), on the backdrop
    page.wait_for_function("!document.getElementById('pst-secondary-sidebar-modal').open")
    page.close()


def test_on_a_laptop_the_chapter_list_hides_and_comes_back(browser, server_url):
    page = _open(browser, server_url, "file", FIRST, 1280)
    sidebar = page.locator("#pst-primary-sidebar")
    assert sidebar.is_visible()
    toggle = _visible_toggle(page, "primary")
    toggle.click()
    assert not sidebar.is_visible() and not _dialog_open(page, "primary")
    toggle.click()
    assert sidebar.is_visible()
    page.close()
