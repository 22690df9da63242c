"""cfrbook.phone_figures: a figure's phone rendering stacks its panels in one column, draws its
smallest glyph PHONE_TARGET_PX high in a phone's column, passes the book's figure check there
and leaves the figure itself alone; the committed notebooks carry a phone rendering and the
text sizes of every figure; tools/figure_layout.py measures a tick label by its exponent."""

from __future__ import annotations

import base64
import io
import json
import struct
from pathlib import Path

import matplotlib
import numpy as np
import pytest

import figure_layout
from cfrbook import interactive, phone_figures, plotting

matplotlib.use("Agg")

CHAPTERS = Path(__file__).resolve().parents[1] / "chapters"


def _png_width(png: bytes) -> int:
    return struct.unpack(">II", png[16:24])[0]


@pytest.fixture(scope="module")
def two_panels():
    """Two panels side by side on log axes, sharing the y axis, with a legend under both."""
    import matplotlib.pyplot as plt

    figure_layout.install()   # phone renderings must pass the figure check to be used
    fig, axes = plotting.new_figure(1, 2, height=4.2, sharey=True)
    t = np.logspace(0, 4, 12)
    for ax, title in zip(axes, ("Leduc", "Bluff 1x1")):
        for k, name in enumerate(["CFR alt.", "CFR simult.", "CFR+", "OS-MCCFR"]):
            ax.plot(t, t ** -(0.5 + k / 10), label=name, **plotting.variant_style(name))
        ax.set(xscale="log", yscale="log", title=title, xlabel="iterations $T$")
    axes[0].set_ylabel("exploitability")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=4)
    yield fig
    plt.close(fig)


def test_a_tick_label_is_measured_by_its_exponent():
    from matplotlib.text import Text

    tick = Text(text="$\\mathdefault{10^{-4}}$", fontsize=10)   # as a log axis labels its ticks
    assert phone_figures.smallest_font_pt(tick) == pytest.approx(7.0)
    assert phone_figures.smallest_font_pt(Text(text="$10^{-4}$", fontsize=10)) == 10.0   # a formula
    assert phone_figures.smallest_font_pt(Text(text="10 000", fontsize=10)) == 10.0


@pytest.mark.slow  # a phone rendering (1-2 s): make test only
def test_the_phone_rendering_stacks_the_panels_sizes_its_text_and_passes_the_check(two_panels):
    width, height = two_panels.get_size_inches()
    with phone_figures.drawn_texts() as texts:
        two_panels.savefig(io.BytesIO(), format="png")
    sizes = sorted({t.get_fontsize() for t in texts})
    page = phone_figures.page_metadata(two_panels, texts)
    # the figure's exponents: 0.7 of its tick labels, scaled with the width (chapter 10's escape)
    tick = two_panels.axes[0].xaxis.get_major_ticks()[0].label1.get_fontsize()
    assert page["text_px"] == pytest.approx(0.7 * tick * 100 / 72, abs=0.01)
    assert "phone_problems" not in page   # it passed the book's check in the phone's column
    png = base64.b64decode(page["phone"])
    assert _png_width(png) == round(phone_figures.PHONE_WIDTH * phone_figures.PHONE_DPI)
    on_phone = page["phone_text_px"] * phone_figures.PHONE_COLUMN_PX / _png_width(png)
    assert on_phone == pytest.approx(phone_figures.PHONE_TARGET_PX, abs=0.05)
    # the figure itself is left as it was
    assert tuple(two_panels.get_size_inches()) == (width, height)
    with phone_figures.drawn_texts() as texts:
        two_panels.draw_without_rendering()
    assert sorted({t.get_fontsize() for t in texts}) == sizes


@pytest.mark.slow  # a phone rendering (1-2 s): make test only
def test_the_phone_layout_is_one_column_checked_in_the_phone_column(two_panels):
    phone = phone_figures.phone_figure(two_panels)
    assert phone.get_size_inches()[0] == phone_figures.PHONE_WIDTH
    phone.draw_without_rendering()
    top, bottom = (ax.get_position() for ax in phone.axes[:2])
    assert top.y0 > bottom.y1 and top.x0 == pytest.approx(bottom.x0)   # one column
    assert phone.axes[1].get_ylabel() == "exploitability"   # its own y label, stacked
    with phone_figures.drawn_texts() as texts:
        phone.draw_without_rendering()
    for text in texts:
        text.set_fontsize(text.get_fontsize() * 0.8)
    found = figure_layout.problems(phone)
    assert found and all("(at least 8; the 360 px image is shown 320 px wide)" in p
                         for p in found if "px high" in p), found


def test_the_laptop_check_measures_a_tick_labels_exponent():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4), dpi=100, layout="constrained")
    ax.plot([1, 1000], [1, 2])
    ax.set_xscale("log")
    ax.tick_params(labelsize=10)
    found = figure_layout.problems(fig)
    plt.close(fig)
    # 10 pt is 10.0 px in a 900 px image shown 650 px wide; its exponents are 7.0 px
    assert found and all("text 7.0 px high" in p and "10^{" in p for p in found), found


def test_a_figure_with_axes_placed_by_hand_gets_a_phone_rendering_without_a_warning():
    """Constrained layout only lays out a grid: on axes placed by hand (the trees of
    cfrbook.trees) it would warn, and the warning would be printed on the page."""
    import warnings

    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(8, 4))
    ax = fig.add_axes((0.05, 0.1, 0.9, 0.8))
    ax.plot([0, 1], [0, 1])
    ax.set_title("a tree drawn on axes placed by hand")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        png, px, _ = phone_figures.phone_png(fig)
    plt.close(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and px > 0


def test_an_explorer_frame_records_its_smallest_text():
    import ipywidgets as widgets

    def draw(k):
        fig, ax = plotting.new_figure()
        ax.plot([1, 10, 100], [1, k, 1])
        ax.set_xscale("log")

    explorer = interactive.Explorer(draw, {"k": widgets.IntSlider(value=2, min=1, max=2)})
    frame = explorer.frame({"k": 2})
    assert frame.text_px == pytest.approx(0.7 * 10 * 100 / 72, abs=0.01)
    page = explorer.static_html(mode="opening")
    assert f'data-text-px="{frame.text_px:g}"' in page and '"text_px":[' in page


def _figure_outputs():
    for path in sorted(CHAPTERS.glob("[0-9][0-9]_*.ipynb")):
        notebook = json.loads(path.read_text())
        for cell in notebook["cells"]:
            for output in cell.get("outputs", []):
                if "image/png" in output.get("data", {}):
                    yield f"{path.name}, cell {cell.get('id')}", output


def test_every_committed_figure_records_its_text_and_phone_rendering():
    problems = []
    for where, output in _figure_outputs():
        page = output.get("metadata", {}).get("image/png", {}).get("cfrbook")
        if not page:
            problems.append(f"{where}: no text sizes (re-execute it with tools/execute-notebooks)")
            continue
        width = _png_width(base64.b64decode(output["data"]["image/png"]))
        laptop = page["text_px"] * min(1.0, figure_layout.COLUMN_PX / width)
        if laptop < figure_layout.MIN_TEXT_PX - 0.01:
            problems.append(f"{where}: smallest text {laptop:.1f} px on a laptop")
        if "phone" in page:
            phone = page["phone_text_px"] * phone_figures.PHONE_COLUMN_PX / _png_width(
                base64.b64decode(page["phone"]))
            if phone < phone_figures.PHONE_MIN_PX:
                problems.append(f"{where}: smallest text {phone:.1f} px on a phone")
        elif not page.get("phone_problems"):
            problems.append(f"{where}: neither a phone rendering nor why it has none")
    assert not problems, "\n".join(problems)
