"""Hover: what the thing under the cursor means.

On a key, the schema's documentation for that key at its place in the design;
inside a rule expression, the signature and description of a function or field,
the type and meaning of a name; on a depot reference (in an expression or a
value such as ``"to": "discard"``), where that depot is defined.
"""

from __future__ import annotations

import dataclasses

from .document import Snapshot
from .expressions import describe_depots, describe_name, word_at
from .locate import Location, Where, locate
from .positions import Position, Range
from .schemadoc import schema_root

__all__ = ["HoverText", "hover"]


@dataclasses.dataclass(frozen=True, slots=True)
class HoverText:
    """Markdown to show, and the range it is about."""

    markdown: str
    range: Range


def hover(snapshot: Snapshot, position: Position) -> HoverText | None:
    """The hover text at ``position``, or None when there is nothing to say."""
    offset = snapshot.index.offset(position)
    location = locate(snapshot.text, offset)
    if not location.is_string or location.where is Where.NONE:
        return None
    if location.where is Where.KEY:
        documentation = schema_root().at(location.path).child(location.text).documentation()
        if documentation is None:
            return None
        return HoverText(
            f"**{location.text}**\n\n{documentation}", snapshot.index.offset_range(location.start, location.end)
        )
    return _value_hover(snapshot, location)


def _value_hover(snapshot: Snapshot, location: Location) -> HoverText | None:
    context = snapshot.context
    site = context.site_at(location.pointer) if context is not None else None
    if site is not None:
        word = word_at(location.text, location.cursor)
        if not word.text:
            return None
        markdown = describe_name(word, site, context)
        if markdown is None:
            return None
        start, end = location.text_offset(word.start), location.text_offset(word.end)
        return HoverText(markdown, snapshot.index.offset_range(start, end))
    place = schema_root().at(location.path)
    whole = snapshot.index.offset_range(location.start, location.end)
    if place.is_reference and context is not None:
        markdown = describe_depots(location.text, context)
        return HoverText(markdown, whole) if markdown is not None else None
    documentation = place.documentation()
    return HoverText(documentation, whole) if documentation is not None else None
