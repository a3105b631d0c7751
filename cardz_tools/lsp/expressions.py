"""What the cursor is on inside a rule expression, and what a name there means.

Names mean what the expression checker says they mean: a site name of the rule
site first (``card`` in an accept rule), then a depot, a group or depot type, a
rank, suit or colour name (the order of :mod:`cardz_tools.expr.checker`). The
type of a field's receiver (``top(depot).`` is a Card) comes from the checker too.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterator

from ..expr import Kind, Site, check
from ..expr.ast import Call, Name, Node, iter_child_nodes
from ..expr.builtins import BINDER_VARIABLE, CONSTANTS, FIELDS, FUNCTIONS, PREVIOUS_VARIABLE, FieldSpec, Function
from ..expr.env import DEPOT_TYPE_NAMES
from .document import DesignContext

__all__ = ["Word", "word_at", "receiver_kind", "fields_for", "NameKind", "name_kind", "describe_name",
           "describe_function", "describe_field", "bound_names",
           "name_bindings"]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_]")


@dataclasses.dataclass(frozen=True, slots=True)
class Word:
    """An identifier at the cursor: ``[start, end)`` in the expression; ``receiver`` is the text before its dot."""

    start: int
    end: int
    text: str
    receiver: str | None = None
    is_call: bool = False

    @property
    def after_dot(self) -> bool:
        """Whether this is a field name (``card.rank``)."""
        return self.receiver is not None


def word_at(expression: str, cursor: int) -> Word:
    """The identifier that holds ``cursor`` or ends at it (possibly empty, at the cursor)."""
    cursor = min(max(cursor, 0), len(expression))
    start = cursor
    while start > 0 and _IDENT_CHAR.match(expression[start - 1]):
        start -= 1
    end = cursor
    while end < len(expression) and _IDENT_CHAR.match(expression[end]):
        end += 1
    if start < end and not _IDENT.fullmatch(expression[start:end]):
        start = end = cursor  # a number, not a name
    before = start
    while before > 0 and expression[before - 1] == " ":
        before -= 1
    receiver = None
    if before > 0 and expression[before - 1] == ".":
        receiver = expression[_receiver_start(expression, before - 1) : before - 1].strip()
    rest = expression[end:].lstrip(" ")
    return Word(start, end, expression[start:end], receiver, rest.startswith("("))


def _receiver_start(expression: str, dot: int) -> int:
    """Where the postfix expression ending just before ``dot`` starts (``top(depot)``, ``cell[2]``, ``card.suit``)."""
    pos = dot
    while pos > 0:
        char = expression[pos - 1]
        if char in ")]":
            pos = _matching_open(expression, pos - 1)
        elif _IDENT_CHAR.match(char) or char == ".":
            pos -= 1
        else:
            break
    return pos


def _matching_open(expression: str, close: int) -> int:
    pairs = {")": "(", "]": "["}
    depth = 0
    for pos in range(close, -1, -1):
        char = expression[pos]
        if char in pairs:
            depth += 1
        elif char in "([":
            depth -= 1
            if depth == 0:
                return pos
    return 0


def receiver_kind(receiver: str, site: Site, context: DesignContext | None) -> Kind | None:
    """The kind of value a field is read from, as the checker types it (None when unknown)."""
    if not receiver:
        return None
    checked = check(receiver, site, context.env if context else None)
    if checked.node is None or checked.type.is_error:
        return None
    return checked.type.kind


def fields_for(kind: Kind | None) -> tuple[FieldSpec, ...]:
    """The fields of a kind of value (every field when the kind is unknown)."""
    return tuple(spec for (receiver, _), spec in FIELDS.items() if kind is None or receiver is kind)


def bound_names(expression: str, cursor: int) -> tuple[str, ...]:
    """The names quantifiers bind at ``cursor``, innermost first.

    A quantifier binds ``it`` (or the name of ``any(c in cell, ...)``) only in its
    later arguments: in ``sum(|Tableau, ...)`` the cursor is in the collection, where
    nothing is bound yet (the checker would say CZ407). ``chain`` binds ``prev`` too.
    """
    names: list[str] = []
    depth = 0
    commas = 0  # top-level commas seen so far between the cursor and the innermost open bracket
    for pos in range(min(cursor, len(expression)) - 1, -1, -1):
        char = expression[pos]
        if char in ")]":
            depth += 1
        elif char in "([":
            if depth:
                depth -= 1
                continue
            match = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", expression[:pos])
            function = FUNCTIONS.get(match.group(1)) if char == "(" and match else None
            if function is not None and commas and any(o.is_binder for o in function.overloads):
                first = expression[pos + 1 :]
                named = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\b", first)
                names.append(named.group(1) if named else BINDER_VARIABLE)
                if any(o.pairs for o in function.overloads):
                    names.append(PREVIOUS_VARIABLE)
            commas = 0
        elif char == "," and not depth:
            commas += 1
    return tuple(dict.fromkeys(names))


class NameKind(enum.Enum):
    """What a bare name stands for at a rule site."""

    SITE = "site name"
    DEPOT = "depot"
    GROUP = "group"
    TYPE = "depot type"
    CONSTANT = "constant"
    FUNCTION = "function"
    BINDER = "binder variable"
    UNKNOWN = "unknown"


def name_kind(name: str, site: Site, context: DesignContext | None) -> NameKind:
    """What ``name`` stands for at ``site`` (the checker's order of lookup)."""
    if name == BINDER_VARIABLE:
        return NameKind.BINDER
    if name in site.names:
        return NameKind.SITE
    if context is not None and name in context.env.depots:
        return NameKind.DEPOT
    if context is not None and name in context.env.group_names:
        return NameKind.GROUP
    if name in DEPOT_TYPE_NAMES:
        return NameKind.TYPE
    if name in CONSTANTS:
        return NameKind.CONSTANT
    if name in FUNCTIONS:
        return NameKind.FUNCTION
    return NameKind.UNKNOWN


def name_bindings(root: Node, site: Site, context: DesignContext | None) -> Iterator[tuple[Name, NameKind]]:
    """Every name of a parsed expression with what it stands for, without type-checking it.

    A name a quantifier binds around it (``c`` in ``any(c in cell, empty(c))``, ``it``,
    ``prev``) is :attr:`NameKind.BINDER` whatever else it could mean, as in the checker;
    the rest follow :func:`name_kind`.
    """
    stack: list[tuple[Node, frozenset[str]]] = [(root, frozenset())]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, Name):
            yield node, NameKind.BINDER if node.name in bound else name_kind(node.name, site, context)
            continue
        if isinstance(node, Call):
            function = FUNCTIONS.get(node.func)
            overloads = function.overloads if function is not None else ()
            pairs = any(o.pairs for o in overloads)
            binds = frozenset([node.var or BINDER_VARIABLE] + ([PREVIOUS_VARIABLE] if pairs else []))
            for position, arg in reversed(list(enumerate(node.args))):
                is_body = position > 0 and any(
                    position < len(o.params) and o.params[position].binder for o in overloads)
                stack.append((arg, bound | binds if is_body else bound))
            continue
        stack.extend((child, bound) for child in reversed(list(iter_child_nodes(node))))


def describe_function(function: Function) -> str:
    """Markdown: every overload's signature and description."""
    return "\n\n".join(f"```\n{o.signature(function.name)}\n```\n{o.description}" for o in function.overloads)


def describe_field(name: str, kind: Kind | None) -> str | None:
    """Markdown for a field (of every kind that has it when the receiver's kind is unknown)."""
    specs = [spec for spec in fields_for(kind) if spec.name == name]
    if not specs:
        return None
    return "\n\n".join(
        f"```\n{spec.receiver.value}.{spec.name}: {spec.result}\n```\n{spec.description}" for spec in specs
    )


def describe_depots(name: str, context: DesignContext) -> str | None:
    """Markdown: where the depots a reference names are defined (type, position, repeat)."""
    specs = context.specs_named(name)
    if not specs:
        return None
    lines = []
    for spec in specs:
        layout = f", repeat {spec.repeat} ({spec.per_row} per row)" if spec.is_group else ""
        lines.append(f"- `{spec.name}`: {spec.type.value} at col {spec.col:g}, row {spec.row:g}{layout}")
    base = name.split("[", 1)[0]
    if name in DEPOT_TYPE_NAMES and all(spec.name != base for spec in specs):
        count = sum(spec.repeat for spec in specs)
        head = f"**{name}** (depot type): {count} pile{'s' if count != 1 else ''}"
    else:
        spec = specs[0]
        head = (
            f"**{name}** ({'group' if spec.is_group and name == spec.name else 'depot'}), defined at `{spec.pointer}`"
        )
    return head + "\n\n" + "\n".join(lines)


def describe_name(word: Word, site: Site, context: DesignContext | None) -> str | None:
    """Markdown for the identifier under the cursor in an expression of ``site``."""
    if word.after_dot:
        return describe_field(word.text, receiver_kind(word.receiver or "", site, context))
    if word.is_call and word.text in FUNCTIONS:
        return describe_function(FUNCTIONS[word.text])
    kind = name_kind(word.text, site, context)
    if kind is NameKind.BINDER:
        return f"**{BINDER_VARIABLE}**: the member being looked at inside any/all/count/sum/min/max"
    if kind is NameKind.SITE:
        spec = site.names[word.text]
        return f"**{spec.name}**: {spec.type} ({site.value} rules)\n\n{spec.description}"
    if kind in (NameKind.DEPOT, NameKind.GROUP, NameKind.TYPE) and context is not None:
        return describe_depots(word.text, context)
    if kind is NameKind.CONSTANT:
        constant = CONSTANTS[word.text]
        return f"**{constant.name}**: {constant.type}\n\n{constant.description}"
    if kind is NameKind.FUNCTION:
        return describe_function(FUNCTIONS[word.text])
    return None
