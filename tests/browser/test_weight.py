"""What every page loads beyond its own text (issue 39).

- Icons: the theme's fontawesome.js (1.49 MB, every icon of Font Awesome Free) is replaced by one
  holding only the icons the pages use (tools/fontawesome_subset.py). Every icon a page names is
  in it, it stays small, and in Chromium every icon of a page becomes a drawn SVG in light and
  dark mode, at 1280 and 390 px, and in each of the theme switcher's three states.
- Search: Sphinx's search scripts and the 320 kB search index load on the search page only.
- Citations: every citation in the text reads as the label of the entry it links to in the
  bibliography ("[Brown and Sandholm, 2019a]" in both), and no two entries share a label
  (tools/bibliography_style.py).
"""

from __future__ import annotations

import html
import re

import pytest
from test_rendered_book import PAGES, SITE, _unavailable, browser  # noqa: F401

FONTAWESOME = SITE / "_static" / "scripts" / "fontawesome.js"
FONTAWESOME_BUDGET = 100_000
"""Bytes the icon script may weigh: Font Awesome's runtime is about 70 kB and each icon 0.3-1 kB
(the theme's full file, 1,489 kB, would fail)."""

STYLE_CLASSES = {"fa", "fas", "fa-solid", "far", "fa-regular", "fab", "fa-brands"}
LOOK_CLASSES = re.compile(r"fa-(lg|fw|\d?x[sl]|sm|\d+x|spin|pulse|border|inverse|rotate-\w+|flip-\w+)")


def _named_icons(page_html: str) -> set[str]:
    names = set()
    for classes in re.findall(r'class="([^"]*)"', page_html):
        words = classes.split()
        if STYLE_CLASSES & set(words):
            names |= {w[3:] for w in words
                      if w.startswith("fa-") and w not in STYLE_CLASSES and not LOOK_CLASSES.fullmatch(w)}
    return names


def _built():
    if not PAGES:
        _unavailable(f"no built book in {SITE}: run `make book` first")


def test_icon_script_holds_every_icon_the_pages_use_and_little_else():
    _built()
    script = FONTAWESOME.read_text(encoding="utf-8")
    assert len(script.encode()) <= FONTAWESOME_BUDGET, (
        f"{FONTAWESOME.name} weighs {len(script.encode()) / 1e3:.0f} kB: the theme's full script "
        "is served (is tools/fontawesome_subset.py connected?)")
    assert "Font Awesome Free" in script and "CC BY 4.0" in script, "license comment lost"
    assert "sourceMappingURL" not in script
    used = {name: page for page in PAGES for name in _named_icons((SITE / page).read_text())}
    assert {"magnifying-glass", "sun", "moon", "circle-half-stroke", "bars"} <= set(used), used
    # An icon is defined as  name:[width,height,[aliases],"unicode","path"]  (name quoted or not).
    defined = re.findall(r'(?:"([a-z0-9-]+)"|\b([a-z0-9-]+)):\[\d+,\d+,\[([^\]]*)\]', script)
    names = {a or b for a, b, _ in defined} | {
        alias.strip('"') for _, _, aliases in defined for alias in aliases.split(",")}
    missing = {name: page for name, page in used.items() if name not in names}
    assert not missing, f"icons the pages use but the icon script lacks: {missing}"
    assert len(defined) <= len(used) + 2, f"icons nobody uses: {sorted(names - set(used))}"


def test_no_page_loads_another_copy_of_font_awesome():
    _built()
    for page in PAGES:
        scripts = re.findall(r'<script[^>]*src="([^"]+)"', (SITE / page).read_text())
        fontawesome = [s for s in scripts if "fontawesome" in s or "font-awesome" in s]
        assert [s.split("?")[0].rsplit("/", 1)[-1] for s in fontawesome] == ["fontawesome.js"], (
            page, fontawesome)


def test_only_the_search_page_loads_the_search_index():
    """The theme's search dialog sends the query to search.html (tools/templates/layout.html)."""
    _built()
    search = re.compile(r'<script[^>]*src="[^"]*(searchindex|searchtools|language_data)\.js')
    assert search.search((SITE / "search.html").read_text())
    loading = [page for page in PAGES if search.search((SITE / page).read_text())]
    assert not loading, f"pages loading the search scripts they do not use: {loading[:5]}"


def test_search_from_a_page_reaches_the_results(browser):
    _built()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto((SITE / "chapters" / "bibliography.html").as_uri(), wait_until="load")
        page.locator("button.search-button__button:visible").first.click()
        page.locator("#pst-search-dialog input[name=q]").fill("regret matching")
        page.locator("#pst-search-dialog input[name=q]").press("Enter")
        page.wait_for_url("**/search.html?q=regret*")
        # Sphinx appends the results one by one: wait until more than five are listed
        page.wait_for_function("document.querySelectorAll('#search-results li').length > 5",
                               timeout=20000)
        assert page.locator("#search-results li").count() > 5
    finally:
        page.close()


DRAWN_ICONS = """
async () => {
  await new Promise((done) => setTimeout(done, 500));   // the icon script runs deferred
  const left = Array.from(document.querySelectorAll("i[class*='fa-']")).map((i) => i.className);
  const drawn = Array.from(document.querySelectorAll("svg.svg-inline--fa"));
  const bad = drawn.filter((svg) => svg.querySelector(".missing") || !svg.dataset.icon
      || !(svg.querySelector("path") || {getAttribute: () => ""}).getAttribute("d"))
    .map((svg) => svg.outerHTML.slice(0, 120));
  const shown = drawn.filter((svg) => svg.getBoundingClientRect().width > 0);
  const mode = document.documentElement.dataset.theme;
  const switcher = Array.from(document.querySelectorAll(".theme-switch-button svg"))
    .filter((svg) => svg.getBoundingClientRect().width > 0).map((svg) => svg.dataset.icon);
  return {left, bad, drawn: drawn.length, shown: shown.length, mode, switcher};
}
"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_icon_is_drawn(browser, width, scheme):
    _built()
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    try:
        page.goto((SITE / "chapters" / "bibliography.html").as_uri(), wait_until="load")
        found = page.evaluate(DRAWN_ICONS)
        assert not found["left"] and not found["bad"], found
        assert found["drawn"] >= 15 and found["shown"] >= 3, found
        assert found["mode"] == scheme, found
        # The switcher cycles auto -> light -> dark -> auto, each state showing its own icon.
        icons = []
        for _ in range(3):
            page.locator(".theme-switch-button:visible").first.click()
            icons.append(page.evaluate(DRAWN_ICONS)["switcher"])
        assert sorted(map(tuple, icons)) == [("circle-half-stroke",), ("moon",), ("sun",)], icons
    finally:
        page.close()


def _label(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def test_citations_read_as_the_bibliography_labels_them():
    _built()
    bibliography = (SITE / "chapters" / "bibliography.html").read_text()
    labels = {entry_id: _label(label) for entry_id, label in re.findall(
        r'<div class="citation" id="([^"]+)"[^>]*>\s*<span class="label">(.*?)</span>\s*</span>',
        bibliography, flags=re.S)}
    assert len(labels) >= 50, "bibliography entries not found: has its markup changed?"
    shared = sorted(label for label in labels.values() if list(labels.values()).count(label) > 1)
    assert not shared, f"entries sharing a label: {shared}"
    in_order = [label.replace(",", " ").casefold() for label in labels.values()]
    assert in_order == sorted(in_order), "the bibliography is not in the order of its labels"
    assert all(re.fullmatch(r"\[.+, (\d{4}|n\.d\.)[a-z]?\]", label) for label in labels.values()), \
        labels
    checked, wrong = 0, []
    for page in PAGES:
        text = (SITE / page).read_text()
        for span in re.findall(r'<span class="bibtex-citation"[^>]*>(.*?)</span>', text, flags=re.S):
            for entry_id, cited in re.findall(r'href="[^"#]*bibliography\.html#([^"]+)"[^>]*>(.*?)</a>',
                                              span, flags=re.S):
                label, cited = labels[entry_id][1:-1], _label(cited)
                # {cite:p} links "Author, year"; {cite:t} writes the authors, then links the year.
                before = _label(span.split("<a ")[0]).rstrip(" [")
                if cited != label and f"{before}, {cited}" != label:
                    wrong.append(f"{page}: cites {before} {cited!r} for [{label}]")
                checked += 1
    assert checked >= 100, checked
    assert not wrong, "\n".join(wrong[:20])
