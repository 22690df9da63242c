"""The introduction's family tree (tools/make_family_tree.py) reads at the column's width: the
figure check of tools/figure_layout.py finds no overlapping, cut-off or too small text in it; and
every chapter has a box that links to its page."""

from __future__ import annotations

import re

import figure_layout
import make_family_tree


def test_the_family_tree_is_legible_in_the_column(tmp_path):
    figure_layout.install()
    figure_layout.take()
    make_family_tree.draw(tmp_path / "family_tree.svg")
    assert figure_layout.take() == []
    assert (tmp_path / "family_tree.svg").read_text().startswith("<?xml")


def test_every_chapter_has_a_box_that_links_to_its_page(tmp_path):
    svg = make_family_tree.draw(tmp_path / "family_tree.svg").read_text()
    chapters = sorted(p.stem for p in make_family_tree.DEFAULT_OUTPUT.parents[1].glob("[0-9]*.ipynb"))
    links = set(re.findall(r'<a xlink:href="([^"]+)"><title>Chapter (\d+):', svg))
    assert {href for href, _ in links} == {f"{stem}.html" for stem in chapters}
    assert all(href.startswith(f"{int(number):02d}_") for href, number in links)
    # inlined in the page: the viewBox sets the shape, the page the width; no new window
    opening = re.search(r"<svg [^>]*>", svg).group(0)
    assert "viewBox" in opening and " width=" not in opening and "_blank" not in svg
