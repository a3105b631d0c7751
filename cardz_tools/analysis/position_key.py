"""Position keys for search that forget what no rule can see: the order inside a sink.

A *sink* is a depot whose cards never leave it (its eject rule is ``locked``, no
effect takes cards from it, no draw turns it over). Below its top card, the order
of a sink's cards can matter only to a rule that reads that order: ``bottom``,
``descending``, ``ascending``, ``alternating``, ``chain`` or ``topCards`` of a
pile. When no rule of the design does, two positions that differ only in the order
of the cards under the tops of sinks play exactly the same from there on, so the
solver may treat them as one (Golf, Black Hole: the pile's history is irrelevant,
only its top card and which cards are still out count).

The key keeps each sink's top card and the cards under it as a sorted tuple (a
multiset, face bits included).
Everything is decided from the compiled :class:`~cardz_tools.engine.Game`, with
no knowledge of any particular game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any

from ..engine.effects import Compact, Flip, MoveCards, MoveFromGroup
from ..expr import design_sites
from ..model import EjectKind

_ORDER_READERS = re.compile(r"\b(bottom|descending|ascending|alternating|chain|topCards)\s*\(\s*(?!cards\s*[,)])")
"""A call that can read the order of a pile's cards (on the dragged ``cards`` it reads only the run)."""

KeyFunction = Callable[[Any], Hashable]


def order_blind_sinks(game: Any) -> tuple[int, ...]:
    """The depots whose card order below the top no rule of ``game`` can observe (see the module doc)."""
    design = game.design
    if any(_ORDER_READERS.search(text) for _, text, _ in design_sites(design)):
        return ()
    emptied: set[int] = set()
    effects = [effect for trigger in game.triggers for effect in trigger.effects]
    effects += [effect for action in game.actions for effect in action.effects]
    for effect in effects:
        if isinstance(effect, MoveCards):
            if effect.source < 0:
                owners = [t.depot for t in game.triggers if effect in t.effects]
                owners += [a.depot for a in game.actions if effect in a.effects]
                emptied.update(owners)
            else:
                emptied.add(effect.source)
        elif isinstance(effect, MoveFromGroup):
            emptied.update(effect.members)
        elif isinstance(effect, Compact):
            emptied.update(effect.members)
            if effect.source is not None:
                emptied.add(effect.source)
        elif not isinstance(effect, Flip):
            return ()  # an effect this module does not know: assume it may read or move anything
    for draw in game.draws:
        emptied.add(draw.depot)
        if draw.redeals != 0:
            emptied.add(draw.to)
    return tuple(
        depot
        for depot in range(len(game.names))
        if game.eject_kind[depot] is EjectKind.LOCKED and depot not in emptied
    )


def key_function(game: Any) -> KeyFunction:
    """``key(state)``: :meth:`State.key` with the order inside order-blind sinks forgotten."""
    sinks = order_blind_sinks(game)
    if not sinks:
        return lambda state: state.key()

    def forgetful(state: Any) -> Hashable:
        piles = list(state.piles)
        for sink in sinks:
            pile = piles[sink]
            if len(pile) > 1:
                piles[sink] = (pile[-1], *sorted(pile[:-1]))
        return (tuple(piles), tuple(state.declared), tuple(state.redeals), tuple(state.uses), state.cascade)

    return forgetful
