"""TODO markers: decisions a design's author still has to make.

Templates and ``cardz from-rules`` never guess silently. Whatever they cannot decide
they mark with the text ``TODO:`` inside a string of the design, where a designer
reads it and where the format already allows free text:

* ``acceptRule.reason`` / ``ejectRule.reason`` of the rule the TODO is about (its
  ``when`` is then a placeholder such as ``"true"``, and the TODO says exactly what
  expression must replace it);
* ``description``: one markdown bullet ``- TODO: ...`` per open decision that has no
  string of its own (the win condition, an effect the format cannot express yet).

The mechanism needs no new key, so a design with TODOs is schema-valid; ``cardz lint``
reports every marker as CZ601 ``todo`` (a warning) through :func:`find_todos`.
A designer resolves a TODO by making the decision and deleting the marker text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .source import escape_token

TODO_MARKER = "TODO:"
"""The exact text that marks an open decision (upper case, with the colon)."""

_MARKER_RE = re.compile(r"\bTODO:")


def todo(text: str) -> str:
    """``text`` as a TODO marker: ``todo("name the suit")`` -> ``"TODO: name the suit"``."""
    return f"{TODO_MARKER} {text}"


def _strings(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(item, f"{pointer}/{escape_token(str(key))}")
    elif isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        for index, item in enumerate(value):
            yield from _strings(item, f"{pointer}/{index}")


def todo_markers(data: Any) -> list[tuple[str, int, str]]:
    """Every TODO marker as ``(json_pointer, offset, message)``: ``offset`` is where the
    marker starts in the decoded string, so a linter can underline that very marker."""
    found: list[tuple[str, int, str]] = []
    for pointer, text in _strings(data, ""):
        if TODO_MARKER not in text:
            continue
        line_start = 0
        for line in text.splitlines(keepends=True):
            match = _MARKER_RE.search(line)
            if match:
                found.append((pointer, line_start + match.start(), line[match.start():].strip()))
            line_start += len(line)
    return found


def find_todos(data: Any) -> list[tuple[str, str]]:
    """Every TODO marker in a parsed design, as ``(json_pointer, message)`` in document order.

    The pointer names the string that holds the marker (``/depots/0/acceptRule/reason``,
    ``/description``). A string with several lines yields one entry per line that holds a
    marker, so each TODO bullet of a description is its own entry. The message is the
    line from the marker on, e.g. ``"TODO: write the win condition"``.

    >>> find_todos({"name": "x", "depots": [{"acceptRule": {"reason": "TODO: say when"}}]})
    [('/depots/0/acceptRule/reason', 'TODO: say when')]
    """
    return [(pointer, message) for pointer, _, message in todo_markers(data)]
