"""Text -> syntax tree, with errors that read like a person wrote them.

The lark LALR parser builds :mod:`.ast` nodes directly while it parses (an
inline transformer), so no step recurses over the tree: a deeply nested input
stops with :class:`ExprTooComplex` at :data:`MAX_DEPTH`, never with a
``RecursionError``.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
from collections.abc import Sequence
from typing import Any, cast

import lark
from lark import Token

from .ast import Binary, BoolLit, Call, Conditional, Field, Index, IntLit, Name, Node, Unary

__all__ = ["parse", "ExprSyntaxError", "ExprTooComplex", "MAX_LENGTH", "MAX_DEPTH"]

MAX_LENGTH = 4000
"""Longest expression text accepted, in characters."""
MAX_DEPTH = 100
"""Deepest syntax tree accepted (nested parentheses, calls, operator chains)."""
MAX_INT = 10**9
"""Largest integer literal accepted."""


class ExprSyntaxError(ValueError):
    """The text is not an expression. ``start``/``end`` are offsets of the offending part."""

    code = "CZ400"

    def __init__(self, message: str, start: int, end: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        self.hint = hint


class ExprTooComplex(ExprSyntaxError):
    """The text is longer, or nests deeper, than the bounds allow."""

    code = "CZ410"


# What each terminal is called in a message.
_DESCRIBE: dict[str, str] = {
    "QMARK": "'?'", "COLON": "':'", "OROR": "'||'", "ANDAND": "'&&'", "EQ": "'=='",
    "NE": "'!='", "LE": "'<='", "GE": "'>='", "LT": "'<'", "GT": "'>'", "IN": "'in'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'", "PERCENT": "'%'",
    "BANG": "'!'", "DOT": "'.'", "LSQB": "'['", "RSQB": "']'", "LPAR": "'('",
    "RPAR": "')'", "COMMA": "','", "TRUE": "'true'", "FALSE": "'false'",
    "NAME": "a name", "INT": "a number", "$END": "the end of the expression",
}
_OPERAND_STARTS = frozenset({"NAME", "INT", "LPAR", "BANG", "MINUS", "TRUE", "FALSE"})
_BINARY_TOKENS = frozenset(
    {"QMARK", "COLON", "OROR", "ANDAND", "EQ", "NE", "LE", "GE", "LT", "GT", "IN",
     "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "BANG", "COMMA", "LPAR", "LSQB"}
)
_WORD_HINTS = {"and": "write '&&' for 'and'", "or": "write '||' for 'or'", "not": "write '!' for 'not'"}
_CHAR_HINTS = {
    "=": "write '==' to compare",
    "&": "write '&&' for 'and'",
    "|": "write '||' for 'or'",
    '"': "expressions have no strings: name ranks, suits and depots without quotes",
    "'": "expressions have no strings: name ranks, suits and depots without quotes",
}


def _deeper(*children: Node) -> int:
    depth = 1 + max((child.depth for child in children), default=0)
    if depth > MAX_DEPTH:
        first = min(child.start for child in children)
        last = max(child.end for child in children)
        raise ExprTooComplex(f"the expression nests deeper than {MAX_DEPTH} levels", first, last,
                             "split it into simpler parts")
    return depth


_Children = list[Any]
"""A grammar rule's children as lark hands them over: tokens, and the nodes the callbacks below built.
Which is which at each place is fixed by ``grammar.lark``, not by a type mypy could check."""


class _Builder(lark.Transformer[Token, Node]):
    """Inline callbacks of the LALR parser: each grammar rule becomes one node."""

    def conditional(self, items: _Children) -> Node:
        test, _, then, _, otherwise = items
        return Conditional(test, then, otherwise, start=test.start, end=otherwise.end,
                           depth=_deeper(test, then, otherwise))

    def binary(self, items: _Children) -> Node:
        left, op, right = items
        return Binary(str(op), left, right, start=left.start, end=right.end, depth=_deeper(left, right))

    def unary(self, items: _Children) -> Node:
        op, operand = items
        return Unary(str(op), operand, start=op.start_pos, end=operand.end, depth=_deeper(operand))

    def field(self, items: _Children) -> Node:
        value, _, name = items
        return Field(value, str(name), start=value.start, end=name.end_pos, depth=_deeper(value))

    def index(self, items: _Children) -> Node:
        value, _, index, close = items
        return Index(value, index, start=value.start, end=close.end_pos, depth=_deeper(value, index))

    def call(self, items: _Children) -> Node:
        name, _, arguments, close = items
        args: tuple[Node, ...] = tuple(arguments or ())
        var = None
        first = args[0] if args else None
        # `any(c in cell, cond)`: a bare `name in x` (not parenthesised) opening a call of two
        # or more arguments is a binder, not the Bool `Depot in Group`.
        if (len(args) >= 2 and isinstance(first, Binary) and first.op == "in"
                and isinstance(first.left, Name) and first.start == first.left.start):
            var = first.left.name
            args = (first.right, *args[1:])
        depth = _deeper(*args) if args else 1
        return Call(str(name), args, var, start=name.start_pos, end=close.end_pos, depth=depth)

    def arguments(self, items: _Children) -> list[Node]:
        return [item for item in items if isinstance(item, Node)]

    def int_lit(self, items: _Children) -> Node:
        (token,) = items
        if len(token) > 10 or int(token) > MAX_INT:
            raise ExprSyntaxError(f"the number {token} is too large (at most {MAX_INT})",
                                  token.start_pos, token.end_pos)
        return IntLit(int(token), start=token.start_pos, end=token.end_pos)

    def true_lit(self, items: _Children) -> Node:
        (token,) = items
        return BoolLit(True, start=token.start_pos, end=token.end_pos)

    def false_lit(self, items: _Children) -> Node:
        (token,) = items
        return BoolLit(False, start=token.start_pos, end=token.end_pos)

    def name(self, items: _Children) -> Node:
        (token,) = items
        return Name(str(token), start=token.start_pos, end=token.end_pos)

    def paren(self, items: _Children) -> Node:
        open_, inner, close = items
        # The span grows to cover the parentheses; the tree does not change.
        return dataclasses.replace(inner, start=open_.start_pos, end=close.end_pos, depth=_deeper(inner))


@functools.cache
def _parser() -> lark.Lark:
    grammar = importlib.resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")
    # cache=True keeps the LALR tables in the user's temp dir (never in the package dir,
    # which may be read-only); lark carries on without the cache if it cannot write it.
    return lark.Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
        transformer=_Builder(),
    )


def _describe(terminals: Sequence[str]) -> str:
    names = sorted({_DESCRIBE.get(t, t) for t in terminals if not t.startswith("__")})
    if not names:
        return "something else"
    if len(names) > 5:
        if set(terminals) >= {"ANDAND", "OROR", "PLUS"}:
            return "an operator" + (" or ')'" if "RPAR" in terminals else "")
        names = names[:5] + ["..."]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _tokens_before(text: str, position: int) -> list[Token]:
    tokens: list[Token] = []
    try:
        for token in _parser().lex(text):
            if (token.start_pos or 0) >= position:
                break
            tokens.append(token)
    except lark.exceptions.LarkError:
        pass
    return tokens


def _syntax_error(text: str, error: lark.exceptions.UnexpectedInput) -> ExprSyntaxError:
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position : position + 1]
        hint = _CHAR_HINTS.get(char)
        if char in "&|=" and text[position + 1 : position + 2] == char:
            hint = None
        return ExprSyntaxError(f"unexpected character {char!r}", position, position + 1, hint)
    if isinstance(error, lark.exceptions.UnexpectedToken):
        token: Token = error.token
        at_end = token.type == "$END"
        start = len(text.rstrip()) if at_end else (token.start_pos or 0)
        end = start + (1 if at_end else max(1, len(token)))
        expected = sorted(error.expected)
        previous = _tokens_before(text, start)
        last = previous[-1] if previous else None
        found = "the end of the expression" if at_end else _DESCRIBE.get(token.type, repr(str(token)))
        if token.type in ("NAME", "INT"):
            found = f"'{token}'"
        hint = _WORD_HINTS.get(str(token)) or (_WORD_HINTS.get(str(last)) if last is not None else None)
        if last is None and at_end:
            return ExprSyntaxError("the expression is empty", 0, max(1, len(text)), "write a condition such as `true`")
        if last is not None and last.type in _BINARY_TOKENS and _OPERAND_STARTS & set(expected):
            what = f"after {_DESCRIBE.get(last.type, repr(str(last)))}"
            return ExprSyntaxError(f"expected an operand {what}, found {found}", start, end, hint)
        if at_end and "RPAR" in expected:
            return ExprSyntaxError("a '(' is not closed: expected ')' before the end", start, end, hint)
        if at_end and "RSQB" in expected:
            return ExprSyntaxError("a '[' is not closed: expected ']' before the end", start, end, hint)
        depth = sum(t.type in ("LPAR", "LSQB") for t in previous) - sum(t.type in ("RPAR", "RSQB") for t in previous)
        if depth <= 0:
            expected = [t for t in expected if t not in ("RPAR", "RSQB", "COMMA")]
        if at_end:
            return ExprSyntaxError(f"the expression ends too early; expected {_describe(expected)}", start, end, hint)
        return ExprSyntaxError(f"unexpected {found}; expected {_describe(expected)}", start, end, hint)
    position = getattr(error, "pos_in_stream", 0) or 0
    return ExprSyntaxError("the expression does not parse", position, position + 1)


def parse(text: str) -> Node:
    """Parse one expression (memoised: trees are immutable, and designs repeat their rules).

    :raises ExprSyntaxError: with offsets into ``text`` when it does not parse.
    :raises ExprTooComplex: (a subclass) when it is too long or nests too deeply.
    """
    if len(text) > MAX_LENGTH:
        raise ExprTooComplex(f"the expression is {len(text)} characters long; at most {MAX_LENGTH} are allowed",
                             MAX_LENGTH, len(text), "split it into simpler parts")
    return _parse_cached(text)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Node:
    try:
        # The inline transformer (_Builder) makes lark's parse return a Node, not a Tree.
        node = cast(Node, _parser().parse(text))
    except lark.exceptions.UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    except RecursionError:  # pragma: no cover - depth is bounded above; kept as a last guard
        raise ExprTooComplex("the expression nests too deeply", 0, len(text)) from None
    return node
