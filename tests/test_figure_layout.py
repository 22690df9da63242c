"""tools/figure_layout.py: the check of a figure's text as the page shows it finds each kind of
defect on a made-up figure, names the texts, and passes a figure drawn the way the book draws."""

from __future__ import annotations

import io

import matplotlib
import numpy as np
import pytest

import figure_layout
from cfrbook import interactive, plotting

matplotlib.use("Agg")


@pytest.fixture
def figure():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure()
    x = np.linspace(1.0, 100.0, 60)
    ax.plot(x, x, label="rising")
    ax.plot(x, 101.0 - x, label="falling")
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability")
    ax.set_title("two curves")
    yield fig, ax
    plt.close(fig)


def test_a_figure_drawn_as_the_book_draws_passes(figure):
    fig, ax = figure
    fig.legend(loc="outside lower center", ncols=2)
    assert figure_layout.problems(fig) == []
    assert figure_layout.problems(fig, bbox_inches="tight") == []


def test_only_the_draw_of_the_image_is_analysed(figure, monkeypatch):
    """savefig of a figure with a layout engine draws twice, the first time with drawing
    disabled; the check analyses the second, the image's, once."""
    fig, ax = figure
    calls = []
    analyse = figure_layout._analyse
    monkeypatch.setattr(figure_layout, "_analyse", lambda *a: calls.append(a) or analyse(*a))
    for savefig in ({}, {"bbox_inches": "tight"}):
        calls.clear()
        assert figure_layout.problems(fig, **savefig) == []
        assert len(calls) == 1, savefig


def test_overlapping_texts_are_named(figure):
    fig, ax = figure
    ax.text(50, 50, "a note on the crossing")
    ax.text(52, 51, "another note")
    found = figure_layout.problems(fig)
    assert any("texts overlap" in p and "'a note on the crossing'" in p and "'another note'" in p
               for p in found), found


def test_a_title_crossed_by_the_y_label_of_a_short_axes():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure(height=1.6)
    ax.plot([1, 2], [1, 2])
    ax.set_ylabel("exploitability (chips per game)")
    ax.set_title("a title")
    found = figure_layout.problems(fig)
    plt.close(fig)
    assert any("'exploitability (chips per game)'" in p for p in found), found


def test_text_cut_off_at_the_edge(figure):
    fig, ax = figure
    ax.set_title("a title far too long for its figure, " * 3)
    fig.set_layout_engine("none")
    found = figure_layout.problems(fig)
    assert any(p.startswith("text cut off at the edge") and "a title far too long" in p
               for p in found), found


def test_a_legend_over_the_data(figure):
    fig, ax = figure
    ax.legend(loc="center")
    found = figure_layout.problems(fig)
    assert any("the legend ('rising', 'falling') covers points of 'rising'" in p for p in found), found


def test_a_legend_over_a_segment_between_two_far_points():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure()
    ax.plot([0, 1], [0, 1], label="diagonal")   # two vertices, a line across the middle
    ax.legend(loc="center")
    found = figure_layout.problems(fig)
    plt.close(fig)
    assert any("covers points of 'diagonal'" in p for p in found), found


def test_a_legend_over_a_bar():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure()
    ax.bar(["a", "b", "c"], [1.0, 3.0, 2.0], label="wins")
    ax.plot([0, 2], [0.2, 0.2], label="floor")
    ax.legend(loc="center")
    found = figure_layout.problems(fig)
    ax.set_ylim(0, 6)
    ax.legend(loc="upper left")
    clear = figure_layout.problems(fig)
    plt.close(fig)
    assert any("covers points of 'wins'" in p for p in found), found
    assert clear == []


def test_text_too_small_once_a_wide_figure_is_shrunk_to_the_column():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(13, 3))   # 1300 px shown 650 px wide: 8 pt -> 5.6 px
    ax.plot([1, 2], [1, 2])
    ax.set_xlabel("iterations", fontsize=8)
    found = figure_layout.problems(fig)
    plt.close(fig)
    assert any(p.startswith("text 5.6 px high on the page") and "'iterations'" in p
               for p in found), found


def test_problems_are_collected_from_every_saved_image_and_name_the_figure(figure):
    fig, ax = figure
    ax.legend(loc="center")
    figure_layout.install()
    figure_layout.take()
    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    found = figure_layout.take()
    assert found and all(p.startswith("figure 'two curves': ") for p in found), found
    assert figure_layout.take() == []


def test_explorer_frames_are_checked_as_they_are_rendered():
    import matplotlib.pyplot as plt

    def draw(where="center"):
        fig, ax = plotting.new_figure()
        ax.plot([0, 1], [0, 1], label="diagonal")
        ax.set_title(f"legend at {where}")
        ax.legend(loc=where)

    figure_layout.install()
    figure_layout.take()
    import ipywidgets as widgets

    explorer = interactive.Explorer(draw, {"where": widgets.Dropdown(options=["center", "upper left"])})
    explorer.render({"where": "upper left"})
    assert figure_layout.take() == []
    explorer.render({"where": "center"})
    assert figure_layout.take() == ["figure 'legend at center': the legend ('diagonal') covers "
                                    "points of 'diagonal'"]
    plt.close("all")
