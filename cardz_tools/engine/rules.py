"""The one place where the engine turns rule expressions into callables.

Every rule text of a design goes through :func:`compile_rule`, which returns a
callable with the calling convention of ``docs/architecture.md``:
``fn(P, S, *site_args)``. Plain integer and boolean literals (the usual deal and
effect counts) are folded here into constants; everything else is handed to the
expression compiler (``cardz_tools.expr``).

Tests may swap the compiler with :func:`compiler_override`; the engine itself
never does.

Two optional hints make the hot loop cheaper; a compiled callable may carry them
as attributes and the engine reads them only through the functions below:

``pair_filter``
    (accept rules) ``pair_filter(source, depot) -> bool``, false for pairs the
    rule can never accept whatever the cards (``adjacent(source, depot)``): such
    pairs are dropped from the candidate targets once, at ``Game`` creation.
``local``
    (trigger rules) true when the rule reads only its own depot's pile, so that
    it needs re-checking only after that pile changed.
"""

from __future__ import annotations

import contextlib
import enum
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..model import Design, Expr

Compiled = Callable[..., Any]
"""A compiled rule: ``fn(P, S, *site_args)``."""
RuleCompiler = Callable[[Expr, "Site", Design], Compiled]
"""Something that compiles one rule expression for one site of one design."""


class Site(enum.Enum):
    """Where an expression sits; decides the names in scope and the site arguments."""

    ACCEPT = "accept"
    EJECT = "eject"
    TRIGGER = "trigger"
    ACTION = "action"
    COUNT = "count"
    DEAL = "deal"
    WIN = "win"
    LOSS = "loss"
    SCORING = "scoring"


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

    return rule


def _expression_compiler(expr: Expr, site: Site, design: Design) -> Compiled:
    try:
        from .. import expr as expression_language  # noqa: F401  (lands on its own branch)
    except ImportError:
        raise RuleError(
            f"the rule {expr.text!r} needs the expression compiler (cardz_tools.expr), "
            "which is not installed",
            expr.pointer,
        ) from None
    raise RuleError("the expression compiler is not wired in yet", expr.pointer)


_compiler: RuleCompiler = _expression_compiler


def compile_rule(expr: Expr, site: Site, design: Design) -> Compiled:
    """Compile one rule expression of ``design`` for ``site``.

    :raises RuleError: when the text does not compile (a design that lints
        clean always compiles).
    """
    value = constant_of(expr.text)
    if value is not None:
        return _constant(value)
    return _compiler(expr, site, design)


def pair_filter(rule: Compiled) -> Callable[[int, int], bool] | None:
    """The static ``(source, depot)`` filter of a compiled accept rule, if it has one."""
    return getattr(rule, "pair_filter", None)


def reads_own_depot_only(rule: Compiled) -> bool:
    """Whether a compiled trigger rule depends on nothing but its own depot's pile."""
    return bool(getattr(rule, "local", False))


@contextlib.contextmanager
def compiler_override(compiler: RuleCompiler) -> Iterator[None]:
    """Use ``compiler`` for rule expressions inside the ``with`` block (for tests)."""
    global _compiler
    previous, _compiler = _compiler, compiler
    try:
        yield
    finally:
        _compiler = previous
