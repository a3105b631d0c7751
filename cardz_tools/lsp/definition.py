"""Go to definition: from a depot name to the ``name`` value of the depot entry that defines it.

Works on names in rule expressions and on references (``"to": "discard"``,
``"group": "cell"``, ``"from": "@self"``); a depot type (``Foundation``) leads to
every depot of that type. In a variant, a depot defined in the design it
extends leads into that file.
"""

from __future__ import annotations

from pathlib import Path

from ..model import SELF
from .document import Snapshot, Target, target_range
from .expressions import NameKind, name_kind, word_at
from .locate import Where, locate
from .positions import Position, Range
from .schemadoc import schema_root

__all__ = ["definition", "definition_targets"]


def definition_targets(snapshot: Snapshot, position: Position) -> list[Target]:
    """Where the depot name under the cursor is defined (empty when it is not a depot name)."""
    context = snapshot.context
    location = locate(snapshot.text, snapshot.index.offset(position))
    if context is None or location.where is not Where.VALUE or not location.is_string:
        return []
    site = context.site_at(location.pointer)
    if site is not None:
        word = word_at(location.text, location.cursor)
        if word.after_dot or name_kind(word.text, site, context) not in (NameKind.DEPOT, NameKind.GROUP, NameKind.TYPE):
            return []
        specs = context.specs_named(word.text)
    elif schema_root().at(location.path).is_reference:
        if location.text == SELF and len(location.path) >= 2 and location.path[0] == "depots":
            owner = f"/depots/{location.path[1]}"
            specs = tuple(spec for spec in context.design.specs if context.target(spec.pointer) == Target(owner))
        else:
            specs = context.specs_named(location.text)
    else:
        return []
    targets = [context.target(f"{spec.pointer}/name") for spec in specs]
    return [target for target in targets if target is not None]


def definition(snapshot: Snapshot, position: Position) -> list[tuple[Path | None, Range]]:
    """The file (None: this document) and range of each definition of the name under the cursor."""
    return [target_range(target, snapshot.text, snapshot.encoding) for target in definition_targets(snapshot, position)]
