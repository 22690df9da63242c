"""The explorers of the built book tell the truth (issue 39), at 1280 and 390 px.

- Every setting a control offers was drawn: each grid point has its frame, each control offers
  exactly the positions of its axis, and no frame says that its setting was not drawn (chapter
  6's "dark seed" slider once offered seeds of runs the page did not draw, 34 of its 64 frames
  saying "seed N not drawn").
- A value that cannot change is stated as text ("Fixed on this page: ..."), never drawn as a
  control (chapter 9's "predictive: no", chapter 10's list of variants).
- The printed text wraps between words (none cut off or scrolling, no "9.4e-05" broken at its
  hyphen) and keeps one height over every frame, so the figure under it never moves as the
  controls move (chapter 4's walk jumped as its text grew).
- The figure's alternative text follows the frame shown: the page's script writes, for every
  setting, what :func:`cfrbook.interactive.frame_alt` writes in Python (the explorer's alt and
  the setting), within the book's rules for alt text (tests/test_figures_accessible.py: at most
  250 characters, no TeX), and the page opens with the text the HTML carries.
- "Play" from the position the explorer opens on plays: one stop a tick from the first stop to
  the last, then stops (chapter 4's walk opened two stops before its end and played two).

Every check is also run on a small explorer broken on purpose, which it must catch.
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import matplotlib
import pytest
from test_explorers import DATA, EXPLORER_PAGES, _static_page
from test_rendered_book import SITE, browser  # noqa: F401

from test_figures_accessible import alt_problem

from cfrbook import plotting
from cfrbook.interactive import Explorer, frame_alt

matplotlib.use("agg")

# Each grid point, set through the controls as a reader would leave them, with what it shows: the
# frame, the image's alt, the text box's height, whether its text is cut off or leaves the page,
# a word it breaks over two rows, and the figure's top (from the explorer's top). The controls
# end where they began.
VISIT = r"""
(root) => {
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const pre = root.querySelector("pre.cfrlib-explorer-text");
  const img = root.querySelector("img.cfrlib-explorer-figure");
  const page = document.documentElement.clientWidth;
  const set = (k, p) => {
    const axis = data.axes[k], sel = '[data-axis="' + k + '"]';
    if (axis.kind === "fixed") { return null; }
    let el = root.querySelector(sel);
    if (axis.kind === "choice") { el = root.querySelectorAll(sel)[p]; el.checked = true; }
    else if (axis.kind === "check") { el.checked = p === 1; }
    else { el.value = String(p); }
    return el;
  };
  const go = (positions) => {
    let moved = null;
    positions.forEach((p, k) => { moved = set(k, p) || moved; });
    if (moved) { moved.dispatchEvent(new Event("change")); }
  };
  const walk = function* (el) {
    const nodes = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = nodes.nextNode(); node; node = nodes.nextNode()) { yield node; }
  };
  const total = data.shape.reduce((a, b) => a * b, 1), points = [];
  for (let index = 0; index < total; index++) {
    const positions = [];
    for (let k = data.shape.length - 1, rest = index; k >= 0; k--) {
      positions.unshift(rest % data.shape[k]);
      rest = Math.floor(rest / data.shape[k]);
    }
    go(positions);
    const box = pre.getBoundingClientRect();
    let broken = "";   // a word of the text split over two rows
    for (const node of walk(pre)) {
      for (const word of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) { broken = broken || word[0]; }
      }
    }
    points.push({positions, frame: +root.dataset.frame, alt: img.alt, hidden: pre.hidden, broken,
                 height: box.height, right: box.right, page,
                 cut: !pre.hidden && (pre.scrollWidth > pre.clientWidth + 1 ||
                                      pre.scrollHeight > pre.clientHeight + 1),
                 top: img.getBoundingClientRect().top - root.getBoundingClientRect().top});
  }
  go(data.axes.map((axis) => axis.default));
  return points;
}
"""

# How many positions each control offers (null for a value with no control), the controls a fixed
# value has all the same, and the fixed values as the page states them.
OFFERED = """
(root) => {
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const controls = root.querySelector(".cfrlib-explorer-controls");
  return data.axes.map((axis, k) => {
    const sel = '[data-axis="' + k + '"]', inputs = [...controls.querySelectorAll(sel)];
    const drawn = inputs.length + controls.querySelectorAll('[data-readout="' + k + '"]').length;
    const stated = root.querySelector('.cfrlib-explorer-fixed [data-readout="' + k + '"]');
    let offered = null;
    if (inputs.length && axis.kind === "range") { offered = +inputs[0].max - +inputs[0].min + 1; }
    if (inputs.length && axis.kind === "choice") { offered = inputs.length; }
    if (inputs.length && axis.kind === "select") { offered = inputs[0].options.length; }
    if (inputs.length && axis.kind === "check") { offered = 2; }
    return {name: axis.name, kind: axis.kind, offered, drawn,
            stated: stated ? stated.textContent : null};
  });
}
"""

NOT_DRAWN = re.compile(r"\bnot (drawn|computed|run|available)\b|needs a (running notebook|kernel)",
                       re.IGNORECASE)
"""What a frame says when its setting was not drawn (chapter 6's "seed 5 not drawn")."""


def _positions_problems(data: dict, offered: list[dict]) -> list[str]:
    """Controls that offer settings the page did not draw, and fixed values drawn as controls."""
    problems = []
    for size, axis, control in zip(data["shape"], data["axes"], offered):
        name = axis["name"]
        if axis["kind"] == "fixed":
            if control["drawn"]:
                problems.append(f"{name}: a value that cannot change is drawn as a control")
            if control["stated"] != axis["labels"][axis["default"]]:
                problems.append(f"{name}: its fixed value is not stated as text")
        elif control["offered"] != size:
            problems.append(f"{name}: the control offers {control['offered']} settings, the page "
                            f"drew {size}")
    missing = sum(f is None for f in data["frame_of"])
    if missing:
        problems.append(f"{missing} settings have no frame")
    for f, (text, title) in enumerate(zip(data["texts"], data["titles"])):
        if NOT_DRAWN.search(text + "\n" + title):
            problems.append(f"frame {f} says its setting was not drawn: {(title or text)!r}")
    return problems


def _shown_problems(data: dict, points: list[dict], opened_alt: str) -> list[str]:
    """Text cut off or moving the figure, and alt texts that do not describe the frame shown."""
    problems = []
    for point in points:
        where = f"at {point['positions']}"
        if point["cut"] or point["right"] > point["page"] + 1:
            problems.append(f"{where}: the printed text is cut off")
        if point["broken"]:
            problems.append(f"{where}: the printed text breaks {point['broken']!r} over two rows")
        frame = data["frame_of"][point["frame"]]
        moving = [(a["description"], a["labels"][p])
                  for a, p in zip(data["axes"], point["positions"]) if a["kind"] != "fixed"]
        if frame is not None and point["alt"] != frame_alt(data["alt"], moving):
            problems.append(f"{where}: the alt text does not describe the frame: {point['alt']!r}")
        elif why := alt_problem(point["alt"]):
            problems.append(f"{where}: the alt text is {why}")
    for key, what in (("height", "the printed text's height"), ("top", "the figure's top")):
        values = sorted({round(p[key], 1) for p in points})
        if values[-1] - values[0] > 1:
            problems.append(f"{what} changes with the setting: {values[0]:g} to {values[-1]:g} px")
    opening = next(p for p in points
                   if p["positions"] == [a["default"] for a in data["axes"]])
    if opened_alt != opening["alt"]:
        problems.append(f"the page opens with the alt text {opened_alt!r}, its script writes "
                        f"{opening['alt']!r}")
    return problems


def _saved_alts(page_path: str) -> list[str]:
    """The alt texts of the explorers' images as the HTML file carries them."""
    text = (SITE / page_path).read_text()
    found = re.findall(r'<img class="cfrlib-explorer-figure" alt="([^"]*)"', text)
    return [html.unescape(alt) for alt in found]


def _skip_without_explorers():
    if not EXPLORER_PAGES:
        pytest.skip("no built page holds an explorer")


def _play_positions(page, root, data: dict) -> tuple[list[int], str]:
    """Click play on a page whose clock is faked and record the played slider's position after
    the click and after each tick (two ticks more than the slider has stops). The clock is paused
    first (a minute ahead: it may not go back, and real time passes until the call arrives), so
    that only run_for moves it: a faked clock otherwise also runs with real time, and on a busy
    machine a slow round trip let a second tick fire between two readings."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 60)   # Unix seconds
    button = root.locator("[data-play]")
    k = int(button.get_attribute("data-play"))
    slider = root.locator(f'input[type=range][data-axis="{k}"]')
    button.click()
    seen = [int(slider.input_value())]
    for _ in range(data["shape"][k] + 1):
        page.clock.run_for(data["interval"])
        seen.append(int(slider.input_value()))
    return seen, button.inner_text()


def _play_problems(seen: list[int], stops: int, label: str) -> list[str]:
    played = list(range(stops)) + [stops - 1] * (len(seen) - stops)
    problems = [] if seen == played else [f"play shows stops {seen}, not {played}"]
    if "play" not in label:
        problems.append(f"at the end the button reads {label!r}")
    return problems


@pytest.mark.parametrize("page_path", EXPLORER_PAGES or ["(no explorer in a built book)"])
def test_every_explorer_tells_the_truth(browser, page_path):
    """Each page is opened once, at 1280 px, then narrowed to 390 px as a phone would show it
    (the text box measures its frames again), and its play buttons are pressed last."""
    _skip_without_explorers()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.clock.install()   # play's ticks, and the figures' refit after a resize, on demand
    problems: list[str] = []
    try:
        page.goto((SITE / page_path).as_uri(), wait_until="load")
        explorers = page.locator(".cfrlib-explorer")
        saved = _saved_alts(page_path)
        assert len(saved) == explorers.count()
        for width in (1280, 390):
            if width != 1280:
                page.set_viewport_size({"width": width, "height": 900})
                page.clock.run_for(1000)
            for e in range(explorers.count()):
                root = explorers.nth(e)
                data = root.evaluate(DATA)
                found = _shown_problems(data, root.evaluate(VISIT), saved[e])
                if width == 1280:
                    found = _positions_problems(data, root.evaluate(OFFERED)) + found
                problems += [f"explorer {e + 1} at {width} px: {p}" for p in found]
        for e in range(explorers.count()):
            root = explorers.nth(e)
            if root.locator("[data-play]").count():
                data = root.evaluate(DATA)
                k = int(root.locator("[data-play]").get_attribute("data-play"))
                seen, label = _play_positions(page, root, data)
                problems += [f"explorer {e + 1}: {p}"
                             for p in _play_problems(seen, data["shape"][k], label)]
    finally:
        page.close()
    assert not problems, f"{page_path}:\n  " + "\n  ".join(problems[:20])


# ------------------------------------------------------------------ the checks catch the defects


def _walk(step, seed):
    # Chapter 4's walk and chapter 6's seeds in one: text that grows and wraps, and a seed that
    # was not among the runs drawn.
    fig, ax = plotting.new_figure(width=3, height=2)
    ax.set_title(f"step {step}, " + (f"seed {seed} dark" if seed < 2 else f"seed {seed} not drawn"))
    print("\n".join(["the regret added at this node, with the reach of the others"] * step))
    print("a" * step, " ".join(["9.4e-05"] * 9))


def _walk_explorer(**static) -> Explorer:
    return Explorer(_walk, {"step": widgets.IntSlider(value=3, min=1, max=4),
                            "seed": widgets.IntSlider(value=0, min=0, max=3)},
                    play="step", interval=500, static=static, alt="A walk.")


def _page_of(browser, explorer: Explorer, width: int):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.clock.install()
    page.set_content(f"<body>{explorer.static_html('all')}</body>")
    return page, page.locator(".cfrlib-explorer")


def test_the_checks_find_untruthful_explorers(browser):
    page, root = _page_of(browser, _walk_explorer(seed=[0, 1]), 390)
    try:
        data = root.evaluate(DATA)
        opened = root.locator("img").get_attribute("alt")
        truthful = (_positions_problems(data, root.evaluate(OFFERED)) +
                    _shown_problems(data, root.evaluate(VISIT), opened))
        # What the explorers did before: text that does not wrap and takes the height of the
        # frame's own lines, an alt that never changes, a fixed value drawn as a control.
        root.evaluate("""(root) => {
            const pre = root.querySelector("pre"), img = root.querySelector("img");
            pre.style.whiteSpace = "pre"; pre.style.overflowX = "auto"; pre.style.minHeight = "0";
            Object.defineProperty(img, "alt", {get: () => "A walk", set: () => {}});
            root.querySelector(".cfrlib-explorer-controls").insertAdjacentHTML(
              "beforeend", '<span><output data-readout="1">0</output></span>');
        }""")
        data["axes"][1]["kind"] = "fixed"
        untruthful = (_positions_problems(data, root.evaluate(OFFERED)) +
                      _shown_problems(data, root.evaluate(VISIT), "A walk"))
        # Text that wraps anywhere a browser may: "9.4e-05" after its hyphen.
        root.evaluate("""(root) => {
            root.querySelector("pre").style.whiteSpace = "pre-wrap";
            root.insertAdjacentHTML("beforeend", "<style>pre span {white-space: normal !important}</style>");
        }""")
        broken = {p.split(": ", 1)[1] for p in _shown_problems(data, root.evaluate(VISIT), "A walk")
                  if "over two rows" in p}
    finally:
        page.close()
    assert truthful == []
    assert untruthful[:2] == ["seed: a value that cannot change is drawn as a control",
                              "seed: its fixed value is not stated as text"]
    assert "at [0, 0]: the printed text is cut off" in untruthful, untruthful
    assert "at [3, 1]: the alt text does not describe the frame: 'A walk'" in untruthful
    assert broken == {"the printed text breaks '9.4e-05' over two rows"}
    assert [p.split(":")[0] for p in untruthful[-2:]] == [
        "the printed text's height changes with the setting",
        "the figure's top changes with the setting"]
    # Chapter 6's seeds before: the slider offered seeds whose runs were not drawn.
    page, root = _page_of(browser, _walk_explorer(), 1280)
    try:
        seeds = _positions_problems(root.evaluate(DATA), root.evaluate(OFFERED))
    finally:
        page.close()
    assert seeds == [f"frame {f} says its setting was not drawn: 'step {s}, seed {d} not drawn'"
                     for f, (s, d) in enumerate((s, d) for s in range(1, 5) for d in range(4))
                     if d >= 2]


def test_play_from_the_opening_stop_plays_every_stop_and_the_check_finds_one_that_does_not(
        browser):
    page, root = _page_of(browser, _walk_explorer(seed=[0]), 1280)
    try:
        seen, label = _play_positions(page, root, root.evaluate(DATA))
    finally:
        page.close()
    assert (seen, label) == ([0, 1, 2, 3, 3, 3], "\u25b6 play")
    assert _play_problems(seen, 4, label) == []
    # Before, play went on from the stop it opened on (the third of four) and stopped at the end.
    assert _play_problems([2, 3, 3, 3, 3, 3], 4, "\u25b6 play") == [
        "play shows stops [2, 3, 3, 3, 3, 3], not [0, 1, 2, 3, 3, 3]"]
