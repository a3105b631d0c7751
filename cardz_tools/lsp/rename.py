"""Find references and rename of a depot or group name.

A name is written in three kinds of places: the ``name`` of the depot entry that
defines it, references such as ``"to": "discard"`` or ``"depots": ["cell[3]"]``
(the part before ``[``), and rule expressions, where only a name the expression
checker binds to that depot or group counts (a site name such as ``top`` or a
binder variable is another thing, even when it is spelt the same).

Both features need a design that parses as strict JSON and models (they work on
its tree and its checked expressions). A variant (``extends``) is refused: its
names are shared with the design it extends, and a rename must happen there.
Renaming in that design renames the name in the variants of it that are given
(the server gives the open ones): in their depot entries that name it, their
references and their expressions, so that no variant is left naming a depot
that is gone (:func:`rename_with_variants`).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Sequence
from pathlib import Path

from .. import jsoncst
from ..expr import ExprSyntaxError, parse
from ..expr.builtins import BINDER_VARIABLE, CONSTANTS, FUNCTIONS, PREVIOUS_VARIABLE
from ..expr.env import DEPOT_TYPE_NAMES
from ..expr.sites import Site
from ..model import SELF
from ..source import decoded_offsets, join_pointer
from ..variants import EXTENDS
from .document import DesignContext, Snapshot, design_context, json_tree
from .expressions import NameKind, name_bindings, name_kind, word_at
from .locate import Where, locate
from .positions import Position, Range
from .schemadoc import schema_root

__all__ = ["Place", "Occurrence", "RenameRefused", "symbol_at", "occurrences", "references", "prepare_rename", "rename",
           "rename_with_variants", "references_with_variants", "extends_path"]

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
"""What a depot or group name may be (the schema's ``Identifier``)."""
_KEYWORDS = frozenset({"true", "false", "in", BINDER_VARIABLE, PREVIOUS_VARIABLE})


class Place(enum.Enum):
    """Where a name is written."""

    DEFINITION = "definition"
    REFERENCE = "reference"
    EXPRESSION = "expression"


@dataclasses.dataclass(frozen=True, slots=True)
class Occurrence:
    """One place a name is written: document offsets ``[start, end)`` of the name's characters."""

    start: int
    end: int
    place: Place
    pointer: str


class RenameRefused(ValueError):
    """The name under the cursor cannot be renamed (or not to that); the message says why."""


@dataclasses.dataclass(frozen=True)
class _Design:
    """A document that parses and models, with the context of this very text."""

    root: jsoncst.Node
    context: DesignContext


def _design(snapshot: Snapshot) -> _Design | None:
    """The tree and a context of the snapshot's very text (the server's may be an older text's)."""
    root = json_tree(snapshot.text)
    if root is None:
        return None
    context = design_context(snapshot.text, snapshot.path)
    return _Design(root, context) if context is not None else None


def _string_offsets(text: str, node: jsoncst.Scalar, start: int, end: int) -> tuple[int, int]:
    """Document offsets of decoded characters ``[start, end)`` of the string token ``node``."""
    offsets = decoded_offsets(text[node.start + 1 : node.end - 1])
    return node.start + 1 + offsets[start], node.start + 1 + offsets[end]


_Path = tuple[str | int, ...]


def _strings(node: jsoncst.Node, path: _Path = ()) -> list[tuple[_Path, jsoncst.Scalar]]:
    """Every string value of a tree (not keys) with its path."""
    found: list[tuple[_Path, jsoncst.Scalar]] = []
    stack: list[tuple[_Path, jsoncst.Node]] = [(path, node)]
    while stack:
        here, current = stack.pop()
        if isinstance(current, jsoncst.Scalar):
            if current.text.startswith('"'):
                found.append((here, current))
        elif isinstance(current, jsoncst.Object):
            stack.extend(((*here, m.key), m.value) for m in current.members)
        else:
            stack.extend(((*here, i), item) for i, item in enumerate(current.items))
    found.sort(key=lambda item: item[1].start)
    return found


def _is_spec_name(name: str, context: DesignContext) -> bool:
    return any(spec.name == name for spec in context.design.specs)


def symbol_at(snapshot: Snapshot, position: Position) -> tuple[str, Range] | None:
    """The depot or group name under the cursor and the range of its characters, if there is one."""
    design = _design(snapshot)
    if design is None:
        return None
    found = _symbol_at(snapshot, design, snapshot.index.offset(position))
    if found is None:
        return None
    name, start, end = found
    return name, snapshot.index.offset_range(start, end)


def _symbol_at(snapshot: Snapshot, design: _Design, offset: int) -> tuple[str, int, int] | None:
    context = design.context
    location = locate(snapshot.text, offset)
    if location.where is not Where.VALUE or not location.is_string:
        return None
    site = context.site_at(location.pointer)
    if site is not None:
        word = word_at(location.text, location.cursor)
        if not word.text or word.after_dot or word.is_call:
            return None
        if name_kind(word.text, site, context) not in (NameKind.DEPOT, NameKind.GROUP):
            return None
        start, end = location.text_offset(word.start), location.text_offset(word.end)
        return word.text, start, end
    base = location.text.split("[", 1)[0]
    is_definition = len(location.path) == 3 and location.path[0] == "depots" and location.path[2] == "name"
    if not is_definition and not schema_root().at(location.path).is_reference:
        return None
    if not _is_spec_name(base, context):
        return None
    return base, location.text_offset(0), location.text_offset(len(base))


def occurrences(snapshot: Snapshot, name: str) -> list[Occurrence]:
    """Every place the depot or group ``name`` is written in the document, in document order."""
    design = _design(snapshot)
    return _occurrences(snapshot.text, design, name) if design is not None else []


def _occurrences(text: str, design: _Design, name: str) -> list[Occurrence]:
    context = design.context
    if not _is_spec_name(name, context):
        return []
    found: list[Occurrence] = []
    for path, node in _strings(design.root):
        pointer = join_pointer(path)
        value = node.value
        site = context.site_at(pointer)
        if site is not None:
            found.extend(_in_expression(text, node, pointer, value, site, context, name))
            continue
        is_definition = len(path) == 3 and path[0] == "depots" and path[2] == "name"
        if is_definition and value == name:
            found.append(Occurrence(*_string_offsets(text, node, 0, len(name)), Place.DEFINITION, pointer))
        elif not is_definition and value.split("[", 1)[0] == name and schema_root().at(path).is_reference:
            found.append(Occurrence(*_string_offsets(text, node, 0, len(name)), Place.REFERENCE, pointer))
    return found


def _in_expression(text: str, node: jsoncst.Scalar, pointer: str, expression: str, site: Site,
                   context: DesignContext, name: str) -> list[Occurrence]:
    if name not in expression:
        return []
    try:
        root = parse(expression)
    except ExprSyntaxError:
        return []
    return [Occurrence(*_string_offsets(text, node, sub.start, sub.end), Place.EXPRESSION, pointer)
            for sub, kind in name_bindings(root, site, context)
            if sub.name == name and kind in (NameKind.DEPOT, NameKind.GROUP)]


def references(snapshot: Snapshot, position: Position, include_declaration: bool = True) -> list[Range]:
    """The ranges of every place the name under the cursor is written (empty when it is no depot or group name)."""
    design = _design(snapshot)
    if design is None or design.context.origins is not None:
        return []
    found = _symbol_at(snapshot, design, snapshot.index.offset(position))
    if found is None:
        return []
    return [snapshot.index.offset_range(o.start, o.end) for o in _occurrences(snapshot.text, design, found[0])
            if include_declaration or o.place is not Place.DEFINITION]


def prepare_rename(snapshot: Snapshot, position: Position) -> Range:
    """The range of the name to rename at ``position``.

    :raises RenameRefused: when nothing renamable is under the cursor, saying why.
    """
    design = _design(snapshot)
    if design is None:
        raise RenameRefused("rename needs a design that is valid JSON and loads: fix its errors first")
    if design.context.origins is not None:
        raise RenameRefused("this design extends another: rename the depot in the design that defines it"
                            " (with this variant open, that renames it here too)")
    location = locate(snapshot.text, snapshot.index.offset(position))
    found = _symbol_at(snapshot, design, snapshot.index.offset(position))
    if found is None:
        raise RenameRefused(_why_not(location.text, location.is_string, location.where))
    return snapshot.index.offset_range(found[1], found[2])


def _why_not(text: str, is_string: bool, where: Where) -> str:
    if where is Where.KEY:
        return "a key of the format cannot be renamed"
    if not is_string:
        return "only a depot or group name can be renamed"
    if text == SELF:
        return "@self always names the depot that owns the rule"
    return "only a depot or group name can be renamed (not a depot type, site name, function, field or constant)"


def rename(snapshot: Snapshot, position: Position, new_name: str) -> list[tuple[Range, str]]:
    """The edits that rename the depot or group under the cursor to ``new_name`` everywhere.

    :raises RenameRefused: when the name cannot be renamed, or not to ``new_name``.
    """
    prepare_rename(snapshot, position)
    design = _design(snapshot)
    assert design is not None  # prepare_rename checked it
    found = _symbol_at(snapshot, design, snapshot.index.offset(position))
    assert found is not None
    old = found[0]
    if new_name == old:
        return []
    _check_new_name(new_name, design.context)
    return [(snapshot.index.offset_range(o.start, o.end), new_name)
            for o in _occurrences(snapshot.text, design, old)]


def extends_path(context: DesignContext, path: Path) -> bool:
    """Whether the design of ``context`` is a variant of the design in ``path`` (directly or through a chain)."""
    if context.origins is None or context.path is None:
        return False
    base = path.resolve()
    own = context.path.resolve()
    return any(origin.file.resolve() == base for origin in context.origins.values() if origin.file != own) \
        and own != base


def rename_with_variants(snapshot: Snapshot, position: Position, new_name: str,
                         variants: Sequence[Snapshot]) -> tuple[list[tuple[Range, str]], list[list[tuple[Range, str]]]]:
    """The edits of :func:`rename` in this document, and for each of ``variants`` the edits that keep it in step.

    A variant of this design (its ``extends`` chain reaches :attr:`Snapshot.path`, as it is on disk)
    gets the name renamed where it writes it; a variant of another design, none.

    :raises RenameRefused: as :func:`rename` does, and when a variant of this design does not load
        (its edits could not be found) or already has a depot or group named ``new_name``.
    """
    edits = rename(snapshot, position, new_name)
    if not edits or snapshot.path is None:
        return edits, [[] for _ in variants]
    design = _design(snapshot)
    found = _symbol_at(snapshot, design, snapshot.index.offset(position)) if design is not None else None
    assert found is not None  # rename() checked it
    old = found[0]
    in_variants: list[list[tuple[Range, str]]] = []
    for variant in variants:
        where = variant.path
        variant_design = _design(variant) if where is not None and where != snapshot.path else None
        if where is None or variant_design is None:
            if where is not None and _names_as_base(variant.text, where, snapshot.path):
                raise RenameRefused(f"the open variant {where.name} does not load, so it cannot be renamed in step:"
                                    " fix or close it first")
            in_variants.append([])
            continue
        if not extends_path(variant_design.context, snapshot.path):
            in_variants.append([])
            continue
        try:
            _check_new_name(new_name, variant_design.context)
        except RenameRefused as refused:
            raise RenameRefused(f"in the variant {where.name}: {refused}") from None
        in_variants.append([(variant.index.offset_range(o.start, o.end), new_name)
                            for o in _occurrences(variant.text, variant_design, old)])
    return edits, in_variants


def references_with_variants(snapshot: Snapshot, position: Position, include_declaration: bool,
                             variants: Sequence[Snapshot]) -> tuple[list[Range], list[list[Range]]]:
    """:func:`references` in this document, and for each of ``variants`` where it writes the same depot or group.

    A variant of another design, or one that does not load, has none.
    """
    found = references(snapshot, position, include_declaration)
    design = _design(snapshot) if found and snapshot.path is not None else None
    symbol = _symbol_at(snapshot, design, snapshot.index.offset(position)) if design is not None else None
    in_variants: list[list[Range]] = []
    for variant in variants:
        variant_design = _design(variant) if symbol is not None and variant.path not in (None, snapshot.path) else None
        if variant_design is None or symbol is None or snapshot.path is None \
                or not extends_path(variant_design.context, snapshot.path):
            in_variants.append([])
            continue
        in_variants.append([variant.index.offset_range(o.start, o.end)
                            for o in _occurrences(variant.text, variant_design, symbol[0])
                            if include_declaration or o.place is not Place.DEFINITION])
    return found, in_variants


_EXTENDS_VALUE = re.compile(rf'"{EXTENDS}"\s*:\s*"([^"\\]+)"')


def _names_as_base(text: str, path: Path, base: Path) -> bool:
    """Whether a text that does not load says it extends ``base`` (read without parsing it: it may not parse)."""
    written = _EXTENDS_VALUE.search(text)
    return written is not None and (path.parent / written.group(1)).resolve() == base.resolve()


def _check_new_name(new_name: str, context: DesignContext) -> None:
    if not IDENTIFIER.fullmatch(new_name):
        raise RenameRefused(f"{new_name!r} is not a depot name: letters, digits and underscores, "
                            "not starting with a digit, at most 64")
    if _is_spec_name(new_name, context):
        raise RenameRefused(f"a depot or group is already named {new_name!r}")
    if new_name in DEPOT_TYPE_NAMES:
        raise RenameRefused(f"{new_name!r} is a depot type: a depot named so would make references ambiguous")
    site_names = {name for site in Site for name in site.names}
    if new_name in site_names:
        raise RenameRefused(f"{new_name!r} already means something in rule expressions (a site name)")
    if new_name in FUNCTIONS or new_name in CONSTANTS or new_name in _KEYWORDS:
        raise RenameRefused(f"{new_name!r} already means something in rule expressions")
