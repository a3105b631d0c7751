"""Checked expressions as inline Python text, for functions the engine generates.

The engine fuses many rules into one generated function (its drag lister) so that
testing a candidate costs no call. :class:`InlineCode` lends it the code generator
of :mod:`.codegen`: :meth:`InlineCode.expression` writes a checked expression as
one Python expression over local variable names the caller chooses, and
:meth:`InlineCode.function` builds the finished function with :func:`.codegen.build`,
as :func:`.compiler.compile_rule` does: nothing from the design text reaches the source
(names are resolved to ints and closure constants), and it runs in an empty
namespace whose ``__builtins__`` is :data:`.codegen.SAFE_BUILTINS`.

A rule inside the engine's loops is written in levels (:meth:`InlineCode.hoisting_both`): the
parts that read no site argument at all, quantifiers included (``count(Cell, empty(it))``), once
per call of the generated function; those that read only the source side once per source; those
that read only the target once per target; the rest per candidate.

Every expression of one :class:`InlineCode` shares its closure constants (``_k0``,
``_k1`` ...) and its quantifier functions (``_q1``, ``_q2`` ...), so their names never
clash. The text may read ``P`` (the piles) and ``S`` (the state): the generated
function must have both in scope.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .ast import Binary, Call, Name, Node, iter_child_nodes
from .checker import NOT_CONST, Checked
from .codegen import PILE, SITE_PARAMS, Emitter, ExprCompileError, build
from .compiler import split_static
from .env import DesignEnv
from .sandbox import SAFE_ATTRIBUTES

__all__ = ["Hoisted", "InlineCode"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PARAM = re.compile(r"\b(" + "|".join(sorted(SITE_PARAMS.values(), key=len, reverse=True)) + r")\b")


class Hoisted(NamedTuple):
    """An inline test and what to work out before it (see :meth:`InlineCode.hoisting_both`)."""

    text: str
    outer: list[tuple[str, str]]
    """``(local, text)`` to assign once before the loop in which the outer arguments stay the same."""
    target: list[tuple[str, str]]
    """``(local, text)`` that read only the target (``depot``, its pile as the pile local), to
    assign once per target."""
    reads: Mapping[str, int] = {}
    """How many times :attr:`text` reads each of the caller's locals (the site arguments' and
    the pile's), counted as the emitter's names were bound to them: what the caller must assign."""
    names: tuple[tuple[str, ...], ...] = ()
    """:attr:`text`, then each :attr:`target` assignment's text, as the emitter wrote it: literal
    text at even places and at odd places a name it wrote (a caller's local, a per-target local),
    which :meth:`at` binds without searching the text."""

    outer_reads: frozenset[str] = frozenset()
    """The caller's locals the :attr:`outer` assignments read."""
    per_call: list[tuple[str, str]] = []
    """``(local, text)`` that read no site argument (only the piles, the state and constants: a
    count of the empty cells), to assign once per call of the generated function, before
    everything else; the same subtree in several rules is one local (see :meth:`InlineCode.hoisting_both`)."""

    def at(self, bindings: Mapping[str, str]) -> Hoisted:
        """The test and its per-target assignments with the names in ``bindings`` written as their
        values (for one target: ``_depot`` its number, each per-target local a name of its own)."""
        if not self.names:
            return self

        def bound(parts: tuple[str, ...]) -> str:
            return "".join(bindings.get(part, part) if odd else part for odd, part in _alternating(parts))

        text, *assignments = self.names
        pairs = zip(self.target, assignments, strict=True)
        target = [(bindings.get(local, local), bound(parts)) for (local, _), parts in pairs]
        return Hoisted(bound(text), self.outer, target, self.reads, (), self.outer_reads, self.per_call)


class InlineCode:
    """Collects inline expressions and engine values for one generated function."""

    def __init__(self, env: DesignEnv) -> None:
        self.env = env
        self._constants: dict[object, tuple[str, Any]] = {}
        self._binders: dict[int, str] = {}
        self._numbers = itertools.count(1)
        self._functions: list[str] = []
        self._trees: list[Checked] = []
        self._hoisted: list[str] = []
        """Keeps every checked tree alive: the shared binder table is keyed by node ids."""
        self._per_call: dict[Node, str] = {}
        """The local of each subtree worked out once per call (:attr:`Hoisted.per_call`), by the subtree:
        equal subtrees that read no site argument and bind their own variables have equal values."""

    def constant(self, value: Any) -> str:
        """The closure name under which the generated code reads ``value`` (a table, a callable)."""
        key = ("inline-value", len(self._constants))
        self._constants[key] = (f"_k{len(self._constants)}", value)
        return self._constants[key][0]

    def expression(self, checked: Checked, names: Mapping[str, str], pile: str, residual: bool = False) -> str:
        """``checked`` as one Python expression.

        ``names`` maps each site argument the rule may read (``card``, ``cards``, ``source``,
        ``depot``) to the local that holds it; ``pile`` is the local holding ``P[depot]``.
        With ``residual`` only the conjuncts outside the static filter are written
        (``"True"`` when there are none): valid only where the static part holds.

        :raises ExprCompileError: when ``checked`` has errors.
        """
        return self.hoisting(checked, names, pile, frozenset(), residual)[0]

    def hoisting(
        self, checked: Checked, names: Mapping[str, str], pile: str, outer: frozenset[str], residual: bool = False
    ) -> tuple[str, list[tuple[str, str]]]:
        """Like :meth:`expression`, for a test inside a loop where the site arguments in
        ``outer`` stay the same (``card`` while trying the targets of one source).

        Returns the text and the assignments ``(local, text)`` to run before that loop:
        the largest parts that read only ``outer`` arguments, the piles and constants,
        and that are safe to evaluate whether or not the rule reaches them (no guarded
        ``top``, no quantifier).
        """
        hoisted = self.hoisting_both(checked, names, pile, outer, frozenset(), residual)
        return hoisted.text, hoisted.outer

    def hoisting_both(
        self,
        checked: Checked,
        names: Mapping[str, str],
        pile: str,
        outer: frozenset[str],
        inner: frozenset[str],
        residual: bool = False,
        pile_once: str | None = None,
        per_call: bool = False,
    ) -> Hoisted:
        """:meth:`hoisting`, and besides the largest remaining parts that read only the
        ``inner`` site arguments (``depot`` and its ``top``), the piles and constants: values
        that stay the same for one target whatever the source, to work out once per target.

        Those are written without the guards that let a rule read ``top`` as ``pile[-1]``
        (``top`` of an empty pile is :data:`~cardz_tools.cards.NO_CARD`, as everywhere),
        so they are safe to evaluate before the rule would reach them; no quantifier.

        With ``pile_once`` (``P[_depot]``), a text that reads the pile only once reads it as that
        instead of the local ``pile`` (as :func:`.codegen.with_pile` decides for a compiled rule).

        With ``per_call``, first the largest parts that read no site argument at all, quantifiers
        included (``count(Cell, empty(it))``: the piles, the state and constants only), become
        :attr:`Hoisted.per_call` locals, to work out once per call of the generated function (the
        piles do not change while it runs). They are written unguarded too, so they are safe to
        evaluate before the rule would reach them. The per-source parts may read them; the per-target
        parts do not: those are worked out for every target whether or not a candidate reaches them,
        and FreeCell's supermove bound per target cost Baker's Game more than its lazy test (few of
        its candidates pass the suit test before it).

        A text hoisted twice at one level (``card.suit`` in two conjuncts) is one local.
        """
        if not checked.ok or checked.node is None:
            raise ExprCompileError(f"cannot compile {checked.text!r}: it has errors")
        for local in (*names.values(), pile):
            if not _IDENTIFIER.match(local):
                raise ValueError(f"{local!r} is not a local variable name")
        self._trees.append(checked)
        nodes = split_static(checked)[1] if residual else [checked.node]
        if not nodes:
            return Hoisted("True", [], [])
        emitter = _HoistingEmitter(checked, self.env, self._constants)
        emitter.binder_names = self._binders
        emitter.numbers = self._numbers
        emitter.functions = self._functions
        per_call_assignments: list[tuple[str, str]] = []
        if per_call:
            whole: list[tuple[str, Node]] = []
            for node in nodes:
                self._find_invariants(checked, node, frozenset(), whole, "_c", closed=True)
            unguarded = _HoistingEmitter(_unguarded(checked), self.env, self._constants)
            unguarded.binder_names, unguarded.numbers, unguarded.functions = emitter.binder_names, self._numbers, \
                self._functions
            for local, node in whole:
                known = self._per_call.get(node)
                if known is None:
                    text = unguarded.emit(node)
                    if _PARAM.search(text) or PILE in text:
                        raise AssertionError(f"a part worked out once per call reads a site argument: {text}")
                    per_call_assignments.append((local, text))
                    self._per_call[node] = known = local
                    self._hoisted.append(local)
                emitter.replaced[id(node)] = known
        fixed = dict(emitter.replaced)  # the per-call locals: in scope everywhere, leaves for the other levels
        hoisted: list[tuple[str, Node]] = []
        if outer:
            for node in nodes:
                self._find_invariants(checked, node, outer, hoisted, "_h", fixed)
        assignments: list[tuple[str, str]] = []
        for local, node in hoisted:
            emitter.replaced[id(node)] = _assign_once(assignments, local, emitter.emit(node))
            self._hoisted.append(local)
        per_target: list[tuple[str, Node]] = []
        if inner:
            for node in nodes:
                self._find_invariants(
                    checked, node, inner, per_target, "_g", None, taken=emitter.replaced, unguarded=True
                )
        target_assignments: list[tuple[str, str]] = []
        if per_target:
            unguarded = _HoistingEmitter(_unguarded(checked), self.env, self._constants)
            unguarded.replaced = emitter.replaced
            shared = [_assign_once(target_assignments, local, unguarded.emit(node)) for local, node in per_target]
            self._hoisted += [local for local, _ in per_target]
            for (_, node), local in zip(per_target, shared, strict=True):
                emitter.replaced[id(node)] = local
        if len(nodes) > 1 and all(_total(checked, node, emitter.replaced) for node in nodes):
            # Any order gives the same value: equality tests, the likeliest to fail, go first.
            nodes = sorted(nodes, key=lambda node: not (isinstance(node, Binary) and node.op == "=="))
        texts = [emitter.emit(node) for node in nodes]
        text = texts[0] if len(texts) == 1 else "(" + " and ".join(texts) + ")"
        locals_by_param = {SITE_PARAMS[arg]: local for arg, local in names.items() if arg in SITE_PARAMS}

        target_locals = {local for local, _ in target_assignments}
        # The names the emitter wrote: the site arguments' (bound to the caller's locals here) and
        # the per-target locals' (bound per target by Hoisted.at).
        tokens = sorted({*SITE_PARAMS.values(), *target_locals}, key=len, reverse=True)
        written = _PARAM if not target_locals else re.compile(r"\b(" + "|".join(tokens) + r")\b")
        reads: Counter[str] = Counter()

        def named(code: str, pile_text: str = pile) -> tuple[str, ...]:
            parts: list[str] = []
            last = 0
            for match in written.finditer(code):
                token = match.group(1)
                local = token if token in target_locals else locals_by_param.get(token)
                if local is None:
                    raise ValueError(f"the rule reads {token[1:]!r}, which has no local name")
                parts += [*_with_pile(code[last : match.start()], pile_text), local]
                last = match.end()
            return (*parts, *_with_pile(code[last:], pile_text))

        pile_reads = text.count(PILE)  # the emitter's own placeholder, never in the design's text
        once = pile_once is not None and pile_reads == 1
        test = named(text, pile_once if once and pile_once is not None else pile)
        for odd, part in _alternating(test):
            if odd and part not in target_locals:
                reads[part] += 1
        targets = [named(code) for _, code in target_assignments]
        outer_parts = [(local, named(code)) for local, code in assignments]
        return Hoisted(
            "".join(test),
            [(local, "".join(parts)) for local, parts in outer_parts],
            [(local, "".join(parts)) for (local, _), parts in zip(target_assignments, targets, strict=True)],
            dict(reads),
            (test, *targets),
            frozenset(part for _, parts in outer_parts for odd, part in _alternating(parts) if odd),
            per_call_assignments,
        )

    def _find_invariants(
        self,
        checked: Checked,
        node: Node,
        outer: frozenset[str],
        found: list[tuple[str, Node]],
        prefix: str,
        fixed: Mapping[int, str] | None = None,
        taken: Mapping[int, str] | None = None,
        unguarded: bool = False,
        closed: bool = False,
    ) -> None:
        """Collect the largest subtrees of ``node`` worth hoisting (see :meth:`hoisting`), not
        inside those ``taken`` already. The ``fixed`` subtrees (the per-call locals) are leaves any
        level may read; with ``closed`` (the per-call level) a quantifier may be hoisted whole when
        it reads no site argument and no variable bound outside it."""
        fixed = fixed or {}
        if id(node) in fixed or (taken is not None and id(node) in taken):
            return
        info = checked.info[id(node)]
        if (
            info.const is NOT_CONST
            and not isinstance(node, Name)
            and _invariant(checked, node, outer, unguarded or closed, fixed, closed)
            # no local of another loop
            and (taken is None or not any(id(sub) in taken for sub in _walk_outside(node, fixed)))
        ):
            found.append((f"{prefix}{len(self._hoisted) + len(found) + 1}", node))
            return
        if isinstance(node, Call) and info.overload is not None and info.overload.is_binder:
            return  # its body becomes a function of its own, where the hoisted locals are not seen
        for child in iter_child_nodes(node):
            self._find_invariants(checked, child, outer, found, prefix, fixed, taken, unguarded, closed)

    def function(
        self, name: str, params: Sequence[str], body: Sequence[str], attributes: Iterable[str] = ()
    ) -> tuple[Callable[..., Any], str]:
        """Compile ``def name(params):`` with ``body`` (lines written by the caller from its own
        tokens and the texts of :meth:`expression`); returns the function and its source.

        The source passes :func:`.sandbox.audit` first, allowed besides the compiler's own
        the ``attributes`` the caller's lines read (``S.declared``, ``_moves.append``).

        :raises UnsafeCode: when the source holds anything else (a bug, never run).
        """
        for identifier in (name, *params):
            if not _IDENTIFIER.match(identifier):
                raise ValueError(f"{identifier!r} is not a Python name")
        definition = "\n".join([f"def {name}({', '.join(params)}):", *("    " + line for line in body)])
        closure = list(self._constants.values())
        allowed = SAFE_ATTRIBUTES | frozenset(attributes)
        return build([*self._functions, definition], name, closure, "<cardz engine>", allowed)


def _with_pile(literal: str, pile: str) -> list[str]:
    """Literal text as parts (literal, name, literal ...): the pile placeholder is the name ``pile``.

    With ``pile`` not a name (``P[_depot]``, a pile read once in place) it stays literal text."""
    pieces = literal.split(PILE)
    if len(pieces) == 1 or not _IDENTIFIER.match(pile):
        return [pile.join(pieces)]
    parts = [pieces[0]]
    for piece in pieces[1:]:
        parts += [pile, piece]
    return parts


def _alternating(parts: Sequence[str]) -> Iterable[tuple[bool, str]]:
    """(is a name, part) for parts that alternate literal text and names, literal first."""
    return ((index % 2 == 1, part) for index, part in enumerate(parts))


class _HoistingEmitter(Emitter):
    """The compiler's emitter, writing a local's name for each hoisted subtree."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.replaced: dict[int, str] = {}

    def emit(self, node: Node) -> str:
        local = self.replaced.get(id(node))
        return local if local is not None else super().emit(node)


def _total(checked: Checked, node: Node, replaced: Mapping[int, str]) -> bool:
    """Whether ``node`` can be evaluated anywhere: no guarded ``top`` outside the ``replaced`` subtrees."""
    if id(node) in replaced:
        return True
    if id(node) in checked.guarded:
        return False
    return all(_total(checked, child, replaced) for child in iter_child_nodes(node))


def _assign_once(assignments: list[tuple[str, str]], local: str, text: str) -> str:
    """Append ``local = text`` unless a local of the same text is there already; returns the local that holds it
    (the same text at one level reads the same locals and piles, so it has the same value: ``card.suit`` twice)."""
    for known, known_text in assignments:
        if known_text == text:
            return known
    assignments.append((local, text))
    return local


def _unguarded(checked: Checked) -> Checked:
    """``checked`` with no ``top`` guarded: written so, a part is safe to evaluate before the guards
    that protect it in the rule (``top`` of an empty pile is :data:`~cardz_tools.cards.NO_CARD`)."""
    return dataclasses.replace(checked, guarded=frozenset())


def _walk_outside(node: Node, fixed: Mapping[int, str]) -> Iterable[Node]:
    """``node`` and its descendants, not descending into the ``fixed`` subtrees (nor yielding them)."""
    if id(node) in fixed:
        return
    yield node
    for child in iter_child_nodes(node):
        yield from _walk_outside(child, fixed)


def _invariant(
    checked: Checked,
    node: Node,
    outer: frozenset[str],
    unguarded: bool = False,
    fixed: Mapping[int, str] | None = None,
    closed: bool = False,
) -> bool:
    """Whether ``node`` reads only ``outer`` site arguments and is safe to evaluate early
    (with ``unguarded``, a guarded ``top`` counts as safe: it is to be written without its guard).
    The ``fixed`` subtrees (locals worked out before) count as safe leaves. Without ``closed`` no
    quantifier may be in it; with ``closed``, quantifiers may, if every variable read in ``node`` is
    bound by a quantifier inside it (its value then depends on nothing but the piles and the state)."""
    binders: set[int] = set()
    for sub in _walk_outside(node, fixed or {}):
        if id(sub) in checked.guarded and not unguarded:
            return False
        info = checked.info.get(id(sub))
        if info is None:
            return False
        if isinstance(sub, Call) and info.overload is not None and info.overload.is_binder:
            if not closed:
                return False
            binders.add(id(sub))
        if isinstance(sub, Name) and info.const is NOT_CONST:
            if info.binding == "var" and not (closed and checked.binders.get(id(sub)) in binders):
                return False
            if info.binding == "site" and sub.name not in outer:
                return False
    return True
