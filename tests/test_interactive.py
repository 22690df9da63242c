"""cfrbook.interactive: an explorer's static frames, its controls and its errors."""

from __future__ import annotations

import base64
import json
import re

import ipywidgets as widgets
import matplotlib
import numpy as np
import pytest

matplotlib.use("agg")

from cfrbook import plotting  # noqa: E402
from cfrbook.errors import ExplorerError  # noqa: E402
from cfrbook.interactive import (FRAMES_VARIABLE, MAX_FRAMES, SLIDER_WIDTH, Explorer,  # noqa: E402
                                Stops, describe_control, frame_alt, frames_mode, sample_points,
                                slider_stops)
from cfrlib import CfrlibError, games  # noqa: E402

KUHN = games.kuhn()


def draw_line(slope, style):
    # One line whose slope and style the controls set; prints what it drew. No ticks: a frame
    # costs 19 ms of CPU to render without them, 66 ms with them (most tests render dozens).
    fig, ax = plotting.new_figure(width=3, height=2)
    x = np.linspace(0, 1, 5)
    ax.plot(x, slope * x, ls=style)
    ax.set(ylim=(-1, 3), xticks=[], yticks=[])
    ax.set_title(f"slope {slope:g}")
    print(f"slope {slope:.2f}, style {style}")


def explorer(**kwargs):
    """An explorer of :func:`draw_line`, without phone renderings (a frame of mode "all" would draw
    its figure five more times for one; tests/test_phone_frames.py tests them)."""
    controls = {"slope": widgets.FloatSlider(value=0.5, min=0.0, max=2.0, step=0.5),
                "style": widgets.ToggleButtons(options=[("solid", "-"), ("dashed", "--")],
                                               value="--")}
    return Explorer(draw_line, controls, **{"phone": False, **kwargs})


def static_data(page: str) -> dict:
    return json.loads(re.search(r'class="cfrlib-explorer-data">(.*?)</script>', page).group(1))


def test_the_grid_is_every_value_of_every_control_last_axis_fastest():
    e = explorer()
    assert [a.values for a in e.axes] == [(0.0, 0.5, 1.0, 1.5, 2.0), ("-", "--")]
    assert [a.labels for a in e.axes] == [("0.00", "0.50", "1.00", "1.50", "2.00"),
                                          ("solid", "dashed")]
    assert [a.default for a in e.axes] == [1, 1]
    grid = e.grid()
    assert len(grid) == 10 and grid[0] == {"slope": 0.0, "style": "-"}
    assert grid[3] == {"slope": 0.5, "style": "--"}


def test_static_page_opens_on_the_frame_of_the_controls_values():
    e = explorer()
    page = e.static_html()
    data = static_data(page)
    assert data["shape"] == [5, 2]
    start = int(re.search(r'data-frame="(\d+)"', page).group(1))
    assert start == 3
    shown = re.search(r'<img class="cfrlib-explorer-figure"[^>]*src="data:image/png;base64,([^"]+)"',
                      page).group(1)
    assert base64.b64decode(shown) == e.render({"slope": 0.5, "style": "--"}).png
    assert data["texts"][data["frame_of"][start]] == "slope 0.50, style --\n"
    assert '<input type="range" data-axis="0" min="0" max="4" step="1" value="1"' in page
    assert page.count('type="radio"') == 2 and "checked>dashed" in page


def test_every_frame_is_the_render_of_its_grid_point_and_equal_frames_are_stored_once():
    e = explorer(static={"slope": [0.0, 0.5]})
    data = static_data(e.static_html("all"))
    # Every grid point prints its own text, so no two frames are shared here.
    assert len(data["images"]) == len(set(data["images"])) == 4
    for k, values in enumerate(e.grid()):
        png = base64.b64decode(data["images"][data["frame_of"][k]])
        assert png == e.render(values).png


@pytest.mark.slow  # renders frames: make test only
def test_identical_frames_are_shared():
    def draw(a, b):
        fig, ax = plotting.new_figure(width=2, height=2)
        ax.plot([0, 1], [0, a])

    e = Explorer(draw, {"a": widgets.IntSlider(value=1, min=0, max=2),
                        "b": widgets.Checkbox(value=False)}, phone=False)
    data = static_data(e.static_html("all"))
    assert data["shape"] == [3, 2] and len(data["images"]) == 3
    assert data["frame_of"] == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("mode, drawn", [("all", list(range(10))), ("opening", [3]),
                                         ("sample", [3, 9])])
def test_the_frames_mode_says_which_grid_points_are_drawn(monkeypatch, mode, drawn):
    monkeypatch.setenv(FRAMES_VARIABLE, mode)
    e = explorer()
    data = static_data(e.static_html())
    assert [k for k, f in enumerate(data["frame_of"]) if f is not None] == drawn
    assert len(e._frames) == len(drawn)          # the others were never drawn
    opening = data["frame_of"][3]
    assert data["texts"][opening] == "slope 0.50, style --\n"


def test_without_the_variable_only_the_opening_frame_is_drawn(monkeypatch):
    monkeypatch.delenv(FRAMES_VARIABLE, raising=False)
    assert frames_mode() == "opening"
    monkeypatch.setenv(FRAMES_VARIABLE, "every")
    with pytest.raises(CfrlibError, match="CFRLIB_EXPLORER_FRAMES='every': expected 'all'"):
        explorer().static_html()
    with pytest.raises(CfrlibError, match="frames mode 'every': expected 'all'"):
        explorer().static_html("every")


def test_a_sample_covers_the_opening_point_and_the_end_farther_from_it():
    assert sample_points(1, 0) == [0]
    assert sample_points(3, 1) == [1, 2]             # the farther end; a tie goes to the last
    assert sample_points(80, 37) == [37, 79]
    assert sample_points(80, 42) == [0, 42]
    assert sample_points(80, 0) == sample_points(80, 79) == [0, 79]
    assert sample_points(80, 37, count=2) == [0, 37, 79]
    assert sample_points(80, 37, count=5) == [0, 20, 37, 40, 59, 79]


def test_rendering_is_deterministic_and_png():
    e = explorer()
    one, two = e.render({"slope": 1.5, "style": "-"}), e.render({"slope": 1.5, "style": "-"})
    assert one == two and one.png.startswith(b"\x89PNG")
    assert one != e.render({"slope": 1.0, "style": "-"})


def test_mime_bundle_carries_the_live_widget_and_the_static_page(monkeypatch):
    monkeypatch.setenv(FRAMES_VARIABLE, "opening")
    bundle = explorer()._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"}
    assert bundle["text/plain"] == "Explorer of slope, style (10 settings)"
    assert "cfrlib-explorer" in bundle["text/html"]


def test_live_widget_follows_its_controls():
    e = explorer()
    box = e.widget
    assert isinstance(box, widgets.VBox)
    e.controls["slope"].value = 2.0
    assert e.values() == {"slope": 2.0, "style": "--"}
    assert e.frame(e.values()) == e.render({"slope": 2.0, "style": "--"})


def test_play_button_needs_a_slider_and_adds_one():
    e = explorer(play="slope", interval=300)
    assert 'data-play="0"' in e.static_html("opening")
    players = [w for w in e.widget.children[0].children if isinstance(w, widgets.Play)]
    assert len(players) == 1 and players[0].interval == 300
    with pytest.raises(CfrlibError, match="play button needs one of the sliders"):
        explorer(play="style")


@pytest.mark.slow  # renders frames: make test only
def test_each_frame_keeps_the_titles_of_its_figure():
    def draw(a):
        fig, (left, right) = plotting.new_figure(1, 2, width=4, height=2)
        fig.suptitle(f"a = {a}")
        right.set_title("right", loc="right")

    e = Explorer(draw, {"a": widgets.IntSlider(value=1, min=0, max=1)}, phone=False)
    assert e.render({"a": 0}).title == "a = 0\nright"
    data = static_data(e.static_html("all"))
    assert data["titles"] == ["a = 0\nright", "a = 1\nright"]
    data = static_data(explorer().static_html("opening"))
    assert data["titles"][data["frame_of"][3]] == "slope 0.5"


def slider(values, labels=None):
    """A slider's :class:`Axis`, as an explorer of one FloatSlider offering ``values`` makes it."""
    e = Explorer(draw_line, {"slope": widgets.FloatSlider(value=values[0], min=-100, max=100,
                                                          step=0.01),
                             "style": widgets.Dropdown(options=["-"])},
                 static={"slope": values})
    return e.axes[0]


def test_evenly_spaced_stops_are_labelled_at_even_intervals_ends_included():
    # 41 stops of 5 characters: every 8th fits in one row of at most 16 em.
    stops = slider_stops(slider([k / 4 for k in range(41)]))
    assert stops.labelled == (0, 8, 16, 24, 32, 40) and stops.rows == 1
    assert SLIDER_WIDTH[0] <= stops.width <= SLIDER_WIDTH[1]
    assert slider_stops(slider([0.0, 1.0])) == Stops(SLIDER_WIDTH[0], (0, 1), 1)


def test_uneven_stops_are_all_labelled_in_as_few_rows_as_fit():
    assert slider_stops(slider([0.0, 1.0, 1.5, 3.0, 5.0])).labelled == (0, 1, 2, 3, 4)
    eleven = slider_stops(slider([0.05, *(k / 10 for k in range(1, 11))]))
    assert eleven.labelled == tuple(range(11)) and eleven.rows == 2
    checkpoints = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 1000]
    seventeen = slider_stops(describe_control(
        "iterations", widgets.SelectionSlider(options=checkpoints, value=30)))
    assert seventeen.labelled == tuple(range(17)) and seventeen.rows == 3
    with pytest.raises(ExplorerError, match=r"'slope': the labels of its stops \(0.00, 1.00, 4.00"):
        slider_stops(slider([float(k * k) for k in range(30)]))


def test_every_slider_lists_its_stops_and_labels_them_under_the_thumb():
    e = explorer(static={"slope": [0.0, 0.5, 2.0]})
    page = e.static_html("opening")
    list_id = re.search(r'<input type="range" data-axis="0"[^>]* list="([^"]+)"', page).group(1)
    options = re.search(f'<datalist id="{list_id}">(.*?)</datalist>', page).group(1)
    assert re.findall(r'<option value="(\d)" label="([^"]+)">', options) == [
        ("0", "0.00"), ("1", "0.50"), ("2", "2.00")]
    marks = re.findall(r'<span data-stop="(\d)" style="left:calc\(8px \+ \(100% - 16px\) \* '
                       r'([\d.]+)\);top:0em">([^<]+)</span>', page)
    assert marks == [("0", "0", "0.00"), ("1", "0.5", "0.50"), ("2", "1", "2.00")]
    # The same explorer twice gives the same page; another explorer other datalist ids.
    assert e.static_html("opening") == page and list_id not in explorer().static_html("opening")


def test_a_fixed_value_is_stated_as_text_not_drawn_as_a_control():
    choice = widgets.SelectMultiple(options=[("alpha", "a"), ("beta", "b")], value=("a", "b"))

    def draw(names):
        plotting.new_figure(width=2, height=2)

    e = Explorer(draw, {"names": choice}, static={"names": [("a", "b")]},
                 note="Choosing variants needs a running notebook.")
    page = e.static_html()
    controls = re.search(r'<div class="cfrlib-explorer-controls">(.*?)</div>', page).group(1)
    assert controls == "" and "data-axis" not in page.split("<script")[0]
    # Stated as text; a tuple of options reads as their labels, not as a Python tuple.
    assert ('<p class="cfrlib-explorer-fixed">Fixed on this page: names: '
            '<span data-readout="0">alpha, beta</span>.</p>') in page
    assert "Choosing variants needs a running notebook." in page


def test_errors_say_what_is_wrong():
    with pytest.raises(ExplorerError, match="not among the values the static page offers"):
        explorer(static={"slope": [1.0, 2.0]})
    with pytest.raises(CfrlibError, match=r"'dotted' is not one of its options"):
        explorer(static={"style": ["-", "dotted"]})
    with pytest.raises(CfrlibError, match=r"static values given for \['slant'\]"):
        explorer(static={"slant": [1.0]})
    with pytest.raises(CfrlibError, match="has no static form"):
        describe_control("names", widgets.SelectMultiple(options=["a"]))
    with pytest.raises(CfrlibError, match=f"more than {MAX_FRAMES}: thin the grid"):
        Explorer(draw_line, {"slope": widgets.IntSlider(value=0, min=0, max=MAX_FRAMES),
                             "style": widgets.Dropdown(options=["-"])})
    shown = Explorer(lambda slope, style: None, explorer().controls)
    with pytest.raises(ExplorerError, match="left 0 new figures open"):
        shown.render({"slope": 0.5, "style": "-"})


def test_play_steps_a_selection_slider_through_its_options_by_index():
    # uneven stops (a SelectionSlider) get a play button too: it runs over the options' indices
    values = [0, 1, 2, 5, 10]
    slider = widgets.SelectionSlider(options=values, value=2, description="T")
    e = Explorer(lambda T: draw_line(T / 10, "-"), {"T": slider}, play="T", interval=200)
    assert 'data-play="0"' in e.static_html(mode="opening")
    players = [w for w in e.widget.children[0].children if isinstance(w, widgets.Play)]
    assert len(players) == 1
    player = players[0]
    assert (player.min, player.max, player.step, player.value) == (0, len(values) - 1, 1, 2)


def test_the_alt_text_names_the_setting_shown():
    e = explorer(alt="A line through the origin.")
    page = e.static_html(mode="opening")
    assert 'alt="A line through the origin. Shown for slope: 0.50; style: dashed."' in page
    # The data carry what the page's script needs to write it for every other frame.
    data = static_data(page)
    assert data["alt"] == "A line through the origin."
    assert [a["description"] for a in data["axes"]] == ["slope", "style"]
    assert frame_alt("", []) == "" and frame_alt("Bars", []) == "Bars."
