"""Moves that change nothing: CZ509 ``pointless-move``.

Two piles are *interchangeable* when swapping their contents changes nothing any rule can
see: :mod:`.symmetry` owns the definition (one depot entry, no rule reads a pile's place or
names one member, no effect deals over the group in order, no draw or action of theirs, their
triggers only feed order-blind sinks), shared with the solver's position key.

A move is *pointless* when the position after it is the position before it up to such a
swap: a lone card passing between two empty foundations, a column moving whole into an
equivalent empty column. For a plain transfer of ``k`` cards from ``S`` to ``T`` that
happens exactly when ``T`` equals ``S`` without its top ``k`` cards, so the check during
random play costs one dictionary look-up per move and a slice comparison for moves between
piles of one class; only when that holds are the positions before and after compared, with
each class's piles sorted. Random play picks moves uniformly, so the share of pointless moves
among the moves it plays estimates their share among the legal moves it met.

A rule that allows such moves on purpose says so: ``"allow": ["pointless-move"]`` in the
accept rule of the target (docs/format.md).
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..diagnostics import Severity
from ..engine.moves import Drag
from .findings import Finding, FindingKind, describe_rule
from .symmetry import depot_classes

if TYPE_CHECKING:
    from ..engine import Game, Move, State


class PointlessCounts(Protocol):
    """What :func:`pointless_findings` reads of the playouts' aggregate (:class:`.playout.Aggregate`)."""

    @property
    def playouts(self) -> int: ...
    @property
    def moves_total(self) -> int: ...
    @property
    def pointless_moves(self) -> Mapping[str, int]: ...
    @property
    def pointless_playouts(self) -> Mapping[str, int]: ...
    @property
    def pointless_examples(self) -> Mapping[str, tuple[int, int, str]]: ...

ALLOW_POINTLESS = FindingKind.POINTLESS_MOVE.value
"""The ``allow`` entry of an accept rule that silences CZ509 for moves onto its depot."""

def interchangeable_classes(game: Game) -> tuple[int, ...]:
    """Per depot index, its class: the lowest index of the depots it is interchangeable with
    (:func:`.symmetry.depot_classes`, which owns the definition; a depot alike with no other is
    its own class)."""
    return depot_classes(game)


@dataclasses.dataclass
class PointlessMoves:
    """The CZ509 check of one game, used inside the random-playout loop."""

    game: Game
    classes: tuple[int, ...]
    watched: tuple[bool, ...]
    """Per target depot: interchangeable with another and its accept rule does not allow the finding."""
    candidates: dict[int, tuple[int, int, int] | None] = dataclasses.field(default_factory=dict)
    """``id(move)`` -> (source, target, count) for drags between piles of one watched class, else None."""

    @classmethod
    def of(cls, game: Game) -> PointlessMoves | None:
        """The check for ``game``, or None when no two of its piles are interchangeable (built once per game)."""
        known = _CACHE.get(game, _UNSEEN)
        if known is not _UNSEEN:
            return known
        classes = interchangeable_classes(game)
        shared = {c for i, c in enumerate(classes) if c != i}
        watched = tuple(
            c in shared and not d.spec.accept.never and ALLOW_POINTLESS not in d.spec.accept.allow
            for c, d in zip(classes, game.design.depots, strict=True)
        )
        check = cls(game, classes, watched) if any(watched) else None
        _CACHE[game] = check
        return check

    @property
    def groups(self) -> list[list[int]]:
        """The classes of more than one depot, each a list of depot indexes."""
        by_class: dict[int, list[int]] = {}
        for depot, c in enumerate(self.classes):
            by_class.setdefault(c, []).append(depot)
        return [members for members in by_class.values() if len(members) > 1]

    def classify(self, move: Move) -> tuple[int, int, int] | None:
        """Whether ``move`` may change nothing (a drag between piles of one watched class).

        Remembered for the moves the engine interns (their ids stay theirs for the game's life).
        """
        game = self.game
        indexes = game.drag_indexes.get(id(move))
        interned = indexes is not None or id(move) in game.tap_of
        if indexes is None and isinstance(move, Drag):
            source, target = game.index.get(move.source, -1), game.index.get(move.target, -1)
            indexes = (source, target, move.count, -1) if source >= 0 and target >= 0 else None
        found = None
        if indexes is not None:
            source, target, count, _ = indexes
            if self.watched[target] and self.classes[source] == self.classes[target]:
                found = (source, target, count)
        if interned:
            self.candidates[id(move)] = found
        return found

    def key(self, state: State) -> Hashable:
        """The position with the piles of each class sorted: equal for positions that differ by a swap."""
        piles, declared, redeals = state.piles, state.declared, state.redeals
        fixed = tuple(
            (piles[d], declared[d], redeals[d]) for d, c in enumerate(self.classes) if c == d and d not in self._grouped
        )
        swapped = tuple(tuple(sorted((piles[d], declared[d], redeals[d]) for d in group)) for group in self._groups)
        return (fixed, swapped, tuple(state.uses), state.reshuffles, state.cascade)

    def apply(self, state: State, move: Move, found: tuple[int, int, int] | None = None) -> tuple[str, str] | None:
        """Play ``move`` on ``state``; (its accept rule's label, an example text) when it changed nothing.

        ``found`` is ``classify(move)`` when the caller has it.
        """
        if found is None:
            found = self.classify(move)
        if found is None:
            state.apply(move)
            return None
        source, target, count = found
        piles = state.piles
        pile = piles[source]
        if len(pile) - count != len(piles[target]) or pile[:-count] != piles[target]:
            state.apply(move)  # not a swap of two piles: something changes
            return None
        before = self.key(state)
        text = example_text(state, found, move)
        state.apply(move)
        if self.key(state) != before:
            return None
        return self.game.accept_stat[target], text

    def __post_init__(self) -> None:
        self._groups = self.groups
        self._grouped = {d for group in self._groups for d in group}


_CACHE: weakref.WeakKeyDictionary[Game, PointlessMoves | None] = weakref.WeakKeyDictionary()
_UNSEEN: Any = object()


def pointless_findings(game: Game, aggregate: PointlessCounts) -> list[Finding]:
    """One CZ509 warning per accept rule that let random play make moves that change nothing."""
    moves, total_moves = aggregate.pointless_moves, aggregate.moves_total
    found = []
    for label in sorted(moves):
        count = moves[label]
        index, step, text = aggregate.pointless_examples[label]
        share = 100 * count / total_moves if total_moves else 0.0
        found.append(
            Finding(
                FindingKind.POINTLESS_MOVE,
                Severity.WARNING,
                f"{count} of {total_moves} random moves ({share:.1f}%), in {aggregate.pointless_playouts[label]} of "
                f"{aggregate.playouts} playouts, only swapped two interchangeable piles and changed nothing; "
                f"{describe_rule(label)} allows them. For example playout {index}, move {step + 1}: {text}. "
                f'Refuse the move in that rule, or add "allow": ["{ALLOW_POINTLESS}"] to it if the move is meant',
                game.rule_pointers.get(label, ""),
            )
        )
    return found


def example_text(state: State, found: tuple[int, int, int], move: Move) -> str:
    """The move with its cards and the two piles it joins, for the finding's example."""
    source, target, _ = found
    names = state.game.names
    held = len(state.piles[source])
    below = f"{held} card{'s' if held != 1 else ''} on {names[source]}"
    under = "empty" if not state.piles[target] else "holding the same cards as under the moved ones"
    return f"{state.describe(move)} ({below}, {names[target]} {under})"

