"""Formatting through ``cardz fmt``: the editor's text becomes exactly what the command writes.

Document formatting returns the changed lines as a few edits (the cursor and
folds outside them stay put); applying them gives :func:`cardz_tools.fmt.format_text`
of the text, byte for byte. Text that ``cardz fmt`` would refuse (not strict
JSON, a byte order mark) gets no edits and a reason.

Range formatting formats the smallest object or array that holds the range,
when the layout allows: the canonical layout of a value depends on where it
starts and what follows it on its line, so the value is only rewritten when
the text before it on its first line and after it on its last line are what the
formatted document has there. Otherwise the next enclosing value is tried, up to
the whole document. Inside the rewritten value the result is the canonical
layout; the rest of the document is untouched.
"""

from __future__ import annotations

import dataclasses
import difflib

from .. import jsoncst
from ..fmt import format_node
from ..source import BOM_CHAR
from .document import json_tree

__all__ = ["Edit", "NotFormatted", "format_document", "format_range"]


@dataclasses.dataclass(frozen=True, slots=True)
class Edit:
    """Replace document offsets ``[start, end)`` with ``new_text``."""

    start: int
    end: int
    new_text: str


class NotFormatted(ValueError):
    """``cardz fmt`` would leave this text as it is; the message says why."""


def _parse(text: str) -> jsoncst.Node:
    if text.startswith(BOM_CHAR):
        raise NotFormatted("the file starts with a UTF-8 byte order mark: save it as UTF-8 without BOM")
    root = json_tree(text)
    if root is None:
        try:
            jsoncst.parse(text)
        except jsoncst.JsonSyntaxError as error:
            raise NotFormatted(f"the text is not valid JSON ({error.code} {error.message})") from None
    assert root is not None
    return root


def format_document(text: str) -> list[Edit]:
    """The edits that turn ``text`` into its ``cardz fmt`` form (empty when it already is).

    :raises NotFormatted: when ``cardz fmt`` would refuse the text.
    """
    return _line_edits(text, format_node(_parse(text)))


def _line_edits(old: str, new: str) -> list[Edit]:
    """Edits replacing whole lines of ``old`` so that it becomes ``new``."""
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    return [
        Edit(starts[i1], starts[i2], "".join(new_lines[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def format_range(text: str, start: int, end: int) -> list[Edit]:
    """The edits that give the smallest value holding offsets ``[start, end)`` its canonical layout.

    :raises NotFormatted: when ``cardz fmt`` would refuse the text.
    """
    root = _parse(text)
    formatted = format_node(root)
    if formatted == text:
        return []
    canonical = jsoncst.parse(formatted)
    for pointer, node in _enclosing(root, start, end):
        if pointer == "":
            break
        twin = jsoncst.node_at(canonical, pointer)
        if twin is None or type(twin) is not type(node) or not _same_surroundings(text, node, formatted, twin):
            continue
        return _shifted(_line_edits(text[node.start : node.end], formatted[twin.start : twin.end]), node.start)
    return _line_edits(text, formatted)


def _enclosing(root: jsoncst.Node, start: int, end: int) -> list[tuple[str, jsoncst.Node]]:
    """The objects and arrays that hold ``[start, end)``, innermost first."""
    chain = [(pointer, node) for pointer, node in jsoncst.walk(root)
             if not isinstance(node, jsoncst.Scalar) and node.start <= start and end <= node.end]
    return list(reversed(chain))  # walk yields parents first


def _same_surroundings(text: str, node: jsoncst.Node, formatted: str, twin: jsoncst.Node) -> bool:
    """Whether the node's first line starts, and its last line ends, as its twin's in the formatted text."""
    def before(source: str, offset: int) -> str:
        return source[source.rfind("\n", 0, offset) + 1 : offset]

    def after(source: str, offset: int) -> str:
        line_end = source.find("\n", offset)
        return source[offset : len(source) if line_end < 0 else line_end]

    same_start = before(text, node.start) == before(formatted, twin.start)
    return same_start and after(text, node.end) == after(formatted, twin.end)


def _shifted(edits: list[Edit], by: int) -> list[Edit]:
    return [Edit(e.start + by, e.end + by, e.new_text) for e in edits]
