"""Generated Python, in one place: the emitter, the names it writes, its builtins, and how it is built and run.

As Jinja2 does, the compiler writes Python *source* from the checked tree and compiles it
with :func:`compile`. Everything that writes or runs generated code goes through here:
the expression compiler (:mod:`.compiler`, one function per rule) and the functions the
engine generates (:mod:`.inline`: the move lister and the settle pass).

- :class:`Emitter` writes one Python expression per checked node;
- :data:`SAFE_BUILTINS` is the one list of builtins generated code may call;
- :func:`build` is the one build-audit-run routine: the functions wrapped in a closure
  maker, the source audited (:func:`.sandbox.audit`), compiled, and run in a namespace
  whose ``__builtins__`` is :data:`SAFE_BUILTINS` only.

Nothing from the design text reaches the source. Every name generated code uses is in
:data:`GENERATED_NAMES`, with what it holds: the expressions' own (``_k1`` closure constants,
``_q1`` quantifier functions ...), the site arguments (:data:`SITE_PARAMS`), and the locals of
the functions the engine generates (``engine/lister.py``, ``engine/triggers.py``); a test reads
the generated code of the shipped games and finds no other.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import CodeType
from typing import Any

from ..cards import COLOR_OF, FACE_UP_OF, NO_CARD, RANK_OF, SUIT_OF, Suit
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
    walk,
)
from .builtins import PREVIOUS_VARIABLE, bounded_pow
from .checker import NOT_CONST, Checked, NodeInfo
from .env import DesignEnv
from .sandbox import SAFE_ATTRIBUTES, audit
from .types import ABSENT_DEPOT, ABSENT_SUIT, Kind

__all__ = ["PILE", "SAFE_BUILTINS", "SITE_PARAMS", "Block", "Emitter", "ExprCompileError", "Rule", "build", "with_pile"]

_ADJACENCY_MATRIX_LIMIT = 300

Rule = Callable[..., Any]


class ExprCompileError(ValueError):
    """Raised when asked to compile an expression that has errors."""


# ---------------------------------------------------------------- run-time helpers
# Plain functions handed to the generated code as closure constants.

_NAN = math.nan
_SUIT_COLOR: tuple[int, ...] = tuple(int(Suit(s).color) if s <= 4 else 3 for s in range(8))


def _pile(P: Sequence[Sequence[int]], depot: int) -> Sequence[int]:
    return P[depot] if depot >= 0 else ()


def _top(pile: Sequence[int]) -> int:
    return pile[-1] if pile else NO_CARD


def _bottom(pile: Sequence[int]) -> int:
    return pile[0] if pile else NO_CARD


def _rank_add(rank: float, n: int) -> float:
    total = rank + n
    return total if 1 <= rank <= 13 and 1 <= total <= 13 else _NAN


def _rank_sub(a: float, b: float) -> int:
    # A shifted rank may be NaN (no rank); the difference must still be an Int.
    return 0 if a != a or b != b else int(a - b)


def _div(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


def _member(group: tuple[int, ...], i: int) -> int:
    return group[i] if 0 <= i < len(group) else ABSENT_DEPOT


def _card_at(cards: Sequence[int], i: int) -> int:
    return cards[i] if 0 <= i < len(cards) else NO_CARD


def _top_cards(pile: Sequence[int], n: int) -> Sequence[int]:
    return pile[max(len(pile) - n, 0):] if n > 0 else ()


def _covered(P: Sequence[Sequence[int]], later: tuple[int, ...]) -> bool:
    for depot in later:
        if P[depot]:
            return True
    return False


# The run tests below stop at the first pair that breaks the run: the move lister calls them for
# every run length of every column, and most runs break at once.


def _descending(cards: Sequence[int]) -> bool:
    for a, b in itertools.pairwise(cards):
        if RANK_OF[a] != RANK_OF[b] + 1:
            return False
    return True


def _ascending(cards: Sequence[int]) -> bool:
    for a, b in itertools.pairwise(cards):
        if RANK_OF[a] + 1 != RANK_OF[b]:
            return False
    return True


def _same_suit(cards: Sequence[int]) -> bool:
    for a, b in itertools.pairwise(cards):
        if SUIT_OF[a] != SUIT_OF[b]:
            return False
    return True


def _alternating(cards: Sequence[int]) -> bool:
    for a, b in itertools.pairwise(cards):
        if COLOR_OF[a] == COLOR_OF[b]:
            return False
    return True


def _declared(S: Any, depot: int) -> int:
    declared = getattr(S, "declared", None)
    if declared is None or depot < 0:
        return ABSENT_SUIT
    try:
        suit = declared[depot]
    except (IndexError, KeyError):
        return ABSENT_SUIT
    # The engine writes -1 for "nothing declared"; None is accepted too.
    return int(suit) if suit is not None and 0 <= suit <= 3 else ABSENT_SUIT


SAFE_BUILTINS: dict[str, Any] = {  # the only builtins generated code may call
    "len": len, "any": any, "all": all, "sum": sum, "min": min, "max": max, "abs": abs, "map": map,
}
SITE_PARAMS: dict[str, str] = {
    "card": "_card", "cards": "_cards", "source": "_source", "depot": "_depot", "kept": "_kept",
}
GENERATED_NAMES: dict[str, str] = {
    # Every generated function.
    "P": "the piles: the first parameter of every generated function",
    "S": "the state: the second parameter",
    "_make": "the closure maker that build() wraps the functions in",
    # The site arguments (SITE_PARAMS).
    "_card": "the card moved (the first of a run)",
    "_cards": "the cards moved",
    "_source": "the depot the cards leave",
    "_depot": "the depot of the rule (the target of a drag, the depot of a trigger or action)",
    "_kept": "the cards a deal rule keeps",
    # Expressions, numbered by one counter per emitter or InlineCode and never reused.
    "_k#": "a closure constant: a group, a table, a helper below, an engine value",
    "_v#": "a quantifier's variable",
    "_q#": "a quantifier's function",
    "_p#": "a chain's previous item",
    "_x#": "a part of a quantifier's body worked out before its loop",
    "_h#": "a part of a rule hoisted out of the engine's loop over targets (inline.py)",
    "_c#": "a part of a rule that reads no site argument, worked out once per call (inline.py)",
    "_g#": "a part of a rule that reads only the target, worked out once per target (inline.py; _g#_T for target T)",
    "_pd": "the pile of the site's depot, when it is read more than once (PILE stands for it while a rule is written)",
    "_items": "what a quantifier iterates",
    "_n": "a quantifier's count or sum",
    "_m": "a quantifier's minimum or maximum so far",
    "_x": "a quantifier's current value",
    # The move lister (engine/lister.py).
    "_list_moves": "the lister",
    "_moves": "the moves listed",
    "_append": "_moves.append",
    "_extend": "_moves.extend",
    "_declarations": "the drags that name a suit for a wild card",
    "_declared": "S.declared, the named suits",
    "_run_move": "the interned drag of a run",
    "_targets": "a source's targets in the loop over a run of sources",
    "_moves_to": "a source's one-card moves, by target",
    "_spec": "which accept block a target uses",
    "_ps": "the source's pile",
    "_up": "the length of the source's face-up run",
    "_size": "the length of the source's pile",
    "_count": "how many cards move",
    "_pair": "the two lowest of the cards that move (the one card of a run of one), for a suffix-closed eject test",
    "_gate": "the cards some target could take on its top, as a mask (engine/accept_gate.py)",
    "_gate_bit": "per card int, its bit in the gate's masks",
    "_gate_key": "the bottom cards the gate's tables read",
    "_gate_tables": "per target, the masks of the cards it could take, by its top card",
    "_asked": "the run lengths a suffix-closed eject test was asked about, behind the gate",
    "_refused": "whether that eject test refused one of them",
    "_card_rank": "the moved card's rank",
    "_card_suit": "the moved card's suit",
    "_f#": "the target's top worked out once per call (_f#_T for target T)",
    "_redeals": "S.redeals",
    "_uses": "S.uses",
    # The settle pass (engine/triggers.py).
    "_settle": "the settle pass",
    "_recheck": "the depots changed before the pass",
    "_touched": "the depots changed in the pass",
    "_has": "which depots have a trigger",
    "_due": "the depots to visit in the pass, sorted",
    "_new_list": "list",
    "_new_set": "set",
    "_insort": "bisect.insort",
    "_stats": "S.stats, the rule-use counters (None when not counted)",
    "_fired": "triggers fired so far",
    "_fired_before": "triggers fired before the pass",
    "_before": "the piles before the pass's first firing",
    "_declared_before": "the named suits before it",
    "_effect": "an effect that is not written out",
    "_later": "a depot a firing changed after the one visited",
}
"""Every name generated code uses, and what it holds; ``#`` stands for a number."""


def generated_name_key(name: str) -> str:
    """The key of ``name`` in :data:`GENERATED_NAMES`: its numbers (``_g3_12``: ``_g#``) as ``#``."""
    stem = name.rstrip("0123456789")
    if stem.endswith("_") and stem[:-1].rstrip("0123456789") != stem[:-1]:  # _g3_12, _f1_4
        stem = stem[:-1].rstrip("0123456789")
    return stem + "#" if stem != name else name


_FIELD_TABLES: dict[tuple[Kind, str], str] = {
    (Kind.CARD, "rank"): "_RANK", (Kind.CARD, "value"): "_RANK", (Kind.CARD, "suit"): "_SUIT",
    (Kind.CARD, "color"): "_COLOR", (Kind.CARD, "faceUp"): "_FACEUP", (Kind.SUIT, "color"): "_SUIT_COLOR",
}
_HELPERS: dict[str, Any] = {
    "_RANK": RANK_OF, "_SUIT": SUIT_OF, "_COLOR": COLOR_OF, "_FACEUP": FACE_UP_OF, "_SUIT_COLOR": _SUIT_COLOR,
    "_NAN": _NAN, "_pile": _pile, "_top": _top, "_bottom": _bottom, "_rank_add": _rank_add, "_rank_sub": _rank_sub,
    "_div": _div,
    "_mod": _mod, "_member": _member, "_card_at": _card_at, "_descending": _descending,
    "_ascending": _ascending, "_same_suit": _same_suit, "_alternating": _alternating, "_declared": _declared,
    "_top_cards": _top_cards, "_pow": bounded_pow, "_covered": _covered,
}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LITERAL_KINDS = frozenset({Kind.INT, Kind.BOOL, Kind.RANK, Kind.SUIT, Kind.COLOR, Kind.DEPOT})


CallWriter = Callable[["Emitter", Sequence[Node], str, Call], str]
CALL_WRITERS: dict[str, CallWriter] = {}
"""The code of every non-quantifier function, by its implementation name (``overload.impl``)."""


def _writes(*impls: str) -> Callable[[CallWriter], CallWriter]:
    """Register an :class:`Emitter` method as the writer of calls to ``impls``."""

    def register(method: CallWriter) -> CallWriter:
        for impl in impls:
            CALL_WRITERS[impl] = method
        return method

    return register


class Emitter(NodeVisitor[str]):
    """Writes one Python expression per node. Statics (tables, groups) become closure constants."""

    def __init__(self, checked: Checked, env: DesignEnv, constants: dict[object, tuple[str, Any]]) -> None:
        self.checked = checked
        self.env = env
        self.constants = constants
        self.binder_names: dict[int, str] = {}
        self.numbers: Iterator[int] = itertools.count(1)
        """Numbers for binder variables and quantifier functions: never reused, even when a
        subtree is written twice or several expressions share one generated function."""
        self.previous_names: dict[int, str] = {}  # chain's `prev`, by the id of the chain call
        self.functions: list[str] = []
        self.vars: list[str] = []  # binder variables in scope, innermost last
        self.replaced: dict[int, str] = {}
        """Subtrees written as the name of a local that holds their value (by node id)."""
        self.site_params = [SITE_PARAMS[a] for a in checked.site.args]

    # ---------------------------------------------------------- constants

    def constant(self, value: Any, key: object) -> str:
        """The closure name of a static value, shared by equal keys."""
        if key not in self.constants:
            self.constants[key] = (f"_k{len(self.constants)}", value)
        return self.constants[key][0]

    def helper(self, name: str) -> str:
        return self.constant(_HELPERS[name], ("helper", name))

    def group(self, members: tuple[int, ...]) -> str:
        return self.constant(members, ("group", members))

    def table(self, name: str) -> str:
        if name == "adjacent":
            n = self.env.size
            if n <= _ADJACENCY_MATRIX_LIMIT:
                rows = [tuple(self.env.adjacent(a, b) for b in range(n)) + (False,) for a in range(n)]
                return self.constant(tuple(rows) + ((False,) * (n + 1),), ("table", name))
            pairs = frozenset((a, b) for a in range(n) for b in range(n) if self.env.adjacent(a, b))
            return self.constant(pairs, ("table", "adjacent-set"))
        if name == "index":
            values: tuple[int, ...] = self.env.member
        elif name in ("col", "row"):
            values = tuple(g[0 if name == "col" else 1] for g in self.env.grid)
        else:
            values = self.env.neighbours[name]
        return self.constant(values + (ABSENT_DEPOT,), ("table", name))

    # ---------------------------------------------------------- helpers

    def info(self, node: Node) -> NodeInfo:
        return self.checked.info[id(node)]

    def emit(self, node: Node) -> str:
        local = self.replaced.get(id(node))
        if local is not None:
            return local
        info = self.info(node)
        if info.const is not NOT_CONST and info.type.kind in _LITERAL_KINDS:
            value = info.const
            if isinstance(value, float) and math.isnan(value):
                return self.helper("_NAN")
            return repr(value) if not isinstance(value, bool) else ("True" if value else "False")
        if info.const is not NOT_CONST and info.type.kind is Kind.GROUP:
            return self.group(info.const)
        return self.visit(node)

    def pile(self, node: Node) -> str:
        """A Python expression for the pile of a Depot-typed node."""
        info = self.info(node)
        if isinstance(node, Name) and info.binding == "site" and node.name == "depot":
            return PILE
        depot = self.emit(node)
        if info.type.maybe:
            return f"{self.helper('_pile')}(P, {depot})"
        return f"P[{depot}]"

    def items(self, node: Node) -> str:
        """What a quantifier iterates: cards of a pile or a run, or the depots of a group."""
        kind = self.info(node).type.kind
        if kind is Kind.DEPOT:
            return self.pile(node)
        return self.emit(node)

    @staticmethod
    def simple(text: str) -> bool:
        """Whether evaluating ``text`` twice is as cheap as naming it (``P[3]``, ``P[_v1]``, the pile)."""
        return text == PILE or text.replace("_", "a").replace("[", "").replace("]", "").isalnum()

    # ---------------------------------------------------------- nodes

    def visit_IntLit(self, node: IntLit) -> str:
        return repr(node.value)

    def visit_BoolLit(self, node: BoolLit) -> str:
        return "True" if node.value else "False"

    def visit_Name(self, node: Name) -> str:
        info = self.info(node)
        if info.binding == "var":
            binder = self.checked.binders[id(node)]
            if node.name == PREVIOUS_VARIABLE and binder in self.previous_names:
                return self.previous_names[binder]
            return self.binder_names[binder]
        if info.binding == "site":
            if node.name == "top":
                guarded = id(node) in self.checked.guarded
                return f"{PILE}[-1]" if guarded else f"({PILE}[-1] if {PILE} else {NO_CARD})"
            if node.name == "all":
                return "sum(map(len, P))"
            return SITE_PARAMS[node.name]
        raise AssertionError(f"unresolved name node {node!r}")  # constants are emitted by emit()

    def visit_Field(self, node: Field) -> str:
        receiver = self.info(node.value).type.kind
        table = self.helper(_FIELD_TABLES[(receiver, node.name)])
        return f"{table}[{self.emit(node.value)}]"

    def visit_Index(self, node: Index) -> str:
        value, index = self.emit(node.value), self.emit(node.index)
        if self.info(node.value).type.kind is Kind.CARDS:
            return f"{self.helper('_card_at')}({value}, {index})"
        return f"{self.helper('_member')}({value}, {index})"

    def visit_Unary(self, node: Unary) -> str:
        operand = self.emit(node.operand)
        if node.op == "!":
            return f"(not {operand})"
        return f"(-{operand})"

    def visit_Binary(self, node: Binary) -> str:
        op = node.op
        left_type, right_type = self.info(node.left).type, self.info(node.right).type
        if op in ("&&", "||"):
            return f"({self.emit(node.left)} {'and' if op == '&&' else 'or'} {self.emit(node.right)})"
        if op == "in":
            right = self.info(node.right).const
            members = self.constant(frozenset(right), ("set", right))
            return f"({self.emit(node.left)} in {members})"
        mixed = left_type.kind is not right_type.kind
        if op in ("+", "-") and Kind.RANK in (left_type.kind, right_type.kind) and mixed:
            rank, n = (node.left, node.right) if left_type.kind is Kind.RANK else (node.right, node.left)
            n_info = self.info(n)
            sign = -1 if op == "-" else 1
            if n_info.const is not NOT_CONST and isinstance(rank, Field):
                shift = sign * n_info.const
                table = tuple(r + shift if 1 <= r <= 13 and 1 <= r + shift <= 13 else _NAN for r in range(16))
                return f"{self.constant(table, ('rank-shift', shift))}[{self.emit(rank)}]"
            amount = self.emit(n) if sign == 1 else f"-{self.emit(n)}"
            return f"{self.helper('_rank_add')}({self.emit(rank)}, {amount})"
        left, right = self.emit(node.left), self.emit(node.right)
        if op == "-" and left_type.kind is Kind.RANK and not all(
                isinstance(side, Field) or self.info(side).const is not NOT_CONST for side in (node.left, node.right)):
            return f"{self.helper('_rank_sub')}({left}, {right})"
        if op in ("/", "%"):
            divisor = self.info(node.right).const
            if divisor is not NOT_CONST and divisor != 0:
                return f"({left} {'//' if op == '/' else '%'} {right})"
            return f"{self.helper('_div' if op == '/' else '_mod')}({left}, {right})"
        return f"({left} {op} {right})"

    def visit_Conditional(self, node: Conditional) -> str:
        return f"({self.emit(node.then)} if {self.emit(node.test)} else {self.emit(node.otherwise)})"

    def visit_Call(self, node: Call) -> str:
        overload = self.info(node).overload
        assert overload is not None
        if overload.is_binder:
            return self.quantifier(node, overload.impl)
        write = CALL_WRITERS.get(overload.impl)
        if write is None:
            raise AssertionError(f"no code for {overload.impl}")
        return write(self, node.args, overload.impl, node)

    # ---------------------------------------------------------- calls, one writer per implementation

    @_writes("count_depot")
    def _call_count_depot(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"len({self.pile(args[0])})"

    @_writes("count_cards")
    def _call_count_cards(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"len({self.emit(args[0])})"

    @_writes("count_group")
    def _call_count_group(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"sum(map(len, map(P.__getitem__, {self.emit(args[0])})))"

    @_writes("empty_depot")
    def _call_empty_depot(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"(not {self.pile(args[0])})"

    @_writes("empty_cards")
    def _call_empty_cards(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"(not {self.emit(args[0])})"

    @_writes("empty_group")
    def _call_empty_group(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"(not any(map(P.__getitem__, {self.emit(args[0])})))"

    @_writes("min_int", "max_int")
    def _call_min_max(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{impl[:3]}({self.emit(args[0])}, {self.emit(args[1])})"

    @_writes("abs")
    def _call_abs(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"abs({self.emit(args[0])})"

    @_writes("adjacent")
    def _call_adjacent(self, args: Sequence[Node], impl: str, node: Call) -> str:
        table = self.table("adjacent")
        a, b = self.emit(args[0]), self.emit(args[1])
        if self.env.size <= _ADJACENCY_MATRIX_LIMIT:
            return f"{table}[{a}][{b}]"
        return f"(({a}, {b}) in {table})"

    @_writes("index", "col", "row", "left", "right", "above", "below")
    def _call_board_table(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{self.table(impl)}[{self.emit(args[0])}]"

    @_writes("size")
    def _call_size(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return repr(len(self.info(args[0]).const))

    @_writes("top_depot", "bottom_depot")
    def _call_end_of_depot(self, args: Sequence[Node], impl: str, node: Call) -> str:
        end = "-1" if impl == "top_depot" else "0"
        pile = self.pile(args[0])
        if id(node) in self.checked.guarded and not self.info(args[0]).type.maybe:
            return f"{pile}[{end}]"
        if self.simple(pile):
            return f"({pile}[{end}] if {pile} else {NO_CARD})"
        return f"{self.helper('_top' if end == '-1' else '_bottom')}({pile})"

    @_writes("top_cards", "bottom_cards")
    def _call_end_of_cards(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{self.helper('_top' if impl == 'top_cards' else '_bottom')}({self.emit(args[0])})"

    @_writes("descending", "ascending", "same_suit", "alternating")
    def _call_sequence_test(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{self.helper('_' + impl)}({self.items(args[0])})"

    @_writes("top_cards_of")
    def _call_top_cards_of(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{self.helper('_top_cards')}({self.pile(args[0])}, {self.emit(args[1])})"

    @_writes("covered")
    def _call_covered(self, args: Sequence[Node], impl: str, node: Call) -> str:
        later = self.constant(self.env.overlapping + ((),), ("table", "covered"))
        return f"{self.helper('_covered')}(P, {later}[{self.emit(args[0])}])"

    @_writes("at")
    def _call_at(self, args: Sequence[Node], impl: str, node: Call) -> str:
        group = self.info(args[0]).const
        places = self.constant(self.env.grid_places(group), ("grid", group))
        return f"{places}.get(({self.emit(args[2])}, {self.emit(args[1])}), {ABSENT_DEPOT})"

    @_writes("pow")
    def _call_pow(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{self.helper('_pow')}({self.emit(args[0])}, {self.emit(args[1])})"

    @_writes("kept")
    def _call_kept(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"({self.emit(args[0])} in _kept)"

    @_writes("declared")
    def _call_declared(self, args: Sequence[Node], impl: str, node: Call) -> str:
        return f"{self.helper('_declared')}(S, {self.emit(args[0])})"

    @_writes("exists")
    def _call_exists(self, args: Sequence[Node], impl: str, node: Call) -> str:
        kind = self.info(args[0]).type.kind
        value = self.emit(args[0])
        if kind is Kind.DEPOT:
            return f"({value} >= 0)"
        return f"({value} != {ABSENT_SUIT if kind is Kind.SUIT else NO_CARD})"

    def quantifier(self, node: Call, impl: str) -> str:
        """A quantifier becomes a loop in a function of its own (loops beat generators in CPython)."""
        func = impl.rsplit("_", 1)[0]
        items = self.items(node.args[0])
        body_node = node.args[1]
        uses_var = any(self.checked.binders.get(id(n)) == id(node) for n in walk(body_node))
        number = next(self.numbers)
        var = f"_v{number}"
        self.binder_names[id(node)] = var
        if func == "chain":
            return self.chain(node, number, var, items)
        if func == "count" and not uses_var:
            # The condition is the same for every member: all of them or none.
            return f"(len({items}) if {self.emit(body_node)} else 0)"
        outer = list(self.vars)
        self.vars.append(var)
        invariants = self.loop_invariants(body_node, id(node))
        start: list[str] = []
        try:
            for sub in invariants:
                local = f"_x{next(self.numbers)}"
                start.append(f"{local} = {self.emit(sub)}")
                self.replaced[id(sub)] = local
            body = self.emit(body_node)
        finally:
            self.vars.pop()
            for sub in invariants:
                self.replaced.pop(id(sub), None)
        loop = {
            "any": ["if {body}:", "    return True", "return False"],
            "all": ["if not {body}:", "    return False", "return True"],
            "count": ["if {body}:", "    _n += 1", "return _n"],
            "sum": ["_n += {body}", "return _n"],
            "min": ["_x = {body}", "if _m is None or _x < _m:", "    _m = _x", "return 0 if _m is None else _m"],
            "max": ["_x = {body}", "if _m is None or _x > _m:", "    _m = _x", "return 0 if _m is None else _m"],
        }[func]
        start += {"count": ["_n = 0"], "sum": ["_n = 0"], "min": ["_m = None"], "max": ["_m = None"]}.get(func, [])
        *inside, last = [line.format(body=body) for line in loop]
        params = ["P", "S", *self.read_params([*start, body], outer), "_items"]
        name = f"_q{number}"
        lines = [f"def {name}({', '.join(params)}):", *("    " + line for line in start),
                 f"    for {var} in _items:", *("        " + line for line in inside), "    " + last]
        self.functions.append(with_pile("\n".join(lines), 1, always=True))
        return f"{name}({', '.join(params[:-1])}, {items})"


    def read_params(self, texts: Sequence[str], outer: Sequence[str]) -> list[str]:
        """The site arguments and enclosing binder variables that a quantifier's function reads
        (in ``texts``, its lines): only those are passed, so that a quantifier that reads no site
        argument is a function of the piles alone, which can be worked out once per call of a
        function the engine generates (``_c#`` in inline.py)."""
        words = set(_WORD.findall("\n".join(texts)))
        if any(PILE in text for text in texts):
            words.add(SITE_PARAMS["depot"])
        return [name for name in (*self.site_params, *outer) if name in words]

    def loop_invariants(self, body: Node, binder: int) -> list[Node]:
        """The largest subtrees of a quantifier's ``body`` worth working out once before its loop:
        they do not read its variable, hold no quantifier (a function of its own) and no guarded
        ``top`` (safe only where its guard holds), and are more than a name or a constant."""
        found: list[Node] = []

        def visit(node: Node) -> None:
            info = self.info(node)
            if info.const is not NOT_CONST:
                return
            if isinstance(node, Call) and info.overload is not None and info.overload.is_binder:
                return
            if not isinstance(node, Name) and self._invariant_in(node, binder):
                found.append(node)
                return
            for child in iter_child_nodes(node):
                visit(child)

        visit(body)
        return found

    def _invariant_in(self, node: Node, binder: int) -> bool:
        for sub in walk(node):
            if id(sub) in self.checked.guarded:
                return False
            if isinstance(sub, Name) and self.checked.binders.get(id(sub)) == binder:
                return False
            sub_info = self.checked.info.get(id(sub))
            if sub_info is None:
                return False
            if isinstance(sub, Call) and sub_info.overload is not None and sub_info.overload.is_binder:
                return False
        return True

    def chain(self, node: Call, number: int, var: str, items: str) -> str:
        """``chain(x, cond)``: a loop over consecutive pairs, ``prev`` below and ``it`` on it."""
        previous = f"_p{number}"
        self.previous_names[id(node)] = previous
        outer = list(self.vars)
        self.vars += [var, previous]
        try:
            body = self.emit(node.args[1])
        finally:
            del self.vars[-2:]
        params = ["P", "S", *self.read_params([body], outer), "_items"]
        name = f"_q{number}"
        # Cards are ints, so None marks "no card below yet" (the sandbox has no iter()).
        lines = [f"def {name}({', '.join(params)}):",
                 f"    {previous} = None",
                 f"    for {var} in _items:",
                 f"        if {previous} is not None and not {body}:",
                 "            return False",
                 f"        {previous} = {var}",
                 "    return True"]
        self.functions.append(with_pile("\n".join(lines), 1, always=True))
        return f"{name}({', '.join(params[:-1])}, {items})"


class Block:
    """Generated statements: lines, and nested blocks under a header line, with the locals they read and define.

    The functions the engine generates (the move lister, the settle pass) are written as blocks, not as
    lists of indented strings: a block indents its children when it is rendered, so a writer nests
    without counting spaces, and it answers what its lines read and define, so a writer asks it
    instead of searching text. A block without a header is a plain sequence (its lines at the
    indentation of where it is added).
    """

    __slots__ = ("header", "items", "reads", "defines")

    def __init__(self, header: str | None = None, reads: Iterable[str] = ()) -> None:
        self.header = header
        """The line that opens the block (``for ...:``, ``if ...:``), or None."""
        self.items: list[str | Block] = []
        self.reads: set[str] = set(reads)
        """The locals this block's own lines (its header included) read, as the writer declared them."""
        self.defines: set[str] = set()
        """The locals this block's own lines assign."""

    def line(self, text: str, reads: Iterable[str] = (), defines: Iterable[str] = ()) -> Block:
        """Append one line (it may hold a one-line suite: ``if x: continue``); returns the block."""
        self.items.append(text)
        self.reads.update(reads)
        self.defines.update(defines)
        return self

    def lines(self, texts: Iterable[str]) -> Block:
        """Append lines that read and define nothing the writer tracks."""
        self.items.extend(texts)
        return self

    def assign(self, local: str, value: str, reads: Iterable[str] = ()) -> Block:
        """Append ``local = value``."""
        return self.line(f"{local} = {value}", reads, (local,))

    def nest(self, header: str, reads: Iterable[str] = (), defines: Iterable[str] = ()) -> Block:
        """Append a block opened by ``header`` (``defines``: a loop's variables) and return it, to fill."""
        child = Block(header, reads)
        child.defines.update(defines)
        self.items.append(child)
        return child

    def add(self, block: Block) -> Block:
        """Append ``block``: nested when it has a header, else its items in place; returns this block."""
        if block.header is not None:
            self.items.append(block)
        else:
            self.items.extend(block.items)
            self.reads |= block.reads
            self.defines |= block.defines
        return self

    def walk(self) -> Iterator[Block]:
        """This block and every block in it, outermost first."""
        yield self
        for item in self.items:
            if isinstance(item, Block):
                yield from item.walk()

    def all_reads(self) -> frozenset[str]:
        """The locals this block and every block in it read."""
        return frozenset().union(*(block.reads for block in self.walk()))

    def all_defines(self) -> frozenset[str]:
        """The locals this block and every block in it assign."""
        return frozenset().union(*(block.defines for block in self.walk()))

    def render(self, indent: str = "") -> list[str]:
        """The lines, indented: the header at ``indent``, its items four spaces in."""
        lines = [] if self.header is None else [indent + self.header]
        inner = indent if self.header is None else indent + "    "
        for item in self.items:
            if isinstance(item, Block):
                lines += item.render(inner)
            else:
                lines.append(inner + item)
        return lines

    def key(self) -> tuple[str, ...]:
        """The rendered lines: equal for blocks that generate the same code."""
        return tuple(self.render())


PILE = "\x00pile\x00"
"""Placeholder for the pile of the site's ``depot``: a local when used more than once."""


def with_pile(source: str, body_line: int, always: bool = False) -> str:
    """Resolve the pile placeholder: ``P[_depot]`` inline when used once, else a local ``_pd``."""
    uses = source.count(PILE)
    if uses == 0:
        return source
    if uses == 1 and not always:
        return source.replace(PILE, "P[_depot]")
    lines = source.split("\n")
    indent = lines[body_line][: len(lines[body_line]) - len(lines[body_line].lstrip())]
    lines.insert(body_line, indent + "_pd = P[_depot]")
    return "\n".join(lines).replace(PILE, "_pd")


def build(
    functions: Sequence[str], name: str, closure: Sequence[tuple[str, Any]], filename: str,
    attributes: frozenset[str] = SAFE_ATTRIBUTES,
) -> tuple[Rule, str]:
    """Build, audit and run generated code: ``functions`` (source text, the last one named ``name``)
    inside ``def _make(<closure names>)``, called with the closure values; returns ``name`` and the source.

    The source is written by this package from checked trees and its own tokens; no design text
    is in it, and :func:`.sandbox.audit` (allowing ``attributes``) proves that before anything runs.

    :raises UnsafeCode: when the source holds anything else (a bug: it never runs).
    """
    parts = [f"def _make({', '.join(n for n, _ in closure)}):"]
    for function in functions:
        parts += ["    " + line for line in function.split("\n")]
    parts += [f"    return {name}", ""]
    source = "\n".join(parts)
    code = _audited(source, filename, frozenset(attributes))
    namespace: dict[str, Any] = {"__builtins__": dict(SAFE_BUILTINS)}
    exec(code, namespace)  # noqa: S102
    return namespace["_make"](*(value for _, value in closure)), source


@functools.lru_cache(maxsize=512)
def _audited(source: str, filename: str, attributes: frozenset[str]) -> CodeType:
    """``source`` audited and compiled. The audit reads the text alone, so a text is audited and compiled once
    (the solver builds the same rules for every deal it searches); a text that fails raises every time."""
    audit(source, attributes)
    return compile(source, filename, "exec")
