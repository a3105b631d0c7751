"""The outline of a design (document symbols) and its folding ranges.

The outline lists what a designer looks for: the depots (each with its accept
and eject rules, draw, actions and triggers), the deal rules, the win and loss
conditions and the scoring. It is read from the JSON tree as written (no model
is needed), so a design with semantic errors still has an outline; text that is
not valid JSON has none. Folding works on any text: it pairs brackets outside
strings, tolerating what is still unbalanced while the designer types.
"""

from __future__ import annotations

import dataclasses
import enum
import re

from .. import jsoncst
from .document import json_tree
from .positions import Range, TextIndex

__all__ = ["SymbolKind", "Symbol", "outline", "Fold", "folding_ranges"]


class SymbolKind(enum.Enum):
    """What a symbol is (the server maps these to LSP symbol kinds)."""

    DESIGN = "design"
    DEPOT = "depot"
    GROUP = "group"
    RULE = "rule"
    LIST = "list"
    EVENT = "event"
    DEAL = "deal"
    CONDITION = "condition"
    SCORING = "scoring"


@dataclasses.dataclass(frozen=True, slots=True)
class Symbol:
    """One entry of the outline: ``range`` spans the whole entry, ``selection`` the part to highlight."""

    name: str
    kind: SymbolKind
    range: Range
    selection: Range
    detail: str | None = None
    children: tuple[Symbol, ...] = ()


def _scalar(node: jsoncst.Node | None) -> str | None:
    """The value of a string or number scalar as text (None for anything else)."""
    if not isinstance(node, jsoncst.Scalar):
        return None
    value = node.value
    if isinstance(value, bool) or value is None:
        return None
    return value if isinstance(value, str) else node.text


class _Builder:
    def __init__(self, text: str, index: TextIndex) -> None:
        self.text = text
        self.index = index

    def range(self, node: jsoncst.Node | jsoncst.Member) -> Range:
        end = node.value.end if isinstance(node, jsoncst.Member) else node.end
        return self.index.offset_range(node.start, end)

    def symbol(self, name: str, kind: SymbolKind, whole: jsoncst.Node | jsoncst.Member, selection: jsoncst.Node | None,
               detail: str | None = None, children: tuple[Symbol, ...] = ()) -> Symbol:
        shown = self.range(selection) if selection is not None else self.range(whole)
        return Symbol(name or "(unnamed)", kind, self.range(whole), shown, detail, children)

    def depot(self, node: jsoncst.Node, index: int) -> Symbol | None:
        if not isinstance(node, jsoncst.Object):
            return None
        name_node = node.get("name")
        name = _scalar(name_node) or f"depot {index}"
        depot_type = _scalar(node.get("type"))
        repeat = _scalar(node.get("repeat"))
        detail = " ".join(part for part in (depot_type, f"× {repeat}" if repeat else None) if part) or None
        children: list[Symbol] = []
        for member in node.members:
            if member.key in ("acceptRule", "ejectRule", "draw"):
                children.append(self.symbol(member.key, SymbolKind.RULE, member, None, _rule_detail(member.value)))
            elif member.key in ("actions", "triggers") and isinstance(member.value, jsoncst.Array):
                items = tuple(self.event(item, i, member.key) for i, item in enumerate(member.value.items))
                children.append(self.symbol(member.key, SymbolKind.LIST, member, None, None, items))
        kind = SymbolKind.GROUP if repeat else SymbolKind.DEPOT
        return self.symbol(name, kind, node, name_node, detail, tuple(children))

    def event(self, node: jsoncst.Node, index: int, key: str) -> Symbol:
        label = _scalar(node.get("name")) if isinstance(node, jsoncst.Object) else None
        when = _scalar(node.get("when")) if isinstance(node, jsoncst.Object) else None
        name = label or f"{key[:-1]} {index}"
        return self.symbol(name, SymbolKind.EVENT, node, None, when)

    def deal(self, node: jsoncst.Node, index: int) -> Symbol:
        if not isinstance(node, jsoncst.Object):
            return self.symbol(f"deal rule {index}", SymbolKind.DEAL, node, None)
        kind = _scalar(node.get("kind")) or "deal rule"
        to = _scalar(node.get("to"))
        return self.symbol(f"{kind} → {to}" if to else kind, SymbolKind.DEAL, node, None)


def _rule_detail(node: jsoncst.Node) -> str | None:
    if isinstance(node, jsoncst.Object):
        return _scalar(node.get("when"))
    return _scalar(node)


def outline(text: str, index: TextIndex | None = None) -> list[Symbol]:
    """The outline of a design's text (empty when it is not valid JSON or not an object)."""
    root = json_tree(text)
    if not isinstance(root, jsoncst.Object):
        return []
    build = _Builder(text, index or TextIndex(text))
    symbols: list[Symbol] = []
    for member in root.members:
        value = member.value
        if member.key == "name" and _scalar(value) is not None:
            symbols.append(build.symbol(_scalar(value) or "", SymbolKind.DESIGN, member, value, "design"))
        elif member.key == "depots" and isinstance(value, jsoncst.Array):
            depots = [build.depot(item, i) for i, item in enumerate(value.items)]
            symbols.append(build.symbol("depots", SymbolKind.LIST, member, None, f"{len(value.items)}",
                                        tuple(d for d in depots if d is not None)))
        elif member.key == "dealRules" and isinstance(value, jsoncst.Array):
            deals = tuple(build.deal(item, i) for i, item in enumerate(value.items))
            symbols.append(build.symbol("dealRules", SymbolKind.LIST, member, None, f"{len(value.items)}", deals))
        elif member.key in ("winCondition", "lossCondition"):
            kind = _scalar(value.get("kind")) if isinstance(value, jsoncst.Object) else None
            symbols.append(build.symbol(member.key, SymbolKind.CONDITION, member, None, kind))
        elif member.key == "scoring":
            score = _scalar(value.get("value")) if isinstance(value, jsoncst.Object) else None
            symbols.append(build.symbol(member.key, SymbolKind.SCORING, member, None, score))
    return symbols


@dataclasses.dataclass(frozen=True, slots=True)
class Fold:
    """Lines ``start_line`` .. ``end_line`` (0-based) can be folded."""

    start_line: int
    end_line: int


_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[\[\]{}]')


def folding_ranges(text: str) -> list[Fold]:
    """Every object or array that spans several lines, outermost first; brackets inside strings do not count."""
    index = TextIndex(text)
    opened: list[tuple[str, int]] = []
    folds: list[Fold] = []
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            opened.append((token, match.start()))
        elif token in "]}":
            want = "[" if token == "]" else "{"
            while opened and opened[-1][0] != want:
                opened.pop()  # an unclosed bracket of the other kind while typing: drop it
            if not opened:
                continue
            _, start = opened.pop()
            first, last = index.position(start).line, index.position(match.start()).line
            if last > first:
                folds.append(Fold(first, last - 1 if _closes_line(text, match.start()) else last))
    folds.sort(key=lambda fold: (fold.start_line, -fold.end_line))
    return folds


def _closes_line(text: str, offset: int) -> bool:
    """Whether the bracket at ``offset`` starts its line (then the fold stops before it, so it stays visible)."""
    line_start = text.rfind("\n", 0, offset) + 1
    return not text[line_start:offset].strip()
