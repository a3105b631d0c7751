"""The rules each family usually plays with, as expressions, and their variants a text may state.

These are the rules of the shipped designs in ``games/`` (Klondike, FreeCell, Golf, Black
Hole, Canfield, Spider, Pyramid, Accordion, Montana): a rules text that agrees with them,
or is silent, gets them; a text that states a variant (building in suit instead of
alternating colours, an empty column that takes any card, ranks that wrap, a Queen on a
King, single-card moves) gets the variant's expression. Nothing here accepts every card.
"""

from __future__ import annotations

STEP = {"down": "card.rank == top.rank - 1", "up": "card.rank == top.rank + 1"}
WRAP_STEP = {"down": "card.value % 13 == (top.value - 1) % 13", "up": "card.value % 13 == (top.value + 1) % 13"}
MATCH = {
    "alternate": "card.color != top.color",
    "suit": "card.suit == top.suit",
    "colour": "card.color == top.color",
    "any": "",
}


NOT_A_WHOLE_COLUMN = "!(source in Tableau && count(cards) == count(source))"
"""A whole column moving into another empty one changes nothing: the shipped designs leave that move out (issue #22)."""


def build_on(mode: str, direction: str, empty: str, wrap: bool = False, whole_columns: bool = False) -> str:
    """A tableau accept rule: build ``direction`` in ``mode``; an empty column takes ``empty`` (King, any, nothing).

    Unless ``whole_columns``, a whole column does not move into an empty one (a move that changes nothing).
    """
    step = (WRAP_STEP if wrap else STEP)[direction]
    match = MATCH[mode]
    on_card = f"{match} && {step}" if match else step
    if empty == "King":
        king = "card.rank == King" if whole_columns else f"card.rank == King && {NOT_A_WHOLE_COLUMN}"
        return f"empty(depot) ? {king} : {on_card}"
    if empty == "nothing":
        return f"!empty(depot) && {on_card}"
    if whole_columns:
        return f"empty(depot) || {on_card}"
    return f"empty(depot) ? {NOT_A_WHOLE_COLUMN} : {on_card}"


def build_reason(mode: str, direction: str, empty: str) -> str:
    """The reason written with :func:`build_on`."""
    how = {
        "alternate": "in alternate colours",
        "suit": "in suit",
        "colour": "in one colour",
        "any": "regardless of suit",
    }[mode]
    end = {
        "King": "; only a King goes into an empty column",
        "any": "; an empty column takes any card",
        "nothing": "; an empty column stays empty",
    }[empty]
    return f"Build {direction} {how}{end}"


FOUNDATION_UP = "empty(depot) ? card.rank == Ace : card.suit == top.suit && card.rank == top.rank + 1"
FOUNDATION_REASON = "Foundations build up by suit from the Ace"
KLONDIKE_FOUNDATION = f"!(source in Foundation) && ({FOUNDATION_UP})"
KLONDIKE_FOUNDATION_REASON = (
    "Foundations build up by suit from the Ace; a card never passes from one foundation to another"
)

FREECELL_LIMIT = (
    "count(cards) <= (count(Cell, empty(it)) + 1) * (count(Tableau, empty(it)) - (empty(depot) ? 1 : 0) >= 4 ? 16 : "
    "count(Tableau, empty(it)) - (empty(depot) ? 1 : 0) == 3 ? 8 : count(Tableau, empty(it)) - (empty(depot) ? "
    "1 : 0) == 2 ? 4 : "
    "count(Tableau, empty(it)) - (empty(depot) ? 1 : 0) == 1 ? 2 : 1)"
)
"""A run moves when the free cells and empty columns could carry it card by card (FreeCell's "supermove")."""
RUN_OF = {
    "alternate": "descending(cards) && alternating(cards)",
    "suit": "chain(cards, it.suit == prev.suit && it.rank == prev.rank - 1)",
    "any": "descending(cards)",
    "colour": "chain(cards, it.color == prev.color && it.rank == prev.rank - 1)",
}

GOLF_PILE = "!empty(depot) && top.rank != King && (card.rank == top.rank + 1 || card.rank == top.rank - 1)"
GOLF_PILE_REASON = "Play a card one rank higher or lower; nothing goes on a King"
GOLF_QUEEN = "!empty(depot) && (card.rank == top.rank + 1 || card.rank == top.rank - 1)"
GOLF_QUEEN_REASON = "Play a card one rank higher or lower"
GOLF_WRAP = "!empty(depot) && (card.value % 13 == (top.value + 1) % 13 || (card.value + 1) % 13 == top.value % 13)"
GOLF_WRAP_REASON = "Play a card one rank higher or lower; King and Ace touch"
GOLF_SCORE = "sum(Tableau, count(it)) - count(stock, empty(Tableau))"

CANFIELD_FOUNDATION = (
    "empty(depot) ? exists(bottom(found[0])) && card.rank == bottom(found[0]).rank : "
    "card.suit == top.suit && card.value % 13 == (top.value + 1) % 13"
)
CANFIELD_FOUNDATION_REASON = "Foundations start at the first foundation's rank and build up by suit"
CANFIELD_TABLEAU_EJECT = "count(cards) == 1 || count(cards) == count(depot)"

SPIDER_RUN = "chain(cards, it.suit == prev.suit && it.rank == prev.rank - 1)"
SPIDER_DONE = (
    "count(depot) >= 13 && top.rank == Ace && all(topCards(depot, 13), it.faceUp) && "
    "chain(topCards(depot, 13), it.suit == prev.suit && it.rank == prev.rank - 1)"
)
SPIDER_DEAL = "!empty(stock) && all(Tableau, !empty(it))"

PYRAMID_PAIR = "!empty(depot) && !covered(depot) && card.value + top.value == 13"

ACCORDION_ACCEPT = (
    "(index(source) == index(depot) + 1 ||"
    " index(source) == index(depot) + 3) && !empty(depot) && exists(top(cards)) && "
    "(top(cards).rank == top.rank || top(cards).suit == top.suit)"
)
ACCORDION_COMPACT = (
    "index(depot) == {last} && any(d in row, empty(d) && exists(row[index(d) + 1]) && !empty(row[index(d) + 1]))"
)

MONTANA_ACCEPT = (
    "empty(depot) && (col(depot) == 0 ? card.rank == Two : !empty(left(depot)) && "
    "card.suit == top(left(depot)).suit && card.rank == top(left(depot)).rank + 1)"
)
MONTANA_ORDERED = (
    "!empty({d}) && top({d}).value == col({d}) + 2 && "
    "(col({d}) == 0 || !empty(left({d})) && top({d}).suit == top(left({d})).suit)"
)
MONTANA_STUCK = (
    "all(g in cell, !empty(g) || (col(g) == 0 ? all(c in cell, col(c) == 0 || empty(c) || top(c).rank != Two) : "
    "empty(left(g)) || top(left(g)).rank == King))"
)
MONTANA_KEEP = "all(d in cell, row(d) != row(depot) || col(d) > col(depot) || " + MONTANA_ORDERED.format(d="d") + ")"
MONTANA_COUNT = "col(depot) == 0 || kept(left(depot)) ? 0 : 1"
MONTANA_WIN = "all(c in cell, col(c) == {last} || " + MONTANA_ORDERED.format(d="c") + ")"
MONTANA_SCORE = (
    "count(c in cell, all(d in cell, row(d) != row(c) || col(d) > col(c) || " + MONTANA_ORDERED.format(d="d") + "))"
)

_FLOOR_UNDER = "at(floor, row(depot), col(depot))"
_TRI_VALUE = "(it.value == 1 ? 11 : min(it.value, 10))"
CASTLE_TRIANGLE = (
    "card.rank != Joker && count(depot) < 2 && (empty(depot) || card.rank == top.rank || card.suit == top.suit) && "
    f"(row(depot) == {{ground}} ||"
    f" exists({_FLOOR_UNDER}) && !empty({_FLOOR_UNDER}) && (top({_FLOOR_UNDER}).rank == Ace || "
    "sum(depot, min(it.value, 10)) + min(card.value, 10) <= "
    "(exists(at(tri, row(depot) + 1, col(depot))) && exists(at(tri, row(depot) + 1, col(depot) + 1)) ? "
    f"min(sum(at(tri, row(depot) + 1, col(depot)), {_TRI_VALUE}), sum(at(tri, row(depot) + 1, col(depot) + 1), "
    f"{_TRI_VALUE})) : 0)))"
)
"""A triangle: two cards of one rank or suit, on the ground row or on a floor that carries it (an Ace floor "
"carries any)."""
CASTLE_FLOOR = (
    "card.rank != Joker && empty(depot) && exists(at(tri, row(depot) + 1, col(depot))) && "
    "exists(at(tri, row(depot) + 1, col(depot) + 1)) && count(at(tri, row(depot) + 1, col(depot))) == 2 && "
    "count(at(tri, row(depot) + 1, col(depot) + 1)) == 2"
)
CASTLE_TOP_ROW = "row(depot) == min(min(tri, empty(it) ? 9 : row(it)), min(floor, empty(it) ? 9 : row(it)))"
"""The highest storey that holds a card (rows count from the top; 9 is past any row)."""
CASTLE_COMPLETE = "all(tri, count(it) == 2) && all(floor, count(it) == 1)"
CASTLE_SCORE = (
    "sum(t in tri, sum(c in t, c.value == 1 ? 11 : min(c.value, 10))) + "
    f"({CASTLE_COMPLETE} ? 2 * (count(stock) + sum(hand, count(it))) : 0)"
)
