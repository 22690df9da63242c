"""The introduction's family tree (tools/make_family_tree.py) reads at the column's width: the
figure check of tools/figure_layout.py finds no overlapping, cut-off or too small text in it."""

from __future__ import annotations

import figure_layout
import make_family_tree


def test_the_family_tree_is_legible_in_the_column(tmp_path):
    figure_layout.install()
    figure_layout.take()
    make_family_tree.draw(tmp_path / "family_tree.svg")
    assert figure_layout.take() == []
    assert (tmp_path / "family_tree.svg").read_text().startswith("<?xml")
