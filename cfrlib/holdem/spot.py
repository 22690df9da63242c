"""Bet sizes and the tree configuration of a no-limit spot, as players write them.

The notation and its meaning are postflop-solver's (``BetSizeOptions``, ``DonkSizeOptions``,
``TreeConfig``), so that one spot can be built in both programs and compared:

======== ===================================================================================
token    size
======== ===================================================================================
``60%``  a fraction of the pot (the pot after the player calls what it faces)
``2.5x`` (raises only) a multiple of the previous bet or raise
``e``    the geometric size: the fraction ``f`` of the pot such that betting ``f`` of the
         pot on each remaining street (``3e``: on 3 streets) puts the whole stack in,
         ``((2 spr + 1)^(1/n) - 1) / 2`` with ``spr`` the stack left after a call over that
         pot; ``e200%`` caps it at 200% of the pot
``a``    all-in
``100c`` a fixed number of chips (``50c3r``: on a raise, only while at most 3 bets and raises
         were made on this street)
======== ===================================================================================

Sizes are comma separated (``"60%, e, a"``), case does not matter. The thresholds:
``add_allin_threshold`` offers all-in as well when it is at most that many pots (1.5: all-in
when the stack is at most 1.5 pots); ``force_allin_threshold`` turns a bet into all-in when the
stack left behind would be at most that fraction of the pot after the call; ``merging_threshold``
drops a bet whose size (as a pot fraction) lies within that relative distance of the next larger
one kept. Amounts are whole chips, rounded half away from zero as Rust's ``f64::round`` does.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..errors import SpotError

STREETS = ("flop", "turn", "river")
"""The streets a spot may start on; a tree's nodes carry the index (0 flop, 1 turn, 2 river)."""

_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)")


@dataclass(frozen=True)
class BetSize:
    """One size. ``kind`` is ``"pot"`` (``value`` = fraction of the pot), ``"previous"``
    (``value`` = multiple of the previous bet), ``"chips"`` (``value`` chips, at most ``cap``
    bets on the street when ``cap`` > 0), ``"geometric"`` (over ``streets`` streets, 0 = the
    streets left; at most ``value`` pots) or ``"allin"``."""

    kind: str
    value: float = 0.0
    streets: int = 0
    cap: int = 0


def _number(text: str, token: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise SpotError(f"bad bet size {token!r}: {text!r} is not a number")
    return float(text)


def _whole(text: str, token: str, what: str, largest: int) -> int:
    value = _number(text, token)
    if value != int(value) or not 0 < value <= largest:
        raise SpotError(f"bad bet size {token!r}: {what} must be a whole number in 1..{largest}")
    return int(value)


def parse_bet_size(token: str, raise_: bool = False) -> BetSize:
    """One token (see the module docstring); ``raise_`` allows the raise-only forms."""
    s = token.strip().lower()
    if s.endswith("x"):
        if not raise_:
            raise SpotError(f"bad bet size {token!r}: 'x' (a multiple of the previous bet) is for raises")
        multiple = _number(s[:-1], token)
        if multiple <= 1.0:
            raise SpotError(f"bad bet size {token!r}: the multiple must be greater than 1")
        return BetSize("previous", multiple)
    if "c" in s:
        chips, _, cap = s.partition("c")
        value = _number(chips, token)
        if value != int(value):
            raise SpotError(f"bad bet size {token!r}: chips must be a whole number")
        if not cap:
            return BetSize("chips", value)
        if not raise_:
            raise SpotError(f"bad bet size {token!r}: a raise cap ('r') is for raises")
        if not cap.endswith("r"):
            raise SpotError(f"bad bet size {token!r}: after 'c' only a raise cap such as '3r' may follow")
        return BetSize("chips", value, cap=_whole(cap[:-1], token, "the raise cap", 100))
    if "e" in s:
        streets, _, cap = s.partition("e")
        n = _whole(streets, token, "the number of streets", 100) if streets else 0
        if not cap:
            return BetSize("geometric", math.inf, n)
        if not cap.endswith("%"):
            raise SpotError(f"bad bet size {token!r}: the cap after 'e' is a percentage such as 'e200%'")
        return BetSize("geometric", _number(cap[:-1], token) / 100.0, n)
    if s.endswith("%"):
        return BetSize("pot", _number(s[:-1], token) / 100.0)
    if s == "a":
        return BetSize("allin")
    raise SpotError(f"bad bet size {token!r}: expected a size such as '60%', '2.5x', 'e', 'a' or '100c'")


def parse_bet_sizes(text: str, raise_: bool = False) -> tuple[BetSize, ...]:
    """The comma-separated sizes of ``text`` (a trailing comma is allowed; ``""`` is none)."""
    if not isinstance(text, str):
        raise SpotError(f"bet sizes must be a string such as '60%, e, a', got {text!r}")
    tokens = [t.strip() for t in text.split(",")]
    if tokens and not tokens[-1]:
        tokens.pop()
    if any(not t for t in tokens):
        raise SpotError(f"bad bet sizes {text!r}: an empty size between commas")
    return tuple(parse_bet_size(t, raise_) for t in tokens)


@dataclass(frozen=True)
class BetSizes:
    """One player's sizes on one street: first bets and raises."""

    bet: tuple[BetSize, ...] = ()
    raise_: tuple[BetSize, ...] = ()

    @classmethod
    def parse(cls, bet: str, raise_: str = "") -> BetSizes:
        return cls(parse_bet_sizes(bet), parse_bet_sizes(raise_, raise_=True))


def _sizes(value: BetSizes | tuple[str, str] | str) -> BetSizes:
    if isinstance(value, BetSizes):
        return value
    if isinstance(value, str):
        return BetSizes.parse(value)
    if isinstance(value, tuple) and len(value) == 2:
        return BetSizes.parse(*value)
    raise SpotError(f"bet sizes must be BetSizes, a (bets, raises) pair of strings or a string, got {value!r}")


def _per_player(value: object) -> tuple[BetSizes, BetSizes]:
    """The same sizes for both players, or a list ``[OOP, IP]``."""
    if isinstance(value, list):
        if len(value) != 2:
            raise SpotError(f"per-player bet sizes are a list [OOP, IP], got {len(value)} entries")
        return _sizes(value[0]), _sizes(value[1])
    size = _sizes(value)  # type: ignore[arg-type]
    return size, size


def _non_negative(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise SpotError(f"{name} must be a non-negative number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class TreeConfig:
    """A spot's betting: the street it starts on, the pot, the effective stack, each street's
    sizes for [OOP, IP], the donk sizes (a bet by OOP leading into the player who ended the
    previous street by betting and being called; None: OOP's usual bets) and the thresholds.

    ``bets`` maps a street name to the sizes of both players, given as ``BetSizes``, a
    ``(bets, raises)`` pair of strings, or a list ``[OOP, IP]`` of those; a street left out has no bets.
    """

    street: str
    starting_pot: int
    effective_stack: int
    bets: dict[str, tuple[BetSizes, BetSizes]] = field(default_factory=dict)
    turn_donk: tuple[BetSize, ...] | None = None
    river_donk: tuple[BetSize, ...] | None = None
    add_allin_threshold: float = 0.0
    force_allin_threshold: float = 0.0
    merging_threshold: float = 0.0

    def __init__(self, street: str, starting_pot: int, effective_stack: int, bets: dict[str, object] | None = None,
                 *, turn_donk: str | None = None, river_donk: str | None = None, add_allin_threshold: float = 0.0,
                 force_allin_threshold: float = 0.0, merging_threshold: float = 0.0) -> None:
        if street not in STREETS:
            raise SpotError(f"street must be one of {STREETS}, got {street!r}")
        for name, chips in (("starting_pot", starting_pot), ("effective_stack", effective_stack)):
            if isinstance(chips, bool) or not isinstance(chips, int) or chips <= 0:
                raise SpotError(f"{name} must be a positive whole number of chips, got {chips!r}")
        bets = dict(bets or {})
        unknown = set(bets) - set(STREETS)
        if unknown:
            raise SpotError(f"bet sizes for unknown streets {sorted(unknown)}; the streets are {STREETS}")
        put = object.__setattr__
        put(self, "street", street)
        put(self, "starting_pot", starting_pot)
        put(self, "effective_stack", effective_stack)
        put(self, "bets", {s: _per_player(bets[s]) if s in bets else (BetSizes(), BetSizes()) for s in STREETS})
        put(self, "turn_donk", None if turn_donk is None else parse_bet_sizes(turn_donk))
        put(self, "river_donk", None if river_donk is None else parse_bet_sizes(river_donk))
        put(self, "add_allin_threshold", _non_negative(add_allin_threshold, "add_allin_threshold"))
        put(self, "force_allin_threshold", _non_negative(force_allin_threshold, "force_allin_threshold"))
        put(self, "merging_threshold", _non_negative(merging_threshold, "merging_threshold"))

    @property
    def first_street(self) -> int:
        """The index of the street the spot starts on (0 flop, 1 turn, 2 river)."""
        return STREETS.index(self.street)

    def donk_sizes(self, street: int) -> tuple[BetSize, ...] | None:
        return (None, self.turn_donk, self.river_donk)[street]
