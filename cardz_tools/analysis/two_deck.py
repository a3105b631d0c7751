"""Safe moves onto sinks when a card has twins (two or more decks).

:mod:`.dominance` proves a move of card ``c`` onto a sink safe for one deck. With more decks
two things change, and :class:`TwinSafeSinkMoves` checks both:

1. *Every copy* of every card that could be built on ``c`` must be in a sink, not just one:
   then neither ``c`` nor a twin of it can ever carry a card again outside the sinks.
2. The sinks that take ``c`` now must be at least as many as the copies of ``c`` still outside
   the sinks (for a card an empty sink takes: the empty sinks at least as many as all the
   cards outside the sinks that an empty sink takes). One deck always has that; with twins,
   ``c`` might take the only top its twin can go on. Let ``L`` be a winning line and
   ``L'`` = "``c`` to the sink, then ``L`` without the first move of ``c`` itself to a sink".
   Until ``L`` makes that move, ``L'`` has one more sink topped by ``c`` and one fewer of
   those that take ``c`` (only ``c``'s identity goes on them: each top has one successor),
   so every move ``L`` makes of a twin onto one of those finds another in ``L'``: the twins
   outside number at most the takers minus one. After it, the positions are the same.
   Everything else is the one-deck argument (:mod:`.dominance`, conditions 1 to 5), which
   reads identities only and so holds for twins unchanged.

Sinks whose top may go back get no dominance with twins (their argument needs every card of
a closure in the sinks, and a twin of ``c`` outside breaks it): :func:`safe_moves` says so.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..cards import FACE_UP, Card
from ..model import EjectKind
from .dominance import BottomSafeMoves, SafeMoves, SafeSinkMoves, safe_sink_moves


@dataclasses.dataclass(frozen=True)
class TwinSafeSinkMoves(SafeSinkMoves):
    """:class:`SafeSinkMoves` for designs with more than one deck (module doc)."""

    others: tuple[int, ...] = ()
    """The depots other than the sinks."""

    def safe_move(self, state: Any) -> Any:
        """A safe move of ``state`` onto a sink (legal there), or None; ``state`` must not have
        ended, as for :meth:`.SafeSinkMoves.safe_move`."""
        piles = state.piles
        buildable = self.buildable
        others = [piles[d] for d in self.others]
        outside = 0
        for pile in others:
            outside |= self._mask(pile)
        takers: dict[Card, list[int]] = {}
        empty: list[int] = []
        for sink in self.sinks:
            pile = piles[sink]
            if pile:
                takers.setdefault(pile[-1] & ~FACE_UP, []).append(sink)
            else:
                empty.append(sink)
        for source in self.sources:
            pile = piles[source]
            if not pile or not pile[-1] & FACE_UP:
                continue
            card = pile[-1] & ~FACE_UP
            if buildable[card] & outside:
                continue
            below = self.predecessor.get(card)
            if below is not None:
                targets = takers.get(below, [])
                waiting = sum(1 for pile in others for c in pile if c & ~FACE_UP == card) if targets else 1
            elif card in self.on_empty:
                targets = empty
                on_empty = self.on_empty
                waiting = sum(1 for pile in others for c in pile if c & ~FACE_UP in on_empty) if targets else 1
            else:
                continue
            if len(targets) < waiting:
                continue
            move = state.game.drag_move(source, 1, targets[0], None)
            if state.drag_refusal(move) is None:  # not why_illegal: its game-over test lists every move
                return move
        return None

    def _mask(self, pile: tuple[int, ...]) -> int:
        """The bits of the cards of ``pile`` (kept by pile: a move changes one or two)."""
        found = _MASKS.get(pile)
        if found is None:
            bit = self.bit
            found = 0
            for card in pile:
                found |= bit[card & ~FACE_UP]
            if len(_MASKS) >= 100_000:
                _MASKS.clear()
            _MASKS[pile] = found
        return found


_MASKS: dict[tuple[int, ...], int] = {}
"""Pile -> its card bits (the bits of :func:`.dominance.card_bits`, the same for every game)."""


def safe_moves(game: Any) -> SafeMoves | str:
    """The safe-move dominance of ``game`` for any number of decks, or why there is none."""
    found = safe_sink_moves(game, twins=True)
    if isinstance(found, str) or game.design.decks == 1:
        return found
    if isinstance(found, BottomSafeMoves):
        return "its rules read a depot's bottom card and it plays with more than one deck"
    if any(game.eject_kind[sink] is not EjectKind.LOCKED for sink in found.sinks):
        return "its win depots give cards back and it plays with more than one deck"
    fields = {f.name: getattr(found, f.name) for f in dataclasses.fields(found)}
    others = tuple(d for d in range(len(game.names)) if d not in found.sinks)
    return TwinSafeSinkMoves(**fields, others=others)
