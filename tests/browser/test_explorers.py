"""The explorers of the built book (``cfrbook.interactive``) move without a kernel.

For every page that holds an explorer, in headless Chromium, from ``file://`` and from a local web
server: every control is operated from the keyboard (arrow keys on a focused slider or radio
group, Space on a check box; a drop-down list is chosen from), and after each move the figure must
have changed and must be exactly the frame stored for the controls' new position, computed here
from the controls the page shows; the readout of a slider must name the value, and every number a
control shows must be said by the frame's title or printed text (``READOUTS``), so that a control
cannot show one value while the figure used another. A play button must step the figure by
itself. The console must stay free of errors. Every slider shows its stops (``STOPS``), at 1280
and at 390 px: a tick for each (a datalist) and labels under them, every stop labelled when they
are unevenly spaced, no label over another text or off the page. On a phone, each explorer fits
its column, and a frame too wide for it can be seen at its natural size. The checks of a page at
one width share one load of it.
"""

from __future__ import annotations

import ipywidgets as widgets
import matplotlib
import pytest
from test_rendered_book import PAGES, SITE, _is_local, browser, server_url  # noqa: F401

from cfrbook import plotting
from cfrbook.interactive import Explorer

matplotlib.use("agg")

EXPLORER_PAGES = [p for p in PAGES if "cfrlib-explorer-data" in (SITE / p).read_text()]

STATE = """
async (root) => {
  const img = root.querySelector("img.cfrlib-explorer-figure");
  await img.decode().catch(() => null);   // a frame from a file: wait for it (or its failure)
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const positions = data.axes.map((axis, k) => {
    const sel = '[data-axis="' + k + '"]';
    if (axis.kind === "fixed") { return axis.default; }
    if (axis.kind === "choice") { return +root.querySelector(sel + ":checked").value; }
    if (axis.kind === "check") { return root.querySelector(sel).checked ? 1 : 0; }
    return +root.querySelector(sel).value;
  });
  const readouts = data.axes.map((axis, k) => {
    const out = root.querySelector('[data-readout="' + k + '"]');
    return out ? out.textContent : null;
  });
  return {positions, readouts, src: img.getAttribute("src"),
          loaded: img.complete && img.naturalWidth > 0,
          phone: img.classList.contains("cfrlib-explorer-phone"),
          text: root.querySelector("pre.cfrlib-explorer-text").textContent};
}
"""

DATA = """(root) => JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent)"""

# The numbers each control shows (a slider's or a fixed control's readout, the chosen radio button
# or list entry) that the shown frame's titles and printed text do not say, compared as numbers
# ("0.60" is "0.6", "40,000" is "40000"); the number of a player ("player 0") is a name, not a
# value.
READOUTS = r"""
(root) => {
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const frame = data.frame_of[+root.dataset.frame];
  if (frame === null) { return []; }
  const said = ((data.titles || [])[frame] || "") + "\n" + data.texts[frame];
  const numbers = (text) => (text.replace(/player \d+/gi, "").replace(/\u2212/g, "-")
                             .replace(/(\d),(?=\d{3})/g, "$1")
                             .match(/[-+]?\d*\.?\d+(?:e[-+]?\d+)?/gi) || []).map(Number);
  const known = numbers(said);
  const problems = [];
  data.axes.forEach((axis, k) => {
    const control = '[data-axis="' + k + '"]';
    let shown = "";
    if (axis.kind === "choice") {
      shown = root.querySelector(control + ":checked").parentElement.textContent;
    } else if (axis.kind === "select") {
      const list = root.querySelector(control);
      shown = list.options[list.selectedIndex].textContent;
    } else if (axis.kind !== "check") {
      const out = root.querySelector('[data-readout="' + k + '"]');
      if (!out) { problems.push(axis.name + ": no readout shows its value"); return; }
      shown = out.textContent;
    }
    for (const x of numbers(shown)) {
      if (!known.includes(x)) {
        problems.push(axis.name + ": the control shows " + JSON.stringify(shown) + ", but " + x +
                      " is not in the figure's title or text: " + JSON.stringify(said.trim()));
      }
    }
  });
  return problems;
}
"""

# What is wrong with the stops of the sliders as the page lays them out: a datalist of every stop
# (the browser's ticks), labels that read their stop's value under the thumb's position there (8
# px inside the track's ends), the first and the last stop labelled and every stop when they are
# unevenly spaced; no label over another text of the controls or off the page.
STOPS = r"""
(root) => {
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const thumb = 8, page = document.documentElement.clientWidth, problems = [], labels = [];
  data.axes.forEach((axis, k) => {
    if (axis.kind !== "range") { return; }
    const name = axis.name, n = axis.labels.length;
    const input = root.querySelector('input[type=range][data-axis="' + k + '"]');
    const options = input.list ? [...input.list.options] : [];
    if (options.length !== n ||
        options.some((o, j) => +o.value !== j || o.label !== axis.labels[j])) {
      problems.push(name + ": no datalist of its " + n + " stops (no ticks)");
    }
    const track = input.getBoundingClientRect();
    const marks = [...root.querySelectorAll('[data-stops="' + k + '"] [data-stop]')];
    const stops = marks.map((m) => +m.dataset.stop);
    if (!stops.includes(0) || !stops.includes(n - 1)) {
      problems.push(name + ": its first and last stops are not labelled");
    }
    for (const m of marks) {
      const j = +m.dataset.stop, box = m.getBoundingClientRect(), text = m.textContent;
      const under = track.left + thumb + (track.width - 2 * thumb) * j / (n - 1);
      if (text !== axis.labels[j]) {
        problems.push(name + ": stop " + j + " reads " + text + ", not " + axis.labels[j]);
      }
      if (!box.width || getComputedStyle(m).visibility !== "visible") {
        problems.push(name + ": the label " + text + " is not shown");
      } else if (Math.abs((box.left + box.right) / 2 - under) > 2) {
        problems.push(name + ": the label " + text + " is not under its stop");
      }
      if (box.left < 0 || box.right > page) {
        problems.push(name + ": the label " + text + " leaves the page");
      }
      labels.push([name + " " + text, box]);
    }
    if (stops.length < n) {
      // Unlabelled stops are read from the labelled ones only when all are evenly spaced.
      const values = axis.labels.map(Number), step = (values[n - 1] - values[0]) / (n - 1);
      const unit = Math.max(...axis.labels.map((t) => 10 ** -((t.split(".")[1] || "").length)));
      const stride = stops[1] - stops[0];
      if (values.some((v, j) => !(Math.abs(v - values[0] - j * step) <= unit)) ||
          stops.some((j, i) => j !== i * stride)) {
        problems.push(name + ": " + (n - stops.length) +
                      " of its unevenly spaced stops have no label");
      }
    }
  });
  // Every other text of the controls: names, readouts, buttons, radio labels.
  const others = [];
  const walker = document.createTreeWalker(root.querySelector(".cfrlib-explorer-controls"),
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest("[data-stop], datalist")) {
      continue;
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    others.push([node.textContent.trim(), range.getBoundingClientRect()]);
  }
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
                            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  labels.forEach(([text, box], i) => {
    for (const [other, its] of [...labels.slice(i + 1), ...others]) {
      if (overlap(box, its)) { problems.push("the label " + text + " overlaps " + other); }
    }
  });
  return problems;
}
"""


def _expected(data: dict, positions: list[int], phone: bool) -> tuple[str, str]:
    """The frame the page must show at ``positions`` (row-major index, last axis fastest), its
    phone rendering if ``phone`` and the explorer has them: the URL of its file on the book's
    pages (tools/explorer_frames.py), the inline image in a notebook's output."""
    index = 0
    for size, p in zip(data["shape"], positions):
        assert 0 <= p < size
        index = index * size + p
    frame = data["frame_of"][index]
    image = (data["phone"] if phone and "phone" in data else data)["images"][frame]
    return (image if data.get("urls") else "data:image/png;base64," + image), data["texts"][frame]


# STATE and the READOUTS' problems in one evaluation: a walk over every control makes thousands.
SHOWN = (f"async (root) => ({{...(await ({STATE.strip()})(root)),\n"
         f"                  contradictions: ({READOUTS.strip()})(root)}})")


def _check_shown(root, data: dict, where: str, phone: bool = False) -> dict:
    """The explorer shows the frame of its controls' position (the phone's rendering on a phone)."""
    state = root.evaluate(SHOWN)
    src, text = _expected(data, state["positions"], phone)
    assert state["src"] == src, f"{where}: the figure is not the frame of {state['positions']}"
    assert state["loaded"], f"{where}: the frame of {state['positions']} did not load"
    assert state["text"] == text, f"{where}: the text is not the frame's"
    for k, axis in enumerate(data["axes"]):
        if axis["kind"] == "range":
            assert state["readouts"][k] == axis["labels"][state["positions"][k]], (
                f"{where}: readout of {axis['name']!r} does not name its value")
    assert not state["contradictions"], (
        f"{where}, at {state['positions']}: a control shows a value the figure does not say:\n  "
        + "\n  ".join(state["contradictions"]))
    return state


def _move(root, k: int, axis: dict, step: int) -> None:
    """Move control ``k`` one position by keyboard (forward, or back when ``step`` < 0)."""
    control = root.locator(f'[data-axis="{k}"]')
    arrow = "ArrowRight" if step > 0 else "ArrowLeft"
    if axis["kind"] == "range":
        control.press(arrow)   # focuses the control, then presses the key
    elif axis["kind"] == "choice":
        root.locator(f'[data-axis="{k}"]:checked').press(arrow)
    elif axis["kind"] == "check":
        control.press("Space")
    else:  # a drop-down list
        current = int(control.input_value())
        control.select_option(str(current + step))


# One load of each page at each width serves every check of that width (loading a chapter, its
# MathJax and its widgets is most of a check's time). Each scheme once and each width once: served
# over HTTP at a laptop's width, opened from the disk at a phone's.
@pytest.mark.parametrize("scheme, width", [("http", 1280), ("file", 390)])
@pytest.mark.parametrize("page_path", EXPLORER_PAGES or ["(no explorer in a built book)"])
def test_every_explorer_is_laid_out_and_moves_without_a_kernel(browser, server_url, page_path,
                                                               scheme, width):
    """The page as laid out passes the checks of :func:`_layout_problems`; then every control is
    walked, and at 390 px (a phone) the frames shown are the phone's, where the explorer has
    them."""
    if not EXPLORER_PAGES:
        pytest.skip("no built page holds an explorer")
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    url = (SITE / page_path).as_uri() if scheme == "file" else server_url + page_path
    phone = width < 577   # cfrbook.phone_figures.PHONE_MEDIA: (max-width: 576px)
    errors: list[str] = []
    context = browser.new_context(viewport={"width": width, "height": 844 if phone else 900})
    context.route("**/*", lambda r: r.continue_() if _is_local(r.request.url, server_url)
                  else r.abort())
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(url, wait_until="load")
        explorers = page.locator(".cfrlib-explorer")
        assert explorers.count() > 0
        problems = _layout_problems(page, phone)
        assert not problems, f"{page_path} at {width} px:\n  " + "\n  ".join(problems)
        for e in range(explorers.count()):
            root = explorers.nth(e)
            data = root.evaluate(DATA)
            where = f"{page_path}, explorer {e + 1}"
            before = _check_shown(root, data, where, phone)
            for k, axis in enumerate(data["axes"]):
                if axis["kind"] == "fixed":
                    continue
                size = data["shape"][k]
                changed = False
                # Walk the control to its end and back, checking every position on the way.
                start = before["positions"][k]
                for step in [1] * (size - 1 - start) + [-1] * (size - 1):
                    _move(root, k, axis, step)
                    after = _check_shown(root, data, f"{where}, {axis['name']!r}", phone)
                    assert after["positions"][k] == before["positions"][k] + step, (
                        f"{where}: the keyboard did not move {axis['name']!r}")
                    changed |= after["src"] != before["src"]
                    before = after
                    if axis["kind"] == "check":
                        break
                assert changed, f"{where}: moving {axis['name']!r} never changed the figure"
            for button in root.locator("[data-play]").all():
                k = int(button.get_attribute("data-play"))
                before = root.evaluate(STATE)
                button.click()
                # playing steps the slider every data["interval"] ms: stop it once it has moved
                try:
                    page.wait_for_function("([range, before]) => +range.value !== before",
                                           arg=[root.locator(f'input[type=range][data-axis="{k}"]')
                                                .element_handle(), before["positions"][k]],
                                           timeout=10 * data["interval"])
                except PlaywrightTimeout:
                    pytest.fail(f"{where}: the play button did not step the figure in "
                                f"{10 * data['interval']} ms", pytrace=False)
                button.click()
                after = _check_shown(root, data, f"{where}, play", phone)
                assert after["positions"][k] != before["positions"][k], (
                    f"{where}: the play button did not step the figure")
    finally:
        context.close()
    assert not errors, f"{url}: console errors:\n  " + "\n  ".join(errors)


# A slider's readout sits on its slider's row, within the explorer (issue 39: at 390 px chapters
# 5, 7 and 14 put it alone on the next row, under the stops' labels).
READOUT_ROW = """(root) => Array.from(root.querySelectorAll(".cfrlib-range")).flatMap((range) => {
  const slider = range.querySelector("input[type=range]").getBoundingClientRect();
  const out = range.querySelector("output").getBoundingClientRect();
  const box = root.getBoundingClientRect();
  const name = range.querySelector("label").firstChild.textContent.trim();
  return [...(out.top >= slider.bottom - 2 ? [`the readout of ${name} sits under its slider`] : []),
          ...(out.right > box.right + 1 ? [`the readout of ${name} leaves the explorer`] : [])];
})"""


ZOOM = """(root) => {
  const img = root.querySelector("img.cfrlib-explorer-figure");
  const width = () => Math.round(img.getBoundingClientRect().width);
  const fitted = width();
  img.click();
  const clicked = width();
  img.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
  const hint = root.nextElementSibling;
  return {natural: img.naturalWidth, fitted, clicked, again: width(),
          column: root.clientWidth, focusable: img.tabIndex === 0,
          scrolls: getComputedStyle(root).overflowX === "auto",
          hinted: !!hint && hint.classList.contains("cfr-zoom-hint") && !hint.hidden};
}"""

# How an explorer sits in its column: whether it has phone frames and shows them, the shown frame's
# width against the column's, and whether its box scrolls sideways with a line saying so.
FIT = """(root) => {
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const img = root.querySelector("img.cfrlib-explorer-figure");
  const hint = root.nextElementSibling;
  return {phone: !!data.phone, shown: img.classList.contains("cfrlib-explorer-phone"),
          width: img.getBoundingClientRect().width, column: root.clientWidth,
          scrolls: root.classList.contains("cfr-wide-figure"),
          hinted: !!hint && hint.classList.contains("cfr-zoom-hint") && !hint.hidden};
}"""


def _layout_problems(page, phone: bool) -> list[str]:
    """What is wrong with the page's explorers as laid out, before a control moves: every slider
    shows its stops (STOPS) and its readout on its row (READOUT_ROW). On a phone (390 px), also:
    an explorer with phone frames shows them, in its column, with no box scrolling sideways, and
    one without them (a tree's frames: no phone rendering passes the figure check) shows the
    column's frame in a box that scrolls, with a line saying so (FIT); and a frame is shown in
    the column, or, when its text would be under 8 px there, wider (tools/static/figure_zoom.js)
    in a box that scrolls, with a visible line saying so; a click shows it at its natural width
    (scrolling sideways), and Enter shows it as before (ZOOM, after every FIT)."""
    roots = page.locator(".cfrlib-explorer").all()
    problems = [f"explorer {e}: {problem}" for e, root in enumerate(roots, start=1)
                for problem in root.evaluate(STOPS) + root.evaluate(READOUT_ROW)]
    if not phone:
        return problems
    page.wait_for_timeout(300)   # figure_zoom.js fits each frame once it has loaded
    for e, fit in enumerate([root.evaluate(FIT) for root in roots], start=1):
        if fit["phone"]:
            fits = (fit["shown"] and fit["width"] <= fit["column"] and not fit["scrolls"]
                    and not fit["hinted"])
        else:
            fits = fit["scrolls"] and fit["hinted"]
        if not fits:
            problems.append(f"explorer {e}: not fitted to its column as it should be: {fit}")
    for e, size in enumerate([root.evaluate(ZOOM) for root in roots], start=1):
        if not (size["focusable"] and size["again"] == size["fitted"]
                and (size["fitted"] <= size["column"] + 1 or (size["scrolls"] and size["hinted"]))
                and size["clicked"] == size["natural"] >= size["fitted"]):
            problems.append(f"explorer {e}: its frame cannot be seen at its natural size: {size}")
    return problems


def _static_page(browser, explorer: Explorer, mode: str = "all"):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_content(f"<body>{explorer.static_html(mode)}</body>")
    return page, page.locator(".cfrlib-explorer")


def _slide(root, k: int, position: int) -> None:
    root.locator(f'[data-axis="{k}"]').evaluate(
        "(el, p) => { el.value = p; el.dispatchEvent(new Event('input')); }", position)


def test_readout_check_finds_a_control_that_contradicts_its_figure(browser):
    # Chapter 1's defect: paper clamped to what rock leaves, while its slider shows the asked value.
    def draw(rock, paper):
        paper = min(paper, 1 - rock)
        fig, ax = plotting.new_figure(width=3, height=2)
        ax.set_title(f"rock {rock:.2f}, paper {paper:.2f}, scissors {1 - rock - paper:.2f}")

    explorer = Explorer(draw, {"rock": widgets.FloatSlider(value=0.6, min=0, max=1, step=0.1),
                               "paper": widgets.FloatSlider(value=0.4, min=0, max=1, step=0.1)},
                        static={"rock": [0.4, 0.6], "paper": [0.4, 0.5]}, phone=False)
    page, root = _static_page(browser, explorer)
    try:
        truthful = root.evaluate(READOUTS)
        _slide(root, 1, 1)
        clamped = root.evaluate(READOUTS)
    finally:
        page.close()
    assert truthful == []
    assert clamped == ['paper: the control shows "0.50", but 0.5 is not in the figure\'s title or '
                       'text: "rock 0.60, paper 0.40, scissors 0.00"']


def test_stops_check_finds_sliders_whose_stops_cannot_be_read(browser):
    def draw(alpha, beta):
        plotting.new_figure(width=3, height=2)[1].set_title(f"{alpha} {beta}")

    explorer = Explorer(draw, {"alpha": widgets.FloatSlider(value=1.5, min=0, max=5, step=0.25),
                               "beta": widgets.FloatSlider(value=0, min=0, max=10, step=0.25)},
                        static={"alpha": [0.0, 1.0, 1.5, 3.0, 5.0]})
    page, root = _static_page(browser, explorer, "opening")   # the stops need no frame but one
    try:
        sound = root.evaluate(STOPS)
        # Chapter 9's defect, uneven stops without their labels, then a missing datalist and a
        # label moved off its stop and over its neighbour.
        root.evaluate("""(root) => {
            root.querySelectorAll('[data-stops="0"] [data-stop="1"], [data-stops="0"] '
                                  + '[data-stop="2"]').forEach((m) => m.remove());
            root.querySelector('[data-axis="1"]').removeAttribute("list");
            const [first, second] = root.querySelectorAll('[data-stops="1"] [data-stop]');
            first.style.left = second.style.left;
        }""")
        broken = root.evaluate(STOPS)
    finally:
        page.close()
    assert sound == []
    assert broken[:3] == ["alpha: 2 of its unevenly spaced stops have no label",
                          "beta: no datalist of its 41 stops (no ticks)",
                          "beta: the label 0.00 is not under its stop"]
    assert broken[3:] == ["the label beta 0.00 overlaps beta 2.00"]


def _two_panel_explorer() -> Explorer:
    """Two panels side by side, a column wide: on a phone their text would be 5 px."""
    def draw(t):
        fig, axes = plotting.new_figure(1, 2, height=3)
        for ax, name in zip(axes, ("regrets", "strategy")):
            ax.plot(range(t + 1), [k * k for k in range(t + 1)])
            ax.set(title=f"{name} after {t} iterations", xlabel="iteration")

    return Explorer(draw, {"t": widgets.IntSlider(value=2, min=1, max=3)})


PHONE_FRAME = """(root) => {
  const img = root.querySelector("img.cfrlib-explorer-figure");
  const data = JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent);
  const f = data.frame_of[+root.dataset.frame];
  return {src: img.src, phone: "data:image/png;base64," + data.phone.images[f],
          column: "data:image/png;base64," + data.images[f],
          text: +img.dataset.textPx * img.getBoundingClientRect().width / img.naturalWidth,
          width: img.getBoundingClientRect().width, box: root.clientWidth,
          scrolls: getComputedStyle(root).overflowX === "auto"};
}"""


def test_a_phone_is_shown_the_phone_frames_and_a_laptop_the_column_frames(browser):
    """Issue 39: an explorer's frames have a phone rendering (panels stacked, text sized for a
    320 px column), shown while the screen matches the phone media query, at every position of
    the controls, in the column and with text of 8 px or more; a wider screen gets the column's
    frames again, without a reload."""
    explorer = _two_panel_explorer()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.set_content(f"<body style='margin:0 35px'>{explorer.static_html('all')}</body>")
        root = page.locator(".cfrlib-explorer")
        for position in (1, 0, 2):
            _slide(root, 0, position)
            shown = root.evaluate(PHONE_FRAME)
            assert shown["src"] == shown["phone"] != shown["column"], f"position {position}"
            assert shown["width"] <= shown["box"] and not shown["scrolls"], shown
            assert shown["text"] >= 8, f"the phone frame's text is {shown['text']:.1f} px"
        page.set_viewport_size({"width": 1280, "height": 900})
        # the media query's listener swaps the frame after the resize: wait for the swap (a
        # frame that never swaps times out here and fails the test)
        swapped = (f"(() => {{ const s = ({PHONE_FRAME})(document.querySelector('.cfrlib-explorer'));"
                   " return s.src === s.column; })()")
        page.wait_for_function(swapped, timeout=10_000)
        shown = root.evaluate(PHONE_FRAME)
        assert shown["src"] == shown["column"], "1280 px: not the column's frame"
    finally:
        page.close()


@pytest.mark.parametrize("page_path", [p for p in EXPLORER_PAGES if 'type="radio"' in
                                       (SITE / p).read_text()] or ["(no radio button in a built book)"])
def test_in_dark_mode_an_unchecked_radio_button_looks_unchecked(browser, page_path):
    """Issue 39: the theme lays HTML outputs on a light card in dark mode; an explorer's radio
    buttons, drawn for a dark page, then looked checked when they were not. The card takes the
    page's colours: an unchecked button is drawn close to the ground it sits on, a checked one far
    from it (Chromium fills an unchecked one about 41 levels of 255 off a dark page, a checked one
    137 or more off either)."""
    from test_play_widget_page import _centre, _distance, _pixel

    if not EXPLORER_PAGES:
        pytest.skip("no built page holds an explorer")
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto((SITE / page_path).as_uri(), wait_until="load")
        for root in page.locator(".cfrlib-explorer:has(input[type=radio])").all():
            checked = root.locator("input[type=radio]:checked").first
            unchecked = root.locator("input[type=radio]:not(:checked)").first
            unchecked.evaluate("(radio) => radio.scrollIntoView({block: 'center'})")
            box = unchecked.bounding_box()   # in the viewport; the ground: just left of it
            ground = _pixel(page, box["x"] - 2, box["y"] + box["height"] / 2)
            where = f"{page_path}: on {ground}"
            assert _distance(_centre(unchecked), ground) <= 64, f"{where}: unchecked {_centre(unchecked)}"
            assert _distance(_centre(checked), ground) > 64, f"{where}: checked {_centre(checked)}"
    finally:
        context.close()
