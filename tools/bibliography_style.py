"""Sphinx extension: the bibliography labels each entry as the text cites it (issue 39).

The chapters cite author-year ("[Zinkevich et al., 2007]"), while pybtex's styles label the
entries of the list [1], [2], ...: a reader could not find a citation in the list by what it
says. This registers two styles that share one label:

- the pybtex formatting style ``plain_author_year`` (``bibtex_default_style``): pybtex's
  ``plain`` whose label is the author-year text of a
  parenthetical citation, built from sphinxcontrib-bibtex's own parts (its person style, "et
  al." from three authors on, and its separator): "Zinkevich et al., 2007". Two entries with the
  same authors and year get a letter after the year, in the list's order: "Brown and Sandholm,
  2019a" and "2019b". The list is sorted by label.
- the sphinxcontrib-bibtex referencing style ``author_year_label`` (``bibtex_reference_style``):
  its ``author_year`` style whose year is read from that label, so a citation shows the letter
  too: ``{cite:p}`` gives "[Brown and Sandholm, 2019a]", ``{cite:t}`` "Brown and Sandholm
  [2019a]".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from string import ascii_lowercase

from pybtex.backends.plaintext import Backend as PlainTextBackend
from pybtex.database import Entry
from pybtex.plugin import register_plugin
from pybtex.richtext import Text
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting.author_year_title import SortingStyle as AuthorYearTitleSortingStyle
from pybtex.style.template import Node, node
from sphinxcontrib.bibtex import plugin
from sphinxcontrib.bibtex.style.referencing import PersonStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
from sphinxcontrib.bibtex.style.referencing.basic_author_year import (
    BasicAuthorYearParentheticalReferenceStyle,
    BasicAuthorYearTextualReferenceStyle,
)
from sphinxcontrib.bibtex.style.template import join, join2, post_text, pre_text, reference, year

AUTHOR_YEAR_SEP = ", "   # sphinxcontrib-bibtex's default between author and year


def author_year(entry: Entry) -> str:
    """"Zinkevich et al., 2007": the authors as a citation names them (the editors or the title
    when there are none), the separator, the year ("n.d." if none)."""
    template = join(sep=AUTHOR_YEAR_SEP)[_PERSON.author_or_editor_or_title(full=False), year]
    return template.format_data({"entry": entry, "style": _Names(_PERSON)}).render(PLAIN_TEXT)


# Made once: making a name style, or rendering with render_as("text"), looks a pybtex plugin up
# among every installed package's entry points (26 ms each), which made sorting and labelling the
# bibliography take 6 s.
_PERSON = PersonStyle()
PLAIN_TEXT = PlainTextBackend()
"""pybtex's plain-text backend, to render rich text as ``render_as("text")`` does."""


@dataclass
class _Names:
    person: PersonStyle   # what sphinxcontrib-bibtex's name templates read from data["style"]


class AuthorYearLabelStyle(BaseLabelStyle):
    def format_labels(self, sorted_entries: Iterable[Entry]) -> Iterator[str]:
        entries = list(sorted_entries)
        labels = [author_year(entry) for entry in entries]
        shared = Counter(labels)
        seen: Counter[str] = Counter()
        for label in labels:
            if shared[label] > 1:
                seen[label] += 1
                label += ascii_lowercase[seen[label] - 1]
            yield label


class LabelSortingStyle(AuthorYearTitleSortingStyle):
    """In the order of the labels, where a reader looks for a citation: "Johanson, 2016" before
    "Johanson et al., 2012", "Farina et al., 2019" before "Farina et al., 2023" (plain's order, on
    every author, would not); plain's order (authors, year, title) among entries of one label."""

    def sorting_key(self, entry: Entry) -> tuple:
        return author_year(entry).replace(",", " ").casefold(), super().sorting_key(entry)


class PlainAuthorYearStyle(PlainStyle):
    default_label_style = "author_year"
    default_sorting_style = "author_year_label"


@node
def labelled_year(children, data) -> Text:
    """The year as the cited entry's label writes it: "2019a" in "Brown and Sandholm, 2019a"."""
    assert not children
    return Text(data["formatted_entry"].label.rpartition(AUTHOR_YEAR_SEP)[2])


@dataclass
class _Parenthetical(BasicAuthorYearParentheticalReferenceStyle):
    def inner(self, role_name: str) -> Node:
        author = self.person.author_or_editor_or_title(full="s" in role_name)
        return join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
            pre_text, reference[join(sep=self.author_year_sep)[author, labelled_year]], post_text]


@dataclass
class _Textual(BasicAuthorYearTextualReferenceStyle):
    def inner(self, role_name: str) -> Node:
        cited = join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
            pre_text, reference[labelled_year], post_text]
        return join(sep=self.text_reference_sep)[
            self.person.author_or_editor_or_title(full="s" in role_name),
            join[self.bracket.left, cited, self.bracket.right]]


@dataclass
class AuthorYearLabelReferenceStyle(AuthorYearReferenceStyle):
    """sphinxcontrib-bibtex's author_year, with the year of each citation taken from the label."""

    def __post_init__(self):
        super().__post_init__()
        for role, style in list(self.role_style.items()):
            if isinstance(style, BasicAuthorYearParentheticalReferenceStyle):
                self.role_style[role] = _Parenthetical(
                    bracket=self.bracket_parenthetical, person=self.person,
                    author_year_sep=self.author_year_sep, pre_text_sep=self.pre_text_sep,
                    post_text_sep=self.post_text_sep)
            elif isinstance(style, BasicAuthorYearTextualReferenceStyle):
                self.role_style[role] = _Textual(
                    bracket=self.bracket_textual, person=self.person,
                    text_reference_sep=self.text_reference_sep, pre_text_sep=self.pre_text_sep,
                    post_text_sep=self.post_text_sep)


register_plugin("pybtex.style.labels", "author_year", AuthorYearLabelStyle)
register_plugin("pybtex.style.sorting", "author_year_label", LabelSortingStyle)
register_plugin("pybtex.style.formatting", "plain_author_year", PlainAuthorYearStyle)
plugin.register_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_label",
                       AuthorYearLabelReferenceStyle)


def setup(app):
    return {"parallel_read_safe": True, "parallel_write_safe": True}
