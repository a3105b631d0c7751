"""The last line of defence of the compiler: generated code uses only our own tokens.

:mod:`cardz_tools.expr.compiler` writes Python from a checked tree; no text of the
design reaches it (names become table lookups, numbers are checked integers).
:func:`audit` proves that before the code runs: every name in the generated source
is one the compiler makes, the only attribute is ``P.__getitem__``, the only
constants are numbers, booleans and None, and nothing imports, defines a class,
or reaches a builtin beyond the few the generated code is given. A compiler bug
that let design text through would stop here with :class:`UnsafeCode`, never run.
"""

from __future__ import annotations

import ast
import re

__all__ = ["UnsafeCode", "audit", "ALLOWED_NAMES"]

ALLOWED_NAMES = frozenset({
    "P", "S", "_card", "_cards", "_source", "_depot", "_pd", "_items", "_n", "_m", "_x", "_rule", "_make",
    "len", "any", "all", "sum", "min", "max", "abs", "map",
})
"""Fixed names of the generated code: the site parameters, loop locals and the safe builtins."""

_NUMBERED = re.compile(r"_[kvq][0-9]{1,6}")
"""Closure constants ``_k0``, binder variables ``_v1`` and quantifier functions ``_q1``."""

_ALLOWED_NODES = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.If, ast.For, ast.Assign, ast.AugAssign,
    ast.Expr, ast.Name, ast.Load, ast.Store, ast.Constant, ast.Call, ast.Subscript, ast.Attribute, ast.Tuple,
    ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
    ast.FloorDiv, ast.Mod, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
    ast.Is, ast.IsNot, ast.IfExp,
)


class UnsafeCode(RuntimeError):
    """Generated code that uses something the compiler never writes (a compiler bug, refused)."""


def audit(source: str) -> None:
    """Refuse ``source`` unless it is made only of the compiler's own tokens.

    :raises UnsafeCode: naming the first token that is not.
    """
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise UnsafeCode(f"generated code contains {type(node).__name__}")
        if isinstance(node, ast.Name) and node.id not in ALLOWED_NAMES and not _NUMBERED.fullmatch(node.id):
            raise UnsafeCode(f"generated code names {node.id!r}")
        if isinstance(node, ast.FunctionDef) and node.name not in ALLOWED_NAMES and not _NUMBERED.fullmatch(node.name):
            raise UnsafeCode(f"generated code defines {node.name!r}")
        if isinstance(node, ast.arg) and node.arg not in ALLOWED_NAMES and not _NUMBERED.fullmatch(node.arg):
            raise UnsafeCode(f"generated code takes an argument {node.arg!r}")
        if isinstance(node, ast.Attribute) and not (
            node.attr == "__getitem__" and isinstance(node.value, ast.Name) and node.value.id == "P"
        ):
            raise UnsafeCode(f"generated code reads the attribute {node.attr!r}")
        if isinstance(node, ast.Constant) and not (node.value is None or isinstance(node.value, (bool, int, float))):
            raise UnsafeCode(f"generated code holds the constant {node.value!r}")
