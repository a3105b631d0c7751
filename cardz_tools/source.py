"""Reading a .cardz file: JSON with positions.

The common path is fast: the C :mod:`json` parser reads the file and nothing
else happens. Positions are only needed when something is wrong, so the
position map (every JSON pointer -> the line:column span of its key and its
value) is built lazily, by a small scanner, the first time a diagnostic asks
for a span.

Every problem with the bytes themselves (encoding, a byte order mark, JSON
syntax, duplicate keys, ``NaN``, size and nesting bounds) becomes a
:class:`~cardz_tools.diagnostics.Diagnostic` (CZ1xx), never an exception.

Columns count characters (code points) and, like lines, start at 1.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from . import diagnostics as dx
from .diagnostics import Diagnostic, Span

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Larger files are refused (CZ107): a design is a few kilobytes."""
MAX_DEPTH = 200
"""Deeper nesting of arrays and objects is refused (CZ107)."""

BOM = b"\xef\xbb\xbf"
BOM_CHAR = "\ufeff"

Part = Literal["value", "key"]


@dataclasses.dataclass(frozen=True, slots=True)
class Anchor:
    """A span told relative to a JSON member, so that it can be found in another text of the same value.

    ``part`` is ``"key"``, ``"value"``, ``"head"`` (see :meth:`SourceFile.head_span`) or
    ``"string"``: characters ``[start, end)`` of the decoded string value.
    """

    pointer: str
    part: Literal["key", "value", "head", "string"]
    start: int = 0
    end: int = 0


# ---------------------------------------------------------------- pointers


def escape_token(token: str | int) -> str:
    """One JSON pointer reference token (RFC 6901): ``~`` -> ``~0``, ``/`` -> ``~1``."""
    return str(token).replace("~", "~0").replace("/", "~1")


def join_pointer(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """The JSON pointer for a path of keys and indexes (``[]`` -> ``""``, the root)."""
    return "".join("/" + escape_token(part) for part in parts)


def parent_pointer(pointer: str) -> str:
    """The pointer one level up (the root is its own parent)."""
    return pointer[: pointer.rfind("/")] if pointer else ""


# ---------------------------------------------------------------- the scanner


@dataclasses.dataclass(frozen=True, slots=True)
class _Entry:
    """Character offsets (end exclusive) of a member's key (if any) and value."""

    key_start: int
    key_end: int
    value_start: int
    value_end: int


@dataclasses.dataclass(frozen=True, slots=True)
class _Finding:
    """A problem the scanner saw in JSON that the C parser accepted."""

    code: str
    start: int
    end: int
    message: str
    hint: str | None
    pointer: str
    first: int | None = None
    """For a duplicate key: the offset of the first occurrence."""


_WHITESPACE = " \t\n\r"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
# Possessive (*+, ++): the regex engine keeps no backtracking state per character
# (with plain * a 5 MB string cost 600 MB of memory and seconds).
_STRING_BODY = re.compile(r'(?:[^"\\]++|\\.)*+', re.DOTALL)
_NON_FINITE = ("NaN", "Infinity", "-Infinity")
_LITERALS = ("true", "false", "null")


class _ScanError(Exception):
    """The text is not the JSON the C parser accepted (never expected)."""


class _Scanner:
    """Records the offsets of every member of a document that already parsed.

    Recursive descent; the nesting was bounded by :data:`MAX_DEPTH` before the
    scanner runs, so the recursion is shallow.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.entries: dict[str, _Entry] = {}
        self.findings: list[_Finding] = []

    def scan(self) -> None:
        pos = self._skip(0)
        self._value(pos, "", -1, -1)

    def _skip(self, pos: int) -> int:
        text = self.text
        while pos < len(text) and text[pos] in _WHITESPACE:
            pos += 1
        return pos

    def _record(self, pointer: str, entry: _Entry) -> None:
        self.entries[pointer] = entry

    def _value(self, pos: int, pointer: str, key_start: int, key_end: int) -> int:
        """Scan the value at ``pos``; record it under ``pointer``; return the offset after it."""
        text = self.text
        if pos >= len(text):
            raise _ScanError("unexpected end")
        char = text[pos]
        if char == "{":
            end = self._object(pos, pointer)
        elif char == "[":
            end = self._array(pos, pointer)
        elif char == '"':
            end = self._string_end(pos)
        else:
            end = self._scalar(pos, pointer)
        self._record(pointer, _Entry(key_start, key_end, pos, end))
        return end

    def _string_end(self, pos: int) -> int:
        match = _STRING_BODY.match(self.text, pos + 1)
        assert match is not None  # the pattern matches the empty string
        end = match.end()
        if end >= len(self.text) or self.text[end] != '"':
            raise _ScanError("unterminated string")
        return end + 1

    def _scalar(self, pos: int, pointer: str) -> int:
        text = self.text
        for word in _NON_FINITE:
            if text.startswith(word, pos):
                self.findings.append(
                    _Finding(
                        "CZ106",
                        pos,
                        pos + len(word),
                        f"{word} is not a JSON number",
                        "write a finite number (or a string such as \"unlimited\" where the format allows one)",
                        pointer,
                    )
                )
                return pos + len(word)
        for word in _LITERALS:
            if text.startswith(word, pos):
                return pos + len(word)
        match = _NUMBER.match(text, pos)
        if match is None or match.end() == pos:
            raise _ScanError(f"unexpected {text[pos]!r}")
        return match.end()

    def _object(self, pos: int, pointer: str) -> int:
        text = self.text
        first_seen: dict[str, int] = {}
        pos = self._skip(pos + 1)
        if text[pos] == "}":
            return pos + 1
        while True:
            key_start = pos
            key_end = self._string_end(pos)
            key = json.loads(text[key_start:key_end])
            child = f"{pointer}/{escape_token(key)}"
            if key in first_seen:
                self._duplicate(key, key_start, key_end, first_seen[key], child)
            first_seen[key] = key_start
            pos = self._skip(key_end)
            if text[pos] != ":":
                raise _ScanError("expected ':'")
            pos = self._value(self._skip(pos + 1), child, key_start, key_end)
            pos = self._skip(pos)
            if text[pos] == "}":
                return pos + 1
            if text[pos] != ",":
                raise _ScanError("expected ',' or '}'")
            pos = self._skip(pos + 1)

    def _duplicate(self, key: str, start: int, end: int, first: int, child: str) -> None:
        # The C parser keeps the last value, so the positions must describe it too.
        prefix = child + "/"
        for stale in [p for p in self.entries if p.startswith(prefix)]:
            del self.entries[stale]
        self.findings.append(
            _Finding(
                "CZ105",
                start,
                end,
                f"the key {key!r} appears more than once in this object",
                "JSON readers keep only the last value, so remove one",
                child,
                first,
            )
        )

    def _array(self, pos: int, pointer: str) -> int:
        text = self.text
        pos = self._skip(pos + 1)
        if text[pos] == "]":
            return pos + 1
        index = 0
        while True:
            pos = self._skip(self._value(pos, f"{pointer}/{index}", -1, -1))
            index += 1
            if text[pos] == "]":
                return pos + 1
            if text[pos] != ",":
                raise _ScanError("expected ',' or ']'")
            pos = self._skip(pos + 1)


# ---------------------------------------------------------------- escapes


_SIMPLE_ESCAPE_LENGTH = 2
_UNICODE_ESCAPE_LENGTH = 6


def decoded_offsets(raw: str) -> list[int]:
    """For the body of a JSON string (between the quotes), the raw offset of each decoded character.

    The list has one more entry than the decoded string has characters: the
    offset just after the last one. A surrogate pair written as two ``\\uXXXX``
    escapes decodes to one character spanning twelve raw characters.
    """
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        offsets.append(i)
        if raw[i] != "\\":
            i += 1
        elif raw.startswith("\\u", i) and _is_surrogate_pair(raw, i):
            i += 2 * _UNICODE_ESCAPE_LENGTH
        elif raw.startswith("\\u", i):
            i += _UNICODE_ESCAPE_LENGTH
        else:
            i += _SIMPLE_ESCAPE_LENGTH
    offsets.append(len(raw))
    return offsets


def _is_surrogate_pair(raw: str, i: int) -> bool:
    """Whether ``raw[i:]`` starts with a high then a low surrogate escape (decoded as one character)."""
    try:
        high = int(raw[i + 2 : i + 6], 16)
        if not 0xD800 <= high <= 0xDBFF or not raw.startswith("\\u", i + 6):
            return False
        low = int(raw[i + 8 : i + 12], 16)
    except ValueError:
        return False
    return 0xDC00 <= low <= 0xDFFF


# ---------------------------------------------------------------- the file


class SourceFile:
    """A .cardz file as read: its text, its data (None if unreadable) and the CZ1xx diagnostics.

    ``span()`` and ``string_span()`` turn JSON pointers into file positions.
    """

    __slots__ = ("filename", "text", "data", "diagnostics", "_lines", "_entries", "_findings")

    def __init__(self, filename: str, text: str, data: Any | None, diagnostics: list[Diagnostic]) -> None:
        self.filename = filename
        self.text = text
        self.data = data
        self.diagnostics = diagnostics
        self._lines: LineIndex | None = None
        self._entries: dict[str, _Entry] | None = None
        self._findings: list[_Finding] = []

    # -------------------------------------------------------- construction

    @classmethod
    def from_bytes(cls, raw: bytes, filename: str) -> SourceFile:
        """Decode and parse bytes as read from disk."""
        text, problems = decode_bytes(raw, filename)
        if text is None:
            return cls._unreadable(filename, raw.decode("utf-8", errors="replace").removeprefix(BOM_CHAR), *problems)
        return cls.from_text(text, filename)

    @classmethod
    def from_text(cls, text: str, filename: str) -> SourceFile:
        """Parse decoded text (a leading byte order mark is reported, then skipped)."""
        if text.startswith(BOM_CHAR):
            source = cls.from_text(text[len(BOM_CHAR) :], filename)
            source.diagnostics.insert(
                0,
                dx.make(
                    "CZ102",
                    "the file starts with a UTF-8 byte order mark",
                    filename,
                    span=Span.point(1, 1),
                    hint="save the file as UTF-8 without BOM",
                ),
            )
            return source
        if not text.strip():
            hint = 'a design is a JSON object: { "name": ..., "depots": [...] }'
            return cls._unreadable(filename, text, dx.make("CZ103", "the file is empty", filename, hint=hint))
        too_deep = _first_too_deep(text)
        if too_deep is not None:
            source = cls(filename, text, None, [])
            source.diagnostics.append(
                dx.make(
                    "CZ107",
                    f"arrays and objects are nested more than {MAX_DEPTH} deep",
                    filename,
                    span=source.offset_span(too_deep, too_deep + 1),
                )
            )
            return source
        flags = _ParseFlags()
        try:
            data = json.loads(text, object_pairs_hook=flags.object_hook, parse_constant=flags.constant_hook)
        except json.JSONDecodeError as exc:
            source = cls(filename, text, None, [])
            source.diagnostics.append(_syntax_diagnostic(exc, source))
            return source
        except RecursionError:  # pragma: no cover - the depth bound should make this impossible
            return cls._unreadable(filename, text, dx.make("CZ107", "the file is nested too deeply to read", filename))
        source = cls(filename, text, data, [])
        if data is None:  # the JSON `null`: nothing later stages could check, so say so here
            source.diagnostics.append(
                dx.make(
                    "CZ201",
                    "the design must be an object, not null",
                    filename,
                    span=source.offset_span(0, len(text.rstrip())),
                )
            )
        if flags.suspicious:
            source.diagnostics.extend(source._scan_findings())
        return source

    @classmethod
    def _unreadable(cls, filename: str, text: str, *found: Diagnostic) -> SourceFile:
        return cls(filename, text, None, list(found))

    # -------------------------------------------------------- queries

    @property
    def ok(self) -> bool:
        """Whether the file was read into data (later stages may run)."""
        return self.data is not None

    def line_text(self, line: int) -> str:
        """The text of a 1-based line (empty when out of range)."""
        return self._index().line_text(line)

    def has(self, pointer: str) -> bool:
        """Whether the document has a member at ``pointer``."""
        return pointer in self._map()

    def span(self, pointer: str, part: Part = "value") -> Span:
        """The span of the value (or key) at ``pointer``.

        A pointer that does not exist (a missing required key, say) falls back to
        the nearest parent that does. ``part="key"`` on an array element or the
        root gives the value span.
        """
        entry = self._entry(pointer)
        if entry is None:
            return dx.UNKNOWN_SPAN
        if part == "key" and entry.key_start >= 0:
            return self.offset_span(entry.key_start, entry.key_end)
        return self.offset_span(entry.value_start, entry.value_end)

    def head_span(self, pointer: str) -> Span:
        """A short span that names a member: its key, or the first character of its value.

        Used for problems about a whole object (a missing key) so that the caret
        does not underline twenty lines.
        """
        entry = self._entry(pointer)
        if entry is None:
            return dx.UNKNOWN_SPAN
        if entry.key_start >= 0:
            return self.offset_span(entry.key_start, entry.key_end)
        return self.offset_span(entry.value_start, entry.value_start + 1)

    def string_span(self, pointer: str, start: int, end: int) -> Span:
        """The span of characters ``[start, end)`` of the decoded string at ``pointer``.

        Offsets count characters of the decoded string (what an expression parser
        sees); the result accounts for escapes such as ``\\"``, ``\\n`` and
        ``\\uXXXX`` (a surrogate pair is one character). An empty range gives a
        one-character span; offsets out of range are clamped. If the value is not
        a string (an expression written as the number ``2``) the whole value is given.
        """
        entry = self._entry(pointer)
        if entry is None:
            return dx.UNKNOWN_SPAN
        if self.text[entry.value_start] != '"':
            return self.offset_span(entry.value_start, entry.value_end)
        body_start = entry.value_start + 1
        offsets = decoded_offsets(self.text[body_start : entry.value_end - 1])
        last = len(offsets) - 1
        start = min(max(start, 0), last)
        end = min(max(end, start), last)
        raw_start = body_start + offsets[start]
        raw_end = body_start + offsets[end]
        if raw_end <= raw_start:
            raw_end = raw_start + 1
        return self.offset_span(raw_start, raw_end)

    def anchor(self, pointer: str, span: Span) -> Anchor:
        """How ``span`` sits on the member at ``pointer`` (the inverse of :meth:`locate`).

        Anything that is not the member's key, value or head, nor a range inside
        its string value, is anchored at the head.
        """
        if not self.has(pointer):
            return Anchor(pointer, "head")
        if span == self.span(pointer, "key") and span != self.span(pointer):
            return Anchor(pointer, "key")
        if span == self.span(pointer):
            return Anchor(pointer, "value")
        entry = self._map()[pointer]
        value = self.offset_span(entry.value_start, entry.value_end)
        inside = (
            span.line == span.end_line == value.line
            and value.column < span.column <= span.end_column < value.end_column
        )
        if self.text[entry.value_start] == '"' and inside:
            offsets = decoded_offsets(self.text[entry.value_start + 1 : entry.value_end - 1])
            first = span.column - value.column - 1
            last = span.end_column - value.column - 1
            start = bisect.bisect_right(offsets, first) - 1
            end = bisect.bisect_left(offsets, last)
            return Anchor(pointer, "string", start, end)
        return Anchor(pointer, "head")

    def locate(self, anchor: Anchor) -> Span:
        """The span of an :class:`Anchor` in this file."""
        if anchor.part == "string":
            return self.string_span(anchor.pointer, anchor.start, anchor.end)
        if anchor.part == "head":
            return self.head_span(anchor.pointer)
        return self.span(anchor.pointer, anchor.part)

    def offset_span(self, start: int, end: int) -> Span:
        """The span of character offsets ``[start, end)`` of the text."""
        line, column = self._line_column(start)
        end_line, end_column = self._line_column(max(end, start))
        return Span(line, column, end_line, end_column)

    # -------------------------------------------------------- internals

    def _index(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def _line_column(self, offset: int) -> tuple[int, int]:
        return self._index().position(offset)

    def _map(self) -> dict[str, _Entry]:
        if self._entries is None:
            self._entries = {}
            if self.data is not None:
                scanner = _Scanner(self.text)
                try:
                    scanner.scan()
                except (_ScanError, IndexError, ValueError):  # pragma: no cover - keeps what was found
                    pass
                self._entries = scanner.entries
                self._findings = scanner.findings
        return self._entries

    def _entry(self, pointer: str) -> _Entry | None:
        entries = self._map()
        while pointer not in entries:
            if not pointer:
                return None
            pointer = parent_pointer(pointer)
        return entries[pointer]

    def _scan_findings(self) -> list[Diagnostic]:
        self._map()
        found = []
        for finding in self._findings:
            hint = finding.hint
            if finding.first is not None:
                line, column = self._line_column(finding.first)
                hint = f"the first is at line {line}, column {column}; {hint}"
            found.append(
                dx.make(
                    finding.code,
                    finding.message,
                    self.filename,
                    span=self.offset_span(finding.start, finding.end),
                    pointer=finding.pointer,
                    hint=hint,
                )
            )
        return found


def read_bytes(path: str | Path, name: str) -> tuple[bytes | None, list[Diagnostic]]:
    """A file's bytes (at most one more than :data:`MAX_FILE_BYTES`), or a CZ100 diagnostic."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a named pipe would block the read for ever
            return None, [dx.make("CZ100", "cannot read the file: it is not a regular file", name)]
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_BYTES + 1), []  # enough to tell that it is too large
    except OSError as exc:
        return None, [dx.make("CZ100", f"cannot read the file: {exc.strerror or exc}", name)]


def decode_bytes(raw: bytes, filename: str) -> tuple[str | None, list[Diagnostic]]:
    """UTF-8 text of a file's bytes (a byte order mark kept), or why there is none (CZ107, CZ101)."""
    if len(raw) > MAX_FILE_BYTES:
        return None, [
            dx.make(
                "CZ107",
                f"the file is larger than {MAX_FILE_BYTES:,} bytes",
                filename,
                hint="a design is a few kilobytes: is this the right file?",
            )
        ]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        # Editors do not show a byte order mark, so columns do not count it.
        prefix = raw[len(BOM) if raw.startswith(BOM) else 0 : exc.start].decode("utf-8", errors="replace")
        line = prefix.count("\n") + 1
        column = len(prefix) - (prefix.rfind("\n") + 1) + 1
        bad = raw[exc.start : exc.end].hex(" ")
        return None, [
            dx.make(
                "CZ101",
                f"the file is not valid UTF-8 (byte {bad} at offset {exc.start})",
                filename,
                span=Span.point(line, column),
                hint="save the file with UTF-8 encoding",
            )
        ]


def load_source(path: str | Path, display_name: str | None = None) -> SourceFile:
    """Read a file from disk; an unreadable file gives a CZ100 diagnostic, not an exception."""
    name = display_name if display_name is not None else str(path)
    raw, problems = read_bytes(path, name)
    if raw is None:
        return SourceFile(name, "", None, problems)
    return SourceFile.from_bytes(raw, name)


class LineIndex:
    """Turns character offsets of a text into 1-based line and column numbers."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line break (empty when out of range)."""
        starts = self._starts
        if not 1 <= line <= len(starts):
            return ""
        end = starts[line] - 1 if line < len(starts) else len(self._text)
        return self._text[starts[line - 1] : end].rstrip("\r")

    def position(self, offset: int) -> tuple[int, int]:
        """Line and column (1-based) of an offset."""
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1

    def span(self, start: int, end: int) -> Span:
        """The span of ``text[start:end]`` (an empty range is widened to one character)."""
        line, column = self.position(max(start, 0))
        end_line, end_column = self.position(max(end, start + 1, 0))
        return Span(line, column, end_line, end_column)


# ---------------------------------------------------------------- helpers


class _ParseFlags:
    """Hooks for the C parser that notice what needs a closer look (duplicate keys, NaN)."""

    __slots__ = ("suspicious",)

    def __init__(self) -> None:
        self.suspicious = False

    def object_hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            self.suspicious = True
        return result

    def constant_hook(self, name: str) -> float:
        self.suspicious = True
        return float(name)


_BRACKETS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.DOTALL)


def _first_too_deep(text: str) -> int | None:
    """The offset of the first bracket nested deeper than :data:`MAX_DEPTH`, if any."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None  # cannot be that deep: skip the scan on the common path
    depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif token in "]}":
            depth -= 1
    return None


_SYNTAX_HINTS: tuple[tuple[str, Callable[[str, int], bool], str], ...] = (
    (
        "Expecting property name enclosed in double quotes",
        lambda text, pos: text[:pos].rstrip().endswith(",") and text[pos : pos + 1] == "}",
        "JSON allows no comma after the last member of an object",
    ),
    (
        "Expecting property name enclosed in double quotes",
        lambda text, pos: text[pos : pos + 1] in ("{", "["),
        "an object before this is not closed: a '}' is missing before the ','",
    ),
    (
        "Expecting property name enclosed in double quotes",
        lambda text, pos: True,
        'keys are written in double quotes: "name"',
    ),
    (
        "Expecting value",
        lambda text, pos: text[:pos].rstrip().endswith(",") and text[pos : pos + 1] == "]",
        "JSON allows no comma after the last item of an array",
    ),
    ("Expecting value", lambda text, pos: text[pos : pos + 1] == "'", "strings are written in double quotes"),
    # A missing closing bracket is reported where the other kind closes, or at the end of the file.
    (
        "Expecting ',' delimiter",
        lambda text, pos: text[pos : pos + 1] == "]",
        "an object is not closed: a '}' is missing before this ']'",
    ),
    (
        "Expecting ',' delimiter",
        lambda text, pos: text[pos : pos + 1] == "}",
        "an array is not closed: a ']' is missing before this '}'",
    ),
    (
        "Expecting ',' delimiter",
        lambda text, pos: not text[pos:].strip(),
        "the file ends before every '{' and '[' is closed",
    ),
    ("Expecting ',' delimiter", lambda text, pos: True, "a comma is missing between two items"),
    ("Invalid control character", lambda text, pos: True, "write a line break inside a string as \\n"),
    ("Extra data", lambda text, pos: True, "a design is a single JSON object"),
)


def _syntax_diagnostic(exc: json.JSONDecodeError, source: SourceFile) -> Diagnostic:
    hint = next(
        (h for prefix, applies, h in _SYNTAX_HINTS if exc.msg.startswith(prefix) and applies(source.text, exc.pos)),
        None,
    )
    message = exc.msg[0].lower() + exc.msg[1:]
    position = exc.pos
    if hint is not None and hint.startswith("JSON allows no comma"):
        position = len(source.text[: exc.pos].rstrip()) - 1  # point at the comma, not at what follows
        message = "a comma before a closing bracket"
    return dx.make(
        "CZ104",
        f"invalid JSON: {message}",
        source.filename,
        span=source.offset_span(position, position + 1),
        hint=hint,
    )
