"""JSON Schema validation of a design, as CZ2xx diagnostics.

The schema ships inside the package (``cardz_tools/data/cardz.schema.json``) and
is the only document the validator can see: the :class:`referencing.Registry`
holds nothing else, so no ``$ref`` ever reaches the network.

Each :class:`jsonschema.ValidationError` becomes one diagnostic (or one per
missing or unknown key) with a message written for a designer, at the span of
the offending key or value. For ``oneOf``/``anyOf`` failures the most relevant
sub-error is reported instead of the whole alternative list.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

import referencing
import referencing.exceptions
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match
from referencing.jsonschema import DRAFT202012

from . import diagnostics as dx
from .diagnostics import Diagnostic
from .source import SourceFile, join_pointer

SCHEMA_PACKAGE = "cardz_tools"
SCHEMA_RESOURCE = "data/cardz.schema.json"
_DEFAULT_URI = "urn:cardz:schema"

_CODE_BY_KEYWORD: dict[str, str] = {
    "type": "CZ201",
    "required": "CZ202",
    "enum": "CZ203",
    "const": "CZ203",
    "additionalProperties": "CZ204",
    "unevaluatedProperties": "CZ204",
    "minimum": "CZ205",
    "maximum": "CZ205",
    "exclusiveMinimum": "CZ205",
    "exclusiveMaximum": "CZ205",
    "minItems": "CZ205",
    "maxItems": "CZ205",
    "minLength": "CZ205",
    "maxLength": "CZ205",
    "pattern": "CZ206",
}
"""The diagnostic code of each JSON Schema keyword; any other keyword gives CZ299."""

_ALTERNATIVES = ("oneOf", "anyOf")


LONG_STRING = 40_000
"""Strings longer than this are cut to it before validation: every ``maxLength`` of the schema
is smaller, so they are reported just the same, but jsonschema repeats a string in each
message it builds, and a 5 MB expression would otherwise cost gigabytes and seconds."""


def _shortened(data: Any) -> Any:
    """``data`` with every string longer than :data:`LONG_STRING` cut to that length (a copy only if needed)."""
    if isinstance(data, str):
        return data[:LONG_STRING] if len(data) > LONG_STRING else data
    if isinstance(data, list):
        items = [_shortened(item) for item in data]
        return data if all(a is b for a, b in zip(items, data, strict=True)) else items
    if isinstance(data, dict):
        members = {_shortened(key): _shortened(value) for key, value in data.items()}
        same = len(members) == len(data) and all(k in data and members[k] is data[k] for k in members)
        return data if same else members
    return data


class SchemaUnavailable(RuntimeError):
    """The packaged schema is missing or is not valid JSON (a broken installation)."""


def load_packaged_schema() -> dict[str, Any]:
    """The schema shipped with the package.

    :raises SchemaUnavailable: if it is missing or unreadable.
    """
    try:
        text = importlib.resources.files(SCHEMA_PACKAGE).joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
        schema = json.loads(text)
    except (OSError, ValueError) as exc:
        raise SchemaUnavailable(f"the packaged schema {SCHEMA_RESOURCE} cannot be read: {exc}") from exc
    if not isinstance(schema, dict):
        raise SchemaUnavailable(f"the packaged schema {SCHEMA_RESOURCE} is not a JSON object")
    return schema


def inline_refs(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The schema with every ``#/$defs/...`` reference replaced by its target (for a non-recursive schema).

    A recursive reference is left as it is, resolved by the validator as usual.
    """
    definitions: Mapping[str, Any] = schema.get("$defs", {})

    def inline(node: Any, trail: tuple[str, ...]) -> Any:
        if isinstance(node, Mapping):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/$defs/"):
                name = reference[len("#/$defs/"):]
                if name in definitions and name not in trail:
                    target = inline(definitions[name], (*trail, name))
                    rest = {k: inline(v, trail) for k, v in node.items() if k != "$ref"}
                    return {"allOf": [target], **rest} if rest else target
            return {k: inline(v, trail) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v, trail) for v in node]
        return node

    return inline(schema, ())


class SchemaChecker:
    """Validates designs against one schema and reports diagnostics.

    Build one per schema and reuse it: the validator is compiled once.
    """

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        uri = str(schema.get("$id", _DEFAULT_URI))
        resource = referencing.Resource.from_contents(schema, default_specification=DRAFT202012)
        self._registry: referencing.Registry[Any] = referencing.Registry().with_resource(uri, resource)
        self._resolver = self._registry.resolver(base_uri=uri)
        self._validator = Draft202012Validator(schema, registry=self._registry)
        # Valid files are the common case: a copy of the schema with every local
        # $ref inlined validates them without reference lookups (about a third
        # faster); errors are still reported through the schema as written.
        self._fast = Draft202012Validator(inline_refs(schema))

    def is_valid(self, data: Any) -> bool:
        """Whether ``data`` passes the schema (no diagnostics are built)."""
        return bool(self._fast.is_valid(data))

    def check(self, source: SourceFile) -> list[Diagnostic]:
        """Diagnostics for every schema violation in a file that was read.

        A value that several keywords reject (a ``type`` and an ``if``/``else``
        branch, two enums combined by ``allOf``) is reported once per code.
        """
        shortened = _shortened(source.data)
        if self._fast.is_valid(shortened):
            return []
        errors = [_most_relevant(error) for error in self._validator.iter_errors(shortened)]
        allowed = _allowed_values(errors)
        found: list[Diagnostic] = []
        seen: set[tuple[str, str, str]] = set()
        for error in errors:
            for diagnostic in self._diagnostics(error, source, allowed):
                detail = diagnostic.message if diagnostic.code == "CZ202" else ""
                key = (diagnostic.code, diagnostic.pointer, detail)
                if key not in seen:
                    seen.add(key)
                    found.append(diagnostic)
        return found

    # -------------------------------------------------------- per keyword

    def _diagnostics(
        self, error: ValidationError, source: SourceFile, allowed_at: Mapping[str, list[Any]]
    ) -> Iterator[Diagnostic]:
        keyword = str(error.validator)
        pointer = join_pointer(list(error.absolute_path))
        where = _describe(list(error.absolute_path), error.instance)
        code = _CODE_BY_KEYWORD.get(keyword, "CZ299")
        file = source.filename
        if keyword == "required":
            for key in _missing_keys(error):
                yield dx.make(
                    code,
                    f"{where} is missing the required key '{key}'",
                    file,
                    span=source.head_span(pointer),
                    pointer=pointer,
                    hint=_schema_hint(error.schema, key),
                )
        elif keyword in ("additionalProperties", "unevaluatedProperties"):
            yield from self._unknown_keys(error, pointer, where, source)
        elif keyword == "type":
            expected = _expected_types(error.validator_value)
            yield dx.make(
                code,
                f"{where} must be {expected}, not {_json_type(error.instance)}",
                file,
                span=source.span(pointer),
                pointer=pointer,
            )
        elif keyword in ("enum", "const"):
            allowed = allowed_at.get(pointer) or _enum_values(error)
            shown = ", ".join(json.dumps(value) for value in allowed)
            message = (
                f"{where} is {json.dumps(error.instance)}, which is not one of {shown}"
                if len(allowed) > 1
                else f"{where} must be {shown}, not {json.dumps(error.instance)}"
            )
            hint = None
            if isinstance(error.instance, str):
                hint = dx.did_you_mean(error.instance, [str(v) for v in allowed])
            yield dx.make(code, message, file, span=source.span(pointer), pointer=pointer, hint=hint)
        elif code == "CZ205":
            yield dx.make(code, _range_message(keyword, where, error), file, span=source.span(pointer), pointer=pointer)
        elif keyword == "pattern":
            yield dx.make(
                code,
                f"{where} is {json.dumps(error.instance)}, which does not have the required form",
                file,
                span=source.span(pointer),
                pointer=pointer,
                hint=_pattern_hint(error),
            )
        elif keyword in _ALTERNATIVES:
            yield self._alternatives(error, pointer, where, source)
        else:
            yield dx.make(code, f"{where}: {error.message}", file, span=source.span(pointer), pointer=pointer)

    def _alternatives(self, error: ValidationError, pointer: str, where: str, source: SourceFile) -> Diagnostic:
        """A value that fits none of the forms of a ``oneOf``/``anyOf``: name the forms."""
        forms: list[str] = []
        words: list[str] = []
        type_fits = False
        for branch in error.validator_value if isinstance(error.validator_value, list) else []:
            branch = self._deref(branch)
            if not isinstance(branch, Mapping):
                continue
            values = list(branch["enum"]) if "enum" in branch else [branch["const"]] if "const" in branch else None
            if values is not None:
                forms.extend(json.dumps(v) for v in values)
                words.extend(str(v) for v in values if isinstance(v, str))
            elif "type" in branch:
                forms.append(_expected_types(branch["type"]))
                types = [branch["type"]] if isinstance(branch["type"], str) else list(branch["type"])
                type_fits = type_fits or any(self._validator.is_type(error.instance, t) for t in types)
        if not forms:
            message = f"{where} has the value {_short(error.instance)}, which matches none of the allowed forms"
            return dx.make("CZ299", message, source.filename, span=source.span(pointer), pointer=pointer)
        shown = ", ".join(forms[:-1]) + " or " + forms[-1] if len(forms) > 1 else forms[0]
        hint = dx.did_you_mean(error.instance, words) if isinstance(error.instance, str) and words else None
        if type_fits:
            code = "CZ299"  # right type, yet no form fits: nothing more specific to say
        elif isinstance(error.instance, str) and words:
            code = "CZ203"  # a string where named values are expected
        else:
            code = "CZ201"
        return dx.make(
            code,
            f"{where} must be {shown}, not {_short(error.instance)}",
            source.filename,
            span=source.span(pointer),
            pointer=pointer,
            hint=hint,
        )

    def _deref(self, schema: Any) -> Any:
        """A subschema with a top-level ``$ref`` replaced by what it points to."""
        if isinstance(schema, Mapping) and "$ref" in schema:
            try:
                return self._resolver.lookup(schema["$ref"]).contents
            except referencing.exceptions.Unresolvable:
                return schema
        return schema

    def _unknown_keys(
        self, error: ValidationError, pointer: str, where: str, source: SourceFile
    ) -> Iterator[Diagnostic]:
        instance = error.instance
        if not isinstance(instance, Mapping):  # pragma: no cover - these keywords only fail on objects
            return
        known, patterns = self._known_properties(error.schema, depth=0)
        unknown = [key for key in instance if key not in known and not any(re.search(p, key) for p in patterns)]
        for key in unknown:
            child = f"{pointer}/{_escape(key)}"
            hint = dx.did_you_mean(key, sorted(known)) if known else None
            yield dx.make(
                "CZ204",
                f"unknown key '{key}' in {where} (it is ignored)",
                source.filename,
                span=source.span(child, "key"),
                pointer=child,
                hint=hint,
            )

    def _known_properties(self, schema: Any, depth: int) -> tuple[set[str], list[str]]:
        """Property names (and patterns) a schema defines, through ``$ref`` and combinators."""
        names: set[str] = set()
        patterns: list[str] = []
        if not isinstance(schema, Mapping) or depth > 20:
            return names, patterns
        names.update(schema.get("properties", {}))
        patterns.extend(schema.get("patternProperties", {}))
        subschemas: list[Any] = []
        for keyword in ("allOf", "anyOf", "oneOf"):
            subschemas.extend(schema.get(keyword, []))
        for keyword in ("if", "then", "else"):
            if keyword in schema:
                subschemas.append(schema[keyword])
        subschemas.extend(schema.get("dependentSchemas", {}).values())
        if "$ref" in schema:
            try:
                subschemas.append(self._resolver.lookup(schema["$ref"]).contents)
            except referencing.exceptions.Unresolvable:
                pass
        for sub in subschemas:
            more_names, more_patterns = self._known_properties(sub, depth + 1)
            names |= more_names
            patterns.extend(more_patterns)
        return names, patterns


@functools.cache
def packaged_checker() -> SchemaChecker:
    """The checker for the packaged schema, built once per process.

    :raises SchemaUnavailable: if the packaged schema is missing.
    """
    return SchemaChecker(load_packaged_schema())


def check_source(source: SourceFile, checker: SchemaChecker | None = None) -> list[Diagnostic]:
    """Schema diagnostics for a file that was read (none for a file whose data is unknown)."""
    if not source.ok:
        return []
    return (checker or packaged_checker()).check(source)


# ---------------------------------------------------------------- choosing an error


def _most_relevant(error: ValidationError) -> ValidationError:
    """For a failed ``oneOf``/``anyOf``, the sub-error that most likely says what is wrong.

    Sub-errors that only say "this is not that form" (a wrong type, a value not
    in an enum, at the value itself) are set aside: an object written for the
    object form of ``acceptRule`` is wrong about its keys, not about not being
    ``"none"``. Among the rest :func:`jsonschema.exceptions.best_match` picks.
    When nothing is left, the value fits no form and the alternative itself is
    reported (see ``SchemaChecker._alternatives``).
    """
    while error.validator in _ALTERNATIVES and error.context:
        fitting = [
            sub
            for sub in error.context
            if not (len(sub.relative_path) == 0 and sub.validator in ("type", "enum", "const"))
        ]
        chosen = best_match(fitting)
        if chosen is None:
            break
        error = chosen
    return error


def _enum_values(error: ValidationError) -> list[Any]:
    value = error.validator_value
    return list(value) if error.validator == "enum" and isinstance(value, list) else [value]


def _allowed_values(errors: list[ValidationError]) -> dict[str, list[Any]]:
    """Where several ``enum``/``const`` keywords reject one value: the values that all of them allow."""
    allowed: dict[str, list[Any]] = {}
    for error in errors:
        if error.validator in ("enum", "const"):
            pointer = join_pointer(list(error.absolute_path))
            values = _enum_values(error)
            both = [value for value in allowed.get(pointer, values) if value in values]
            allowed[pointer] = both or values
    return allowed


# ---------------------------------------------------------------- wording


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


_NAMED_ITEMS = {"depots": "depot", "actions": "action"}
"""Lists whose items have a ``name`` that messages use: ``depot 'tab'`` reads better than ``item 3``."""


def _describe(path: list[str | int], instance: object = None) -> str:
    """How a message names the place: ``'repeat'``, ``depot 'tab'``, ``item 2 of 'dealRules'``, ``the design``."""
    if not path:
        return "the design"
    last = path[-1]
    if isinstance(last, int):
        parent = next((p for p in reversed(path[:-1]) if isinstance(p, str)), None)
        name = instance.get("name") if isinstance(instance, Mapping) else None
        if parent in _NAMED_ITEMS and isinstance(name, str):
            return f"{_NAMED_ITEMS[parent]} '{name}'"
        return f"item {last} of '{parent}'" if parent else f"item {last}"
    return f"'{last}'"


_TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _expected_types(value: object) -> str:
    types = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    words = [_TYPE_WORDS.get(str(t), str(t)) for t in types]
    return " or ".join(words) if words else "of another type"


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction" if not value.is_integer() else "a number"
    if isinstance(value, str):
        return f"a string ({_short(value)})"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _short(value: object, limit: int = 40) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _missing_keys(error: ValidationError) -> list[str]:
    required = error.validator_value if isinstance(error.validator_value, list) else []
    instance = error.instance if isinstance(error.instance, Mapping) else {}
    return [str(key) for key in required if key not in instance]


def _range_message(keyword: str, where: str, error: ValidationError) -> str:
    bound = error.validator_value
    instance = error.instance
    match keyword:
        case "minimum":
            return f"{where} is {_short(instance)}; it must be at least {bound}"
        case "maximum":
            return f"{where} is {_short(instance)}; it must be at most {bound}"
        case "exclusiveMinimum":
            return f"{where} is {_short(instance)}; it must be greater than {bound}"
        case "exclusiveMaximum":
            return f"{where} is {_short(instance)}; it must be less than {bound}"
        case "minItems":
            assert isinstance(instance, list)  # jsonschema checks minItems/maxItems on arrays only
            return f"{where} has {len(instance)} items; it needs at least {bound}"
        case "maxItems":
            assert isinstance(instance, list)
            return f"{where} has {len(instance)} items; it may have at most {bound}"
        case "minLength":
            return f"{where} is too short: at least {bound} characters"
        case _:
            return f"{where} is too long: at most {bound} characters"


def _schema_hint(schema: Any, key: str | None) -> str | None:
    """The schema's own description of a key (or of the schema), as a hint."""
    if not isinstance(schema, Mapping):
        return None
    target = schema.get("properties", {}).get(key) if key is not None else schema
    if isinstance(target, Mapping) and isinstance(target.get("description"), str):
        return str(target["description"]).split("\n")[0]
    return None


def _pattern_hint(error: ValidationError) -> str:
    described = _schema_hint(error.schema, None)
    return described or f"it must match the pattern {error.validator_value}"
