"""The one table of everything an expression can name: constants, fields and functions.

The checker resolves names against these tables, the compiler dispatches on
:attr:`Overload.impl`, and :mod:`.docs` prints the language reference from them,
so the documentation cannot drift from what the checker accepts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..cards import COLOR_NAMES, RANK_NAMES_WITH_JOKER, SUIT_NAMES
from .sites import Site
from .types import BOOL, CARD_OPT, CARDS, COLOR, DEPOT, DEPOT_OPT, INT, RANK, SUIT, SUIT_OPT, Kind, Type

__all__ = [
    "Constant", "FieldSpec", "Param", "Overload", "Function",
    "CONSTANTS", "FIELDS", "FUNCTIONS", "BINDER_VARIABLE", "PREVIOUS_VARIABLE", "MAX_POW_EXPONENT", "POW_LIMIT",
    "bounded_pow", "field_names",
]

BINDER_VARIABLE = "it"
"""The implicit name of the member in ``any(cell, empty(it))``."""
PREVIOUS_VARIABLE = "prev"
"""In ``chain(x, cond)``: the lower card of each consecutive pair (``it`` is the one on it)."""
MAX_POW_EXPONENT = 30
"""``pow(a, b)`` takes ``b`` in 0 .. this; at run time ``b`` is clamped to that range."""
POW_LIMIT = 2 ** 62
"""``pow`` results are cut to ``-POW_LIMIT .. POW_LIMIT``, so nested powers cannot grow without bound."""


def bounded_pow(a: int, b: int) -> int:
    """``a ** b`` with ``b`` clamped to 0 .. :data:`MAX_POW_EXPONENT` and the result to ±:data:`POW_LIMIT`."""
    b = min(max(b, 0), MAX_POW_EXPONENT)
    if abs(a) > 1 and b * (abs(a).bit_length() - 1) > POW_LIMIT.bit_length():
        return POW_LIMIT if a > 0 or b % 2 == 0 else -POW_LIMIT
    return max(-POW_LIMIT, min(POW_LIMIT, a ** b))


@dataclasses.dataclass(frozen=True, slots=True)
class Constant:
    """A name with a fixed value: a rank, suit or colour."""

    name: str
    type: Type
    value: int
    description: str


@dataclasses.dataclass(frozen=True, slots=True)
class FieldSpec:
    """``receiver.name`` and what it gives."""

    receiver: Kind
    name: str
    result: Type
    description: str


@dataclasses.dataclass(frozen=True, slots=True)
class Param:
    """One parameter: its name and the kinds it takes.

    A ``binder`` parameter is evaluated once per member of the first argument, with
    ``it`` (or the name given as ``c in x``) bound to that member.
    """

    name: str
    kinds: tuple[Kind, ...]
    binder: bool = False
    maybe_ok: bool = False

    def text(self) -> str:
        """``x: Depot | Cards``."""
        return f"{self.name}: {' | '.join(k.value for k in self.kinds)}"


@dataclasses.dataclass(frozen=True, slots=True)
class Overload:
    """One way to call a function, chosen by the number of arguments and the first argument's kind."""

    params: tuple[Param, ...]
    result: Type
    impl: str
    description: str
    item: Type | None = None
    static: bool = False
    """True when the result depends only on the arguments and the board (not on cards)."""
    pairs: bool = False
    """A binder that also binds ``prev``, the member before ``it`` (``chain``)."""
    sites: tuple[Site, ...] = ()
    """The only sites where the call is allowed; empty for everywhere."""

    @property
    def is_binder(self) -> bool:
        return any(p.binder for p in self.params)

    def signature(self, name: str) -> str:
        """``count(x: Depot, cond: Bool) -> Int``, with the binder variable's type when there is one."""
        text = f"{name}({', '.join(p.text() for p in self.params)}) -> {self.result}"
        if self.item is not None:
            text += f"  (`it`: {self.item}" + (f", `{PREVIOUS_VARIABLE}`: {self.item})" if self.pairs else ")")
        return text


@dataclasses.dataclass(frozen=True, slots=True)
class Function:
    """A function with its overloads."""

    name: str
    overloads: tuple[Overload, ...]

    def arities(self) -> tuple[int, ...]:
        return tuple(sorted({len(o.params) for o in self.overloads}))

    def signatures(self) -> str:
        """Every overload, one per line (for arity errors and docs)."""
        return "\n".join(o.signature(self.name) for o in self.overloads)


def _constants() -> dict[str, Constant]:
    table: dict[str, Constant] = {}
    for name, rank in RANK_NAMES_WITH_JOKER.items():
        table[name] = Constant(name, RANK, int(rank), f"The rank {name} ({int(rank)}).")
    for name, suit in SUIT_NAMES.items():
        table[name] = Constant(name, SUIT, int(suit), f"The suit {name} ({suit.color.title}).")
    for name, color in COLOR_NAMES.items():
        table[name] = Constant(name, COLOR, int(color), f"The colour {name}.")
    return table


CONSTANTS: Mapping[str, Constant] = _constants()
"""Rank, suit and colour names."""

FIELDS: Mapping[tuple[Kind, str], FieldSpec] = {
    (f.receiver, f.name): f
    for f in (
        FieldSpec(Kind.CARD, "rank", RANK, "The card's rank."),
        FieldSpec(Kind.CARD, "suit", SUIT, "The card's suit."),
        FieldSpec(Kind.CARD, "color", COLOR, "The card's colour."),
        FieldSpec(Kind.CARD, "value", INT, "The rank as a number: Ace 1 .. King 13."),
        FieldSpec(Kind.CARD, "faceUp", BOOL, "Whether the card lies face up."),
        FieldSpec(Kind.SUIT, "color", COLOR, "The suit's colour."),
    )
}
"""Fields by (receiver kind, name)."""


def field_names(kind: Kind) -> tuple[str, ...]:
    """The fields a value of ``kind`` has."""
    return tuple(name for (receiver, name) in FIELDS if receiver is kind)


D, G, C, I_ = Kind.DEPOT, Kind.GROUP, Kind.CARDS, Kind.INT
_X_DEPOT = Param("x", (D,))
_X_GROUP = Param("x", (G,))
_X_CARDS = Param("x", (C,))
_COND = Param("cond", (Kind.BOOL,), binder=True)
_VALUE = Param("value", (I_,), binder=True)
_D = Param("d", (D,))


def _binders(name: str, result: Type, body: Param, what: str, group_what: str) -> tuple[Overload, ...]:
    return (
        Overload((_X_DEPOT, body), result, f"{name}_depot", what.format(x="the cards of pile `x`, bottom first"),
                 item=Type(Kind.CARD)),
        Overload((_X_CARDS, body), result, f"{name}_cards", what.format(x="the cards of `x`, bottom first"),
                 item=Type(Kind.CARD)),
        Overload((_X_GROUP, body), result, f"{name}_group", group_what, item=DEPOT),
    )


def _functions() -> dict[str, Function]:
    rows: dict[str, tuple[Overload, ...]] = {
        "count": (
            Overload((_X_DEPOT,), INT, "count_depot", "Number of cards in pile `x`."),
            Overload((_X_CARDS,), INT, "count_cards", "Number of cards in `x`."),
            Overload((_X_GROUP,), INT, "count_group", "Number of cards in all the piles of group `x`."),
            *_binders("count", INT, _COND, "Number of {x} for which `cond` holds (with a condition that does not "
                      "use `it`, that is all of them or none).",
                      "Number of piles of group `x` for which `cond` holds (`it` is the pile)."),
        ),
        "empty": (
            Overload((_X_DEPOT,), BOOL, "empty_depot", "Whether pile `x` has no card."),
            Overload((_X_CARDS,), BOOL, "empty_cards", "Whether `x` has no card."),
            Overload((_X_GROUP,), BOOL, "empty_group", "Whether every pile of group `x` is empty."),
        ),
        "any": _binders("any", BOOL, _COND, "Whether `cond` holds for at least one of {x}.",
                        "Whether `cond` holds for at least one pile of group `x` (`it` is the pile)."),
        "all": _binders("all", BOOL, _COND, "Whether `cond` holds for every one of {x} (true when there are none).",
                        "Whether `cond` holds for every pile of group `x` (`it` is the pile)."),
        "sum": _binders("sum", INT, _VALUE, "Sum of `value` over {x}.",
                        "Sum of `value` over the piles of group `x` (`it` is the pile)."),
        "min": (
            *_binders("min", INT, _VALUE, "Smallest `value` over {x} (0 when there are none).",
                      "Smallest `value` over the piles of group `x` (0 for no piles)."),
            Overload(
                (Param("a", (I_,)), Param("b", (I_,))), INT, "min_int", "The smaller of `a` and `b`.", static=True
            ),
        ),
        "max": (
            *_binders("max", INT, _VALUE, "Largest `value` over {x} (0 when there are none).",
                      "Largest `value` over the piles of group `x` (0 for no piles)."),
            Overload((Param("a", (I_,)), Param("b", (I_,))), INT, "max_int", "The larger of `a` and `b`.", static=True),
        ),
        "abs": (Overload((Param("n", (I_,)),), INT, "abs", "The absolute value of `n`.", static=True),),
        "adjacent": (
            Overload((Param("a", (D,)), Param("b", (D,))), BOOL, "adjacent",
                     "Whether two different piles touch on the board, sideways or diagonally: their board "
                     "columns and rows each differ by at most 1.", static=True),
        ),
        "index": (Overload((_D,), INT, "index", "Position of `d` in its group, from 0 (0 for a single depot).",
                           static=True),),
        "col": (Overload((_D,), INT, "col", "Column of `d` inside its group's grid, from 0.", static=True),),
        "row": (Overload((_D,), INT, "row", "Row of `d` inside its group's grid, from 0.", static=True),),
        "left": (Overload((_D,), DEPOT_OPT, "left", "The member of `d`'s group just left of it in the grid, if any.",
                          static=True),),
        "right": (Overload((_D,), DEPOT_OPT, "right", "The member of `d`'s group just right of it, if any.",
                           static=True),),
        "above": (Overload((_D,), DEPOT_OPT, "above", "The member of `d`'s group just above it (one grid row up), "
                           "if any.", static=True),),
        "below": (Overload((_D,), DEPOT_OPT, "below", "The member of `d`'s group just below it, if any.",
                           static=True),),
        "size": (Overload((Param("g", (G,)),), INT, "size", "Number of piles in group `g`.", static=True),),
        "top": (
            Overload((_D,), CARD_OPT, "top_depot", "The top card of pile `d`; absent when the pile is empty."),
            Overload((_X_CARDS,), CARD_OPT, "top_cards", "The last (top) card of `x`; absent when `x` is empty."),
        ),
        "bottom": (
            Overload((_D,), CARD_OPT, "bottom_depot", "The bottom card of pile `d`; absent when the pile is empty."),
            Overload((_X_CARDS,), CARD_OPT, "bottom_cards", "The first (bottom) card of `x`; absent when empty."),
        ),
        "descending": (
            Overload((Param("x", (C, D)),), BOOL, "descending",
                     "Whether each card of `x` is one rank lower than the card below it (true for 0 or 1 card)."),
        ),
        "ascending": (
            Overload((Param("x", (C, D)),), BOOL, "ascending",
                     "Whether each card of `x` is one rank higher than the card below it (true for 0 or 1 card)."),
        ),
        "sameSuit": (
            Overload((Param("x", (C, D)),), BOOL, "same_suit", "Whether all the cards of `x` have one suit."),
        ),
        "alternating": (
            Overload((Param("x", (C, D)),), BOOL, "alternating",
                     "Whether the colours of `x` alternate red and black from each card to the next."),
        ),
        "chain": tuple(
            Overload((Param("x", (kind,)), _COND), BOOL, f"chain_{kind.name.lower()}",
                     f"Whether `cond` holds for each consecutive pair of {what}, with `prev` the lower card and "
                     "`it` the card on it (true for 0 or 1 card).", item=Type(Kind.CARD), pairs=True)
            for kind, what in ((D, "the cards of pile `x`"), (C, "the cards of `x`"))
        ),
        "topCards": (
            Overload((_D, Param("n", (I_,))), CARDS, "top_cards_of",
                     "The top `n` cards of pile `d`, bottom first (all of them when it has fewer; none when "
                     "`n` ≤ 0)."),
        ),
        "covered": (
            Overload((_D,), BOOL, "covered",
                     "Whether a depot later in the file that holds a card overlaps `d` on the board (each depot "
                     "taken as the rectangle [col, col + 1) × [row, row + 1)): Pyramid's \"a card lies on it\"."),
        ),
        "at": (
            Overload((Param("g", (G,)), Param("r", (I_,)), Param("c", (I_,))), DEPOT_OPT, "at",
                     "The member of group `g` in grid row `r`, column `c` (from 0, as `row(d)`/`col(d)`); absent "
                     "when there is none. For a depot type, the first such depot in file order.", static=True),
        ),
        "pow": (
            Overload((Param("a", (I_,)), Param("b", (I_,))), INT, "pow",
                     f"`a` to the power `b`, for `b` in 0..{MAX_POW_EXPONENT} (clamped to that range); results "
                     "beyond ±2^62 are cut to ±2^62.",
                     static=True),
        ),
        "kept": (
            Overload((Param("d", (D,), maybe_ok=True),), BOOL, "kept",
                     "Whether the redeal's `keep` held for `d` (false for an absent depot). Only in a `redeal` "
                     "effect's `count`.", sites=(Site.REDEAL,)),
        ),
        "declared": (
            Overload((_D,), SUIT_OPT, "declared",
                     "The suit named with the wild card on top of `d` (`wildDeclares: \"suit\"`); absent when none."),
        ),
        "exists": (
            Overload((Param("x", (Kind.CARD, D, Kind.SUIT), maybe_ok=True),), BOOL, "exists",
                     "Whether a maybe-absent value is there: `exists(left(d))`, `exists(top(d))`. Guards the "
                     "value in the rest of an `&&` or in a `?:` branch."),
        ),
    }
    return {name: Function(name, overloads) for name, overloads in rows.items()}


FUNCTIONS: Mapping[str, Function] = _functions()
"""Every function, by name."""
