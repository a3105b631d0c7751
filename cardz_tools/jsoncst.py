"""JSON as written: a small concrete syntax tree that keeps every token's text.

The formatter and the variant merger must never change what a design says, so
they work on this tree instead of on :func:`json.loads` output: a number keeps
the text it was written with (``1.0`` stays ``1.0``, ``5.5`` stays ``5.5``) and
a string keeps its escapes and its non-ASCII characters exactly as typed.

Reading is strict JSON (RFC 8259): no comments, no trailing commas, no NaN, no
duplicate keys (a duplicate would make the file mean two different things).
Problems are reported as :class:`JsonSyntaxError` with the stable codes of the
CZ1xx block and a character offset, which :func:`read_file` turns into
diagnostics with line:column spans.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeAlias

from . import diagnostics
from .diagnostics import Diagnostic, Span
from .source import BOM_CHAR, MAX_DEPTH, LineIndex, decode_bytes, escape_token, read_bytes


@dataclasses.dataclass(frozen=True, slots=True)
class Scalar:
    """A string, number, ``true``, ``false`` or ``null``: ``text`` is the token as written."""

    text: str
    start: int = -1
    end: int = -1

    @property
    def value(self) -> Any:
        """The JSON value of the token."""
        return json.loads(self.text)


@dataclasses.dataclass(frozen=True, slots=True)
class Member:
    """One ``"key": value`` pair of an object; ``key_text`` is the key token as written."""

    key: str
    key_text: str
    value: Node
    start: int = -1


@dataclasses.dataclass(frozen=True, slots=True)
class Object:
    """A JSON object; members keep the order they were written in."""

    members: tuple[Member, ...]
    start: int = -1
    end: int = -1

    def get(self, key: str) -> Node | None:
        """The value of ``key``, or None."""
        for member in self.members:
            if member.key == key:
                return member.value
        return None


@dataclasses.dataclass(frozen=True, slots=True)
class Array:
    """A JSON array."""

    items: tuple[Node, ...]
    start: int = -1
    end: int = -1


Node: TypeAlias = Scalar | Object | Array


class JsonSyntaxError(ValueError):
    """The text is not strict JSON. ``code`` is a CZ1xx code; offsets index the text."""

    def __init__(self, code: str, message: str, start: int, end: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.start = start
        self.end = start + 1 if end is None else end


# ---------------------------------------------------------------- parsing

_WHITESPACE = re.compile(r"[ \t\n\r]*")
# Possessive quantifiers: no per-character backtracking state.
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_NON_FINITE = re.compile(r"-?(?:NaN|Infinity)")
_LITERALS = ("true", "false", "null")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_whitespace(self) -> None:
        match = _WHITESPACE.match(self.text, self.pos)
        assert match is not None
        self.pos = match.end()

    def fail(self, message: str, start: int | None = None, end: int | None = None) -> JsonSyntaxError:
        return JsonSyntaxError("CZ104", message, self.pos if start is None else start, end)

    def describe_here(self) -> str:
        if self.pos >= len(self.text):
            return "the end of the file"
        return repr(self.text[self.pos])

    def expect(self, char: str, context: str) -> None:
        self.skip_whitespace()
        if self.text.startswith(char, self.pos):
            self.pos += 1
            return
        raise self.fail(f"expected '{char}' {context}, found {self.describe_here()}")

    def value(self, depth: int) -> Node:
        self.skip_whitespace()
        if depth > MAX_DEPTH:
            raise JsonSyntaxError("CZ107", f"nesting deeper than {MAX_DEPTH} levels", self.pos)
        text, pos = self.text, self.pos
        char = text[pos] if pos < len(text) else ""
        if char == "{":
            return self.object(depth)
        if char == "[":
            return self.array(depth)
        if char == '"':
            return self.string()
        match = _NUMBER.match(text, pos)
        if match and match.end() > pos:
            self.pos = match.end()
            return Scalar(match.group(), pos, self.pos)
        for literal in _LITERALS:
            if text.startswith(literal, pos):
                self.pos = pos + len(literal)
                return Scalar(literal, pos, self.pos)
        non_finite = _NON_FINITE.match(text, pos)
        if non_finite:
            raise JsonSyntaxError("CZ106", f"{non_finite.group()} is not a JSON number", pos, non_finite.end())
        raise self.fail(f"expected a value, found {self.describe_here()}")

    def string(self) -> Scalar:
        start = self.pos
        match = _STRING.match(self.text, start)
        if match:
            self.pos = match.end()
            return Scalar(match.group(), start, self.pos)
        raise self.string_error(start)

    def string_error(self, start: int) -> JsonSyntaxError:
        i = start + 1
        text = self.text
        while i < len(text):
            char = text[i]
            if char == '"':
                break
            if char == "\\":
                escape = text[i + 1 : i + 2]
                if escape and escape in '"\\/bfnrt':
                    i += 2
                    continue
                if escape == "u" and _HEX4.fullmatch(text[i + 2 : i + 6]):
                    i += 6
                    continue
                return self.fail(f"invalid escape {text[i : i + 2]!r} in a string", i, i + 2)
            if ord(char) < 0x20:
                return self.fail("a control character in a string (write it as an escape such as \\n)", i)
            i += 1
        return self.fail("a string is not closed", start)

    def object(self, depth: int) -> Object:
        start = self.pos
        self.pos += 1
        members: list[Member] = []
        seen: set[str] = set()
        self.skip_whitespace()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            return Object((), start, self.pos)
        while True:
            self.skip_whitespace()
            if not self.text.startswith('"', self.pos):
                raise self.fail(f"expected a key in double quotes, found {self.describe_here()}")
            key_token = self.string()
            key = key_token.value
            if key in seen:
                raise JsonSyntaxError(
                    "CZ105", f"the key {key_token.text} appears twice in this object", key_token.start, key_token.end
                )
            seen.add(key)
            self.expect(":", "after a key")
            value = self.value(depth + 1)
            members.append(Member(key, key_token.text, value, key_token.start))
            self.skip_whitespace()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            if self.text.startswith("}", self.pos):
                self.pos += 1
                return Object(tuple(members), start, self.pos)
            raise self.fail(f"expected ',' or '}}' in an object, found {self.describe_here()}")

    def array(self, depth: int) -> Array:
        start = self.pos
        self.pos += 1
        items: list[Node] = []
        self.skip_whitespace()
        if self.text.startswith("]", self.pos):
            self.pos += 1
            return Array((), start, self.pos)
        while True:
            items.append(self.value(depth + 1))
            self.skip_whitespace()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            if self.text.startswith("]", self.pos):
                self.pos += 1
                return Array(tuple(items), start, self.pos)
            raise self.fail(f"expected ',' or ']' in an array, found {self.describe_here()}")


def parse(text: str) -> Node:
    """Parse strict JSON into a tree that keeps token text and offsets.

    :raises JsonSyntaxError: for anything that is not strict JSON, a duplicate key
        (CZ105), NaN/Infinity (CZ106) or nesting beyond :data:`MAX_DEPTH` (CZ107).
    """
    if not text.strip(" \t\r\n"):
        raise JsonSyntaxError("CZ103", "the file is empty", 0, 0)
    parser = _Parser(text)
    root = parser.value(0)
    parser.skip_whitespace()
    if parser.pos != len(text):
        raise parser.fail(f"unexpected {parser.describe_here()} after the end of the JSON value")
    return root


def to_python(node: Node) -> Any:
    """The plain JSON value of a tree (what :func:`json.loads` would give)."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Array):
        return [to_python(item) for item in node.items]
    return {member.key: to_python(member.value) for member in node.members}


def from_python(value: Any) -> Node:
    """A tree for a plain JSON value (numbers written as :func:`json.dumps` writes them)."""
    if isinstance(value, dict):
        return Object(
            tuple(Member(str(k), json.dumps(str(k), ensure_ascii=False), from_python(v)) for k, v in value.items())
        )
    if isinstance(value, (list, tuple)):
        return Array(tuple(from_python(item) for item in value))
    return Scalar(json.dumps(value, ensure_ascii=False, allow_nan=False))


# ---------------------------------------------------------------- pointers


def child_pointer(pointer: str, key: str | int) -> str:
    """The pointer of a member or item below ``pointer``."""
    return f"{pointer}/{escape_token(str(key))}"


def walk(node: Node, pointer: str = "") -> Iterator[tuple[str, Node]]:
    """Every node of a tree with its JSON pointer, parents before children."""
    yield pointer, node
    if isinstance(node, Object):
        for member in node.members:
            yield from walk(member.value, child_pointer(pointer, member.key))
    elif isinstance(node, Array):
        for index, item in enumerate(node.items):
            yield from walk(item, child_pointer(pointer, index))


def node_at(root: Node, pointer: str) -> Node | None:
    """The node a JSON pointer names, or None."""
    if pointer == "":
        return root
    node: Node | None = root
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Object):
            node = node.get(token)
        elif isinstance(node, Array) and token.isdigit() and int(token) < len(node.items):
            node = node.items[int(token)]
        else:
            return None
        if node is None:
            return None
    return node


# ---------------------------------------------------------------- files


@dataclasses.dataclass(frozen=True, slots=True)
class ParsedFile:
    """A file read and parsed: its text, its tree and where each offset lies."""

    path: Path
    text: str
    root: Node

    def span_of(self, pointer: str) -> Span:
        """The span of the node a pointer names (the file start if it names nothing)."""
        node = node_at(self.root, pointer)
        if node is None or node.start < 0:
            return diagnostics.UNKNOWN_SPAN
        return LineIndex(self.text).span(node.start, node.end)


def decode(data: bytes, file: str) -> tuple[str | None, list[Diagnostic]]:
    """UTF-8 text of a file's bytes, or diagnostics (CZ101, CZ102, CZ107) when there is none.

    Unlike lint, which reports a byte order mark and reads on, a tool that rewrites the
    file stops there: writing the file back would drop or keep the mark silently.
    """
    text, problems = decode_bytes(data, file)
    if text is not None and text.startswith(BOM_CHAR):
        return None, [
            diagnostics.make(
                "CZ102", "the file starts with a UTF-8 byte order mark", file, hint="save it as UTF-8 without BOM"
            )
        ]
    return text, problems


def parse_text(text: str, file: str) -> tuple[Node | None, list[Diagnostic]]:
    """Parse text, turning a syntax error into a diagnostic with its span."""
    try:
        return parse(text), []
    except JsonSyntaxError as error:
        span = LineIndex(text).span(error.start, error.end)
        return None, [diagnostics.make(error.code, error.message, file, span)]


def read_file(path: Path) -> tuple[ParsedFile | None, list[Diagnostic]]:
    """Read and parse a JSON file; on failure the diagnostics say why (never raises for bad input)."""
    file = str(path)
    data, problems = read_bytes(path, file)
    if data is None:
        return None, problems
    text, problems = decode(data, file)
    if text is None:
        return None, problems
    root, problems = parse_text(text, file)
    if root is None:
        return None, problems
    return ParsedFile(path, text, root), []
