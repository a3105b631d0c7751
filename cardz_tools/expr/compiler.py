"""Typed syntax tree -> a plain Python function, compiled once.

The source is written by :class:`.codegen.Emitter` and built by :func:`.codegen.build`
(the generated names, the builtins and the audit are documented there). Nothing from
the design text reaches that source: depot and group names are resolved to ints and
constant tuples, binder names become ``_v1``, ``_v2`` ..., and functions and fields map
to fixed helper names.

Calling convention (docs/architecture.md): ``fn(P, S, *site_args)`` where ``P[d]``
is the pile of depot ``d`` (card ints, bottom first) and the site args are those
of :attr:`Site.args`. Conditions return ``bool``; counts and scores return ``int``.

Static filter
-------------
A conjunct of a top-level ``&&`` chain whose value depends only on the site's
depot arguments and the board (``adjacent(source, depot)``, ``index(depot) < 5``,
``depot in cell``) is split off. :class:`CompiledRule` then offers:

* ``static(source, depot)`` (accept) or ``static(depot)`` (eject, trigger, action):
  the static conjuncts alone;
* ``residual``: the rule without them, valid only where ``static`` holds;
* for accept rules, ``static_pairs``: every ``(source, depot)`` for which the static
  part holds (``depot`` among the ``targets`` given to :func:`compile_rule`), and
  ``static_targets[source]``: those depots as a tuple. The engine can loop over
  ``static_targets[source]`` and call ``residual`` instead of testing every depot.

``static`` is None when the rule has no static conjunct (every pair is possible);
``static_pairs`` is also None when the table would be too large to precompute.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .ast import Binary, Call, Field, Index, Name, Node, walk
from .checker import NOT_CONST, Checked
from .codegen import SITE_PARAMS, Emitter, ExprCompileError, Rule, build, with_pile
from .env import DesignEnv
from .sites import Site
from .types import Kind

__all__ = ["CompiledRule", "compile_rule", "compile_expr", "ExprCompileError", "MAX_STATIC_PAIRS"]

MAX_STATIC_PAIRS = 250_000
"""``static_pairs`` is precomputed only when sources × targets is at most this."""
@dataclasses.dataclass(frozen=True)
class CompiledRule:
    """A compiled expression and its static filter (see the module docstring)."""

    site: Site
    fn: Rule
    residual: Rule
    static: Callable[..., bool] | None
    static_pairs: frozenset[tuple[int, int]] | None
    static_targets: Mapping[int, tuple[int, ...]] | None
    python: str
    """The generated Python source (for debugging and tests)."""


def _conjuncts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "&&":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _is_static(node: Node, checked: Checked, static_names: frozenset[str]) -> bool:
    for sub in walk(node):
        info = checked.info.get(id(sub))
        if info is None:
            return False
        if info.const is not NOT_CONST:
            continue
        if isinstance(sub, Name):
            if info.binding == "site" and sub.name in static_names:
                continue
            if info.binding in ("depot", "group", "constant"):
                continue
            return False
        if isinstance(sub, Call):
            if info.overload is None or not info.overload.static:
                return False
        elif isinstance(sub, Field):
            return False
        elif isinstance(sub, Index) and checked.info[id(sub.value)].type.kind is not Kind.GROUP:
            return False
    return True


def _static_names(site: Site) -> frozenset[str]:
    return frozenset(n for n in ("source", "depot") if n in site.args and site is not Site.DEAL)


def split_static(checked: Checked) -> tuple[list[Node], list[Node]]:
    """The top-level conjuncts of a checked rule: (static ones, the rest); no static ones when the
    site has no depot arguments or the rule is not a condition."""
    assert checked.node is not None
    static_names = _static_names(checked.site)
    static_parts: list[Node] = []
    dynamic_parts: list[Node] = []
    if checked.site.result.kind is Kind.BOOL and static_names:
        for part in _conjuncts(checked.node):
            (static_parts if _is_static(part, checked, static_names) else dynamic_parts).append(part)
    else:
        dynamic_parts.append(checked.node)
    return static_parts, dynamic_parts


def _build(text: str, params: Sequence[str], emitter: Emitter) -> tuple[Rule, str]:
    rule = with_pile(f"def _rule({', '.join(params)}):\n    return {text}", 1)
    return build([*emitter.functions, rule], "_rule", list(emitter.constants.values()), "<cardz expression>")


def compile_rule(checked: Checked, env: DesignEnv, targets: Sequence[int] | None = None) -> CompiledRule:
    """Compile a checked expression; ``targets`` are the depots that own an accept rule (default: all).

    :raises ExprCompileError: when ``checked`` has errors.
    """
    if not checked.ok or checked.node is None:
        raise ExprCompileError(f"cannot compile {checked.text!r}: it has errors")
    site = checked.site
    params = ["P", "S", *(SITE_PARAMS[a] for a in site.args)]

    def emit(nodes: Sequence[Node], params_here: Sequence[str] = params) -> tuple[Rule, str]:
        constants: dict[object, tuple[str, Any]] = {}
        emitter = Emitter(checked, env, constants)
        texts = [emitter.emit(node) for node in nodes]
        text = texts[0] if len(texts) == 1 else "(" + " and ".join(texts) + ")"
        return _build(text, params_here, emitter)

    fn, python = emit([checked.node])
    static_names = _static_names(site)
    static_parts, dynamic_parts = split_static(checked)
    if not static_parts:
        return CompiledRule(site, fn, fn, None, None, None, python)
    static_params = [SITE_PARAMS[a] for a in site.args if a in static_names]
    static_fn, _ = emit(static_parts, static_params)
    residual = emit(dynamic_parts)[0] if dynamic_parts else _always_true
    pairs: frozenset[tuple[int, int]] | None = None
    by_source: dict[int, tuple[int, ...]] | None = None
    if site is Site.ACCEPT:
        owners = tuple(targets) if targets is not None else tuple(range(env.size))
        if env.size * len(owners) <= MAX_STATIC_PAIRS:
            pairs = frozenset((s, d) for s in range(env.size) for d in owners if static_fn(s, d))
            by_source = {s: tuple(d for d in owners if (s, d) in pairs) for s in range(env.size)}
    return CompiledRule(site, fn, residual, static_fn, pairs, by_source, python)


def _always_true(*args: Any) -> bool:
    """The residual of a rule that is entirely static."""
    return True


def compile_expr(checked: Checked, env: DesignEnv) -> Rule:
    """The callable of :func:`compile_rule`: ``fn(P, S, *site_args)``."""
    return compile_rule(checked, env).fn
