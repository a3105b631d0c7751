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

Sinks whose top may go back (Klondike's foundations: eject ``topOnly``) take the one-deck
closure ``K`` of ``c`` (:mod:`.dominance`: closed under "a card some other accept rule could
place on it" and "its sink predecessor") and :class:`TwinGivingBackSinkMoves` asks for *every
copy* of every card of ``K`` but ``c`` in a sink, and every other copy of ``c`` too: ``c`` is
the last card of ``K`` outside. Then, after the move, every copy of ``K`` is in a sink, and
``L'`` is ``L`` with every card of ``K`` kept there, as for one deck, with one more step: the
sinks' piles are chains from a card an empty sink takes (a base) by the one successor of each
top, so the ``K`` cards of the chains of a base in ``K`` are a prefix ``a .. m`` of its
successor sequence (``K`` holds the predecessors of its cards), and with every copy of each in
a sink and one copy per chain, every chain of that base holds exactly ``a .. m``. A card
outside ``K`` that ``L`` plays on a ``K`` card plays on ``m`` (its predecessor is in ``K``,
and it is not), which tops every such chain of ``L'``. A chain that ``L`` empties and starts
again on another base gets, in ``L'``, a sink holding no ``K`` card (the sinks are
interchangeable: the lines are relabelled); there are enough when the sinks are at least the
decks times the cards of the deck an empty sink takes (:func:`safe_moves` checks it): ``L'`` keeps one
chain per copy of each base in ``K``, and ``L`` has at most one chain per copy of each other
base at a time.
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

    copies: tuple[int, ...] = ()
    """``copies[k - 1]``: the cards of which the game holds ``k`` copies (the deal's; no move adds or drops a card),
    so that the copies outside the sinks are read off the sinks alone."""

    def _homes(self, sinks: tuple[tuple[Card, ...], ...]) -> dict[Card, int]:
        """Each card (face up) that the sinks holding ``sinks`` would take safely, with the first of them that
        takes it (module doc: every copy of each card built on it in a sink, and as many sinks taking it as its
        copies outside them; for a card an empty sink takes, the empty sinks and all such cards outside)."""
        takers: dict[Card, list[int]] = {}
        empty: list[int] = []
        for sink, pile in zip(self.sinks, sinks, strict=True):
            if pile:
                takers.setdefault(pile[-1] & ~FACE_UP, []).append(sink)
            else:
                empty.append(sink)
        at_least = _in_sinks(sinks, len(self.copies), self.bit)
        every_copy = self.absent
        for level, held in zip(at_least, self.copies, strict=True):
            every_copy |= level & held
        bit = self.bit
        waiting_on_empty = sum(self._outside(bit[c], at_least) for c in self.on_empty)
        homes: dict[Card, int] = {}
        for card, card_bit in bit.items():
            below = self.predecessor.get(card)
            if below is not None:
                targets = takers.get(below, [])
                waiting = self._outside(card_bit, at_least)
            elif card in self.on_empty:
                targets, waiting = empty, waiting_on_empty
            else:
                continue
            if targets and len(targets) >= waiting and not self.buildable[card] & ~every_copy:
                homes[card | FACE_UP] = targets[0]
        return homes

    def _outside(self, card_bit: int, at_least: list[int]) -> int:
        """The copies of the card of ``card_bit`` outside the sinks (``at_least``: :func:`_in_sinks`)."""
        held = next((k for k, mask in enumerate(self.copies, 1) if mask & card_bit), 0)
        return held - sum(1 for level in at_least if level & card_bit)


def _in_sinks(sinks: tuple[tuple[Card, ...], ...], decks: int, bit: dict[Card, int]) -> list[int]:
    """``at_least[k]``: the cards with more than ``k`` copies in the piles ``sinks``, for ``k`` below ``decks``."""
    at_least = [0] * decks
    for pile in sinks:
        for mask in _levels(pile, bit):
            for k in range(decks - 1, 0, -1):
                at_least[k] |= at_least[k - 1] & mask
            at_least[0] |= mask
    return at_least


def _levels(pile: tuple[int, ...], bit: dict[Card, int]) -> tuple[int, ...]:
    """The bits of the cards of ``pile``: those with one copy there or more, then two or more, ... (kept by pile:
    the bits of :func:`.dominance.card_bits` are the same for every game)."""
    found = _LEVELS.get(pile)
    if found is None:
        levels: list[int] = []
        for card in pile:
            b = bit[card & ~FACE_UP]
            for k, mask in enumerate(levels):
                if not mask & b:
                    levels[k] |= b
                    break
            else:
                levels.append(b)
        if len(_LEVELS) >= 100_000:
            _LEVELS.clear()
        found = _LEVELS[pile] = tuple(levels)
    return found


_LEVELS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Sink pile -> the bits of its cards by number of copies (:func:`_levels`)."""


@dataclasses.dataclass(frozen=True)
class TwinGivingBackSinkMoves(SafeSinkMoves):
    """:class:`SafeSinkMoves` for sinks that give their top back, with more than one deck (module doc)."""

    decks: int = 2

    def _homes(self, sinks: tuple[tuple[Card, ...], ...]) -> dict[Card, int]:
        """:meth:`.SafeSinkMoves._homes` with every copy of the cards ``required`` in the sinks, another copy of the
        card there, and not every copy of it (module doc)."""
        decks = self.decks
        at_least = _in_sinks(sinks, decks, self.bit)
        every_copy = at_least[decks - 1] | self.absent
        others = at_least[decks - 2] if decks >= 2 else -1
        bit, required = self.bit, self.required
        return {
            card | FACE_UP: sink
            for card, sink in self._takers(sinks)
            if not (required[card] & ~every_copy or not bit[card] & others or bit[card] & every_copy)
        }


def safe_moves(game: Any) -> SafeMoves | str:
    """The safe-move dominance of ``game`` for any number of decks, or why there is none."""
    found = safe_sink_moves(game, twins=True)
    decks = game.design.decks
    if isinstance(found, str) or decks == 1:
        return found
    if isinstance(found, BottomSafeMoves):
        return "its rules read a depot's bottom card and it plays with more than one deck"
    if found.refilled:
        return "a trigger refills its columns and it plays with more than one deck"
    fields = {f.name: getattr(found, f.name) for f in dataclasses.fields(found)}
    if any(game.eject_kind[sink] is not EjectKind.LOCKED for sink in found.sinks):
        dealt = {card & ~FACE_UP for pile in game.new_initial_state(seed=0).piles for card in pile}
        if len(found.sinks) < decks * len(found.on_empty & dealt):
            return "its win depots give cards back and are fewer than the decks times the cards an empty one takes"
        return TwinGivingBackSinkMoves(**fields, decks=decks)  # found.absent: the cards the deck does not hold
    held: dict[Card, int] = {}
    for pile in game.new_initial_state(seed=0).piles:  # every deal holds the same cards (found.absent too)
        for card in pile:
            held[card & ~FACE_UP] = held.get(card & ~FACE_UP, 0) + 1
    copies = [0] * max(held.values(), default=0)
    for card, count in held.items():
        copies[count - 1] |= found.bit[card]
    return TwinSafeSinkMoves(**fields, copies=tuple(copies))
