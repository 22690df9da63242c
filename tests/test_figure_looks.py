"""tools/figure_looks.py: every algorithm in its one look (cfrbook.plotting.VARIANT_STYLES). A
figure drawn wrong fails, naming the series and both looks; one drawn as the book draws passes;
the check runs inside tools/figure_layout.py, on every saved image and explorer frame."""

from __future__ import annotations

import io

import matplotlib
import pytest

import figure_layout
import figure_looks
from cfrbook import interactive, plotting

matplotlib.use("Agg")

X, Y = [1.0, 10.0, 100.0], [1.0, 0.3, 0.1]


@pytest.fixture
def axes():
    import matplotlib.pyplot as plt

    fig, ax = plotting.new_figure()
    yield fig, ax
    plt.close(fig)


def test_variants_drawn_in_their_looks_pass(axes):
    fig, ax = axes
    for label in ("CFR", "CFR+ (slope -1.01)", "chance sampling (median of 8)", "ES-MCCFR",
                  r"$\epsilon$ = 0.6", "regret matching+"):
        ax.plot(X, Y, label=label, **plotting.variant_style(label))
    ax.plot(X, Y, label="bound of CFR+", color=plotting.variant_style("CFR+")["color"], ls="--")
    ax.plot(X, Y, label=r"slope $-1/2$", color="grey", ls=":")
    ax.bar([1.0], [1.0], label="CFR alt.", color=plotting.VARIANT_STYLES["CFR alt."]["color"])
    ax.legend()
    assert figure_looks.problems(fig) == []


def test_labels_name_variants_through_aliases_and_notes_in_parentheses():
    assert plotting.variant_of("chance sampling (median of 8)") == "chance sampling"
    assert plotting.variant_of("CFR (slope -0.98)") == "CFR alt."
    assert plotting.variant_of("outcome sampling") == plotting.variant_of(r"$\epsilon$ = 0.6") == "OS-MCCFR"
    assert plotting.variant_of("regret matching+") == "CFR+"
    assert plotting.variant_of("DCFR(1.5, 0, 2)") is None
    assert plotting.variant_of("player 0") is None


@pytest.mark.parametrize("wrong, what", [
    ({"color": "#2a9d8f"}, "#2a9d8f"),                      # another colour
    ({"ls": "--"}, "dashes"),                               # another line style
    ({"marker": "o"}, "marker 'o'"),                        # another marker
    ({"marker": ""}, "no marker"),                          # no marker at all
])
def test_a_variant_in_another_look_fails_naming_both_looks(axes, wrong, what):
    fig, ax = axes
    ax.plot(X, Y, label="chance sampling (median of 8)", **plotting.variant_style("chance sampling", **wrong))
    found = figure_looks.problems(fig)
    wanted = figure_looks.style_look(plotting.VARIANT_STYLES["chance sampling"]).describe()
    assert len(found) == 1, found
    assert found[0].startswith("'chance sampling (median of 8)' is drawn as ") and what in found[0]
    assert found[0].endswith(f"chance sampling's look (cfrbook.plotting.VARIANT_STYLES) is {wanted}")


def test_a_bar_in_another_colour_fails(axes):
    fig, ax = axes
    ax.bar([1.0, 2.0], [1.0, 2.0], label="external sampling")    # matplotlib's first colour
    assert figure_looks.problems(fig) == [
        f"'external sampling' is drawn as patch in #1f77b4; ES-MCCFR's look "
        f"(cfrbook.plotting.VARIANT_STYLES) is {plotting.VARIANT_STYLES['ES-MCCFR']['color'].lower()}"]


def test_a_legend_entry_is_checked_like_the_artist_it_stands_for(axes):
    from matplotlib.lines import Line2D

    fig, ax = axes
    ax.plot(X, Y, color="0.5")                                 # unlabelled: not looked at
    fig.legend([Line2D([], [], color="#e76f51", marker="o")], ["chance sampling"])
    found = figure_looks.problems(fig)
    assert len(found) == 1 and found[0].startswith("'chance sampling' is drawn as #e76f51"), found


def test_two_algorithms_sharing_a_look_fail(axes):
    fig, ax = axes
    ax.plot(X, Y, label="CFR+", **plotting.variant_style("CFR+"))
    ax.plot(X, Y, label="CFR+, current", **plotting.variant_style("CFR+"))   # should be dashed
    found = figure_looks.problems(fig)
    assert found == [f"CFR+ and CFR+, current share one look "
                     f"({figure_looks.style_look(plotting.VARIANT_STYLES['CFR+']).describe()})"]
    ax.lines[-1].set_linestyle("--")
    assert figure_looks.problems(fig) == []


def test_an_algorithm_like_label_that_names_no_variant_is_a_failure_not_skipped(axes):
    fig, ax = axes
    ax.plot(X, Y, label="CFR with a twist", color="black")
    ax.plot(X, Y, label="sampled runs", color="0.3")
    found = figure_looks.problems(fig)
    assert len(found) == 2 and all("reads like an algorithm but names no variant" in p for p in found)
    assert "'CFR with a twist'" in found[0] and "'sampled runs'" in found[1]


def test_settings_keep_their_variants_colour_or_one_no_variant_uses(axes):
    fig, ax = axes
    os_color = plotting.VARIANT_STYLES["OS-MCCFR"]["color"]
    ax.plot(X, Y, label=r"$\epsilon$ = 0.05", color=os_color, ls=":", marker="v")
    ax.plot(X, Y, label="DCFR(1.5, 0, 2)", **plotting.CHOSEN_STYLE)
    assert figure_looks.problems(fig) == []
    ax.lines[0].set_color("#009E73")                       # CFR+'s green for outcome sampling
    ax.lines[1].set_color(plotting.VARIANT_STYLES["PCFR+"]["color"])
    found = figure_looks.problems(fig)
    assert len(found) == 2, found
    assert "= 0.05' is drawn in #009e73; as outcome sampling at an exploration" in found[0]
    assert found[1].startswith("'DCFR(1.5, 0, 2)' is drawn in #56b4e9, a variant's colour")


def test_the_variant_styles_are_one_look_each():
    looks = {name: figure_looks.style_look(style) for name, style in plotting.VARIANT_STYLES.items()}
    assert len(set(looks.values())) == len(looks)
    assert plotting.CHOSEN_STYLE["color"] not in {s["color"] for s in plotting.VARIANT_STYLES.values()}
    # issue 39: chance and external sampling, both in chapter 7's figures, differ in colour
    assert looks["chance sampling"].color != looks["ES-MCCFR"].color


@pytest.mark.slow  # renders figures and frames: make test only
def test_wrong_looks_are_collected_from_saved_images_and_explorer_frames():
    import ipywidgets as widgets
    import matplotlib.pyplot as plt

    def draw(color="#2a9d8f"):
        fig, ax = plotting.new_figure()
        ax.plot(X, Y, label="chance sampling", **plotting.variant_style("chance sampling", color=color))
        ax.set_title("one curve")
        ax.legend(loc="upper right")

    figure_layout.install()
    figure_layout.take()
    draw()
    plt.gcf().savefig(io.BytesIO(), format="png")
    found = figure_layout.take()
    assert len(found) == 1 and found[0].startswith("figure 'one curve': 'chance sampling' is drawn as #2a9d8f")
    plt.close("all")
    right = plotting.VARIANT_STYLES["chance sampling"]["color"]
    explorer = interactive.Explorer(draw, {"color": widgets.Dropdown(options=[right, "#2a9d8f"])})
    explorer.render({"color": right})
    assert figure_layout.take() == []
    explorer.render({"color": "#2a9d8f"})
    assert len(figure_layout.take()) == 1
    plt.close("all")


def test_points_without_a_line_are_held_to_their_variants_colour_and_marker(axes):
    fig, ax = axes
    style = plotting.VARIANT_STYLES["CFR simult."]
    ax.plot(X, Y, ls="", marker=style["marker"], color=style["color"], mfc="white", label="CFR simult.")
    ax.errorbar(X, Y, yerr=0.1, ls="", marker="P", color=plotting.VARIANT_STYLES["chance sampling"]["color"],
                label="chance sampling (mean of 3)")
    fig.legend()
    assert figure_looks.problems(fig) == []
    ax.lines[0].set_marker("o")                     # CFR alt.'s marker
    assert figure_looks.problems(fig) == [
        f"'CFR simult.' is drawn as points in {style['color'].lower()}, marker 'o'; CFR simult.'s look "
        f"(cfrbook.plotting.VARIANT_STYLES) is points in {style['color'].lower()}, marker 'v'"]
