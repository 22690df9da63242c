"""The errors of the book's scaffolding beyond those of :mod:`cfrlib.errors`.

Every error class of cfrbook is defined here and is a :class:`~cfrlib.errors.CfrlibError`
(``tests/test_errors.py`` checks both), so a chapter catches bad input of the library and of
the book alike.
"""

from cfrlib.errors import CfrlibError


class ExplorerError(CfrlibError):
    """An explorer (:mod:`cfrbook.interactive`) that the static page cannot show as given: a value
    outside its control, too many frames, stops of a slider too many to label, or a drawing
    function that leaves no figure."""
