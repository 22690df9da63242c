"""Every chapter read on a phone, 390 px wide (issue 39): the page never scrolls sideways, no
inline formula is cut off (a wide one scrolls in its own box: tools/static/wide_math.js) nor
parted from the punctuation after it when its line has room for both (no line starting with the
")" of "(1/6)"), display equations and wide tables scroll inside their own boxes, and code breaks
between tokens, never inside one that would fit on a row (tools/static/code_lines.js); and at
that width too the page logs no console error, throws nothing and fails no request. No page of
the API reference scrolls sideways there either."""

from __future__ import annotations

import pytest
from test_rendered_book import (CHAPTERS, PAGES, PHONE, REFERENCE, SITE, browser,  # noqa: F401
                                shared_load)

CHECK_PHONE = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  await new Promise((done) => setTimeout(done, 300));   // wide_math.js measures after MathJax
  const problems = [];
  const width = document.documentElement.clientWidth;
  const page = document.scrollingElement.scrollWidth;
  if (page > width + 1) { problems.push(`the page scrolls sideways: ${page} px wide in ${width} px`); }
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const box = (el) => {   // the nearest box that scrolls sideways, or the article
    for (let e = el; e; e = e.parentElement) {
      if (scrolls(e) || e.matches("article")) { return e; }
    }
    return document.body;
  };
  for (const math of document.querySelectorAll('mjx-container:not([display="true"])')) {
    const outer = scrolls(math) ? math : box(math);
    if (outer === math) { continue; }
    const right = math.getBoundingClientRect().right, limit = outer.getBoundingClientRect().right;
    if (!scrolls(outer) && right > limit + 1) {
      problems.push(`inline formula cut off (${Math.round(right - limit)} px): ` +
                    JSON.stringify(math.textContent.slice(0, 40)));
    }
  }
  for (const math of document.querySelectorAll('mjx-container:not([display="true"])')) {
    // the punctuation written right after a formula that leaves room for it on its line
    const own = math.parentElement.matches("span.math") ? math.parentElement : math;
    const next = own.nextSibling;
    const block = math.parentElement.closest("p, li, td, th, dd, div, figcaption");
    const mark = next && next.nodeType === 3 && /^[,.;:!?)\\]]/.test(next.textContent);
    if (!mark || !block || math.getBoundingClientRect().width > block.clientWidth - 16) { continue; }
    const range = document.createRange();
    range.setStart(next, 0);
    range.setEnd(next, 1);
    if (range.getBoundingClientRect().top >= math.getBoundingClientRect().bottom - 2) {
      problems.push(`a line starts with the ${JSON.stringify(next.textContent[0])} after ` +
                    JSON.stringify(math.textContent.slice(0, 40)));
    }
  }
  for (const math of document.querySelectorAll('mjx-container[display="true"]')) {
    const inner = math.querySelector("mjx-math");
    if (inner && inner.getBoundingClientRect().width > math.clientWidth + 1 && !scrolls(math)) {
      problems.push("display equation wider than its box, which does not scroll: " +
                    JSON.stringify(math.textContent.slice(0, 40)));
    }
  }
  for (const table of document.querySelectorAll("article table")) {
    const column = table.closest("article").clientWidth;
    if (table.getBoundingClientRect().width > column + 1 && box(table).matches("article")) {
      problems.push("wide table that does not scroll in its own box");
    }
  }
  let split = 0, example = "";
  for (const pre of document.querySelectorAll("pre.code-lines")) {
    const right = pre.getBoundingClientRect().right;
    for (const token of pre.querySelectorAll("span.code-line span:not(:has(span))")) {
      const rects = Array.from(token.getClientRects());
      // A word (not a comment or string with spaces, not a run of brackets) broken although it
      // would have fitted on the row it continues on, after the line's hanging indent.
      if (rects.length > 1 && /\\w/.test(token.textContent) && !/\\s/.test(token.textContent)) {
        const whole = rects.reduce((sum, r) => sum + r.width, 0);
        if (whole < right - rects[rects.length - 1].left) { split += 1; example = example || token.textContent; }
      }
    }
  }
  if (split) { problems.push(`${split} code tokens broken across rows, e.g. ${JSON.stringify(example)}`); }
  return problems;
}
"""


@pytest.mark.parametrize("page_path", CHAPTERS or ["(no built book)"])
def test_a_chapter_reads_on_a_phone(browser, shared_load, page_path):  # noqa: F811
    """CHECK_PHONE's problems, and the console errors, uncaught exceptions and failed requests
    of the page's one load at 390 px (test_rendered_book.shared_load)."""
    found = shared_load(browser, page_path, 390)
    problems = found["events"] + found["phone"]
    assert not problems, f"{page_path} at 390 px:\n" + "\n".join(problems)


def test_no_page_of_the_api_reference_scrolls_sideways_on_a_phone(browser):  # noqa: F811
    """A page's title and the signatures of its classes and functions break inside a long name
    (tools/static/book.css) rather than make the page wider than the phone: 63 of the 74 pages
    scrolled sideways at 390 px before."""
    pages = [p for p in PAGES if p.startswith(REFERENCE)]
    assert len(pages) > 50, pages
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    wide = {}
    for page_path in pages:
        tab.goto((SITE / page_path).as_uri())
        width = tab.evaluate("document.scrollingElement.scrollWidth")
        if width > PHONE["width"] + 1:
            wide[page_path] = width
    context.close()
    assert not wide, f"pages wider than {PHONE['width']} px: {wide}"
