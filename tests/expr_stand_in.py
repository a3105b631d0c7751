"""TEMPORARY test-only stand-in for the expression compiler (cardz_tools.expr).

Maps the exact rule texts of the two seed designs to hand-written callables with
the compiled calling convention ``fn(P, S, *site_args)``. Delete this file once
``cardz_tools/expr`` is on main and ``engine/rules.py`` uses the real compiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardz_tools.cards import RANK_OF
from cardz_tools.engine.rules import Compiled, RuleError, Site
from cardz_tools.model import Design, Expr


def _monte_carlo(design: Design) -> dict[str, Compiled]:
    cells = design.resolve("cell") or ()
    stock = (design.resolve("stock") or (0,))[0]
    discard = (design.resolve("discard") or (0,))[0]
    where = [(d.col, d.row) for d in design.depots]
    touching = frozenset(
        (a, b)
        for a, (ac, ar) in enumerate(where)
        for b, (bc, br) in enumerate(where)
        if a != b and abs(ac - bc) <= 1 and abs(ar - br) <= 1
    )

    def adjacent(a: int, b: int) -> bool:
        return (a, b) in touching

    def pair(P: Any, S: Any, card: int, cards: Any, source: int, depot: int) -> bool:
        pile = P[depot]
        return (source, depot) in touching and bool(pile) and RANK_OF[card] == RANK_OF[pile[-1]]

    def same_rank_on_a_card(P: Any, S: Any, card: int, cards: Any, source: int, depot: int) -> bool:
        pile = P[depot]
        return bool(pile) and RANK_OF[card] == RANK_OF[pile[-1]]

    pair.static = adjacent  # type: ignore[attr-defined]
    pair.residual = same_rank_on_a_card  # type: ignore[attr-defined]
    pair.local = True  # type: ignore[attr-defined]

    def two(P: Any, S: Any, depot: int) -> bool:
        return len(P[depot]) == 2

    two.local = True  # type: ignore[attr-defined]

    def consolidate(P: Any, S: Any, depot: int) -> bool:
        return any(
            not P[it] and (bool(P[stock]) or any(c > it and P[c] for c in cells)) for it in cells
        )

    return {
        "adjacent(source, depot) && !empty(depot) && card.rank == top.rank": pair,
        "count(depot) == 2": two,
        "any(cell, empty(it) && (!empty(stock) || any(c in cell, index(c) > index(it) && !empty(c))))": consolidate,
        "count(discard)": lambda P, S: len(P[discard]),
    }


def _weathervane(design: Design) -> dict[str, Compiled]:
    tableau = design.resolve("Tableau") or ()
    stock = (design.resolve("stock") or (0,))[0]

    def score(P: Any, S: Any) -> int:
        left = sum(len(P[t]) for t in tableau)
        return left - (len(P[stock]) if left == 0 else 0)

    return {"sum(Tableau, count(it)) - count(stock, empty(Tableau))": score}


def stand_in_compiler(expr: Expr, site: Site, design: Design) -> Compiled:
    """Compile one of the seed designs' rule texts by table lookup."""
    table: dict[str, Compiled] = {}
    for make in (_monte_carlo, _weathervane):
        table.update(make(design))
    try:
        return table[expr.text]
    except KeyError:
        raise RuleError(f"the test stand-in does not know the rule {expr.text!r}", expr.pointer) from None


StandIn = Callable[[Expr, Site, Design], Compiled]
