"""The packaged JSON Schema as an editor reads it: which keys an object may have,
what they mean, and which values a string may take.

The schema says where a place in a design leads through ``$ref``, ``allOf``,
``anyOf``/``oneOf`` and ``if``/``then``/``else``; :class:`SchemaPlace` follows a
path of keys and indexes through all of them and gathers every subschema that
applies there. ``if`` itself only selects a branch, so it contributes nothing.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import referencing
import referencing.exceptions
from referencing.jsonschema import DRAFT202012

from ..schema import load_packaged_schema

__all__ = ["SchemaPlace", "schema_root", "REFERENCE_DEFS"]

Schema = Mapping[str, Any]
_MAX_DEPTH = 20

REFERENCE_DEFS = ("#/$defs/Reference", "#/$defs/EffectReference")
"""Definitions of values that name a depot, a group or a depot type."""
SELF_REFERENCE_DEF = "#/$defs/EffectReference"
"""Its values may also be ``@self``."""


class _Resolver:
    """Looks up ``$ref`` in the packaged schema only (never the network)."""

    def __init__(self, schema: Schema) -> None:
        uri = str(schema.get("$id", "urn:cardz:schema"))
        resource = referencing.Resource.from_contents(schema, default_specification=DRAFT202012)
        self._resolver = referencing.Registry().with_resource(uri, resource).resolver(base_uri=uri)

    def lookup(self, ref: str) -> Schema | None:
        try:
            contents = self._resolver.lookup(ref).contents
        except referencing.exceptions.Unresolvable:
            return None
        return contents if isinstance(contents, Mapping) else None


@dataclasses.dataclass(frozen=True)
class SchemaPlace:
    """Every subschema that applies at one place of a design (the root: :func:`schema_root`)."""

    schemas: tuple[Schema, ...]
    resolver: _Resolver = dataclasses.field(repr=False, compare=False)

    # -------------------------------------------------------- walking

    def _expanded(self) -> Iterator[Schema]:
        """The schemas with their ``$ref``, combinators and branches followed (each once)."""
        seen: set[int] = set()
        stack = [(schema, 0) for schema in reversed(self.schemas)]
        while stack:
            schema, depth = stack.pop()
            if id(schema) in seen or depth > _MAX_DEPTH:
                continue
            seen.add(id(schema))
            yield schema
            more: list[Schema] = []
            if isinstance(schema.get("$ref"), str):
                target = self.resolver.lookup(schema["$ref"])
                if target is not None:
                    more.append(target)
            for keyword in ("allOf", "anyOf", "oneOf"):
                more.extend(s for s in schema.get(keyword, ()) if isinstance(s, Mapping))
            more.extend(schema[k] for k in ("then", "else") if isinstance(schema.get(k), Mapping))
            stack.extend((s, depth + 1) for s in reversed(more))

    def child(self, step: str | int) -> SchemaPlace:
        """The place of a member (a key of an object, an index of an array)."""
        found: list[Schema] = []
        for schema in self._expanded():
            if isinstance(step, str):
                properties = schema.get("properties", {})
                if isinstance(properties.get(step), Mapping):
                    found.append(properties[step])
            elif isinstance(schema.get("items"), Mapping):
                found.append(schema["items"])
        return SchemaPlace(tuple(found), self.resolver)

    def at(self, path: Sequence[str | int]) -> SchemaPlace:
        """The place at a path of keys and indexes below this one."""
        place = self
        for step in path:
            place = place.child(step)
        return place

    # -------------------------------------------------------- questions

    @property
    def known(self) -> bool:
        """Whether the schema says anything about this place."""
        return bool(self.schemas)

    def properties(self) -> dict[str, SchemaPlace]:
        """The keys an object here may have, in the schema's order."""
        names: dict[str, list[Schema]] = {}
        for schema in self._expanded():
            for name, sub in schema.get("properties", {}).items():
                if isinstance(sub, Mapping):
                    names.setdefault(name, []).append(sub)
        return {name: SchemaPlace(tuple(subs), self.resolver) for name, subs in names.items()}

    def required(self) -> frozenset[str]:
        """Keys every object here must have (branches of ``if`` excluded: they depend on the values)."""
        return frozenset(k for schema in self.schemas for k in schema.get("required", ()))

    def documentation(self) -> str | None:
        """The markdown documentation of this place: the nearest ``markdownDescription``
        (or ``description``), the place's own before the definition it refers to."""
        for key in ("markdownDescription", "description"):
            for schema in self._expanded():
                if isinstance(schema.get(key), str):
                    return str(schema[key])
        return None

    def summary(self) -> str | None:
        """The one-line ``description`` (for completion lists)."""
        for schema in self._expanded():
            if isinstance(schema.get("description"), str):
                return str(schema["description"])
        return None

    def string_values(self) -> tuple[str, ...]:
        """The strings allowed here when the schema lists them (``enum``/``const``), else ()."""
        values = _strings(self.schemas, self.resolver, 0)
        return tuple(values) if values is not None else ()

    def default(self) -> Any:
        """The documented default value, or None."""
        for schema in self._expanded():
            if "default" in schema:
                return schema["default"]
        return None

    def types(self) -> frozenset[str]:
        """The JSON types the schema names here (empty: not said)."""
        found: set[str] = set()
        for schema in self._expanded():
            kind = schema.get("type")
            found.update([kind] if isinstance(kind, str) else kind if isinstance(kind, list) else [])
            if "enum" in schema or "const" in schema:
                values = schema.get("enum", [schema.get("const")])
                found.update(
                    "string" if isinstance(v, str) else "boolean" if isinstance(v, bool) else "number" for v in values
                )
        return frozenset(found)

    def refers_to(self) -> frozenset[str]:
        """The ``$ref`` targets named at this place (to tell a depot reference)."""
        return frozenset(s["$ref"] for s in self._expanded() if isinstance(s.get("$ref"), str))

    @property
    def is_reference(self) -> bool:
        """Whether a value here names a depot, a group or a depot type."""
        return bool(self.refers_to() & set(REFERENCE_DEFS))

    @property
    def allows_self(self) -> bool:
        """Whether a value here may be ``@self`` (an effect's depot)."""
        return SELF_REFERENCE_DEF in self.refers_to()


def _strings(schemas: Sequence[Schema], resolver: _Resolver, depth: int) -> list[str] | None:
    """The strings every one of ``schemas`` allows, in order; None when any string would do."""
    return _intersection([_strings_of(schema, resolver, depth) for schema in schemas])


def _strings_of(schema: Schema, resolver: _Resolver, depth: int) -> list[str] | None:
    if depth > _MAX_DEPTH:
        return None
    constraints: list[list[str] | None] = []
    kind = schema.get("type")
    kinds = [kind] if isinstance(kind, str) else kind if isinstance(kind, list) else None
    if kinds is not None and "string" not in kinds:
        return []
    if "enum" in schema:
        constraints.append([v for v in schema["enum"] if isinstance(v, str)])
    if "const" in schema:
        constraints.append([schema["const"]] if isinstance(schema["const"], str) else [])
    if isinstance(schema.get("$ref"), str):
        target = resolver.lookup(schema["$ref"])
        if target is not None:
            constraints.append(_strings_of(target, resolver, depth + 1))
    for sub in schema.get("allOf", ()):
        constraints.append(_strings_of(sub, resolver, depth + 1))
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            options = [_strings_of(sub, resolver, depth + 1) for sub in schema[keyword]]
            constraints.append(None if any(o is None for o in options) else [v for o in options for v in o or []])
    if "if" in schema:
        constraints.append(_branch_strings(schema, resolver, depth))
    return _intersection(constraints)


def _intersection(constraints: Sequence[list[str] | None]) -> list[str] | None:
    """The strings every constraint allows (None: no constraint at all)."""
    result: list[str] | None = None
    for allowed in constraints:
        if allowed is not None:
            result = allowed if result is None else [v for v in result if v in allowed]
    return result


def _branch_strings(schema: Schema, resolver: _Resolver, depth: int) -> list[str] | None:
    """Strings allowed by ``if``/``then``/``else``; ``"if": {"type": "string"}`` picks ``then`` for strings."""
    then = schema.get("then")
    otherwise = schema.get("else")
    then_values = _strings_of(then, resolver, depth + 1) if isinstance(then, Mapping) else None
    if schema["if"] == {"type": "string"}:
        return then_values
    else_values = _strings_of(otherwise, resolver, depth + 1) if isinstance(otherwise, Mapping) else None
    if then_values is None or else_values is None:
        return None
    return then_values + [v for v in else_values if v not in then_values]


@functools.cache
def schema_root() -> SchemaPlace:
    """The root of the packaged schema (a whole design)."""
    schema = load_packaged_schema()
    return SchemaPlace((schema,), _Resolver(schema))
