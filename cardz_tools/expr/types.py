"""The types of rule expressions.

A :class:`Type` is a :class:`Kind` plus ``maybe``: whether the value may be
absent (``Card?`` for the top of a pile that may be empty, ``Depot?`` for a grid
neighbour that may not exist). At run time an absent card is
:data:`cardz_tools.cards.NO_CARD`, an absent depot is ``-1`` and an absent suit
is ``7``: each matches nothing, so a missing guard is a warning, not a crash.
"""

from __future__ import annotations

import dataclasses
import enum

__all__ = [
    "Kind", "Type", "BOOL", "INT", "RANK", "SUIT", "COLOR", "CARD", "CARD_OPT", "CARDS",
    "DEPOT", "DEPOT_OPT", "GROUP", "SUIT_OPT", "ERROR", "ABSENT_DEPOT", "ABSENT_SUIT",
]

ABSENT_DEPOT = -1
"""The run-time value of an absent ``Depot?``."""
ABSENT_SUIT = 7
"""The run-time value of an absent ``Suit?`` (the suit number of NO_CARD)."""


class Kind(enum.Enum):
    """What sort of value an expression has; the value is its name in messages and docs."""

    BOOL = "Bool"
    INT = "Int"
    RANK = "Rank"
    SUIT = "Suit"
    COLOR = "Color"
    CARD = "Card"
    CARDS = "Cards"
    DEPOT = "Depot"
    GROUP = "Group"
    ERROR = "<error>"


_DESCRIPTIONS: dict[Kind, str] = {
    Kind.BOOL: "`true` or `false`.",
    Kind.INT: "A whole number.",
    Kind.RANK: "A card rank, `Ace` (1) .. `King` (13), or `Joker` (0). Rank ± Int is a Rank; outside Ace..King "
    "it matches nothing (`Ace - 1` is no rank, not the joker's). Rank − Rank is an Int. Compare ranks with ranks.",
    Kind.SUIT: "`Spades`, `Hearts`, `Diamonds` or `Clubs`.",
    Kind.COLOR: "`Red` or `Black`.",
    Kind.CARD: "One card; `Card?` may be absent (the top of an empty pile), and matches nothing then.",
    Kind.CARDS: "A run of cards, bottom first (the dragged `cards`).",
    Kind.DEPOT: "One pile; `Depot?` may be absent (a grid neighbour off the edge).",
    Kind.GROUP: "Several piles: a `repeat` entry's name or a depot type such as `Tableau`.",
    Kind.ERROR: "",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Type:
    """A kind, possibly maybe-absent (written with a trailing ``?``)."""

    kind: Kind
    maybe: bool = False

    def __str__(self) -> str:
        return self.kind.value + ("?" if self.maybe else "")

    @property
    def present(self) -> Type:
        """The same type without the ``?``."""
        return Type(self.kind) if self.maybe else self

    @property
    def is_error(self) -> bool:
        """Whether this is the type of an expression that already has an error (it matches anything)."""
        return self.kind is Kind.ERROR

    @property
    def description(self) -> str:
        """One line for the docs."""
        return _DESCRIPTIONS[self.kind]


BOOL = Type(Kind.BOOL)
INT = Type(Kind.INT)
RANK = Type(Kind.RANK)
SUIT = Type(Kind.SUIT)
SUIT_OPT = Type(Kind.SUIT, True)
COLOR = Type(Kind.COLOR)
CARD = Type(Kind.CARD)
CARD_OPT = Type(Kind.CARD, True)
CARDS = Type(Kind.CARDS)
DEPOT = Type(Kind.DEPOT)
DEPOT_OPT = Type(Kind.DEPOT, True)
GROUP = Type(Kind.GROUP)
ERROR = Type(Kind.ERROR)
