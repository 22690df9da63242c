"""The explorers of the built book (``cfrlib.interactive``) move without a kernel.

For every page that holds an explorer, in headless Chromium, from ``file://`` and from a local web
server: every control is operated from the keyboard (arrow keys on a focused slider or radio
group, Space on a check box; a drop-down list is chosen from), and after each move the figure must
have changed and must be exactly the frame stored for the controls' new position, computed here
from the controls the page shows; the readout of a slider must name the value. A play button must
step the figure by itself. The console must stay free of errors.
"""

from __future__ import annotations

import pytest
from test_rendered_book import PAGES, SITE, _is_local, browser, server_url  # noqa: F401

EXPLORER_PAGES = [p for p in PAGES if "cfrlib-explorer-data" in (SITE / p).read_text()]

STATE = """
(root) => {
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
  return {positions, readouts, src: root.querySelector("img.cfrlib-explorer-figure").src,
          text: root.querySelector("pre.cfrlib-explorer-text").textContent};
}
"""

DATA = """(root) => JSON.parse(root.querySelector("script.cfrlib-explorer-data").textContent)"""


def _expected(data: dict, positions: list[int]) -> tuple[str, str]:
    """The frame the page must show at ``positions``: row-major index, last axis fastest."""
    index = 0
    for size, p in zip(data["shape"], positions):
        assert 0 <= p < size
        index = index * size + p
    frame = data["frame_of"][index]
    return "data:image/png;base64," + data["images"][frame], data["texts"][frame]


def _check_shown(root, data: dict, where: str) -> dict:
    state = root.evaluate(STATE)
    src, text = _expected(data, state["positions"])
    assert state["src"] == src, f"{where}: the figure is not the frame of {state['positions']}"
    assert state["text"] == text, f"{where}: the text is not the frame's"
    for k, axis in enumerate(data["axes"]):
        if axis["kind"] == "range":
            assert state["readouts"][k] == axis["labels"][state["positions"][k]], (
                f"{where}: readout of {axis['name']!r} does not name its value")
    return state


def _move(page, root, k: int, axis: dict, step: int) -> None:
    """Move control ``k`` one position by keyboard (forward, or back when ``step`` < 0)."""
    control = root.locator(f'[data-axis="{k}"]')
    if axis["kind"] == "range":
        control.focus()
        page.keyboard.press("ArrowRight" if step > 0 else "ArrowLeft")
    elif axis["kind"] == "choice":
        root.locator(f'[data-axis="{k}"]:checked').focus()
        page.keyboard.press("ArrowRight" if step > 0 else "ArrowLeft")
    elif axis["kind"] == "check":
        control.focus()
        page.keyboard.press("Space")
    else:  # a drop-down list
        current = int(control.input_value())
        control.select_option(str(current + step))


@pytest.mark.parametrize("scheme", ["file", "http"])
@pytest.mark.parametrize("page_path", EXPLORER_PAGES or ["(no explorer in a built book)"])
def test_every_control_moves_its_figure_without_a_kernel(browser, server_url, page_path, scheme):
    if not EXPLORER_PAGES:
        pytest.skip("no built page holds an explorer")
    url = (SITE / page_path).as_uri() if scheme == "file" else server_url + page_path
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", lambda r: r.continue_() if _is_local(r.request.url, server_url)
                  else r.abort())
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(url, wait_until="load")
        explorers = page.locator(".cfrlib-explorer")
        assert explorers.count() > 0
        for e in range(explorers.count()):
            root = explorers.nth(e)
            data = root.evaluate(DATA)
            where = f"{page_path}, explorer {e + 1}"
            _check_shown(root, data, where)
            for k, axis in enumerate(data["axes"]):
                if axis["kind"] == "fixed":
                    continue
                size = data["shape"][k]
                changed = False
                # Walk the control to its end and back, checking every position on the way.
                start = root.evaluate(STATE)["positions"][k]
                for step in [1] * (size - 1 - start) + [-1] * (size - 1):
                    before = root.evaluate(STATE)
                    _move(page, root, k, axis, step)
                    after = _check_shown(root, data, f"{where}, {axis['name']!r}")
                    assert after["positions"][k] == before["positions"][k] + step, (
                        f"{where}: the keyboard did not move {axis['name']!r}")
                    changed |= after["src"] != before["src"]
                    if axis["kind"] == "check":
                        break
                assert changed, f"{where}: moving {axis['name']!r} never changed the figure"
            for button in root.locator("[data-play]").all():
                k = int(button.get_attribute("data-play"))
                before = root.evaluate(STATE)
                button.click()
                page.wait_for_timeout(int(data["interval"] * 2.5))
                button.click()
                after = _check_shown(root, data, f"{where}, play")
                assert after["positions"][k] != before["positions"][k], (
                    f"{where}: the play button did not step the figure")
    finally:
        context.close()
    assert not errors, f"{url}: console errors:\n  " + "\n  ".join(errors)
