"""Moves that only shuffle runs: the narrowed move set of an incomplete search (the multi-suit Spider family).

In a game that builds down regardless of suit but moves only runs in one suit (Spiderette, Spider,
Mrs Mop), most legal moves carry a run, or the top part of one, from one column to another
without uncovering anything: a suited run split in two, or a run lying on a card it may be built
on moved onto another such card. Those moves multiply the positions between two deals of the
stock many times over, and a depth-first search spends its budget on them. :class:`RunMoves`
drops, for one member of the search's portfolio, every drag of a run whose card below it

* is face up and moves together with it (a *split*: the pair table of the eject rules,
  :mod:`.joints`), or
* is face up, takes the run by the accept rules but does not move with it (a *lateral* move:
  the run lies on a card it is built on and goes onto another such card),

unless the run lands on a card it moves together with (a build in suit), or the drag takes the
whole pile. Every other move is kept: taps, drags that uncover a face-down card or a card the
run was not built on, drags onto an empty depot from a run not split.

This is no dominance: a winning line may need a dropped move (a split that lets a card of the
other suit go on the card below). So the member that uses it is incomplete: its wins are wins
(replayed through the engine like every other), its "lost" proves nothing and is never
reported. The tables are read off the compiled rules (the card table of :mod:`.dominance`, the
pair table of :mod:`.joints`); a design whose rules cannot be read so, or in which every pair a
rule builds also moves together (Spider one suit, FreeCell), gets no narrowed set.
"""

from __future__ import annotations

from typing import Any

from ..cards import FACE_UP
from .dominance import build_table, card_bits
from .joints import joint_table


class RunMoves:
    """The drags :meth:`keeps` of one game (module doc)."""

    def __init__(self, game: Any, built: dict[int, int], joints: dict[int, int]) -> None:
        self._drags = game.drag_indexes
        self._built = built
        self._joints = joints
        self._bit = card_bits()

    def keeps(self, piles: tuple[tuple[int, ...], ...], move: Any) -> bool:
        """Whether the move set keeps ``move`` in the position with ``piles`` (module doc)."""
        drag = self._drags.get(id(move))
        if drag is None:  # a tap or an action
            return True
        source, target, count, _ = drag
        pile = piles[source]
        if len(pile) <= count:
            return True
        under = pile[-count - 1]
        if not under & FACE_UP:
            return True
        moved = self._bit.get(pile[-count] & ~FACE_UP, 0)
        onto = piles[target]
        if onto and self._joints.get(onto[-1] & ~FACE_UP, -1) & moved:
            return True  # a build in suit
        under &= ~FACE_UP
        if self._joints.get(under, -1) & moved:
            return False  # a split of a run that moves together
        return not (onto and self._built.get(under, -1) & moved)  # lateral: from one build onto another


def run_moves(game: Any, columns: tuple[int, ...]) -> RunMoves | str:
    """The narrowed move set of ``game`` whose ``columns`` are the depots runs move between, or
    why it has none."""
    built = build_table(game)
    if built is None:
        return "its accept rules cannot be read as a card table"
    joints = joint_table(game, columns)
    if joints is None:
        return "its eject rules let every pair go together"
    bit = card_bits()
    dealt = {card & ~FACE_UP for pile in game.new_initial_state(seed=0).piles for card in pile}
    cards = sum(bit.get(card, 0) for card in dealt)
    if not any(built.get(below, 0) & cards & ~joints.get(below, -1) for below in dealt):
        return "every pair of its cards that its rules build also moves together"
    return RunMoves(game, built, joints)
