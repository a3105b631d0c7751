"""Sink games: designs in which every move puts one card onto a pile it never leaves.

Golf, Black Hole and their variants have this shape, recognised here from the compiled
:class:`~cardz_tools.engine.Game` alone (no game is named):

* every depot that accepts dragged cards is an order-blind *sink*
  (:mod:`.position_key`), and every draw turns cards onto such a sink;
* there are no triggers or actions, one deck and no jokers;
* each sink's accept rule reads nothing but the dragged ``card``, the sink's ``top``
  and ``empty(depot)``, with no ``follow`` and no wild rank;
* the win is ``allCardsIn`` those sinks or ``depotsEmpty`` of depots that are not stocks.

With ``cells=True`` (the solver's compact search) the design may also have free cells: depots
that take any one card from a pile when empty and nothing else (probed on every card).

Because an accept rule reads only the two cards, it is evaluated once per (card, top)
pair when the game is first seen and kept as bit masks (:class:`SinkShape`). The
reasoning built on it lives in :mod:`.dead_cards` (positions that cannot be won) and
:mod:`.sink_search` (the solver's compact search).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..cards import COLOR_NAMES, FACE_UP, RANK_NAMES, SUIT_NAMES, Card, identity, standard_deck
from ..expr import ast as expr_ast
from ..expr import parse
from ..model import EjectKind
from .position_key import order_blind_sinks

_ALLOWED = {"card", "top", "rank", "suit", "color", "value", *RANK_NAMES, *SUIT_NAMES, *COLOR_NAMES}
_EMPTY_DEPOT = expr_ast.Call("empty", (expr_ast.Name("depot"),))


def _reads_only_card_and_top(text: str) -> bool:
    """Whether an accept rule reads nothing but ``card``, ``top`` and ``empty(depot)``."""
    return expr_ast.names(parse(text), skip=lambda part: part == _EMPTY_DEPOT) <= _ALLOWED


@dataclasses.dataclass(frozen=True)
class SinkShape:
    """What a sink game's rules allow, as bit masks over the 52 cards.

    A card is its :func:`~cardz_tools.cards.identity` (face bit clear); ``bit[card]``
    is its bit in every mask.
    """

    cards: tuple[Card, ...]
    bit: Mapping[Card, int]
    targets: tuple[int, ...]
    """The depots cards are dragged onto (all sinks)."""
    stocks: tuple[int, ...]
    """The depots that draw onto a sink."""
    outside: tuple[int, ...]
    """Every depot that is not a sink: where the cards still to be played lie."""
    pending: tuple[int, ...]
    """The depots whose every card must be played for the win."""
    on_top: Mapping[int, Mapping[Card, int]]
    """``on_top[target][card]``: the tops of ``target`` that accept ``card``."""
    on_empty: Mapping[int, int]
    """``on_empty[target]``: the cards ``target`` accepts when it is empty."""
    cells: tuple[int, ...] = ()
    """Free cells (only with ``sink_shape(game, cells=True)``): depots that take any one card from
    any pile when empty and nothing else, whose card may go onto a sink (and nowhere else)."""


def sink_shape(game: Any, cells: bool = False) -> SinkShape | None:
    """The shape of ``game``, or None when the design is not a sink game (see the module doc).

    With ``cells``, the design may also have free cells (:attr:`SinkShape.cells`, probed through
    their compiled accept rule); the win must then be ``allCardsIn`` the sinks.
    """
    design = game.design
    if design.decks != 1 or design.jokers or game.triggers or game.actions:
        return None
    sinks = set(order_blind_sinks(game))
    targets = tuple(d for d, never in enumerate(game.accept_never) if not never)
    free_cells = tuple(t for t in targets if t not in sinks) if cells else ()
    if free_cells:
        if game.win_kind != "allCardsIn":
            return None
        targets = tuple(t for t in targets if t in sinks)
    if not targets or any(t not in sinks for t in targets) or any(draw.to not in sinks for draw in game.draws):
        return None
    for target in targets:
        rule = game.accept_rules[target]
        if rule.follow or rule.wild_rank is not None:
            return None
        if rule.when is not None and not _reads_only_card_and_top(rule.when.text):
            return None
    win = game.win_kind
    if win == "allCardsIn" and not set(game.win_depots) <= set(targets):
        return None
    if win not in ("allCardsIn", "depotsEmpty") or any(draw.depot in game.win_depots for draw in game.draws):
        return None

    cards = tuple(identity(c) for c in standard_deck())
    bit = {card: 1 << i for i, card in enumerate(cards)}
    root = game.new_initial_state(deck=standard_deck())  # the state argument rules get; these read none of it
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    on_top: dict[int, dict[Card, int]] = {}
    on_empty: dict[int, int] = {}
    for target in targets:
        when = game.accept_when[target]
        masks: dict[Card, int] = {}
        for card in cards:
            mask = 0
            for top in cards:
                if top == card:
                    continue
                piles[target] = (top | FACE_UP,)
                if when is None or when(piles, root, card | FACE_UP, (card | FACE_UP,), target, target):
                    mask |= bit[top]
            masks[card] = mask
        piles[target] = ()
        on_top[target] = masks
        on_empty[target] = sum(
            bit[c] for c in cards if when is None or when(piles, root, c | FACE_UP, (c | FACE_UP,), target, target)
        )
    stocks = tuple(draw.depot for draw in game.draws)
    outside = tuple(d for d in range(len(game.names)) if d not in sinks and d not in free_cells)
    if win == "depotsEmpty":
        pending = tuple(game.win_depots)
    else:
        pending = tuple(d for d in outside if d not in stocks)
    if free_cells and not _free_cells(game, free_cells, outside, stocks, root, cards):
        return None
    return SinkShape(cards, bit, targets, stocks, outside, pending, on_top, on_empty, free_cells)


def _free_cells(
    game: Any, cells: tuple[int, ...], outside: tuple[int, ...], stocks: tuple[int, ...], root: Any,
    cards: tuple[Card, ...],
) -> bool:
    """Whether every depot of ``cells`` is a free cell (:attr:`SinkShape.cells`), probed on every card.

    Empty, it must take every card from every pile that is not a stock, and none from a stock or
    a cell; holding a card, none from anywhere. Its card must be able to leave it.
    """
    piles: list[tuple[Card, ...]] = [()] * len(game.names)
    piles_only = [d for d in outside if d not in stocks]
    for cell in cells:
        rule = game.accept_rules[cell]
        when = game.accept_when[cell]
        if not rule.single or rule.follow or rule.wild_rank is not None or when is None:
            return False
        if game.eject_kind[cell] not in (EjectKind.TOP_ONLY, EjectKind.FACE_UP):
            return False
        for card in cards:
            face = card | FACE_UP
            for source in (*piles_only, *stocks, *cells):
                piles[source] = (face,)
                takes = source != cell and bool(when(piles, root, face, (face,), source, cell))
                if takes != (source in piles_only):
                    return False
                piles[cell] = ((cards[0] if card != cards[0] else cards[1]) | FACE_UP,)
                filled_takes = source != cell and bool(when(piles, root, face, (face,), source, cell))
                piles[cell] = ()
                piles[source] = ()
                if filled_takes:
                    return False
    return True
