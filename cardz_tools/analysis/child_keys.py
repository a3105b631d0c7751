"""The key of a drag's child without copying the position and playing the move.

Most children a search lists are positions it has stored already (Klondike draw three: about
85k of every 110k), and for those the copy and the move are spent only to be looked up. A drag
(:meth:`State.apply`) moves the top cards of its source onto its target (:meth:`State.transfer`:
the cards keep how they lie, and the source's new top turns face up where ``autoFlipTop`` says
so), clears the named suits of both depots, counts one more move, forgets the listed moves and
settles the triggers. When

* the design names no suits (no wild card declares one: every named suit stays -1), and
* no trigger of the source, of the target or of a depot checked after every move holds on the
  piles the drag leaves (settling tests exactly the triggers of those depots first, on those
  piles, and stops at once when none holds: ``engine/triggers.py``; the parent is settled, so a
  trigger of any other depot, whose pile is the same, is still false),

the child is the parent with those two piles changed and nothing else a key reads (the redeals,
the uses, the reshuffles, the cascade flag and the named suits are the parent's; the move count
and the listed moves are read by no key). So the child's key is the key function's on the parent
with the two piles put in place for the call, and put back after it. Otherwise the child key
answers None and the caller copies and plays. Decided from the compiled game; no game is named.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from ..cards import FACE_UP
from .position_key import KeyFunction

Fires = Callable[[Any, int, int], bool]
"""``fires(parent, source, target)``: whether a trigger settling tests first holds on ``parent``'s piles."""


class ChildKeys(NamedTuple):
    """The key of a drag's child without building it, and the child once it is wanted."""

    key: Callable[[Any, Any], Hashable | None]
    """``key(parent, move)``: the key of ``parent`` after the drag ``move`` (one of its moves), or None when
    settling may fire a trigger there or the move is not a drag the engine interned."""
    build: Callable[[Any, Any], Any]
    """``build(parent, move)``, right after ``key(parent, move)`` gave a key: that child (:meth:`State.dragged`
    with the piles the key was worked out on)."""


def child_keys(game: Any, key_of: KeyFunction, fires: Fires | None = None) -> ChildKeys | None:
    """The :class:`ChildKeys` of ``game`` under ``key_of`` (``fires``: :func:`trigger_test` unless given), or None
    where a drag may name a suit, or, unless ``fires`` is given, where a trigger is checked after every move.

    Those (not local: Spider's ten columns, Canfield's four) would be tested for every child outside the
    engine, whose settling tests them inline: the children cost as much as copying and playing (Spider 0.98×,
    Canfield with runs 1.00× in instructions a position, ``docs/analysis.md``)."""
    if game.has_declarations:
        return None
    if fires is None and game.triggers:
        if game.always_checked:
            return None
        fires = trigger_test(game)
    indexes, auto_flip = game.drag_indexes, game.auto_flip
    last: list[Any] = [None, None, 0, (), 0, ()]
    """The parent and move of the last key given, and the drag's piles (source, its pile, target, its pile)."""

    def key(parent: Any, move: Any) -> Hashable | None:
        found = indexes.get(id(move))
        if found is None:
            return None
        source, target, count, _ = found
        piles = parent.piles
        pile, onto = piles[source], piles[target]
        cut = len(pile) - count
        rest = pile[:cut]
        if rest and not rest[-1] & FACE_UP and auto_flip[source]:
            rest = (*rest[:-1], rest[-1] | FACE_UP)
        piles[source], piles[target] = rest, onto + pile[cut:]
        try:
            if fires is not None and fires(parent, source, target):
                return None
            found_key = key_of(parent)
            last[:] = parent, move, source, rest, target, piles[target]
            return found_key
        finally:
            piles[source], piles[target] = pile, onto

    def build(parent: Any, move: Any) -> Any:
        if last[0] is not parent or last[1] is not move:
            raise ValueError("build() follows the key() of the same parent and move")
        return parent.dragged(*last[2:])

    return ChildKeys(key, build)


def trigger_test(game: Any) -> Fires:
    """Whether a trigger of the source, of the target or of a depot checked after every move holds on the piles
    of the position given (the child's, in place): the tests settling makes first (module doc)."""
    triggers_of, has = game.triggers_of, game.has_trigger
    always = tuple(trigger for depot in game.always_checked for trigger in triggers_of[depot])

    def fires(parent: Any, source: int, target: int) -> bool:
        piles = parent.piles
        for trigger in always:
            if trigger.when(piles, parent, trigger.depot):
                return True
        for depot in (source, target):
            if has[depot]:
                for trigger in triggers_of[depot]:
                    if trigger.when(piles, parent, depot):
                        return True
        return False

    return fires
