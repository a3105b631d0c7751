"""Inlay hints in a variant: what it inherits, shown where it refers to it.

A variant (``extends``) writes only what it changes, so ``{ "name": "discard", "row": 2 }``
does not say what ``discard`` is. After such an entry's ``name`` the hint shows the
depot's type as the merged design has it (``Foundation``, ``Tableau × 25``) and which
file wrote it; after ``extends`` the name of the design it extends. A design without
``extends`` has no hints: everything it means is written in it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .. import jsoncst
from ..source import load_source
from ..variants import EXTENDS, REMOVE
from .document import Snapshot, json_tree
from .positions import Position

__all__ = ["Hint", "inlay_hints"]


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """A label shown at ``position`` (just after a value), with a longer ``tooltip``."""

    position: Position
    label: str
    tooltip: str


def inlay_hints(snapshot: Snapshot) -> list[Hint]:
    """The hints of a variant's text, in document order (none for a design that extends nothing)."""
    context = snapshot.context
    root = json_tree(snapshot.text)
    if context is None or context.origins is None or context.path is None or not isinstance(root, jsoncst.Object):
        return []
    own = context.path.resolve()
    hints: list[Hint] = []
    extends = root.get(EXTENDS)
    if isinstance(extends, jsoncst.Scalar) and isinstance(extends.value, str):
        name = _design_name(context.path.parent / extends.value)
        if name is not None:
            hints.append(Hint(snapshot.index.position(extends.end), f"= {name}", "the name of the design it extends"))
    depots = root.get("depots")
    entries = depots.items if isinstance(depots, jsoncst.Array) else ()
    by_name = {spec.name: spec for spec in context.design.specs}
    for entry in entries:
        if not isinstance(entry, jsoncst.Object) or entry.get("type") is not None or entry.get(REMOVE) is not None:
            continue  # it says its type itself, or removes the depot
        written = entry.get("name")
        if not isinstance(written, jsoncst.Scalar) or not isinstance(written.value, str):
            continue
        spec = by_name.get(written.value)
        if spec is None:
            continue
        origin = context.origins.get(f"{spec.pointer}/type")
        if origin is None or origin.file.resolve() == own:
            continue
        label = spec.type.value + (f" × {spec.repeat}" if spec.repeat > 1 else "")
        hints.append(Hint(snapshot.index.position(written.end), label, f"inherited from {origin.file.name}"))
    return hints


def _design_name(path: Path) -> str | None:
    source = load_source(path)  # unreadable: no data, a diagnostic that `cardz lint` shows
    data = source.data if source.ok else None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None
