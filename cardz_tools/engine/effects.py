"""What triggers and actions do: move cards, compact a group, flip a card.

Each effect of the design is compiled once into a small object whose
``run(state, owner)`` changes ``state`` in place; ``owner`` is the depot that
holds the trigger or action (what ``@self`` stands for).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..cards import FACE_UP
from ..model import SELF, Design, Effect
from .rules import Compiled, RuleError, Site, compile_rule, constant_of

if TYPE_CHECKING:
    from .state import State

ALL = -1
"""A move count meaning "the whole pile"."""


class CompiledEffect(Protocol):
    """One compiled effect."""

    def run(self, state: State, owner: int) -> None:
        """Change ``state``; ``owner`` is the ``@self`` depot."""


def _one_depot(design: Design, reference: str | None, pointer: str, key: str) -> int:
    """The depot index a ``from``/``to``/``depot`` reference names (-1 for ``@self``)."""
    if reference == SELF:
        return -1
    if reference is None:
        raise RuleError(f"the effect needs '{key}'", pointer)
    depots = design.resolve(reference)
    if not depots:
        raise RuleError(f"'{reference}' names no depot", f"{pointer}/{key}")
    if len(depots) > 1:
        raise RuleError(f"'{reference}' names {len(depots)} depots; an effect moves cards to or from one", f"{pointer}/{key}")
    return depots[0]


class MoveCards:
    """``{"kind": "move"}``: the top ``count`` cards of ``source`` onto ``target``, order kept."""

    __slots__ = ("source", "target", "count", "count_rule", "face_up")

    def __init__(self, source: int, target: int, count: int, count_rule: Compiled | None, face_up: bool | None) -> None:
        self.source = source
        self.target = target
        self.count = count
        self.count_rule = count_rule
        self.face_up = face_up

    def run(self, state: State, owner: int) -> None:
        source = owner if self.source < 0 else self.source
        target = owner if self.target < 0 else self.target
        if self.count_rule is not None:
            count = int(self.count_rule(state.piles, state, owner))
        elif self.count == ALL:
            count = len(state.piles[source])
        else:
            count = self.count
        if count > 0 and source != target:
            state.transfer(source, target, count, self.face_up)


class Compact:
    """``{"kind": "compact"}``: slide the group's piles together in reading order, refill the gaps."""

    __slots__ = ("members", "source")

    def __init__(self, members: tuple[int, ...], source: int) -> None:
        self.members = members
        self.source = source

    def run(self, state: State, owner: int) -> None:
        piles = state.piles
        members = self.members
        kept = [piles[m] for m in members if piles[m]]
        source = owner if self.source < 0 else self.source
        if source not in members and not state.game.auto_flip[source]:
            self._run_apart(state, source, kept)
            return
        for i, member in enumerate(members):
            pile = kept[i] if i < len(kept) else ()
            if piles[member] != pile:
                state.set_pile(member, pile)
        for member in members[len(kept):]:
            if not piles[source] or member == source:
                continue
            state.transfer(source, member, 1, True)

    def _run_apart(self, state: State, source: int, kept: list[tuple[int, ...]]) -> None:
        """The same when ``source`` is outside the group and turns no card up, without transfers."""
        piles = state.piles
        members = self.members
        changes = [(member, pile) for member, pile in zip(members, kept) if piles[member] != pile]
        stock = piles[source]
        gaps = members[len(kept):]
        refill = min(len(gaps), len(stock))
        if refill:
            changes.append((source, stock[: len(stock) - refill]))
            changes += [(gaps[i], (stock[-1 - i] | FACE_UP,)) for i in range(refill)]
        changes += [(member, ()) for member in gaps[refill:] if piles[member]]
        state.set_piles(changes)


class Flip:
    """``{"kind": "flip"}``: turn the top card of a depot face up."""

    __slots__ = ("depot",)

    def __init__(self, depot: int) -> None:
        self.depot = depot

    def run(self, state: State, owner: int) -> None:
        depot = owner if self.depot < 0 else self.depot
        pile = state.piles[depot]
        if pile and not pile[-1] & FACE_UP:
            state.set_pile(depot, pile[:-1] + (pile[-1] | FACE_UP,))


def _count(effect: Effect, design: Design) -> tuple[int, Compiled | None]:
    if effect.count is None:
        return 1, None
    if effect.count.text.strip() == "all":
        return ALL, None
    value = constant_of(effect.count.text)
    if isinstance(value, int) and not isinstance(value, bool):
        return value, None
    return 0, compile_rule(effect.count, Site.COUNT, design)


def compile_effect(effect: Effect, design: Design) -> CompiledEffect:
    """Compile one ``do`` item.

    :raises RuleError: for an unknown kind or a reference that names no single depot.
    """
    if effect.kind == "move":
        count, rule = _count(effect, design)
        return MoveCards(
            _one_depot(design, effect.source, effect.pointer, "from"),
            _one_depot(design, effect.target, effect.pointer, "to"),
            count,
            rule,
            effect.face_up,
        )
    if effect.kind == "compact":
        members = design.resolve(effect.group or "")
        if not members:
            raise RuleError(f"'{effect.group}' names no group", f"{effect.pointer}/group")
        return Compact(members, _one_depot(design, effect.source, effect.pointer, "from"))
    if effect.kind == "flip":
        reference = effect.raw.get("depot", SELF)
        return Flip(_one_depot(design, reference, effect.pointer, "depot"))
    raise RuleError(f"the engine does not know the effect kind {effect.kind!r}", f"{effect.pointer}/kind")


def compile_effects(effects: tuple[Effect, ...], design: Design) -> tuple[CompiledEffect, ...]:
    """Compile a ``do`` list."""
    return tuple(compile_effect(e, design) for e in effects)


