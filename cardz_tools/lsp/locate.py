"""Where the cursor is in a JSON document that may be half typed.

The linter reads valid JSON only; an editor asks about text that is often not
valid yet (a key being typed, a missing comma). :func:`locate` scans the text
tolerantly, keeping a stack of the objects and arrays it is in, and says
whether the cursor is on a key, on a value or where a key may be written, and
the path of the value in question.
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
import json
import re
from collections.abc import Iterator

from ..source import decoded_offsets, join_pointer

__all__ = ["Where", "Location", "locate"]

Path = tuple[str | int, ...]


class Where(enum.Enum):
    """What the cursor is on."""

    KEY = "key"
    """On a key, or where a new key may be written (``path`` is the object's)."""
    VALUE = "value"
    """On a value, or where a value may be written (``path`` is the value's)."""
    NONE = "none"


@dataclasses.dataclass(frozen=True, slots=True)
class Location:
    """The cursor's place: ``path`` (see :class:`Where`) and the token under the cursor.

    ``start``/``end`` are the offsets of the token (a string with its quotes, or a
    bare word); both equal the cursor when no token is under it. For a string,
    ``text`` is its decoded content and ``cursor`` the cursor's index in it.
    """

    where: Where
    path: Path
    start: int
    end: int
    is_string: bool = False
    text: str = ""
    cursor: int = 0
    keys: tuple[str, ...] = ()
    """For a key: the keys the object already has."""
    text_source: str = dataclasses.field(default="", repr=False)
    """The document text (for :meth:`text_offset`)."""

    @property
    def pointer(self) -> str:
        """The JSON pointer of :attr:`path`."""
        return join_pointer(self.path)

    def text_offset(self, index: int) -> int:
        """The document offset of character ``index`` of the decoded string (escapes accounted for)."""
        body = _body(self.text_source, self.start, self.end)
        offsets = decoded_offsets(body)
        return self.start + 1 + offsets[min(max(index, 0), len(offsets) - 1)]


_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[{}\[\]:,]|[^\s{}\[\]:,"]+')


@dataclasses.dataclass
class _Frame:
    path: Path
    is_object: bool
    expect: str = "key"  # object: key, colon, value, comma; array: value, comma
    key: str | None = None
    index: int = 0
    keys: list[str] = dataclasses.field(default_factory=list)

    def child(self) -> Path:
        if self.is_object:
            return (*self.path, self.key if self.key is not None else "")
        return (*self.path, self.index)


def _tokens(text: str) -> Iterator[re.Match[str]]:
    return _TOKEN.finditer(text)


def _body(text: str, start: int, end: int) -> str:
    closed = end - start >= 2 and text[end - 1] == '"'
    return text[start + 1 : end - 1 if closed else end]


def _decode(body: str) -> str:
    try:
        value = json.loads(f'"{body}"')
    except ValueError:
        return body
    return value if isinstance(value, str) else body


def locate(text: str, offset: int) -> Location:
    """The cursor's place at character ``offset`` of ``text``."""
    stack: list[_Frame] = []
    for match in _tokens(text):
        token, start, end = match.group(), match.start(), match.end()
        is_string = token.startswith('"')
        closed = is_string and len(token) >= 2 and token.endswith('"')
        if offset <= start:
            return _between(stack, offset)
        inside = offset < end or (offset == end and not closed and token not in "{}[]:,")
        if inside:
            return _on_token(stack, text, token, start, end, offset)
        _advance(stack, token)
    return _between(stack, offset)


def _between(stack: list[_Frame], offset: int) -> Location:
    if not stack:
        return Location(Where.NONE, (), offset, offset)
    frame = stack[-1]
    if frame.is_object and frame.expect == "key":
        return Location(Where.KEY, frame.path, offset, offset, keys=tuple(frame.keys))
    if frame.expect == "value":
        return Location(Where.VALUE, frame.child(), offset, offset)
    return Location(Where.NONE, frame.path, offset, offset)


def _on_token(stack: list[_Frame], text: str, token: str, start: int, end: int, offset: int) -> Location:
    if not stack:
        return Location(Where.NONE, (), start, end)
    frame = stack[-1]
    is_string = token.startswith('"')
    decoded, cursor = "", 0
    if is_string:
        body = _body(text, start, end)
        decoded = _decode(body)
        offsets = decoded_offsets(body)
        cursor = max(bisect.bisect_right(offsets, offset - start - 1) - 1, 0)
    if frame.is_object and frame.expect in ("key", "colon", "comma") and (is_string or frame.expect == "key"):
        keys = tuple(k for k in frame.keys if k != frame.key) if frame.expect != "key" else tuple(frame.keys)
        return Location(Where.KEY, frame.path, start, end, is_string, decoded, cursor, keys, text)
    if frame.expect == "value":
        return Location(Where.VALUE, frame.child(), start, end, is_string, decoded, cursor, text_source=text)
    return Location(Where.NONE, frame.path, start, end)


def _advance(stack: list[_Frame], token: str) -> None:
    frame = stack[-1] if stack else None
    if token in ("{", "["):
        path = frame.child() if frame is not None else ()
        stack.append(_Frame(path, token == "{", "key" if token == "{" else "value"))
    elif token in ("}", "]"):
        want_object = token == "}"
        while stack and stack[-1].is_object != want_object:
            stack.pop()
        if stack:
            stack.pop()
        if stack:
            stack[-1].expect = "comma"
    elif frame is None:
        return
    elif token == ":":
        if frame.is_object:
            frame.expect = "value"
    elif token == ",":
        if frame.is_object:
            frame.expect, frame.key = "key", None
        else:
            frame.index += 1
            frame.expect = "value"
    elif frame.is_object and frame.expect != "value" and token.startswith('"'):
        frame.key = _decode(token[1:-1] if token.endswith('"') and len(token) > 1 else token[1:])
        frame.keys.append(frame.key)
        frame.expect = "colon"
    else:
        frame.expect = "comma"
