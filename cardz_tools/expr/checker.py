"""The type checker: names, types, arity, maybe-absent values and constant conditions.

:func:`check` never raises on bad input: every problem becomes an
:class:`ExprIssue` with offsets into the expression text, so the linter can show
them all. Narrowing is flow sensitive: after ``!empty(X) &&`` (or in the other
operand of ``empty(X) ||``, or in a ``?:`` branch) ``top(X)`` is known to be there.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..diagnostics import RULES, Severity, did_you_mean
from ..model import Design, Effect, EffectKind
from .ast import (
    Binary,
    BoolLit,
    Call,
    Conditional,
    Field,
    Index,
    IntLit,
    Name,
    Node,
    NodeVisitor,
    Unary,
    iter_child_nodes,
    to_source,
    walk,
)
from .builtins import (
    BINDER_VARIABLE,
    CONSTANTS,
    FIELDS,
    FUNCTIONS,
    MAX_POW_EXPONENT,
    PREVIOUS_VARIABLE,
    Function,
    Overload,
    bounded_pow,
    field_names,
)
from .cost import MAX_EVALUATION_STEPS, evaluation_steps
from .env import DesignEnv
from .parser import ExprSyntaxError, parse
from .sites import Site
from .types import (
    ABSENT_DEPOT,
    BOOL,
    CARD_OPT,
    DEPOT,
    DEPOT_OPT,
    ERROR,
    GROUP,
    INT,
    RANK,
    Kind,
    Type,
)

__all__ = ["ExprIssue", "Checked", "NodeInfo", "check", "check_design", "NOT_CONST", "design_sites"]


class _NotConst:
    def __repr__(self) -> str:
        return "NOT_CONST"


NOT_CONST: Any = _NotConst()
"""The value of :attr:`NodeInfo.const` when the value is only known at run time."""


@dataclasses.dataclass(frozen=True, slots=True)
class ExprIssue:
    """One problem in one expression. ``start``/``end`` are offsets into the expression text."""

    code: str
    message: str
    start: int
    end: int
    hint: str | None = None
    severity: Severity = Severity.ERROR
    pointer: str = ""
    """JSON pointer of the string holding the expression (set by :func:`check_design`)."""

    @property
    def name(self) -> str:
        """The rule name of :attr:`code`, such as ``type-mismatch``."""
        return RULES[self.code].name


@dataclasses.dataclass(frozen=True, slots=True)
class NodeInfo:
    """What the checker learnt about one node."""

    type: Type
    const: Any = NOT_CONST
    overload: Overload | None = None
    binding: str = ""
    """For names: ``site``, ``depot``, ``group``, ``constant``, ``var`` (with the var's binder id) or ``""``."""


@dataclasses.dataclass(frozen=True)
class Checked:
    """The result of :func:`check`: the tree (None when it did not parse), its type and the issues."""

    text: str
    site: Site
    node: Node | None
    type: Type
    issues: tuple[ExprIssue, ...]
    info: Mapping[int, NodeInfo] = dataclasses.field(default_factory=dict, repr=False)
    guarded: frozenset[int] = dataclasses.field(default=frozenset(), repr=False)
    """ids of maybe-absent ``top``/``bottom`` nodes proven present where they are used."""
    binders: Mapping[int, int] = dataclasses.field(default_factory=dict, repr=False)
    """For each name node bound by a quantifier: id of the Call that binds it."""

    @property
    def ok(self) -> bool:
        """Whether there is no error (warnings allowed): only then can it be compiled."""
        return self.node is not None and not any(i.severity is Severity.ERROR for i in self.issues)


def _an(value: object) -> str:
    """``a Bool``, ``an Int``."""
    text = str(value)
    return ("an " if text[:1] in "AEIOU" else "a ") + text


def _issue(code: str, message: str, node: Node | tuple[int, int], hint: str | None = None,
           severity: Severity | None = None) -> ExprIssue:
    start, end = (node.start, node.end) if isinstance(node, Node) else node
    return ExprIssue(code, message, start, end, hint, severity or RULES[code].severity)


_COMPARABLE = frozenset({Kind.INT, Kind.RANK, Kind.SUIT, Kind.COLOR, Kind.BOOL, Kind.DEPOT})
_ORDERED = frozenset({Kind.INT, Kind.RANK})
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def _nonempty_keys(depot: Node) -> frozenset[str]:
    text = to_source(depot)
    keys = {f"top({text})", f"bottom({text})"}
    if text == "depot":
        keys.add("top")
    return frozenset(keys)


def _mentions(key: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", key) is not None


class _Checker(NodeVisitor[NodeInfo]):
    def __init__(self, site: Site, env: DesignEnv) -> None:
        self.site = site
        self.env = env
        self.issues: list[ExprIssue] = []
        self.info: dict[int, NodeInfo] = {}
        self.guarded: set[int] = set()
        self.binders: dict[int, int] = {}
        self.scopes: list[tuple[str, Type, int]] = []  # (name, type, id of the binding call)
        self.facts: frozenset[str] = frozenset()

    # ------------------------------------------------------------------ helpers

    def report(self, issue: ExprIssue) -> None:
        self.issues.append(issue)

    def visit(self, node: Node, *args: Any) -> NodeInfo:
        info: NodeInfo = super().visit(node, *args)
        self.info[id(node)] = info
        return info

    def visit_with(self, node: Node, facts: frozenset[str]) -> NodeInfo:
        saved = self.facts
        self.facts = saved | facts
        try:
            return self.visit(node)
        finally:
            self.facts = saved

    def require_present(self, node: Node, info: NodeInfo, what: str) -> None:
        """Warn (CZ408) when a maybe-absent value is used without a guard."""
        if not info.type.maybe:
            return
        key = "top" if isinstance(node, Name) and node.name == "top" else to_source(node)
        if key in self.facts:
            self.guarded.add(id(node))
            return
        guard = self.guard_hint(node)
        self.report(_issue("CZ408", f"`{to_source(node)}` may be absent ({info.type}) when {what}", node, guard))

    def guard_hint(self, node: Node) -> str:
        if isinstance(node, Name) and node.name == "top":
            return "guard it: `!empty(depot) && ...`"
        if isinstance(node, Call) and node.func in ("top", "bottom") and node.args:
            return f"guard it: `!empty({to_source(node.args[0])}) && ...`"
        return f"guard it: `exists({to_source(node)}) && ...`"

    def type_error(self, node: Node, message: str, hint: str | None = None) -> NodeInfo:
        self.report(_issue("CZ405", message, node, hint))
        return NodeInfo(ERROR)

    def facts_of(self, node: Node, truth: bool) -> frozenset[str]:
        """Keys of maybe-absent expressions known present when ``node`` evaluates to ``truth``."""
        if isinstance(node, Unary) and node.op == "!":
            return self.facts_of(node.operand, not truth)
        if isinstance(node, Binary):
            if node.op in ("&&", "||"):
                left, right = self.facts_of(node.left, truth), self.facts_of(node.right, truth)
                both = (node.op == "&&") == truth
                return left | right if both else left & right
            if node.op in _NEGATED:
                return self.count_facts(node, truth) | self.column_facts(node, truth)
            return frozenset()
        if isinstance(node, Call) and len(node.args) == 1:
            arg = node.args[0]
            if node.func == "empty" and not truth and self.kind_of(arg) is Kind.DEPOT:
                return _nonempty_keys(arg)
            if node.func == "exists" and truth:
                key = "top" if isinstance(arg, Name) and arg.name == "top" else to_source(arg)
                return frozenset({key})
        return frozenset()

    def count_facts(self, node: Binary, truth: bool) -> frozenset[str]:
        """``count(X) > 0``, ``count(X) != 0``, ``count(X) >= 1``, ``count(X) == 2``: X is not empty."""
        op, left, right = node.op if truth else _NEGATED[node.op], node.left, node.right
        if isinstance(left, IntLit) and isinstance(right, Call):
            flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
            op, left, right = flipped, right, left
        if not (isinstance(left, Call) and left.func == "count" and len(left.args) == 1 and isinstance(right, IntLit)):
            return frozenset()
        n = right.value
        nonempty = (
            (op == ">" and n >= 0) or (op == ">=" and n >= 1) or (op == "!=" and n == 0) or (op == "==" and n >= 1)
        )
        if nonempty and self.kind_of(left.args[0]) is Kind.DEPOT:
            return _nonempty_keys(left.args[0])
        return frozenset()

    def column_facts(self, node: Binary, truth: bool) -> frozenset[str]:
        """``col(X) != 0``, ``col(X) > 0``, ``col(X) >= 1`` (or ``col(X) == 0`` false): ``left(X)`` is there.

        Exact for every layout: the member left of grid column j exists exactly when j > 0.
        """
        op, left, right = node.op if truth else _NEGATED[node.op], node.left, node.right
        if isinstance(left, IntLit) and isinstance(right, Call):
            flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
            op, left, right = flipped, right, left
        if not (isinstance(left, Call) and left.func == "col" and len(left.args) == 1 and isinstance(right, IntLit)):
            return frozenset()
        n = right.value
        positive = (
            (op == ">" and n >= 0) or (op == ">=" and n >= 1) or (op == "!=" and n == 0) or (op == "==" and n >= 1)
        )
        if positive and self.kind_of(left.args[0]) is Kind.DEPOT:
            return frozenset({f"left({to_source(left.args[0])})"})
        return frozenset()

    def kind_of(self, node: Node) -> Kind | None:
        info = self.info.get(id(node))
        return info.type.kind if info is not None else None

    def scope_names(self) -> list[str]:
        names = [name for name, _, _ in self.scopes]
        names += list(self.site.names) + list(self.env.depots) + list(self.env.groups) + list(CONSTANTS)
        return names

    # ------------------------------------------------------------------ leaves

    def visit_IntLit(self, node: IntLit) -> NodeInfo:
        return NodeInfo(INT, node.value)

    def visit_BoolLit(self, node: BoolLit) -> NodeInfo:
        return NodeInfo(BOOL, node.value)

    def visit_Name(self, node: Name) -> NodeInfo:
        name = node.name
        for var, var_type, binder in reversed(self.scopes):
            if var == name:
                self.binders[id(node)] = binder
                return NodeInfo(var_type, binding="var")
        if name in self.site.names:
            return NodeInfo(self.site.names[name].type, binding="site")
        if name in self.env.depots:
            return NodeInfo(DEPOT, self.env.depots[name], binding="depot")
        if name in self.env.groups:
            return NodeInfo(GROUP, self.env.groups[name], binding="group")
        if name in CONSTANTS:
            constant = CONSTANTS[name]
            return NodeInfo(constant.type, constant.value, binding="constant")
        if name == BINDER_VARIABLE:
            self.report(_issue("CZ407", "`it` is only defined inside a condition or value of "
                               "any/all/count/sum/min/max", node,
                               "write it inside the second argument, as in `any(cell, empty(it))`"))
            return NodeInfo(ERROR)
        if name == PREVIOUS_VARIABLE:
            self.report(_issue("CZ407", "`prev` is only defined inside the condition of chain", node,
                               "as in `chain(cards, it.rank == prev.rank - 1)`"))
            return NodeInfo(ERROR)
        elsewhere = [site.value for site in Site if name in site.names]
        if elsewhere:
            where = ", ".join(elsewhere[:-1]) + (" and " if len(elsewhere) > 1 else "") + elsewhere[-1]
            kind = "rules" if self.site.result == BOOL else "expressions"
            self.report(_issue("CZ406", f"`{name}` is not available in {self.site.value} {kind}; "
                               f"it exists in {where} {'rules' if len(elsewhere) > 1 else 'expressions'}",
                               node, self.site_hint()))
            return NodeInfo(ERROR)
        if name in FUNCTIONS:
            self.report(_issue("CZ401", f"`{name}` is a function, not a value", node,
                               f"call it: {FUNCTIONS[name].overloads[0].signature(name)}"))
            return NodeInfo(ERROR)
        hint = did_you_mean(name, self.scope_names())
        self.report(_issue("CZ401", f"unknown name `{name}`", node, hint or self.site_hint()))
        return NodeInfo(ERROR)

    def site_hint(self) -> str:
        names = ", ".join(f"`{n}`" for n in self.site.names)
        if names:
            return f"{self.site.value} expressions have {names}, plus depot, group, type, rank, suit and colour names"
        return f"{self.site.value} expressions have depot, group, type, rank, suit and colour names"

    # ------------------------------------------------------------------ postfix

    def visit_Field(self, node: Field) -> NodeInfo:
        receiver = self.visit(node.value)
        if receiver.type.is_error:
            return NodeInfo(ERROR)
        spec = FIELDS.get((receiver.type.kind, node.name))
        name_span = (node.end - len(node.name), node.end)
        if spec is None:
            fields = field_names(receiver.type.kind)
            if not fields:
                hint = (f"write {node.name}({to_source(node.value)})" if node.name in FUNCTIONS
                        else "only cards and suits have fields")
                self.report(_issue("CZ402", f"{_an(receiver.type.present)} has no fields", name_span, hint))
            else:
                hint = did_you_mean(node.name, fields) or "fields: " + ", ".join(fields)
                message = f"{_an(receiver.type.present)} has no field `{node.name}`"
                self.report(_issue("CZ402", message, name_span, hint))
            return NodeInfo(ERROR)
        self.require_present(node.value, receiver, f"reading `.{node.name}`")
        const = NOT_CONST
        if receiver.const is not NOT_CONST and receiver.type.kind is Kind.SUIT and node.name == "color":
            from ..cards import Suit

            const = int(Suit(receiver.const).color)
        return NodeInfo(spec.result, const)

    def visit_Index(self, node: Index) -> NodeInfo:
        value = self.visit(node.value)
        index = self.visit(node.index)
        if value.type.is_error or index.type.is_error:
            return NodeInfo(ERROR)
        if index.type != INT:
            return self.type_error(node.index, f"a member index is an Int, not {_an(index.type)}")
        if value.type.kind is Kind.CARDS:
            return NodeInfo(CARD_OPT)
        if value.type.kind is not Kind.GROUP:
            return self.type_error(node.value, f"only a group has members (`cell[0]`); this is {_an(value.type)}")
        members = value.const
        if index.const is not NOT_CONST:
            if not 0 <= index.const < len(members):
                what = to_source(node.value)
                span = f"{what}[0] .. {what}[{len(members) - 1}]" if members else "none"
                return self.type_error(node.index, f"`{what}` has {len(members)} members ({span})")
            return NodeInfo(DEPOT, members[index.const])
        return NodeInfo(DEPOT_OPT)

    # ------------------------------------------------------------------ operators

    def visit_Unary(self, node: Unary) -> NodeInfo:
        operand = self.visit(node.operand)
        if operand.type.is_error:
            return NodeInfo(ERROR)
        want = BOOL if node.op == "!" else INT
        if operand.type != want:
            return self.type_error(node.operand, f"'{node.op}' needs {_an(want)}, not {_an(operand.type)}")
        if operand.const is NOT_CONST:
            return NodeInfo(want)
        return NodeInfo(want, (not operand.const) if node.op == "!" else -operand.const)

    def visit_Binary(self, node: Binary) -> NodeInfo:
        if node.op in ("&&", "||"):
            return self.logical(node)
        left = self.visit(node.left)
        right = self.visit(node.right)
        if left.type.is_error or right.type.is_error:
            return NodeInfo(BOOL if node.op in ("==", "!=", "<", "<=", ">", ">=", "in") else ERROR)
        op, lt, rt = node.op, left.type, right.type
        consts = left.const is not NOT_CONST and right.const is not NOT_CONST
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return self.comparison(node, left, right)
        if op == "in":
            if lt.kind is not Kind.DEPOT or rt != GROUP:
                return self.type_error(node, f"'in' tests a Depot in a Group, not {_an(lt)} in {_an(rt)}")
            return NodeInfo(BOOL, left.const in right.const if consts else NOT_CONST)
        if op in ("+", "-"):
            if lt == INT and rt == INT:
                result = INT
            elif lt == RANK and rt == INT or (op == "+" and lt == INT and rt == RANK):
                result = RANK
            elif op == "-" and lt == RANK and rt == RANK:
                result = INT
            else:
                hint = "use .value for a card's number" if RANK in (lt, rt) else None
                return self.type_error(node, f"'{op}' works on Int (and Rank ± Int, Rank − Rank), "
                                             f"not on {lt} and {rt}", hint)
            if not consts:
                return NodeInfo(result)
            value = left.const + right.const if op == "+" else left.const - right.const
            rank_const = left.const if lt == RANK else right.const
            if result == RANK and not (1 <= rank_const <= 13 and 1 <= value <= 13):
                value = math.nan
            elif lt == RANK and math.isnan(value):
                value = 0  # Rank − Rank with no rank on a side: as at run time (compiler._rank_sub)
            return NodeInfo(result, value)
        # * / %
        if lt != INT or rt != INT:
            return self.type_error(node, f"'{op}' works on Int, not on {lt} and {rt}")
        if right.const == 0 and op in ("/", "%"):
            self.report(_issue("CZ405", f"'{op}' by zero (the result would always be 0)", node.right))
            return NodeInfo(ERROR)
        if not consts:
            return NodeInfo(INT)
        a, b = left.const, right.const
        return NodeInfo(INT, a * b if op == "*" else (a // b if op == "/" else a % b))

    def comparison(self, node: Binary, left: NodeInfo, right: NodeInfo) -> NodeInfo:
        op, lt, rt = node.op, left.type, right.type
        ordered = op not in ("==", "!=")
        if {lt.kind, rt.kind} == {Kind.RANK, Kind.INT}:
            return self.type_error(node, f"'{op}' compares a Rank with an Int",
                                   "compare with a rank name like Ace, or use .value")
        if lt.kind is not rt.kind or lt.kind not in (_ORDERED if ordered else _COMPARABLE):
            allowed = "Int or Rank values" if ordered else "two values of the same type (not cards or groups)"
            hint = "compare fields such as .rank or .suit" if Kind.CARD in (lt.kind, rt.kind) else None
            return self.type_error(node, f"'{op}' needs {allowed}, not {lt} and {rt}", hint)
        if left.const is NOT_CONST or right.const is NOT_CONST:
            return NodeInfo(BOOL)
        a, b = left.const, right.const
        value = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        return NodeInfo(BOOL, value)

    def logical(self, node: Binary) -> NodeInfo:
        left = self.visit(node.left)
        # The right operand only runs when the left one is true (&&) or false (||).
        right = self.visit_with(node.right, self.facts_of(node.left, node.op == "&&"))
        for side, info in ((node.left, left), (node.right, right)):
            if not info.type.is_error and info.type != BOOL:
                self.type_error(side, f"'{node.op}' needs Bool operands, not {_an(info.type)}")
        decisive = node.op == "||"  # the value that decides the result on its own
        a, b = left.const, right.const
        if a is decisive or b is decisive:
            return NodeInfo(BOOL, decisive)
        if a is not NOT_CONST and b is not NOT_CONST:
            return NodeInfo(BOOL, not decisive)
        return NodeInfo(BOOL)

    def visit_Conditional(self, node: Conditional) -> NodeInfo:
        test = self.visit(node.test)
        then = self.visit_with(node.then, self.facts_of(node.test, True))
        otherwise = self.visit_with(node.otherwise, self.facts_of(node.test, False))
        if not test.type.is_error and test.type != BOOL:
            self.type_error(node.test, f"the test of '?:' is a condition (Bool), not {_an(test.type)}")
        if then.type.is_error or otherwise.type.is_error:
            return NodeInfo(ERROR)
        if then.type.kind is not otherwise.type.kind or then.type.kind in (Kind.GROUP, Kind.CARDS):
            return self.type_error(node, f"both branches of '?:' need the same type (Int, Bool, Rank, Suit, Color, "
                                         f"Card or Depot), not {then.type} and {otherwise.type}")
        result = Type(then.type.kind, then.type.maybe or otherwise.type.maybe)
        if test.const is True:
            return NodeInfo(result, then.const)
        if test.const is False:
            return NodeInfo(result, otherwise.const)
        return NodeInfo(result)

    # ------------------------------------------------------------------ calls

    def visit_Call(self, node: Call) -> NodeInfo:
        function = FUNCTIONS.get(node.func)
        if function is None:
            return self.unknown_function(node)
        candidates = [o for o in function.overloads if len(o.params) == len(node.args)]
        if not candidates:
            return self.wrong_arity(node, function)
        first = self.visit(node.args[0]) if node.args else None
        overload = candidates[0]
        if first is not None and not first.type.is_error:
            matching = [o for o in candidates if first.type.kind in o.params[0].kinds]
            if not matching:
                kinds = sorted({k.value for o in candidates for k in o.params[0].kinds})
                return self.bad_argument(node, 0, f"`{node.func}` takes {' or '.join(kinds)} as its first argument, "
                                                  f"not {first.type}", candidates)
            overload = matching[0]
        self.check_call_context(node, overload)
        infos = self.visit_arguments(node, overload, first)
        self.check_arguments(node, overload, infos)
        if any(info is None or info.type.is_error for info in infos) and first is not None and first.type.is_error:
            results = {o.result for o in candidates}
            return NodeInfo(results.pop() if len(results) == 1 else ERROR)
        return NodeInfo(overload.result, self.fold_call(overload, infos), overload=overload)

    def unknown_function(self, node: Call) -> NodeInfo:
        """CZ403 for a name no function has (its arguments still checked)."""
        for arg in node.args:
            self.visit(arg)
        hint = did_you_mean(node.func, list(FUNCTIONS))
        if node.func in self.scope_names():
            hint = f"`{node.func}` is a value, not a function"
        self.report(_issue("CZ403", f"unknown function `{node.func}`", (node.start, node.start + len(node.func)), hint))
        return NodeInfo(ERROR)

    def wrong_arity(self, node: Call, function: Function) -> NodeInfo:
        """CZ404 for a call with a number of arguments no overload takes."""
        for arg in node.args:
            self.visit(arg)
        counts = " or ".join(str(n) for n in function.arities())
        signatures = "; ".join(o.signature(node.func) for o in function.overloads)
        self.report(_issue("CZ404", f"`{node.func}` takes {counts} argument{'s' if counts != '1' else ''}, "
                           f"got {len(node.args)}: {signatures}", node))
        return NodeInfo(ERROR)

    def check_call_context(self, node: Call, overload: Overload) -> None:
        """A bound name where the function binds none (CZ405), a function outside its sites (CZ406)."""
        if node.var is not None and not overload.is_binder:
            self.report(_issue("CZ405", f"`{node.func}({overload.params[0].name}, ...)` binds no name: "
                               f"`{node.var} in` is not allowed here", node))
        if overload.sites and self.site not in overload.sites:
            where = " and ".join(f"{site.value} expressions" for site in overload.sites)
            self.report(_issue("CZ406", f"`{node.func}` is only available in {where}",
                               (node.start, node.start + len(node.func)),
                               f"{overload.sites[0].value} expressions are {overload.sites[0].where}"))

    def visit_arguments(self, node: Call, overload: Overload, first: NodeInfo | None) -> list[NodeInfo | None]:
        """What the checker learns of each argument (the first one, already visited, is ``first``)."""
        infos: list[NodeInfo | None] = [first] if first is not None else []
        for param, arg in zip(overload.params[1:], node.args[1:], strict=True):
            if param.binder:
                item = overload.item if first is not None and not first.type.is_error else ERROR
                infos.append(self.visit_binder(node, arg, item or ERROR, overload.pairs))
            else:
                infos.append(self.visit(arg))
        return infos

    def check_arguments(self, node: Call, overload: Overload, infos: Sequence[NodeInfo | None]) -> None:
        """Each argument of the kind its parameter takes (CZ405), present where it must be; ``pow``'s exponent."""
        for param, arg, info in zip(overload.params, node.args, infos, strict=True):
            assert info is not None
            if info.type.is_error:
                continue
            if info.type.kind not in param.kinds:
                want = " or ".join(k.value for k in param.kinds)
                message = f"`{param.name}` of `{node.func}` is {_an(want)}, not {_an(info.type)}"
                self.report(_issue("CZ405", message, arg, overload.signature(node.func)))
            elif not param.maybe_ok:
                self.require_present(arg, info, f"passed to `{node.func}`")
        exponent = infos[1].const if overload.impl == "pow" and len(infos) == 2 and infos[1] is not None else None
        if isinstance(exponent, int) and not isinstance(exponent, bool) and not 0 <= exponent <= MAX_POW_EXPONENT:
            self.report(_issue("CZ405", f"the exponent of `pow` is 0..{MAX_POW_EXPONENT}, not {exponent}",
                               node.args[1]))

    def bad_argument(self, node: Call, position: int, message: str, candidates: list[Overload]) -> NodeInfo:
        for position_, arg in enumerate(node.args[1:], start=1):
            if any(o.params[position_].binder for o in candidates):
                pairs = any(o.pairs for o in candidates)
                self.visit_binder(node, arg, ERROR, pairs)  # `it` is bound, of unknown type
            else:
                self.visit(arg)
        signatures = "; ".join(o.signature(node.func) for o in candidates)
        self.report(_issue("CZ405", message, node.args[position], signatures))
        return NodeInfo(ERROR)

    def visit_binder(self, call: Call, body: Node, item: Type, pairs: bool = False) -> NodeInfo:
        """Check a quantifier's body with ``it`` (or ``call.var``) bound; ``pairs`` binds ``prev`` too."""
        names = [call.var or BINDER_VARIABLE] + ([PREVIOUS_VARIABLE] if pairs else [])
        saved = self.facts
        self.facts = frozenset(key for key in saved if not any(_mentions(key, name) for name in names))
        for name in reversed(names):
            self.scopes.append((name, item, id(call)))
        try:
            return self.visit(body)
        finally:
            del self.scopes[-len(names):]
            self.facts = saved

    def fold_call(self, overload: Overload, infos: Sequence[NodeInfo | None]) -> Any:
        """The value of a static function on constant arguments (such as ``adjacent(cell[0], cell[6])``)."""
        if not overload.static or any(i is None or i.const is NOT_CONST for i in infos):
            return NOT_CONST
        args = [i.const for i in infos if i is not None]
        env, impl = self.env, overload.impl
        if impl in ("index", "col", "row", "left", "right", "above", "below") and args[0] == ABSENT_DEPOT:
            return NOT_CONST
        if impl == "adjacent":
            return env.adjacent(args[0], args[1])
        if impl == "index":
            return env.member[args[0]]
        if impl in ("col", "row"):
            return env.grid[args[0]][0 if impl == "col" else 1]
        if impl in ("left", "right", "above", "below"):
            return env.neighbours[impl][args[0]]
        if impl == "size":
            return len(args[0])
        if impl == "abs":
            return abs(args[0])
        if impl == "pow":
            return bounded_pow(args[0], args[1])
        if impl == "at":
            return env.at(args[0], args[1], args[2])
        if impl == "min_int":
            return min(args)
        if impl == "max_int":
            return max(args)
        return NOT_CONST


def _is_constant_condition(node: Node, info: Mapping[int, NodeInfo]) -> bool:
    node_info = info.get(id(node))
    return (node_info is not None and node_info.type == BOOL and isinstance(node_info.const, bool)
            and not isinstance(node, BoolLit))


def _constant_conditions(root: Node, info: Mapping[int, NodeInfo]) -> Iterator[ExprIssue]:
    """CZ409 for the outermost conditions whose value is known without playing."""
    stack = [root]
    while stack:
        node = stack.pop()
        node_info = info.get(id(node))
        if (node_info is not None and node_info.type == BOOL and isinstance(node_info.const, bool)
                and not isinstance(node, BoolLit) and not any(_is_constant_condition(c, info)
                                                              for c in iter_child_nodes(node))):
            value = "true" if node_info.const else "false"
            yield _issue("CZ409", f"this condition is always {value}", node,
                         f"write `{value}` if that is meant, or check the names and numbers")
            continue
        stack.extend(iter_child_nodes(node))


def check(text: str, site: Site, env: DesignEnv | None = None) -> Checked:
    """Parse and type-check ``text`` as an expression of ``site`` in the scope of ``env``."""
    env = env or DesignEnv()
    try:
        node = parse(text)
    except ExprSyntaxError as error:
        issue = ExprIssue(error.code, error.message, error.start, error.end, error.hint, RULES[error.code].severity)
        return Checked(text, site, None, ERROR, (issue,))
    checker = _Checker(site, env)
    root = checker.visit(node)
    if site is Site.COUNT and not (isinstance(node, Name) and node.name == "all"):
        for sub in walk(node):
            if isinstance(sub, Name) and sub.name == "all" and checker.info[id(sub)].binding == "site":
                checker.report(_issue("CZ405", "`all` is a whole count on its own, not part of an expression",
                                      sub, "write \"all\" or a number"))
    if not root.type.is_error and root.type != site.result:
        kind = "a condition (Bool)" if site.result == BOOL else "a number (Int)"
        checker.report(_issue("CZ405", f"{site.value} expressions are {kind}; this one is {_an(root.type)}", node,
                              "compare it, as in `count(depot) > 0`" if site.result == BOOL else None))
    issues = list(checker.issues)
    if not any(i.severity is Severity.ERROR for i in issues):
        issues.extend(_constant_conditions(node, checker.info))
        issues.extend(_too_costly(Checked(text, site, node, root.type, (), checker.info), env))
    issues.sort(key=lambda i: (i.start, i.end, i.code))
    return Checked(text, site, node, root.type, tuple(issues), checker.info, frozenset(checker.guarded),
                   checker.binders)


def _too_costly(checked: Checked, env: DesignEnv) -> list[ExprIssue]:
    """CZ410 when one evaluation could take more than :data:`cost.MAX_EVALUATION_STEPS` steps."""
    steps = evaluation_steps(checked.node, checked.info, env.size)
    if steps <= MAX_EVALUATION_STEPS:
        return []
    assert checked.node is not None
    return [_issue("CZ410", f"one evaluation of this expression may take {steps:,} steps; at most "
                            f"{MAX_EVALUATION_STEPS:,} are allowed", checked.node,
                   "nest fewer quantifiers (any/all/count/sum/min/max) over large groups or piles")]


def design_sites(design: Design) -> Iterator[tuple[Site, str, str]]:
    """Every expression of ``design`` as (site, text, JSON pointer), in file order."""
    for spec in design.specs:
        if spec.accept.when is not None:
            yield Site.ACCEPT, spec.accept.when.text, spec.accept.when.pointer
        if spec.eject.when is not None:
            yield Site.EJECT, spec.eject.when.text, spec.eject.when.pointer
        for action in spec.actions:
            if action.when is not None:
                yield Site.ACTION, action.when.text, action.when.pointer
            yield from _effect_sites(action.effects)
        for trigger in spec.triggers:
            yield Site.TRIGGER, trigger.when.text, trigger.when.pointer
            yield from _effect_sites(trigger.effects)
    for rule in design.deal_rules:
        for value in (rule.face_down, rule.face_up):
            if value is not None:
                yield Site.DEAL, value.text, value.pointer
        if rule.match is not None:
            yield Site.MATCH, rule.match.text, rule.match.pointer
    if design.win.when is not None:
        yield Site.WIN, design.win.when.text, design.win.when.pointer
    if design.loss.when is not None:
        yield Site.LOSS, design.loss.when.text, design.loss.when.pointer
    yield Site.SCORING, design.scoring.value.text, design.scoring.value.pointer


def _effect_sites(effects: tuple[Effect, ...]) -> Iterator[tuple[Site, str, str]]:
    """The expressions of effects: ``where``, ``keep``, and ``count`` (a redeal's count has its own site)."""
    for effect in effects:
        if effect.where is not None:
            yield Site.WHERE, effect.where.text, effect.where.pointer
        if effect.keep is not None:
            yield Site.KEEP, effect.keep.text, effect.keep.pointer
        if effect.count is not None:
            site = Site.REDEAL if effect.effect_kind is EffectKind.REDEAL else Site.COUNT
            yield site, effect.count.text, effect.count.pointer


def check_design(design: Design) -> list[ExprIssue]:
    """Check every expression of ``design``; each issue carries its string's JSON pointer.

    The linter turns an issue into a file span with
    ``SourceFile.string_span(issue.pointer, issue.start, issue.end)``.
    """
    env = DesignEnv.from_design(design)
    issues: list[ExprIssue] = []
    for site, text, pointer in design_sites(design):
        for issue in check(text, site, env).issues:
            issues.append(dataclasses.replace(issue, pointer=pointer))
    return issues
