"""The one place where the engine turns rule expressions into callables.

Every rule text of a design goes through :func:`compile_rule`, which returns a
callable with the calling convention of ``docs/architecture.md``:
``fn(P, S, *site_args)``. Plain integer and boolean literals (the usual deal and
effect counts) are folded here into constants; everything else is handed to the
expression compiler (``cardz_tools.expr``).

Hints make the hot loop cheaper; a compiled callable may carry them as
attributes and the engine reads them only through the functions below:

``static``
    (accept rules) ``static(source, depot) -> bool``: the part of the rule that
    depends only on the board (``adjacent(source, depot)``). Pairs for which it is
    false are dropped from the candidate targets once, at ``Game`` creation.
``residual``
    (accept rules) the rule without its static part, valid only where ``static`` holds.
``local``
    true when the rule reads no pile but its own depot's (triggers) or the
    two piles of the drag (accept and eject rules: ``card``, ``cards``,
    ``source``, ``depot``, ``top``), so that its value can change only when
    one of those piles changes. Triggers are then re-checked, and a source's
    drags listed again, only after such a change.

The expression compiler provides ``static`` and ``residual``
(:class:`cardz_tools.expr.CompiledRule`); ``local`` is worked out here from the
checked tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol, cast

from ..cards import COLOR_NAMES, RANK_NAMES, SUIT_NAMES
from ..diagnostics import Severity
from ..expr import Checked, DesignEnv, Site, check
from ..expr import ast as expr_ast
from ..expr import compile_rule as compile_checked
from ..expr.inline import Hoisted, InlineCode
from ..model import Design, Expr

__all__ = [
    "Chooser",
    "Compiled",
    "Hoisted",
    "InlineCode",
    "RuleError",
    "Site",
    "compile_chooser",
    "compile_rule",
    "constant_of",
    "inline_code",
    "inline_rule",
    "is_local",
    "inline_rule_by_side",
    "static_filter",
]

Compiled = Callable[..., Any]
"""A compiled rule: ``fn(P, S, *site_args)``."""


class _HintedRule(Protocol):
    """A compiled rule with the hint attributes this module sets on every rule it compiles."""

    static: Callable[[int, int], bool] | None
    """The board-only ``(source, depot)`` part of an accept rule, or None."""
    residual: Compiled | None
    """The accept rule without its static part (valid where ``static`` holds), or None."""
    local: bool
    """The rule reads no pile but those of its site's depots."""

    def __call__(self, *args: Any) -> Any: ...


class RuleError(ValueError):
    """A design the engine cannot play: a rule that does not compile, or a kind it does not know."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(f"{message} (at {pointer})" if pointer else message)
        self.pointer = pointer


_INT = re.compile(r"^\s*-?\d+\s*$")


def constant_of(text: str) -> int | bool | None:
    """The value of a literal rule text (``"2"``, ``"true"``), or None for a real expression."""
    if _INT.match(text):
        return int(text)
    stripped = text.strip()
    if stripped in ("true", "false"):
        return stripped == "true"
    return None


def _constant(value: object) -> Compiled:
    def rule(P: object, S: object, *site_args: object) -> object:
        return value

    hinted = cast(_HintedRule, rule)
    hinted.static, hinted.residual, hinted.local = None, None, False
    return hinted


_ENVIRONMENTS: dict[int, tuple[Design, DesignEnv]] = {}


def _environment(design: Design) -> DesignEnv:
    """The expression environment of ``design``, built once per design (a few kept)."""
    entry = _ENVIRONMENTS.get(id(design))
    if entry is None or entry[0] is not design:
        if len(_ENVIRONMENTS) >= 8:
            _ENVIRONMENTS.pop(next(iter(_ENVIRONMENTS)))
        entry = _ENVIRONMENTS[id(design)] = (design, DesignEnv.from_design(design))
    return entry[1]


_LOCAL_NAMES = (
    frozenset({"depot", "top", "true", "false"})
    | frozenset(RANK_NAMES)
    | frozenset(SUIT_NAMES)
    | frozenset(COLOR_NAMES)
)
_DRAG_NAMES = _LOCAL_NAMES | {"card", "cards", "source"}
# Calls that read piles other than their arguments': covered(depot) looks at the depots over it.
_NEIGHBOUR_CALLS = frozenset({"left", "right", "above", "below", "covered"})


def _reads_site_piles_only(node: expr_ast.Node, names: frozenset[str]) -> bool:
    """Whether an expression mentions no pile but its site's (conservative: binders count as other piles)."""
    for sub in expr_ast.walk(node):
        if isinstance(sub, expr_ast.Name) and sub.name not in names:
            return False
        if isinstance(sub, expr_ast.Index):
            return False
        if isinstance(sub, expr_ast.Call) and (sub.func in _NEIGHBOUR_CALLS or sub.var):
            return False
    return True


def _checked(expr: Expr, site: Site, env: DesignEnv) -> Checked:
    checked = check(expr.text, site, env)
    if not checked.ok or checked.node is None:
        errors = [i for i in checked.issues if i.severity is Severity.ERROR]
        message = errors[0].message if errors else "it has errors"
        raise RuleError(f"the rule {expr.text!r} does not compile: {message}", expr.pointer)
    return checked


def _compile_expression(expr: Expr, site: Site, design: Design) -> Compiled:
    env = _environment(design)
    checked = _checked(expr, site, env)
    compiled = compile_checked(checked, env)
    # The generated function itself carries the hints: a wrapper would cost a call in the hot loop.
    fn = cast(_HintedRule, compiled.fn)
    node = checked.node
    assert node is not None  # _checked raised for a text without a tree
    # Hints for the engine's hot loop (see the module docstring).
    fn.static, fn.residual, fn.local = None, None, False
    if site is Site.ACCEPT and compiled.static is not None:
        fn.static = compiled.static
        fn.residual = compiled.residual
    if site is Site.TRIGGER:
        fn.local = _reads_site_piles_only(node, _LOCAL_NAMES)
    elif site in (Site.ACCEPT, Site.EJECT):
        fn.local = _reads_site_piles_only(node, _DRAG_NAMES)
    return fn


def compile_rule(expr: Expr, site: Site, design: Design) -> Compiled:
    """Compile one rule expression of ``design`` for ``site``.

    :raises RuleError: when the text does not compile (a design that lints
        clean always compiles).
    """
    value = constant_of(expr.text)
    if value is not None:
        return _constant(value)
    return _compile_expression(expr, site, design)


def static_filter(rule: Compiled) -> Callable[[int, int], bool] | None:
    """The board-only ``(source, depot)`` part of a rule :func:`compile_rule` compiled, if it has one."""
    return cast(_HintedRule, rule).static


def is_local(rule: Compiled) -> bool:
    """Whether a rule :func:`compile_rule` compiled reads no pile but those of its site's depots."""
    return cast(_HintedRule, rule).local


def inline_code(design: Design) -> InlineCode:
    """A collector for rules written inline into one function the engine generates."""
    return InlineCode(_environment(design))


def inline_rule(
    code: InlineCode,
    expr: Expr,
    site: Site,
    design: Design,
    names: dict[str, str],
    pile: str,
    residual: bool = False,
    outer: frozenset[str] = frozenset(),
    pile_once: str | None = None,
) -> Hoisted:
    """A condition of ``design`` as a Python expression over the caller's locals, the locals it
    reads, and the assignments to hoist out of the loop in which the ``outer`` site arguments stay
    the same (see :meth:`InlineCode.hoisting_both`); with ``residual``, without its static part;
    with ``pile_once``, the pile read only once is read as that text, not as the local ``pile``.

    :raises RuleError: when the text does not compile.
    """
    value = constant_of(expr.text)
    if value is not None:
        return Hoisted("True" if value else "False", [], [])
    checked = _checked(expr, site, _environment(design))
    return code.hoisting_both(checked, names, pile, outer, frozenset(), residual, pile_once)


def inline_rule_by_side(
    code: InlineCode,
    expr: Expr,
    site: Site,
    design: Design,
    names: dict[str, str],
    pile: str,
    outer: frozenset[str],
    inner: frozenset[str],
    per_call: bool = False,
) -> Hoisted:
    """:func:`inline_rule` (residual) with the parts that read only the ``inner`` site arguments
    hoisted too, to work out once per target, and with ``per_call`` those that read no site
    argument, to work out once per call (see :meth:`InlineCode.hoisting_both`).

    :raises RuleError: when the text does not compile.
    """
    value = constant_of(expr.text)
    if value is not None:
        return Hoisted("True" if value else "False", [], [])
    checked = _checked(expr, site, _environment(design))
    return code.hoisting_both(checked, names, pile, outer, inner, residual=True, per_call=per_call)


Chooser = Callable[[Any, Any, tuple[int, ...]], list[int]]
"""``choose(P, S, members)``: the members (in order) for which a ``where`` rule holds on the same piles."""


def compile_chooser(expr: Expr, design: Design) -> Chooser:
    """The members a ``move`` effect's ``where`` (:attr:`Site.WHERE`, the member as ``depot``) chooses, all on
    the same piles, as one generated function: the parts of the rule that read no ``depot`` (a minimum over a
    group, Château de cartes' lowest row) are worked out once per call, not once per member
    (:meth:`InlineCode.hoisting_both`, as the move lister's per-call parts).

    :raises RuleError: when the text does not compile.
    """
    value = constant_of(expr.text)
    if value is not None:
        return (lambda P, S, members: list(members)) if value else (lambda P, S, members: [])
    code = inline_code(design)
    checked = _checked(expr, Site.WHERE, _environment(design))
    hoisted = code.hoisting_both(checked, {"depot": "_member"}, "_pile", frozenset(), frozenset(), per_call=True)
    body = [f"{local} = {text}" for local, text in hoisted.per_call]
    body += [
        f"_chosen = {code.constant(list)}()",
        "for _member in _members:",
        "    _pile = P[_member]",
        f"    if {hoisted.text}:",
        "        _chosen.append(_member)",
        "return _chosen",
    ]
    chooser, _ = code.function("_choose", ["P", "S", "_members"], body, ("append",))
    return cast(Chooser, chooser)
