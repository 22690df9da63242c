"""tools/frame_check.py: an explorer's saved frames against a fresh run's, as pictures.

The same figure drawn on another CPU may differ in a pixel (numpy's SIMD kernels differ in the
last bit); that must pass. The figure of another setting of the controls must fail.
"""

from __future__ import annotations

import base64
import io
import json
import re
import sys
from pathlib import Path

import ipywidgets as widgets
import matplotlib
import numpy as np
import pytest
from PIL import Image

matplotlib.use("agg")

from cfrbook import plotting  # noqa: E402
from cfrbook.interactive import Explorer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from frame_check import explorer_differences, picture_difference  # noqa: E402
from sanitize import sanitizer  # noqa: E402


def draw(rounds, rule):
    # A small chapter-like figure: a curve, a title that names the setting, axis labels.
    fig, ax = plotting.new_figure(width=3.2, height=2.6)
    t = np.arange(1, rounds + 1)
    ax.plot(t, np.cos(t / 7.0) / np.sqrt(t) if rule == "RM" else 1 / t)
    ax.set_title(f"{rule}, self-play, {rounds} rounds")
    ax.set_xlabel("round $t$")


def explorer():
    # frame_check compares the column's frames: no phone renderings (a second of CPU a page)
    return Explorer(draw, {"rounds": widgets.IntSlider(value=40, min=10, max=100, step=30),
                           "rule": widgets.ToggleButtons(options=["RM", "RM+"])}, phone=False)


def edited(png: bytes, edit) -> bytes:
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).copy()
    edit(pixels)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="png")
    return out.getvalue()


@pytest.fixture(scope="module")
def frames():
    e = explorer()
    return {key: e.render({"rounds": key[0], "rule": key[1]}).png
            for key in ((40, "RM"), (70, "RM"), (40, "RM+"))}


def test_the_same_render_and_a_one_pixel_difference_pass(frames):
    png = frames[40, "RM"]
    assert picture_difference(png, png) is None

    def one_pixel(p):
        p[150, 120] = 255 - p[150, 120]
    assert picture_difference(png, edited(png, one_pixel)) is None


def test_a_palette_shifted_by_a_few_levels_passes(frames):
    def shift(p):
        p[:] = np.clip(p.astype(int) + 3, 0, 255).astype(np.uint8)
    assert picture_difference(frames[40, "RM"], edited(frames[40, "RM"], shift)) is None


@pytest.mark.parametrize("other", [(70, "RM"), (40, "RM+")])
def test_another_settings_figure_fails(frames, other):
    why = picture_difference(frames[40, "RM"], frames[other])
    assert why is not None and "pixels of" in why and "changed by more than 24 levels" in why


def test_a_changed_size_fails(frames):
    def crop(png):
        image = Image.open(io.BytesIO(png))
        out = io.BytesIO()
        image.crop((0, 0, image.width - 1, image.height)).save(out, format="png")
        return out.getvalue()
    assert picture_difference(frames[40, "RM"], crop(frames[40, "RM"])).startswith("size ")


def _data(e, mode):
    page = e.static_html(mode)
    return json.loads(re.search(r'class="cfrlib-explorer-data">(.*?)</script>', page).group(1))


@pytest.fixture(scope="module")
def pages():
    """The saved page's data (every frame) and a fresh run's (the frames nbval draws); each test
    edits copies."""
    return _data(explorer(), "all"), _data(explorer(), "sample")


@pytest.mark.slow
def test_a_sampled_run_is_compared_at_its_own_grid_points(pages):
    saved, fresh = pages
    assert explorer_differences(saved, fresh) == []
    # a sample draws the opening point (2) and the end farther from it (7): their frames swapped
    # in the saved page, both are found
    assert [k for k, f in enumerate(fresh["frame_of"]) if f is not None] == [2, 7]
    swapped = dict(saved, frame_of=list(saved["frame_of"]))
    swapped["frame_of"][2], swapped["frame_of"][7] = saved["frame_of"][7], saved["frame_of"][2]
    found = explorer_differences(swapped, fresh)
    assert [f.split(":")[0] for f in found] == ["grid point 2", "grid point 7"], found
    assert "printed text" in found[0] or "figure differs" in found[0]
    # a point the saved page lacks
    missing = dict(saved, frame_of=saved["frame_of"][:7] + [None])
    assert explorer_differences(missing, fresh) == ["grid point 7: no saved frame"]


@pytest.mark.slow
def test_a_one_pixel_difference_in_a_saved_frame_passes(pages):
    saved, fresh = pages
    saved = dict(saved, images=list(saved["images"]))
    k = saved["frame_of"][fresh["frame_of"].index(0)]   # the saved frame of the first drawn point

    def one_pixel(p):
        p[100, 100] = 255 - p[100, 100]
    png = edited(base64.b64decode(saved["images"][k]), one_pixel)
    saved["images"][k] = base64.b64encode(png).decode("ascii")
    assert explorer_differences(saved, fresh) == []


def test_printed_texts_are_compared_after_normalizing():
    """make test passes nbval's sanitizing (tests/nbval_sanitize.cfg) as ``normalize``: round-off
    printed under a frame may differ in its last bits; a larger gap, or any change without it,
    may not."""
    sanitize = sanitizer()
    png = io.BytesIO()
    Image.new("RGB", (4, 4)).save(png, format="png")
    image = base64.b64encode(png.getvalue()).decode("ascii")

    def page(text):
        return {"axes": ["rounds"], "shape": [1], "frame_of": [0], "texts": [text],
                "images": [image]}
    saved = page("gap 4.2e-17, exploitability 0.0e+00")
    assert explorer_differences(saved, page("gap -1.1e-16, exploitability 2.8e-17"), sanitize) == []
    assert explorer_differences(saved, page("gap 1.0e-09, exploitability 0.0e+00"), sanitize) == [
        "grid point 0: printed text 'gap 4.2e-17, exploitability 0.0e+00' saved, "
        "'gap 1.0e-09, exploitability 0.0e+00' fresh"]
    assert explorer_differences(saved, page("gap -1.1e-16, exploitability 2.8e-17")) != []
