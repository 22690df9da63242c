"""Hands against the solved bot (``cfrbook.play_widget``) are played in the built book, with no kernel.

For every play widget of every built page, in headless Chromium:
- hands are played to the end in both seats, with the mouse and with the keyboard only; the
  end of a hand reveals the deal (the chance events in order) and, at each of the bot's decisions, the
  probabilities the page's tables give it; the tally counts the hand and its result; the
  best-response hint shows when asked for; the widget fits a 390 px screen and its text reads in
  dark mode; the console stays free of errors;
- 20,000 hands in each seat go through the page's own script (``root.cfrlibPlay``) with a fixed
  pure strategy for the reader: their mean must lie within 3 standard errors of the exact expected
  value of that strategy against the bot's (``cfrlib.expected_value``), and the page's tally must
  equal the tally of the hands' results computed here.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from test_rendered_book import PAGES, SITE, _is_local, browser, server_url  # noqa: F401

import cfrlib
from cfrlib import games

PLAY_PAGES = [p for p in PAGES if "cfrlib-play-data" in (SITE / p).read_text()]
DATA = """(root) => JSON.parse(root.querySelector("script.cfrlib-play-data").textContent)"""
STATE = "(root) => root.cfrlibPlay.state()"
HANDS = 20_000


def _skip_without_pages():
    if not PLAY_PAGES:
        pytest.skip("no built page holds a play widget")


def _open(browser, url: str, server: str, errors: list[str], **options):
    context = browser.new_context(**options)
    context.route("**/*", lambda r: r.continue_() if _is_local(r.request.url, server)
                  else r.abort())
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url, wait_until="load")
    return context, page


def _check_revealed(root, data: dict, seat: int, where: str) -> float:
    """The hand is over: the status says so, the log names every chance event and shows, at
    each of the bot's decisions, its probabilities from the tables. Returns the result."""
    state = root.evaluate(STATE)
    assert not state["toAct"] and state["result"] is not None, where
    assert root.locator(".cfrlib-play-status").inner_text().startswith("Hand over"), where
    log = [li.inner_text() for li in root.locator(".cfrlib-play-log li").all()]
    bot = [line for line in log if line.startswith(f"bot (player {1 - seat})")]
    assert bot, f"{where}: the bot made no decision in {log}"
    for line in bot:
        key, shown = re.search(r"\(at (\S+) the bot plays (.*)\)$", line).groups()
        I = data["infoset_key"].index(key)
        while data["infoset_player"][I] != 1 - seat:  # a key both players use
            I = data["infoset_key"].index(key, I + 1)
        expected = ", ".join(f"{a} {p:.3f}" for a, p in zip(data["infoset_actions"][I],
                                                              data["strategy"][I]))
        assert shown == expected, f"{where}: {line!r}"
    chance = [line for line in log if not line.startswith(("you (", "bot ("))]
    assert chance and len(chance) <= len(data["chance_names"]), f"{where}: the deal in {log}"
    for name, line in zip(data["chance_names"], chance):  # in order; a fold ends the deal early
        assert line.startswith(name + ": ") and line[len(name) + 2:] in data["labels"], where
    return state["result"]


def _play_with_mouse(page, root, data: dict, seat: int, where: str) -> float:
    root.locator('input[type="radio"]').nth(seat).click()
    root.locator(".cfrlib-play-deal").click()
    for step in range(100):
        if not root.evaluate(STATE)["toAct"]:
            break
        buttons = root.locator(".cfrlib-play-actions button")
        buttons.nth(step % buttons.count()).click()
    return _check_revealed(root, data, seat, where)


def _play_with_keyboard(page, root, data: dict, seat: int, where: str) -> float:
    radio = root.locator('input[type="radio"]:checked')
    radio.focus()
    if root.evaluate(STATE)["seat"] != seat:
        page.keyboard.press("ArrowRight" if seat == 1 else "ArrowLeft")
    assert root.evaluate(STATE)["seat"] == seat, f"{where}: the arrow keys did not pick seat {seat}"
    hints = root.locator(".cfrlib-play-hints")
    if not hints.is_checked():
        hints.focus()
        page.keyboard.press("Space")
        assert hints.is_checked(), f"{where}: Space did not tick the hints"
    root.locator(".cfrlib-play-deal").focus()
    page.keyboard.press("Enter")
    for step in range(100):
        state = root.evaluate(STATE)
        if not state["toAct"]:
            break
        hint = root.locator(".cfrlib-play-hint")
        assert hint.is_visible() and (hint.inner_text().startswith("A best response to the bot")
                                      or "never lets" in hint.inner_text()), where
        if step % 2:  # the focused action button, or the action's number key
            page.keyboard.press("Enter")
        else:
            page.keyboard.press(str(len(state["actions"])))
    result = _check_revealed(root, data, seat, where)
    page.keyboard.press("Space")  # focus went back to Deal: the next hand starts from the keyboard
    assert root.evaluate(STATE)["toAct"] or root.evaluate(STATE)["result"] is not None, where
    while root.evaluate(STATE)["toAct"]:
        page.keyboard.press("1")
    return result


@pytest.mark.parametrize("scheme", ["file", "http"])
@pytest.mark.parametrize("page_path", PLAY_PAGES or ["(no play widget in a built book)"])
def test_hands_are_played_to_the_end_in_both_seats_by_mouse_and_keyboard(
        browser, server_url, page_path, scheme):
    _skip_without_pages()
    url = (SITE / page_path).as_uri() if scheme == "file" else server_url + page_path
    errors: list[str] = []
    context, page = _open(browser, url, server_url, errors, viewport={"width": 1280, "height": 900})
    try:
        widgets = page.locator(".cfrlib-play")
        assert widgets.count() > 0
        for w in range(widgets.count()):
            root = widgets.nth(w)
            data = root.evaluate(DATA)
            root.evaluate("(root) => root.cfrlibPlay.reset(11)")
            results = {0: [], 1: []}
            for seat in (0, 1, 0):
                where = f"{page_path} ({scheme}), widget {w + 1}, seat {seat}, mouse"
                results[seat].append(_play_with_mouse(page, root, data, seat, where))
            for seat in (1, 0):
                where = f"{page_path} ({scheme}), widget {w + 1}, seat {seat}, keyboard"
                results[seat].append(_play_with_keyboard(page, root, data, seat, where))
                results[seat].append(root.evaluate(STATE)["result"])
            for seat in (0, 1):
                row = root.locator(".cfrlib-play-tally tbody tr").nth(seat).locator("td")
                assert int(row.nth(1).inner_text()) == len(results[seat]), f"{page_path}: hands"
                total = sum(results[seat])
                shown = row.nth(2).inner_text().replace("\u2212", "-")
                assert float(shown) == total, f"{page_path}: seat {seat}'s total"
                assert row.nth(4).inner_text().replace("\u2212", "-") == \
                    f"{data['value'][seat]:+.4f}", f"{page_path}: seat {seat}'s value"
        assert not errors, f"{page_path}: console errors {errors}"
    finally:
        context.close()


CONTRAST = """(root) => {
  function rgb(text) { return text.match(/[\\d.]+/g).map(Number); }
  function background(el) {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) { return c; }
    }
    return [255, 255, 255];
  }
  function luminance(c) {
    const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const worst = [];
  root.querySelectorAll("button, label, td, th, p, li, caption").forEach(el => {
    if (!el.offsetParent || el.disabled) { return; }
    const a = luminance(rgb(getComputedStyle(el).color)), b = luminance(background(el));
    worst.push([(Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), el.textContent.slice(0, 40)]);
  });
  worst.sort((x, y) => x[0] - y[0]);
  return {worst: worst[0], scroll: root.scrollWidth, width: root.clientWidth};
}"""


@pytest.mark.parametrize("scheme_", ["light", "dark"])
@pytest.mark.parametrize("page_path", PLAY_PAGES or ["(no play widget in a built book)"])
def test_the_widget_fits_a_phone_and_reads_in_both_colour_schemes(
        browser, server_url, page_path, scheme_):
    _skip_without_pages()
    errors: list[str] = []
    context, page = _open(browser, (SITE / page_path).as_uri(), server_url, errors,
                          viewport={"width": 390, "height": 844}, color_scheme=scheme_)
    try:
        for w in range(page.locator(".cfrlib-play").count()):
            root = page.locator(".cfrlib-play").nth(w)
            root.evaluate("(root) => root.cfrlibPlay.reset(5)")
            root.locator(".cfrlib-play-hints").check()
            root.locator(".cfrlib-play-deal").click()  # a hand in progress: the most text shown
            measured = root.evaluate(CONTRAST)
            where = f"{page_path}, widget {w + 1}, {scheme_}"
            assert measured["scroll"] <= measured["width"] + 1, f"{where}: wider than the screen"
            assert measured["worst"][0] >= 4.5, f"{where}: contrast {measured['worst']}"
        assert not errors, f"{page_path}: console errors {errors}"
    finally:
        context.close()


PLAY = """(root, args) => {
  const api = root.cfrlibPlay, results = [];
  api.reset(args.seed);
  api.setSeat(args.seat);
  for (let h = 0; h < args.hands; h++) {
    api.deal();
    for (let s = api.state(); s.toAct; s = api.state()) { api.act(args.choice[s.infoset]); }
    results.push(api.state().result);
  }
  return {results, tally: api.state().tally[args.seat]};
}"""


@pytest.mark.parametrize("page_path", PLAY_PAGES or ["(no play widget in a built book)"])
def test_the_pages_script_plays_20000_hands_at_the_exact_expected_value(browser, server_url,
                                                                        page_path):
    _skip_without_pages()
    errors: list[str] = []
    context, page = _open(browser, (SITE / page_path).as_uri(), server_url, errors)
    try:
        for w in range(page.locator(".cfrlib-play").count()):
            root = page.locator(".cfrlib-play").nth(w)
            data = root.evaluate(DATA)
            game = getattr(games, data["game"])()
            tree = game.tree()
            assert data["infoset_key"] == tree.infoset_keys
            bot = np.zeros(tree.action_mask.shape)
            for I, row in enumerate(data["strategy"]):
                bot[I, :len(row)] = row
            rng = np.random.default_rng(2024)
            for seat in (0, 1):
                mine = np.flatnonzero(tree.infoset_player == seat)
                pick = {int(I): int(rng.integers(tree.infoset_num_actions[I])) for I in mine}
                profile = bot.copy()
                for I, a in pick.items():
                    profile[I] = np.eye(tree.max_actions)[a]
                value = cfrlib.expected_value(game, cfrlib.Strategy(game, profile))
                exact = value if seat == 0 else tree.constant_sum - value
                out = root.evaluate(PLAY, {"seed": 7 + seat, "seat": seat, "hands": HANDS,
                                           "choice": {tree.infoset_keys[I]: a
                                                      for I, a in pick.items()}})
                results = np.array(out["results"], dtype=float)
                mean = results.mean()
                stderr = results.std(ddof=1) / math.sqrt(HANDS)
                tally = out["tally"]
                assert tally["n"] == HANDS and tally["total"] == pytest.approx(results.sum())
                assert tally["mean"] == pytest.approx(mean, abs=1e-12)
                assert tally["stderr"] == pytest.approx(stderr, rel=1e-9)
                assert abs(mean - exact) <= 3 * stderr, (
                    f"{page_path}, {data['game']}, seat {seat}: mean {mean:+.5f} is "
                    f"{abs(mean - exact) / stderr:.1f} standard errors ({stderr:.5f}) from the "
                    f"exact {exact:+.5f}")
        assert not errors, f"{page_path}: console errors {errors}"
    finally:
        context.close()
