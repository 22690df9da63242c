"""The JSON game-tree format of the Rust ``cfr`` crate, read and written exactly.

A node is one of::

    {"terminal": <number>}                       player 0's payoff (player 1 gets its negative)
    {"chance": {"infoset": <string>,             optional: chance nodes with one distribution
                "outcomes": {"<outcome>": {"prob": <number>, "state": <node>}, ...}}}
    {"player": {"player_one": <bool>,            true for player 0, false for player 1
                "infoset": <string>,
                "actions": {"<action>": <node>, ...}}}

Outcomes and actions keep the order of the file. As in the Rust crate, other keys inside
``chance``, ``player`` and outcome objects are ignored; a repeated key is an error rather than
silently dropped. Errors name the place: a line and column for text that is not JSON, a JSON
path such as ``$.chance.outcomes.single.state.player`` for JSON that is not a game tree.

Nothing here recurses, so a game of any depth loads: a game tree is JSON nested once per
move, and a long game (a chain of 3,000 moves, say) is nested deeper than any recursive reader
goes. See :func:`parse_json` for why that takes a reader of our own. Payoffs are player 0's only, so a constant-sum game with a non-zero
sum is written as the zero-sum game with the same ``u_0`` (and the same equilibria).
"""

from __future__ import annotations

import json
import math
import re
from collections import deque
from dataclasses import dataclass
from typing import NoReturn, TypeVar, Union

from ..explicit import ExplicitGame, Node
from ...errors import JsonFormatError
from ...game import CHANCE, TERMINAL

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = {"true": True, "false": False, "null": None}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_DECODER = json.JSONDecoder()  # its raw_decode reads one string at a time for the iterative reader


class JsonObject(list[tuple[str, "JsonValue"]]):
    """A JSON object as its list of ``(key, value)`` pairs: order and repeated keys are kept."""


JsonValue = Union[None, bool, int, float, str, list["JsonValue"], JsonObject]
"""A value read by :func:`parse_json`, where objects are lists of ``(key, value)`` pairs."""
_Kind = TypeVar("_Kind", JsonObject, str, bool)


@dataclass
class _Open:
    """A container the iterative reader is filling, and the key of an object's next value."""

    container: list[JsonValue] | JsonObject
    key: str = ""


def _reject_constant(name: str) -> NoReturn:
    """Refuse NaN and Infinity, which Python's reader accepts and JSON does not (the iterative
    reader then names their place)."""
    raise JsonFormatError(f"{name} is not JSON")


def parse_json(text: str, source: str = "<text>") -> JsonValue:
    """Parse strict JSON into Python values, objects as ordered ``(key, value)`` pair lists.

    Why not just the standard :mod:`json` module: it recurses once per level of nesting, so a
    game tree deeper than the recursion limit (about 1,000 levels) raises ``RecursionError``,
    without a place; it also reads ``NaN`` and ``Infinity``, which are not JSON. It is still
    used first, for speed (it is written in C), and ``_parse_iteratively``, the same
    grammar with an explicit stack instead of recursion, reads what it refuses: the deep text,
    or a mistake, which it then names by line and column (tests/test_formats.py checks both
    readers agree, a 3,000-move game and a 200,000-deep error). The libraries we looked at do
    not give both guarantees: ``orjson`` stops at 1,024 levels of nesting (since 3.9.15) and
    ``ijson`` reads any depth but reports errors as a quoted excerpt, without line and column.
    """
    try:
        return json.loads(text, object_pairs_hook=JsonObject, parse_constant=_reject_constant)
    except (ValueError, RecursionError):  # JsonFormatError included
        return _parse_iteratively(text, source)


def _parse_iteratively(text: str, source: str) -> JsonValue:
    """The same language as :func:`parse_json`, with an explicit stack instead of recursion."""
    stack: list[_Open] = []  # the open containers
    pos, end = _skip(text, 0), len(text)
    value: JsonValue

    def fail(message: str, at: int) -> NoReturn:
        line = text.count("\n", 0, at) + 1
        column = at - text.rfind("\n", 0, at)
        raise JsonFormatError(f"{source}: not valid JSON at line {line}, column {column}: {message}")

    def key_and_colon(at: int) -> int:
        if text.startswith('"', at):
            try:
                key, at = _DECODER.raw_decode(text, at)
            except json.JSONDecodeError as err:
                fail(err.msg, err.pos)
            at = _skip(text, at)
            if text.startswith(":", at):
                stack[-1].key = key
                return _skip(text, at + 1)
            fail("expected ':' after an object key", at)
        fail("expected a string key in double quotes", at)

    while True:
        if pos >= end:
            fail("expected a value, found the end of the text", pos)
        char = text[pos]
        if char in "{[":
            pos = _skip(text, pos + 1)
            closing = "}" if char == "{" else "]"
            if text.startswith(closing, pos):
                value, pos = (JsonObject() if char == "{" else []), pos + 1
            else:
                stack.append(_Open(JsonObject() if char == "{" else []))
                if char == "{":
                    pos = key_and_colon(pos)
                continue
        elif char == '"':
            try:
                value, pos = _DECODER.raw_decode(text, pos)
            except json.JSONDecodeError as err:
                fail(err.msg, err.pos)
        elif (match := _NUMBER.match(text, pos)) is not None:
            try:
                value = float(match.group()) if match.group(1, 2) != (None, None) else int(match.group())
            except ValueError:
                fail("a number with too many digits", pos)
            pos = match.end()
        else:
            word = re.match(r"[A-Za-z]+", text[pos:pos + 16])
            if word is None or word.group() not in _LITERALS:
                found = repr(word.group()) if word else repr(char)
                fail(f"expected a value, found {found}", pos)
            value, pos = _LITERALS[word.group()], pos + len(word.group())
        # A value is complete: attach it, closing every container it completes.
        while True:
            pos = _skip(text, pos)
            if not stack:
                if pos != end:
                    fail("extra text after the JSON value", pos)
                return value
            container, key = stack[-1].container, stack[-1].key
            if isinstance(container, JsonObject):
                container.append((key, value))
            else:
                container.append(value)
            closing = "}" if isinstance(container, JsonObject) else "]"
            if text.startswith(",", pos):
                pos = _skip(text, pos + 1)
                if isinstance(container, JsonObject):
                    pos = key_and_colon(pos)
                break
            if not text.startswith(closing, pos):
                fail(f"expected ',' or '{closing}'", pos)
            value, pos = stack.pop().container, pos + 1


def _skip(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    assert match is not None  # the pattern matches the empty string
    return match.end()


# ------------------------------------------------------------------------------- reading
def read_json(text: str, source: str = "<text>", name: str = "json game") -> ExplicitGame:
    """The game written as a JSON tree in ``text`` (``source`` names it in error messages)."""
    frontier = deque([(parse_json(text, source), "$")])  # met but not yet read: only these are kept
    nodes: list[Node] = []
    while frontier:
        value, path = frontier.popleft()
        met = len(nodes) + 1 + len(frontier)  # the nodes met so far; the next one met gets this number
        kind, body = _node_kind(value, path, source)
        path = f"{path}.{kind}"
        if kind == "terminal":
            u0 = _number(body, path, source)
            nodes.append(Node(TERMINAL, payoffs=(u0, -u0)))
            continue
        fields = _fields(_expect(body, JsonObject, path, source), path, source)
        if kind == "chance":
            outcomes = _fields(_required_as(fields, "outcomes", path, source, JsonObject),
                               f"{path}.outcomes", source)
            labels: list[str] = []
            probs: list[float] = []
            for label, outcome in outcomes.items():
                where = f"{path}.outcomes{_key(label)}"
                parts = _fields(_expect(outcome, JsonObject, where, source), where, source)
                probs.append(_number(_required(parts, "prob", where, source), where + ".prob", source))
                frontier.append((_required(parts, "state", where, source), where + ".state"))
                labels.append(label)
            infoset = fields.get("infoset")
            node = Node(CHANCE, None if infoset is None else _expect(infoset, str, f"{path}.infoset", source),
                        tuple(labels), (), tuple(probs))
        else:
            player_one = _required_as(fields, "player_one", path, source, bool)
            infoset = _required_as(fields, "infoset", path, source, str)
            actions = _fields(_required_as(fields, "actions", path, source, JsonObject),
                              f"{path}.actions", source)
            frontier.extend((child, f"{path}.actions{_key(label)}") for label, child in actions.items())
            node = Node(0 if player_one else 1, infoset, tuple(actions), ())
        nodes.append(Node(node.player, node.infoset, node.labels,
                          tuple(range(met, len(nodes) + 1 + len(frontier))), node.probs))
    return ExplicitGame(nodes, name=name, locate=lambda game, n: f"{source} at {json_path(game, n)}")


def json_path(game: ExplicitGame, n: int) -> str:
    """The JSON path of node ``n`` of ``game`` as the JSON format writes it, ending in its kind."""
    steps = []
    child = n
    while child > 0:
        parent = game.parents[child]
        node = game.nodes[parent]
        label = _key(node.labels[node.children.index(child)])
        steps.append(f".chance.outcomes{label}.state" if node.player == CHANCE
                     else f".player.actions{label}")
        child = parent
    kind = {TERMINAL: "terminal", CHANCE: "chance"}.get(game.nodes[n].player, "player")
    return "$" + "".join(reversed(steps)) + "." + kind


def _node_kind(value: JsonValue, path: str, source: str) -> tuple[str, JsonValue]:
    """``(kind, body)`` of a node object, which has exactly one of the three keys."""
    if not isinstance(value, JsonObject) or len(value) != 1 or value[0][0] not in ("terminal", "chance", "player"):
        found = ("keys " + ", ".join(repr(k) for k, _ in value)) if isinstance(value, JsonObject) else _kind_of(value)
        raise JsonFormatError(f"{source} at {path}: a node is an object with exactly one key, "
                              f"'terminal', 'chance' or 'player'; found {found}")
    return value[0]


def _fields(obj: JsonObject, path: str, source: str) -> dict[str, JsonValue]:
    keys = [k for k, _ in obj]
    if len(set(keys)) != len(keys):
        repeated = next(k for i, k in enumerate(keys) if k in keys[:i])
        raise JsonFormatError(f"{source} at {path}: the key {repeated!r} appears twice")
    return dict(obj)


def _required(fields: dict[str, JsonValue], key: str, path: str, source: str) -> JsonValue:
    if key not in fields:
        raise JsonFormatError(f"{source} at {path}: missing the key {key!r}")
    return fields[key]


def _required_as(fields: dict[str, JsonValue], key: str, path: str, source: str,
                 kind: type[_Kind]) -> _Kind:
    return _expect(_required(fields, key, path, source), kind, f"{path}{_key(key)}", source)


def _expect(value: JsonValue, kind: type[_Kind], path: str, source: str) -> _Kind:
    if not isinstance(value, kind):
        wanted = {JsonObject: "an object", str: "a string", bool: "true or false"}[kind]
        raise JsonFormatError(f"{source} at {path}: expected {wanted}, found {_kind_of(value)}")
    return value


def _number(value: JsonValue, path: str, source: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise JsonFormatError(f"{source} at {path}: expected a number, found {_kind_of(value)}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise JsonFormatError(f"{source} at {path}: {value!r} is too large for a float")
    return number


def _kind_of(value: JsonValue) -> str:
    if isinstance(value, JsonObject):
        return "an object"
    return {list: "an array", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), f"the number {value!r}" if isinstance(value, (int, float)) else repr(value))


def _key(label: str) -> str:
    return f".{label}" if _IDENTIFIER.match(label) else f"[{json.dumps(label)}]"


# ------------------------------------------------------------------------------- writing
_MAX_INDENT_LEVEL = 60


def write_json(game: ExplicitGame, indent: int = 2) -> str:
    """The JSON tree of ``game`` (an :class:`~cfrlib.games.explicit.ExplicitGame`), with player 0's
    payoffs at terminals.

    Indentation stops growing after 60 levels, so that the text of a deep tree stays
    proportional to its number of nodes.
    """
    out: list[str] = []
    work: list[tuple[int, int] | str] = [(0, 0)]  # (node, depth) to write, or a piece of text
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        n, depth = item
        node = game.nodes[n]
        if node.player == TERMINAL:
            out.append(f'{{"terminal": {_json_number(node.payoffs[0])}}}')
            continue
        pad = [" " * (indent * min(depth + k, _MAX_INDENT_LEVEL)) for k in range(4)]
        pieces: list[tuple[int, int] | str] = []
        if node.player == CHANCE:
            head = [f'{{\n{pad[1]}"chance": {{\n']
            if node.infoset is not None:
                head.append(f'{pad[2]}"infoset": {json.dumps(node.infoset)},\n')
            head.append(f'{pad[2]}"outcomes": {{\n')
            pieces.append("".join(head))
            for i, (label, c, q) in enumerate(zip(node.labels, node.children, node.probs)):
                comma = "," if i + 1 < len(node.labels) else ""
                pieces += [f'{pad[3]}{json.dumps(label)}: {{"prob": {_json_number(q)}, "state": ',
                           (c, depth + 3), f"}}{comma}\n"]
            pieces.append(f"{pad[2]}}}\n{pad[1]}}}\n{pad[0]}}}")
        else:
            pieces.append(f'{{\n{pad[1]}"player": {{\n'
                          f'{pad[2]}"player_one": {"true" if node.player == 0 else "false"},\n'
                          f'{pad[2]}"infoset": {json.dumps(node.infoset)},\n'
                          f'{pad[2]}"actions": {{\n')
            for i, (label, c) in enumerate(zip(node.labels, node.children)):
                comma = "," if i + 1 < len(node.labels) else ""
                pieces += [f"{pad[3]}{json.dumps(label)}: ", (c, depth + 3), f"{comma}\n"]
            pieces.append(f"{pad[2]}}}\n{pad[1]}}}\n{pad[0]}}}")
        work.extend(reversed(pieces))
    out.append("\n")
    return "".join(out)


def _json_number(x: float) -> str:
    return repr(float(x))
