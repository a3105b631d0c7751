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

__all__ = ["UnsafeCode", "audit", "SAFE_BUILTINS", "SAFE_ATTRIBUTES"]

SAFE_BUILTINS = frozenset({"len", "any", "all", "sum", "min", "max", "abs", "map"})
"""The only free names generated code may read (the compiler hands it exactly these builtins)."""

SAFE_ATTRIBUTES = frozenset({"__getitem__", "get"})
"""Methods the generated code calls on its own values (``P.__getitem__``, a lookup table's ``get``)."""

_ALLOWED_NODES = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.If, ast.For, ast.While, ast.Break,
    ast.Continue, ast.Pass, ast.Assign, ast.AugAssign, ast.Expr, ast.Name, ast.Load, ast.Store, ast.Constant,
    ast.Call, ast.Subscript, ast.Slice, ast.Attribute, ast.Tuple, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not,
    ast.USub, ast.UAdd, ast.Invert, ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
    ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot, ast.IfExp,
)


class UnsafeCode(RuntimeError):
    """Generated code that uses something the compiler never writes (a compiler bug, refused)."""


def audit(source: str, attributes: frozenset[str] = SAFE_ATTRIBUTES) -> None:
    """Refuse ``source`` unless it is made only of the compiler's own kinds of tokens.

    Every name it reads is one it defines (a function, a parameter, a local) or a
    safe builtin; no name is a dunder; attributes are only ``attributes`` (default
    :data:`SAFE_ATTRIBUTES`; the engine's generated code adds its own few, no dunder);
    constants are numbers, booleans and None; no import, class, lambda,
    comprehension, string, ``global`` or ``with``.

    :raises UnsafeCode: naming the first token that is not.
    """
    tree = ast.parse(source)
    defined: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise UnsafeCode(f"generated code contains {type(node).__name__}")
        name = node.name if isinstance(node, ast.FunctionDef) else node.arg if isinstance(node, ast.arg) else (
            node.id if isinstance(node, ast.Name) else None)
        if name is not None and name.startswith("__"):
            raise UnsafeCode(f"generated code names {name!r}")
        if isinstance(node, (ast.FunctionDef, ast.arg)) or (
            isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        ):
            assert name is not None
            defined.add(name)
        if isinstance(node, ast.Attribute) and not (
            (node.attr in SAFE_ATTRIBUTES or (node.attr in attributes and not node.attr.startswith("__")))
            and isinstance(node.value, ast.Name)
        ):
            raise UnsafeCode(f"generated code reads the attribute {node.attr!r}")
        if isinstance(node, ast.Constant) and not (node.value is None or isinstance(node.value, (bool, int, float))):
            raise UnsafeCode(f"generated code holds the constant {node.value!r}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in defined | SAFE_BUILTINS:
            raise UnsafeCode(f"generated code reads {node.id!r}, which it does not define")
