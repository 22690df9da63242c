"""Gambit extensive-form files (``.efg``), read and written.

A file is a prologue and the nodes of the tree in depth-first order, one record a node::

    EFG 2 R "title" { "Player 1" "Player 2" } "optional comment"
    c "node name" 1 "infoset name" { "outcome" 1/2 "other" 1/2 } 0
    p "node name" 1 1 "infoset name" { "action" "other" } 0
    t "node name" 1 "outcome name" { 1, -1 }

``c``: a chance node with its chance infoset number, optional infoset name, the outcomes with
their probabilities and an outcome number. ``p``: a node of player 1 or 2 (cfrlib's players 0
and 1) with the player's infoset number, optional name and actions. ``t``: a terminal. Every
record ends with an outcome number; the first record that uses an outcome gives its payoffs
(optionally after a name), later ones only its number, and 0 means no payoff. Outcomes may sit
on any node: a terminal's payoff is the sum of the outcomes on its path, as in Gambit. Numbers
are integers, decimals (``.8``, ``1e-3``) or rationals (``1/3``); ``R`` and ``D`` files are read
alike. An infoset's name and actions may be left out at its later nodes.

cfrlib needs a name for every infoset: an unnamed one (no name or ``""``) gets the string of
its number, as in Gambit, which is an error
(:class:`~cfrlib.errors.DuplicateInfosetError`) when another
infoset of that player already has that name. Only two-player, constant-sum, perfect-recall
games are accepted (see :mod:`cfrlib.games.explicit`). The reader is a hand-written tokenizer
and a loop over records: nothing in the file is evaluated and nesting depth does not matter.
Errors give the line and column.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import NoReturn, TypedDict, TypeVar

from ..explicit import ExplicitGame, Node
from ...errors import DuplicateInfosetError, EfgParseError
from ...game import CHANCE, TERMINAL

_TOKEN = re.compile(r"""
      (?P<space>\s+)
    | (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<number>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:/[0-9]+)?)
    | (?P<word>[A-Za-z]+)
    | (?P<punct>[{},])
""", re.VERBOSE | re.DOTALL)

_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_Item = TypeVar("_Item")
_Infoset = tuple[int, int]
"""``(player, infoset number)``, the player being ``CHANCE``, 0 or 1."""


class _RecordBase(TypedDict):
    kind: str                 # 'c', 'p' or 't'
    offset: int               # of the record in the text
    parent: int               # record number, -1 at the root
    children: list[int]
    labels: tuple[str, ...]
    probs: tuple[float, ...]
    outcome: int              # 0: none
    outcome_name: str | None
    payoffs: list[float] | None


class _Record(_RecordBase, total=False):
    """One node of the file as read; ``player``, ``infoset`` and ``name`` off terminals,
    ``payoffs_at`` (the offset of the payoffs) when the record gives payoffs."""

    player: int
    infoset: int
    name: str | None
    payoffs_at: int


class _Tokens:
    """The tokens of an ``.efg`` text, with their offsets for line:column messages."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source
        self.kinds: list[str] = []
        self.values: list[str] = []
        self.offsets: list[int] = []
        self.i = 0
        self._line_starts: list[int] | None = None
        pos, end = 0, len(text)
        while pos < end:
            match = _TOKEN.match(text, pos)
            if match is None:
                if text[pos] == '"':
                    self.fail("a string that never ends (no closing '\"')", pos)
                self.fail(f"unexpected character {text[pos]!r}", pos)
            kind = match.lastgroup or ""  # never empty: every alternative of _TOKEN is named
            if kind != "space":
                value = match.group()
                if kind == "string":
                    value = _ESCAPE.sub(r"\1", value[1:-1])
                self.kinds.append(kind if kind != "punct" else value)
                self.values.append(value)
                self.offsets.append(pos)
            pos = match.end()

    def where(self, offset: int) -> str:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._line_starts, offset)
        return f"{self.source} line {line}, column {offset - self._line_starts[line - 1] + 1}"

    def fail(self, message: str, offset: int | None = None) -> NoReturn:
        if offset is None:
            offset = self.offsets[self.i] if self.i < len(self.kinds) else len(self.text)
        raise EfgParseError(f"{self.where(offset)}: {message}")

    # -- reading tokens
    def peek(self) -> str | None:
        return self.kinds[self.i] if self.i < len(self.kinds) else None

    def take(self, kind: str, what: str) -> str:
        if self.peek() != kind:
            found = "the end of the file" if self.peek() is None else repr(self.values[self.i])
            self.fail(f"expected {what}, found {found}")
        self.i += 1
        return self.values[self.i - 1]

    def optional(self, kind: str) -> str | None:
        if self.peek() == kind:
            self.i += 1
            return self.values[self.i - 1]
        return None

    def integer(self, what: str, low: int) -> int:
        text = self.take("number", what)
        if not text.isdigit() or len(text) > 18 or int(text) < low:
            self.i -= 1
            self.fail(f"expected {what}, found {text!r}")
        return int(text)

    def number(self, what: str) -> float:
        text = self.take("number", what)
        try:
            if "/" in text:
                value = float(Fraction(text))
            else:
                value = float(text)
        except (ValueError, ZeroDivisionError, OverflowError):
            value = float("nan")
        if value != value or value in (float("inf"), float("-inf")):
            self.i -= 1
            self.fail(f"{text!r} is not a finite number")
        return value

    def braced(self, item: Callable[[], _Item]) -> list[_Item]:
        """``{ item item ... }`` with optional commas between items: the list of items."""
        self.take("{", "'{'")
        items: list[_Item] = []
        while self.peek() != "}":
            if self.peek() is None:
                self.fail("the list is not closed by '}'")
            items.append(item())
            self.optional(",")
        self.i += 1
        return items


def read_efg(text: str, source: str = "<text>", name: str = "efg game", *,
             require_constant_sum: bool = True) -> ExplicitGame:
    """The game in Gambit ``.efg`` text (``source`` names it in error messages), called by its
    title, or ``name`` when the title is empty (``require_constant_sum``: see
    :class:`~cfrlib.games.explicit.ExplicitGame`)."""
    start = len(text) - len(text.lstrip())
    if not text.startswith("EFG", start):
        line = text.count("\n", 0, start) + 1
        raise EfgParseError(f"{source} line {line}, column {start - text.rfind(chr(10), 0, start)}: "
                            f"expected 'EFG' at the start of a Gambit file, found {text[start:start + 12]!r}")
    tokens = _Tokens(text, source)
    if tokens.take("word", "'EFG 2 R'") != "EFG":
        tokens.i -= 1
        tokens.fail(f"expected 'EFG' at the start of a Gambit file, found {tokens.values[0]!r}")
    if tokens.take("number", "the version 2") != "2":
        tokens.i -= 1
        tokens.fail("only version 2 of the format ('EFG 2 R' or 'EFG 2 D') is supported")
    if tokens.take("word", "'R' or 'D'") not in ("R", "D"):
        tokens.i -= 1
        tokens.fail("expected 'R' (rational) or 'D' (decimal) after 'EFG 2'")
    title = tokens.take("string", "the game's title in double quotes")
    players_at = tokens.offsets[tokens.i] if tokens.i < len(tokens.offsets) else len(text)
    players = tokens.braced(lambda: tokens.take("string", "a player name in double quotes"))
    if len(players) != 2:
        tokens.fail(f"{len(players)} players; cfrlib solves two-player games", players_at)
    tokens.optional("string")  # the comment

    records = _read_records(tokens)
    outcomes = _outcome_payoffs(records, tokens)
    names = _infoset_names(records, tokens)
    nodes: list[Node] = []
    payoffs: list[tuple[float, float]] = []  # of each record: the sum of the outcomes on its path
    for n, r in enumerate(records):
        parent_payoff = payoffs[r["parent"]] if r["parent"] >= 0 else (0.0, 0.0)  # parents come first
        own = outcomes[r["outcome"]] if r["outcome"] else (0.0, 0.0)
        payoffs.append((parent_payoff[0] + own[0], parent_payoff[1] + own[1]))
        if r["kind"] == "t":
            nodes.append(Node(TERMINAL, payoffs=payoffs[n]))
        else:
            player = CHANCE if r["kind"] == "c" else r["player"]
            nodes.append(Node(player, names[(player, r["infoset"])], r["labels"],
                              tuple(r["children"]), r["probs"]))
    offsets = [r["offset"] for r in records]
    return ExplicitGame(nodes, name=title or name, locate=lambda game, n: tokens.where(offsets[n]),
                        require_constant_sum=require_constant_sum)


def _read_records(tokens: _Tokens) -> list[_Record]:
    """The node records in file order, with parents and children linked (no recursion)."""
    records: list[_Record] = []
    open_nodes: list[list[int]] = []  # [record number, children still to read]
    # (player, infoset number) -> (labels, probs) from its first full record
    defined: dict[_Infoset, tuple[tuple[str, ...], tuple[float, ...]]] = {}
    while True:
        if records and not open_nodes:
            if tokens.peek() is not None:
                tokens.fail("text after the end of the tree (every node's children are complete)")
            return records
        offset = tokens.offsets[tokens.i] if tokens.i < len(tokens.kinds) else len(tokens.text)
        kind = tokens.take("word", "a node: 'c', 'p' or 't'" if records else
                           "the root node: 'c', 'p' or 't'")
        if kind not in ("c", "p", "t"):
            tokens.i -= 1
            tokens.fail(f"expected a node: 'c', 'p' or 't', found {kind!r}")
        tokens.take("string", "the node's name in double quotes")
        record: _Record = {"kind": kind, "offset": offset, "children": [], "labels": (), "probs": (),
                           "parent": open_nodes[-1][0] if open_nodes else -1, "outcome": 0,
                           "outcome_name": None, "payoffs": None}
        if kind != "t":
            player = CHANCE if kind == "c" else tokens.integer("the player number, 1 or 2", 1) - 1
            if player not in (CHANCE, 0, 1):
                tokens.i -= 1
                tokens.fail(f"player {player + 1}: the game has players 1 and 2")
            infoset = tokens.integer("the information set number (1, 2, ...)", 1)
            record["player"], record["infoset"] = player, infoset
            record["name"] = tokens.optional("string")
            labels: tuple[str, ...]
            probs: tuple[float, ...]
            if tokens.peek() == "{":
                if kind == "c":
                    pairs = tokens.braced(lambda: (tokens.take("string", "an outcome name in double quotes"),
                                                   tokens.number("the outcome's probability")))
                    labels, probs = tuple(a for a, _ in pairs), tuple(q for _, q in pairs)
                else:
                    labels = tuple(tokens.braced(lambda: tokens.take("string", "an action name in double quotes")))
                    probs = ()
                defined.setdefault((player, infoset), (labels, probs))
            elif (player, infoset) in defined:
                labels, probs = defined[(player, infoset)]
            else:
                who = "chance" if kind == "c" else f"player {player + 1}'s"
                tokens.fail(f"{who} infoset {infoset} needs its list of actions here: "
                            "it has not been given earlier in the file")
            record["labels"], record["probs"] = labels, probs
        record["outcome"] = tokens.integer("the outcome number (0 for none)", 0)
        record["outcome_name"] = tokens.optional("string")
        if tokens.peek() == "{":
            record["payoffs_at"] = tokens.offsets[tokens.i]
            record["payoffs"] = tokens.braced(lambda: tokens.number("a payoff"))
        n = len(records)
        records.append(record)
        if open_nodes:
            parent = open_nodes[-1]
            records[parent[0]]["children"].append(n)
            parent[1] -= 1
            if parent[1] == 0:
                open_nodes.pop()
        if kind != "t" and record["labels"]:
            open_nodes.append([n, len(record["labels"])])
        if tokens.peek() is None and open_nodes:
            r = records[open_nodes[-1][0]]
            tokens.fail(f"the file ends before the tree is complete: the node at "
                        f"{tokens.where(r['offset'])} still needs {open_nodes[-1][1]} more child node(s)")


def _outcome_payoffs(records: list[_Record], tokens: _Tokens) -> dict[int, tuple[float, ...]]:
    """``{outcome number: (u_0, u_1)}``, each outcome's payoffs given once (or repeated alike)."""
    payoffs: dict[int, tuple[float, ...]] = {}
    first: dict[int, int] = {}
    for r in records:
        number, given = r["outcome"], r["payoffs"]
        if given is None:
            continue
        if number == 0:
            tokens.fail("outcome 0 means 'no payoff' and cannot have payoffs", r["payoffs_at"])
        if len(given) != 2:
            tokens.fail(f"outcome {number} has {len(given)} payoffs; a two-player game needs 2",
                        r["payoffs_at"])
        if number in payoffs and payoffs[number] != tuple(given):
            tokens.fail(f"outcome {number} has payoffs {list(given)} here but "
                        f"{list(payoffs[number])} at {tokens.where(first[number])}", r["payoffs_at"])
        payoffs.setdefault(number, tuple(given))
        first.setdefault(number, r["payoffs_at"])
    for r in records:
        if r["outcome"] and r["outcome"] not in payoffs:
            tokens.fail(f"outcome {r['outcome']} is used but its payoffs are never given", r["offset"])
    return payoffs


def _infoset_names(records: list[_Record], tokens: _Tokens) -> dict[_Infoset, str]:
    """``{(player, infoset number): name}``: the name given in the file, else the number's string."""
    given: dict[_Infoset, tuple[str, int]] = {}
    first: dict[_Infoset, int] = {}
    for r in records:
        if r["kind"] == "t":
            continue
        ident = (r["player"], r["infoset"])
        first.setdefault(ident, r["offset"])
        name = r["name"]
        if name:
            if ident in given and given[ident][0] != name:
                tokens.fail(f"{_who(ident)} infoset {ident[1]} is called {name!r} here but "
                            f"{given[ident][0]!r} at {tokens.where(given[ident][1])}", r["offset"])
            given.setdefault(ident, (name, r["offset"]))
    names: dict[_Infoset, str] = {}
    owner: dict[tuple[int, str], _Infoset] = {}
    for ident in sorted(first, key=first.__getitem__):
        name = given[ident][0] if ident in given else str(ident[1])
        key = (ident[0], name)
        if key in owner:
            other = owner[key]
            unnamed = next((i for i in (ident, other) if i not in given), None)
            hint = (f"; infoset {unnamed[1]} has no name, so it is called {name!r}: give it one"
                    if unnamed else "")
            raise DuplicateInfosetError(
                f"{tokens.where(first[ident])}: {_who(ident)} infosets {other[1]} (first at "
                f"{tokens.where(first[other])}) and {ident[1]} are both called {name!r}{hint}")
        owner[key] = ident
        names[ident] = name
    return names


def _who(ident: _Infoset) -> str:
    return "chance" if ident[0] == CHANCE else f"player {ident[0] + 1}'s"


# ------------------------------------------------------------------------------- writing
def write_efg(game: ExplicitGame) -> str:
    """The ``.efg`` text of ``game`` (an :class:`~cfrlib.games.explicit.ExplicitGame`), nodes in
    depth-first order.

    Infosets are numbered in order of first appearance and keep their names; chance nodes
    without an infoset name get an infoset each. Every distinct payoff pair is one outcome,
    named after its payoffs. Probabilities and payoffs are written exactly (as ``1/3`` when a
    small fraction is exact, else as decimals).
    """
    lines = [f'EFG 2 R {_quote(game.name)} {{ "Player 1" "Player 2" }}', '""', ""]
    infosets: dict[tuple[int, str | tuple[str, int]], int] = {}  # unnamed chance infosets: by line
    outcomes: dict[tuple[float, ...], int] = {}
    count = {CHANCE: 0, 0: 0, 1: 0}  # infosets numbered so far, per player
    stack = [0]
    while stack:
        node = game.nodes[stack.pop()]
        if node.player == TERMINAL:
            pair = tuple(node.payoffs)
            if pair not in outcomes:
                outcomes[pair] = len(outcomes) + 1
                text = ", ".join(_efg_number(u) for u in pair)
                lines.append(f't "" {outcomes[pair]} {_quote(text)} {{ {text} }}')
            else:
                lines.append(f't "" {outcomes[pair]}')
            continue
        ident: tuple[int, str | tuple[str, int]] = (node.player, node.infoset if node.infoset is not None else ("node", len(lines)))
        if ident not in infosets:
            count[node.player] += 1
            infosets[ident] = count[node.player]
        number = infosets[ident]
        name = _quote(node.infoset if node.infoset is not None else "")
        if node.player == CHANCE:
            moves = " ".join(f"{_quote(a)} {_efg_number(q)}" for a, q in zip(node.labels, node.probs))
            lines.append(f'c "" {number} {name} {{ {moves} }} 0')
        else:
            moves = " ".join(_quote(a) for a in node.labels)
            lines.append(f'p "" {node.player + 1} {number} {name} {{ {moves} }} 0')
        stack.extend(reversed(node.children))
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _efg_number(x: float) -> str:
    """``x`` exactly: an integer, a short decimal, a fraction ``p/q`` with ``q <= 10000`` that
    equals ``x`` as a float, or else the shortest round-tripping decimal."""
    x = float(x)
    if x == int(x):
        return str(int(x))
    text = repr(x)
    if "e" not in text and len(text) <= 8:
        return text
    fraction = Fraction(x).limit_denominator(10000)
    if float(fraction) == x:
        return f"{fraction.numerator}/{fraction.denominator}"
    return format(Decimal(text), "f")
