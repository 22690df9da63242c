"""Games from files and games to files: the JSON tree format of the Rust ``cfr`` crate and
Gambit ``.efg``.

``load`` reads a file or a string of text and tells the format from the content (JSON starts
with ``{``, Gambit with ``EFG``), then from the file's suffix; ``format="json"`` or ``"efg"``
forces one and gives that format's detailed error. ``save`` writes either format (from the
suffix), so that Kuhn, Leduc or a game of your own can go to Gambit and come back unchanged::

    from cfrlib import games
    games.save(games.kuhn(), "kuhn.efg")
    game = games.load("kuhn.efg")       # an ExplicitGame with the same tree as games.kuhn()

Every problem is a :class:`~cfrlib.errors.GameFormatError` or a
:class:`~cfrlib.errors.GameError` whose message names the file and the place in it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, Union

from ...errors import (DuplicateInfosetError, EfgParseError, GameFormatError, JsonFormatError,
                      UnknownFormatError)
from ...game import Game
from ..explicit import ExplicitGame, explicit_from_game
from .efg import read_efg, write_efg
from .json_tree import read_json, write_json

Format = Literal["json", "efg"]
"""The name of a file format, ``"json"`` (the Rust ``cfr`` crate's tree) or ``"efg"`` (Gambit)."""
FORMATS: tuple[Format, ...] = ("json", "efg")
_SUFFIXES: dict[str, Format] = {".json": "json", ".efg": "efg"}
Source = Union[str, bytes, bytearray, "os.PathLike[str]"]
"""What :func:`load` reads, a path or the text of a game (``str`` or UTF-8 ``bytes``)."""

__all__ = ["DuplicateInfosetError", "EfgParseError", "FORMATS", "JsonFormatError",
           "UnknownFormatError", "dumps", "load", "save"]


def load(source: Source, format: Format | None = None, *,
         require_constant_sum: bool = True) -> ExplicitGame:
    """The game in ``source``: a path, JSON or ``.efg`` text (``str`` or ``bytes``).

    A string is read as text when it holds a newline or starts like a game (``{`` or ``EFG``),
    otherwise as a file name. ``format`` (``"json"`` or ``"efg"``) skips the detection.
    ``require_constant_sum=False`` loads a game that is not constant-sum for inspection only
    (see :class:`~cfrlib.games.explicit.ExplicitGame`); JSON games are always zero-sum.
    """
    _check_format(format)
    text, where, stem = _read(source)
    if format is None:
        format = _detect(text, where)
    if format == "json":
        return read_json(text, where, name=stem or "json game")
    return read_efg(text, where, name=stem or "efg game", require_constant_sum=require_constant_sum)


def dumps(game: Game, format: Format) -> str:
    """``game`` (any cfrlib game) as JSON or ``.efg`` text."""
    _check_format(format)
    if format not in FORMATS:  # None, after the check
        raise UnknownFormatError("dumps needs format='json' or format='efg'")
    explicit = explicit_from_game(game)
    return write_json(explicit) if format == "json" else write_efg(explicit)


def save(game: Game, path: str | os.PathLike[str], format: Format | None = None) -> Path:
    """Write ``game`` to ``path`` in the format of its suffix (``.json``, ``.efg``) or ``format``."""
    _check_format(format)
    path = Path(path)
    if format is None:
        format = _SUFFIXES.get(path.suffix.lower())
        if format is None:
            raise UnknownFormatError(f"{path}: cannot tell the format from the suffix "
                                     f"{path.suffix!r}; use .json or .efg, or pass format=")
    path.write_text(dumps(game, format), encoding="utf-8")
    return path


def _check_format(format: object) -> None:
    if format is not None and format not in FORMATS:
        raise UnknownFormatError(f"unknown format {format!r}; cfrlib reads and writes 'json' and 'efg'")


def _read(source: object) -> tuple[str, str, str | None]:
    """``(text, description for messages, file stem or None)``."""
    if isinstance(source, (bytes, bytearray)):
        return _decode(bytes(source), "<text>"), "<text>", None
    if isinstance(source, str) and ("\n" in source or _looks_like_a_game(source)):
        return source, "<text>", None
    if not isinstance(source, (str, os.PathLike)):
        raise GameFormatError(f"expected a path or the text of a game, got {type(source).__name__}")
    path = Path(source)
    if not path.is_file():
        if isinstance(source, str) and not path.exists():
            raise UnknownFormatError(f"{source!r} is not a file, nor JSON or Gambit .efg text")
        raise GameFormatError(f"{path}: no such file")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise GameFormatError(f"{path}: cannot be read ({err.strerror})") from None
    return _decode(data, path.name), path.name, path.stem


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UnknownFormatError(f"{where}: not a text file (byte {err.start} is not UTF-8); "
                                 "expected JSON or Gambit .efg text") from None


def _looks_like_a_game(text: str) -> bool:
    return text.lstrip().startswith(("{", "[", "EFG"))


def _detect(text: str, where: str) -> Format:
    start = text.lstrip()
    if start.startswith(("{", "[")):
        return "json"
    if start.startswith("EFG"):
        return "efg"
    suffix = Path(where).suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    shown = start[:24] + ("..." if len(start) > 24 else "")
    raise UnknownFormatError(f"{where}: neither JSON (which starts with '{{') nor a Gambit game "
                             f"(which starts with 'EFG 2'), found {shown!r}; pass format='json' "
                             "or format='efg' for a detailed error")
