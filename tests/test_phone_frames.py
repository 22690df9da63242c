"""Explorers' frames on a phone (issue 39): the published page carries a phone rendering of each
frame (cfrbook.interactive), crowded category labels are set upright in a phone rendering
(cfrbook.phone_figures), and an explorer has phone frames only when every frame has one. The
build serves them as files (tools/explorer_frames.py, tests/test_served_frames.py)."""

from __future__ import annotations

import base64
import json
import re
import struct

import figure_layout
import ipywidgets as widgets
import matplotlib
import pytest

from cfrbook import interactive, phone_figures, plotting

matplotlib.use("Agg")


ONE_WORD = ["blueprint", "unsafe", "resolved", "maxmargin", "reachsafe", "subgame", "depthlimited"]
WORDS = ["chance sampling", "external sampling", "outcome sampling", "vanilla CFR", "CFR plus"]


def _bars(t: int, names: list[str] = ONE_WORD):
    fig, ax = plotting.new_figure(height=3.0)
    ax.bar(range(len(names)), [0.1] * len(names))
    ax.set_xticks(range(len(names)), names)
    ax.set(ylabel="exploitability", title=f"after {t} iterations")
    return fig


def _payload(page: str) -> dict:
    return json.loads(re.search(r'cfrlib-explorer-data">(.*?)</script>', page).group(1))


@pytest.mark.slow   # two phone renderings (about 2 s): make test only
def test_crowded_category_labels_are_set_upright_and_the_rendering_passes_the_check():
    figure_layout.install()   # a phone rendering with problems is not used

    def labels(names):
        phone = phone_figures.phone_figure(_bars(30, names))
        phone.draw_without_rendering()
        shown = [t.label1 for t in phone.axes[0].xaxis.get_major_ticks()]
        return phone, [(label.get_text(), label.get_rotation()) for label in shown]

    phone, upright = labels(ONE_WORD)   # too wide side by side, and no word to break at
    assert upright == [(name, 90.0) for name in ONE_WORD]
    panel = phone_figures.PHONE_WIDTH * phone_figures.PANEL_ASPECT[0]   # this panel's height
    assert phone.get_size_inches()[1] > panel + 0.5   # grown by the labels, over 0.5 inch long
    assert labels(WORDS)[1] == [(name.replace(" ", "\n"), 0.0) for name in WORDS]   # a word a line
    for names in (ONE_WORD, WORDS):
        png, text_px, found = phone_figures.phone_png(_bars(30, names), dpi=interactive.PHONE_DPI)
        assert found == [], names


@pytest.mark.slow   # six renderings (about 3 s): make test only
def test_the_published_page_carries_each_frames_phone_rendering_and_a_test_run_does_not():
    figure_layout.install()
    def explorer():
        return interactive.Explorer(_bars, {"t": widgets.IntSlider(value=1, min=1, max=2)})

    published, sampled = _payload(explorer().static_html("all")), _payload(explorer().static_html("sample"))
    assert "phone" not in sampled
    phone = published["phone"]
    assert phone["media"] == phone_figures.PHONE_MEDIA and len(phone["images"]) == 2
    for png, text_px in zip(phone["images"], phone["text_px"]):
        width = struct.unpack(">II", base64.b64decode(png)[16:24])[0]
        assert width == round(phone_figures.PHONE_WIDTH * interactive.PHONE_DPI)
        # the smallest text, shown in the narrowest phone column
        assert text_px * phone_figures.PHONE_COLUMN_PX / width >= phone_figures.PHONE_MIN_PX


@pytest.mark.slow  # phone renderings: make test only
def test_an_explorer_shows_phone_frames_only_when_every_frame_has_one(monkeypatch):
    """A frame whose phone rendering fails the figure check takes the phone frames away from
    the whole explorer: its figure does not switch layouts as the reader moves a control."""
    def draw(t):
        plotting.new_figure(width=3, height=2)[1].set_title(f"t = {t}")

    def phone_png(figure, dpi, smallest_pt):   # the figure check refuses t = 2's rendering
        refused = figure.axes[0].get_title() == "t = 2"
        return b"PNG", 9.9, ["texts overlap"] if refused else []

    monkeypatch.setattr(interactive, "phone_png", phone_png)
    slider = {"t": widgets.IntSlider(value=1, min=1, max=3)}
    assert _payload(interactive.Explorer(draw, slider).static_html("all")).get("phone") is None
    kept = _payload(interactive.Explorer(draw, slider, static={"t": [1, 3]}).static_html("all"))
    assert kept["phone"]["images"] == [base64.b64encode(b"PNG").decode()] * 2


def test_the_look_check_reads_a_legend_entry_a_phone_broke_onto_lines_as_one():
    """A phone rendering wraps a long legend entry ("RM, quadratic average, simultaneous",
    chapter 8's explorer); the look check must still recognise it, or it refuses the rendering."""
    import figure_looks

    fig, ax = plotting.new_figure(width=3, height=2)
    ax.plot([1, 2], [2, 1], label="RM, quadratic average, simultaneous", color="#f0e442", lw=6)
    ax.legend().get_texts()[0].set_text("RM, quadratic\naverage, simultaneous")
    labels = [label for label, look in figure_looks.series(fig)]
    assert labels == ["RM, quadratic average, simultaneous"]
    assert figure_looks.problems(fig) == []


@pytest.mark.slow  # a phone rendering: make test only
def test_a_legend_under_its_panel_starts_right_under_the_x_label():
    """Chapter 9's explorer: a phone rendering rebuilt the legend under the weights panel with an
    empty title line, which put its first entry about 50 px under the panel's x label."""
    fig, axes = plotting.new_figure(1, 2, width=6, height=2.5)
    for ax in axes:
        ax.plot([1, 2], [2, 1], label="a weight")
        ax.plot([1, 2], [1, 2], label="another weight")
        ax.set_xlabel("iteration")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2))
    phone = phone_figures.phone_figure(fig)
    phone.draw_without_rendering()
    renderer = phone.canvas.get_renderer()
    for ax in phone.axes:
        legend = ax.get_legend()
        assert not legend.get_title().get_visible()
        label = ax.xaxis.label.get_window_extent(renderer)
        first = legend.get_texts()[0].get_window_extent(renderer)
        font_px = legend.get_texts()[0].get_fontsize() * phone.dpi / 72
        assert 0 < label.y0 - first.y1 < 1.5 * font_px, (label, first)
