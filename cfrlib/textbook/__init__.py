"""Textbook implementations: short, recursive, dictionary-based versions of the algorithms,
written to be read next to the math in the chapters. The fast engines in :mod:`cfrlib.solvers`
and :mod:`cfrlib.evaluation` compute the same numbers; the tests check that they agree."""
