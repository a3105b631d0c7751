"""Variants: a design that says ``"extends": "other.cardz"`` and gives only what it changes.

:func:`flatten` follows the chain of ``extends`` and merges it into one standalone
design, remembering for every JSON pointer of the result which file and which
pointer in that file the value came from, so that a diagnostic about the merged
design can point at the line the designer wrote. The merge (``docs/variants.md``):

* top-level keys replace the inherited value whole; ``null`` removes the key;
* ``depots`` merge by ``name``: an entry naming a known depot changes it (objects
  merge key by key, recursively; lists and other values replace; ``null`` removes
  a key), an entry with a new name is appended, and ``{ "name": "x", "remove": true }``
  deletes depot ``x``;
* ``dealRules`` given as a list replace the list; given as an object they change
  rules by index: ``{ "0": { "faceDown": 6 } }`` merges into the first rule and
  ``{ "2": null }`` removes the third (indexes always count in the inherited list).

``extends`` is a path relative to the folder of the file that contains it and
must stay inside that folder. Chains work; cycles and chains of more than
:data:`MAX_EXTENDS_DEPTH` ``extends`` are errors.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, TextIO

from . import diagnostics, fmt, jsoncst
from .diagnostics import Diagnostic
from .jsoncst import Array, Member, Node, Object, ParsedFile, Scalar

MAX_EXTENDS_DEPTH = 8
"""At most this many ``extends`` links in a chain."""

EXTENDS = "extends"
REMOVE = "remove"


@dataclasses.dataclass(frozen=True, slots=True)
class Origin:
    """Where a value of a merged design was written: a file and a JSON pointer in it."""

    file: Path
    pointer: str


Provenance = Mapping[str, Origin]
"""Every JSON pointer of a merged design mapped to the place it came from."""


class VariantError(Exception):
    """A design's chain of ``extends`` cannot be flattened; ``diagnostics`` say why."""

    def __init__(self, problems: Sequence[Diagnostic]) -> None:
        super().__init__("; ".join(f"{d.file}: {d.message}" for d in problems))
        self.diagnostics = tuple(problems)


@dataclasses.dataclass(frozen=True)
class Flattened:
    """A standalone design: its tree (token text kept), its JSON value and provenance."""

    tree: Node
    design: Any
    provenance: Provenance
    chain: tuple[Path, ...]
    """The files merged, the one asked for first, then what it extends, and so on."""

    def text(self) -> str:
        """The standalone design in the canonical layout of ``cardz fmt``."""
        return fmt.format_node(self.tree)


# ---------------------------------------------------------------- the annotated tree


@dataclasses.dataclass(slots=True)
class _Tree:
    """A JSON value where every node remembers its origin. Exactly one of the three forms is set."""

    origin: Origin
    scalar: Scalar | None = None
    members: dict[str, tuple[str, _Tree]] | None = None  # key -> (key text, value); dicts keep order
    items: list[_Tree] | None = None

    def get(self, key: str) -> _Tree | None:
        if self.members is None or key not in self.members:
            return None
        return self.members[key][1]

    @property
    def is_null(self) -> bool:
        return self.scalar is not None and self.scalar.text == "null"

    def string(self) -> str | None:
        """The value when this is a string, else None."""
        if self.scalar is not None and self.scalar.text.startswith('"'):
            value = self.scalar.value
            return value if isinstance(value, str) else None
        return None


def _annotate(node: Node, file: Path, pointer: str) -> _Tree:
    origin = Origin(file, pointer)
    if isinstance(node, Scalar):
        return _Tree(origin, scalar=node)
    if isinstance(node, Array):
        return _Tree(
            origin,
            items=[_annotate(item, file, jsoncst.child_pointer(pointer, i)) for i, item in enumerate(node.items)],
        )
    members = {
        m.key: (m.key_text, _annotate(m.value, file, jsoncst.child_pointer(pointer, m.key))) for m in node.members
    }
    return _Tree(origin, members=members)


def _emit(tree: _Tree, pointer: str, provenance: dict[str, Origin]) -> Node:
    provenance[pointer] = tree.origin
    if tree.scalar is not None:
        return tree.scalar
    if tree.items is not None:
        return Array(
            tuple(_emit(item, jsoncst.child_pointer(pointer, i), provenance) for i, item in enumerate(tree.items))
        )
    assert tree.members is not None
    return Object(
        tuple(
            Member(key, key_text, _emit(value, jsoncst.child_pointer(pointer, key), provenance))
            for key, (key_text, value) in tree.members.items()
        )
    )


# ---------------------------------------------------------------- merging


class _Merger:
    """Applies one variant file to the design it extends, collecting problems."""

    def __init__(self, parsed: ParsedFile) -> None:
        self.parsed = parsed
        self.problems: list[Diagnostic] = []

    def problem(self, pointer: str, message: str, hint: str | None = None) -> None:
        self.problems.append(
            diagnostics.make("CZ654", message, str(self.parsed.path), self.parsed.span_of(pointer), pointer, hint)
        )

    def design(self, base: _Tree, patch: _Tree) -> _Tree:
        if base.members is None:
            self.problem("/extends", "the design it extends is not a JSON object")
            return patch
        assert patch.members is not None
        members = dict(base.members)
        members.pop(EXTENDS, None)
        for key, (key_text, value) in patch.members.items():
            if key == EXTENDS:
                continue
            if value.is_null:
                members.pop(key, None)
            elif key == "depots":
                members[key] = (key_text, self.depots(base.get(key), value))
            elif key == "dealRules" and value.members is not None:
                members[key] = (key_text, self.deal_rules(base.get(key), value))
            else:
                members[key] = (key_text, _merge(None, value))
        return _Tree(patch.origin, members=members)

    def depots(self, base: _Tree | None, patch: _Tree) -> _Tree:
        pointer = patch.origin.pointer
        if patch.items is None:
            self.problem(pointer, "in a variant, depots is a list of entries merged into the inherited depots by name")
            return base if base is not None else patch
        inherited = list(base.items) if base is not None and base.items is not None else []
        position = {name: i for i, d in enumerate(inherited) if (name := _depot_name(d)) is not None}
        result: list[_Tree | None] = list(inherited)
        seen: set[str] = set()
        for entry in patch.items:
            here = entry.origin.pointer
            name = _depot_name(entry)
            if name is None:
                self.problem(here, 'a depot entry in a variant needs a "name": the depot it changes, adds or removes')
                continue
            if name in seen:
                self.problem(jsoncst.child_pointer(here, "name"), f"depot {name!r} is changed twice in this variant")
                continue
            seen.add(name)
            remove = entry.get(REMOVE)
            if remove is not None:
                assert entry.members is not None
                if remove.scalar is None or remove.scalar.text != "true" or set(entry.members) != {"name", REMOVE}:
                    self.problem(here, 'a removal is written { "name": ..., "remove": true } and nothing else')
                elif name not in position:
                    self.problem(
                        here,
                        f"there is no inherited depot {name!r} to remove",
                        diagnostics.did_you_mean(name, list(position)),
                    )
                else:
                    result[position[name]] = None
                continue
            if name in position:
                result[position[name]] = _merge(inherited[position[name]], entry)
            else:
                result.append(_merge(None, entry))
        return _Tree(patch.origin, items=[d for d in result if d is not None])

    def deal_rules(self, base: _Tree | None, patch: _Tree) -> _Tree:
        assert patch.members is not None
        if base is None or base.items is None:
            self.problem(
                patch.origin.pointer,
                "deal rules are changed by index, but the design it extends has no list of deal rules",
            )
            return patch
        result: list[_Tree | None] = list(base.items)
        for key, (_, change) in patch.members.items():
            here = change.origin.pointer
            if not re.fullmatch(r"0|[1-9][0-9]*", key) or int(key) >= len(result):
                self.problem(here, f"{key!r} is not the index of an inherited deal rule (0 to {len(result) - 1})")
            elif change.is_null:
                result[int(key)] = None
            elif change.members is None:
                self.problem(here, "a deal rule is changed by an object of the keys it changes, or removed by null")
            else:
                result[int(key)] = _merge(base.items[int(key)], change)
        return _Tree(patch.origin, items=[r for r in result if r is not None])


def _depot_name(depot: _Tree) -> str | None:
    name = depot.get("name")
    return name.string() if name is not None else None


def _merge(base: _Tree | None, patch: _Tree) -> _Tree:
    """JSON merge patch (RFC 7396): objects merge key by key, ``null`` removes, the rest replaces."""
    if patch.members is None:
        return patch
    members = dict(base.members) if base is not None and base.members is not None else {}
    for key, (key_text, value) in patch.members.items():
        if value.is_null:
            members.pop(key, None)
        else:
            members[key] = (key_text, _merge(members[key][1] if key in members else None, value))
    return _Tree(patch.origin, members=members)


# ---------------------------------------------------------------- the chain


def _resolve_extends(parsed: ParsedFile, reference: str) -> tuple[Path | None, Diagnostic | None]:
    """The file ``extends`` names, or a diagnostic when it may not be followed."""
    file = str(parsed.path)
    span = parsed.span_of("/extends")
    folder = parsed.path.parent

    def refuse(code: str, message: str, hint: str | None = None) -> tuple[None, Diagnostic]:
        return None, diagnostics.make(code, message, file, span, "/extends", hint)

    if not reference or "\\" in reference or "\x00" in reference:
        return refuse("CZ654", f"extends {reference!r} is not a relative path written with '/'")
    if PurePosixPath(reference).is_absolute() or PureWindowsPath(reference).anchor:
        return refuse(
            "CZ651",
            f"extends {reference!r} is an absolute path",
            'name a file in the same folder, such as "weathervane.cardz"',
        )
    target = folder / reference
    try:
        real_folder = folder.resolve()
        inside = target.resolve().is_relative_to(real_folder)
        is_file = inside and target.is_file()
    except (OSError, RuntimeError, ValueError) as exc:  # a name too long, a symbolic link loop, a lone surrogate
        return refuse("CZ650", f"extends {reference!r} cannot be followed: {getattr(exc, 'strerror', None) or exc}")
    if not inside:
        if os.path.normpath(reference).split(os.sep)[0] == "..":
            return refuse("CZ651", f"extends {reference!r} leads out of the design's folder through '..'")
        return refuse("CZ651", f"extends {reference!r} leads out of the design's folder through a symbolic link")
    if not is_file:
        return refuse("CZ650", f"extends {reference!r}: there is no such file next to this design")
    return target, None


def _read_chain(path: Path, text: str | None = None) -> list[ParsedFile]:
    """The design and every design it extends, in that order (``text``: the first file's unsaved text)."""
    chain: list[ParsedFile] = []
    real_paths: list[Path] = []
    current = path
    while True:
        if text is not None and not chain:
            root, problems = jsoncst.parse_text(text, str(path))
            parsed = ParsedFile(path, text, root) if root is not None else None
        else:
            parsed, problems = jsoncst.read_file(current)
        if parsed is None:
            raise VariantError(problems)
        chain.append(parsed)
        try:
            real_paths.append(current.resolve())
        except (OSError, RuntimeError, ValueError):
            real_paths.append(current.absolute())
        root = parsed.root
        reference = root.get(EXTENDS) if isinstance(root, Object) else None
        if reference is None:
            return chain
        file, span = str(parsed.path), parsed.span_of("/extends")
        value = reference.value if isinstance(reference, Scalar) else None
        if not isinstance(value, str):
            raise VariantError(
                [diagnostics.make("CZ654", "extends is the path of a design file, as a string", file, span, "/extends")]
            )
        if len(chain) > MAX_EXTENDS_DEPTH:
            names = " -> ".join(p.path.name for p in chain)
            raise VariantError(
                [
                    diagnostics.make(
                        "CZ653",
                        f"more than {MAX_EXTENDS_DEPTH} designs extend one another: {names} -> ...",
                        file,
                        span,
                        "/extends",
                    )
                ]
            )
        target, problem = _resolve_extends(parsed, value)
        if problem is not None:
            raise VariantError([problem])
        assert target is not None
        if target.resolve() in real_paths:  # resolved without error in _resolve_extends
            names = " -> ".join([p.path.name for p in chain] + [target.name])
            raise VariantError(
                [diagnostics.make("CZ652", f"designs extend each other in a cycle: {names}", file, span, "/extends")]
            )
        current = target


def flatten_file(path: Path, text: str | None = None) -> Flattened:
    """Merge a design with everything it extends into one standalone design.

    A design without ``extends`` comes back as it is (its provenance points into itself).
    ``text``, when given, is read instead of ``path``'s contents (an editor's unsaved
    buffer); the designs it extends are still found next to ``path``.

    :raises VariantError: when a file cannot be read or parsed, ``extends`` may not
        be followed (missing, outside the folder, a cycle, too deep) or a change
        cannot be applied; its diagnostics name the file and pointer at fault.
    """
    chain = _read_chain(path, text)
    base = chain[-1]
    tree = _annotate(base.root, base.path, "")
    for parsed in reversed(chain[:-1]):
        merger = _Merger(parsed)
        tree = merger.design(tree, _annotate(parsed.root, parsed.path, ""))
        if merger.problems:
            raise VariantError(merger.problems)
    provenance: dict[str, Origin] = {}
    node = _emit(tree, "", provenance)
    return Flattened(node, jsoncst.to_python(node), provenance, tuple(p.path for p in chain))


def flatten(path: Path) -> tuple[Any, Provenance]:
    """The merged design of ``path`` and where each of its values was written.

    :raises VariantError: see :func:`flatten_file`.
    """
    flattened = flatten_file(path)
    return flattened.design, flattened.provenance


def run_flatten(path: Path, output: Path | None, *, out: TextIO, err: TextIO) -> int:
    """``cardz flatten``: write the standalone design to ``output`` (or ``out``); returns the exit code.

    Exit codes: 0 written, 2 the design could not be flattened (nothing is written).
    """
    try:
        text = flatten_file(path).text()
    except VariantError as error:
        for diagnostic in error.diagnostics:
            err.write(fmt.describe(diagnostic) + "\n")
        return 2
    if output is None:
        out.write(text)
    else:
        fmt.write_atomic(output, text)
    return 0
