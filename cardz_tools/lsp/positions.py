"""LSP positions <-> our spans and character offsets.

LSP counts lines from 0 and characters in UTF-16 code units; a
:class:`~cardz_tools.diagnostics.Span` counts lines and columns from 1 and
columns in code points. A character outside the Basic Multilingual Plane (an
emoji in a description) is one code point but two UTF-16 units, so the two
differ on any line that holds one.

Lines end at ``\\n``, as in :mod:`cardz_tools.source`. UTF-16 is what LSP
assumes; a client may negotiate UTF-8 or UTF-32 instead (:class:`Encoding`).
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
import re

from ..diagnostics import Span

__all__ = ["Encoding", "Position", "Range", "TextIndex", "utf16_length"]

_ASTRAL = 0xFFFF


class Encoding(enum.Enum):
    """What an LSP character offset counts (the values are LSP's ``PositionEncodingKind``)."""

    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"

    def units(self, char: str) -> int:
        """How many code units one character takes."""
        if self is Encoding.UTF16:
            return 2 if ord(char) > _ASTRAL else 1
        if self is Encoding.UTF8:
            return len(char.encode("utf-8", errors="surrogatepass"))
        return 1

    def length(self, text: str) -> int:
        """How many code units ``text`` takes."""
        if self is Encoding.UTF16:
            return utf16_length(text)
        if self is Encoding.UTF8:
            return len(text.encode("utf-8", errors="surrogatepass"))
        return len(text)


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Position:
    """An LSP position: 0-based line, 0-based character in code units (UTF-16 unless negotiated otherwise)."""

    line: int
    character: int


@dataclasses.dataclass(frozen=True, slots=True)
class Range:
    """An LSP range, end exclusive."""

    start: Position
    end: Position


def utf16_length(text: str) -> int:
    """How many UTF-16 code units ``text`` takes."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


class TextIndex:
    """Converts between character offsets, 1-based spans and LSP positions in one text."""

    __slots__ = ("text", "encoding", "_starts")

    def __init__(self, text: str, encoding: Encoding = Encoding.UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self._starts = [0] + [match.end() for match in re.finditer("\n", text)]

    def _line_text(self, line: int) -> str:
        """The text of a 0-based line, without its line break."""
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:end]

    def position(self, offset: int) -> Position:
        """The LSP position of a character offset (clamped to the text)."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect.bisect_right(self._starts, offset) - 1
        return Position(line, self.encoding.length(self.text[self._starts[line] : offset]))

    def offset(self, position: Position) -> int:
        """The character offset of an LSP position.

        A character past the end of its line gives the end of the line; one that
        falls between the two halves of a surrogate pair gives the character's start.
        """
        if position.line < 0:
            return 0
        if position.line >= len(self._starts):
            return len(self.text)
        start = self._starts[position.line]
        units = 0
        for index, char in enumerate(self._line_text(position.line)):
            units += self.encoding.units(char)
            if units > position.character:
                return start + index
        return start + len(self._line_text(position.line))

    def span_position(self, line: int, column: int) -> Position:
        """The LSP position of a 1-based line and code-point column."""
        if line < 1:
            return Position(0, 0)
        if line > len(self._starts):
            return self.position(len(self.text))
        text = self._line_text(line - 1)
        return Position(line - 1, self.encoding.length(text[: max(column - 1, 0)]))

    def span_range(self, span: Span) -> Range:
        """The LSP range of a span."""
        return Range(self.span_position(span.line, span.column), self.span_position(span.end_line, span.end_column))

    def offset_range(self, start: int, end: int) -> Range:
        """The LSP range of character offsets ``[start, end)``."""
        return Range(self.position(start), self.position(end))
