"""The syntax tree of rule expressions, a visitor base, and the printer.

Nodes are small frozen dataclasses. Each class lists its child attributes in
``fields`` (as Jinja2's nodes do) and carries ``start``/``end``: character
offsets into the expression text, end exclusive. Offsets and ``depth`` take no
part in equality, so ``parse(to_source(node)) == node`` holds for any node.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Generic, TypeVar

__all__ = [
    "Node",
    "IntLit",
    "BoolLit",
    "Name",
    "Field",
    "Index",
    "Call",
    "Unary",
    "Binary",
    "Conditional",
    "NodeVisitor",
    "iter_child_nodes",
    "walk",
    "conjuncts",
    "names",
    "to_source",
    "PRECEDENCE",
    "BINARY_OPERATORS",
]

@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    """Base of every node: offsets into the text and the height of the subtree."""

    fields: ClassVar[tuple[str, ...]] = ()
    start: int = dataclasses.field(default=0, compare=False)
    end: int = dataclasses.field(default=0, compare=False)
    depth: int = dataclasses.field(default=1, compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True)
class IntLit(Node):
    """A non-negative integer literal such as ``2``."""

    value: int


@dataclasses.dataclass(frozen=True, slots=True)
class BoolLit(Node):
    """``true`` or ``false``."""

    value: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Name(Node):
    """An identifier: a site name, depot, group, type, rank, suit, colour or binder variable."""

    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class Field(Node):
    """``value.name``, such as ``card.rank``."""

    fields = ("value",)
    value: Node
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class Index(Node):
    """``value[index]``: a member of a group, such as ``cell[3]``."""

    fields = ("value", "index")
    value: Node
    index: Node


@dataclasses.dataclass(frozen=True, slots=True)
class Call(Node):
    """``func(args)``. ``var`` is the binder name of ``any(c in cell, ...)``, else None (``it``)."""

    fields = ("args",)
    func: str
    args: tuple[Node, ...]
    var: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Unary(Node):
    """``!operand`` or ``-operand``."""

    fields = ("operand",)
    op: str
    operand: Node


@dataclasses.dataclass(frozen=True, slots=True)
class Binary(Node):
    """``left op right`` for every binary operator, including ``in``."""

    fields = ("left", "right")
    op: str
    left: Node
    right: Node


@dataclasses.dataclass(frozen=True, slots=True)
class Conditional(Node):
    """``test ? then : otherwise``."""

    fields = ("test", "then", "otherwise")
    test: Node
    then: Node
    otherwise: Node


PRECEDENCE: dict[str, int] = {
    "?:": 1,
    "||": 2,
    "&&": 3,
    "==": 4,
    "!=": 4,
    "<": 5,
    "<=": 5,
    ">": 5,
    ">=": 5,
    "in": 6,
    "+": 7,
    "-": 7,
    "*": 8,
    "/": 8,
    "%": 8,
}
"""Binding strength of the binary operators and ``?:`` (higher binds tighter)."""
BINARY_OPERATORS: tuple[str, ...] = tuple(op for op in PRECEDENCE if op != "?:")
_UNARY_PRECEDENCE = 9
_POSTFIX_PRECEDENCE = 10


def iter_child_nodes(node: Node) -> Iterator[Node]:
    """The direct children of ``node``, in source order."""
    for name in node.fields:
        value = getattr(node, name)
        if isinstance(value, tuple):
            yield from value
        elif isinstance(value, Node):
            yield value


def walk(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children (iterative: no recursion limit)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(iter_child_nodes(current))))


def conjuncts(node: Node) -> list[Node]:
    """The parts of a conjunction (``a && b && c``), in source order; ``node`` alone otherwise."""
    if isinstance(node, Binary) and node.op == "&&":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]


def names(node: Node, *, members: bool = False, skip: Callable[[Node], bool] | None = None) -> set[str]:
    """Every name, called function and field the tree of ``node`` uses (not its literals).

    With ``members``, also each member of a group named by a constant index, spelt as the depot's name is
    (``cell[3]``). A part for which ``skip`` holds is left out with everything below it."""
    found: set[str] = set()
    stack = [node]
    while stack:
        part = stack.pop()
        if skip is not None and skip(part):
            continue
        if isinstance(part, Name):
            found.add(part.name)
        elif isinstance(part, Call):
            found.add(part.func)
        elif isinstance(part, Field):
            found.add(part.name)
        elif members and isinstance(part, Index) and isinstance(part.value, Name) and isinstance(part.index, IntLit):
            found.add(f"{part.value.name}[{part.index.value}]")
        stack.extend(iter_child_nodes(part))
    return found


R = TypeVar("R")


class NodeVisitor(Generic[R]):
    """Dispatches ``visit(node)`` to ``visit_<ClassName>`` (falling back to :meth:`generic_visit`).

    ``R`` is what every ``visit_*`` method returns.
    """

    def visit(self, node: Node, *args: Any) -> R:
        """Visit one node and return what its visitor method returns."""
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            return self.generic_visit(node, *args)
        return method(node, *args)

    def generic_visit(self, node: Node, *args: Any) -> Any:
        """Visit every child; returns None (a visitor whose ``R`` is not None defines every method it meets)."""
        for child in iter_child_nodes(node):
            self.visit(child, *args)
        return None


def _precedence(node: Node) -> int:
    if isinstance(node, Conditional):
        return PRECEDENCE["?:"]
    if isinstance(node, Binary):
        return PRECEDENCE[node.op]
    if isinstance(node, Unary):
        return _UNARY_PRECEDENCE
    return _POSTFIX_PRECEDENCE


def _looks_like_binder(node: Node) -> bool:
    return isinstance(node, Binary) and node.op == "in" and isinstance(node.left, Name)


class _Printer(NodeVisitor[str]):
    def wrap(self, node: Node, minimum: int) -> str:
        text: str = self.visit(node)
        return f"({text})" if _precedence(node) < minimum else text

    def visit_IntLit(self, node: IntLit) -> str:
        return str(node.value)

    def visit_BoolLit(self, node: BoolLit) -> str:
        return "true" if node.value else "false"

    def visit_Name(self, node: Name) -> str:
        return node.name

    def visit_Field(self, node: Field) -> str:
        return f"{self.wrap(node.value, _POSTFIX_PRECEDENCE)}.{node.name}"

    def visit_Index(self, node: Index) -> str:
        return f"{self.wrap(node.value, _POSTFIX_PRECEDENCE)}[{self.visit(node.index)}]"

    def visit_Call(self, node: Call) -> str:
        args = [self.visit(arg) for arg in node.args]
        if node.var is not None and args:
            args[0] = f"{node.var} in {self.wrap(node.args[0], PRECEDENCE['in'] + 1)}"
        elif len(args) >= 2 and _looks_like_binder(node.args[0]):
            args[0] = f"({args[0]})"  # keep `Depot in Group` from reading as a binder
        return f"{node.func}({', '.join(args)})"

    def visit_Unary(self, node: Unary) -> str:
        return node.op + self.wrap(node.operand, _UNARY_PRECEDENCE)

    def visit_Binary(self, node: Binary) -> str:
        level = PRECEDENCE[node.op]
        # Left associative: only the right operand needs parentheses at the same level.
        return f"{self.wrap(node.left, level)} {node.op} {self.wrap(node.right, level + 1)}"

    def visit_Conditional(self, node: Conditional) -> str:
        level = PRECEDENCE["?:"]
        test = self.wrap(node.test, level + 1)
        return f"{test} ? {self.wrap(node.then, level)} : {self.wrap(node.otherwise, level)}"


def to_source(node: Node) -> str:
    """Print ``node`` as expression text with the fewest parentheses; parsing it gives ``node`` back."""
    return _Printer().visit(node)
