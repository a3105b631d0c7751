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
from ..expr import ExprSyntaxError, Site, parse
from ..expr.ast import BoolLit, Call, Field, IntLit, walk
from ..source import decoded_offsets
from .document import DesignContext, json_tree
from .expressions import NameKind, name_bindings
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


_NAME_TOKENS: dict[NameKind, tuple[str, int]] = {
    NameKind.SITE: ("parameter", 0),
    NameKind.DEPOT: ("variable", 0),
    NameKind.GROUP: ("variable", 0),
    NameKind.TYPE: ("type", 0),
    NameKind.CONSTANT: ("enumMember", 1),
    NameKind.BINDER: ("variable", 2),
    NameKind.FUNCTION: ("function", 1),
}


def expression_tokens(expression: str, site: Site, context: DesignContext) -> list[tuple[int, int, str, int]]:
    """The tokens of one expression as ``(start, end, type, modifiers)``, offsets into the expression.

    Names are classified as the checker binds them (:func:`.expressions.name_bindings`),
    without type-checking the expression: a design with hundreds of rules stays fast.
    """
    try:
        root = parse(expression)
    except ExprSyntaxError:
        return []
    found: list[tuple[int, int, str, int]] = []
    for name, kind in name_bindings(root, site, context):
        if kind in _NAME_TOKENS:
            found.append((name.start, name.end, *_NAME_TOKENS[kind]))
    for node in walk(root):
        if isinstance(node, Field):
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
    named = {i for start, end, _, _ in found for i in range(start, end)}
    for match in _OPERATOR.finditer(expression):
        if match.start() not in named:
            token = "keyword" if match.group() == "in" else "operator"
            found.append((match.start(), match.end(), token, 0))
    found.sort()
    return found


def semantic_tokens(text: str, context: DesignContext | None) -> list[Token]:
    """Every token of every expression string of ``text``, in document order (none while it is not valid JSON)."""
    if context is None or not context.sites:
        return []
    root = json_tree(text)
    if root is None:
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
