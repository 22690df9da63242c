"""Who can be "to act" at a history besides players 0 and 1: the two pseudo-players.

The lowest layer of cfrlib: the state API (:mod:`cfrlib.game`) and the compiled tree
(:mod:`cfrlib.tree`) both take these from here, and :mod:`cfrlib.game` re-exports them.
"""

CHANCE = -1
"""The pseudo-player who deals cards and rolls dice."""

TERMINAL = -2
"""The pseudo-player of a finished game."""
