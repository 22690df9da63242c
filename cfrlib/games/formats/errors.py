"""The errors of game files: each message names the file and the place in it."""

from ...errors import GameFormatError


class JsonFormatError(GameFormatError):
    """Text that is not JSON, or JSON that is not a game tree (the message gives the line and
    column, or the JSON path such as ``$.chance.outcomes.single.state.player``)."""


class EfgParseError(GameFormatError):
    """A Gambit ``.efg`` file that cannot be read (the message gives the line and column)."""


class UnknownFormatError(GameFormatError):
    """Input that is neither JSON nor Gambit ``.efg`` text, or a format name cfrlib does not know."""


class DuplicateInfosetError(GameFormatError):
    """Two different information sets of one player with the same name, for example an unnamed
    infoset ``2`` (which gets the name ``"2"``) next to another infoset named ``"2"``."""
