"""Every error at once: the parts of a design the schema accepted, ready to model and check.

When the schema rejects part of a design, the rest is still worth checking: an author
who wrote ``"repeat": "25"`` and ``"to": "cells"`` wants both mistakes in one run. So
:func:`salvage` takes the rejected values out of a copy of the design (a rejected item
of a list of objects becomes ``{}``, so that the pointers of the items after it stay
true), fills in what the model cannot do without (a depot's ``type``, a name), and
records what became uncertain. The linter then models that copy and runs the reference
(CZ3xx) and expression (CZ4xx) checks on it, and :meth:`Salvaged.keeps` drops every
finding that could be a follow-on of a rejected value, so each mistake is reported once:

* anything inside a rejected value (it was taken out);
* checks of the design as a whole (the deal's size, overlaps, unreachable depots),
  whose answer depends on the parts taken out;
* a reference to a name that may exist after all: the name of a depot whose ``repeat``
  or ``perRow`` was rejected (its members are unknown), or any name when some depot's
  name itself was rejected.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from .diagnostics import Diagnostic, Severity
from .model import DepotType, Design, ModelError, build_design

OBJECT_LISTS = frozenset({"depots", "dealRules", "do", "actions", "triggers"})
"""Lists whose items are objects with pointers of their own: a rejected item becomes ``{}``."""

WHOLE_DESIGN_CODES = frozenset({"CZ303", "CZ304", "CZ305", "CZ306"})
"""Checks over the design as a whole: not run on a salvaged design."""

_REFERENCE_CODES = frozenset({"CZ302", "CZ309"})
_UNKNOWN_NAME = re.compile(r"unknown name `([^`]+)`")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLACEHOLDER_TYPE = DepotType.TABLEAU.value
_MAX_REPAIRS = 50


@dataclasses.dataclass(frozen=True)
class Salvaged:
    """A design rebuilt from the parts the schema accepted, and what was taken out."""

    design: Design
    removed: frozenset[str]
    """JSON pointers of the values taken out (nothing under them is reported)."""
    uncertain_names: frozenset[str]
    """Depot names whose members are unknown (their ``repeat`` or ``perRow`` was rejected)."""
    all_names_uncertain: bool
    """Some depot's name was rejected, so any unknown name may be that one."""

    def keeps(self, diagnostic: Diagnostic, reference: object = None, text: str = "") -> bool:
        """Whether a later stage's finding stands on its own (is no follow-on of a rejected value).

        ``reference`` is the value at the finding's pointer (for CZ302/CZ309: the name referred to);
        ``text`` is what the finding underlines (for an expression: the sub-expression at fault).
        """
        if diagnostic.code in WHOLE_DESIGN_CODES:
            return False
        if any(_within(diagnostic.pointer, removed) for removed in self.removed):
            return False
        if diagnostic.code.startswith("CZ4") and self.uncertain_names:
            named = set(_IDENTIFIER.findall(text))
            if named & self.uncertain_names:
                return False  # e.g. `tab[6]` while tab's repeat is unknown
        name: str | None = None
        if diagnostic.code in _REFERENCE_CODES and isinstance(reference, str):
            name = reference
        elif diagnostic.code == "CZ401":
            found = _UNKNOWN_NAME.search(diagnostic.message)
            name = found.group(1) if found else None
        if name is None:
            return True
        if self.all_names_uncertain and diagnostic.code != "CZ309":
            return False
        return _base_name(name) not in self.uncertain_names


def _within(pointer: str, outer: str) -> bool:
    return pointer == outer or pointer.startswith(outer + "/")


def _base_name(reference: str) -> str:
    """``tab[3]`` -> ``tab``."""
    return reference.split("[", 1)[0]


def value_at(data: Any, pointer: str) -> Any:
    """The value at a JSON pointer in ``data``, or None when there is none."""
    for token in _tokens(pointer):
        if isinstance(data, dict) and token in data:
            data = data[token]
        elif isinstance(data, list) and token.isdigit() and int(token) < len(data):
            data = data[int(token)]
        else:
            return None
    return data


def _tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _remove(data: Any, pointer: str) -> bool:
    """Take the value at ``pointer`` out of ``data`` (in place); whether there was one."""
    tokens = _tokens(pointer)
    if not tokens:
        return False
    parent = data
    for token in tokens[:-1]:
        if isinstance(parent, dict) and token in parent:
            parent = parent[token]
        elif isinstance(parent, list) and token.isdigit() and int(token) < len(parent):
            parent = parent[int(token)]
        else:
            return False
    last = tokens[-1]
    if isinstance(parent, dict) and last in parent:
        del parent[last]
        return True
    if isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        owner = tokens[-2] if len(tokens) > 1 else ""
        if owner in OBJECT_LISTS:
            parent[int(last)] = {}
        else:
            del parent[int(last)]  # a list of plain values: nothing points into its items
        return True
    return False


def _rejected(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """Pointers of the values the schema rejected (missing keys are filled in, not removed)."""
    pointers = {
        d.pointer
        for d in diagnostics
        if d.code.startswith("CZ2") and d.code != "CZ202" and (d.severity is Severity.ERROR or d.code == "CZ204")
    }
    # Deepest first, and within one list the highest index first, so that removing one
    # item of a list of plain values never moves another that is still to be removed.
    return sorted(pointers, key=lambda p: (-p.count("/"), [(-int(t) if t.isdigit() else 0, t) for t in _tokens(p)]))


def _repair(data: dict[str, Any]) -> bool:
    """Fill in what the model needs (in place); whether some depot's name had to be made up."""
    all_uncertain = False
    if not isinstance(data.get("depots", []), list):
        data["depots"] = []
        all_uncertain = True
    for index, depot in enumerate(data.get("depots", [])):
        if not isinstance(depot, dict):
            data["depots"][index] = depot = {}
        if not isinstance(depot.get("name"), str):
            depot["name"] = f"<depot {index}>"
            all_uncertain = True
        if depot.get("type") not in {t.value for t in DepotType}:
            depot["type"] = _PLACEHOLDER_TYPE
        draw = depot.get("draw")
        if draw is not None and not (isinstance(draw, dict) and isinstance(draw.get("to"), str)):
            del depot["draw"]
        for key in ("actions", "triggers"):
            if not isinstance(depot.get(key, []), list):
                del depot[key]
            for number, item in enumerate(depot.get(key, [])):
                if not isinstance(item, dict):
                    depot[key][number] = item = {}
                if key == "actions" and not isinstance(item.get("name"), str):
                    item["name"] = f"<action {number}>"
                if not isinstance(item.get("do", []), list):
                    del item["do"]
                for effect_number, effect in enumerate(item.get("do", [])):
                    if not isinstance(effect, dict):
                        item["do"][effect_number] = {}
    if not isinstance(data.get("dealRules", []), list):
        data["dealRules"] = []
    for index, rule in enumerate(data.get("dealRules", [])):
        if not isinstance(rule, dict):
            data["dealRules"][index] = {}
    for key in ("winCondition", "lossCondition", "scoring"):
        if key in data and not isinstance(data[key], dict):
            del data[key]
    return all_uncertain


def salvage(data: Any, schema_diagnostics: Iterable[Diagnostic]) -> Salvaged | None:
    """The design made of the parts of ``data`` the schema accepted, or None when too little is left."""
    if not isinstance(data, dict):
        return None
    diagnostics = list(schema_diagnostics)
    if any(d.pointer == "" and d.code != "CZ202" and d.code != "CZ204" for d in diagnostics):
        return None  # the design itself is of the wrong kind
    kept = copy.deepcopy(data)
    removed = [pointer for pointer in _rejected(diagnostics) if _remove(kept, pointer)]
    layout_rejected = {
        _tokens(pointer)[1]
        for pointer in removed
        if re.fullmatch(r"/depots/[0-9]+/(repeat|perRow)(/.*)?", pointer)
    }
    all_uncertain = _repair(kept)
    depots = kept.get("depots", [])
    uncertain = {depots[int(index)]["name"] for index in layout_rejected if int(index) < len(depots)}
    for _ in range(_MAX_REPAIRS):
        try:
            design = build_design(kept)
        except ModelError as exc:
            if not exc.pointer or not _remove(kept, exc.pointer):
                return None
            removed.append(exc.pointer)
            all_uncertain = _repair(kept) or all_uncertain
            continue
        return Salvaged(design, frozenset(removed), frozenset(uncertain), all_uncertain)
    return None
