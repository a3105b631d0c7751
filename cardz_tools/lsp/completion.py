"""Completion: keys and values the schema allows here, and names inside rule expressions.

Inside an expression, only what the rule site has in scope is offered (``card``
in an accept rule, not in scoring; ``it`` only inside any/all/count/sum/min/max),
plus the design's depots, groups and depot types, the functions, and rank, suit
and colour names; after ``receiver.``, the fields of the receiver's type.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable

from ..expr import Site
from ..expr.builtins import CONSTANTS, FUNCTIONS, PREVIOUS_VARIABLE
from ..expr.env import DEPOT_TYPE_NAMES
from ..model import SELF
from .document import DesignContext, Snapshot
from .expressions import bound_names, describe_depots, describe_function, fields_for, receiver_kind, word_at
from .locate import Location, Where, locate
from .positions import Position, Range
from .schemadoc import SchemaPlace, schema_root

__all__ = ["ItemKind", "Completion", "complete"]


class ItemKind(enum.Enum):
    """What a completion item is (the server maps these to LSP kinds)."""

    KEY = "key"
    VALUE = "value"
    FUNCTION = "function"
    FIELD = "field"
    VARIABLE = "variable"
    DEPOT = "depot"
    CONSTANT = "constant"
    KEYWORD = "keyword"


@dataclasses.dataclass(frozen=True, slots=True)
class Completion:
    """One item: ``label`` replaces ``range`` with ``new_text``."""

    label: str
    kind: ItemKind
    new_text: str
    range: Range
    detail: str | None = None
    documentation: str | None = None


def complete(snapshot: Snapshot, position: Position) -> list[Completion]:
    """The completions at ``position``."""
    offset = snapshot.index.offset(position)
    location = locate(snapshot.text, offset)
    if location.where is Where.KEY:
        return _keys(snapshot, location)
    if location.where is Where.VALUE:
        context = snapshot.context
        site = context.site_at(location.pointer) if context is not None and location.is_string else None
        if site is not None:
            return _expression(snapshot, location, site)
        return _values(snapshot, location)
    return []


def _keys(snapshot: Snapshot, location: Location) -> list[Completion]:
    place = schema_root().at(location.path)
    replace = snapshot.index.offset_range(location.start, location.end)
    items = []
    for name, child in place.properties().items():
        if name in location.keys:
            continue
        new_text = json.dumps(name) if location.is_string else f"{json.dumps(name)}: "
        items.append(Completion(name, ItemKind.KEY, new_text, replace, child.summary(), child.documentation()))
    return items


def _string_range(snapshot: Snapshot, location: Location) -> tuple[Range, bool]:
    """The range a string value is replaced in, and whether the quotes are to be written."""
    if not location.is_string:
        return snapshot.index.offset_range(location.start, location.end), True
    closed = location.end - location.start >= 2 and snapshot.text[location.end - 1] == '"'
    return snapshot.index.offset_range(location.start + 1, location.end - 1 if closed else location.end), False


def _values(snapshot: Snapshot, location: Location) -> list[Completion]:
    place = schema_root().at(location.path)
    replace, quote = _string_range(snapshot, location)

    def text(value: str) -> str:
        return json.dumps(value) if quote else json.dumps(value)[1:-1]

    items = [Completion(value, ItemKind.VALUE, text(value), replace, place.summary())
             for value in place.string_values()]
    if place.is_reference and snapshot.context is not None:
        items.extend(_reference_names(snapshot.context, place, text, replace))
    if not location.is_string and "boolean" in place.types():
        items.extend(Completion(word, ItemKind.KEYWORD, word, replace) for word in ("true", "false"))
    return items


def _reference_names(
    context: DesignContext, place: SchemaPlace, text: Callable[[str], str], replace: Range
) -> list[Completion]:
    names = [spec.name for spec in context.design.specs]
    names += [t for t in DEPOT_TYPE_NAMES if context.env.groups.get(t)]
    if place.allows_self:
        names.append(SELF)
    return [
        Completion(name, ItemKind.DEPOT, text(name), replace, documentation=describe_depots(name, context))
        for name in dict.fromkeys(names)
    ]


def _expression(snapshot: Snapshot, location: Location, site: Site) -> list[Completion]:
    context = snapshot.context
    word = word_at(location.text, location.cursor)
    start = location.text_offset(word.start)
    replace = snapshot.index.offset_range(start, location.text_offset(location.cursor))
    if word.after_dot:
        kind = receiver_kind(word.receiver or "", site, context)
        return [
            Completion(
                spec.name,
                ItemKind.FIELD,
                spec.name,
                replace,
                f"{spec.receiver.value}.{spec.name}: {spec.result}",
                spec.description,
            )
            for spec in fields_for(kind)
        ]
    items: list[Completion] = []
    for name in bound_names(location.text, location.cursor):
        what = "the member before `it`" if name == PREVIOUS_VARIABLE else "the member being looked at"
        items.append(Completion(name, ItemKind.VARIABLE, name, replace, what, None))
    for name, spec in site.names.items():
        # A site name that is also a function (`top` in an accept rule, `top(d)`) is offered once, with both meanings.
        also = f"\n\n{describe_function(FUNCTIONS[name])}" if name in FUNCTIONS else ""
        items.append(
            Completion(
                name, ItemKind.VARIABLE, name, replace, f"{spec.type} ({site.value} rules)", spec.description + also
            )
        )
    if context is not None:
        for name in [
            *context.env.depots,
            *context.env.group_names,
            *(t for t in DEPOT_TYPE_NAMES if context.env.groups.get(t)),
        ]:
            items.append(Completion(name, ItemKind.DEPOT, name, replace, None, describe_depots(name, context)))
    for name, function in FUNCTIONS.items():
        if name in site.names:
            continue
        items.append(
            Completion(
                name,
                ItemKind.FUNCTION,
                name,
                replace,
                function.overloads[0].signature(name),
                describe_function(function),
            )
        )
    for name, constant in CONSTANTS.items():
        items.append(Completion(name, ItemKind.CONSTANT, name, replace, str(constant.type), constant.description))
    items.extend(Completion(word_, ItemKind.KEYWORD, word_, replace) for word_ in ("true", "false"))
    return items
