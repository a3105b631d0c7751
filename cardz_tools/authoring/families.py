"""Each family's board and rules, filled in from what :mod:`.reading` and :mod:`.play_rules` found.

A builder takes a :class:`~.draft.Draft` and a design dict and fills in ``decks``, ``depots``,
``dealRules``, ``winCondition`` and, when the text scores the game, ``scoring``. It writes
the rules the text states, and the family's usual rule (:mod:`.usual_rules`) where the text
agrees or is silent, with a TODO for each decision the text leaves open.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from ..todos import todo
from .draft import CONSOLIDATE_WHEN, MAX_REASON, PAIR_REASON, PAIR_WHEN, SCORE_WORDS, Draft
from .lexicon import Family
from .play_rules import Aspect
from .reading import Mechanism, Quantity, SentenceKind
from .usual_rules import (
    ACCORDION_ACCEPT,
    ACCORDION_COMPACT,
    CANFIELD_FOUNDATION,
    CANFIELD_FOUNDATION_REASON,
    CANFIELD_TABLEAU_EJECT,
    CASTLE_COMPLETE,
    CASTLE_FLOOR,
    CASTLE_SCORE,
    CASTLE_TOP_ROW,
    CASTLE_TRIANGLE,
    FOUNDATION_REASON,
    FOUNDATION_UP,
    FREECELL_LIMIT,
    GOLF_PILE,
    GOLF_PILE_REASON,
    GOLF_QUEEN,
    GOLF_QUEEN_REASON,
    GOLF_SCORE,
    GOLF_WRAP,
    GOLF_WRAP_REASON,
    KLONDIKE_FOUNDATION,
    KLONDIKE_FOUNDATION_REASON,
    MONTANA_ACCEPT,
    MONTANA_COUNT,
    MONTANA_KEEP,
    MONTANA_SCORE,
    MONTANA_STUCK,
    MONTANA_WIN,
    PYRAMID_PAIR,
    RUN_OF,
    SPIDER_DEAL,
    SPIDER_DONE,
    SPIDER_RUN,
    build_on,
    build_reason,
)

Json = dict[str, Any]
MAX_DECKS = 8
"""The format's bound on ``decks``."""

# ------------------------------------------------------------------ shared parts


def _between(low: int, high: int) -> Callable[[int | str], bool]:
    """A check that a value is an int from ``low`` to ``high``."""
    return lambda value: isinstance(value, int) and low <= value <= high


def _decks_and_jokers(draft: Draft, default_decks: int = 1) -> tuple[int, int]:
    decks = int(
        draft.number(Quantity.DECKS, default_decks, "decks", quiet_default=default_decks == 1, valid=_between(1, 8))
    )
    jokers_stated = draft.analysis.values(Quantity.JOKERS)
    per_deck = draft.analysis.values(Quantity.JOKERS_PER_DECK)
    if jokers_stated or not per_deck:
        jokers = int(draft.number(Quantity.JOKERS, 0, "jokers", quiet_default=True, valid=_between(0, 16)))
        for fact in per_deck:
            agrees = int(fact.value) * decks == jokers
            draft.outcomes[fact.sentence].append(
                f"jokers = {fact.value} per deck × {decks} decks"
                + (" (agrees)" if agrees else " (conflicts; not used)")
            )
            if not agrees:
                draft.open(f"jokers: the text says {jokers} but also {fact.value} per deck with {decks} decks — check.")
        return decks, jokers
    jokers = int(per_deck[0].value) * decks
    draft.outcomes[per_deck[0].sentence].append(f"jokers = {per_deck[0].value} per deck × {decks} decks = {jokers}")
    return decks, min(jokers, 16)


def _column_cards(columns: int, down: int | str, up: int) -> int:
    """Cards a deal of ``down`` face-down (an int or a ``col(depot)`` form written here) and ``up`` face-up "
    "cards per column needs."""

    def one(column: int) -> int:
        if isinstance(down, int):
            return down
        if down == "col(depot)":
            return column
        match = re.fullmatch(r"col\(depot\) < (\d+) \? (\d+) : (\d+)", down)
        if match is None:
            raise ValueError(f"unexpected deal count {down!r}")
        return int(match[2]) if column < int(match[1]) else int(match[3])

    return sum(one(column) + up for column in range(columns))


def _fit_columns(
    draft: Draft, size: int, columns: int, down: int | str, up: int, defaults: tuple[int, int | str, int]
) -> tuple[int, int | str, int]:
    """The text's columns and counts if the deck holds them, else the family's (face-down cards dropped if "
    "need be), with a TODO."""
    needed = _column_cards(columns, down, up)
    if needed <= size:
        return columns, down, up
    fallback = defaults if _column_cards(*defaults) <= size else (defaults[0], 0, 1)
    draft.open(
        f"the deal from the text ({columns} columns, {down} face down and {up} face up each) needs {needed} cards but "
        f"the deck has {size}; {fallback[0]} columns, {fallback[1]} face down and {fallback[2]} face up were "
        f"used — decide."
    )
    return fallback


def _stock(col: float, row: float, draw_to: str | None = None, count: int = 1, redeals: int | str = 0) -> Json:
    stock: Json = {
        "name": "stock",
        "type": "Stock",
        "col": col,
        "row": row,
        "acceptRule": "none",
        "ejectRule": "locked",
    }
    if draw_to:
        stock["draw"] = {"to": draw_to, "count": count, "redeals": redeals}
    return stock


def _check_stock_count(draft: Draft, left: int) -> None:
    """Compare the cards the text puts in the stock with what the deal leaves."""
    for fact in draft.analysis.values(Quantity.STOCK):
        if fact.value == left:
            draft.outcomes[fact.sentence].append(f"stock = {left} cards (agrees with the deal)")
        else:
            draft.outcomes[fact.sentence].append(f"stock = {fact.value} cards (the deal leaves {left})")
            draft.open(
                f"the text puts {fact.value} cards in the stock (sentence {fact.sentence}) but this deal leaves "
                f"{left} — check the deal."
            )
            return


def _spread(total: int, piles: int) -> int | str:
    """Cards per pile when ``total`` cards are dealt round robin to ``piles`` piles (a deal-site expression if "
    "uneven)."""
    base, extra = divmod(total, piles)
    return base if extra == 0 else f"col(depot) < {extra} ? {base + 1} : {base}"


# ------------------------------------------------------------------ families


class _Grid(NamedTuple):
    """A grid of one-card cells as the text asks for it, and the deck it is dealt from."""

    decks: int
    jokers: int
    rows: int
    cols: int

    @property
    def cards(self) -> int:
        """How many cards the deck holds."""
        return 52 * self.decks + self.jokers


def _grid(
    draft: Draft, usual: tuple[int, int], rows_fit: Callable[[int | str], bool], cols_fit: Callable[[int | str], bool]
) -> _Grid:
    """The decks and the grid's rows and columns the text asks for; the ``usual`` (rows, columns) when it does not
    say, or when the deck is too small for the grid it asks for (then an open question)."""
    decks, jokers = _decks_and_jokers(draft)
    rows = int(draft.number(Quantity.GRID_ROWS, usual[0], "grid rows", valid=rows_fit))
    cols = int(draft.number(Quantity.GRID_COLUMNS, usual[1], "grid columns", valid=cols_fit))
    grid = _Grid(decks, jokers, rows, cols)
    if rows * cols > grid.cards:
        used = f"{usual[0]}×{usual[1]}"
        draft.open(f"a {rows}×{cols} grid needs more cards than the deck holds; {used} was used — decide.")
        return grid._replace(rows=usual[0], cols=usual[1])
    return grid


def _grid_cells(grid: _Grid, accept: Json, **more: Any) -> Json:
    """The depot of the grid's cells: one Tableau group, a row of ``cols`` cells per row, no fan."""
    return {
        "name": "cell",
        "type": "Tableau",
        "col": 0,
        "row": 0,
        "repeat": grid.rows * grid.cols,
        "perRow": grid.cols,
        "fanDirection": "None",
        "acceptRule": accept,
        **more,
    }


def _pairing_grid(draft: Draft, design: Json) -> None:
    fits = _between(2, 13)
    grid = _grid(draft, (5, 5), fits, fits)
    decks, jokers, rows, cols = grid
    draft.notes.append("board: pairing grid like Monte Carlo (cells, stock, discard); filed as Pyramid like the seed")
    if draft.mechanism(Mechanism.PAIR_TOUCHING, f"cell acceptRule.when = {PAIR_WHEN}"):
        accept: Json = {"single": True, "when": PAIR_WHEN, "reason": PAIR_REASON[draft.language]}
    else:
        accept = draft.placeholder_rule(
            "cell",
            "acceptRule",
            "when a card may be dropped on another grid card to pair with it",
            f"`{PAIR_WHEN}`",
            single=True,
        )
    stock = _stock(cols + 0.5, 0)
    if draft.mechanism(Mechanism.COMPACT_REFILL, "stock action 'consolidate' (compact cell from stock)"):
        stock["actions"] = [
            {
                "name": "consolidate",
                "when": CONSOLIDATE_WHEN,
                "do": [{"kind": "compact", "group": "cell", "from": "stock"}],
            }
        ]
    else:
        draft.open(
            "say what a tap on the stock does (Monte Carlo: close the gaps and refill the grid from the stock, "
            "a `compact` action)."
        )
    design["decks"], design["jokers"] = decks, jokers
    pairs_off = {"when": "count(depot) == 2", "do": [{"kind": "move", "from": "@self", "to": "discard", "count": 2}]}
    design["depots"] = [
        _grid_cells(grid, accept, triggers=[pairs_off]),
        stock,
        {
            "name": "discard",
            "type": "Foundation",
            "col": cols + 0.5,
            "row": 1.5,
            "acceptRule": "none",
            "ejectRule": "locked",
        },
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "cell", "faceUp": 1}]
    design["winCondition"] = {"kind": "allCardsIn", "depots": "Foundation"}
    _check_stock_count(draft, grid.cards - rows * cols)


def _gaps(draft: Draft, design: Json) -> None:
    grid = _grid(draft, (4, 13), _between(1, 16), _between(2, 26))
    decks, jokers, rows, cols = grid
    draft.notes.append("board: gaps grid like Montana (one card per cell, gaps after the deal)")
    design["decks"], design["jokers"] = decks, jokers
    accept = {
        "single": True,
        "when": MONTANA_ACCEPT,
        "reason": "A gap takes the same suit one higher than its left neighbour; the leftmost gap takes a Two",
    }
    design["depots"] = [_grid_cells(grid, accept)]
    deal: list[Json] = [{"kind": "dealGroup", "to": "cell", "faceUp": 1}]
    removed = list(dict.fromkeys(str(e.value) for e in draft.analysis.values(Quantity.REMOVED_RANK)))
    for fact in draft.analysis.values(Quantity.REMOVED_RANK):
        draft.outcomes[fact.sentence].append(f"dealRules remove ranks [{fact.value}]")
    if not removed:
        removed = ["Ace"]
        draft.open(
            "which cards are taken out after the deal to make the gaps: the text does not say; the usual "
            "Montana rule (the four Aces) was written — confirm."
        )
    deal.append({"kind": "remove", "to": "aces", "ranks": removed})
    if rows * cols < grid.cards:
        design["depots"].append(_stock(cols + 0.5, 1.5))
    design["dealRules"] = deal
    redeals = [e for e in draft.analysis.values(Quantity.REDEALS) if isinstance(e.value, int) and 0 <= e.value <= 1000]
    passes = draft.facts(Aspect.PASSES)
    aces: Json = {
        "name": "aces",
        "type": "Foundation",
        "col": cols + 0.5,
        "row": 0,
        "acceptRule": "none",
        "ejectRule": "locked",
    }
    limit: int | None
    if redeals:
        limit = int(redeals[0].value)
        draft.outcomes[redeals[0].sentence].append(f"'aces' action 'redeal' limit = {limit}")
    elif passes and passes[0].value != "unlimited":
        limit = int(passes[0].value) - 1
        draft.outcomes[passes[0].sentence].append(f"'aces' action 'redeal' limit = {limit}")
    else:
        limit = 2
        draft.open("how many redeals: the text does not say; the usual Montana rule (two) was written — confirm.")
    if limit:
        aces["actions"] = [
            {
                "name": "redeal",
                "when": MONTANA_STUCK,
                "limit": limit,
                "do": [{"kind": "redeal", "group": "cell", "keep": MONTANA_KEEP, "count": MONTANA_COUNT}],
            }
        ]
    design["depots"].insert(1, aces)
    design["winCondition"] = {"kind": "when", "when": MONTANA_WIN.format(last=cols - 1)}
    _score(
        draft,
        design,
        {
            "foundations": {"value": MONTANA_SCORE, "keep": "Over"},
            "left": {"value": MONTANA_SCORE, "keep": "Over"},
            "removed": {"value": MONTANA_SCORE, "keep": "Over"},
        },
    )


def _castle(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft, default_decks=2)
    first_row = draft.number(
        Quantity.FIRST_ROW_CARDS,
        12,
        "cards in the bottom row of triangles",
        valid=lambda value: _between(4, 16)(value) and int(value) % 2 == 0,
    )
    pairs = int(first_row) // 2
    hand = int(draft.number(Quantity.OPEN_CARDS, 5, "open cards", valid=_between(1, 10)))
    draft.notes.append(
        f"board: house of cards: triangle rows of 1 … {pairs} pairs from the top, floor rows of 1 … {pairs - 1}, "
        f"{hand} open cards refilled from a stock, a discard pile"
    )
    draft.notes.append(
        "rules: the usual Château de cartes rules (games/chateau-de-cartes.cardz): a triangle is two cards of "
        "one rank or "
        "suit, a floor lies across two finished triangles and carries the weaker one's value (an Ace floor: "
        "any), a tap "
        "on the stock replaces the open cards, a joker blows away the top storey"
    )
    bottom = 2 + 1.5 * pairs
    hand_depot: Json = {
        "name": "hand",
        "type": "Reserve",
        "col": 2,
        "row": bottom,
        "repeat": hand,
        "acceptRule": "none",
        "ejectRule": "topOnly",
        "triggers": [
            {
                "when": "empty(depot) && !empty(stock)",
                "do": [{"kind": "move", "from": "stock", "to": "@self", "faceUp": True}],
            }
        ],
    }
    if jokers:
        hand_depot["triggers"].insert(
            0,
            {
                "when": "!empty(depot) && top.rank == Joker",
                "do": [
                    {"kind": "move", "from": "tri", "where": CASTLE_TOP_ROW, "to": "discard", "count": "all"},
                    {"kind": "move", "from": "floor", "where": CASTLE_TOP_ROW, "to": "discard", "count": "all"},
                    {"kind": "move", "from": "@self", "to": "discard"},
                ],
            },
        )
    shape = {"align": "center", "colStep": 2, "rowStep": 1.5}
    design["decks"], design["jokers"] = decks, jokers
    design["depots"] = [
        {
            "name": "tri",
            "type": "Tableau",
            "col": 0,
            "row": 1,
            "perRow": list(range(1, pairs + 1)),
            **shape,
            "fanDirection": "Right",
            "ejectRule": "locked",
            "acceptRule": {
                "single": True,
                "when": CASTLE_TRIANGLE.format(ground=pairs - 1),
                "reason": "A triangle is two cards of one rank or one suit, on the ground or on a floor that "
                "can carry it",
            },
        },
        {
            "name": "floor",
            "type": "Tableau",
            "col": 1,
            "row": 2,
            "perRow": list(range(1, pairs)),
            **shape,
            "fanDirection": "None",
            "ejectRule": "locked",
            "acceptRule": {
                "single": True,
                "when": CASTLE_FLOOR,
                "reason": "A floor lies across two finished triangles",
            },
        },
        {
            "name": "stock",
            "type": "Stock",
            "col": 0,
            "row": bottom,
            "acceptRule": "none",
            "ejectRule": "locked",
            "actions": [
                {
                    "name": "replace",
                    "when": "!empty(stock)",
                    "do": [{"kind": "move", "from": "hand", "to": "discard", "count": "all"}],
                }
            ],
        },
        hand_depot,
        {
            "name": "discard",
            "type": "Foundation",
            "col": max(8, 2 * pairs - 4),
            "row": bottom,
            "acceptRule": "none",
            "ejectRule": "locked",
        },
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "hand", "faceUp": 1}]
    design["depotOnly"] = True
    design["winCondition"] = {"kind": "when", "when": CASTLE_COMPLETE}
    design["lossCondition"] = {"kind": "noLegalMoves"}
    if draft.facts(Aspect.SCORE) or any(SCORE_WORDS.search(s.normalised) for s in draft.analysis.sentences):
        design["scoring"] = {"value": CASTLE_SCORE, "keep": "Over"}
        draft.scored = True
        for sentence in draft.analysis.sentences:
            if sentence.kind is SentenceKind.SENTENCE and SCORE_WORDS.search(sentence.normalised):
                draft.outcomes[sentence.index].append(
                    "scoring.value: the triangles' value, a bonus for a complete house (the usual rule)"
                )
                break


def _tableau_build(
    draft: Draft, usual_mode: str, usual_direction: str, usual_empty: str, depot: str = "tab"
) -> tuple[str, str, str]:
    """How the tableau builds (suit mode, direction) and what an empty column takes: the text's words, else "
    "the usual."""
    facts = draft.facts(Aspect.TABLEAU_BUILD)
    mode = next((f.value.split()[0] for f in facts if isinstance(f.value, str) and not f.value.startswith("?")), None)
    direction = next(
        (f.value.split()[1] for f in facts if isinstance(f.value, str) and not f.value.endswith("?")), None
    )
    for fact in facts:
        said = str(fact.value).replace("?", "").strip()
        agrees = all(part in (mode, direction) for part in said.split())
        draft.outcomes[fact.sentence].append(
            f"'{depot}' acceptRule: builds {said}" + ("" if agrees else " (conflicts; not used)")
        )
    if mode is None:
        draft.open(
            f"how the columns build (suit or colour): the text does not say; the usual {draft.family.value} "
            f"rule ({usual_mode}) was written — confirm."
        )
        mode = usual_mode
    if direction is None:
        draft.open(
            f"which way the columns build: the text does not say; the usual {draft.family.value} rule "
            f"({usual_direction}) was written — confirm."
        )
        direction = usual_direction
    empty = str(
        draft.stated(
            Aspect.EMPTY_COLUMN,
            f"what an empty '{depot}' column takes",
            usual_empty,
            key=f"'{depot}' acceptRule: an empty column takes",
        )
    )
    return mode, direction, empty


def _foundation_build(draft: Draft, depot: str = "found") -> None:
    """Record the text's foundation sentences against the usual rule (up by suit); a variant is a TODO."""
    facts = draft.facts(Aspect.FOUNDATION_BUILD)
    for fact in facts:
        usual = fact.value in ("suit up", "suit ?")
        draft.outcomes[fact.sentence].append(
            f"'{depot}' acceptRule: builds {fact.value} (agrees with the usual rule)"
            if usual
            else f"'{depot}' acceptRule: builds {fact.value} (not supported; the usual rule was written)"
        )
        if not usual:
            draft.open(
                f"the text builds the foundations {fact.value} (sentence {fact.sentence}); the usual rule (up "
                f"by suit from the Ace) was written — change it."
            )
    if not facts:
        draft.open(
            f"how the foundations build: the text does not say; the usual {draft.family.value} rule (up by suit "
            f"from the Ace) was written — confirm."
        )


def _passes(draft: Draft, usual: int | str, depot: str = "stock") -> int | str:
    """The stock's ``redeals``: from the passes the text states, else its redeal count, else ``usual``."""
    facts = draft.facts(Aspect.PASSES)
    if facts:
        chosen = facts[0]
        redeals: int | str = "unlimited" if chosen.value == "unlimited" else int(chosen.value) - 1
        draft.outcomes[chosen.sentence].append(f"'{depot}' draw.redeals = {redeals}")
        for other in facts[1:]:
            draft.outcomes[other.sentence].append(
                f"passes = {other.value} ({'agrees' if other.value == chosen.value else 'conflicts; not used'})"
            )
        for fact in draft.analysis.values(Quantity.REDEALS):
            draft.outcomes[fact.sentence].append(
                f"redeals = {fact.value} (agrees)" if fact.value == redeals else f"redeals = {fact.value} (not used)"
            )
        return redeals
    return draft.number(Quantity.REDEALS, usual, f"'{depot}' draw.redeals")


def _score(draft: Draft, design: Json, readings: dict[str, Json]) -> None:
    """The scoring the text's score sentence states (one of ``readings``), else none; an unread score sentence "
    "is a TODO."""
    facts = [f for f in draft.facts(Aspect.SCORE) if str(f.value) in readings]
    if facts:
        design["scoring"] = readings[str(facts[0].value)]
        draft.outcomes[facts[0].sentence].append(f"scoring.value = {design['scoring']['value']}")
        draft.scored = True


def _klondike(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    columns = int(draft.number(Quantity.TABLEAU_COLUMNS, 7, "tableau columns", valid=_between(1, 13)))
    count = int(draft.number(Quantity.DRAW_COUNT, 3, "'stock' draw.count (cards turned per tap)", valid=_between(1, 5)))
    redeals = _passes(draft, "unlimited")
    down = draft.number(
        Quantity.FACE_DOWN, "col(depot)", "face-down cards per column (`col(depot)`: 0, 1, 2 … from the left)"
    )
    columns, down, _ = _fit_columns(draft, 52 * decks + jokers, columns, down, 1, (7, "col(depot)", 1))
    mode, direction, empty = _tableau_build(draft, "alternate", "down", "King")
    _foundation_build(draft)
    runs = draft.stated(Aspect.MOVE_UNIT, "what moves between columns", "runs", key="'tab' ejectRule: moves")
    draft.notes.append("board: builder with stock and waste, foundations and tableau columns (Klondike)")
    design["decks"], design["jokers"] = decks, jokers
    tab: Json = {
        "name": "tab",
        "type": "Tableau",
        "col": 0,
        "row": 1,
        "repeat": columns,
        "acceptRule": {"when": build_on(mode, direction, empty), "reason": build_reason(mode, direction, empty)},
        "ejectRule": "topOnly" if runs == "single" else "faceUp",
        "autoFlipTop": True,
    }
    if runs == "single":
        tab["acceptRule"]["single"] = True
    design["depots"] = [
        _stock(0, 0, "waste", count, redeals),
        {
            "name": "waste",
            "type": "Waste",
            "col": 1,
            "row": 0,
            "fanDirection": "Right",
            "acceptRule": "none",
            "ejectRule": "topOnly",
        },
        {
            "name": "found",
            "type": "Foundation",
            "col": 3,
            "row": 0,
            "repeat": 4 * decks,
            "ejectRule": "topOnly",
            "acceptRule": {"single": True, "when": KLONDIKE_FOUNDATION, "reason": KLONDIKE_FOUNDATION_REASON},
        },
        tab,
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "tab", "faceDown": down, "faceUp": 1}]
    design["winCondition"] = {"kind": "allCardsIn", "depots": "Foundation"}
    _check_stock_count(draft, 52 * decks + jokers - _column_cards(columns, down, 1))
    _score(draft, design, {"foundations": {"value": "count(Foundation)"}})


def _freecell(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    cells = int(draft.number(Quantity.FREE_CELLS, 4, "free cells", valid=_between(1, 10)))
    columns = int(draft.number(Quantity.TABLEAU_COLUMNS, 8, "tableau columns", valid=_between(1, 13)))
    mode, direction, empty = _tableau_build(draft, "alternate", "down", "any")
    _foundation_build(draft)
    unit = draft.stated(Aspect.MOVE_UNIT, "what moves between columns", "runs", key="'tab' ejectRule: moves")
    draft.notes.append("board: free cells, foundations and tableau columns, every card dealt face up (FreeCell)")
    design["decks"], design["jokers"] = decks, jokers
    build = build_on(mode, direction, empty)
    if unit != "single" and direction == "down":
        tab_accept: Json = {
            "when": f"({build}) && {FREECELL_LIMIT}",
            "reason": "Build down, as many cards as the free cells and empty columns allow"[:MAX_REASON],
        }
        tab_eject: Json | str = {"when": RUN_OF[mode], "reason": "Only a run in sequence moves together"}
    else:
        tab_accept = {"single": True, "when": build, "reason": build_reason(mode, direction, empty)}
        tab_eject = "topOnly"
    design["depots"] = [
        {
            "name": "cell",
            "type": "Cell",
            "col": 0,
            "row": 0,
            "repeat": cells,
            "ejectRule": "topOnly",
            "acceptRule": {
                "single": True,
                "when": "empty(depot) && !(source in Cell)",
                "reason": "A free cell holds one card, from a column",
            },
        },
        {
            "name": "found",
            "type": "Foundation",
            "col": cells,
            "row": 0,
            "repeat": 4 * decks,
            "ejectRule": "locked",
            "acceptRule": {"single": True, "when": FOUNDATION_UP, "reason": FOUNDATION_REASON},
        },
        {
            "name": "tab",
            "type": "Tableau",
            "col": 0,
            "row": 1,
            "repeat": columns,
            "acceptRule": tab_accept,
            "ejectRule": tab_eject,
        },
    ]
    design["dealRules"] = [
        {"kind": "dealGroup", "to": "tab", "faceUp": _spread(52 * decks + jokers, columns), "roundRobin": True}
    ]
    design["winCondition"] = {"kind": "allCardsIn", "depots": "Foundation"}
    _score(draft, design, {"foundations": {"value": "count(Foundation)", "keep": "Won"}})


def _golf(draft: Draft, design: Json) -> None:
    if draft.black_hole:
        _black_hole(draft, design)
        return
    decks, jokers = _decks_and_jokers(draft)
    columns = int(draft.number(Quantity.TABLEAU_COLUMNS, 7, "tableau columns", valid=_between(1, 13)))
    per_column = int(draft.number(Quantity.CARDS_PER_COLUMN, 5, "cards per column", valid=_between(1, 8)))
    columns, _, per_column = _fit_columns(draft, 52 * decks + jokers - 1, columns, 0, per_column, (7, 0, 5))
    wrap = draft.stated(
        Aspect.WRAP, "whether ranks wrap (a King and an Ace are neighbours)", "no", key="'pile' acceptRule: ranks wrap"
    )
    on_king = (
        "nothing"
        if wrap == "yes"
        else draft.stated(Aspect.ON_KING, "what goes on a King", "nothing", key="'pile' acceptRule: on a King goes")
    )
    if wrap == "yes":
        pile = {"single": True, "when": GOLF_WRAP, "reason": GOLF_WRAP_REASON}
    elif on_king == "Queen":
        pile = {"single": True, "when": GOLF_QUEEN, "reason": GOLF_QUEEN_REASON}
    else:
        pile = {"single": True, "when": GOLF_PILE, "reason": GOLF_PILE_REASON}
    redeals = _passes(draft, 0)
    draft.agrees(Aspect.NEIGHBOUR_RANK, "'pile' acceptRule: one rank higher or lower")
    _check_stock_count(draft, 52 * decks + jokers - columns * per_column - 1)
    draft.notes.append("board: single foundation fed from the tableau and the stock (Golf)")
    design["decks"], design["jokers"] = decks, jokers
    design["depots"] = [
        _stock(0, 0, "pile", 1, redeals),
        {"name": "pile", "type": "Foundation", "col": 1, "row": 0, "ejectRule": "locked", "acceptRule": pile},
        {
            "name": "tab",
            "type": "Tableau",
            "col": 0,
            "row": 1,
            "repeat": columns,
            "acceptRule": "none",
            "ejectRule": "topOnly",
        },
    ]
    design["dealRules"] = [
        {"kind": "dealGroup", "to": "tab", "faceUp": per_column, "roundRobin": True},
        {"kind": "dealGroup", "to": "pile", "faceUp": 1},
    ]
    design["depotOnly"] = True
    design["winCondition"] = {"kind": "depotsEmpty", "depots": "Tableau"}
    _score(draft, design, {"left": {"value": GOLF_SCORE, "better": "Low"}})


def _black_hole(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    if (decks, jokers) != (1, 0):
        draft.open(
            f"Black Hole has no stock to hold more than one deck: the text's {decks} deck(s) and {jokers} joker(s) "
            "were not used (one deck, no jokers) — decide."
        )
        decks, jokers = 1, 0
    fans = int(draft.number(Quantity.TABLEAU_COLUMNS, 17, "fans", valid=_between(1, 26)))
    per_fan = int(draft.number(Quantity.CARDS_PER_COLUMN, 3, "cards per fan", valid=_between(1, 8)))
    if fans * per_fan != 52 * decks + jokers - 1:
        draft.open(
            f"{fans} fans of {per_fan} do not hold the {52 * decks + jokers - 1} cards left after the Ace of "
            f"Spades; 17 fans of 3 were used — decide."
        )
        fans, per_fan = 17, 3
    wrap = draft.stated(
        Aspect.WRAP, "whether ranks wrap (a King and an Ace are neighbours)", "yes", key="'hole' acceptRule: ranks wrap"
    )
    draft.agrees(Aspect.NEIGHBOUR_RANK, "'hole' acceptRule: one rank higher or lower")
    draft.notes.append("board: Black Hole: the Ace of Spades starts the hole, the other cards in fans, no stock")
    design["decks"], design["jokers"] = decks, jokers
    hole = (
        {"single": True, "when": GOLF_WRAP, "reason": GOLF_WRAP_REASON}
        if wrap == "yes"
        else {"single": True, "when": GOLF_QUEEN, "reason": GOLF_QUEEN_REASON}
    )
    design["depots"] = [
        {"name": "hole", "type": "Foundation", "col": 9, "row": 0, "ejectRule": "locked", "acceptRule": hole},
        {
            "name": "fan",
            "type": "Tableau",
            "col": 0,
            "row": 1,
            "repeat": fans,
            "perRow": 6,
            "colStep": 1.5,
            "fanDirection": "Right",
            "acceptRule": "none",
            "ejectRule": "topOnly",
        },
    ]
    design["dealRules"] = [
        {"kind": "dealGroup", "to": "hole", "match": "card.rank == Ace && card.suit == Spades", "faceUp": 1},
        {"kind": "dealGroup", "to": "fan", "faceUp": per_fan},
    ]
    design["depotOnly"] = True
    design["winCondition"] = {"kind": "allCardsIn", "depots": "hole"}
    _score(draft, design, {"foundations": {"value": "count(hole)"}, "removed": {"value": "count(hole)"}})


def _spider(draft: Draft, design: Json) -> None:
    text_decks, jokers = _decks_and_jokers(draft, default_decks=2)
    suits = str(draft.stated(Aspect.SUITS, "how many suits", "four", key="suits", quiet=True))
    spider_suits = {"one": ["Spades"], "two": ["Spades", "Hearts"]}.get(suits)
    decks = text_decks * 4 // len(spider_suits) if spider_suits else text_decks
    if decks > MAX_DECKS:
        draft.open(
            f"{text_decks} decks of {suits} suit(s) need {decks} decks of those suits; the format allows {MAX_DECKS}, "
            f"so {MAX_DECKS} were used — decide."
        )
        decks = MAX_DECKS
    columns = int(draft.number(Quantity.TABLEAU_COLUMNS, 10, "tableau columns", valid=_between(1, 13)))
    down = draft.number(Quantity.FACE_DOWN, "col(depot) < 4 ? 5 : 4", "face-down cards per column")
    columns, down, _ = _fit_columns(
        draft, 52 * text_decks + jokers, columns, down, 1, (10, "col(depot) < 4 ? 5 : 4", 1)
    )
    mode, direction, empty = _tableau_build(draft, "any", "down", "any")
    draft.notes.append(
        "board: Spider: tableau columns, a stock that deals a row, a pile for each finished King-to-Ace run"
    )
    design["decks"], design["jokers"] = decks, jokers
    if spider_suits:
        design["suits"] = spider_suits
    design["depots"] = [
        {
            "name": "stock",
            "type": "Stock",
            "col": 0,
            "row": 0,
            "acceptRule": "none",
            "ejectRule": "locked",
            "actions": [{"name": "deal", "when": SPIDER_DEAL, "do": [{"kind": "deal", "from": "stock", "to": "tab"}]}],
        },
        {"name": "done", "type": "Foundation", "col": 9, "row": 0, "acceptRule": "none", "ejectRule": "locked"},
        {
            "name": "tab",
            "type": "Tableau",
            "col": 0,
            "row": 1,
            "repeat": columns,
            "autoFlipTop": True,
            "acceptRule": {
                "when": build_on(mode, direction, empty, whole_columns=True),
                "reason": build_reason(mode, direction, empty),
            },
            "ejectRule": {"when": SPIDER_RUN, "reason": "Only a run down in one suit moves together"},
            "triggers": [{"when": SPIDER_DONE, "do": [{"kind": "move", "from": "@self", "to": "done", "count": 13}]}],
        },
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "tab", "faceDown": down, "faceUp": 1}]
    design["winCondition"] = {"kind": "allCardsIn", "depots": "done"}
    _score(draft, design, {"foundations": {"value": "count(done)"}, "removed": {"value": "count(done)"}})


def _canfield(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    columns = int(draft.number(Quantity.TABLEAU_COLUMNS, 4, "tableau columns", valid=_between(1, 10)))
    count = int(draft.number(Quantity.DRAW_COUNT, 3, "'stock' draw.count (cards turned per tap)", valid=_between(1, 5)))
    redeals = _passes(draft, "unlimited")
    mode, direction, empty = _tableau_build(draft, "alternate", "down", "any")
    wrap = draft.stated(Aspect.WRAP, "whether ranks wrap (King to Ace)", "yes", key="acceptRules: ranks wrap")
    _foundation_build(draft)
    for fact in draft.facts(Aspect.RESERVE):
        agrees = fact.value == 13
        draft.outcomes[fact.sentence].append(
            f"'reserve' dealt 12 face down and 1 face up ({fact.value} cards{'' if agrees else ': not supported'})"
        )
        if not agrees:
            draft.open(
                f"the text puts {fact.value} cards in the reserve (sentence {fact.sentence}); Canfield's 13 "
                f"were dealt — change the deal."
            )
    if not draft.agrees(
        Aspect.FOUNDATION_BASE,
        "'found' dealRules: one card to the first foundation; acceptRule: the others start at its rank",
    ):
        draft.open(
            "how the foundations start: the text does not say; the usual Canfield rule (one card dealt to the "
            "first, the others start at its rank) was written — confirm."
        )
    for fact in draft.facts(Aspect.MOVE_UNIT):
        usual = fact.value == "top or all"
        draft.outcomes[fact.sentence].append(
            "'tab' ejectRule: the top card or the whole column"
            if usual
            else f"moves: {fact.value} (not supported here; Canfield's rule was written)"
        )
    draft.notes.append("board: Canfield: a 13-card reserve, foundations, tableau, stock and waste")
    design["decks"], design["jokers"] = decks, jokers
    design["depots"] = [
        _stock(0, 0, "waste", count, redeals),
        {"name": "waste", "type": "Waste", "col": 1, "row": 0, "acceptRule": "none", "ejectRule": "topOnly"},
        {
            "name": "found",
            "type": "Foundation",
            "col": 3,
            "row": 0,
            "repeat": 4 * decks,
            "ejectRule": "locked",
            "acceptRule": {"single": True, "when": CANFIELD_FOUNDATION, "reason": CANFIELD_FOUNDATION_REASON},
        },
        {
            "name": "reserve",
            "type": "Reserve",
            "col": 0,
            "row": 1,
            "fanDirection": "Down",
            "acceptRule": "none",
            "ejectRule": "topOnly",
            "autoFlipTop": True,
        },
        {
            "name": "tab",
            "type": "Tableau",
            "col": 3,
            "row": 1,
            "repeat": columns,
            "acceptRule": {
                "when": build_on(mode, direction, empty, wrap == "yes"),
                "reason": build_reason(mode, direction, empty),
            },
            "ejectRule": {"when": CANFIELD_TABLEAU_EJECT, "reason": "Move the top card or the whole column"},
            "triggers": [
                {"when": "empty(depot) && !empty(reserve)", "do": [{"kind": "move", "from": "reserve", "to": "@self"}]}
            ],
        },
    ]
    design["dealRules"] = [
        {"kind": "dealGroup", "to": "reserve", "faceDown": 12, "faceUp": 1},
        {"kind": "dealGroup", "to": "found", "faceUp": "col(depot) == 0 ? 1 : 0"},
        {"kind": "dealGroup", "to": "tab", "faceUp": 1},
    ]
    design["winCondition"] = {"kind": "allCardsIn", "depots": "Foundation"}
    _score(draft, design, {"foundations": {"value": "count(Foundation)"}})


def _accordion(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    size = 52 * decks + jokers
    draft.notes.append("board: Accordion: every card in a line of piles, 13 per row; the line closes up at once")
    design["decks"], design["jokers"] = decks, jokers
    design["depots"] = [
        {
            "name": "row",
            "type": "Tableau",
            "col": 0,
            "row": 0,
            "repeat": size,
            "perRow": 13,
            "fanDirection": "None",
            "acceptRule": {
                "when": ACCORDION_ACCEPT,
                "reason": "A pile goes onto the pile one or three to its left when their top cards match in "
                "rank or suit",
            },
            "ejectRule": {"when": "count(cards) == count(depot)", "reason": "A pile moves whole"},
            "triggers": [
                {
                    "when": ACCORDION_COMPACT.format(last=size - 1),
                    "do": [{"kind": "compact", "group": "row", "from": "@self"}],
                }
            ],
        },
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "row", "faceUp": 1}]
    design["depotOnly"] = True
    design["winCondition"] = {"kind": "when", "when": "count(row, !empty(it)) == 1"}
    _score(draft, design, {"left": {"value": "count(row, !empty(it))", "better": "Low"}})


def _pyramid(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    rows = int(draft.number(Quantity.GRID_ROWS, 7, "pyramid rows", valid=_between(2, 9)))
    redeals = _passes(draft, 2)
    draft.notes.append("board: a pyramid of rows 1..n, stock, waste and a discard pile")
    below = 0.5 * (rows - 1) + 1.5  # the row under the pyramid's last row (rows are half a card apart)
    design["decks"], design["jokers"] = decks, jokers
    design["depots"] = [
        {
            "name": "pyr",
            "type": "Tableau",
            "col": 1,
            "row": 0,
            "perRow": list(range(1, rows + 1)),
            "align": "center",
            "rowStep": 0.5,
            "fanDirection": "None",
            "acceptRule": {"single": True, "when": PYRAMID_PAIR, "reason": "Two free cards that add up to 13 pair off"},
            "ejectRule": {"when": "!covered(depot)", "reason": "A card is free when no card lies on it"},
            "triggers": [
                {"when": "count(depot) == 2", "do": [{"kind": "move", "from": "@self", "to": "discard", "count": 2}]}
            ],
        },
        _stock(0, below, "waste", 1, redeals),
        {"name": "waste", "type": "Waste", "col": 1, "row": below, "acceptRule": "none", "ejectRule": "topOnly"},
        {
            "name": "discard",
            "type": "Foundation",
            "col": rows + 2,
            "row": 0,
            "ejectRule": "locked",
            "acceptRule": {"single": True, "when": "card.rank == King", "reason": "Only a King is discarded alone"},
        },
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "pyr", "faceUp": 1}]
    design["depotOnly"] = True
    design["winCondition"] = {"kind": "depotsEmpty", "depots": "pyr"}
    _score(draft, design, {"removed": {"value": "count(discard)"}, "foundations": {"value": "count(discard)"}})


def _other(draft: Draft, design: Json) -> None:
    decks, jokers = _decks_and_jokers(draft)
    columns = int(draft.number(Quantity.TABLEAU_COLUMNS, 7, "tableau columns", valid=_between(1, 13)))
    per_column = int(draft.number(Quantity.CARDS_PER_COLUMN, 1, "face-up cards per column", valid=_between(1, 13)))
    columns, _, per_column = _fit_columns(draft, 52 * decks + jokers, columns, 0, per_column, (7, 0, 1))
    draft.notes.append(
        "board: a generic start (stock, waste, four foundations, tableau): the family was not recognised"
    )
    design["decks"], design["jokers"] = decks, jokers
    design["depots"] = [
        _stock(0, 0, "waste", 1, 0),
        {"name": "waste", "type": "Waste", "col": 1, "row": 0, "acceptRule": "none", "ejectRule": "topOnly"},
        {
            "name": "foundation",
            "type": "Foundation",
            "col": 3,
            "row": 0,
            "repeat": 4 * decks,
            "ejectRule": "topOnly",
            "acceptRule": {
                "single": True,
                "when": FOUNDATION_UP,
                "reason": todo(
                    "a start, not from the text: foundations build up by suit from the Ace — write which cards "
                    "a foundation takes."
                ),
            },
        },
        {
            "name": "tableau",
            "type": "Tableau",
            "col": 0,
            "row": 1,
            "repeat": columns,
            "ejectRule": "topOnly",
            "acceptRule": {
                "single": True,
                "when": build_on("alternate", "down", "any"),
                "reason": todo(
                    "a start, not from the text: build down in alternate colours — write which cards a column takes."
                ),
            },
        },
    ]
    design["dealRules"] = [{"kind": "dealGroup", "to": "tableau", "faceUp": per_column, "roundRobin": True}]
    draft.open("say what a tap on the stock does (it turns one card onto the waste, once through, as a start).")
    design["winCondition"] = {"kind": "allCardsIn", "depots": "Foundation"}
    draft.open("confirm the win condition (every card on the foundations, as a start).")


def build_family(draft: Draft, design: Json) -> None:
    """Lay out the board and rules of the draft's family (a real pyramid for a Pyramid text that names one)."""
    builder = _pyramid if draft.analysis.family.pyramid_layout else BUILDERS[draft.family]
    builder(draft, design)


BUILDERS: dict[Family, Callable[[Draft, Json], None]] = {
    Family.PYRAMID: _pairing_grid,
    Family.GAPS: _gaps,
    Family.CASTLE: _castle,
    Family.KLONDIKE: _klondike,
    Family.FREECELL: _freecell,
    Family.GOLF: _golf,
    Family.SPIDER: _spider,
    Family.CANFIELD: _canfield,
    Family.ACCORDION: _accordion,
    Family.OTHER: _other,
}
"""How each recognised family is laid out (a real pyramid uses :func:`_pyramid` instead)."""
