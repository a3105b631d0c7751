"""Rule expressions: ``grammar.lark`` -> :mod:`.ast` -> :mod:`.checker` (types, scopes) -> :mod:`.compiler`.

The public API (docs/architecture.md)::

    parse(text) -> Node                       raises ExprSyntaxError(message, start, end)
    check(text, site, env) -> Checked         .node .type .issues (ExprIssue: code, message, start, end, hint, severity)
    check_design(design) -> list[ExprIssue]   every expression of a design; issue.pointer says where
    DesignEnv.from_design(design)             depot names, groups, types, board positions
    compile_expr(checked, env) -> fn          fn(P, S, *site_args)
    compile_rule(checked, env, targets)       fn plus the static filter (CompiledRule)
"""

from .ast import Node, NodeVisitor, to_source
from .checker import Checked, ExprIssue, check, check_design, design_sites
from .compiler import CompiledRule, ExprCompileError, compile_expr, compile_rule
from .env import DesignEnv
from .parser import MAX_DEPTH, MAX_LENGTH, ExprSyntaxError, ExprTooComplex, parse
from .sites import Site
from .types import Kind, Type

__all__ = [
    "parse", "ExprSyntaxError", "ExprTooComplex", "MAX_LENGTH", "MAX_DEPTH",
    "Node", "NodeVisitor", "to_source",
    "Site", "DesignEnv", "Kind", "Type",
    "check", "Checked", "ExprIssue", "check_design", "design_sites",
    "compile_expr", "compile_rule", "CompiledRule", "ExprCompileError",
]
