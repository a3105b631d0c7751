"""Dead-card pruning for the solver: a card that can never be played makes a position lost.

It applies to sink games (:mod:`.sink_games`: Golf, Black Hole and their variants). In
such a design a card can leave the piles it lies in only by being dragged onto a sink
(or drawn, from a stock). When it is dragged, the sink's top is the sink's top now or a
card that is outside every sink now: cards in sinks never come out. So a card that must
still be played (win ``allCardsIn`` the sinks: every card outside them but in a stock;
win ``depotsEmpty``: every card in those depots) for which no such card, nor an empty
sink, accepts it, can never be played, and the position cannot be won. A position is
checked with a few bit operations per card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import FACE_UP
from ..model import EjectKind
from .sink_games import sink_shape

DeadCheck = Callable[[Any], bool]
"""``dead(state) -> bool``: True when the position provably cannot be won."""


def dead_card_check(game: Any) -> DeadCheck | None:
    """The check for ``game``, or None when the design is not a sink game."""
    shape = sink_shape(game)
    if shape is None:
        return None
    bit, targets, on_top, on_empty = shape.bit, shape.targets, shape.on_top, shape.on_empty
    outside_depots, pending_depots = shape.outside, shape.pending
    top_only = {d for d in pending_depots if game.eject_kind[d] is EjectKind.TOP_ONLY}

    def dead(state: Any) -> bool:
        piles = state.piles
        outside = 0
        for depot in outside_depots:
            for card in piles[depot]:
                outside |= bit[card & ~FACE_UP]
        for depot in pending_depots:
            below = 0
            ordered = depot in top_only
            for card in piles[depot]:
                card = card & ~FACE_UP
                # Only the top card leaves a topOnly pile: the cards under this one are still
                # there when it is played, so none of them can be the sink's top then.
                available = outside & ~below
                if ordered:
                    below |= bit[card]
                alive = False
                for target in targets:
                    pile = piles[target]
                    if not pile:
                        alive = bool(on_empty[target] & bit[card]) or bool(on_top[target][card] & available)
                    else:
                        alive = bool(on_top[target][card] & (available | bit[pile[-1] & ~FACE_UP]))
                    if alive:
                        break
                if not alive:
                    return True
        return False

    return dead

