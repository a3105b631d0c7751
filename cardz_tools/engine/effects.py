"""What triggers and actions do: move cards, compact a group, flip a card, deal, redeal.

Each effect of the design is compiled once into a small object whose
``run(state, owner)`` changes ``state`` in place; ``owner`` is the depot that
holds the trigger or action (what ``@self`` stands for).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from operator import is_not, itemgetter, ne

from ..cards import FACE_UP, shuffle
from ..model import SELF, DepotType, Design, Effect
from .plan import CompiledEffect, EffectState, InlineEffect
from .rules import Chooser, Compiled, RuleError, Site, compile_chooser, compile_rule, constant_of

ALL = -1
"""A move count meaning "the whole pile"."""

RESHUFFLE_STEP = 0xD1B54A32D192ED03
"""The k-th ``redeal`` of a game shuffles with seed ``(N + k * RESHUFFLE_STEP) mod 2**64`` (docs/format.md)."""
_MASK64 = (1 << 64) - 1


def reshuffle_seed(seed: int | None, k: int) -> int:
    """The seed of the ``k``-th reshuffle (k = 1, 2, ...) of a game dealt from ``seed`` (None: a given deck, 0)."""
    return ((seed or 0) + k * RESHUFFLE_STEP) & _MASK64


class _RunOnly:
    """An effect generated code calls (:meth:`run`) rather than writes out."""

    __slots__ = ()

    def inline(self, owner: str) -> InlineEffect | None:
        """None: generated code calls :meth:`run`."""
        return None


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
        raise RuleError(
            f"'{reference}' names {len(depots)} depots; an effect moves cards to or from one", f"{pointer}/{key}"
        )
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

    def inline(self, owner: str) -> InlineEffect | None:
        """Python lines doing the same as :meth:`run` in generated code where ``S`` is the state,
        ``P`` its piles and the local ``owner`` the ``@self`` depot; None when the count is a rule."""
        if self.count_rule is not None:
            return None
        reaches = (self.source, self.target)
        if self.count != ALL and self.count <= 0:
            return InlineEffect((), reaches)
        source = owner if self.source < 0 else str(self.source)
        target = owner if self.target < 0 else str(self.target)
        if source == target:
            return InlineEffect((), reaches)
        count = f"len(P[{source}])" if self.count == ALL else str(int(self.count))
        tests = [f"{count} > 0"] if self.count == ALL else []
        if self.source < 0 or self.target < 0:
            tests.append(f"{source} != {target}")
        call = f"S.transfer({source}, {target}, {count}, {self.face_up!r})"
        return InlineEffect((f"if {' and '.join(tests)}: {call}" if tests else call,), reaches)

    def run(self, state: EffectState, owner: int) -> None:
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


class MoveFromGroup(_RunOnly):
    """``{"kind": "move"}`` with ``from`` naming several depots: the top ``count`` of each chosen member.

    ``where`` (site where) chooses the members, all before any card moves; a
    ``count`` expression sees the member as ``depot`` (docs/format.md, Effects).
    """

    __slots__ = ("members", "where", "choose", "target", "count", "count_rule", "face_up")

    def __init__(
        self,
        members: tuple[int, ...],
        where: Compiled | None,
        target: int,
        count: int,
        count_rule: Compiled | None,
        face_up: bool | None,
        choose: Chooser | None = None,
    ) -> None:
        self.members = members
        self.where = where
        self.choose = choose
        """``where`` over all the members in one call (:func:`.rules.compile_chooser`), if given."""
        self.target = target
        self.count = count
        self.count_rule = count_rule
        self.face_up = face_up

    def run(self, state: EffectState, owner: int) -> None:
        target = owner if self.target < 0 else self.target
        piles = state.piles
        where, choose = self.where, self.choose
        if choose is not None:
            chosen = choose(piles, state, self.members)
        else:
            chosen = [m for m in self.members if where is None or where(piles, state, m)]
        for member in chosen:
            if self.count_rule is not None:
                count = int(self.count_rule(piles, state, member))
            elif self.count == ALL:
                count = len(piles[member])
            else:
                count = self.count
            if count > 0 and member != target and piles[member]:
                state.transfer(member, target, count, self.face_up)


class Compact(_RunOnly):
    """``{"kind": "compact"}``: slide the group's piles together in reading order, refill the gaps.

    ``source`` is the depot that refills them (-1: the owner), or None when the effect has no
    ``from``: then the piles only slide together.
    """

    __slots__ = ("members", "member_set", "source", "piles_of", "start")

    def __init__(self, members: tuple[int, ...], source: int | None) -> None:
        self.members = members
        self.member_set = frozenset(members)
        self.source = source
        self.piles_of: Callable[[Sequence[tuple[int, ...]]], tuple[tuple[int, ...], ...]] = (
            itemgetter(*members) if len(members) > 1 else lambda piles: (piles[members[0]],)
        )
        """The members' piles, in order, in one C call."""
        contiguous = members == tuple(range(members[0], members[0] + len(members)))
        self.start = members[0] if contiguous else -1
        """The first member when the members are consecutive depots (their piles are one slice), else -1."""

    def run(self, state: EffectState, owner: int) -> None:
        piles = state.piles
        members = self.members
        if self.source is None:
            self._slide(state)
            return
        source = owner if self.source < 0 else self.source
        if source not in self.member_set and not state.game.auto_flip[source]:
            self._run_apart(state, source)
            return
        kept = self._slide(state)
        for member in members[kept:]:
            if not piles[source] or member == source:
                continue
            state.transfer(source, member, 1, True)

    def _slide(self, state: EffectState) -> int:
        """Slide the members' piles to the lowest members, order kept; how many piles there are."""
        piles = state.piles
        kept = [piles[m] for m in self.members if piles[m]]
        for i, member in enumerate(self.members):
            pile = kept[i] if i < len(kept) else ()
            if piles[member] != pile:
                state.set_pile(member, pile)
        return len(kept)

    def _run_apart(self, state: EffectState, source: int) -> None:
        """The same when ``source`` is outside the group and turns no card up, without transfers.

        Members before the first gap keep their piles; the rest are rebuilt at once, and
        only those whose pile differs count as changed.
        """
        piles = state.piles
        old = self.piles_of(piles)
        try:
            first = old.index(())
        except ValueError:
            return  # no gap: nothing slides and nothing is refilled
        tail = old[first:]
        new = list(filter(None, tail))
        stock = piles[source]
        refill = min(len(tail) - len(new), len(stock))
        if refill:
            cut = len(stock) - refill
            new += [(card | FACE_UP,) for card in reversed(stock[cut:])]
            state.set_pile(source, stock[:cut])
        new += [()] * (len(tail) - len(new))
        members = self.members[first:]
        start = self.start
        if start >= 0:
            piles[start + first : start + len(self.members)] = new
        else:
            for member, pile in zip(members, new, strict=False):
                piles[member] = pile
        # A pile replaced by an equal one (duplicate cards) may count as changed: its triggers are
        # only checked again, which changes nothing, but a named suit must end only on a real change.
        differs = ne if state.game.has_declarations else is_not
        state.changed(compress(members, map(differs, tail, new)))


class Deal(_RunOnly):
    """``{"kind": "deal"}``: one card from the top of ``source`` onto each target in turn, ``count`` rounds.

    Stops when ``source`` is empty; ``"all"`` deals rounds until it is. A target
    that is ``source`` itself is skipped.
    """

    __slots__ = ("source", "targets", "count", "count_rule", "face_up")

    def __init__(
        self, source: int, targets: tuple[int, ...], count: int, count_rule: Compiled | None, face_up: bool
    ) -> None:
        self.source = source
        self.targets = targets
        self.count = count
        self.count_rule = count_rule
        self.face_up = face_up

    def run(self, state: EffectState, owner: int) -> None:
        source = owner if self.source < 0 else self.source
        targets = [t for t in self.targets if t != source]
        if not targets:
            return
        piles = state.piles
        if self.count_rule is not None:
            rounds = int(self.count_rule(piles, state, owner))
        elif self.count == ALL:
            rounds = -(-len(piles[source]) // len(targets))
        else:
            rounds = self.count
        for _ in range(rounds):
            for target in targets:
                if not piles[source]:
                    return
                state.transfer(source, target, 1, self.face_up)


class Redeal(_RunOnly):
    """``{"kind": "redeal"}``: gather the members ``keep`` does not hold for, reshuffle, deal them back.

    In order: ``keep`` for every member; the other members' cards gathered in
    reading order, each pile bottom to top; every ``count`` evaluated (the
    gathered piles now empty); the k-th reshuffle of the game
    (:func:`reshuffle_seed`); ``count`` cards dealt to each of those members in
    reading order. Cards left over go onto the first Stock face down (the next
    card of the shuffled order on top), or without one onto the last member
    dealt to (the last member gathered from, when every count was 0).
    """

    __slots__ = ("members", "keep", "count", "count_rule", "face_up", "stock")

    def __init__(
        self,
        members: tuple[int, ...],
        keep: Compiled | None,
        count: int,
        count_rule: Compiled | None,
        face_up: bool,
        stock: int | None,
    ) -> None:
        self.members = members
        self.keep = keep
        self.count = count
        self.count_rule = count_rule
        self.face_up = face_up
        self.stock = stock

    def run(self, state: EffectState, owner: int) -> None:
        piles = state.piles
        keep = self.keep
        kept = frozenset(m for m in self.members if keep is not None and keep(piles, state, m))
        given = [m for m in self.members if m not in kept]
        gathered: list[int] = []
        for member in given:
            gathered += piles[member]
            if piles[member]:
                state.set_pile(member, ())
        counts = [
            int(self.count_rule(piles, state, m, kept)) if self.count_rule is not None else self.count for m in given
        ]
        state.reshuffles += 1
        order = shuffle(gathered, reshuffle_seed(state.seed, state.reshuffles))
        face_up = self.face_up
        order = [c | FACE_UP if face_up else c & ~FACE_UP for c in order]
        position = 0
        last = given[-1] if given else None
        for member, count in zip(given, counts, strict=False):
            if position >= len(order):
                break
            take = max(0, min(count, len(order) - position))
            if take:
                state.set_pile(member, tuple(order[position : position + take]))
                position += take
                last = member
        left = order[position:]
        if not left:
            return
        if self.stock is not None:
            pile = piles[self.stock] + tuple(c & ~FACE_UP for c in reversed(left))
            state.set_pile(self.stock, pile)
        elif last is not None:
            state.set_pile(last, piles[last] + tuple(left))


class Flip(_RunOnly):
    """``{"kind": "flip"}``: turn the top card of a depot face up."""

    __slots__ = ("depot",)

    def __init__(self, depot: int) -> None:
        self.depot = depot

    def run(self, state: EffectState, owner: int) -> None:
        depot = owner if self.depot < 0 else self.depot
        pile = state.piles[depot]
        if pile and not pile[-1] & FACE_UP:
            state.set_pile(depot, pile[:-1] + (pile[-1] | FACE_UP,))


def _count(effect: Effect, design: Design, site: Site = Site.COUNT) -> tuple[int, Compiled | None]:
    """An effect's count: a constant (``ALL`` for ``"all"``) or a compiled rule of ``site``."""
    if effect.count is None:
        return 1, None
    if effect.count.text.strip() == "all":
        return ALL, None
    value = constant_of(effect.count.text)
    if isinstance(value, int) and not isinstance(value, bool):
        return value, None
    return 0, compile_rule(effect.count, site, design)


def compile_effect(effect: Effect, design: Design) -> CompiledEffect:
    """Compile one ``do`` item.

    :raises RuleError: for an unknown kind or a reference that names no single depot.
    """
    if effect.kind == "move":
        count, rule = _count(effect, design)
        target = _one_depot(design, effect.target, effect.pointer, "to")
        members = design.resolve(effect.source) if effect.source not in (None, SELF) else None
        if effect.where is not None or (members is not None and len(members) > 1):
            if not members:
                raise RuleError(f"'{effect.source}' names no depot or group", f"{effect.pointer}/from")
            where = compile_rule(effect.where, Site.WHERE, design) if effect.where is not None else None
            choose = compile_chooser(effect.where, design) if effect.where is not None else None
            return MoveFromGroup(members, where, target, count, rule, effect.face_up, choose)
        return MoveCards(
            _one_depot(design, effect.source, effect.pointer, "from"),
            target,
            count,
            rule,
            effect.face_up,
        )
    if effect.kind == "deal":
        count, rule = _count(effect, design)
        targets = design.resolve(effect.target or "")
        if not targets:
            raise RuleError(f"'{effect.target}' names no depot, group or type", f"{effect.pointer}/to")
        face_up = True if effect.face_up is None else effect.face_up
        return Deal(_one_depot(design, effect.source, effect.pointer, "from"), targets, count, rule, face_up)
    if effect.kind == "redeal":
        members = design.resolve(effect.group or "")
        if not members:
            raise RuleError(f"'{effect.group}' names no group", f"{effect.pointer}/group")
        keep = compile_rule(effect.keep, Site.KEEP, design) if effect.keep is not None else None
        count, rule = _count(effect, design, Site.REDEAL)
        if count == ALL:
            raise RuleError("a redeal count is a number or an expression, not 'all'", f"{effect.pointer}/count")
        stock = next((d.index for d in design.depots if d.type is DepotType.STOCK), None)
        face_up = True if effect.face_up is None else effect.face_up
        return Redeal(members, keep, count, rule, face_up, stock)
    if effect.kind == "compact":
        members = design.resolve(effect.group or "")
        if not members:
            raise RuleError(f"'{effect.group}' names no group", f"{effect.pointer}/group")
        refill = None if effect.source is None else _one_depot(design, effect.source, effect.pointer, "from")
        return Compact(members, refill)
    if effect.kind == "flip":
        return Flip(_one_depot(design, effect.depot or SELF, effect.pointer, "depot"))
    raise RuleError(f"the engine does not know the effect kind {effect.kind!r}", f"{effect.pointer}/kind")


def compile_effects(effects: tuple[Effect, ...], design: Design) -> tuple[CompiledEffect, ...]:
    """Compile a ``do`` list."""
    return tuple(compile_effect(e, design) for e in effects)
