"""Semantic tokens for the expression language inside strings.

An editor highlights a ``.cardz`` file as JSON, so a rule is one string colour.
These tokens colour what the expression checker sees in it: functions, fields,
site names (``card``, ``top``), depot and group names, depot types, rank, suit
and colour constants, binder variables, numbers, ``true``/``false`` and the
operators. Only strings that hold an expression at their rule site are
tokenised; one that does not parse yet gets no tokens.
"""

from __future__ import annotations

import dataclasses
import re

from .. import jsoncst
from ..expr import Site, check
from ..expr.ast import BoolLit, Call, Field, IntLit, Name, walk
from ..expr.env import DEPOT_TYPE_NAMES
from ..source import decoded_offsets
from .document import DesignContext
from .positions import TextIndex

__all__ = ["TOKEN_TYPES", "TOKEN_MODIFIERS", "Token", "expression_tokens", "semantic_tokens", "encode"]

TOKEN_TYPES: tuple[str, ...] = (
    "function", "property", "parameter", "variable", "type", "enumMember", "number", "keyword", "operator",
)
"""The legend's token types (LSP's standard names, so every theme colours them)."""
TOKEN_MODIFIERS: tuple[str, ...] = ("defaultLibrary", "readonly")

_OPERATOR = re.compile(r"&&|\|\||==|!=|<=|>=|[<>!+\-*/%?:]|\bin\b")


@dataclasses.dataclass(frozen=True, slots=True, order=True)
class Token:
    """One token: document offsets ``[start, end)``, a type of :data:`TOKEN_TYPES` and modifier bits."""

    start: int
    end: int
    type: str
    modifiers: int = 0


def _kind_of_name(name: str, binding: str) -> tuple[str, int]:
    if binding == "site":
        return "parameter", 0
    if binding == "var":
        return "variable", 2  # readonly
    if binding in ("depot", "group"):
        return ("type", 0) if name in DEPOT_TYPE_NAMES else ("variable", 0)
    if binding == "constant":
        return "enumMember", 1
    return "variable", 0


def expression_tokens(expression: str, site: Site, context: DesignContext) -> list[tuple[int, int, str, int]]:
    """The tokens of one expression as ``(start, end, type, modifiers)``, offsets into the expression."""
    checked = check(expression, site, context.env)
    if checked.node is None:
        return []
    found: list[tuple[int, int, str, int]] = []
    named: set[int] = set()
    for node in walk(checked.node):
        if isinstance(node, Name):
            info = checked.info.get(id(node))
            kind, modifiers = _kind_of_name(node.name, getattr(info, "binding", ""))
            found.append((node.start, node.end, kind, modifiers))
        elif isinstance(node, Field):
            found.append((node.end - len(node.name), node.end, "property", 0))
        elif isinstance(node, Call):
            found.append((node.start, node.start + len(node.func), "function", 1))
            if node.var is not None:
                var_start = expression.find(node.var, node.start + len(node.func))
                if var_start >= 0:
                    found.append((var_start, var_start + len(node.var), "variable", 2))
        elif isinstance(node, IntLit):
            found.append((node.start, node.end, "number", 0))
        elif isinstance(node, BoolLit):
            found.append((node.start, node.end, "keyword", 0))
    for start, end, _, _ in found:
        named.update(range(start, end))
    for match in _OPERATOR.finditer(expression):
        if match.start() not in named:
            kind = "keyword" if match.group() == "in" else "operator"
            found.append((match.start(), match.end(), kind, 0))
    found.sort()
    return found


def semantic_tokens(text: str, context: DesignContext | None) -> list[Token]:
    """Every token of every expression string of ``text``, in document order (none while it is not valid JSON)."""
    if context is None or not context.sites:
        return []
    try:
        root = jsoncst.parse(text)
    except jsoncst.JsonSyntaxError:
        return []
    found: list[Token] = []
    for pointer, site in context.sites.items():
        node = jsoncst.node_at(root, pointer)
        if not isinstance(node, jsoncst.Scalar) or not node.text.startswith('"'):
            continue
        expression = node.value
        if not isinstance(expression, str):
            continue
        offsets = decoded_offsets(text[node.start + 1 : node.end - 1])
        base = node.start + 1
        for start, end, kind, modifiers in expression_tokens(expression, site, context):
            found.append(Token(base + offsets[start], base + offsets[end], kind, modifiers))
    found.sort()
    return found


def encode(tokens: list[Token], index: TextIndex) -> list[int]:
    """LSP's relative encoding: five integers a token (line and start deltas, length, type, modifiers).

    A JSON string holds no line break, so every token lies on one line.
    """
    data: list[int] = []
    line = character = 0
    for token in tokens:
        start = index.position(token.start)
        length = index.encoding.length(index.text[token.start : token.end])
        delta_line = start.line - line
        delta_start = start.character - character if delta_line == 0 else start.character
        data += [delta_line, delta_start, length, TOKEN_TYPES.index(token.type), token.modifiers]
        line, character = start.line, start.character
    return data
