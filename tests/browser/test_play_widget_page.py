"""Hands against the solved bot (``cfrbook.play_widget``) are played in the built book, with no kernel.

For every play widget of every built page, in headless Chromium:
- hands are played to the end in both seats, with the mouse and with the keyboard only; at each
  of the reader's moves the buttons carry the poker words the rules give (fold, check, call, bet,
  raise) and the pot line the stakes of the history reached; the end of a hand tells it in words,
  reveals the deal and, at each of the bot's decisions, the probabilities the page's tables give
  it, and its pot line shows the loser paying their stake; the tally counts the hand and its
  result in its seat's row and in the row of both seats; the best-response hint shows when asked
  for; the console stays free of errors;
- at 390 and 1280 px every control is at least 44 px tall, the key hints show with a mouse and
  not on a touch screen, the widget fits a phone and its text reads in both colour schemes, and
  an unchecked radio button or checkbox is drawn as the background it sits on while a checked one
  is not (in dark mode the theme's light card under HTML outputs made dark controls look checked);
- 20,000 hands in each seat go through the page's own script (``root.cfrlibPlay``) with a fixed
  pure strategy for the reader: their mean must lie within 3 standard errors of the exact expected
  value of that strategy against the bot's (``cfrlib.expected_value``), and the page's tally must
  equal the tally of the hands' results computed here.
"""

from __future__ import annotations

import io
import math
import re

import numpy as np
import pytest
from test_rendered_book import PAGES, SITE, _is_local, browser, server_url  # noqa: F401

import cfrlib
from cfrbook.play_widget import kuhn_stakes, leduc_stakes
from cfrlib import games

STAKES = {"kuhn": kuhn_stakes, "leduc": leduc_stakes}

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


def _words_by_the_rules(game_name: str, key: str, actions: list[str]) -> list[str]:
    """What a poker player calls each action, from the infoset key and the rules in cfrlib.games:
    the player faces a bet when the round's betting so far holds one (Kuhn: ``"b"`` after the
    card) or ends with a raise (Leduc: the last ``|``-field ends with ``"r"``)."""
    if game_name == "kuhn":
        facing = "b" in key[1:]
        names = {"pass": "fold" if facing else "check", "bet": "call" if facing else "bet"}
    else:
        facing = key.split("|")[-1].endswith("r")
        names = {"fold": "fold", "call": "call" if facing else "check",
                 "raise": "raise" if facing else "bet"}
    return [names[a] for a in actions]


def _replay(game, moves: list[dict]):
    """The history the page's moves reach in cfrlib's game."""
    h = game.initial_state()
    for m in moves:
        h = h.child(m["card"] if "card" in m else m["action"])
    return h


def _pot_line(stakes, seat: int, owed_shown: bool) -> str:
    def num(x):
        return f"{x:g}"
    mine, theirs = stakes[seat], stakes[1 - seat]
    line = f"Pot {num(mine + theirs)}: you {num(mine)}, the bot {num(theirs)}."
    return line + (f" To call: {num(theirs - mine)}." if owed_shown and theirs > mine else "")


def _check_decision(root, data: dict, game, where: str) -> None:
    """At the reader's move: the buttons' words are the rules' words, each at least 44 px tall,
    and the pot line shows the stakes of the history the moves reach."""
    state = root.evaluate(STATE)
    shown = [b.evaluate("(b) => b.firstChild.textContent.trim()")
             for b in root.locator(".cfrlib-play-actions button").all()]
    assert shown == _words_by_the_rules(data["game"], state["infoset"], state["actions"]), where
    assert shown == state["words"], where
    for b in root.locator(".cfrlib-play-actions button").all():
        assert b.bounding_box()["height"] >= 44, f"{where}: a button under 44 px"
    stakes = STAKES[data["game"]](_replay(game, state["moves"]))
    assert root.locator(".cfrlib-play-pot").inner_text() == \
        _pot_line(stakes, state["seat"], True), where


def _check_revealed(root, data: dict, game, seat: int, where: str) -> float:
    """The hand is over: the status says so; the story names the reader's card first, the
    board, the bot's card, the moves in order by their rules' words, the bot's probabilities at
    each of its moves, and the result; the pot line shows the loser paying their stake."""
    state = root.evaluate(STATE)
    result = state["result"]
    assert not state["toAct"] and result is not None, where
    assert root.locator(".cfrlib-play-status").inner_text().startswith("Hand over"), where
    story = root.locator(".cfrlib-play-log").inner_text()
    assert story == state["story"], where
    cards = [m["card"] for m in state["moves"] if "card" in m]
    decisions = [m for m in state["moves"] if "card" not in m]
    assert decisions and any(m["player"] != seat for m in decisions), f"{where}: {story}"
    # the cards, by whom they are dealt to (player 0, player 1, the board)
    names = ["You" if d == seat else "Bot" if d == 1 - seat else "Board" for d in data["deal"]]
    found = re.findall(r"\b(You|Bot|Board): (\S+)\.", story)
    assert sorted(found) == sorted(zip(names, cards)), f"{where}: {story}"
    # the moves, in order, in words; the bot's probabilities after its moves
    ending = ("You win " if result > 0 else "You lose " if result < 0 else "You break even")
    ending += f"{abs(result):g}." if result else "."
    assert story.endswith(" " + ending), f"{where}: {story}"
    said = re.findall(r"\b([Yy]ou|[Tt]he bot) (\w+)(?: \(([^)]*)\))?", story[:-len(ending)])
    assert len(said) == len(decisions), f"{where}: {story}"
    for (who, verb, detail), m in zip(said, decisions):
        who = who.lower()
        I = data["infoset_key"].index(m["infoset"])
        while data["infoset_player"][I] != m["player"]:  # a key both players use
            I = data["infoset_key"].index(m["infoset"], I + 1)
        actions = data["infoset_actions"][I]
        words = _words_by_the_rules(data["game"], m["infoset"], actions)
        word = words[actions.index(m["action"])]
        if m["player"] == seat:
            assert (who, verb) == ("you", word), f"{where}: {story}"
        else:
            assert who == "the bot" and verb in (word + "s", word + "es"), f"{where}: {story}"
            assert detail == ", ".join(f"{w} {p:.3f}" for w, p in zip(words, data["strategy"][I]))
    # the winner takes what the loser put in
    stakes = STAKES[data["game"]](_replay(game, state["moves"]))
    assert root.locator(".cfrlib-play-pot").inner_text() == _pot_line(stakes, seat, False), where
    assert result in (stakes[1 - seat], -stakes[seat], 0), where
    return result


def _play_with_mouse(page, root, data: dict, game, seat: int, where: str) -> float:
    root.locator('input[type="radio"]').nth(seat).click()
    root.locator(".cfrlib-play-deal").click()
    for step in range(100):
        if not root.evaluate(STATE)["toAct"]:
            break
        _check_decision(root, data, game, where)
        buttons = root.locator(".cfrlib-play-actions button")
        buttons.nth(step % buttons.count()).click()
    return _check_revealed(root, data, game, seat, where)


def _play_with_keyboard(page, root, data: dict, game, seat: int, where: str) -> float:
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
    result = _check_revealed(root, data, game, seat, where)
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
            game = getattr(games, data["game"])()
            root.evaluate("(root) => root.cfrlibPlay.reset(11)")
            results = {0: [], 1: []}
            for seat in (0, 1, 0):
                where = f"{page_path} ({scheme}), widget {w + 1}, seat {seat}, mouse"
                results[seat].append(_play_with_mouse(page, root, data, game, seat, where))
            for seat in (1, 0):
                where = f"{page_path} ({scheme}), widget {w + 1}, seat {seat}, keyboard"
                results[seat].append(_play_with_keyboard(page, root, data, game, seat, where))
                results[seat].append(root.evaluate(STATE)["result"])
            results[2] = results[0] + results[1]  # the row of both seats
            weights = [len(results[0]) / len(results[2]), len(results[1]) / len(results[2])]
            for seat in (0, 1, 2):
                row = root.locator(".cfrlib-play-tally tbody tr").nth(seat).locator("td")
                assert row.nth(0).inner_text().startswith(("0", "1", "both")[seat]), page_path
                assert int(row.nth(1).inner_text()) == len(results[seat]), f"{page_path}: hands"
                total = sum(results[seat])
                shown = row.nth(2).inner_text().replace("\u2212", "-")
                assert float(shown) == total, f"{page_path}: seat {seat}'s total"
                value = (data["value"][seat] if seat < 2 else
                         weights[0] * data["value"][0] + weights[1] * data["value"][1])
                assert row.nth(4).inner_text().replace("\u2212", "-") in \
                    (f"{value:+.4f}", f"{value:.4f}"), f"{page_path}: seat {seat}'s value"
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


def _centre(locator) -> tuple[int, ...]:
    """The mean colour drawn in the middle half (each way) of an element, from a screenshot."""
    from PIL import Image, ImageStat
    image = Image.open(io.BytesIO(locator.screenshot(animations="disabled"))).convert("RGB")
    w, h = image.size
    middle = image.crop((w // 4, h // 4, w - w // 4, h - h // 4))
    return tuple(round(v) for v in ImageStat.Stat(middle).mean)


def _pixel(page, x: float, y: float) -> tuple[int, int, int]:
    from PIL import Image
    shot = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    return Image.open(io.BytesIO(shot)).convert("RGB").getpixel((0, 0))


def _distance(a, b) -> int:
    return max(abs(x - y) for x, y in zip(a, b))


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("scheme_", ["light", "dark"])
@pytest.mark.parametrize("page_path", PLAY_PAGES or ["(no play widget in a built book)"])
def test_the_widget_fits_reads_and_is_drawn_as_it_is_at_390_and_1280_px(
        browser, server_url, page_path, scheme_, width):
    _skip_without_pages()
    errors: list[str] = []
    context, page = _open(browser, (SITE / page_path).as_uri(), server_url, errors,
                          viewport={"width": width, "height": 844}, color_scheme=scheme_)
    try:
        for w in range(page.locator(".cfrlib-play").count()):
            root = page.locator(".cfrlib-play").nth(w)
            where = f"{page_path}, widget {w + 1}, {scheme_}, {width} px"
            root.evaluate("(root) => root.cfrlibPlay.reset(5)")
            root.scroll_into_view_if_needed()
            # unchecked controls are drawn close to the background they sit on (a point inside
            # the board's top left corner), checked ones far from it: Chromium fills an unchecked
            # control 41 levels (of 255) off a dark page, a checked one 137 or more off either
            radios = root.locator('input[type="radio"]')
            hints = root.locator(".cfrlib-play-hints")
            box = root.locator(".cfrlib-play-board").bounding_box()
            ground = _pixel(page, box["x"] + 3, box["y"] + 3)
            for control in (radios.nth(1), hints):
                assert _distance(_centre(control), ground) <= 64, (
                    f"{where}: an unchecked control is drawn {_centre(control)} on {ground}")
            assert _distance(_centre(radios.nth(0)), ground) > 64, f"{where}: checked radio"
            hints.check()
            assert _distance(_centre(hints), ground) > 64, f"{where}: checked box"
            root.locator(".cfrlib-play-deal").click()  # a hand in progress: the most text shown
            measured = root.evaluate(CONTRAST)
            assert measured["scroll"] <= measured["width"] + 1, f"{where}: wider than the screen"
            assert measured["worst"][0] >= 4.5, f"{where}: contrast {measured['worst']}"
            # every target at least 44 px tall; key hints shown with a mouse and a keyboard
            for target in root.locator("button, label").all():
                height = target.bounding_box()["height"]
                assert height >= 44, f"{where}: {target.inner_text()!r} is {height:.0f} px tall"
            assert root.locator("kbd").first.is_visible(), f"{where}: no key hints"
        assert not errors, f"{page_path}: console errors {errors}"
    finally:
        context.close()


@pytest.mark.parametrize("page_path", PLAY_PAGES or ["(no play widget in a built book)"])
def test_a_touch_screen_shows_no_key_hints(browser, server_url, page_path):
    _skip_without_pages()
    errors: list[str] = []
    context, page = _open(browser, (SITE / page_path).as_uri(), server_url, errors,
                          viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        assert page.evaluate("matchMedia('(hover: none)').matches || "
                             "matchMedia('(pointer: coarse)').matches"), "not a touch screen"
        for w in range(page.locator(".cfrlib-play").count()):
            root = page.locator(".cfrlib-play").nth(w)
            root.evaluate("(root) => root.cfrlibPlay.reset(5)")
            root.locator(".cfrlib-play-deal").tap()
            assert root.locator("kbd").count() > 1
            assert not any(k.is_visible() for k in root.locator("kbd").all()), page_path
            while root.evaluate(STATE)["toAct"]:
                root.locator(".cfrlib-play-actions button").first.tap()
            assert root.evaluate(STATE)["tally"][2]["n"] == 1, page_path
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
