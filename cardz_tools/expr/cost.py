"""How much work one evaluation of an expression can take, known before it runs.

The length and nesting bounds of the parser do not bound the time: quantifiers
nest, and ``all(cell, all(cell, all(cell, ...)))`` over a 1,000-depot group is
1,000 to the power of the nesting. :func:`evaluation_steps` is an upper bound on
the steps (nodes visited) of one evaluation: a quantifier costs its domain's size
times its body; a call that walks a run, a pile or a group (:data:`WALKING_CALLS`)
costs the size of what it walks; anything else costs one step. :func:`check` reports CZ410 when the bound passes
:data:`MAX_EVALUATION_STEPS`, so no design file can make one rule take minutes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from .ast import Call, Node, iter_child_nodes
from .builtins import Overload
from .types import Kind, Type

__all__ = ["MAX_EVALUATION_STEPS", "PILE_BOUND", "evaluation_steps"]

MAX_EVALUATION_STEPS = 1_000_000
"""The most steps one evaluation of one rule may take (about a tenth of a second in CPython)."""

PILE_BOUND = 8 * 52 + 16
"""The most cards a pile or a run can hold: every card of the largest deck (8 decks, 16 jokers)."""


class NodeFacts(Protocol):
    """What the checker learnt about a node, as far as the cost needs it (``checker.NodeInfo`` is one)."""

    @property
    def type(self) -> Type: ...
    @property
    def const(self) -> object: ...
    @property
    def overload(self) -> Overload | None: ...


WALKING_CALLS = frozenset({"descending", "ascending", "same_suit", "alternating", "count_group", "empty_group"})
"""Implementations that walk their argument (the others read a length or an end in one step)."""


def _domain(node: Node, info_of: Mapping[int, NodeFacts], depots: int) -> int:
    """How many items a value of a collection type can hold (1 for anything else)."""
    info = info_of.get(id(node))
    if info is None:
        return 1
    kind = info.type.kind
    if kind is Kind.GROUP:
        return len(info.const) if isinstance(info.const, tuple) else max(depots, 1)
    if kind in (Kind.CARDS, Kind.DEPOT):
        return PILE_BOUND
    return 1


def evaluation_steps(root: Node | None, info_of: Mapping[int, NodeFacts], depots: int) -> int:
    """An upper bound on the nodes one evaluation of the checked tree ``root`` visits (0 when it
    did not parse); ``info_of`` is the checker's facts by node id, ``depots`` the design's depot count.

    Iterative (post-order), so a deep tree costs no recursion.
    """
    if root is None:
        return 0
    steps: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        children = list(iter_child_nodes(node))
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in children)
            continue
        info = info_of.get(id(node))
        overload = info.overload if info is not None else None
        if isinstance(node, Call) and overload is not None and overload.is_binder and len(node.args) == 2:
            items, body = node.args
            total = 1 + steps[id(items)] + _domain(items, info_of, depots) * steps[id(body)]
        else:
            total = 1 + sum(steps[id(child)] for child in children)
            if isinstance(node, Call) and overload is not None and overload.impl in WALKING_CALLS:
                total += sum(_domain(arg, info_of, depots) for arg in node.args)
        steps[id(node)] = total
    return steps[id(root)]
